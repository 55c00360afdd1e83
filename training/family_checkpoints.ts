// Writes the tiny random qwen2 and llama checkpoints (config.json + model.safetensors) behind the family
// fixtures in test/fixtures/families/; training/py/family_fixtures.py runs this, then computes expected.safetensors.

import fs from 'node:fs';
import path from 'node:path';
import { randomCheckpoint, type RandomSpec } from '../lib/model/randomCheckpoint';

/** The two families the golden PyTorch module (Qwen3 only) does not cover, each with its distinctive parts. */
const FAMILY_SPECS: Record<'qwen2' | 'llama', RandomSpec> = {
  // Qwen2 / Qwen2.5: q/k/v biases, no o_proj bias, no q/k norm, tied head (as the small Qwen2.5 models), theta 1e6.
  qwen2: { family: 'qwen2', vocabSize: 61, hiddenSize: 32, intermediateSize: 64, numLayers: 2, numHeads: 4, numKvHeads: 2, tie: true, ropeTheta: 1_000_000, seed: 2, scale: 0.2, dtype: 'F16' },
  // Llama 3.x style: untied lm_head, attention_bias (q/k/v and o_proj), head_dim 16 with 4 heads on hidden 32
  // (q is wider than the residual), llama3 rope scaling whose bands all occur among the 8 frequencies.
  llama: {
    family: 'llama', vocabSize: 53, hiddenSize: 32, intermediateSize: 64, numLayers: 2, numHeads: 4, numKvHeads: 2, headDim: 16, tie: false, attentionBias: true,
    ropeTheta: 10000, ropeScaling: { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 32 }, seed: 3, scale: 0.2, dtype: 'F32',
  },
};

const out = process.argv[2] ?? 'test/fixtures/families';
for (const [name, spec] of Object.entries(FAMILY_SPECS)) {
  const { configText, weights } = randomCheckpoint(spec);
  const dir = path.join(out, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'config.json'), configText + '\n');
  fs.writeFileSync(path.join(dir, 'model.safetensors'), weights);
  console.log(`${dir}: config.json, model.safetensors (${weights.length} bytes)`);
}
