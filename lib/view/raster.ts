// Value matrices pooled into fewer pixels and painted into RGBA: the one pooling function every canvas view
// uses (A/B rows and difference, K/V difference map, attention strip) and a generic per-pixel painter. Pure TS:
// no DOM, no React, no I/O. The zoomable heatmap resamples through lib/view/viewport's rasterize instead
// (continuous, fractional windows binned by cell centre, the masked triangle skipped).

/** rows × cols values, row-major. */
export interface Raster {
  data: Float32Array;
  rows: number;
  cols: number;
}

/** What a pixel keeps of the cells it covers: the largest value, or the value of largest magnitude (sign kept). */
export type PoolReduce = 'max' | 'maxAbs';

/**
 * The cells of n that output pixel p of m covers: [floor(p·n/m), max(that + 1, floor((p+1)·n/m))). With
 * m ≤ n every cell belongs to one pixel; with m > n each pixel shows the cell under its left edge.
 */
export function poolSpan(p: number, n: number, m: number): [number, number] {
  const a = Math.floor((p * n) / m);
  return [a, Math.max(a + 1, Math.floor(((p + 1) * n) / m))];
}

/**
 * `values` (rows × cols, row-major) resampled to outRows × outCols: each output pixel reduces the cells
 * poolSpan gives it along both axes — 'max' keeps the largest value (a single bright cell never disappears),
 * 'maxAbs' the value of largest magnitude with its sign (a single strong difference never disappears). NaN
 * is skipped; a pixel with only NaN is NaN. Sizes equal to the input copy it.
 */
export function poolMatrix(values: Float32Array, rows: number, cols: number, outRows: number, outCols: number, reduce: PoolReduce = 'max'): Raster {
  if (values.length < rows * cols) throw new RangeError(`poolMatrix: ${values.length} values for a ${rows}×${cols} matrix`);
  const R = Math.max(0, Math.floor(outRows));
  const C = Math.max(0, Math.floor(outCols));
  if (R === rows && C === cols) return { data: values.slice(0, rows * cols), rows, cols };
  const out = new Float32Array(R * C).fill(NaN);
  if (rows === 0 || cols === 0) return { data: out, rows: R, cols: C };
  const colSpans = Array.from({ length: C }, (_, x) => poolSpan(x, cols, C));
  const abs = reduce === 'maxAbs';
  for (let y = 0; y < R; y++) {
    const [r0, r1] = poolSpan(y, rows, R);
    for (let x = 0; x < C; x++) {
      const [c0, c1] = colSpans[x]!;
      let best = NaN;
      let key = -Infinity;
      for (let r = r0; r < r1; r++) {
        for (let i = r * cols + c0, e = r * cols + c1; i < e; i++) {
          const v = values[i]!;
          const k = abs ? Math.abs(v) : v;
          // NaN fails the comparison, so it is skipped; the first non-NaN value always wins over -Infinity's
          // NaN `best`, even when it is -Infinity itself.
          if (k > key || (Number.isNaN(best) && k === key)) {
            key = k;
            best = v;
          }
        }
      }
      out[y * C + x] = best;
    }
  }
  return { data: out, rows: R, cols: C };
}

/**
 * Writes rows × cols RGBA pixels (row-major, alpha 255), pixel (r, c) the colour rgbAt(r, c) gives as [r, g, b].
 * `out` must hold at least rows · cols · 4 bytes.
 */
export function paintCells(rows: number, cols: number, out: Uint8ClampedArray, rgbAt: (r: number, c: number) => readonly number[]): Uint8ClampedArray {
  if (out.length < rows * cols * 4) throw new RangeError(`paintCells: output holds ${out.length} bytes, needs ${rows * cols * 4}`);
  for (let r = 0, o = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++, o += 4) {
      const rgb = rgbAt(r, c);
      out[o] = rgb[0]!;
      out[o + 1] = rgb[1]!;
      out[o + 2] = rgb[2]!;
      out[o + 3] = 255;
    }
  }
  return out;
}

/** [r, g, b] of '#rrggbb'. */
export function hexRgb(hex: string): [number, number, number] {
  return [parseInt(hex.slice(1, 3), 16), parseInt(hex.slice(3, 5), 16), parseInt(hex.slice(5, 7), 16)];
}
