// lib/view/raster: poolMatrix against a per-pixel reference (max and largest magnitude, NaN skipped, down- and
// up-sampling, both axes), the spans it pools over, and paintCells.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hexRgb, paintCells, poolMatrix, poolSpan } from '../lib/view/raster';
import { uniform } from '../lib/util/rng';

test('poolSpan: with fewer pixels than cells the spans tile the cells; with more, each pixel reads one cell', () => {
  for (const [n, m] of [[10, 3], [7, 7], [1000, 333], [5, 1]] as const) {
    let next = 0;
    for (let p = 0; p < m; p++) {
      const [a, b] = poolSpan(p, n, m);
      assert.equal(a, next, `n ${n} m ${m} pixel ${p} starts where the last ended`);
      assert.ok(b > a);
      next = b;
    }
    assert.equal(next, n, `n ${n} m ${m}: every cell covered once`);
  }
  // 3 cells on 7 pixels: pixel p shows cell ⌊p·3/7⌋.
  assert.deepEqual(Array.from({ length: 7 }, (_, p) => poolSpan(p, 3, 7)), [[0, 1], [0, 1], [0, 1], [1, 2], [1, 2], [2, 3], [2, 3]]);
});

/** Reference: the block of cells a pixel covers, from the definition (rows ⌊y·R/outR⌋ …), reduced by scanning. */
function reference(v: Float32Array, rows: number, cols: number, R: number, C: number, abs: boolean): number[] {
  const out: number[] = [];
  const span = (p: number, n: number, m: number) => {
    const a = Math.floor((p * n) / m);
    return [a, Math.max(a + 1, Math.floor(((p + 1) * n) / m))] as const;
  };
  for (let y = 0; y < R; y++)
    for (let x = 0; x < C; x++) {
      const [r0, r1] = span(y, rows, R);
      const [c0, c1] = span(x, cols, C);
      const cells: number[] = [];
      for (let r = r0; r < r1; r++) for (let c = c0; c < c1; c++) cells.push(v[r * cols + c]!);
      const finite = cells.filter((q) => !Number.isNaN(q));
      if (finite.length === 0) out.push(NaN);
      else out.push(finite.reduce((best, q) => ((abs ? Math.abs(q) > Math.abs(best) : q > best) ? q : best)));
    }
  return out;
}

test('poolMatrix equals the reference on random matrices with NaN, shrinking and growing either axis', () => {
  const r = uniform(11);
  for (const [rows, cols, R, C] of [[9, 13, 4, 5], [40, 7, 40, 3], [5, 5, 12, 2], [1, 100, 1, 17], [64, 64, 64, 64], [3, 300, 1, 300]] as const) {
    const v = Float32Array.from({ length: rows * cols }, () => (r() < 0.15 ? NaN : r() * 2 - 1));
    for (const reduce of ['max', 'maxAbs'] as const) {
      const got = poolMatrix(v, rows, cols, R, C, reduce);
      assert.equal(got.rows, R);
      assert.equal(got.cols, C);
      const want = reference(v, rows, cols, R, C, reduce === 'maxAbs');
      want.forEach((w, i) => (Number.isNaN(w) ? assert.ok(Number.isNaN(got.data[i]!), `${reduce} pixel ${i} NaN`) : assert.equal(got.data[i], Math.fround(w), `${reduce} ${rows}×${cols}→${R}×${C} pixel ${i}`)));
    }
  }
});

test('poolMatrix: a single bright cell or strong negative difference survives; -Infinity counts; copies at equal size', () => {
  const v = new Float32Array(1000);
  v[617] = 0.9;
  v[123] = -0.95;
  const max = poolMatrix(v, 1, 1000, 1, 10, 'max').data;
  assert.equal(max[6], Math.fround(0.9));
  assert.equal(max[1], 0);
  assert.equal(poolMatrix(v, 1, 1000, 1, 10, 'maxAbs').data[1], Math.fround(-0.95));
  assert.equal(poolMatrix(Float32Array.from([NaN, -Infinity]), 1, 2, 1, 1).data[0], -Infinity);
  const same = poolMatrix(v, 10, 100, 10, 100);
  assert.deepEqual(same.data, v);
  assert.notEqual(same.data, v);
  assert.throws(() => poolMatrix(v, 10, 101, 1, 1), RangeError);
});

test('paintCells writes RGB from the callback and alpha 255; hexRgb', () => {
  const out = paintCells(2, 2, new Uint8ClampedArray(16), (r, c) => [r * 100, c * 100, 7]);
  assert.deepEqual([...out], [0, 0, 7, 255, 0, 100, 7, 255, 100, 0, 7, 255, 100, 100, 7, 255]);
  assert.throws(() => paintCells(2, 2, new Uint8ClampedArray(15), () => [0, 0, 0]), RangeError);
  assert.deepEqual(hexRgb('#2166ac'), [0x21, 0x66, 0xac]);
});
