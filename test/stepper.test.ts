// lib/generate/stepper.ts and lib/analysis/kvBytes.ts: the stepper's moves (one extend forward, one fork
// back), message boundaries, next-token figures of a logits row, one query row of attention, cache bytes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { attentionRow, messageStarts, nextBoundary, nextTokenStats, planMove, prevBoundary, reduceRow } from '../lib/generate/stepper';
import { formatBytes, kvBytesPerTokenLayer, kvCacheBytes, QWEN3_0_6B_KV } from '../lib/analysis/kvBytes';
import { softmax } from '../lib/generate/sampling';
import type { Span } from '../lib/prompt/prompt';

const seq = [10, 11, 12, 13, 14, 15, 16, 17];

test('planMove: forward is one extend of the slice, back is one fork, equal is nothing', () => {
  assert.deepEqual(planMove(seq, 3, 4), { kind: 'extend', start: 3, ids: [13] });
  assert.deepEqual(planMove(seq, 1, 8), { kind: 'extend', start: 1, ids: [11, 12, 13, 14, 15, 16, 17] });
  assert.deepEqual(planMove(seq, 7, 2), { kind: 'fork', length: 2 });
  assert.deepEqual(planMove(seq, 5, 5), { kind: 'none' });
  assert.throws(() => planMove(seq, 3, 9), /outside/);
  assert.throws(() => planMove(seq, -1, 2), /outside/);
  assert.throws(() => planMove(seq, 1.5, 2), /outside/);
});

const span = (start: number, end: number, message: number): Span => ({ start, end, message, role: 'user', segment: 'user' });

test('messageStarts: where the message changes, not every span', () => {
  const spans = [span(0, 3, -1), span(3, 5, -1), span(5, 9, 0), span(9, 12, 1), span(12, 13, 1), span(13, 15, 2)];
  assert.deepEqual(messageStarts(spans), [0, 5, 9, 13]);
  assert.deepEqual(messageStarts([]), []);
});

test('prevBoundary / nextBoundary move the cursor to message starts, clamped to min and the end', () => {
  const starts = [0, 5, 9, 13];
  assert.equal(nextBoundary(starts, 1, 15), 5);
  assert.equal(nextBoundary(starts, 5, 15), 9);
  assert.equal(nextBoundary(starts, 13, 15), 15);
  assert.equal(nextBoundary(starts, 15, 15), 15);
  assert.equal(prevBoundary(starts, 15), 13);
  assert.equal(prevBoundary(starts, 13), 9);
  assert.equal(prevBoundary(starts, 6), 5);
  assert.equal(prevBoundary(starts, 5), 1, 'start 0 is below the minimum cursor 1');
  assert.equal(prevBoundary(starts, 1), 1);
});

test('nextTokenStats: plain softmax top k, and the actual token with its probability and rank', () => {
  const logits = Float32Array.from([0, 3, 1, 3, -2, 2]);
  const p = softmax(logits);
  const s = nextTokenStats(logits, 2, 3);
  assert.deepEqual(s.top.map((x) => x.id), [1, 3, 5]);
  assert.ok(Math.abs(s.top[0]!.p - p[1]!) < 1e-15);
  assert.deepEqual(s.actual, { id: 2, p: p[2]!, rank: 4 });
  assert.equal(nextTokenStats(logits, 3).actual!.rank, 1, 'a tie with the best shares rank 1');
  assert.equal(nextTokenStats(logits, 4).actual!.rank, 6);
  assert.equal(nextTokenStats(logits, null).actual, null);
  assert.throws(() => nextTokenStats(logits, 6), /outside the vocabulary/);
});

test('attentionRow takes one query row of every head, causal part only; reduceRow reduces it over heads', () => {
  // [heads 2, rows 3, keys 4]: value = 100h + 10r + k.
  const H = 2, R = 3, K = 4;
  const data = new Float32Array(H * R * K);
  for (let h = 0; h < H; h++) for (let r = 0; r < R; r++) for (let k = 0; k < K; k++) data[(h * R + r) * K + k] = 100 * h + 10 * r + k;
  const row = attentionRow({ data, dims: [H, R, K] }, 1, 3);
  assert.deepEqual([...row], [10, 11, 12, 110, 111, 112]);
  assert.deepEqual([...reduceRow(row, 2, 'mean')], [60, 61, 62]);
  assert.deepEqual([...reduceRow(row, 2, 'max')], [110, 111, 112]);
  assert.deepEqual([...reduceRow(row, 2, 0)], [10, 11, 12]);
  assert.throws(() => attentionRow({ data, dims: [H, R, K] }, 3, 2), /row 3/);
  assert.throws(() => attentionRow({ data, dims: [H, R, K] }, 0, 5), /5 keys/);
  assert.throws(() => reduceRow(row, 4, 'mean'), /do not split/);
});

test('kv cache bytes: 2 × kvHeads × headDim × 4 bytes per token per layer in float32', () => {
  const tiny = { layers: 4, kvHeads: 2, headDim: 32, bytesPerValue: 4 };
  assert.equal(kvBytesPerTokenLayer(tiny), 512);
  assert.deepEqual(kvCacheBytes(tiny, 478), { tokens: 478, kPerLayer: 478 * 256, vPerLayer: 478 * 256, perLayer: 478 * 512, total: 478 * 2048 });
  assert.deepEqual(kvCacheBytes(tiny, 0).total, 0);
  assert.equal(kvBytesPerTokenLayer(QWEN3_0_6B_KV) * QWEN3_0_6B_KV.layers, 114_688);
  assert.throws(() => kvCacheBytes(tiny, -1), /tokens/);
  assert.throws(() => kvBytesPerTokenLayer({ ...tiny, kvHeads: 0 }), /kvHeads/);
});

test('formatBytes uses binary units with three significant digits', () => {
  assert.equal(formatBytes(0), '0 B');
  assert.equal(formatBytes(512), '512 B');
  assert.equal(formatBytes(2048), '2 KiB');
  assert.equal(formatBytes(478 * 2048), '956 KiB');
  assert.equal(formatBytes(1.5 * 1024 * 1024), '1.5 MiB');
  assert.equal(formatBytes(123_456_789), '118 MiB');
  assert.throws(() => formatBytes(-1));
});
