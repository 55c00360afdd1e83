"""Export attention from a PyTorch causal LM to kvscope's attention format (docs/ATTENTION_FORMAT.md), for
models too big for the browser. Run it on your own GPU machine with Hugging Face transformers:

    pip install torch transformers
    python tools/export_attention.py --model Qwen/Qwen3-8B --prompt-file prompt.txt \
        --layers last --heads mean --out attention.safetensors
    python tools/export_attention.py --model Qwen/Qwen3-8B --messages chat.json \
        --layers 0,13,27 --heads all --out attention.json

--prompt-file: raw text, tokenized as is. --messages: an OpenAI-style JSON list (or {"messages": [...]}) rendered
with the model's chat template (add_generation_prompt=True). --layers: "last" (default), "all", or comma-
separated indices (negative counts from the end). --heads: "mean" (averaged over heads) or "all" (per head).
--out: *.safetensors writes safetensors; anything else writes JSON with base64 float32 data. --device, --dtype
(float32 default; bfloat16 halves memory, attention is upcast to float32 on export), --max-tokens (4096).

The model is loaded with attn_implementation="eager" and called with output_attentions=True: fused kernels
(sdpa, flash) never materialize the probabilities. Memory is layers × heads × T² floats; keep T modest.

The writing part, write_kvscope_attention(), takes a list of per-layer tensors [H, T, T] (batch dimension
removed) plus tokens, so any model that hands back attention probabilities can use it.
"""
import argparse
import base64
import json
import struct
import sys

FORMAT, VERSION = "kvscope-attention", 1
MAX_TOKENS = 32768  # same limits as lib/io/attention/types.ts LIMITS


def write_kvscope_attention(path, attentions, tokens, layer_indices=None, heads="mean", token_ids=None,
                            model="", source=None, query_positions=None):
    """attentions: list of tensors/arrays [H, T, T] (one per exported layer); tokens: T strings.
    layer_indices: the model layer number of each entry (default 0..n-1). heads: "mean" or "all".
    query_positions: rows to keep (default all T). Writes JSON or .safetensors by path suffix."""
    import numpy as np
    T = len(tokens)
    if T > MAX_TOKENS:
        raise ValueError(f"{T} tokens exceed the limit of {MAX_TOKENS}")
    if heads not in ("mean", "all"):
        raise ValueError(f'heads must be "mean" or "all", got {heads!r}')
    layer_indices = list(range(len(attentions))) if layer_indices is None else list(layer_indices)
    if len(layer_indices) != len(attentions):
        raise ValueError("layer_indices must name one layer per attention tensor")
    rows = list(range(T)) if query_positions is None else sorted(int(q) for q in query_positions)
    arrays = []
    for li, a in zip(layer_indices, attentions):
        a = a.detach().float().cpu().numpy() if hasattr(a, "detach") else np.asarray(a, dtype=np.float32)
        if a.ndim == 4 and a.shape[0] == 1:
            a = a[0]
        if a.ndim != 3 or a.shape[1] != T or a.shape[2] != T:
            raise ValueError(f"layer {li}: expected [H, {T}, {T}], got {list(a.shape)}")
        a = a[:, rows, :].astype(np.float32)
        if heads == "mean":
            a = a.mean(axis=0, keepdims=True)
        arrays.append(np.ascontiguousarray(a.astype("<f4")))
    meta_layers = [{"layer": int(li), "heads": "mean" if heads == "mean" else int(a.shape[0]),
                    "query_positions": rows, "tensor": f"attention.layer{int(li)}"} for li, a in zip(layer_indices, arrays)]
    source = {k: v for k, v in (source or {}).items() if isinstance(v, (str, int, float, bool)) or v is None}
    if str(path).endswith(".safetensors"):
        header, off = {}, 0
        for m, a in zip(meta_layers, arrays):
            n = a.nbytes
            header[m["tensor"]] = {"dtype": "F32", "shape": list(a.shape), "data_offsets": [off, off + n]}
            off += n
        header["__metadata__"] = {"format": FORMAT, "version": str(VERSION), "model": model, "tokens": json.dumps(tokens),
                                  "layers": json.dumps(meta_layers), "source": json.dumps(source)}
        if token_ids is not None:
            header["__metadata__"]["token_ids"] = json.dumps([int(t) for t in token_ids])
        h = json.dumps(header, separators=(",", ":")).encode()
        h += b" " * ((8 - len(h) % 8) % 8)
        with open(path, "wb") as f:
            f.write(struct.pack("<Q", len(h)))
            f.write(h)
            for a in arrays:
                f.write(a.tobytes())
        return
    doc = {"format": FORMAT, "version": VERSION, "model": model, "tokens": tokens, "layers": [], "source": source}
    if token_ids is not None:
        doc["token_ids"] = [int(t) for t in token_ids]
    for m, a in zip(meta_layers, arrays):
        shape = list(a.shape[1:]) if heads == "mean" else list(a.shape)
        doc["layers"].append({"layer": m["layer"], "heads": m["heads"], "shape": shape, "query_positions": rows,
                              "dtype": "float32", "data": base64.b64encode(a.tobytes()).decode("ascii")})
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)


def pick_layers(spec, n):
    if spec == "last":
        return [n - 1]
    if spec == "all":
        return list(range(n))
    out = []
    for s in spec.split(","):
        i = int(s)
        i = i + n if i < 0 else i
        if not 0 <= i < n:
            raise SystemExit(f"--layers: {s} is not a layer of a {n}-layer model")
        out.append(i)
    return sorted(set(out))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", required=True, help="Hugging Face model id or local directory")
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--prompt-file")
    g.add_argument("--messages", help="chat messages JSON (list, or {messages: [...]})")
    ap.add_argument("--layers", default="last")
    ap.add_argument("--heads", choices=("mean", "all"), default="mean")
    ap.add_argument("--out", required=True)
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--dtype", choices=("float32", "bfloat16", "float16"), default="float32")
    ap.add_argument("--max-tokens", type=int, default=4096)
    args = ap.parse_args(argv)
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer
    tok = AutoTokenizer.from_pretrained(args.model)
    if args.messages:
        with open(args.messages, encoding="utf-8") as f:
            msgs = json.load(f)
        msgs = msgs["messages"] if isinstance(msgs, dict) else msgs
        ids = tok.apply_chat_template(msgs, add_generation_prompt=True, tokenize=True)
    else:
        with open(args.prompt_file, encoding="utf-8") as f:
            ids = tok(f.read(), add_special_tokens=False)["input_ids"]
    if len(ids) > args.max_tokens:
        sys.exit(f"prompt has {len(ids)} tokens, more than --max-tokens {args.max_tokens}")
    model = AutoModelForCausalLM.from_pretrained(args.model, torch_dtype=getattr(torch, args.dtype),
                                                 attn_implementation="eager").to(args.device).eval()
    with torch.no_grad():
        out = model(torch.tensor([ids], device=args.device), output_attentions=True, use_cache=False)
    layers = pick_layers(args.layers, len(out.attentions))
    tokens = [tok.decode([i]) for i in ids]
    write_kvscope_attention(args.out, [out.attentions[i][0] for i in layers], tokens, layer_indices=layers,
                            heads=args.heads, token_ids=ids, model=args.model,
                            source={"exporter": "tools/export_attention.py", "device": args.device, "dtype": args.dtype,
                                    "attn_implementation": "eager"})
    print(f"{args.out}: {len(ids)} tokens, layers {layers}, heads {args.heads}")


if __name__ == "__main__":
    main()
