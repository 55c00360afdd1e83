"""PyTorch eager side of `npm run bench`, using the training pipeline's own Qwen3 module
(training/py/model.py). Reads a JSON spec on stdin, prints one line `RESULT {...}`.

Cases:
  tiny: public/models/kvscope-tiny upcast to float32; prefill with need_attn=True (all-layer per-head
        probabilities, logits at every position, K/V), then one incremental step at the same context.
  qwen3-0.6b: Qwen3-0.6B shape with the random weights of bench/randomWeights.ts, regenerated here bit for
        bit (value = k * 2^-14, k = lowbias32(i + (t+1) * 0x9e3779b9) mod (2K+1) - K; norms 1 + j/1024),
        float32; prefill with attention probabilities reduced to their mean over heads and logits at the
        last position only (what kvscope's graph is asked for).
Run with /usr/bin/python3 (Debian's python3-torch); OPENBLAS_NUM_THREADS / OMP_NUM_THREADS are set by the caller.
"""
import json
import os
import resource
import statistics
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "training", "py"))

import numpy as np  # noqa: E402
import torch  # noqa: E402

from model import Config, Qwen3, rope_cos_sin  # noqa: E402

K = 573
J = 50


def mix(x):
    x ^= x >> np.uint32(16)
    x *= np.uint32(0x7FEB352D)
    x ^= x >> np.uint32(15)
    x *= np.uint32(0x846CA68B)
    x ^= x >> np.uint32(16)
    return x


def tensor_values(t, n, is_norm):
    """float32 values of tensor number t (same order as lib/model/config.ts expectedTensors)."""
    table = (1 + (np.arange(2 * J + 1, dtype=np.float32) - J) / 1024) if is_norm else (np.arange(2 * K + 1, dtype=np.float32) - K) * np.float32(2.0 ** -14)
    table = table.astype(np.float16).astype(np.float32)  # exactly representable: a no-op kept as a guard
    off = np.uint32(((t + 1) * 0x9E3779B9) & 0xFFFFFFFF)
    out = np.empty(n, dtype=np.float32)
    step = 1 << 24
    with np.errstate(over="ignore"):
        for s in range(0, n, step):
            e = min(n, s + step)
            x = np.arange(s, e, dtype=np.uint32) + off
            out[s:e] = table[mix(x) % np.uint32(len(table))]
    return out


def expected_tensors(c: Config):
    names = [("model.embed_tokens.weight", (c.vocab_size, c.hidden_size))]
    qd, kvd = c.num_attention_heads * c.head_dim, c.num_key_value_heads * c.head_dim
    for l in range(c.num_hidden_layers):
        p = f"model.layers.{l}."
        names += [
            (p + "input_layernorm.weight", (c.hidden_size,)),
            (p + "post_attention_layernorm.weight", (c.hidden_size,)),
            (p + "self_attn.q_proj.weight", (qd, c.hidden_size)),
            (p + "self_attn.k_proj.weight", (kvd, c.hidden_size)),
            (p + "self_attn.v_proj.weight", (kvd, c.hidden_size)),
            (p + "self_attn.o_proj.weight", (c.hidden_size, qd)),
            (p + "self_attn.q_norm.weight", (c.head_dim,)),
            (p + "self_attn.k_norm.weight", (c.head_dim,)),
            (p + "mlp.gate_proj.weight", (c.intermediate_size, c.hidden_size)),
            (p + "mlp.up_proj.weight", (c.intermediate_size, c.hidden_size)),
            (p + "mlp.down_proj.weight", (c.hidden_size, c.intermediate_size)),
        ]
    names.append(("model.norm.weight", (c.hidden_size,)))
    return names


def random_model(hf):
    fields = ("vocab_size", "hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads",
              "num_key_value_heads", "head_dim", "max_position_embeddings", "rms_norm_eps", "rope_theta")
    c = Config(**{k: hf[k] for k in fields})
    with torch.no_grad():
        model = Qwen3.__new__(Qwen3)
        torch.nn.Module.__init__(model)
        model.config = c
        from model import Inner
        model.model = Inner(c)  # default init only (no normal_ pass over 600M weights)
        params = dict(model.named_parameters())
        for t, (name, shape) in enumerate(expected_tensors(c)):
            n = int(np.prod(shape))
            v = torch.from_numpy(tensor_values(t, n, name.endswith("norm.weight")).reshape(shape))
            params[name].data = v
    return model.eval()


def peak_rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@torch.no_grad()
def forward_reduced(model, ids):
    """The 0.6B case: attention mean over heads per layer, K/V, logits at the last position only."""
    c = model.config
    T = ids.shape[1]
    cos, sin = rope_cos_sin(torch.arange(T), c.head_dim, c.rope_theta)
    mask = torch.full((T, T), float("-inf")).triu(1)[None, None]
    x = model.model.embed_tokens(ids)
    attn, kvs = [], []
    for layer in model.model.layers:
        x, probs, kv = layer(x, cos, sin, mask)
        attn.append(probs.mean(1))
        kvs.append(kv)
    last = model.model.norm(x[:, -1:])
    return last @ model.model.embed_tokens.weight.t(), attn, kvs


def timed(fn, warmup, reps):
    out, ts = None, []
    for i in range(warmup + reps):
        t0 = time.perf_counter()
        out = fn()
        dt = (time.perf_counter() - t0) * 1000
        if i >= warmup:
            ts.append(dt)
    return out, ts


def main():
    spec = json.load(sys.stdin)
    torch.set_num_threads(spec["threads"])
    ids = torch.tensor([spec["ids"]], dtype=torch.long)
    res = {"spec": {k: v for k, v in spec.items() if k != "ids"}, "torch": torch.__version__, "num_threads": torch.get_num_threads(),
           "blas": "OpenBLAS (Debian, pthread) via torch generic BLAS", "dtype": "float32"}
    t0 = time.perf_counter()
    if spec["model"] == "tiny":
        from shipped import load_shipped
        model = load_shipped("kvscope-tiny", dtype=torch.float32)
    else:
        model = random_model(spec["config"])
    res["load_ms"] = (time.perf_counter() - t0) * 1000
    prompt, nxt = ids[:, :-1], ids[:, -1:]
    with torch.no_grad():
        if spec["model"] == "tiny":
            (logits, attn, kvs), ts = timed(lambda: model(prompt, need_attn=True), spec["warmup"], spec["reps"])
            res["attention_shape"] = list(attn[0].shape)
            res["logits_shape"] = list(logits.shape)
        else:
            (logits, attn, kvs), ts = timed(lambda: forward_reduced(model, prompt), spec["warmup"], spec["reps"])
            res["attention_shape"] = list(attn[0].shape)
            res["logits_shape"] = list(logits.shape)
        res["prefill_ms"] = ts
        res["prefill_median_ms"] = statistics.median(ts)
        res["prefill_min_ms"] = min(ts)
        res["checksum"] = logits[0, -1, :8].tolist()
        if spec.get("step_reps", 0) > 0:
            past = [(k, v) for k, v in kvs]
            _, st = timed(lambda: model(nxt, past=past, need_attn=True), spec["warmup"], spec["step_reps"])
            res["step_ms"] = st
            res["step_median_ms"] = statistics.median(st)
            res["step_min_ms"] = min(st)
    res["peak_rss_mb"] = peak_rss_mb()
    ru = resource.getrusage(resource.RUSAGE_SELF)
    res["cpu_ms"] = (ru.ru_utime + ru.ru_stime) * 1000
    print("RESULT " + json.dumps(res), flush=True)


if __name__ == "__main__":
    main()
