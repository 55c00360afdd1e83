"""Where a checkpoint's first two layers look inside repeated names (issue 18, training/README item 9): for the
name repeats of the first validation sequences of a family, per token of the repeat, the layer-0 heads' attention
to the previous token (a previous-token head puts ~1 there) and each layer-1 head's three strongest keys, with the
model's prediction for the next token.
  python3 name_attention.py <checkpoint.pt> [--family weather] [--repeats 3]"""
import argparse

import torch

from data import load_split
from name_continuation import name_repeats, name_tokens
from shipped import load_training_checkpoint
from tokens import Vocab

if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("checkpoint")
    ap.add_argument("--family", default="weather")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    torch.set_num_threads(1)
    model = load_training_checkpoint(args.checkpoint)
    model.eval()
    vocab = Vocab.load()
    text, caps, lower = name_tokens(vocab)

    def tok(i):
        return vocab.tokens[i].replace("\u0120", "␣").replace("\u010a", "⏎")

    shown = 0
    for s in [s for s, f in load_split("val") if f == args.family][:6]:
        seq = s.tolist()
        with torch.no_grad():
            logits, att, _ = model(torch.tensor(s[None]), need_attn=True)
        pred = logits[0].argmax(-1).tolist()
        for j, k, o in name_repeats(seq, text, caps, lower):
            print(f"repeat at {j}: {''.join(tok(t) for t in seq[j - 4:k + 1])!r}; earlier at {o}: "
                  f"{''.join(tok(t) for t in seq[o - 3:o + 6])!r}")
            for q in range(j, k):
                prev = " ".join(f"{float(att[0][0, h, q, q - 1]):.2f}" for h in range(att[0].shape[1]))
                print(f"  {q} {tok(seq[q])!r} -> next {tok(seq[q + 1])!r}, predicted {tok(pred[q])!r}; "
                      f"layer 0 to the previous token: {prev}")
                for h in range(att[1].shape[1]):
                    top = torch.topk(att[1][0, h, q], 3)
                    print(f"     L1H{h} " + " ".join(f"{int(p)}:{tok(seq[int(p)])!r}:{float(v):.2f}"
                                                    for v, p in zip(top.values, top.indices)))
            shown += 1
            if shown >= args.repeats:
                raise SystemExit
