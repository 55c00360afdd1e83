// The sink score (docs/CONCEPTS.md#sink-score) and "where attention rests", checked on hand-built
// attention matrices and against a brute-force restatement of the definition; chunked accumulation
// equals one piece.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { attentionReceived, layerAttention, ReceivedAccumulator, SinkAccumulator, sinkScore, topReceivers } from '../lib/analysis/sink';

/** Causal rows with a chosen share on key 0 and the rest spread evenly: A[q,0] = s (q>0), A[0,0] = 1. */
function sinkMatrix(T: number, shares: number[]): Float32Array {
  const H = shares.length;
  const a = new Float32Array(H * T * T);
  for (let h = 0; h < H; h++)
    for (let q = 0; q < T; q++) {
      if (q === 0) {
        a[(h * T) * T] = 1;
        continue;
      }
      a[(h * T + q) * T] = shares[h]!;
      for (let k = 1; k <= q; k++) a[(h * T + q) * T + k] = (1 - shares[h]!) / q;
    }
  return a;
}

test('sink score: mean over queries q ≥ max(k+1, minQuery), per head, with the uniform baseline (hand-computed)', () => {
  const T = 20;
  const s = sinkScore({ data: sinkMatrix(T, [0.5, 0.1]), heads: 2, queries: T, keys: T }, 0, 16);
  assert.equal(s.qualifyingQueries, 4); // q = 16…19
  assert.ok(Math.abs(s.perHead[0]! - 0.5) < 1e-7);
  assert.ok(Math.abs(s.perHead[1]! - 0.1) < 1e-7);
  assert.ok(Math.abs(s.headMean! - 0.3) < 1e-7);
  assert.equal(s.maxHeadIndex, 0);
  assert.equal(s.sinkHeads, 1);
  assert.ok(Math.abs(s.uniformBaseline! - (1 / 17 + 1 / 18 + 1 / 19 + 1 / 20) / 4) < 1e-12);
  // Row 0 (always 1.0 on key 0) never counts, even with minQuery 0: the book's inflation pitfall.
  const all = sinkScore({ data: sinkMatrix(T, [0.5, 0.1]), heads: 2, queries: T, keys: T }, 0, 0);
  assert.equal(all.qualifyingQueries, 19);
  assert.ok(Math.abs(all.perHead[0]! - 0.5) < 1e-7);
});

test('sink score is n/a (null, not 0) when no query qualifies, and for keys other than 0 starts after the key', () => {
  const s = sinkScore({ data: sinkMatrix(10, [0.5]), heads: 1, queries: 10, keys: 10 });
  assert.equal(s.headMean, null);
  assert.equal(s.uniformBaseline, null);
  const k3 = sinkScore({ data: sinkMatrix(10, [0.2]), heads: 1, queries: 10, keys: 10 }, 3, 0);
  // queries 4…9 put (1-0.2)/q on key 3.
  const want = [4, 5, 6, 7, 8, 9].reduce((a, q) => a + 0.8 / q, 0) / 6;
  assert.ok(Math.abs(k3.perHead[0]! - want) < 1e-7);
});

test('chunked pieces (absolute row positions) accumulate to exactly the one-piece result', () => {
  const T = 40;
  const H = 3;
  const full = sinkMatrix(T, [0.7, 0.05, 0.3]);
  const whole = sinkScore({ data: full, heads: H, queries: T, keys: T });
  const acc = new SinkAccumulator();
  const rec = new ReceivedAccumulator();
  for (const [from, to] of [[0, 13], [13, 30], [30, 40]] as const) {
    // A chunk holds rows from…to-1 over keys 0…to-1 (what the engine returns for an extension).
    const rows = to - from;
    const piece = new Float32Array(H * rows * to);
    for (let h = 0; h < H; h++) for (let r = 0; r < rows; r++) for (let k = 0; k < to; k++) piece[(h * rows + r) * to + k] = full[(h * T + from + r) * T + k]!;
    const la = layerAttention({ data: piece, dims: [H, rows, to] }, Array.from({ length: rows }, (_, i) => from + i));
    acc.add(la);
    rec.add(la);
  }
  assert.deepEqual(acc.result(), whole);
  const wholeRec = attentionReceived({ data: full, heads: H, queries: T, keys: T })!;
  const got = rec.result()!;
  for (let k = 0; k < T; k++) assert.ok(Math.abs(got[k]! - wholeRec[k]!) < 1e-12);
});

test('attention received: brute-force mean over heads and rows q ≥ minQuery; top receivers ordered', () => {
  const T = 24;
  const data = sinkMatrix(T, [0.6, 0.2]);
  const got = attentionReceived({ data, heads: 2, queries: T, keys: T }, 16)!;
  for (let k = 0; k < T; k++) {
    let s = 0;
    for (let h = 0; h < 2; h++) for (let q = 16; q < T; q++) s += data[(h * T + q) * T + k]!;
    assert.ok(Math.abs(got[k]! - s / (2 * 8)) < 1e-9);
  }
  const top = topReceivers(got, 3);
  assert.equal(top[0]!.key, 0);
  assert.ok(top[0]!.weight >= top[1]!.weight && top[1]!.weight >= top[2]!.weight);
  // Head-reduced tensors ([Q, K]) are read as one head.
  assert.equal(layerAttention({ data: new Float32Array(6), dims: [2, 3] }).heads, 1);
  assert.throws(() => layerAttention({ data: new Float32Array(6), dims: [6] }), /must be \[heads, queries, keys\]/);
});
