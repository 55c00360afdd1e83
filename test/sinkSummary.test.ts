// lib/analysis/sinkSummary: the sink panel's numbers for a run, checked against a brute-force restatement of
// the definitions (docs/CONCEPTS.md#sink-score, #position-bias) on random causal attention, in float64
// (tolerance 1e-9 on float32 inputs summed in float64); the memo returns the same object for the same run and
// recomputes when the head layers differ.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sinkSummary, sinkSummaryOf, TOP_RECEIVERS } from '../lib/analysis/sinkSummary';
import type { Tensor } from '../lib/tensor';

/** Random causal softmax rows, [H, T, T]; a seeded LCG so a failure reproduces. */
function randomAttention(H: number, T: number, seed: number): Float32Array {
  let s = seed >>> 0;
  const rnd = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const a = new Float32Array(H * T * T);
  for (let h = 0; h < H; h++)
    for (let q = 0; q < T; q++) {
      let sum = 0;
      for (let k = 0; k <= q; k++) sum += a[(h * T + q) * T + k] = Math.exp(3 * rnd());
      for (let k = 0; k <= q; k++) a[(h * T + q) * T + k]! /= sum;
    }
  return a;
}

const tensor = (data: Float32Array, dims: number[]): Tensor => ({ data, dims });

/** Head mean of a [H, T, T] map as [T, T]. */
function headMean(a: Float32Array, H: number, T: number): Float32Array {
  const m = new Float32Array(T * T);
  for (let h = 0; h < H; h++) for (let i = 0; i < T * T; i++) m[i]! += a[h * T * T + i]! / H;
  return m;
}

test('sinkSummary equals the definitions restated by brute force (4 layers × 3 heads, T = 40)', () => {
  const H = 3, T = 40, minQuery = 16;
  const maps = [1, 2, 3, 4].map((s) => randomAttention(H, T, s));
  const sum = sinkSummary(maps.map((m) => tensor(m, [H, T, T])));
  assert.equal(sum.T, T);
  assert.equal(sum.lowered, false);
  assert.equal(sum.minQuery, minQuery);
  assert.deepEqual(sum.withHeads, [0, 1, 2, 3]);
  assert.deepEqual(sum.meanOnly, [false, false, false, false]);
  assert.equal(sum.heads, H);
  const meanReceived = new Float64Array(T);
  maps.forEach((m, l) => {
    // Sink score of key 0: mean over queries q ≥ 16 of A[h, q, 0], per head, then over heads.
    let all = 0;
    for (let h = 0; h < H; h++) {
      let s = 0;
      for (let q = minQuery; q < T; q++) s += m[(h * T + q) * T]!;
      assert.ok(Math.abs(sum.sinks[l]!.perHead[h]! - s / (T - minQuery)) < 1e-9, `layer ${l} head ${h}`);
      all += s / (T - minQuery) / H;
    }
    assert.ok(Math.abs(sum.sinks[l]!.headMean! - all) < 1e-9);
    // Position bias: mean per-key mass received over the same queries, averaged within each third.
    const rec = new Float64Array(T);
    for (let h = 0; h < H; h++) for (let q = minQuery; q < T; q++) for (let k = 0; k <= q; k++) rec[k]! += m[(h * T + q) * T + k]! / (H * (T - minQuery));
    const b = sum.bias[l]!;
    for (const third of [b.first, b.middle, b.last]) {
      let s = 0;
      for (let k = third.from; k < third.to; k++) s += rec[k]!;
      assert.ok(Math.abs(third.mean! - s / (third.to - third.from)) < 1e-9, `layer ${l} third ${third.from}`);
    }
    for (let k = 0; k < T; k++) meanReceived[k]! += rec[k]! / maps.length;
  });
  const order = [...meanReceived.keys()].sort((x, y) => meanReceived[y]! - meanReceived[x]!).slice(0, TOP_RECEIVERS);
  assert.deepEqual(sum.top.map((r) => r.key), order);
  sum.top.forEach((r) => assert.ok(Math.abs(r.weight - meanReceived[r.key]!) < 1e-9));
});

test('sinkSummary: a mean-only layer has no per-head scores; a short prompt lowers minQuery', () => {
  const H = 2, T = 24;
  const a = randomAttention(H, T, 7), b = randomAttention(H, T, 8);
  const sum = sinkSummary([tensor(a, [H, T, T]), tensor(headMean(b, H, T), [T, T])]);
  assert.deepEqual(sum.meanOnly, [false, true]);
  assert.deepEqual(sum.withHeads, [0]);
  assert.equal(sum.heads, H);
  const short = sinkSummary([tensor(randomAttention(1, 10, 3), [1, 10, 10])]);
  assert.equal(short.lowered, true);
  assert.equal(short.minQuery, 9);
});

test('sinkSummaryOf: one computation per run and head-layer list', () => {
  const H = 2, T = 20;
  const run = [tensor(randomAttention(H, T, 1), [H, T, T]), tensor(randomAttention(H, T, 2), [H, T, T])];
  const first = sinkSummaryOf(run);
  assert.equal(sinkSummaryOf(run), first);
  const other = sinkSummaryOf(run, [1]);
  assert.notEqual(other, first);
  assert.deepEqual(other.meanOnly, [true, false]);
  // A different array of the same tensors is a different run as far as the memo knows.
  assert.notEqual(sinkSummaryOf([...run]), sinkSummaryOf(run));
});
