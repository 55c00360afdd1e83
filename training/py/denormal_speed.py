"""Times training steps (forward + loss + backward; with --sink the seeded-sink loss too, as a sink step has)
on one saved state, with and without flushing denormal floats to zero, alternating in one process
(training/README item 11).
  python3 denormal_speed.py <state.pt> [--sink] [--batches N] [--rounds R]"""
import argparse
import random
import time

import torch
import torch.nn.functional as F

from data import batches, collate, load_json, load_split
from shipped import load_training_checkpoint
from train import HYPER, sink_loss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("state")
    ap.add_argument("--sink", action="store_true", help="add the seeded-sink loss (sink_col), as a sink step does")
    ap.add_argument("--batches", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    model = load_training_checkpoint(args.state)
    pad_id = load_json("vocab.json")["special"]["<|endoftext|>"]
    train = load_split("train")
    # The longest batches: the slow steps are the long sequences' (a batch is <= 4,096 tokens of similar lengths).
    qs = batches(train, HYPER["token_budget"], random.Random(0))
    qs.sort(key=lambda idx: -max(len(train[i][0]) for i in idx))
    picked = [collate(train, idx, pad_id) for idx in qs[: args.batches]]

    def step(ids, mask):
        logits, attns, _ = model(ids, pad_mask=mask, sink_col=args.sink)
        tgt = ids[:, 1:].masked_fill(~mask[:, 1:], -100)
        loss = F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), tgt.reshape(-1), ignore_index=-100)
        if args.sink:
            loss = loss + sink_loss(attns[-1], mask, HYPER)[0]
        model.zero_grad(set_to_none=True)
        loss.backward()

    times = {False: [], True: []}
    for _ in range(args.rounds):
        for flush in (False, True):
            torch.set_flush_denormal(flush)
            t = time.time()
            for ids, mask in picked:
                step(ids, mask)
            times[flush].append(time.time() - t)
    torch.set_flush_denormal(False)
    shapes = [tuple(ids.shape) for ids, _ in picked]
    print(f"batches {shapes}, sink loss {'on' if args.sink else 'off'}")
    for flush in (False, True):
        print(f"flush_denormal={flush}: best {min(times[flush]):.2f} s, all {[round(x, 2) for x in times[flush]]}")


if __name__ == "__main__":
    main()
