// Deterministic random fp16 weights generated on demand, shared bit-for-bit with bench/torch_bench.py:
// value = k · 2⁻¹⁴ with k = hash(index, tensor) mod (2·K+1) − K (exactly representable in fp16), norm gains
// 1 + j/1024. No file is written: the Checkpoint's tensors produce their fp16 bytes when first read.

import { expectedTensors, parseConfig } from '../lib/model/config';
import type { Checkpoint } from '../lib/model/checkpoint';
import type { SafetensorsFile } from '../lib/model/safetensors';
import { toFloat16Bits } from '../lib/model/safetensors';

/** Weights are uniform on k·2⁻¹⁴, |k| ≤ K: K = 573 gives std ≈ 0.02. */
export const K = 573;
/** Norm gains are 1 + j/1024, |j| ≤ J. */
export const J = 50;

/** lowbias32 (Chris Wellons); the Python side uses the same constants on uint32 arrays. */
function mix(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

const weightTable = toFloat16Bits(Float32Array.from({ length: 2 * K + 1 }, (_, i) => (i - K) * 2 ** -14));
const normTable = toFloat16Bits(Float32Array.from({ length: 2 * J + 1 }, (_, i) => 1 + (i - J) / 1024));

/** fp16 bits of tensor number `t` (its index in expectedTensors order) with n elements. */
export function tensorBits(t: number, n: number, isNorm: boolean): Uint16Array {
  const out = new Uint16Array(n);
  const off = Math.imul(t + 1, 0x9e3779b9) >>> 0;
  const table = isNorm ? normTable : weightTable;
  const m = table.length;
  for (let i = 0; i < n; i++) out[i] = table[mix((i + off) >>> 0) % m]!;
  return out;
}

function halfToFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * f * 2 ** -24;
  return s * (1 + f / 1024) * 2 ** (e - 15);
}

/**
 * A Checkpoint over lazily generated fp16 tensors. Each tensor's bytes are made when the graph builder
 * reads `file.data` and are not kept by the checkpoint afterwards.
 */
export function lazyRandomCheckpoint(configJson: Record<string, unknown>): Checkpoint {
  const config = parseConfig(configJson);
  const tensors: Checkpoint['tensors'] = new Map();
  let storedBytes = 0;
  let t = 0;
  for (const [name, shape] of expectedTensors(config)) {
    const n = shape.reduce((a, b) => a * b, 1);
    const index = t++;
    const isNorm = name.endsWith('norm.weight');
    const file: SafetensorsFile = {
      tensors: new Map([[name, { dtype: 'F16', shape, begin: 0, end: 2 * n }]]),
      metadata: {},
      get data() {
        const bits = tensorBits(index, n, isNorm);
        return new Uint8Array(bits.buffer);
      },
    };
    tensors.set(name, { file, dtype: 'F16', shape });
    storedBytes += 2 * n;
  }
  return {
    config,
    tensors,
    storedBytes,
    dtype: 'F16',
    get(name: string) {
      const e = tensors.get(name);
      if (!e) throw new Error(`no tensor named ${name}`);
      const bits = new Uint16Array(e.file.data.buffer);
      const out = new Float32Array(bits.length);
      for (let i = 0; i < bits.length; i++) out[i] = halfToFloat(bits[i]!);
      return out;
    },
  };
}

/** Qwen3-0.6B's shape (config.json of Qwen/Qwen3-0.6B, minus its weights). */
export const QWEN3_06B_CONFIG: Record<string, unknown> = {
  architectures: ['Qwen3ForCausalLM'],
  model_type: 'qwen3',
  vocab_size: 151936,
  hidden_size: 1024,
  intermediate_size: 3072,
  num_hidden_layers: 28,
  num_attention_heads: 16,
  num_key_value_heads: 8,
  head_dim: 128,
  max_position_embeddings: 40960,
  rms_norm_eps: 1e-6,
  rope_theta: 1000000,
  rope_scaling: null,
  tie_word_embeddings: true,
  attention_bias: false,
  hidden_act: 'silu',
  bos_token_id: 151643,
  eos_token_id: 151645,
};
