// config.json parsing for the qwen3 / qwen2 / llama families, refusal of everything else, RoPE scaling
// against hand-computed values, and checkpoint loading against the tensors a config implies.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { loadCheckpoint } from '../lib/model/checkpoint';
import { expectedTensors, parseConfig, ropeInvFreq } from '../lib/model/config';
import { randomCheckpoint, randomConfigJson } from '../lib/model/randomCheckpoint';
import { TINY_VOCAB_SIZE, tinySpecialId } from './helpers/embeddedIds';

test('parses the embedded qwen3 config', () => {
  const c = parseConfig(readFileSync('public/models/kvscope-tiny/config.json', 'utf8'));
  assert.equal(c.family, 'qwen3');
  assert.deepEqual([c.numLayers, c.numHeads, c.numKvHeads, c.headDim, c.hiddenSize, c.vocabSize], [4, 4, 2, 32, 128, TINY_VOCAB_SIZE]);
  assert.equal(c.qkNorm, true);
  assert.equal(c.qkvBias, false);
  assert.equal(c.tieWordEmbeddings, true);
  assert.deepEqual(c.eosTokenIds, [tinySpecialId('<|im_end|>')]);
});

test('qwen2 has q/k/v biases without an attention_bias key; llama has them only with attention_bias; llama is untied unless told', () => {
  const q2 = parseConfig({ ...randomConfigJson({ family: 'qwen2' }), attention_bias: undefined });
  assert.equal(q2.qkvBias, true);
  assert.equal(q2.qkNorm, false);
  const ll = parseConfig({ ...randomConfigJson({ family: 'llama' }), tie_word_embeddings: undefined, attention_bias: undefined });
  assert.equal(ll.qkvBias, false);
  assert.equal(ll.tieWordEmbeddings, false);
  const llb = parseConfig(randomConfigJson({ family: 'llama', attentionBias: true }));
  assert.equal(llb.qkvBias && llb.oBias, true);
  const q3b = parseConfig(randomConfigJson({ family: 'qwen3', attentionBias: true }));
  assert.equal(q3b.qkvBias && q3b.oBias, true);
  // transformers ≥ 5 layout: theta and scaling inside rope_parameters.
  const v5 = parseConfig({ ...randomConfigJson({ family: 'llama' }), rope_theta: undefined, rope_parameters: { rope_type: 'linear', factor: 2, rope_theta: 500000 } });
  assert.equal(v5.ropeTheta, 500000);
  assert.equal(v5.ropeScaling.type, 'linear');
  // head_dim defaults to hidden / heads (SmolLM2 and TinyLlama omit it).
  const smol = parseConfig({ model_type: 'llama', hidden_size: 576, num_attention_heads: 9, num_key_value_heads: 3, intermediate_size: 1536, num_hidden_layers: 30, vocab_size: 49152, tie_word_embeddings: true });
  assert.equal(smol.headDim, 64);
  assert.equal(smol.tieWordEmbeddings, true);
  assert.equal(parseConfig({ ...randomConfigJson({ family: 'qwen2' }), tie_word_embeddings: undefined }).tieWordEmbeddings, false);
});

test('refuses unsupported architectures, naming them and what is supported', () => {
  assert.throws(() => parseConfig({ model_type: 'gpt2', architectures: ['GPT2LMHeadModel'] }), /unsupported architecture \(model_type "gpt2", architecture GPT2LMHeadModel\); supported: qwen3/);
  assert.throws(() => parseConfig({ model_type: 'mistral' }), /unsupported architecture.*llama/);
  assert.throws(() => parseConfig('{"model_type": "qwen3",'), /not valid JSON/);
  assert.throws(() => parseConfig({ ...randomConfigJson({ family: 'qwen3' }), hidden_act: 'gelu' }), /hidden_act "gelu"/);
  assert.throws(() => parseConfig({ ...randomConfigJson({ family: 'qwen3' }), num_key_value_heads: 3 }), /multiple of num_key_value_heads/);
  assert.throws(() => parseConfig({ ...randomConfigJson({ family: 'llama' }), rope_scaling: { rope_type: 'yarn', factor: 4 } }), /rope_scaling type "yarn" is not supported/);
  assert.throws(() => parseConfig({ ...randomConfigJson({ family: 'qwen2' }), hidden_size: -4 }), /hidden_size must be a positive integer/);
  assert.throws(() => parseConfig({ ...randomConfigJson({ family: 'qwen2' }), use_sliding_window: true }), /sliding-window attention is not supported/);
  assert.throws(() => parseConfig({ ...randomConfigJson({ family: 'llama' }), mlp_bias: true }), /MLP biases are not supported/);
});

test('RoPE inverse frequencies: plain, linear and llama3 scaling (hand-computed)', () => {
  const base = parseConfig(randomConfigJson({ family: 'llama', hiddenSize: 32, numHeads: 4, headDim: 8, ropeTheta: 10000 }));
  assert.deepEqual([...ropeInvFreq(base)].map((x) => +x.toPrecision(12)), [1, 0.1, 0.01, 0.001]);
  const lin = parseConfig(randomConfigJson({ family: 'llama', hiddenSize: 32, numHeads: 4, headDim: 8, ropeScaling: { type: 'linear', factor: 4 } }));
  assert.deepEqual([...ropeInvFreq(lin)].map((x) => +x.toPrecision(12)), [0.25, 0.025, 0.0025, 0.00025]);
  // llama3 with original context 8192, low 1, high 4, factor 8: wavelengths 2π/f = 6.28, 62.8, 628, 6283.
  // high-freq cutoff 8192/4 = 2048 keeps the first three; 6283 lies between 2048 and 8192 → smoothed.
  const l3 = parseConfig(randomConfigJson({ family: 'llama', hiddenSize: 32, numHeads: 4, headDim: 8, ropeScaling: { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192 } }));
  const smooth = (8192 / ((2 * Math.PI) / 0.001) - 1) / (4 - 1);
  const want = [1, 0.1, 0.01, (1 - smooth) * (0.001 / 8) + smooth * 0.001];
  ropeInvFreq(l3).forEach((x, i) => assert.ok(Math.abs(x - want[i]!) < 1e-15, `pair ${i}`));
});

test('checkpoint loading: missing tensors, wrong shapes and corrupt files fail clearly', () => {
  const good = randomCheckpoint({ family: 'qwen3', seed: 1 });
  const ck = loadCheckpoint(good.configText, [good.weights]);
  assert.equal(ck.tensors.size, expectedTensors(ck.config).size);
  // A config asking for a third layer the weights do not have.
  const cfg = JSON.parse(good.configText);
  assert.throws(() => loadCheckpoint({ ...cfg, num_hidden_layers: 3 }, [good.weights]), /missing tensor model\.layers\.2\.input_layernorm\.weight/);
  assert.throws(() => loadCheckpoint({ ...cfg, intermediate_size: 100 }, [good.weights]), /mlp\.gate_proj\.weight has shape \[192,64\] but config\.json implies \[100,64\]/);
  assert.throws(() => loadCheckpoint(good.configText, [good.weights.subarray(0, good.weights.length - 10)]), /truncated/);
  assert.throws(() => loadCheckpoint(good.configText, []), /no \.safetensors file/);
  const garbage = good.weights.slice();
  garbage.fill(0x7b, 8, 20); // '{' bytes inside the JSON header
  assert.throws(() => loadCheckpoint(good.configText, [garbage]), /header is not valid JSON/);
  assert.throws(() => loadCheckpoint({ model_type: 'phi3' }, [good.weights]), /unsupported architecture/);
});
