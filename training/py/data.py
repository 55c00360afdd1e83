"""Token-id corpus written by training/corpus/build.ts: sequences, length-bucketed batches."""
import json
import os

import numpy as np
import torch

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")


def load_split(name):
    ids = np.fromfile(os.path.join(DATA, f"{name}.bin"), dtype=np.uint16)
    with open(os.path.join(DATA, f"{name}.index.json")) as f:
        index = json.load(f)
    return [(ids[o:o + n].astype(np.int64), fam) for o, n, fam in index]


def load_json(name):
    with open(os.path.join(DATA, name)) as f:
        return json.load(f)


def batches(seqs, token_budget, rng):
    """Groups sequences of similar length so padding stays small; order shuffled by `rng`."""
    order = sorted(range(len(seqs)), key=lambda i: (len(seqs[i][0]), i))
    out, cur, cur_max = [], [], 0
    for i in order:
        n = len(seqs[i][0])
        if cur and max(cur_max, n) * (len(cur) + 1) > token_budget:
            out.append(cur)
            cur, cur_max = [], 0
        cur.append(i)
        cur_max = max(cur_max, n)
    if cur:
        out.append(cur)
    rng.shuffle(out)
    return out


def collate(seqs, idx, pad_id):
    T = max(len(seqs[i][0]) for i in idx)
    ids = torch.full((len(idx), T), pad_id, dtype=torch.long)
    mask = torch.zeros((len(idx), T), dtype=torch.bool)
    for r, i in enumerate(idx):
        s = torch.from_numpy(seqs[i][0])
        ids[r, :len(s)] = s
        mask[r, :len(s)] = True
    return ids, mask
