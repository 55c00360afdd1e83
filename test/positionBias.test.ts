// Position bias ("lost in the middle", brief §4): per-token attention mass by third of the context,
// over queries q ≥ minQuery and the head mean; hand-computed on a constructed matrix.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { positionBias, thirdBounds } from '../lib/analysis/positionBias';
import { attentionReceived } from '../lib/analysis/sink';

const close = (a: number | null, b: number, tol = 1e-7) => assert.ok(a !== null && Math.abs(a - b) <= tol, `${a} vs ${b} (±${tol})`);

/**
 * T = 30 (thirds 0–9, 10–19, 20–29), 2 heads. Rows q < 16 put everything on key 15 (must be ignored).
 * Rows q ≥ 16 — head 0: 0.6 on key 0, 0.1 on keys 10 and 11, 0.2 on itself; head 1: 1.0 on key 0.
 */
function constructed(): Float32Array {
  const T = 30;
  const a = new Float32Array(2 * T * T);
  for (let h = 0; h < 2; h++)
    for (let q = 0; q < T; q++) {
      const row = (h * T + q) * T;
      if (q < 16) a[row + Math.min(q, 15)] = 1;
      else if (h === 0) {
        a[row] = 0.6;
        a[row + 10] = 0.1;
        a[row + 11] = 0.1;
        a[row + q] = 0.2;
      } else a[row] = 1;
    }
  return a;
}

test('thirds of the full context: [0, T/3), [T/3, 2T/3), [2T/3, T)', () => {
  assert.deepEqual(thirdBounds(30), [[0, 10], [10, 20], [20, 30]]);
  assert.deepEqual(thirdBounds(10), [[0, 4], [4, 7], [7, 10]]); // 3k < 10 → k ≤ 3; 3k < 20 → k ≤ 6
  assert.deepEqual(thirdBounds(2), [[0, 1], [1, 2], [2, 2]]);
});

test('position bias on a constructed matrix (hand-computed, ±1e-7)', () => {
  const p = positionBias({ data: constructed(), heads: 2, queries: 30, keys: 30 });
  assert.equal(p.minQuery, 16);
  assert.equal(p.tokens, 30);
  assert.equal(p.qualifyingQueries, 14); // q = 16…29
  // received(0) = (0.6 + 1)/2 = 0.8 → first = 0.8/10
  close(p.first.mean, 0.08);
  // received(10) = received(11) = 0.05; keys 16–19 each get 0.2/14/2 from their own row → (0.1 + 4·0.1/14)/10
  close(p.middle.mean, (0.1 + 0.4 / 14) / 10);
  // keys 20–29: 10 · 0.1/14 / 10 = 1/140
  close(p.last.mean, 1 / 140);
  assert.deepEqual([p.first.keys, p.middle.keys, p.last.keys], [10, 10, 10]);
  assert.ok(p.first.mean! > p.last.mean! && p.last.mean! > 0 && p.middle.mean! > p.last.mean!);
});

test('position bias equals the per-third mean of attentionReceived (one definition)', () => {
  const H = 3, T = 25;
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const data = new Float32Array(H * T * T).map(rnd);
  const a = { data, heads: H, queries: T, keys: T };
  const recv = attentionReceived(a, 5)!;
  const p = positionBias(a, 5);
  for (const third of [p.first, p.middle, p.last]) {
    let s = 0;
    for (let k = third.from; k < third.to; k++) s += recv[k]!;
    close(third.mean, s / third.keys, 1e-9);
  }
});

test('n/a (null) when no query qualifies; rows give absolute positions', () => {
  const T = 10;
  const data = new Float32Array(T * T).fill(0.1);
  const p = positionBias({ data, heads: 1, queries: T, keys: T });
  assert.equal(p.qualifyingQueries, 0);
  assert.equal(p.first.mean, null);
  assert.equal(p.middle.mean, null);
  assert.equal(p.last.mean, null);
  // the same rows at positions 20…29 (e.g. the last chunk of a prefill) all qualify
  const q = positionBias({ data, heads: 1, queries: T, keys: T, rows: [...Array(T).keys()].map((i) => i + 20) });
  assert.equal(q.qualifyingQueries, 10);
  close(q.first.mean, 0.1);
  close(q.last.mean, 0.1);
  // a lower minQuery makes short prompts measurable
  assert.equal(positionBias({ data, heads: 1, queries: T, keys: T }, 4).qualifyingQueries, 6);
});
