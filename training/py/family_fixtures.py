"""Expected outputs for the qwen2 and llama families, which the golden PyTorch module (Qwen3 only) does
not cover. Reads the tiny random checkpoints that training/family_checkpoints.ts writes with
lib/model/randomCheckpoint.ts, and runs them with plain numpy in float64, written from Hugging Face's
modeling_qwen2.py / modeling_llama.py (not from lib/model/reference.ts):
  test/fixtures/families/<family>/config.json, model.safetensors   (from the TypeScript script)
  test/fixtures/families/<family>/expected.safetensors              (from here) holding
      logits [T, V], <l>.attn [H, T, T], <l>.k / <l>.v [KV, T, head_dim] (k after RoPE), and the token
      ids as JSON in the metadata key "ids".
As in Hugging Face (and golden.py's module), cos/sin are computed in float32 (inverse frequencies,
llama3 band scaling, angles, cos, sin), then upcast; everything else is float64.
Regenerate (needs python3 with numpy, and the npm dev-dependencies):
  python3 training/py/family_fixtures.py
"""
import json
import math
import os
import struct
import subprocess

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUT = os.path.join(ROOT, "test", "fixtures", "families")
FAMILIES = ("qwen2", "llama")
# Token ids per family (within each vocabulary), with repeats so that some heads have something to find.
IDS = {
    "qwen2": [1, 17, 5, 42, 9, 33, 17, 5, 60, 0, 28, 11, 42, 9, 3, 17, 5, 51, 7, 2],
    "llama": [1, 40, 12, 7, 29, 52, 3, 40, 12, 18, 0, 44, 7, 29, 21, 40, 12, 9, 35, 2, 26, 13, 40, 12],
}


def read_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    n = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + n])
    dtypes = {"F32": "<f4", "F16": "<f2"}
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        a, b = info["data_offsets"]
        arr = np.frombuffer(data[8 + n + a:8 + n + b], dtype=dtypes[info["dtype"]]).reshape(info["shape"])
        out[name] = arr.astype(np.float64)
    return out


def write_safetensors(path, tensors, metadata):
    header, blobs, off = {}, [], 0
    for name, arr in tensors.items():
        b = np.ascontiguousarray(arr, dtype="<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(arr.shape), "data_offsets": [off, off + len(b)]}
        blobs.append(b)
        off += len(b)
    header["__metadata__"] = metadata
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)


def inv_freq_hf(cfg, head_dim):
    """transformers' rope_init_fn in float32: default, linear (inv_freq / factor) or llama3 bands."""
    f32 = np.float32
    base = f32(cfg.get("rope_theta", 10000.0))
    inv_freq = f32(1.0) / (base ** (np.arange(0, head_dim, 2, dtype=np.int64).astype(f32) / f32(head_dim)))
    rs = cfg.get("rope_scaling") or {}
    kind = rs.get("rope_type", rs.get("type", "default"))
    if kind == "linear":
        inv_freq = inv_freq / f32(rs["factor"])
    elif kind == "llama3":  # _compute_llama3_parameters
        factor, low, high, old = rs["factor"], rs["low_freq_factor"], rs["high_freq_factor"], rs["original_max_position_embeddings"]
        low_freq_wavelen, high_freq_wavelen = old / low, old / high
        wavelen = f32(2 * math.pi) / inv_freq
        inv_freq_llama = np.where(wavelen > low_freq_wavelen, inv_freq / f32(factor), inv_freq).astype(f32)
        smooth = ((f32(old) / wavelen - f32(low)) / f32(high - low)).astype(f32)
        smoothed = ((f32(1) - smooth) * inv_freq_llama / f32(factor) + smooth * inv_freq_llama).astype(f32)
        is_medium = ~(wavelen < high_freq_wavelen) & ~(wavelen > low_freq_wavelen)
        inv_freq = np.where(is_medium, smoothed, inv_freq_llama).astype(f32)
    else:
        assert kind == "default", kind
    return inv_freq.astype(f32)


def rms_norm(x, w, eps):
    return x / np.sqrt((x * x).mean(-1, keepdims=True) + eps) * w


def rotate_half(x):
    h = x.shape[-1] // 2
    return np.concatenate((-x[..., h:], x[..., :h]), axis=-1)


def forward(cfg, W, ids):
    """A Qwen2ForCausalLM / LlamaForCausalLM forward pass without cache; returns logits, attn, k, v."""
    family = cfg["model_type"]
    D, H, KV = cfg["hidden_size"], cfg["num_attention_heads"], cfg["num_key_value_heads"]
    hd = cfg.get("head_dim") or D // H
    eps = cfg["rms_norm_eps"]
    qkv_bias = family == "qwen2" or cfg.get("attention_bias", False)  # Qwen2Attention: bias=True on q/k/v
    o_bias = family == "llama" and cfg.get("attention_bias", False)  # LlamaAttention: bias=attention_bias on all four
    tied = cfg.get("tie_word_embeddings", False)
    T = len(ids)

    # LlamaRotaryEmbedding / Qwen2RotaryEmbedding: float32 freqs = positions x inv_freq, emb = cat(freqs, freqs).
    pos = np.arange(T).astype(np.float32)
    freqs = (pos[:, None] * inv_freq_hf(cfg, hd)[None, :]).astype(np.float32)
    emb = np.concatenate((freqs, freqs), axis=-1)
    cos, sin = np.cos(emb).astype(np.float64), np.sin(emb).astype(np.float64)

    def lin(x, name, bias):
        y = x @ W[name + ".weight"].T
        return y + W[name + ".bias"] if bias else y

    x = W["model.embed_tokens.weight"][ids]
    mask = np.triu(np.full((T, T), -np.inf), 1)
    attns, ks, vs = [], [], []
    for l in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{l}."
        h = rms_norm(x, W[p + "input_layernorm.weight"], eps)
        q = lin(h, p + "self_attn.q_proj", qkv_bias).reshape(T, H, hd).transpose(1, 0, 2)
        k = lin(h, p + "self_attn.k_proj", qkv_bias).reshape(T, KV, hd).transpose(1, 0, 2)
        v = lin(h, p + "self_attn.v_proj", qkv_bias).reshape(T, KV, hd).transpose(1, 0, 2)
        q = q * cos + rotate_half(q) * sin  # apply_rotary_pos_emb
        k = k * cos + rotate_half(k) * sin
        ks.append(k)
        vs.append(v)
        kr, vr = np.repeat(k, H // KV, axis=0), np.repeat(v, H // KV, axis=0)  # repeat_kv
        scores = q @ kr.transpose(0, 2, 1) * hd ** -0.5 + mask
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        probs = scores / scores.sum(-1, keepdims=True)
        attns.append(probs)
        ctx = (probs @ vr).transpose(1, 0, 2).reshape(T, H * hd)
        x = x + lin(ctx, p + "self_attn.o_proj", o_bias)
        h = rms_norm(x, W[p + "post_attention_layernorm.weight"], eps)
        gate = lin(h, p + "mlp.gate_proj", False)
        x = x + lin(gate / (1 + np.exp(-gate)) * lin(h, p + "mlp.up_proj", False), p + "mlp.down_proj", False)
    x = rms_norm(x, W["model.norm.weight"], eps)
    logits = x @ W["model.embed_tokens.weight" if tied else "lm_head.weight"].T
    return logits, attns, ks, vs


def main():
    subprocess.run(["npx", "tsx", "training/family_checkpoints.ts", OUT], cwd=ROOT, check=True)
    for family in FAMILIES:
        d = os.path.join(OUT, family)
        with open(os.path.join(d, "config.json")) as f:
            cfg = json.load(f)
        assert cfg["model_type"] == family
        W = read_safetensors(os.path.join(d, "model.safetensors"))
        ids = IDS[family]
        assert max(ids) < cfg["vocab_size"]
        logits, attns, ks, vs = forward(cfg, W, ids)
        tensors = {"logits": logits}
        for l, (a, k, v) in enumerate(zip(attns, ks, vs)):
            tensors[f"{l}.attn"], tensors[f"{l}.k"], tensors[f"{l}.v"] = a, k, v
        write_safetensors(os.path.join(d, "expected.safetensors"), tensors,
                          {"ids": json.dumps(ids), "generator": "training/py/family_fixtures.py", "rope": "float32 cos/sin as in transformers"})
        total = sum(os.path.getsize(os.path.join(d, n)) for n in os.listdir(d))
        print(f"{d}: {len(ids)} tokens, max |logit| {np.abs(logits).max():.3f}, {total} bytes in all")


if __name__ == "__main__":
    main()
