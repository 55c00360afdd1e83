"""How a checkpoint copies a repeated span, read from its attention on synthetic copy rows (issue 18).

The textbook induction circuit is a previous-token head (row i attends to i-1) and an induction head (a repeated
token's row attends to the position right after its earlier occurrence, where the previous-token head stored
what followed). Run 7's models copy at 0.9+ repeat accuracy while both textbook scores stay at noise
(train.copy_diagnostics), so this measures the general form of both halves:

offset heads     per layer and head, the key each row attends to most, as an offset back from the row (the
                 most common one over rows 20..T-1), the share of rows whose top key is at that offset, and the
                 mean weight there. A previous-token head is offset 1; a head that reads a fixed d tokens back
                 is offset d.
reading offsets  from the row of a repeated token (q-1, whose next token q is predictable) to the position d
                 after that token's earlier occurrence (twin + d), d = -1..8: per d, the strongest layer/head and
                 its mean weight. The textbook induction head peaks at d = 1; a head that peaks at d > 1 reads
                 the copied token (at twin + 1) through an earlier head of offset d - 1 that stored it there.

Rows: copy_rows.copy_rows over ids 1000..8800, 16 rows of 128 tokens, spans 3..16 repeated 0..60 later, fixed
seed; the same measurement every time it runs on the same weights. Usage:
  python3 copy_circuit.py <training checkpoint .pt | shipped model name>"""
import random
import sys
from collections import Counter

import torch

from copy_rows import copy_accuracy, copy_rows

D_RANGE = range(-1, 9)
FIRST_ROW = 20  # rows that see fewer keys have few offsets to choose from


def rows(n=16, seq=128):
    return copy_rows(random.Random(5), torch.Generator().manual_seed(5), n, seq, 1000, 8800, 16, 60)


@torch.no_grad()
def copy_circuit(model):
    ids, mask, _ = rows()
    _, att, _ = model(ids, need_attn=True)
    a = torch.stack(att, 1).float()  # [B, L, H, T, T]
    B, L, H, T, _ = a.shape
    top = a[..., FIRST_ROW:, :].argmax(-1)  # [B, L, H, T - FIRST_ROW]
    rows_at = torch.arange(FIRST_ROW, T)
    offsets = []
    for l in range(L):
        layer = []
        for h in range(H):
            back = (rows_at - top[:, l, h]).flatten()
            d, n = Counter(back.tolist()).most_common(1)[0]
            keys = rows_at - d
            ok = keys >= 0
            w = a[:, l, h, rows_at[ok], keys[ok]].mean()
            layer.append({"offset": int(d), "share": round(n / back.numel(), 3), "weight": round(float(w), 3)})
        offsets.append(layer)
    # q-1 rows of repeated tokens and their earlier occurrence (the last one before q-1)
    pairs = []
    for b in range(B):
        for q in torch.nonzero(mask[b]).flatten().tolist():
            twin = torch.nonzero(ids[b, :q - 1] == ids[b, q - 1]).flatten()
            if len(twin):
                pairs.append((b, q - 1, int(twin[-1])))
    reading = []
    for d in D_RANGE:
        use = [(b, r, t + d) for b, r, t in pairs if 0 <= t + d < r]
        s = torch.stack([a[b, :, :, r, k] for b, r, k in use]).mean(0)  # [L, H]
        flat = int(s.argmax())
        reading.append({"d": d, "rows": len(use), "layer": flat // H, "head": flat % H, "weight": round(float(s.max()), 3)})
    best = max(reading, key=lambda x: x["weight"])
    return {"rows": "copy_rows ids 1000-8800, 16 x 128 tokens, seed 5", "repeat_accuracy": round(copy_accuracy(model, ids, mask), 3),
            "offset_heads": offsets, "reading_offsets": reading, "strongest_reading": best}


def main():
    from shipped import load_shipped, load_training_checkpoint
    src = sys.argv[1]
    torch.set_num_threads(1)
    model = load_training_checkpoint(src) if src.endswith(".pt") else load_shipped(src)
    out = copy_circuit(model)
    print("repeat accuracy", out["repeat_accuracy"])
    for l, layer in enumerate(out["offset_heads"]):
        print(f"layer {l} offset heads:", "  ".join(f"h{h}: {x['offset']} back ({x['share']:.0%} of rows, weight {x['weight']:.2f})" for h, x in enumerate(layer)))
    for r in out["reading_offsets"]:
        print(f"twin{r['d']:+d}: strongest layer {r['layer']} head {r['head']}, weight {r['weight']:.3f} over {r['rows']} rows")


if __name__ == "__main__":
    main()
