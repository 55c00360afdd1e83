// The test oracle: a plain, obvious float64 forward pass of a qwen3 / qwen2 / llama Checkpoint, with attention
// probabilities and the KV cache read out. Slow on purpose; must share no compute code with the engine, nor use DOM or Node APIs.

import type { Checkpoint } from './checkpoint';
import { ropeInvFreq, type ModelConfig } from './config';

/** What the reference keeps between calls: per layer, the cached keys (post q/k-norm, post-RoPE) and values. */
export interface ReferenceCache {
  /** Number of cached tokens. */
  length: number;
  /** Per layer [kvHeads, length, headDim]. */
  k: Float64Array[];
  /** Per layer [kvHeads, length, headDim]. */
  v: Float64Array[];
}

export interface ReferenceOptions {
  /** Cache of earlier tokens; it is not modified (the call returns a new, longer one). */
  past?: ReferenceCache;
  /** RoPE position of the first new token; default the past length (0 without a past). */
  positionOffset?: number;
  /**
   * How cos/sin are computed: 'float32' (default) as Hugging Face and the golden PyTorch module do, in
   * float32 even for a float64 model; 'float64' exactly. Everything else is float64 either way.
   */
  rope?: 'float32' | 'float64';
}

export interface ReferenceResult {
  /** [T, vocab] for the T new tokens. */
  logits: Float32Array;
  /** Per layer [heads, T, pastLen + T]: softmax probabilities of the new query rows (0 where masked). */
  attn: Float32Array[];
  /** Per layer [kvHeads, pastLen + T, headDim]: the whole cache after this call, post-norm, post-RoPE. */
  k: Float32Array[];
  /** Per layer [kvHeads, pastLen + T, headDim]. */
  v: Float32Array[];
  /** The cache to pass as `past` to extend this sequence. */
  cache: ReferenceCache;
}

/** Checkpoint weights upcast to float64 once, on first use. */
const WEIGHTS = new WeakMap<Checkpoint, Map<string, Float64Array>>();

function weight(ckpt: Checkpoint, name: string): Float64Array {
  let m = WEIGHTS.get(ckpt);
  if (!m) WEIGHTS.set(ckpt, (m = new Map()));
  let w = m.get(name);
  if (!w) m.set(name, (w = Float64Array.from(ckpt.get(name))));
  return w;
}

/**
 * y[t, o] = b[o] + Σ_i x[t, i] · W[o, i], with W stored [out, in] as in PyTorch's nn.Linear. Each sum runs
 * over i in order; four rows of x go through each weight row together only to keep the CPU busy.
 */
function linear(x: Float64Array, T: number, inDim: number, W: Float64Array, outDim: number, b?: Float64Array): Float64Array {
  const y = new Float64Array(T * outDim);
  let t = 0;
  for (; t + 4 <= T; t += 4) {
    const x0 = t * inDim;
    const x1 = x0 + inDim;
    const x2 = x1 + inDim;
    const x3 = x2 + inDim;
    for (let o = 0; o < outDim; o++) {
      const wo = o * inDim;
      const bias = b ? b[o]! : 0;
      let s0 = bias;
      let s1 = bias;
      let s2 = bias;
      let s3 = bias;
      for (let i = 0; i < inDim; i++) {
        const wi = W[wo + i]!;
        s0 += x[x0 + i]! * wi;
        s1 += x[x1 + i]! * wi;
        s2 += x[x2 + i]! * wi;
        s3 += x[x3 + i]! * wi;
      }
      y[t * outDim + o] = s0;
      y[(t + 1) * outDim + o] = s1;
      y[(t + 2) * outDim + o] = s2;
      y[(t + 3) * outDim + o] = s3;
    }
  }
  for (; t < T; t++) {
    const xo = t * inDim;
    for (let o = 0; o < outDim; o++) {
      const wo = o * inDim;
      let s = b ? b[o]! : 0;
      for (let i = 0; i < inDim; i++) s += x[xo + i]! * W[wo + i]!;
      y[t * outDim + o] = s;
    }
  }
  return y;
}

/** RMSNorm over consecutive groups of `dim` values: x / sqrt(mean(x²) + eps) · weight. */
function rmsNorm(x: Float64Array, dim: number, w: Float64Array, eps: number): Float64Array {
  const y = new Float64Array(x.length);
  for (let r = 0; r < x.length / dim; r++) {
    let ss = 0;
    for (let i = 0; i < dim; i++) ss += x[r * dim + i]! ** 2;
    const inv = 1 / Math.sqrt(ss / dim + eps);
    for (let i = 0; i < dim; i++) y[r * dim + i] = x[r * dim + i]! * inv * w[i]!;
  }
  return y;
}

/**
 * Inverse frequencies as Hugging Face computes them: in float32 whatever the model's dtype. The base
 * 1 / theta^(2i/d) is rounded step by step as torch does (exponent, power, reciprocal, each to float32);
 * the scaling (linear, llama3) is ropeInvFreq's factor for that pair, applied and rounded once.
 */
export function hfRopeInvFreq(c: ModelConfig): Float64Array {
  const f = Math.fround;
  const scaled = ropeInvFreq(c);
  const unscaled = ropeInvFreq({ ...c, ropeScaling: { type: 'default', factor: 1 } });
  return scaled.map((inv, i) => {
    const base = f(1 / f(f(c.ropeTheta) ** f((2 * i) / c.headDim)));
    return c.ropeScaling.type === 'default' ? base : f(base * (inv / unscaled[i]!));
  });
}

/**
 * cos and sin of position · invFreq, [T, headDim/2]. 'float32' repeats Hugging Face's rotary embedding
 * (float32 inverse frequencies, angles, cos and sin, then upcast); 'float64' is the exact value.
 */
function ropeTables(c: ModelConfig, positions: number[], precision: 'float32' | 'float64'): { cos: Float64Array; sin: Float64Array } {
  const half = c.headDim / 2;
  const cos = new Float64Array(positions.length * half);
  const sin = new Float64Array(positions.length * half);
  const f = precision === 'float32' ? Math.fround : (z: number) => z;
  const invFreq = precision === 'float32' ? hfRopeInvFreq(c) : ropeInvFreq(c);
  positions.forEach((pos, t) => {
    for (let i = 0; i < half; i++) {
      const angle = f(f(pos) * invFreq[i]!);
      cos[t * half + i] = f(Math.cos(angle));
      sin[t * half + i] = f(Math.sin(angle));
    }
  });
  return { cos, sin };
}

/**
 * Rotary embedding, Hugging Face's rotate_half convention: pair i is (x[i], x[i + headDim/2]), and
 * x·cos + rotate_half(x)·sin turns it by the angle of row t, pair i. `x` is [T, nHeads, headDim], rotated in place.
 */
function rope(x: Float64Array, T: number, nHeads: number, headDim: number, cos: Float64Array, sin: Float64Array): void {
  const half = headDim / 2;
  for (let t = 0; t < T; t++) {
    for (let h = 0; h < nHeads; h++) {
      const o = (t * nHeads + h) * headDim;
      for (let i = 0; i < half; i++) {
        const c = cos[t * half + i]!;
        const s = sin[t * half + i]!;
        const x1 = x[o + i]!;
        const x2 = x[o + half + i]!;
        x[o + i] = x1 * c - x2 * s;
        x[o + half + i] = x2 * c + x1 * s;
      }
    }
  }
}

const silu = (z: number) => z / (1 + Math.exp(-z));

function emptyCache(c: ModelConfig): ReferenceCache {
  return { length: 0, k: Array.from({ length: c.numLayers }, () => new Float64Array(0)), v: Array.from({ length: c.numLayers }, () => new Float64Array(0)) };
}

/**
 * Runs `ids` through the model after the tokens held in `opts.past`. New token t sits at cache index
 * pastLen + t and at RoPE position (opts.positionOffset ?? pastLen) + t; it attends to cache indices
 * 0 ..= pastLen + t.
 */
export function referenceForward(ckpt: Checkpoint, ids: number[], opts: ReferenceOptions = {}): ReferenceResult {
  const c = ckpt.config;
  const T = ids.length;
  const D = c.hiddenSize;
  const H = c.numHeads;
  const KV = c.numKvHeads;
  const hd = c.headDim;
  const rep = H / KV;
  const past = opts.past ?? emptyCache(c);
  if (past.k.length !== c.numLayers || past.v.length !== c.numLayers) throw new Error(`past cache has ${past.k.length} layers, the model ${c.numLayers}`);
  const P = past.length;
  const S = P + T;
  const start = opts.positionOffset ?? P;
  const positions = ids.map((_, t) => start + t);
  const { cos, sin } = ropeTables(c, positions, opts.rope ?? 'float32');
  const scale = 1 / Math.sqrt(hd);
  const w = (name: string) => weight(ckpt, name);
  const wOpt = (name: string, present: boolean) => (present ? w(name) : undefined);

  // Embedding lookup.
  const embed = w('model.embed_tokens.weight');
  let x: Float64Array = new Float64Array(T * D);
  ids.forEach((id, t) => {
    if (!Number.isInteger(id) || id < 0 || id >= c.vocabSize) throw new Error(`token id ${id} outside the vocabulary (${c.vocabSize})`);
    x.set(embed.subarray(id * D, (id + 1) * D), t * D);
  });

  const attn: Float32Array[] = [];
  const cache: ReferenceCache = { length: S, k: [], v: [] };
  for (let l = 0; l < c.numLayers; l++) {
    const p = `model.layers.${l}.`;

    // Attention block.
    const hIn = rmsNorm(x, D, w(p + 'input_layernorm.weight'), c.rmsNormEps);
    let q = linear(hIn, T, D, w(p + 'self_attn.q_proj.weight'), H * hd, wOpt(p + 'self_attn.q_proj.bias', c.qkvBias)); // [T, H, hd]
    let k = linear(hIn, T, D, w(p + 'self_attn.k_proj.weight'), KV * hd, wOpt(p + 'self_attn.k_proj.bias', c.qkvBias)); // [T, KV, hd]
    const v = linear(hIn, T, D, w(p + 'self_attn.v_proj.weight'), KV * hd, wOpt(p + 'self_attn.v_proj.bias', c.qkvBias)); // [T, KV, hd]
    if (c.qkNorm) {
      q = rmsNorm(q, hd, w(p + 'self_attn.q_norm.weight'), c.rmsNormEps);
      k = rmsNorm(k, hd, w(p + 'self_attn.k_norm.weight'), c.rmsNormEps);
    }
    rope(q, T, H, hd, cos, sin);
    rope(k, T, KV, hd, cos, sin);

    // Cache [KV, S, hd] = past rows then the new ones.
    const kAll = new Float64Array(KV * S * hd);
    const vAll = new Float64Array(KV * S * hd);
    const pk = past.k[l]!;
    const pv = past.v[l]!;
    if (pk.length !== KV * P * hd || pv.length !== KV * P * hd) throw new Error(`past cache layer ${l} does not hold ${P} tokens of [${KV}, ${hd}]`);
    for (let g = 0; g < KV; g++) {
      kAll.set(pk.subarray(g * P * hd, (g + 1) * P * hd), g * S * hd);
      vAll.set(pv.subarray(g * P * hd, (g + 1) * P * hd), g * S * hd);
      for (let t = 0; t < T; t++) {
        kAll.set(k.subarray((t * KV + g) * hd, (t * KV + g + 1) * hd), (g * S + P + t) * hd);
        vAll.set(v.subarray((t * KV + g) * hd, (t * KV + g + 1) * hd), (g * S + P + t) * hd);
      }
    }
    cache.k.push(kAll);
    cache.v.push(vAll);

    // Scores, causal softmax and the weighted sum of values, per head (GQA: head h reads kv head h / rep).
    const probs = new Float32Array(H * T * S);
    const ctx = new Float64Array(T * H * hd); // [T, H, hd]
    const row = new Float64Array(S);
    for (let h = 0; h < H; h++) {
      const g = Math.floor(h / rep);
      for (let t = 0; t < T; t++) {
        const visible = P + t + 1;
        const qo = (t * H + h) * hd;
        let max = -Infinity;
        for (let s = 0; s < visible; s++) {
          const ko = (g * S + s) * hd;
          let dot = 0;
          for (let i = 0; i < hd; i++) dot += q[qo + i]! * kAll[ko + i]!;
          row[s] = dot * scale;
          if (row[s]! > max) max = row[s]!;
        }
        let sum = 0;
        for (let s = 0; s < visible; s++) sum += row[s] = Math.exp(row[s]! - max);
        for (let s = 0; s < visible; s++) {
          const pr = row[s]! / sum;
          probs[(h * T + t) * S + s] = pr;
          const vo = (g * S + s) * hd;
          for (let i = 0; i < hd; i++) ctx[qo + i] = ctx[qo + i]! + pr * vAll[vo + i]!;
        }
      }
    }
    attn.push(probs);
    const o = linear(ctx, T, H * hd, w(p + 'self_attn.o_proj.weight'), D, wOpt(p + 'self_attn.o_proj.bias', c.oBias));
    for (let i = 0; i < x.length; i++) x[i] = x[i]! + o[i]!;

    // SwiGLU MLP block: down(silu(gate(h)) · up(h)).
    const hMlp = rmsNorm(x, D, w(p + 'post_attention_layernorm.weight'), c.rmsNormEps);
    const gate = linear(hMlp, T, D, w(p + 'mlp.gate_proj.weight'), c.intermediateSize);
    const up = linear(hMlp, T, D, w(p + 'mlp.up_proj.weight'), c.intermediateSize);
    for (let i = 0; i < gate.length; i++) gate[i] = silu(gate[i]!) * up[i]!;
    const down = linear(gate, T, c.intermediateSize, w(p + 'mlp.down_proj.weight'), D);
    for (let i = 0; i < x.length; i++) x[i] = x[i]! + down[i]!;
  }

  x = rmsNorm(x, D, w('model.norm.weight'), c.rmsNormEps);
  const head = w(c.tieWordEmbeddings ? 'model.embed_tokens.weight' : 'lm_head.weight');
  const logits = Float32Array.from(linear(x, T, D, head, c.vocabSize));
  return { logits, attn, k: cache.k.map((a) => Float32Array.from(a)), v: cache.v.map((a) => Float32Array.from(a)), cache };
}
