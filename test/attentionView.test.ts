// Heatmap reductions of one layer's attention: head mean / max / single head, and "hide sink column,
// renormalise" (rows of the remaining keys sum to 1; sink-only rows stay 0), on hand-built matrices.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { causalMask, hideSinkColumn, reduceHeads } from '../lib/analysis/attentionView';

const closeAll = (a: ArrayLike<number>, b: number[], tol = 1e-6) => {
  assert.equal(a.length, b.length);
  for (let i = 0; i < b.length; i++) assert.ok(Math.abs(a[i]! - b[i]!) <= tol, `[${i}] ${a[i]} vs ${b[i]} (±${tol})`);
};

// [heads 2, Q 2, K 2], causal rows
const t = { data: new Float32Array([1, 0, 0.5, 0.5, /* head 1 */ 1, 0, 0.1, 0.9]), dims: [2, 2, 2] };

test('reduceHeads: mean, elementwise max, one head; [Q, K] out', () => {
  const mean = reduceHeads(t, 'mean');
  assert.deepEqual(mean.dims, [2, 2]);
  closeAll(mean.data, [1, 0, 0.3, 0.7]);
  closeAll(reduceHeads(t, 'max').data, [1, 0, 0.5, 0.9]);
  closeAll(reduceHeads(t, 1).data, [1, 0, 0.1, 0.9], 1e-7); // an exact copy of head 1 (float32)
  // fresh arrays: the input is untouched
  const h0 = reduceHeads(t, 0);
  h0.data[0] = 42;
  assert.equal(t.data[0], 1);
  // a [Q, K] tensor is one head
  closeAll(reduceHeads({ data: new Float32Array([1, 0, 0.2, 0.8]), dims: [2, 2] }, 'mean').data, [1, 0, 0.2, 0.8]);
  assert.throws(() => reduceHeads(t, 2));
  assert.throws(() => reduceHeads(t, 0.5));
  assert.throws(() => reduceHeads({ data: new Float32Array(3), dims: [2, 2] }, 'mean'));
});

test('hideSinkColumn: sink column 0, other keys renormalised to sum 1, sink-only rows stay 0', () => {
  const m = new Float32Array([
    1, 0, 0, //        row 0 sees only the sink → stays 0
    0.8, 0.2, 0, //    → 0, 1, 0
    0.5, 0.1, 0.4, //  → 0, 0.2, 0.8
  ]);
  const h = hideSinkColumn(m, 3, 3);
  closeAll(h, [0, 0, 0, 0, 1, 0, 0, 0.2, 0.8]);
  for (const q of [1, 2]) {
    let s = 0;
    for (let k = 0; k < 3; k++) s += h[q * 3 + k]!;
    assert.ok(Math.abs(s - 1) < 1e-6, `row ${q} sums to ${s}`);
  }
  assert.equal(m[0], 1, 'input untouched');
  // another key as the sink
  closeAll(hideSinkColumn(m, 3, 3, 2), [1, 0, 0, 0.8, 0.2, 0, 0.5 / 0.6, 0.1 / 0.6, 0]);
  assert.throws(() => hideSinkColumn(m, 3, 3, 3));
  assert.throws(() => hideSinkColumn(m, 2, 3));
});

test('hideSinkColumn after a max over heads still gives rows of the remaining keys summing to 1', () => {
  const h = hideSinkColumn(reduceHeads(t, 'max').data, 2, 2);
  closeAll(h, [0, 0, 0, 1]);
});

test('causalMask: future keys masked, optionally at absolute row positions', () => {
  const m = causalMask();
  assert.equal(m(0, 0), false);
  assert.equal(m(0, 1), true);
  assert.equal(m(3, 2), false);
  const shifted = causalMask([5, 6]); // rows are positions 5 and 6
  assert.equal(shifted(0, 5), false);
  assert.equal(shifted(0, 6), true);
  assert.equal(shifted(1, 6), false);
});

test('colourDomainMax skips the early rows when there are later ones', async () => {
  const { colourDomainMax } = await import('../lib/analysis/attentionView');
  // 3×3 causal: row 0 = [1,0,0], row 1 = [.6,.4,0], row 2 = [.2,.3,.5]
  const m = Float32Array.from([1, 0, 0, 0.6, 0.4, 0, 0.2, 0.3, 0.5]);
  assert.ok(Math.abs(colourDomainMax(m, 3, 3, 2) - 0.5) < 1e-7);
  assert.ok(Math.abs(colourDomainMax(m, 3, 3, 1) - 0.6) < 1e-7);
  assert.equal(colourDomainMax(m, 3, 3, 5), 1); // fewer rows than fromRow: all rows
});

test('colourRanges: the tops with and without the sink column, value for value what hideSinkColumn gives', async () => {
  const { colourDomainMax, colourRanges } = await import('../lib/analysis/attentionView');
  // Row 2 = [.2, .3, .5]: hidden = .5 / .8 = .625; row 1 = [.6, .4, 0]: hidden = 1 (skipped below fromRow 2).
  const m = Float32Array.from([1, 0, 0, 0.6, 0.4, 0, 0.2, 0.3, 0.5]);
  const r = colourRanges(m, 3, 3, 2);
  assert.ok(Math.abs(r.full - 0.5) < 1e-7);
  assert.equal(r.hidden, Math.fround(Math.fround(0.5) / (Math.fround(0.3) + Math.fround(0.5))));
  assert.ok(Math.abs(r.ratio - 0.5 / 0.625) < 1e-6);
  // A sink-like matrix on random rows: exactly colourDomainMax of the renormalised matrix, at several fromRow.
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const T = 40;
  const s = new Float32Array(T * T);
  for (let q = 0; q < T; q++) {
    let sum = 0;
    const row = Array.from({ length: q + 1 }, (_, k) => (k === 0 ? 20 : rand()));
    for (const v of row) sum += v;
    row.forEach((v, k) => (s[q * T + k] = v / sum));
  }
  for (const from of [0, 1, 4, 39, 60]) {
    const got = colourRanges(s, T, T, from);
    assert.equal(got.full, colourDomainMax(s, T, T, from));
    assert.equal(got.hidden, colourDomainMax(hideSinkColumn(s, T, T, 0), T, T, from), `fromRow ${from}`);
    // Rows 1 and 2 see one or two keys besides the sink, so renormalised they reach 1: only later rows narrow.
    if (from >= 4 && from < T) assert.ok(got.ratio > 1, `hiding a dominant key 0 narrows the range from row ${from}`);
  }
  // Another key hidden.
  assert.equal(colourRanges(s, T, T, 4, 3).hidden, colourDomainMax(hideSinkColumn(s, T, T, 3), T, T, 4));
  // Nothing outside the sink: hidden 0, ratio Infinity.
  const only = Float32Array.from([1, 0, 1, 0]);
  assert.deepEqual(colourRanges(only, 2, 2, 0), { full: 1, hidden: 0, ratio: Infinity });
  assert.throws(() => colourRanges(m, 2, 3, 0));
});
