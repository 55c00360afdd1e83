"""Quick sink read-out of a training checkpoint (training/runs/<name>/model[.partial].pt): head-mean
sink score of key 0 per layer on held-out sequences, next to the uniform baseline. For recipe probes."""
import argparse
import os
import sys

import torch

from data import load_json, load_split
from evaluate import sink_scores, MIN_QUERY
from model import Config, Qwen3

ap = argparse.ArgumentParser()
ap.add_argument("checkpoint")
ap.add_argument("--prompts", type=int, default=16)
args = ap.parse_args()
torch.set_num_threads(1)
model = Qwen3(Config(vocab_size=load_json("vocab.json")["vocab_size"]))
model.load_state_dict(torch.load(args.checkpoint))
model.eval()
seqs = [s for s in load_split("val") if len(s[0]) > MIN_QUERY + 1]
picked = seqs[:: max(1, len(seqs) // args.prompts)][: args.prompts]
L = model.config.num_hidden_layers
tot = torch.zeros(L, model.config.num_attention_heads, dtype=torch.float64)
base = 0.0
with torch.no_grad():
    for ids, _ in picked:
        _, attns, _ = model(torch.from_numpy(ids)[None], need_attn=True)
        for l, a in enumerate(attns):
            s, b = sink_scores(a[0])
            tot[l] += s.double()
        base += b
tot /= len(picked)
print(os.path.relpath(args.checkpoint), "head-mean per layer", [round(float(r.mean()), 4) for r in tot],
      "max head", round(float(tot.max()), 4), "uniform", round(base / len(picked), 4))
