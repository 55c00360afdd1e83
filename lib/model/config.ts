// Parses a Hugging Face config.json into the one ModelConfig the graph builder and the reference use.
// Knows the qwen3 / qwen2 / llama families only; everything else is refused here, never half-supported.

export type Family = 'qwen3' | 'qwen2' | 'llama';

export interface RopeScaling {
  /** 'default' (none), 'linear', 'llama3' (Llama 3.x frequency-band scaling) or 'dynamic' (refused above). */
  type: 'default' | 'linear' | 'llama3';
  factor: number;
  lowFreqFactor?: number;
  highFreqFactor?: number;
  originalMaxPositionEmbeddings?: number;
}

export interface ModelConfig {
  family: Family;
  modelType: string;
  vocabSize: number;
  hiddenSize: number;
  intermediateSize: number;
  numLayers: number;
  numHeads: number;
  numKvHeads: number;
  headDim: number;
  maxPositions: number;
  rmsNormEps: number;
  ropeTheta: number;
  ropeScaling: RopeScaling;
  tieWordEmbeddings: boolean;
  /** q/k/v projections carry a bias (qwen2; llama with attention_bias). */
  qkvBias: boolean;
  /** o_proj carries a bias (llama with attention_bias). */
  oBias: boolean;
  /** Per-head RMSNorm on q and k before RoPE (qwen3). */
  qkNorm: boolean;
  bosTokenId?: number;
  eosTokenIds: number[];
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(`config.json: ${message}`);
    this.name = 'ConfigError';
  }
}

export const SUPPORTED_FAMILIES: readonly Family[] = ['qwen3', 'qwen2', 'llama'];
const SUPPORTED_TEXT = 'qwen3 (Qwen3ForCausalLM), qwen2 (Qwen2ForCausalLM, Qwen2.5), llama (LlamaForCausalLM: SmolLM2, TinyLlama, Llama 3.x)';

function int(raw: Record<string, unknown>, key: string, fallback?: number): number {
  const v = raw[key] ?? fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) throw new ConfigError(`${key} must be a positive integer (got ${JSON.stringify(raw[key])})`);
  return v;
}

function num(raw: Record<string, unknown>, key: string, fallback: number): number {
  const v = raw[key] ?? fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw new ConfigError(`${key} must be a positive number (got ${JSON.stringify(raw[key])})`);
  return v;
}

function parseRopeScaling(raw: unknown): RopeScaling {
  if (raw === null || raw === undefined) return { type: 'default', factor: 1 };
  if (typeof raw !== 'object') throw new ConfigError('rope_scaling must be an object or null');
  const r = raw as Record<string, unknown>;
  const type = (r.rope_type ?? r.type ?? 'default') as string;
  if (type === 'default') return { type: 'default', factor: 1 };
  const factor = typeof r.factor === 'number' && r.factor > 0 ? r.factor : NaN;
  if (!Number.isFinite(factor)) throw new ConfigError(`rope_scaling.factor must be a positive number for ${type}`);
  if (type === 'linear') return { type: 'linear', factor };
  if (type === 'llama3') {
    return {
      type: 'llama3',
      factor,
      lowFreqFactor: typeof r.low_freq_factor === 'number' ? r.low_freq_factor : 1,
      highFreqFactor: typeof r.high_freq_factor === 'number' ? r.high_freq_factor : 4,
      originalMaxPositionEmbeddings: typeof r.original_max_position_embeddings === 'number' ? r.original_max_position_embeddings : 8192,
    };
  }
  throw new ConfigError(`rope_scaling type "${type}" is not supported (supported: default, linear, llama3)`);
}

/** Parses config.json text or an already-parsed object. Throws ConfigError with the offending key. */
export function parseConfig(input: string | unknown): ModelConfig {
  let raw: unknown = input;
  if (typeof input === 'string') {
    try {
      raw = JSON.parse(input);
    } catch (e) {
      throw new ConfigError(`not valid JSON (${(e as Error).message})`);
    }
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError('must be a JSON object');
  const r = raw as Record<string, unknown>;
  const modelType = typeof r.model_type === 'string' ? r.model_type : '';
  const arch = Array.isArray(r.architectures) && typeof r.architectures[0] === 'string' ? (r.architectures[0] as string) : '';
  const family = (['qwen3', 'qwen2', 'llama'] as const).find((f) => f === modelType);
  if (!family) {
    const named = [modelType && `model_type "${modelType}"`, arch && `architecture ${arch}`].filter(Boolean).join(', ') || 'no model_type';
    throw new ConfigError(`unsupported architecture (${named}); supported: ${SUPPORTED_TEXT}`);
  }
  if (r.hidden_act !== undefined && r.hidden_act !== 'silu') throw new ConfigError(`hidden_act "${String(r.hidden_act)}" is not supported (only silu / SwiGLU)`);
  const hiddenSize = int(r, 'hidden_size');
  const numHeads = int(r, 'num_attention_heads');
  const numKvHeads = int(r, 'num_key_value_heads', numHeads);
  if (numHeads % numKvHeads !== 0) throw new ConfigError(`num_attention_heads (${numHeads}) must be a multiple of num_key_value_heads (${numKvHeads})`);
  const headDim = r.head_dim === undefined || r.head_dim === null ? hiddenSize / numHeads : int(r, 'head_dim');
  if (!Number.isInteger(headDim) || headDim % 2 !== 0) throw new ConfigError(`head_dim must be an even integer (got ${headDim})`);
  if (r.use_sliding_window === true) throw new ConfigError('use_sliding_window: sliding-window attention is not supported (only full causal attention)');
  if (r.mlp_bias === true) throw new ConfigError('mlp_bias: MLP biases are not supported');
  // transformers ≥ 5 keeps theta and the scaling type in rope_parameters.
  const ropeParams = typeof r.rope_parameters === 'object' && r.rope_parameters !== null ? (r.rope_parameters as Record<string, unknown>) : undefined;
  const eos = r.eos_token_id;
  const eosTokenIds = Array.isArray(eos) ? eos.filter((x): x is number => Number.isInteger(x)) : Number.isInteger(eos) ? [eos as number] : [];
  const attentionBias = r.attention_bias === true;
  return {
    family,
    modelType,
    vocabSize: int(r, 'vocab_size'),
    hiddenSize,
    intermediateSize: int(r, 'intermediate_size'),
    numLayers: int(r, 'num_hidden_layers'),
    numHeads,
    numKvHeads,
    headDim,
    maxPositions: int(r, 'max_position_embeddings', 2048),
    rmsNormEps: num(r, 'rms_norm_eps', 1e-6),
    ropeTheta: ropeParams?.rope_theta !== undefined ? num(ropeParams, 'rope_theta', 10000) : num(r, 'rope_theta', 10000),
    ropeScaling: parseRopeScaling(ropeParams ?? r.rope_scaling),
    // Hugging Face's Qwen2, Qwen3 and Llama configs all default to an untied head.
    tieWordEmbeddings: r.tie_word_embeddings === true,
    // Qwen2 always has q/k/v biases (no o bias; its config has no attention_bias key); qwen3 and llama
    // put biases on q/k/v/o when attention_bias is set.
    qkvBias: family === 'qwen2' || attentionBias,
    oBias: family !== 'qwen2' && attentionBias,
    qkNorm: family === 'qwen3',
    bosTokenId: Number.isInteger(r.bos_token_id) ? (r.bos_token_id as number) : undefined,
    eosTokenIds,
  };
}

/** Inverse frequencies per rotary pair (length headDim/2), with the config's scaling applied. */
export function ropeInvFreq(c: ModelConfig): Float64Array {
  const half = c.headDim / 2;
  const inv = new Float64Array(half);
  for (let i = 0; i < half; i++) inv[i] = 1 / c.ropeTheta ** ((2 * i) / c.headDim);
  const s = c.ropeScaling;
  if (s.type === 'linear') for (let i = 0; i < half; i++) inv[i]! /= s.factor;
  if (s.type === 'llama3') {
    // Same bands as transformers' _compute_llama3_parameters.
    const lowWavelen = s.originalMaxPositionEmbeddings! / s.lowFreqFactor!;
    const highWavelen = s.originalMaxPositionEmbeddings! / s.highFreqFactor!;
    for (let i = 0; i < half; i++) {
      const f = inv[i]!;
      const wavelen = (2 * Math.PI) / f;
      if (wavelen > lowWavelen) inv[i] = f / s.factor;
      else if (wavelen >= highWavelen) {
        const smooth = (s.originalMaxPositionEmbeddings! / wavelen - s.lowFreqFactor!) / (s.highFreqFactor! - s.lowFreqFactor!);
        inv[i] = (1 - smooth) * (f / s.factor) + smooth * f;
      }
    }
  }
  return inv;
}

/** The tensor names a checkpoint of this config must hold (HF naming), with their shapes. */
export function expectedTensors(c: ModelConfig): Map<string, number[]> {
  const m = new Map<string, number[]>();
  const qDim = c.numHeads * c.headDim;
  const kvDim = c.numKvHeads * c.headDim;
  m.set('model.embed_tokens.weight', [c.vocabSize, c.hiddenSize]);
  for (let l = 0; l < c.numLayers; l++) {
    const p = `model.layers.${l}.`;
    m.set(p + 'input_layernorm.weight', [c.hiddenSize]);
    m.set(p + 'post_attention_layernorm.weight', [c.hiddenSize]);
    m.set(p + 'self_attn.q_proj.weight', [qDim, c.hiddenSize]);
    m.set(p + 'self_attn.k_proj.weight', [kvDim, c.hiddenSize]);
    m.set(p + 'self_attn.v_proj.weight', [kvDim, c.hiddenSize]);
    m.set(p + 'self_attn.o_proj.weight', [c.hiddenSize, qDim]);
    if (c.qkvBias) {
      m.set(p + 'self_attn.q_proj.bias', [qDim]);
      m.set(p + 'self_attn.k_proj.bias', [kvDim]);
      m.set(p + 'self_attn.v_proj.bias', [kvDim]);
    }
    if (c.oBias) m.set(p + 'self_attn.o_proj.bias', [c.hiddenSize]);
    if (c.qkNorm) {
      m.set(p + 'self_attn.q_norm.weight', [c.headDim]);
      m.set(p + 'self_attn.k_norm.weight', [c.headDim]);
    }
    m.set(p + 'mlp.gate_proj.weight', [c.intermediateSize, c.hiddenSize]);
    m.set(p + 'mlp.up_proj.weight', [c.intermediateSize, c.hiddenSize]);
    m.set(p + 'mlp.down_proj.weight', [c.hiddenSize, c.intermediateSize]);
  }
  m.set('model.norm.weight', [c.hiddenSize]);
  if (!c.tieWordEmbeddings) m.set('lm_head.weight', [c.vocabSize, c.hiddenSize]);
  return m;
}
