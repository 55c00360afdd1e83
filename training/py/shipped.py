"""Loads a shipped checkpoint (public/models/<name>/) into the PyTorch module, upcasting the fp16
weights, so that evaluation and golden fixtures describe exactly the weights the app runs."""
import json
import os

import torch

from data import load_json
from io_safetensors import load
from model import Config, Qwen3

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
FIELDS = ("vocab_size", "hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads",
          "num_key_value_heads", "head_dim", "max_position_embeddings", "rms_norm_eps", "rope_theta")


def model_dir(name):
    return os.path.join(ROOT, "public", "models", name)


def load_shipped(name, dtype=torch.float32):
    with open(os.path.join(model_dir(name), "config.json")) as f:
        hf = json.load(f)
    cfg = Config(**{k: hf[k] for k in FIELDS})
    model = Qwen3(cfg)
    state = {k: v.to(dtype) for k, v in load(os.path.join(model_dir(name), "model.safetensors")).items()}
    model.load_state_dict(state)
    model.to(dtype).eval()
    return model


def load_training_checkpoint(path):
    """A state dict written by train.py (training/runs/<name>/model[.partial].pt), or the weights in its
    resumable state.pt, for the probe scripts; one torch thread, as in training."""
    torch.set_num_threads(1)
    model = Qwen3(Config(vocab_size=load_json("vocab.json")["vocab_size"]))
    w = torch.load(path)
    model.load_state_dict(w["model"] if "model" in w else w)
    return model.eval()
