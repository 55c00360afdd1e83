// Random-weight checkpoints of each supported family, for tests and benchmarks. Deterministic from a
// seed; never used to display anything to a user.

import { expectedTensors, parseConfig, type Family } from './config';
import { writeSafetensors } from './safetensors';

/** Small xorshift-based normal generator: deterministic across platforms. */
export function gaussian(seed: number): () => number {
  let s = seed >>> 0 || 1;
  const u = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return (s + 0.5) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
}

export interface RandomSpec {
  family: Family;
  vocabSize?: number;
  hiddenSize?: number;
  intermediateSize?: number;
  numLayers?: number;
  numHeads?: number;
  numKvHeads?: number;
  headDim?: number;
  tie?: boolean;
  /** llama only: q/k/v/o biases. */
  attentionBias?: boolean;
  ropeTheta?: number;
  ropeScaling?: Record<string, unknown> | null;
  maxPositions?: number;
  seed?: number;
  dtype?: 'F32' | 'F16';
  /** Standard deviation of weights (norm gains are 1 + this × noise). */
  scale?: number;
}

const ARCH: Record<Family, string> = { qwen3: 'Qwen3ForCausalLM', qwen2: 'Qwen2ForCausalLM', llama: 'LlamaForCausalLM' };

/** The config.json object of a random model (HF keys). */
export function randomConfigJson(spec: RandomSpec): Record<string, unknown> {
  const hidden = spec.hiddenSize ?? 64;
  const heads = spec.numHeads ?? 4;
  return {
    architectures: [ARCH[spec.family]],
    model_type: spec.family,
    vocab_size: spec.vocabSize ?? 97,
    hidden_size: hidden,
    intermediate_size: spec.intermediateSize ?? 3 * hidden,
    num_hidden_layers: spec.numLayers ?? 2,
    num_attention_heads: heads,
    num_key_value_heads: spec.numKvHeads ?? 2,
    head_dim: spec.headDim ?? hidden / heads,
    max_position_embeddings: spec.maxPositions ?? 2048,
    rms_norm_eps: 1e-6,
    rope_theta: spec.ropeTheta ?? 10000,
    rope_scaling: spec.ropeScaling ?? null,
    tie_word_embeddings: spec.tie ?? spec.family !== 'llama',
    attention_bias: spec.attentionBias ?? false,
    hidden_act: 'silu',
    bos_token_id: 1,
    eos_token_id: 2,
  };
}

/** A random checkpoint: config.json text and one safetensors shard. */
export function randomCheckpoint(spec: RandomSpec): { configText: string; weights: Uint8Array } {
  const json = randomConfigJson(spec);
  const config = parseConfig(json);
  const rnd = gaussian(spec.seed ?? 1);
  const scale = spec.scale ?? 0.08;
  const tensors = new Map<string, { shape: number[]; values: Float32Array }>();
  for (const [name, shape] of expectedTensors(config)) {
    const n = shape.reduce((a, b) => a * b, 1);
    const values = new Float32Array(n);
    const isNorm = name.endsWith('norm.weight') || name.endsWith('layernorm.weight');
    const isBias = name.endsWith('.bias');
    for (let i = 0; i < n; i++) values[i] = isNorm ? 1 + scale * rnd() : isBias ? scale * rnd() : scale * rnd();
    tensors.set(name, { shape, values });
  }
  return { configText: JSON.stringify(json, null, 2), weights: writeSafetensors(tensors, spec.dtype ?? 'F32') };
}
