"""Quick sink read-out of a training checkpoint (training/runs/<name>/model[.partial].pt): head-mean
sink score of key 0 per layer on held-out sequences, next to the uniform baseline. For recipe probes;
the numbers come from the same code as metrics.json (evaluate.sink_and_rest)."""
import argparse
import os

from evaluate import sink_and_rest
from shipped import load_training_checkpoint
from tokens import Vocab

ap = argparse.ArgumentParser()
ap.add_argument("checkpoint")
ap.add_argument("--prompts", type=int, default=16)
args = ap.parse_args()
model = load_training_checkpoint(args.checkpoint)
s = sink_and_rest(model, Vocab.load(), args.prompts)
print(os.path.relpath(args.checkpoint), "head-mean per layer", s["head_mean_per_layer"],
      "max head", max(max(r) for r in s["per_layer_head"]), "uniform", s["uniform_baseline"])
