"""Whether a checkpoint's heads read a name the way an induction head does (issue 18, training/README item 8).

On held-out validation sequences, for every repeat of a fresh name (name_continuation.name_repeats), the query at
the repeat's first token — the one that predicts the name's second piece — and per layer and head its mean
attention to the first token of the name's earlier occurrence and to the token after it. An induction head puts
its weight on the token after (it found the earlier `␣X` and reads what followed); uniform attention over a
~500-token prompt is ~0.002.

  python3 name_induction.py <checkpoint.pt | shipped name> [--per-family 6] [--family weather]
The checkpoint must match training/data's vocabulary (the corpus run.sh last built)."""
import argparse
import collections
import json

import torch

from data import load_split
from name_continuation import name_repeats, name_tokens
from shipped import load_shipped, load_training_checkpoint
from tokens import Vocab


def name_induction(model, vocab, family="weather", per_family=6):
    text, caps, lower = name_tokens(vocab)
    sums = collections.defaultdict(lambda: [0.0, 0.0])
    n = 0
    for s in [s for s, f in load_split("val") if f == family][:per_family]:
        seq = s.tolist()
        with torch.no_grad():
            _, att, _ = model(torch.tensor(s[None]), need_attn=True)
        for j, _, o in name_repeats(seq, text, caps, lower):
            n += 1
            for layer, a in enumerate(att):
                for head in range(a.shape[1]):
                    sums[(layer, head)][0] += float(a[0, head, j, o])
                    sums[(layer, head)][1] += float(a[0, head, j, o + 1])
    heads = {f"L{layer}H{head}": {"to_occurrence": round(x / max(1, n), 3), "to_token_after": round(y / max(1, n), 3)}
             for (layer, head), (x, y) in sorted(sums.items())}
    best = max(heads, key=lambda h: heads[h]["to_token_after"]) if heads else None
    return {"family": family, "repeats": n, "heads": heads, "strongest_induction": best}


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("checkpoint")
    ap.add_argument("--per-family", type=int, default=6)
    ap.add_argument("--family", default="weather")
    args = ap.parse_args()
    model = load_training_checkpoint(args.checkpoint) if args.checkpoint.endswith(".pt") else load_shipped(args.checkpoint)
    r = name_induction(model, Vocab.load(), args.family, args.per_family)
    for h, v in r["heads"].items():
        print(h, json.dumps(v))
    print("repeats", r["repeats"], "strongest", r["strongest_induction"])
