"""Times one training step's forward + backward on real corpus batches with the explicit attention (need_attn=True,
as for read-outs) and the chunked one the training loop uses (model.py, ATTN_CHUNK), alternating in one process,
best of 3 each (training/README, "Speed"). Run from training/py with one thread per process, as the pipeline does."""
import random
import time

import torch
import torch.nn.functional as F

import model as M
from data import batches, collate, load_json, load_split


def main():
    torch.set_num_threads(1)
    train = load_split("train")
    vocab = load_json("vocab.json")
    V = vocab["vocab_size"]
    m = M.Qwen3(M.Config(vocab_size=V))
    q = sorted(batches(train, 4096, random.Random(0)), key=lambda b: max(len(train[i][0]) for i in b))
    total = {True: 0.0, False: 0.0}
    for b in [q[int(len(q) * f)] for f in (0.1, 0.3, 0.5, 0.7, 0.9)]:
        ids, mask = collate(train, b, vocab["special"]["<|endoftext|>"])
        best = {}
        for _ in range(3):
            for explicit in (True, False):
                t = time.time()
                logits, _, _ = m(ids, pad_mask=mask, need_attn=explicit)
                F.cross_entropy(logits[:, :-1].reshape(-1, V), ids[:, 1:].reshape(-1)).backward()
                best[explicit] = min(best.get(explicit, 1e9), time.time() - t)
        for k in total:
            total[k] += best[k]
        print(f"batch {tuple(ids.shape)}: explicit {best[True]:.2f} s, chunked {best[False]:.2f} s", flush=True)
    print(f"sum: explicit {total[True]:.2f} s, chunked {total[False]:.2f} s, ratio {total[False] / total[True]:.2f}")


if __name__ == "__main__":
    main()
