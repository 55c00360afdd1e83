"""Repeat accuracy of a checkpoint on copy rows whose repeats come from further and further back (issue 18,
training/README item 9): copy_rows with gaps up to 60 (as trained), 400, 900 and 1,900 tokens, ids 1000-8800.
  python3 copy_distance.py <checkpoint.pt>"""
import random
import sys

import torch

from copy_rows import copy_accuracy, copy_rows
from shipped import load_training_checkpoint

if __name__ == "__main__":
    torch.set_num_threads(1)
    model = load_training_checkpoint(sys.argv[1])
    model.eval()
    for seq, gap in [(128, 60), (512, 400), (1024, 900), (2048, 1900)]:
        rng, gen = random.Random(5), torch.Generator().manual_seed(5)
        ids, mask, _ = copy_rows(rng, gen, max(2, 8192 // seq), seq, 1000, 8800, 16, gap)
        print(f"rows of {seq}, gaps <= {gap}: repeat accuracy {copy_accuracy(model, ids, mask):.3f}", flush=True)
