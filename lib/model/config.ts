// Parses a Hugging Face config.json into the one ModelConfig the graph builder and the reference use.
// Knows the qwen3 / qwen2 / llama families only; everything else is refused here, never half-supported.
import type { Params, StringKey } from '../i18n';
import { CodedError } from '../i18n/message';

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

/** A refusal of config.json: a 'msg.model.config.*' message, shown after "config.json: ". */
export class ConfigError extends CodedError {
  constructor(key: StringKey, params?: Params) {
    super(key, params, 'config.json');
    this.name = 'ConfigError';
  }
}

export const SUPPORTED_FAMILIES: readonly Family[] = ['qwen3', 'qwen2', 'llama'];

/**
 * A config value as a message shows it. Never JSON.stringify or String() on a container: the file may nest
 * thousands of levels deep (stack overflow) or set its own `toString` key (TypeError).
 */
function shown(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? v.slice(0, 60) + '…' : v);
  if (typeof v !== 'object' || v === null) return String(v);
  return Array.isArray(v) ? 'a list' : 'an object';
}

/**
 * Largest value accepted per size (well above any real checkpoint's): the builders and estimates loop over
 * layers and allocate per head_dim, so `num_hidden_layers: 1e21` would otherwise hang every reader after this one.
 */
export const CONFIG_MAX: Readonly<Record<string, number>> = {
  vocab_size: 2 ** 22,
  hidden_size: 2 ** 16,
  intermediate_size: 2 ** 18,
  num_hidden_layers: 512,
  num_attention_heads: 1024,
  num_key_value_heads: 1024,
  head_dim: 1024,
  max_position_embeddings: 2 ** 24,
};

function int(raw: Record<string, unknown>, key: string, fallback?: number): number {
  const v = raw[key] ?? fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) throw new ConfigError('msg.model.config.notInt', { key, got: shown(raw[key]) });
  const max = Object.prototype.hasOwnProperty.call(CONFIG_MAX, key) ? CONFIG_MAX[key]! : Infinity;
  if (v > max) throw new ConfigError('msg.model.config.intTooLarge', { key, max, got: v });
  return v;
}

function num(raw: Record<string, unknown>, key: string, fallback: number): number {
  const v = raw[key] ?? fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw new ConfigError('msg.model.config.notNumber', { key, got: shown(raw[key]) });
  return v;
}

function parseRopeScaling(raw: unknown): RopeScaling {
  if (raw === null || raw === undefined) return { type: 'default', factor: 1 };
  if (typeof raw !== 'object') throw new ConfigError('msg.model.config.ropeNotObject');
  const r = raw as Record<string, unknown>;
  const type = r.rope_type ?? r.type ?? 'default';
  if (typeof type !== 'string') throw new ConfigError('msg.model.config.ropeTypeNotString', { got: shown(type) });
  if (type === 'default') return { type: 'default', factor: 1 };
  const factor = typeof r.factor === 'number' && r.factor > 0 ? r.factor : NaN;
  if (!Number.isFinite(factor)) throw new ConfigError('msg.model.config.ropeFactor', { type: shown(type) });
  if (type === 'linear') return { type: 'linear', factor };
  if (type === 'llama3') {
    const positive = (key: string, fallback: number): number => {
      const v = r[key];
      if (v === undefined || v === null) return fallback;
      if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw new ConfigError('msg.model.config.ropePositive', { key, got: shown(v) });
      return v;
    };
    const s: RopeScaling = {
      type: 'llama3',
      factor,
      lowFreqFactor: positive('low_freq_factor', 1),
      highFreqFactor: positive('high_freq_factor', 4),
      originalMaxPositionEmbeddings: positive('original_max_position_embeddings', 8192),
    };
    // ropeInvFreq divides by their difference.
    if (s.highFreqFactor! <= s.lowFreqFactor!) throw new ConfigError('msg.model.config.ropeFreqOrder', { high: s.highFreqFactor!, low: s.lowFreqFactor! });
    return s;
  }
  throw new ConfigError('msg.model.config.ropeTypeUnsupported', { type: shown(type) });
}

/** Parses config.json text or an already-parsed object. Throws ConfigError with the offending key. */
export function parseConfig(input: string | unknown): ModelConfig {
  let raw: unknown = input;
  if (typeof input === 'string') {
    try {
      raw = JSON.parse(input);
    } catch (e) {
      throw new ConfigError('msg.model.config.notJson', { detail: (e as Error).message });
    }
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError('msg.model.config.notObject');
  const r = raw as Record<string, unknown>;
  const modelType = typeof r.model_type === 'string' ? r.model_type : '';
  const arch = Array.isArray(r.architectures) && typeof r.architectures[0] === 'string' ? (r.architectures[0] as string) : '';
  const family = (['qwen3', 'qwen2', 'llama'] as const).find((f) => f === modelType);
  if (!family) {
    const key = modelType && arch ? 'msg.model.config.archBoth' : modelType ? 'msg.model.config.archType' : arch ? 'msg.model.config.archName' : 'msg.model.config.archNone';
    throw new ConfigError(key, { modelType, architecture: arch });
  }
  if (r.hidden_act !== undefined && r.hidden_act !== 'silu') throw new ConfigError('msg.model.config.hiddenAct', { got: shown(r.hidden_act) });
  const hiddenSize = int(r, 'hidden_size');
  const numHeads = int(r, 'num_attention_heads');
  const numKvHeads = int(r, 'num_key_value_heads', numHeads);
  if (numHeads % numKvHeads !== 0) throw new ConfigError('msg.model.config.kvHeads', { heads: numHeads, kvHeads: numKvHeads });
  const headDim = r.head_dim === undefined || r.head_dim === null ? hiddenSize / numHeads : int(r, 'head_dim');
  if (!Number.isInteger(headDim) || headDim % 2 !== 0 || headDim > CONFIG_MAX.head_dim!) throw new ConfigError('msg.model.config.headDim', { max: CONFIG_MAX.head_dim!, got: headDim });
  if (r.use_sliding_window === true) throw new ConfigError('msg.model.config.slidingWindow');
  if (r.mlp_bias === true) throw new ConfigError('msg.model.config.mlpBias');
  // transformers ≥ 5 keeps theta and the scaling type in rope_parameters.
  const ropeParams = typeof r.rope_parameters === 'object' && r.rope_parameters !== null ? (r.rope_parameters as Record<string, unknown>) : undefined;
  const eos = r.eos_token_id;
  const eosTokenIds = Array.isArray(eos) ? eos.filter((x): x is number => Number.isInteger(x)) : Number.isInteger(eos) ? [eos as number] : [];
  const attentionBias = r.attention_bias === true;
  const config: ModelConfig = {
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
  // Extreme but positive values (rope_theta 5e-324, a factor of 1e-320) overflow the rotary frequencies to
  // Infinity or 0, which would turn every attention score into NaN: refuse them here, where the key is known.
  if (!ropeInvFreq(config).every((f) => Number.isFinite(f) && f > 0)) {
    throw new ConfigError('msg.model.config.ropeFrequencies', { theta: config.ropeTheta });
  }
  return config;
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
