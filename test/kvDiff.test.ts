// lib/analysis/kvDiff.ts against an independent brute force on small synthetic caches: where two token
// sequences part, in-place edits, the two alignments (position and token), per-position max |ΔK| / |ΔV|,
// the first position differing above tol, and the identical / within-tol / changed classes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  alignPositions,
  commonPrefixLength,
  firstDifferingToken,
  kvClass,
  kvDelta,
  prefixDelta,
  suffixAlignment,
  tokenDelete,
  tokenEdit,
  tokenInsert,
  type Alignment,
  type LayerKv,
} from '../lib/analysis/kvDiff';
import { Rng } from '../lib/util/rng';

test('firstDifferingToken: the index, or null when one sequence is a prefix of the other', () => {
  assert.equal(firstDifferingToken([1, 2, 3], [1, 2, 4]), 2);
  assert.equal(firstDifferingToken([9, 2, 3], [1, 2, 3]), 0);
  assert.equal(firstDifferingToken([1, 2], [1, 2, 3]), null);
  assert.equal(firstDifferingToken([1, 2, 3], [1, 2]), null);
  assert.equal(firstDifferingToken([1, 2], [1, 2]), null);
  assert.equal(firstDifferingToken([], [1]), null);
  assert.equal(commonPrefixLength([1, 2], [1, 2, 3]), 2);
  assert.equal(commonPrefixLength([1, 2, 3], [1, 2]), 2);
  assert.equal(commonPrefixLength([1, 2, 3], [1, 5, 3]), 1);
  assert.equal(commonPrefixLength([4], [4]), 1);
});

test('tokenEdit replaces one token in place; insert and delete shift the rest', () => {
  const ids = [10, 11, 12, 13];
  const e = tokenEdit(ids, 2, 99);
  assert.deepEqual(e, [10, 11, 99, 13]);
  assert.deepEqual(ids, [10, 11, 12, 13], 'the input is not modified');
  assert.equal(e.length, ids.length);
  assert.deepEqual(tokenInsert(ids, 1, [7]), [10, 7, 11, 12, 13]);
  assert.deepEqual(tokenInsert(ids, 4, [7, 8]), [10, 11, 12, 13, 7, 8]);
  assert.deepEqual(tokenDelete(ids, 1), [10, 12, 13]);
  assert.deepEqual(tokenDelete(ids, 2, 2), [10, 11]);
  assert.throws(() => tokenEdit(ids, 4, 1), RangeError);
  assert.throws(() => tokenEdit(ids, -1, 1), RangeError);
  assert.throws(() => tokenEdit(ids, 1.5, 1), RangeError);
  assert.throws(() => tokenEdit(ids, 0, -3), RangeError);
  assert.throws(() => tokenEdit(ids, 0, 2.5), RangeError);
  assert.throws(() => tokenInsert(ids, 5, [1]), RangeError);
  assert.throws(() => tokenDelete(ids, 3, 2), RangeError);
});

/** Brute-force pairing, written from the edit rather than from the alignment rule. */
function expectedPairs(nA: number, nB: number, alignment: Alignment): [number, number][] {
  const out: [number, number][] = [];
  if (alignment === 'position') {
    for (let j = 0; j < Math.min(nA, nB); j++) out.push([j, j]);
    return out;
  }
  const { shiftAfter: p, by } = alignment;
  // A token at j < p stays at j; a token at j ≥ p moves to j + by, unless it was deleted (by < 0, j < p − by).
  for (let j = 0; j < nA; j++) {
    if (j < p) {
      if (j < nB) out.push([j, j]);
    } else if (by >= 0 || j >= p - by) {
      if (j + by < nB) out.push([j, j + by]);
    }
  }
  return out;
}

test('alignPositions pairs the same token with itself across an insertion or a deletion', () => {
  const cases: [number, number, Alignment][] = [
    [6, 6, 'position'],
    [6, 8, 'position'],
    [8, 6, 'position'],
    [6, 7, { shiftAfter: 2, by: 1 }],
    [6, 9, { shiftAfter: 0, by: 3 }],
    [6, 5, { shiftAfter: 2, by: -1 }],
    [6, 4, { shiftAfter: 3, by: -2 }],
    [6, 6, { shiftAfter: 6, by: 1 }],
    [6, 5, { shiftAfter: 5, by: -1 }],
  ];
  for (const [nA, nB, al] of cases) {
    const { a, b } = alignPositions(nA, nB, al);
    assert.deepEqual(
      [...a].map((x, i) => [x, b[i]!]),
      expectedPairs(nA, nB, al),
      JSON.stringify([nA, nB, al]),
    );
  }
  // Insertion of 1 at 2: B's position 2 is the new token and has no partner.
  const ins = alignPositions(5, 6, { shiftAfter: 2, by: 1 });
  assert.ok(![...ins.b].includes(2));
  // Deletion of 1 at 2: A's position 2 is the deleted token and has no partner.
  const del = alignPositions(6, 5, { shiftAfter: 2, by: -1 });
  assert.ok(![...del.a].includes(2));
  assert.throws(() => alignPositions(3, 3, { shiftAfter: -1, by: 1 }), RangeError);
  assert.throws(() => alignPositions(3, 3, { shiftAfter: 1, by: 0.5 }), RangeError);
});

test('suffixAlignment finds the shift that pairs the common suffix', () => {
  assert.deepEqual(suffixAlignment([1, 2, 3, 4], [1, 9, 2, 3, 4]), { shiftAfter: 1, by: 1, suffix: 3 });
  assert.deepEqual(suffixAlignment([1, 9, 2, 3, 4], [1, 2, 3, 4]), { shiftAfter: 2, by: -1, suffix: 3 });
  // A replaced middle that also changes length: only the common suffix is shifted.
  assert.deepEqual(suffixAlignment([1, 5, 6, 4], [1, 7, 4]), { shiftAfter: 3, by: -1, suffix: 1 });
  // The suffix never overlaps the common prefix ([1,1] vs [1,1,1]: prefix 2, so at most 0 left).
  assert.equal(suffixAlignment([1, 1], [1, 1, 1]), null);
  assert.equal(suffixAlignment([1, 2, 3], [1, 2, 4]), null, 'equal lengths: token alignment is position alignment');
  assert.equal(suffixAlignment([1, 2], [1, 2, 3]), null, 'nothing in common at the end');
});

// --- kvDelta against a brute force ---

interface Cache {
  heads: number;
  dim: number;
  /** [layer][kind][head][position][dim] */
  v: number[][][][][];
}

function randomCache(rng: () => number, layers: number, heads: number, n: number, dim: number): Cache {
  return {
    heads,
    dim,
    v: Array.from({ length: layers }, () => Array.from({ length: 2 }, () => Array.from({ length: heads }, () => Array.from({ length: n }, () => Array.from({ length: dim }, () => Math.fround(rng() * 4 - 2)))))),
  };
}

function toLayers(c: Cache): LayerKv[] {
  return c.v.map((kinds) => {
    const [k, v] = kinds.map((hs) => {
      const n = hs[0]!.length;
      const data = new Float32Array(c.heads * n * c.dim);
      hs.forEach((ps, h) => ps.forEach((ds, p) => ds.forEach((x, d) => (data[(h * n + p) * c.dim + d] = x))));
      return { data, dims: [c.heads, n, c.dim] };
    });
    return { k: k!, v: v! };
  });
}

/** A copy of `c` with token positions rearranged: out position j takes `from[j]` (or fresh random values when null). */
function rearranged(c: Cache, from: (number | null)[], rng: () => number): Cache {
  return {
    heads: c.heads,
    dim: c.dim,
    v: c.v.map((kinds) => kinds.map((hs) => hs.map((ps) => from.map((f) => (f === null ? ps[0]!.map(() => Math.fround(rng() * 4 - 2)) : ps[f]!.slice()))))),
  };
}

function bruteDelta(A: Cache, B: Cache, alignment: Alignment, tol: number) {
  const nA = A.v[0]![0]![0]!.length;
  const nB = B.v[0]![0]![0]!.length;
  const pairs = expectedPairs(nA, nB, alignment);
  return A.v.map((_, l) => {
    const rows = pairs.map(([pa, pb]) => {
      const kd: number[] = [];
      const vd: number[] = [];
      let same = true;
      for (let h = 0; h < A.heads; h++)
        for (let d = 0; d < A.dim; d++) {
          const ka = A.v[l]![0]![h]![pa]![d]!;
          const kb = B.v[l]![0]![h]![pb]![d]!;
          const va = A.v[l]![1]![h]![pa]![d]!;
          const vb = B.v[l]![1]![h]![pb]![d]!;
          kd.push(Math.abs(ka - kb));
          vd.push(Math.abs(va - vb));
          if (!Object.is(ka, kb) || !Object.is(va, vb)) same = false;
        }
      const mk = Math.max(...kd);
      const mv = Math.max(...vd);
      return { pa, pb, mk, mv, cls: same ? 'identical' : Math.max(mk, mv) <= tol ? 'within tol' : 'changed' };
    });
    const first = rows.find((r) => r.cls === 'changed');
    return { rows, first };
  });
}

function checkAgainstBrute(A: Cache, B: Cache, alignment: Alignment, tol: number): ReturnType<typeof kvDelta> {
  const got = kvDelta(toLayers(A), toLayers(B), { alignment, tol });
  const want = bruteDelta(A, B, alignment, tol);
  assert.equal(got.layers, want.length);
  want.forEach((w, l) => {
    assert.equal(got.positions, w.rows.length);
    w.rows.forEach((r, i) => {
      assert.equal(got.a[i], r.pa);
      assert.equal(got.b[i], r.pb);
      assert.equal(got.maxK[l * got.positions + i], Math.fround(r.mk), `layer ${l} pair ${i} K`);
      assert.equal(got.maxV[l * got.positions + i], Math.fround(r.mv), `layer ${l} pair ${i} V`);
      assert.equal(kvClass(got, l, i), r.cls, `layer ${l} pair ${i} class`);
    });
    const pl = got.perLayer[l]!;
    assert.equal(pl.identical, w.rows.filter((r) => r.cls === 'identical').length);
    assert.equal(pl.withinTol, w.rows.filter((r) => r.cls === 'within tol').length);
    assert.equal(pl.changed, w.rows.filter((r) => r.cls === 'changed').length);
    assert.equal(pl.maxK, Math.max(0, ...w.rows.map((r) => r.mk)));
    assert.equal(pl.maxV, Math.max(0, ...w.rows.map((r) => r.mv)));
    if (!w.first) assert.equal(pl.first, null);
    else assert.deepEqual(pl.first, { index: w.rows.indexOf(w.first), a: w.first.pa, b: w.first.pb, maxK: w.first.mk, maxV: w.first.mv });
  });
  return got;
}

test('kvDelta matches the brute force: in-place edit, insertion, deletion, both alignments', () => {
  const r = new Rng(7);
  const rng = () => r.next();
  const layers = 3;
  const heads = 2;
  const dim = 4;
  const n = 9;
  for (let trial = 0; trial < 5; trial++) {
    const A = randomCache(rng, layers, heads, n, dim);
    const p = 1 + trial;
    // In-place edit at p: B is A with fresh values at p, plus small noise at one later position and layer.
    const edit = rearranged(A, A.v[0]![0]![0]!.map((_, j) => (j === p ? null : j)), rng);
    const row = edit.v[1]![1]![0]![p + 2]!;
    row[1] = Math.fround(row[1]! + 5e-7);
    const d = checkAgainstBrute(A, edit, 'position', 1e-6);
    assert.equal(d.perLayer[0]!.first?.a, p);
    assert.equal(d.perLayer[1]!.withinTol, 1);
    checkAgainstBrute(A, edit, 'position', 0);
    // Insertion of one token at p: B position j + 1 holds A's token j for j ≥ p.
    const ins = rearranged(A, [...Array(n + 1).keys()].map((j) => (j < p ? j : j === p ? null : j - 1)), rng);
    const pos = checkAgainstBrute(A, ins, 'position', 1e-6);
    const tok = checkAgainstBrute(A, ins, { shiftAfter: p, by: 1 }, 1e-6);
    assert.equal(tok.perLayer.every((x) => x.changed === 0 && x.identical === n), true, 'token-aligned, nothing moved changes');
    assert.ok(pos.perLayer.every((x) => x.first?.a === p));
    // Deletion of two tokens at p.
    const del = rearranged(A, [...Array(n - 2).keys()].map((j) => (j < p ? j : j + 2)), rng);
    checkAgainstBrute(A, del, 'position', 1e-6);
    const tokDel = checkAgainstBrute(A, del, { shiftAfter: p, by: -2 }, 1e-6);
    assert.equal(tokDel.positions, n - 2);
    assert.ok(tokDel.perLayer.every((x) => x.identical === n - 2));
    // A sequence against a longer one (A is a prefix of B) and a shorter one.
    checkAgainstBrute(A, rearranged(A, [...Array(n + 3).keys()].map((j) => (j < n ? j : null)), rng), 'position', 0);
    checkAgainstBrute(rearranged(A, [0, 1, 2], rng), A, { shiftAfter: 1, by: 2 }, 0);
  }
});

test('classes: bit-exact is identical; −0 vs 0 and tiny noise are within tol; NaN is changed', () => {
  const one = (k: number[], v: number[]): LayerKv[] => [{ k: { data: Float32Array.from(k), dims: [1, k.length, 1] }, v: { data: Float32Array.from(v), dims: [1, v.length, 1] } }];
  const a = one([0, 1, 2, 3], [0, 1, 2, 3]);
  const b = one([-0, 1 + 2 ** -20, 2, NaN], [0, 1, 2.5, 3]);
  const d = kvDelta(a, b, { tol: 1e-5 });
  assert.deepEqual([0, 1, 2, 3].map((i) => kvClass(d, 0, i)), ['within tol', 'within tol', 'changed', 'changed']);
  assert.equal(d.maxK[3], Infinity);
  assert.deepEqual(d.perLayer[0]!.first, { index: 2, a: 2, b: 2, maxK: 0, maxV: 0.5 });
  const exact = kvDelta(a, b, { tol: 0 });
  assert.deepEqual([0, 1, 2, 3].map((i) => kvClass(exact, 0, i)), ['within tol', 'changed', 'changed', 'changed']);
  assert.deepEqual(prefixDelta(exact, 1), { positions: 1, maxK: 0, maxV: 0, bitIdentical: false });
  assert.equal(kvClass(kvDelta(a, a), 0, 0), 'identical');
  assert.deepEqual(prefixDelta(kvDelta(a, a), 4), { positions: 4, maxK: 0, maxV: 0, bitIdentical: true });
});

test('kvDelta refuses caches that do not match', () => {
  const t = (h: number, n: number, d: number) => ({ data: new Float32Array(h * n * d), dims: [h, n, d] });
  const layer = (h: number, n: number, d: number): LayerKv => ({ k: t(h, n, d), v: t(h, n, d) });
  assert.throws(() => kvDelta([layer(2, 3, 4)], [layer(2, 3, 4), layer(2, 3, 4)]), /1 layers with 2/);
  assert.throws(() => kvDelta([layer(2, 3, 4)], [layer(1, 3, 4)]), /do not match/);
  assert.throws(() => kvDelta([layer(2, 3, 4)], [layer(2, 3, 5)]), /do not match/);
  assert.throws(() => kvDelta([{ k: t(2, 3, 4), v: t(2, 2, 4) }], [layer(2, 3, 4)]), /do not match/);
  assert.throws(() => kvDelta([{ k: { data: new Float32Array(5), dims: [2, 3, 4] }, v: t(2, 3, 4) }], [layer(2, 3, 4)]), /5 values/);
  assert.throws(() => kvDelta([layer(2, 3, 4)], [layer(2, 3, 4)], { tol: -1 }), RangeError);
  assert.throws(() => kvDelta([], []), /no layers/);
});
