"""Writes a trained checkpoint in Hugging Face layout: model.safetensors (fp16, tied embeddings, no
lm_head), config.json and generation_config.json, into public/models/<name>/. The tokenizer files
are already there (written by training/corpus/build.ts)."""
import argparse
import json
import os

import torch

from data import load_json
from io_safetensors import save
from model import Config

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", required=True)
    args = ap.parse_args()
    vocab = load_json("vocab.json")
    sp = vocab["special"]
    cfg = Config(vocab_size=vocab["vocab_size"])
    state = torch.load(os.path.join(ROOT, "training", "runs", args.name, "model.pt"))
    out = os.path.join(ROOT, "public", "models", args.name)
    os.makedirs(out, exist_ok=True)
    save(os.path.join(out, "model.safetensors"), {k: v.to(torch.float16) for k, v in sorted(state.items())}, {"format": "pt"})
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(cfg.hf_config(sp["<|endoftext|>"], sp["<|im_end|>"]), f, indent=2)
        f.write("\n")
    gen = {
        "bos_token_id": sp["<|endoftext|>"], "eos_token_id": [sp["<|im_end|>"], sp["<|endoftext|>"]],
        "pad_token_id": sp["<|endoftext|>"], "do_sample": True, "temperature": 0.6, "top_k": 20, "top_p": 0.95,
    }
    with open(os.path.join(out, "generation_config.json"), "w") as f:
        json.dump(gen, f, indent=2)
        f.write("\n")
    print(f"exported {args.name}: {os.path.getsize(os.path.join(out, 'model.safetensors'))} bytes")


if __name__ == "__main__":
    main()
