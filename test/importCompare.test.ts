// lib/analysis/importCompare.ts: the trust check of an exported attention file against the engine's run of the
// same token ids. Identical data gives exactly 0; one perturbed cell gives exactly that cell's |Δ| (computed here
// from the float32 values) at that place; mean-vs-heads pairs compare head means (checked against a mean
// computed here); rows the file lacks are left out; and every refusal names its reason.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareBlocker, compareImported, CompareRefusal, defaultTolerance, perHeadLayerToAsk, TOLERANCE, type EngineAttention } from '../lib/analysis/importCompare';
import type { ImportedAttention, ImportedLayer } from '../lib/io/attention/types';
import type { Tensor } from '../lib/tensor';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const T = 7, H = 3, L = 4;
const IDS = [5, 9, 2, 11, 3, 3, 8];

/** Engine-like causal attention: [H, T, T], rows softmax-normalised over k ≤ q, 0 after. */
function engineLayer(seed: number): Tensor {
  const r = rng(seed);
  const data = new Float32Array(H * T * T);
  for (let h = 0; h < H; h++)
    for (let q = 0; q < T; q++) {
      const w = Array.from({ length: q + 1 }, () => Math.exp(3 * r()));
      const s = w.reduce((a, b) => a + b, 0);
      w.forEach((v, k) => (data[(h * T + q) * T + k] = v / s));
    }
  return { data, dims: [H, T, T] };
}

/** The head mean of [H, T, T] as float32 [T, T], the way an engine graph with attention 'mean' returns it. */
function meanOf(t: Tensor): Tensor {
  const [h, q, k] = t.dims as [number, number, number];
  const out = new Float32Array(q * k);
  for (let i = 0; i < q * k; i++) {
    let s = 0;
    for (let j = 0; j < h; j++) s += t.data[j * q * k + i]!;
    out[i] = s / h;
  }
  return { data: out, dims: [q, k] };
}

/** The importer's view of an engine layer: masked cells NaN, optionally only some rows, per head or mean. */
function fileLayer(layer: number, t: Tensor, heads: 'mean' | 'all', rows = Array.from({ length: T }, (_, i) => i)): ImportedLayer {
  const src = heads === 'mean' ? meanOf(t) : t;
  const Hs = heads === 'mean' ? 1 : H;
  const data = new Float32Array(Hs * rows.length * T);
  for (let h = 0; h < Hs; h++)
    rows.forEach((q, i) => {
      for (let k = 0; k < T; k++) data[(h * rows.length + i) * T + k] = k > q ? NaN : src.data[(h * T + q) * T + k]!;
    });
  return { layer, label: `layer ${layer}`, heads: heads === 'mean' ? 'mean' : H, queries: rows.length, keys: T, data, queryPositions: rows };
}

function file(layers: ImportedLayer[], extra: Partial<ImportedAttention> = {}): ImportedAttention {
  return { source: 'kvscope-attention', tokens: IDS.map(String), tokenIds: [...IDS], layers, meta: { model: 'test/model', dtype: 'float32' }, notes: [], calls: [], ...extra };
}

const ENGINE = Array.from({ length: L }, (_, l) => engineLayer(100 + l));
const engine = (layers: Tensor[] = ENGINE, ids = IDS): EngineAttention => ({ ids, layers });
const CAUSAL = (T * (T + 1)) / 2;

function refused(fn: () => unknown, code: string, text: RegExp) {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof CompareRefusal, `a CompareRefusal, got ${String(e)}`);
    assert.equal(e.code, code);
    assert.match(e.message, text);
    return true;
  });
}

test('identical attention: every layer 0, per head, all causal cells, passes', () => {
  const f = file(ENGINE.map((t, l) => fileLayer(l, t, 'all')));
  const c = compareImported(f, engine());
  assert.equal(c.layers.length, L);
  for (const [l, r] of c.layers.entries()) {
    assert.equal(r.layer, l);
    assert.equal(r.heads, H);
    assert.equal(r.meanBecause, null);
    assert.equal(r.maxAbs, 0);
    assert.equal(r.meanAbs, 0);
    assert.equal(r.cells, H * CAUSAL);
    assert.equal(r.pass, true);
  }
  assert.equal(c.pass, true);
  assert.equal(c.maxAbs, 0);
  assert.equal(c.tolerance, TOLERANCE.float32);
  assert.equal(c.basis, 'float32');
  assert.equal(c.fileModel, 'test/model');
  assert.equal(c.tokens, T);
});

test('one perturbed cell: max |Δ| is exactly that cell’s, at that place; mean |Δ| is it over the cells', () => {
  const layers = ENGINE.map((t, l) => fileLayer(l, t, 'all'));
  const l2 = layers[2]!;
  const [h, q, k] = [1, 5, 3];
  const at = (h * T + q) * T + k;
  const before = l2.data[at]!;
  l2.data[at] = before + 3e-4; // stored as float32
  const want = Math.abs(l2.data[at]! - ENGINE[2]!.data[at]!);
  assert.ok(want > 2.9e-4 && want < 3.1e-4);
  const c = compareImported(file(layers), engine());
  assert.equal(c.layers[2]!.maxAbs, want);
  assert.equal(c.layers[2]!.meanAbs, want / (H * CAUSAL));
  assert.deepEqual(c.layers[2]!.worst, { head: h, query: q, key: k, file: l2.data[at], engine: ENGINE[2]!.data[at] });
  assert.equal(c.layers[2]!.pass, false);
  for (const i of [0, 1, 3]) assert.equal(c.layers[i]!.pass, true);
  assert.equal(c.pass, false);
  assert.equal(c.maxAbs, want);
  // A looser stated tolerance passes it; the basis says it was given.
  const loose = compareImported(file(layers), engine(), { tolerance: 1e-3 });
  assert.equal(loose.pass, true);
  assert.equal(loose.basis, 'given');
  assert.equal(loose.tolerance, 1e-3);
});

test('mean vs heads: file mean ↔ engine heads and file heads ↔ engine mean compare head means', () => {
  // The file holds the mean (exported with --heads mean), the engine all heads.
  const c1 = compareImported(file(ENGINE.map((t, l) => fileLayer(l, t, 'mean'))), engine());
  for (const r of c1.layers) {
    assert.equal(r.heads, 'mean');
    assert.equal(r.meanBecause, 'file');
    assert.equal(r.cells, CAUSAL);
    assert.ok(r.maxAbs < 1e-7, `float32 mean vs float64 mean: ${r.maxAbs}`);
    assert.equal(r.pass, true);
  }
  // The file holds heads, the engine returned layers 0, 1, 3 reduced (a large model's plan) and layer 2 per head.
  const reduced = ENGINE.map((t, l) => (l === 2 ? t : meanOf(t)));
  const c2 = compareImported(file(ENGINE.map((t, l) => fileLayer(l, t, 'all'))), engine(reduced));
  assert.deepEqual(c2.layers.map((r) => r.heads), ['mean', 'mean', H, 'mean']);
  assert.deepEqual(c2.layers.map((r) => r.meanBecause), ['engine', 'engine', null, 'engine']);
  assert.ok(c2.layers.every((r) => r.pass && r.maxAbs < 1e-7));
  // Both means.
  const c3 = compareImported(file(ENGINE.map((t, l) => fileLayer(l, t, 'mean'))), engine(reduced.map((t) => (t.dims.length === 3 ? meanOf(t) : t))));
  assert.ok(c3.layers.every((r) => r.meanBecause === 'both' && r.maxAbs === 0));
  // A shift of one head shows in the mean divided by H: +6e-4 on one head → 2e-4 on the mean.
  const layers = ENGINE.map((t, l) => fileLayer(l, t, 'all'));
  layers[0]!.data[(0 * T + 4) * T + 2]! += 6e-4;
  const c4 = compareImported(file(layers), engine(reduced));
  assert.ok(Math.abs(c4.layers[0]!.maxAbs - 2e-4) < 1e-7, `${c4.layers[0]!.maxAbs}`);
  assert.deepEqual([c4.layers[0]!.worst!.head, c4.layers[0]!.worst!.query, c4.layers[0]!.worst!.key], [null, 4, 2]);
});

test('only the rows the file holds and the layers it holds are compared', () => {
  const rows = [2, 6];
  const c = compareImported(file([fileLayer(3, ENGINE[3]!, 'all', rows), fileLayer(1, ENGINE[1]!, 'mean', rows)]), engine());
  assert.deepEqual(c.layers.map((r) => r.layer), [3, 1]);
  assert.equal(c.layers[0]!.cells, H * (3 + 7));
  assert.equal(c.layers[1]!.cells, 3 + 7);
  assert.equal(c.layers[0]!.maxAbs, 0);
  // Engine rows as absolute positions: an engine that returned rows 5, 6 only shares row 6.
  const sub = ENGINE.map((t) => ({ data: sliceRows(t, [5, 6]), dims: [H, 2, T] }));
  const c2 = compareImported(file([fileLayer(0, ENGINE[0]!, 'all', rows)]), { ids: IDS, layers: sub, rows: [5, 6] });
  assert.equal(c2.layers[0]!.cells, H * 7);
  assert.equal(c2.layers[0]!.maxAbs, 0);
});

function sliceRows(t: Tensor, rows: number[]): Float32Array {
  const out = new Float32Array(H * rows.length * T);
  for (let h = 0; h < H; h++) rows.forEach((q, i) => out.set(t.data.subarray((h * T + q) * T, (h * T + q + 1) * T), (h * rows.length + i) * T));
  return out;
}

test('refusals: no token ids, other ids, unknown or missing layers, other head count, bad engine tensors, no shared cell', () => {
  const good = ENGINE.map((t, l) => fileLayer(l, t, 'all'));
  const { tokenIds: _drop, ...noIds } = file(good);
  refused(() => compareImported(noIds, engine(), { name: 'q.safetensors' }), 'no-token-ids', /^q\.safetensors: no token_ids/);
  refused(() => compareImported(file(good), engine(ENGINE, [5, 9, 2, 11, 3, 4, 8])), 'ids-differ', /differ from the 7 the engine ran \(first difference at position 5\)/);
  refused(() => compareImported(file(good), engine(ENGINE, IDS.slice(0, 6))), 'ids-differ', /its 7 token ids differ from the 6.*position 6/);
  refused(() => compareImported(file([fileLayer(4, ENGINE[0]!, 'all')]), engine()), 'no-such-layer', /layer 4 does not exist in the loaded model \(4 layers\)/);
  refused(() => compareImported(file([{ ...fileLayer(0, ENGINE[0]!, 'all'), layer: null, label: 'last layer (assumed)' }]), engine()), 'unknown-layer', /layers\[0\] does not say which model layer it is \(last layer \(assumed\)\)/);
  const twoHeads: Tensor = { data: ENGINE[0]!.data.slice(0, 2 * T * T), dims: [2, T, T] };
  refused(() => compareImported(file([fileLayer(0, ENGINE[0]!, 'all')]), engine([twoHeads, ...ENGINE.slice(1)])), 'heads-differ', /layer 0 has 3 heads, the loaded model 2/);
  refused(() => compareImported(file([fileLayer(0, ENGINE[0]!, 'all')]), engine([{ data: new Float32Array(H * T * 6), dims: [H, T, 6] }, ...ENGINE.slice(1)])), 'bad-engine-tensor', /layer 0 has shape \[3, 7, 6\]/);
  refused(() => compareImported(file([fileLayer(0, ENGINE[0]!, 'all', [1])]), { ids: IDS, layers: ENGINE.map((t) => ({ data: sliceRows(t, [5]), dims: [H, 1, T] })), rows: [5] }), 'no-overlap', /share no cell/);
  refused(() => compareImported(file([]), engine()), 'no-layers', /no attention layers/);
});

test('compareBlocker: the checks before a run (vocabulary, context length) and none for a fitting file', () => {
  const f = file(ENGINE.map((t, l) => fileLayer(l, t, 'mean')));
  assert.equal(compareBlocker(f, { numLayers: 4, vocabSize: 12, maxPositions: 7 }), null);
  const v = compareBlocker(f, { numLayers: 4, vocabSize: 11, maxPositions: 100 }, 'a.json');
  assert.equal(v?.code, 'vocab');
  assert.match(v!.message, /^a\.json: token_ids\[3\] = 11 is outside the loaded model's vocabulary of 11/);
  assert.equal(compareBlocker(f, { numLayers: 4, vocabSize: 100, maxPositions: 6 })?.code, 'too-long');
  assert.equal(compareBlocker(f, { numLayers: 3, vocabSize: 100, maxPositions: 100 })?.code, 'no-such-layer');
});

test('default tolerance from the exporter’s dtype, and the per-head layer to ask a large-model engine for', () => {
  assert.deepEqual(defaultTolerance({ dtype: 'float32' }), { tolerance: 1e-4, basis: 'float32' });
  assert.deepEqual(defaultTolerance({ dtype: 'bfloat16' }), { tolerance: 5e-2, basis: 'half' });
  assert.deepEqual(defaultTolerance({ dtype: 'torch.float16' }), { tolerance: 5e-2, basis: 'half' });
  assert.deepEqual(defaultTolerance({}), { tolerance: 1e-4, basis: 'unknown' });
  const half = compareImported(file(ENGINE.map((t, l) => fileLayer(l, t, 'all')), { meta: { dtype: 'bfloat16' } }), engine());
  assert.equal(half.tolerance, TOLERANCE.half);
  assert.equal(half.fileModel, null);
  assert.equal(perHeadLayerToAsk(file([fileLayer(1, ENGINE[1]!, 'mean'), fileLayer(3, ENGINE[3]!, 'all'), fileLayer(2, ENGINE[2]!, 'all')])), 3);
  assert.equal(perHeadLayerToAsk(file([fileLayer(1, ENGINE[1]!, 'mean')])), undefined);
});
