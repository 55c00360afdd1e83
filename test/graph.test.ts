// Graph builder + engine session vs the plain-TypeScript reference, on random-weight models of every
// family. Tolerance 1e-4 absolute (float32 graph vs float64 reference) on logits, attention and K/V.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as ort from 'onnxruntime-web';
import { maxAbsDiff } from '../lib/analysis/numeric';
import { EngineSession } from '../lib/engine/session';
import { loadCheckpoint, type Checkpoint } from '../lib/model/checkpoint';
import { buildGraph } from '../lib/model/graph';
import { randomCheckpoint, type RandomSpec } from '../lib/model/randomCheckpoint';
import { referenceForward } from '../lib/model/reference';

ort.env.logLevel = 'error';
const TOL = 1e-4;

const FAMILIES: Record<string, RandomSpec> = {
  'qwen3 (QK-norm, tied)': { family: 'qwen3', seed: 3, numHeads: 4, numKvHeads: 2, headDim: 16, hiddenSize: 48 },
  'qwen2 (q/k/v biases)': { family: 'qwen2', seed: 5, numHeads: 6, numKvHeads: 2, hiddenSize: 48, ropeTheta: 1e6 },
  'llama (untied, bias, llama3 RoPE scaling)': {
    family: 'llama', seed: 7, numHeads: 4, numKvHeads: 1, hiddenSize: 64, tie: false, attentionBias: true,
    ropeScaling: { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 64 },
  },
  'llama (MHA, linear RoPE scaling)': { family: 'llama', seed: 9, numHeads: 4, numKvHeads: 4, hiddenSize: 32, tie: false, ropeScaling: { type: 'linear', factor: 2 } },
};

function ckptOf(spec: RandomSpec): Checkpoint {
  const r = randomCheckpoint(spec);
  return loadCheckpoint(r.configText, [r.weights]);
}
const ids = (n: number, vocab: number, seed = 1) => Array.from({ length: n }, (_, i) => (i * 37 + seed * 11 + ((i * i) % 13)) % vocab);

for (const [name, spec] of Object.entries(FAMILIES)) {
  test(`${name}: graph equals the reference on logits, attention and K/V (≤ ${TOL})`, async () => {
    const ck = ckptOf(spec);
    const x = ids(40, ck.config.vocabSize);
    const ref = referenceForward(ck, x);
    const s = await EngineSession.create(ort, ck);
    const r = await s.prefill(x);
    assert.deepEqual(r.logits!.dims, [40, ck.config.vocabSize]);
    assert.ok(maxAbsDiff(r.logits!.data, ref.logits) <= TOL, 'logits');
    for (let l = 0; l < ck.config.numLayers; l++) {
      assert.deepEqual(r.attention[l]!.dims, [ck.config.numHeads, 40, 40]);
      assert.ok(maxAbsDiff(r.attention[l]!.data, ref.attn[l]!) <= TOL, `attention layer ${l}`);
      const kv = s.kv(l);
      assert.deepEqual(kv.k.dims, [ck.config.numKvHeads, 40, ck.config.headDim]);
      assert.ok(maxAbsDiff(kv.k.data, ref.k[l]!) <= TOL, `k layer ${l}`);
      assert.ok(maxAbsDiff(kv.v.data, ref.v[l]!) <= TOL, `v layer ${l}`);
    }
    // The oracle must be able to disagree: a different model's reference is far away.
    const other = referenceForward(ckptOf({ ...spec, seed: (spec.seed ?? 1) + 100 }), x);
    assert.ok(maxAbsDiff(r.logits!.data, other.logits) > 1e-2);
    await s.dispose();
  });
}

test('prefill then extend by 1 and by chunks equals one full prefill; fork equals recomputation', async () => {
  const ck = ckptOf(FAMILIES['qwen3 (QK-norm, tied)']!);
  const V = ck.config.vocabSize;
  const x = ids(50, V, 2);
  const s = await EngineSession.create(ort, ck);
  const full = await s.prefill(x);
  const fullKv = Array.from({ length: ck.config.numLayers }, (_, l) => s.kv(l));

  await s.prefill(x.slice(0, 30));
  const one = await s.extend(x.slice(30, 31));
  const chunk = await s.extend(x.slice(31, 50));
  assert.equal(s.length, 50);
  assert.ok(maxAbsDiff(one.logits!.data, full.logits!.data.subarray(30 * V, 31 * V)) <= 1e-5);
  assert.ok(maxAbsDiff(chunk.logits!.data, full.logits!.data.subarray(31 * V)) <= 1e-5);
  // Attention rows of the chunk: [H, 19, 50] equal rows 31…49 of the full prefill.
  const H = ck.config.numHeads;
  for (let l = 0; l < ck.config.numLayers; l++) {
    const want = new Float32Array(H * 19 * 50);
    for (let h = 0; h < H; h++) want.set(full.attention[l]!.data.subarray((h * 50 + 31) * 50, (h * 50 + 50) * 50), h * 19 * 50);
    assert.ok(maxAbsDiff(chunk.attention[l]!.data, want) <= 1e-5, `chunk attention layer ${l}`);
    assert.ok(maxAbsDiff(s.kv(l).k.data, fullKv[l]!.k.data) <= 1e-5);
    assert.ok(maxAbsDiff(s.kv(l).v.data, fullKv[l]!.v.data) <= 1e-5);
  }
  // Rewind to 20 and continue with different tokens: equals a prefill of the new sequence.
  s.fork(20);
  assert.equal(s.length, 20);
  const y = [...x.slice(0, 20), ...ids(10, V, 9)];
  const forked = await s.extend(y.slice(20));
  const s2 = await EngineSession.create(ort, ck);
  const fresh = await s2.prefill(y);
  assert.ok(maxAbsDiff(forked.logits!.data, fresh.logits!.data.subarray(20 * V)) <= 1e-5);
  for (let l = 0; l < ck.config.numLayers; l++) assert.ok(maxAbsDiff(s.kv(l).k.data, s2.kv(l).k.data) <= 1e-5);
  assert.throws(() => s.fork(31), /cannot rewind to 31/);
  await assert.rejects(s.extend([V + 5]), /outside the vocabulary/);
  await s.dispose();
  await s2.dispose();
});

test('on-graph reductions (head-mean, max, one head, selected rows) and last-only logits equal reductions of the full tensors', async () => {
  const ck = ckptOf(FAMILIES['qwen2 (q/k/v biases)']!);
  const V = ck.config.vocabSize;
  const H = ck.config.numHeads;
  const x = ids(24, V, 4);
  const full = await (await EngineSession.create(ort, ck)).prefill(x);
  const rows = [0, 5, 23];
  const pick = (l: number, reduce: (vals: number[]) => number) => {
    const out = new Float32Array(rows.length * 24);
    rows.forEach((r, i) => {
      for (let k = 0; k < 24; k++) out[i * 24 + k] = reduce(Array.from({ length: H }, (_, h) => full.attention[l]!.data[(h * 24 + r) * 24 + k]!));
    });
    return out;
  };
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  for (const [mode, reduce] of [['mean', mean], ['max', (v: number[]) => Math.max(...v)], ['head', (v: number[]) => v[2]!]] as const) {
    const s = await EngineSession.create(ort, ck, { graph: { attention: mode, head: 2, attentionRows: 'input', logits: 'last' } });
    const r = await s.prefill(x, rows);
    assert.deepEqual(r.rows, rows);
    assert.deepEqual(r.logits!.dims, [1, V]);
    assert.ok(maxAbsDiff(r.logits!.data, full.logits!.data.subarray(23 * V)) <= 1e-5);
    for (let l = 0; l < ck.config.numLayers; l++) {
      assert.deepEqual(r.attention[l]!.dims, [3, 24]);
      assert.ok(maxAbsDiff(r.attention[l]!.data, pick(l, reduce)) <= 1e-6, `${mode} layer ${l}`);
    }
    await assert.rejects(s.extend([1], [0]), /not among this call's positions/);
    await s.dispose();
  }
});

test('float16 weights: the fp16 graph equals the reference on the same fp16 weights; rotate_half uses Slice, never Split', async () => {
  const spec = { ...FAMILIES['qwen3 (QK-norm, tied)']!, dtype: 'F16' as const };
  const ck = ckptOf(spec);
  assert.equal(ck.dtype, 'F16');
  const x = ids(32, ck.config.vocabSize, 6);
  const ref = referenceForward(ck, x);
  const s = await EngineSession.create(ort, ck, { graph: { weights: 'float16' } });
  assert.equal(s.weightType, 'float16');
  const r = await s.prefill(x);
  assert.ok(maxAbsDiff(r.logits!.data, ref.logits) <= TOL);
  for (let l = 0; l < ck.config.numLayers; l++) assert.ok(maxAbsDiff(r.attention[l]!.data, ref.attn[l]!) <= TOL);
  await s.dispose();
  const text = new TextDecoder('latin1').decode(buildGraph(ck).bytes);
  // op_type is NodeProto field 4 (tag 0x22) followed by its length.
  assert.ok(text.includes('\x22\x05Slice') && text.includes('\x22\x07Softmax'));
  assert.ok(!text.includes('\x22\x05Split'), 'no Split op_type in the graph');
});
