"""Qwen3-architecture decoder in plain PyTorch 1.13 (RMSNorm, RoPE, GQA, QK-norm, SwiGLU, tied
embeddings), with explicit attention so probabilities and K/V can be read out. Parameter names
follow Hugging Face's Qwen3ForCausalLM so the checkpoint loads anywhere that layout is expected."""
import math
from dataclasses import dataclass, asdict

import torch
import torch.nn as nn
import torch.nn.functional as F

# Query rows per attention chunk when no probabilities are read out (Attention.forward).
ATTN_CHUNK = 256


@dataclass
class Config:
    vocab_size: int
    hidden_size: int = 128
    intermediate_size: int = 384
    num_hidden_layers: int = 4
    num_attention_heads: int = 4
    num_key_value_heads: int = 2
    head_dim: int = 32
    max_position_embeddings: int = 4096
    rms_norm_eps: float = 1e-6
    rope_theta: float = 10000.0

    def hf_config(self, bos_token_id, eos_token_id):
        d = asdict(self)
        d.update(
            architectures=["Qwen3ForCausalLM"], model_type="qwen3", hidden_act="silu", attention_bias=False,
            attention_dropout=0.0, tie_word_embeddings=True, rope_scaling=None, use_cache=True,
            use_sliding_window=False, sliding_window=None, max_window_layers=self.num_hidden_layers,
            initializer_range=0.02, torch_dtype="float16", bos_token_id=bos_token_id, eos_token_id=eos_token_id,
        )
        return d


class RMSNorm(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        x32 = x.float() if x.dtype in (torch.float16, torch.bfloat16) else x  # float64 stays float64
        return (x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + self.eps)).to(x.dtype) * self.weight


def rotate_half(x):
    h = x.shape[-1] // 2
    return torch.cat((-x[..., h:], x[..., :h]), dim=-1)


def rope_cos_sin(positions, head_dim, theta):
    inv_freq = 1.0 / (theta ** (torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim))
    freqs = positions.float()[:, None] * inv_freq[None, :]
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos(), emb.sin()


class Attention(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.c = c
        self.q_proj = nn.Linear(c.hidden_size, c.num_attention_heads * c.head_dim, bias=False)
        self.k_proj = nn.Linear(c.hidden_size, c.num_key_value_heads * c.head_dim, bias=False)
        self.v_proj = nn.Linear(c.hidden_size, c.num_key_value_heads * c.head_dim, bias=False)
        self.o_proj = nn.Linear(c.num_attention_heads * c.head_dim, c.hidden_size, bias=False)
        self.q_norm = RMSNorm(c.head_dim, c.rms_norm_eps)
        self.k_norm = RMSNorm(c.head_dim, c.rms_norm_eps)

    def forward(self, x, cos, sin, mask, past=None, need_probs=True):
        """x: [B, T, D]; mask: additive [B or 1, 1, T, S]; past: (k, v) each [B, KV, P, hd].
        Returns output, attention probabilities [B, H, T, S] (None unless need_probs; need_probs="col0": only the
        column of key 0, [B, H, T, 1], what the seeded sink's loss reads, with the chunked path's speed) and the new
        (k, v) with the past."""
        c = self.c
        B, T, _ = x.shape
        q = self.q_norm(self.q_proj(x).view(B, T, c.num_attention_heads, c.head_dim)).transpose(1, 2)
        k = self.k_norm(self.k_proj(x).view(B, T, c.num_key_value_heads, c.head_dim)).transpose(1, 2)
        v = self.v_proj(x).view(B, T, c.num_key_value_heads, c.head_dim).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        if past is not None:
            k = torch.cat([past[0], k], dim=2)
            v = torch.cat([past[1], v], dim=2)
        rep = c.num_attention_heads // c.num_key_value_heads
        kr = k.repeat_interleave(rep, dim=1)
        vr = v.repeat_interleave(rep, dim=1)
        P = kr.shape[2] - T
        if need_probs is True or T < 2 * ATTN_CHUNK:
            probs = self._probs(q, kr, mask)
            out = torch.matmul(probs, vr)
            if need_probs == "col0":
                probs = probs[..., :1]
            elif not need_probs:
                probs = None
        else:
            # Training without read-outs: query chunks attend only to the keys up to their last query, which skips
            # the masked upper triangle (~40 % of the attention's work on long batches; same result, see
            # test/trainingAttention.test.ts).
            outs, cols = [], []
            for s in range(0, T, ATTN_CHUNK):
                e = min(T, s + ATTN_CHUNK)
                p = self._probs(q[:, :, s:e], kr[:, :, :P + e], mask[:, :, s:e, :P + e])
                outs.append(torch.matmul(p, vr[:, :, :P + e]))
                if need_probs == "col0":
                    cols.append(p[..., :1])
            out, probs = torch.cat(outs, dim=2), torch.cat(cols, dim=2) if cols else None
        return self.o_proj(out.transpose(1, 2).reshape(B, T, -1)), probs, (k, v)

    def _probs(self, q, k, mask):
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.c.head_dim) + mask
        return torch.softmax(scores if q.dtype == torch.float64 else scores.float(), dim=-1).to(q.dtype)


class MLP(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.gate_proj = nn.Linear(c.hidden_size, c.intermediate_size, bias=False)
        self.up_proj = nn.Linear(c.hidden_size, c.intermediate_size, bias=False)
        self.down_proj = nn.Linear(c.intermediate_size, c.hidden_size, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class Layer(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.input_layernorm = RMSNorm(c.hidden_size, c.rms_norm_eps)
        self.self_attn = Attention(c)
        self.post_attention_layernorm = RMSNorm(c.hidden_size, c.rms_norm_eps)
        self.mlp = MLP(c)

    def forward(self, x, cos, sin, mask, past=None, need_probs=True):
        a, probs, kv = self.self_attn(self.input_layernorm(x), cos, sin, mask, past, need_probs)
        x = x + a
        x = x + self.mlp(self.post_attention_layernorm(x))
        return x, probs, kv


class Inner(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.embed_tokens = nn.Embedding(c.vocab_size, c.hidden_size)
        self.layers = nn.ModuleList([Layer(c) for _ in range(c.num_hidden_layers)])
        self.norm = RMSNorm(c.hidden_size, c.rms_norm_eps)


def x_dtype(model):
    return model.model.embed_tokens.weight.dtype


class Qwen3(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.config = c
        self.model = Inner(c)
        self.apply(self._init)

    @staticmethod
    def _init(m):
        if isinstance(m, (nn.Linear, nn.Embedding)):
            nn.init.normal_(m.weight, std=0.02)

    def forward(self, ids, pad_mask=None, past=None, need_attn=False, logits_at=None, sink_col=False):
        """ids: [B, T]; pad_mask: [B, T] True for real tokens (right padding); past: list of (k, v);
        logits_at: [B, T] bool, to compute logits only there (training rows whose loss is on a few positions:
        the unembedding is most of a small model's cost). Returns logits [B, T, V] (or [N, V] at logits_at),
        per-layer attention (if asked; sink_col: only the last layer's, and of it only the column of key 0,
        [B, H, T, 1], for the seeded sink's loss) and per-layer (k, v)."""
        c = self.config
        B, T = ids.shape
        P = 0 if past is None else past[0][0].shape[2]
        pos = torch.arange(P, P + T)
        cos, sin = (t.to(x_dtype(self)) for t in rope_cos_sin(pos, c.head_dim, c.rope_theta))
        causal = torch.full((T, P + T), float("-inf"), dtype=x_dtype(self)).triu(P + 1)
        mask = causal[None, None]
        if pad_mask is not None:  # padded keys never receive attention (they sit after real tokens)
            keymask = torch.zeros(B, 1, 1, P + T, dtype=causal.dtype)
            keymask[:, 0, 0, P:] = torch.where(pad_mask, 0.0, float("-inf"))
            mask = mask + keymask
        x = self.model.embed_tokens(ids)
        attns, kvs = [], []
        for i, layer in enumerate(self.model.layers):
            want = "col0" if sink_col and i == len(self.model.layers) - 1 else need_attn
            x, probs, kv = layer(x, cos, sin, mask, None if past is None else past[i], want)
            attns.append(probs)
            kvs.append(kv)
        x = self.model.norm(x if logits_at is None else x[logits_at])
        logits = x @ self.model.embed_tokens.weight.t()
        return logits, attns, kvs

    def num_parameters(self):
        return sum(p.numel() for p in self.parameters())
