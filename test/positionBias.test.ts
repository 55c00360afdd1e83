// Position bias ("lost in the middle", docs/CONCEPTS.md#position-bias): per-token attention mass by
// third of the context, over queries q ≥ minQuery and the head mean; hand-computed on a constructed
// matrix.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { positionBias, thirdBounds, uniformPositionBias } from '../lib/analysis/positionBias';
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

/** Evenly spread causal attention: row q puts 1/(q+1) on keys 0…q, in every head. */
function uniformCausal(H: number, T: number, rows?: number[]): Float32Array {
  const Q = rows?.length ?? T;
  const a = new Float32Array(H * Q * T);
  for (let h = 0; h < H; h++)
    for (let i = 0; i < Q; i++) {
      const q = rows ? rows[i]! : i;
      for (let k = 0; k <= q; k++) a[(h * Q + i) * T + k] = 1 / (q + 1);
    }
  return a;
}

test('uniform reference: hand-computed on T = 6, minQuery = 3', () => {
  // queries 3, 4, 5 put 1/4, 1/5, 1/6 on each key they see; received(0…3) = 37/180, (4) = 22/180, (5) = 10/180
  const u = uniformPositionBias({ queries: 6, keys: 6 }, 3);
  assert.equal(u.qualifyingQueries, 3);
  assert.equal(u.tokens, 6);
  assert.deepEqual([u.first.from, u.first.to, u.middle.from, u.middle.to, u.last.from, u.last.to], [0, 2, 2, 4, 4, 6]);
  close(u.first.mean, 37 / 180, 1e-12);
  close(u.middle.mean, 37 / 180, 1e-12);
  close(u.last.mean, 16 / 180, 1e-12);
});

test('uniform reference equals positionBias of an evenly spread causal matrix (full prefill and chunk rows)', () => {
  for (const [T, minQuery] of [[30, 16], [25, 5], [10, 0], [7, 6]] as const) {
    const u = uniformPositionBias({ queries: T, keys: T }, minQuery);
    const p = positionBias({ data: uniformCausal(2, T), heads: 2, queries: T, keys: T }, minQuery);
    assert.equal(u.qualifyingQueries, p.qualifyingQueries);
    for (const third of ['first', 'middle', 'last'] as const) close(u[third].mean, p[third].mean!, 1e-7);
    // every row sums to 1, so the key-weighted thirds sum to 1
    close(u.first.mean! * u.first.keys + u.middle.mean! * u.middle.keys + u.last.mean! * u.last.keys, 1, 1e-12);
    // causal masking alone makes the first third the most attended and the last the least
    assert.ok(u.first.mean! >= u.middle.mean! && u.middle.mean! >= u.last.mean!);
  }
  const rows = [20, 21, 22, 23, 24];
  const u = uniformPositionBias({ queries: 5, keys: 25, rows });
  const p = positionBias({ data: uniformCausal(3, 25, rows), heads: 3, queries: 5, keys: 25, rows });
  assert.equal(u.qualifyingQueries, 5);
  for (const third of ['first', 'middle', 'last'] as const) close(u[third].mean, p[third].mean!, 1e-7);
});

test('uniform reference is n/a (null) when no query qualifies', () => {
  const u = uniformPositionBias({ queries: 10, keys: 10 });
  assert.equal(u.qualifyingQueries, 0);
  assert.deepEqual([u.first.mean, u.middle.mean, u.last.mean], [null, null, null]);
  // T < 3: the empty third is null, the others are not
  const v = uniformPositionBias({ queries: 2, keys: 2 }, 1);
  close(v.first.mean, 0.5, 1e-12);
  close(v.middle.mean, 0.5, 1e-12);
  assert.equal(v.last.mean, null);
});
