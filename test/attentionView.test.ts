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
