// The "copied from" line's lib parts: copySourceOfRun on a run's tensors (per-head layers, a large model's one
// per-head layer among head means, head means only) against copySource on rows cut out by hand; the best head's
// argmax position; lib/view/copySource's context window, "×N" formatting, figures and the heatmap's mark box.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { copySource, copySourceOfRun } from '../lib/analysis/copySource';
import { contextWindow, copyFigures, formatTimes, markBox, offsetFigures, timesUniform } from '../lib/view/copySource';
import type { Tensor } from '../lib/tensor';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A causal [heads, T, T] tensor of softmax-normalised random rows. */
function causal(r: () => number, heads: number, T: number): Tensor {
  const data = new Float32Array(heads * T * T);
  for (let h = 0; h < heads; h++)
    for (let q = 0; q < T; q++) {
      let sum = 0;
      const o = (h * T + q) * T;
      for (let k = 0; k <= q; k++) sum += data[o + k] = Math.exp(4 * r());
      for (let k = 0; k <= q; k++) data[o + k]! /= sum;
    }
  return { data, dims: [heads, T, T] };
}

/** The head mean [T, T] of a [heads, T, T] tensor. */
function mean(a: Tensor): Tensor {
  const [H, T] = a.dims as [number, number, number];
  const data = new Float32Array(T * T);
  for (let h = 0; h < H; h++) for (let i = 0; i < T * T; i++) data[i]! += a.data[h * T * T + i]! / H;
  return { data, dims: [T, T] };
}

/** Row q of [heads, T, T] as [heads, q + 1], cut out element by element. */
function rowOf(a: Tensor, q: number): Float32Array {
  const [H, T] = a.dims.length === 3 ? [a.dims[0]!, a.dims[1]!] : [1, a.dims[0]!];
  const out = new Float32Array(H * (q + 1));
  for (let h = 0; h < H; h++) for (let k = 0; k <= q; k++) out[h * (q + 1) + k] = a.data[(h * T + q) * T + k]!;
  return out;
}

test('copySourceOfRun over every per-head layer equals copySource on the rows; the layer is the model’s', () => {
  const r = rng(11);
  for (let c = 0; c < 60; c++) {
    const T = 4 + Math.floor(r() * 30);
    const H = 1 + Math.floor(r() * 4);
    const L = 1 + Math.floor(r() * 3);
    const att = Array.from({ length: L }, () => causal(r, H, T));
    const ids = Array.from({ length: T }, () => Math.floor(r() * 5));
    const q = Math.floor(r() * (T - 1));
    const got = copySourceOfRun(att, att.map((_, l) => l), q, ids)!;
    const want = copySource(att.map((a) => rowOf(a, q)), H, q, ids, ids[q + 1]!);
    assert.deepEqual(got.best, want.best);
    assert.deepEqual(got.perHead, want.perHead);
    assert.equal(got.bestHeadArgmax, want.bestHeadArgmax);
    assert.equal(got.bestIsHeadArgmax, want.bestIsHeadArgmax);
    assert.deepEqual(got.offsetReading, want.offsetReading);
    assert.deepEqual(got.coverage, { kind: 'all', layers: att.map((_, l) => l), heads: H, totalLayers: L });
  }
});

test('a large model’s run: only its per-head layer is searched, and best.layer names it; head means only: each mean is one head', () => {
  const r = rng(3);
  const T = 20;
  const ids = [0, 7, 1, 2, 7, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4, 5, 6, 8, 7];
  const perHead = causal(r, 4, T);
  const att = [mean(causal(r, 4, T)), mean(causal(r, 4, T)), perHead, mean(causal(r, 4, T))];
  const q = 18; // predicts ids[19] = 7, at 1, 4 and 9 before
  const got = copySourceOfRun(att, [2], q, ids)!;
  const want = copySource([rowOf(perHead, q)], 4, q, ids, 7);
  assert.deepEqual(got.occurrences, [1, 4, 9]);
  assert.deepEqual(got.best, { ...want.best!, layer: 2 });
  assert.deepEqual(got.coverage, { kind: 'headLayers', layers: [2], heads: 4, totalLayers: 4 });
  const means = [mean(causal(r, 4, T)), mean(causal(r, 4, T))];
  const m = copySourceOfRun(means, [], q, ids)!;
  const wantM = copySource(means.map((a) => rowOf(a, q)), 1, q, ids, 7);
  assert.deepEqual(m.best, wantM.best);
  assert.equal(m.best!.head, 0);
  assert.deepEqual(m.coverage, { kind: 'mean', layers: [0, 1], heads: 1, totalLayers: 2 });
});

test('copySourceOfRun: the last row and rows out of range predict nothing of the run', () => {
  const att = [causal(rng(1), 2, 6)];
  const ids = [0, 1, 2, 1, 2, 1];
  assert.equal(copySourceOfRun(att, [0], 5, ids), null);
  assert.equal(copySourceOfRun(att, [0], -1, ids), null);
  assert.equal(copySourceOfRun(att, [0], 2.5, ids), null);
  assert.equal(copySourceOfRun([], [], 1, ids), null);
  assert.equal(copySourceOfRun(att, [0], 0, ids)!.best, null, 'row 0 has no positions 1 … 0');
});

test('the best head’s argmax position: where it attends most, position 0 included', () => {
  const keys = 5;
  const a = new Float32Array([0.6, 0.1, 0.2, 0.05, 0.05]);
  const c = copySource([a], 1, 4, [0, 9, 3, 4, 5, 3], 3);
  assert.equal(c.best!.position, 2);
  assert.equal(c.bestHeadArgmax, 0);
  assert.equal(c.bestIsHeadArgmax, false);
  assert.equal(copySource([a], 1, 4, [0, 9, 3, 4, 5, 7], 7).bestHeadArgmax, null);
  assert.equal(keys, a.length);
});

test('contextWindow: up to radius tokens either side, cut at the query’s end and at position 1', () => {
  const labels = ['<s>', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
  assert.deepEqual(contextWindow(labels, 4, 2), { start: 2, tokens: ['b', 'c', 'd', 'e', 'f'], at: 2, cutBefore: true, cutAfter: true });
  assert.deepEqual(contextWindow(labels, 2, 3), { start: 1, tokens: ['a', 'b', 'c', 'd', 'e'], at: 1, cutBefore: false, cutAfter: true });
  assert.deepEqual(contextWindow(labels, 5, 3, 7), { start: 2, tokens: ['b', 'c', 'd', 'e', 'f'], at: 3, cutBefore: true, cutAfter: false }, 'keys 0 … 6 seen');
  assert.deepEqual(contextWindow(labels, 0, 2, 1), { start: 0, tokens: ['<s>'], at: 0, cutBefore: false, cutAfter: false });
  assert.throws(() => contextWindow(labels, 7, 2, 7), RangeError);
});

test('×N: two significant digits below 10, whole numbers from 10; weight over uniform', () => {
  assert.equal(formatTimes(67.34), '×67');
  assert.equal(formatTimes(9.96), '×10');
  assert.equal(formatTimes(4.236), '×4.2');
  assert.equal(formatTimes(0.8512), '×0.85');
  assert.equal(formatTimes(Infinity), '×?');
  assert.ok(Math.abs(timesUniform(0.18, 1 / 374) - 0.18 * 374) < 1e-9);
  assert.equal(timesUniform(0.5, 0), 0);
});

test('copyFigures: what the line prints', () => {
  const keys = 6;
  const a = new Float32Array(2 * keys).fill(0.04);
  a[keys + 2] = 0.8;
  const c = copySource([a], 2, 5, [0, 5, 42, 6, 7, 42], 42);
  const f = copyFigures(c)!;
  assert.equal(f.position, 2);
  assert.equal(f.layer, 0);
  assert.equal(f.head, 1);
  assert.equal(f.weight, '0.8');
  assert.equal(f.uniform, '0.167');
  assert.equal(f.times, '×4.8');
  assert.equal(f.argmax, true);
  assert.equal(f.occurrences, 2, 'positions 2 and 5');
  assert.equal(copyFigures(copySource([a], 2, 5, [0, 5, 1, 6, 7, 8], 42)), null);
});

test('markBox: centred on the cell, at least minSide, null outside the window', () => {
  const full = { q0: 0, k0: 0, span: 100 };
  assert.deepEqual(markBox(full, 500, 10, 4, 12), { x: 22.5 - 6, y: 52.5 - 6, w: 12, h: 12 });
  assert.deepEqual(markBox({ q0: 0, k0: 0, span: 10 }, 500, 1, 2, 12), { x: 100, y: 50, w: 50, h: 50 });
  const zoomed = { q0: 20, k0: 5.5, span: 10 };
  assert.equal(markBox(zoomed, 500, 19, 8, 12), null);
  assert.equal(markBox(zoomed, 500, 25, 4, 12), null);
  assert.equal(markBox(zoomed, 500, 30, 8, 12), null);
  assert.ok(markBox(zoomed, 500, 25, 5, 12), 'the half-visible column 5 still counts');
  assert.equal(markBox({ q0: 0, k0: 0, span: 0 }, 500, 0, 0, 12), null);
});

test('copySourceOfRun: the offset reading’s carrier is the lower layer’s head whose row at the read key attends most to the occurrence', () => {
  // 13 tokens; the predicted 42 (position 12) occurs at 3. Layer 1 head 0's row 11 attends most to 8 = 3 + 5;
  // layer 0 head 1's row 8 attends most to 3 (a head that looks 5 back), head 0's spreads evenly.
  const T = 13;
  const ids = [0, 10, 11, 42, 12, 13, 14, 15, 16, 17, 18, 19, 42];
  const flat = (heads: number) => {
    const data = new Float32Array(heads * T * T);
    for (let h = 0; h < heads; h++) for (let q = 0; q < T; q++) for (let k = 0; k <= q; k++) data[(h * T + q) * T + k] = 1 / (q + 1);
    return data;
  };
  const l0 = flat(2);
  for (let k = 0; k <= 8; k++) l0[(1 * T + 8) * T + k] = k === 3 ? 0.6 : 0.05;
  const l1 = flat(2);
  for (let k = 0; k <= 11; k++) l1[(0 * T + 11) * T + k] = k === 8 ? 0.89 : 0.01;
  const att: Tensor[] = [{ data: l0, dims: [2, T, T] }, { data: l1, dims: [2, T, T] }];
  const got = copySourceOfRun(att, [0, 1], 11, ids)!;
  assert.deepEqual(got.offsetReading, { layer: 1, head: 0, position: 8, weight: l1[11 * T + 8], occurrence: 3, offset: 5 });
  assert.deepEqual(got.carrier, { layer: 0, head: 1, weight: l0[(T + 8) * T + 3], isArgmax: true });
  // Only layer 1 searched per head (a large model's run): no lower layer to look in.
  const only = copySourceOfRun([{ data: new Float32Array(T * T), dims: [T, T] }, att[1]!], [1], 11, ids)!;
  assert.equal(only.offsetReading!.layer, 1);
  assert.equal(only.carrier, null);
  // No offset reading, no carrier.
  assert.equal(copySourceOfRun(att, [0, 1], 11, [0, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 42])!.carrier, null);
});

test('offsetFigures: shown when a head reads after the occurrence and no head attends most to the occurrence itself more strongly', () => {
  const T = 13;
  const ids = [0, 10, 11, 42, 12, 13, 14, 15, 16, 17, 18, 19, 42];
  const l1 = new Float32Array(T - 1).fill(0.01);
  l1[8] = 0.89;
  const c = copySource([l1], 1, 11, ids, 42);
  const f = offsetFigures(c, { layer: 0, head: 1, weight: 0.6, isArgmax: true })!;
  assert.deepEqual(f, { layer: 0, head: 0, position: 8, occurrence: 3, offset: 5, weight: '0.89', times: formatTimes(0.89 * 12), carrier: { layer: 0, head: 1, weight: '0.6', top: true } });
  // A head that attends most to the occurrence, as strongly: the plain reading says it all.
  const direct = new Float32Array(T - 1).fill(0.01);
  direct[3] = 0.89;
  assert.equal(offsetFigures(copySource([direct, l1], 1, 11, ids, 42)), null);
  // ... but a stronger offset reading is still shown beside it.
  const weaker = new Float32Array(T - 1).fill(0.02);
  weaker[3] = 0.5;
  assert.equal(offsetFigures(copySource([weaker, l1], 1, 11, ids, 42))!.position, 8);
});
