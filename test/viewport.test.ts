// The heatmap viewport: rasterize against a brute-force reference on random matrices (zoomed out with max
// pooling, zoomed in with nearest cells, fractional offsets), zoom anchor invariance, clamping, cellAt.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  cellAt,
  clampViewport,
  fitAll,
  isPooled,
  MIN_SPAN,
  pan,
  pointAt,
  rasterize,
  visibleCells,
  zoomAt,
  zoomCentre,
  zoomFactor,
  type Viewport,
} from '../lib/view/viewport';
import { uniform } from '../lib/util/rng';

const rng = uniform;

function randomMatrix(T: number, r: () => number): Float32Array {
  const m = new Float32Array(T * T);
  for (let i = 0; i < m.length; i++) m[i] = r();
  return m;
}

/**
 * Reference written from the definition, per pixel, without rasterize's bounds tables: nearest cell =
 * the cell under the pixel's centre; pooled = max over every cell of the matrix whose centre maps to
 * this pixel and is unmasked.
 */
function bruteForce(m: Float32Array, T: number, vp: Viewport, outPx: number, causal = true): Float64Array {
  const out = new Float64Array(outPx * outPx).fill(NaN);
  if (vp.span <= outPx) {
    for (let y = 0; y < outPx; y++)
      for (let x = 0; x < outPx; x++) {
        const c = cellAt(vp, outPx, x + 0.5, y + 0.5)!;
        const q = Math.min(Math.max(c.q, 0), T - 1);
        const k = Math.min(Math.max(c.k, 0), T - 1);
        out[y * outPx + x] = causal && k > q ? NaN : m[q * T + k]!;
      }
    return out;
  }
  const pix = (c: number, a0: number): number => {
    if (!(c + 0.5 >= a0 && c + 0.5 < a0 + vp.span)) return -1;
    return Math.min(Math.floor((c + 0.5 - a0) * (outPx / vp.span)), outPx - 1);
  };
  for (let q = 0; q < T; q++) {
    const y = pix(q, vp.q0);
    if (y < 0) continue;
    for (let k = 0; k < T; k++) {
      const x = pix(k, vp.k0);
      if (x < 0 || (causal && k > q)) continue;
      const i = y * outPx + x;
      const v = m[q * T + k]!;
      if (Number.isNaN(out[i]!) || v > out[i]!) out[i] = v;
    }
  }
  return out;
}

function assertSameImage(a: Float32Array, b: Float64Array, what: string): void {
  assert.equal(a.length >= b.length, true);
  for (let i = 0; i < b.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (Number.isNaN(y)) assert.ok(Number.isNaN(x), `${what}: pixel ${i} should be masked (NaN), got ${x}`);
    else assert.equal(x, Math.fround(y), `${what}: pixel ${i}`);
  }
}

test('rasterize equals a brute-force reference: several T, zooms, fractional offsets, outPx above and below span', () => {
  const r = rng(42);
  let pooledCases = 0;
  let nearestCases = 0;
  for (const T of [1, 7, 16, 33, 100, 257]) {
    const m = randomMatrix(T, r);
    for (const outPx of [5, 16, 37, 64, 128]) {
      const views: Viewport[] = [fitAll(T)];
      for (let i = 0; i < 6; i++) {
        const span = Math.max(Math.min(T, MIN_SPAN), r() * T);
        const integer = i % 2 === 0;
        const q0 = r() * (T - span);
        const k0 = r() * (T - span);
        views.push(integer ? { q0: Math.floor(q0), k0: Math.floor(k0), span: Math.max(1, Math.floor(span)) } : { q0, k0, span });
      }
      for (const vp0 of views) {
        const vp = clampViewport(vp0, T);
        if (isPooled(vp, outPx)) pooledCases++;
        else nearestCases++;
        const what = `T=${T} outPx=${outPx} vp=${JSON.stringify(vp)}`;
        assertSameImage(rasterize(m, T, vp, outPx), bruteForce(m, T, vp, outPx), what);
        assertSameImage(rasterize(m, T, vp, outPx, undefined, false), bruteForce(m, T, vp, outPx, false), `${what} non-causal`);
      }
    }
  }
  assert.ok(pooledCases > 20 && nearestCases > 20, `both regimes exercised: pooled ${pooledCases}, nearest ${nearestCases}`);
});

test('rasterize: a single bright column at key 0 survives max pooling at every zoom-out', () => {
  const T = 1000;
  const m = new Float32Array(T * T);
  for (let q = 0; q < T; q++) {
    m[q * T] = 0.9;
    for (let k = 1; k <= q; k++) m[q * T + k] = 0.001;
  }
  for (const outPx of [10, 64, 333]) {
    const img = rasterize(m, T, fitAll(T), outPx);
    for (let y = 0; y < outPx; y++) assert.equal(img[y * outPx], Math.fround(0.9), `outPx ${outPx} row ${y}`);
    // Above the diagonal is masked, below it the small weight.
    assert.ok(Number.isNaN(img[outPx - 1]!), 'top-right pixel masked');
    assert.equal(img[(outPx - 1) * outPx + 1], Math.fround(0.001));
  }
});

test('rasterize: the diagonal pixel pools only unmasked cells; all-masked pixels are NaN; NaN values are skipped', () => {
  const T = 8;
  const m = new Float32Array(T * T).fill(0.5);
  m[1 * T + 0] = NaN; // a NaN value inside a pixel with other cells
  const img = rasterize(m, T, fitAll(T), 2); // 4×4 cells per pixel
  assert.equal(img[0], 0.5); // rows 0..3 × cols 0..3: lower triangle
  assert.ok(Number.isNaN(img[1]!)); // rows 0..3 × cols 4..7: all k > q
  assert.equal(img[2], 0.5);
  assert.equal(img[3], 0.5);
  const allNaN = rasterize(new Float32Array(T * T).fill(NaN), T, fitAll(T), 2);
  assert.ok(Array.from(allNaN).every(Number.isNaN));
});

test('rasterize reuses a passed buffer and rejects a short matrix', () => {
  const T = 20;
  const m = randomMatrix(T, rng(1));
  const buf = new Float32Array(100);
  assert.equal(rasterize(m, T, fitAll(T), 10, buf), buf);
  assert.notEqual(rasterize(m, T, fitAll(T), 11, buf), buf); // too small: a new one
  assert.throws(() => rasterize(new Float32Array(10), T, fitAll(T), 10), /20×20/);
});

test('zoomAt keeps the anchor point fixed on screen when no clamping is needed', () => {
  const T = 512;
  const r = rng(7);
  let vp = fitAll(T);
  let checked = 0;
  for (let i = 0; i < 200; i++) {
    const outPx = 640;
    const x = r() * outPx;
    const y = r() * outPx;
    const anchor = pointAt(vp, outPx, x, y);
    const factor = r() < 0.6 ? 1 + r() : 1 / (1 + r());
    const next = zoomAt(vp, T, factor, anchor);
    const span = vp.span / factor;
    const unclamped = span >= MIN_SPAN && span <= T && next.span === span && next.q0 > 0 && next.k0 > 0 && next.q0 + next.span < T && next.k0 + next.span < T;
    if (unclamped) {
      checked++;
      const again = pointAt(next, outPx, x, y);
      assert.ok(Math.abs(again.q - anchor.q) < 1e-9 && Math.abs(again.k - anchor.k) < 1e-9, `anchor moved: ${JSON.stringify({ anchor, again })}`);
      const cell = { q: Math.floor(anchor.q), k: Math.floor(anchor.k) };
      assert.deepEqual(cellAt(vp, outPx, x, y), cell);
      assert.deepEqual(cellAt(next, outPx, x, y), cell);
    }
    vp = next;
  }
  assert.ok(checked > 50, `unclamped zooms checked: ${checked}`);
  // A concrete case: zoom ×2 at the point (100.5, 300.5) of the full view.
  const z = zoomAt(fitAll(T), T, 2, { q: 100.5, k: 300.5 });
  assert.deepEqual(z, { q0: 50.25, k0: 150.25, span: 256 });
  assert.deepEqual(zoomCentre(fitAll(T), T, 4), { q0: 192, k0: 192, span: 128 });
});

test('clamping: never outside the matrix, span between MIN_SPAN and T', () => {
  const T = 100;
  assert.deepEqual(clampViewport({ q0: -5, k0: 200, span: 50 }, T), { q0: 0, k0: 50, span: 50 });
  assert.deepEqual(clampViewport({ q0: 10, k0: 10, span: 1000 }, T), { q0: 0, k0: 0, span: 100 });
  assert.deepEqual(clampViewport({ q0: 10, k0: 10, span: 2 }, T), { q0: 10, k0: 10, span: MIN_SPAN });
  assert.deepEqual(clampViewport({ q0: NaN, k0: 3, span: NaN }, T), { q0: 0, k0: 0, span: 100 });
  // A matrix smaller than MIN_SPAN: the span is the matrix.
  assert.deepEqual(clampViewport({ q0: 1, k0: 1, span: 2 }, 5), { q0: 0, k0: 0, span: 5 });
  // Zooming in forever stops at MIN_SPAN; zooming out forever stops at the whole matrix.
  let vp = fitAll(T);
  for (let i = 0; i < 50; i++) vp = zoomAt(vp, T, 1.5, { q: 99.9, k: 0.1 });
  assert.equal(vp.span, MIN_SPAN);
  assert.ok(vp.q0 + vp.span <= T && vp.k0 >= 0);
  // The anchor keeps its relative place (99.9 % down, 0.1 % across) all the way in.
  assert.ok(Math.abs(vp.q0 + 0.999 * vp.span - 99.9) < 1e-9 && Math.abs(vp.k0 + 0.001 * vp.span - 0.1) < 1e-9, `anchor kept: ${JSON.stringify(vp)}`);
  for (let i = 0; i < 50; i++) vp = zoomAt(vp, T, 1 / 1.5, { q: 50, k: 50 });
  assert.deepEqual(vp, fitAll(T));
  // Panning stops at the edges.
  const z = zoomCentre(fitAll(T), T, 4); // span 25 at 37.5
  assert.deepEqual(pan(z, T, -1000, 10), { q0: 0, k0: 47.5, span: 25 });
  assert.deepEqual(pan(z, T, 1000, -1000), { q0: 75, k0: 0, span: 25 });
  for (const bad of [0, -2, NaN, Infinity]) assert.deepEqual(zoomAt(z, T, bad, { q: 0, k: 0 }), z);
});

test('cellAt, visibleCells, zoomFactor', () => {
  const vp: Viewport = { q0: 10, k0: 20.5, span: 16 };
  assert.deepEqual(cellAt(vp, 160, 0, 0), { q: 10, k: 20 });
  assert.deepEqual(cellAt(vp, 160, 5, 9.99), { q: 10, k: 21 });
  assert.deepEqual(cellAt(vp, 160, 159.9, 159.9), { q: 25, k: 36 });
  assert.equal(cellAt(vp, 160, 160, 0), null);
  assert.equal(cellAt(vp, 160, -0.1, 0), null);
  assert.equal(cellAt({ q0: 0, k0: 0, span: 10 }, 100, 50, 50, 4), null); // beyond a 4×4 matrix
  assert.deepEqual(visibleCells(vp, 100), { q0: 10, q1: 25, k0: 20, k1: 36 });
  assert.deepEqual(visibleCells(fitAll(100), 100), { q0: 0, q1: 99, k0: 0, k1: 99 });
  assert.equal(zoomFactor(vp, 64), 4);
  assert.equal(isPooled(fitAll(1000), 640), true);
  assert.equal(isPooled(fitAll(640), 640), false);
  // The drawn cell at a pixel's centre is the cell cellAt reports there (zoomed in).
  const T = 50;
  const m = new Float32Array(T * T).map((_, i) => i);
  const img = rasterize(m, T, vp, 37, undefined, false);
  for (const [x, y] of [[0, 0], [12, 30], [36, 36]] as const) {
    const c = cellAt(vp, 37, x + 0.5, y + 0.5)!;
    assert.equal(img[y * 37 + x], c.q * T + c.k);
  }
});

test('rasterizeColumn is column k of the window rasterize draws, at any zoom (nearest and pooled)', async () => {
  const { rasterizeColumn } = await import('../lib/view/viewport');
  const r = rng(9);
  for (const T of [5, 40, 300]) {
    const m = randomMatrix(T, r);
    for (const outPx of [16, 64, 128]) {
      for (const vp of [fitAll(T), zoomCentre(fitAll(T), T, 3), pan(zoomCentre(fitAll(T), T, 2.5), T, 0.37 * T, 0.2 * T)]) {
        const col = rasterizeColumn(m, T, 0, vp.q0, vp.span, outPx);
        // The full-width window at k0 = 0 puts key 0 alone in pixel column 0 when cells are at least a pixel;
        // compare with the brute-force reference restricted to one column: a window one column wide.
        for (let p = 0; p < outPx; p++) {
          let want = NaN;
          if (vp.span <= outPx) {
            const q = Math.min(T - 1, Math.floor(vp.q0 + ((p + 0.5) / outPx) * vp.span));
            want = m[q * T]!;
          } else {
            for (let q = 0; q < T; q++) {
              if (!(q + 0.5 >= vp.q0 && q + 0.5 < vp.q0 + vp.span)) continue;
              if (Math.min(Math.floor((q + 0.5 - vp.q0) * (outPx / vp.span)), outPx - 1) !== p) continue;
              if (Number.isNaN(want) || m[q * T]! > want) want = m[q * T]!;
            }
          }
          if (Number.isNaN(want)) assert.ok(Number.isNaN(col[p]!), `T ${T} px ${outPx} pixel ${p}`);
          else assert.equal(col[p], want, `T ${T} px ${outPx} ${JSON.stringify(vp)} pixel ${p}`);
        }
        // Where rasterize draws key 0 in its own pixel column (full view, cells ≥ 1 px), the values agree.
        if (vp.k0 === 0 && vp.span <= outPx) {
          const img = rasterize(m, T, vp, outPx);
          for (let p = 0; p < outPx; p++) assert.equal(col[p], img[p * outPx], `pixel ${p}`);
        }
      }
    }
  }
  // Causal: rows above key k are masked; a pooled pixel keeps the unmasked rows' max.
  const T = 6;
  const m = Float32Array.from({ length: T * T }, (_, i) => i / 100);
  const c3 = rasterizeColumn(m, T, 3, 0, T, T);
  assert.deepEqual(Array.from(c3.slice(0, 3), Number.isNaN), [true, true, true]);
  assert.deepEqual(Array.from(c3.slice(3)), [3 * T + 3, 4 * T + 3, 5 * T + 3].map((i) => Math.fround(i / 100)));
  const pooled = rasterizeColumn(m, T, 3, 0, T, 2); // rows 0–2 | 3–5
  assert.ok(Number.isNaN(pooled[0]!));
  assert.equal(pooled[1], Math.fround((5 * T + 3) / 100));
  assert.deepEqual(Array.from(rasterizeColumn(m, T, 3, 0, T, T, undefined, false).slice(0, 1)), [Math.fround(3 / 100)]);
  // A key outside the matrix: all NaN.
  assert.ok(Array.from(rasterizeColumn(m, T, 9, 0, T, 4)).every(Number.isNaN));
});
