"""Golden fixtures for the TypeScript engine (issue 2, fixed contract), computed in float64 by the
PyTorch module from the shipped fp16 weights of the default model:
  training/golden/cases.json        per case: token ids, kept query rows, logits positions
  training/golden/golden.safetensors per case c and layer l: c.logits [4, V] (last 4 positions),
      c.l.attn [H, rows, T] (kept query rows), c.l.k / c.l.v [kvHeads, T, headDim] (all positions;
      k after k_norm and RoPE, i.e. what the cache holds).
The engine must match within 1e-4 absolute."""
import json
import os

import torch

from data import load_json
from io_safetensors import save
from shipped import ROOT, load_shipped

NAME = "kvscope-tiny"
OUT = os.path.join(ROOT, "training", "golden")


def kept_rows(T, n=8):
    """n query rows spread over the sequence, always including the first and the last."""
    if T <= n:
        return list(range(T))
    return sorted({round(i * (T - 1) / (n - 1)) for i in range(n)})


@torch.no_grad()
def main():
    torch.set_num_threads(1)
    model = load_shipped(NAME, dtype=torch.float64)
    c = load_json("canonical.json")
    inputs = {
        "beijing": c["beijing_prompt"],
        "vancouver": c["vancouver_full"],
        "xfinity_status": c["xfinity"]["with_status"]["ids"],
    }
    tensors, cases = {}, []
    for name, ids in inputs.items():
        T = len(ids)
        logits, attns, kvs = model(torch.tensor([ids]), need_attn=True)
        rows = kept_rows(T)
        tensors[f"{name}.logits"] = logits[0, -4:].float()
        for l, (a, (k, v)) in enumerate(zip(attns, kvs)):
            tensors[f"{name}.{l}.attn"] = a[0][:, rows, :].float()
            tensors[f"{name}.{l}.k"] = k[0].float()
            tensors[f"{name}.{l}.v"] = v[0].float()
        cases.append({"name": name, "ids": ids, "tokens": T, "rows": rows, "logits_positions": list(range(max(0, T - 4), T))})
    os.makedirs(OUT, exist_ok=True)
    save(os.path.join(OUT, "golden.safetensors"), tensors, {"model": NAME})
    with open(os.path.join(OUT, "cases.json"), "w") as f:
        json.dump({
            "model": f"public/models/{NAME}", "tolerance_abs": 1e-4, "computed_in": "float64 from the shipped fp16 weights",
            "tensors": {"logits": "[4, vocab] at logits_positions", "attn": "[heads, rows, tokens] softmax probabilities of the kept query rows",
                        "k": "[kv_heads, tokens, head_dim] after k_norm and RoPE (the cached keys)", "v": "[kv_heads, tokens, head_dim]"},
            "cases": cases,
        }, f, indent=1)
        f.write("\n")
    size = os.path.getsize(os.path.join(OUT, "golden.safetensors"))
    summary = ', '.join('%s=%d' % (c['name'], c['tokens']) for c in cases)
    print(f"golden: {len(cases)} cases ({summary} tokens), {size} bytes")


if __name__ == "__main__":
    main()
