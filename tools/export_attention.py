"""Export attention from a PyTorch causal LM to kvscope's attention format (docs/ATTENTION_FORMAT.md): for models
too big for the browser, and as the trust check of kvscope's engine against Transformers on a real checkpoint
(docs/MODELS.md, "Checking kvscope against Transformers"). Run it where Hugging Face transformers runs:

    pip install torch transformers
    python tools/export_attention.py --model Qwen/Qwen3-0.6B --messages req.json \
        --layers all --heads mean --out qwen3.safetensors
    python tools/export_attention.py --model ./my-checkpoint --prompt-file prompt.txt \
        --layers 0,13,27 --heads all --out attention.json

--model: a Hub repo id (Qwen/Qwen3-0.6B; --revision picks a branch, tag or commit; the standard Hugging Face
cache, HF_HOME, HF_ENDPOINT and HF_HUB_OFFLINE apply as usual) or a local folder with config.json, the
tokenizer and *.safetensors (a path that does not exist is refused, never looked up on the Hub).
--prompt-file: raw text, tokenized as is. --messages: an OpenAI-style JSON list, or a request body
{"messages": [...], "tools": [...]}, rendered with the model's chat template (add_generation_prompt=True).
--layers: "last" (default), "all", or comma-separated indices (negative counts from the end). --heads: "mean"
(averaged over heads) or "all" (per head). --out: *.safetensors writes safetensors; anything else writes JSON
with base64 float32 data. --device: auto (default: cuda, else mps, else cpu). --dtype: float32 (default; 16-bit
checkpoints are upcast exactly, so the arithmetic is kvscope's: 16-bit weights, float32 activations) or
bfloat16 / float16 (half the memory, but every activation is rounded: a much looser comparison). --max-tokens
(4096).

The file records the token ids that ran (`token_ids`) and the model (`model`: the repo id, or the folder's name;
a Hugging Face cache snapshot folder gives its repo id), and in `source` the revision, dtype, device and the
torch / transformers versions: kvscope's "Compare with the engine" reruns exactly those ids.

The model is loaded with attn_implementation="eager" and called with output_attentions=True: fused kernels
(sdpa, flash) never materialize the probabilities. Memory is layers × heads × T² floats; keep T modest.

The writing part, write_kvscope_attention(), takes a list of per-layer tensors [H, T, T] (batch dimension
removed) plus tokens, so any model that hands back attention probabilities can use it.
"""
import argparse
import base64
import json
import os
import re
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


def model_spec(spec):
    """(kind, name) for --model: ("folder", path) for an existing directory, ("hub", repo id) for a repo id;
    anything path-like that is not a directory is refused rather than looked up on the Hub."""
    if os.path.isdir(spec):
        return ("folder", spec)
    # Repo ids are "org/name" (or a bare legacy "name"): anything else is a folder path that does not exist.
    if spec.startswith((".", "/", "~")) or not re.fullmatch(r"[\w\-][\w.\-]*(/[\w\-][\w.\-]*)?", spec):
        raise SystemExit(f"--model: {spec} is neither a folder on this machine nor a Hub repo id like Qwen/Qwen3-0.6B")
    return ("hub", spec)


def model_label(spec):
    """The `model` written to the file and the revision it implies: the repo id for a repo id; for a Hugging Face
    cache snapshot folder (…/models--org--name/snapshots/<rev>) its repo id and <rev>; else the folder's name
    (not its full path: the file may be shared). Returns (label, revision or None)."""
    kind, name = model_spec(spec)
    if kind == "hub":
        return name, None
    parts = os.path.normpath(os.path.abspath(name)).split(os.sep)
    if len(parts) >= 3 and parts[-2] == "snapshots" and parts[-3].startswith("models--"):
        return parts[-3][len("models--"):].replace("--", "/"), parts[-1]
    return parts[-1] or name, None


def chat_ids(tok, doc):
    """Token ids of a messages list or a request body {messages, tools}, through the model's chat template."""
    msgs = doc.get("messages") if isinstance(doc, dict) else doc
    if not isinstance(msgs, list) or not msgs:
        raise SystemExit("--messages: expected a non-empty JSON list of messages, or an object with one in \"messages\"")
    kw = {"tools": doc["tools"]} if isinstance(doc, dict) and doc.get("tools") else {}
    ids = tok.apply_chat_template(msgs, add_generation_prompt=True, tokenize=True, **kw)
    # transformers 5 returns a BatchEncoding (return_dict=True by default); 4.x a list.
    if hasattr(ids, "keys"):
        ids = ids["input_ids"]
    if hasattr(ids, "tolist"):
        ids = ids.tolist()
    if ids and isinstance(ids[0], list):
        ids = ids[0]
    return [int(i) for i in ids]


def pick_device(torch, device):
    if device != "auto":
        return device
    if torch.cuda.is_available():
        return "cuda"
    mps = getattr(torch.backends, "mps", None)
    return "mps" if mps is not None and mps.is_available() else "cpu"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", required=True, help="Hugging Face repo id (Qwen/Qwen3-0.6B) or a local folder")
    ap.add_argument("--revision", default=None, help="Hub branch, tag or commit (default: main)")
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--prompt-file")
    g.add_argument("--messages", help="chat messages JSON (list, or {messages: [...], tools: [...]})")
    ap.add_argument("--layers", default="last")
    ap.add_argument("--heads", choices=("mean", "all"), default="mean")
    ap.add_argument("--out", required=True)
    ap.add_argument("--device", default="auto", help="auto (cuda, else mps, else cpu), cuda, cpu, …")
    ap.add_argument("--dtype", choices=("float32", "bfloat16", "float16"), default="float32")
    ap.add_argument("--max-tokens", type=int, default=4096)
    args = ap.parse_args(argv)
    kind, path = model_spec(args.model)
    label, cache_rev = model_label(args.model)
    import torch
    import transformers
    from transformers import AutoModelForCausalLM, AutoTokenizer
    load_kw = {} if kind == "folder" or args.revision is None else {"revision": args.revision}
    tok = AutoTokenizer.from_pretrained(path, **load_kw)
    if args.messages:
        with open(args.messages, encoding="utf-8") as f:
            ids = chat_ids(tok, json.load(f))
    else:
        with open(args.prompt_file, encoding="utf-8") as f:
            ids = [int(i) for i in tok(f.read(), add_special_tokens=False)["input_ids"]]
    if not ids:
        sys.exit("the prompt has no tokens")
    if len(ids) > args.max_tokens:
        sys.exit(f"prompt has {len(ids)} tokens, more than --max-tokens {args.max_tokens}")
    device = pick_device(torch, args.device)
    # float32 means float32: no TF32 matmuls on NVIDIA GPUs (10 mantissa bits would swamp the comparison).
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    # transformers ≥ 4.56 names the argument `dtype`; older versions `torch_dtype`.
    version = tuple(int(x) for x in re.findall(r"\d+", transformers.__version__)[:2])
    dtype_kw = "dtype" if version >= (4, 56) else "torch_dtype"
    model = AutoModelForCausalLM.from_pretrained(path, attn_implementation="eager", **{dtype_kw: getattr(torch, args.dtype)}, **load_kw)
    model = model.to(device).eval()
    with torch.no_grad():
        out = model(torch.tensor([ids], device=device), output_attentions=True, use_cache=False)
    if not out.attentions or any(a is None for a in out.attentions):
        sys.exit(f"{args.model} returned no attention probabilities (its attention implementation ignores output_attentions)")
    layers = pick_layers(args.layers, len(out.attentions))
    tokens = [tok.decode([i]) for i in ids]
    revision = getattr(model.config, "_commit_hash", None) or args.revision or cache_rev
    source = {"exporter": "tools/export_attention.py", "device": device, "dtype": args.dtype, "attn_implementation": "eager",
              "model_source": "folder" if kind == "folder" else "hub", "revision": revision,
              "num_layers": len(out.attentions), "torch": torch.__version__, "transformers": transformers.__version__}
    write_kvscope_attention(args.out, [out.attentions[i][0] for i in layers], tokens, layer_indices=layers,
                            heads=args.heads, token_ids=ids, model=label, source=source)
    print(f"{args.out}: {label}, {len(ids)} tokens, layers {layers}, heads {args.heads}, {args.dtype} on {device}")


if __name__ == "__main__":
    main()
