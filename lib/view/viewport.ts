// A square view window over a T×T matrix (rows = query tokens, columns = key tokens) for zooming and
// panning a heatmap, and rasterizing the window into an outPx×outPx image. Pure TS: no DOM, no React.
//
// Coordinates are continuous cell units: cell (q, k) occupies [q, q+1) × [k, k+1). A viewport
// { q0, k0, span } shows rows [q0, q0+span) and columns [k0, k0+span); all three may be fractional, so
// zooming keeps the point under the pointer exactly fixed. A clamped viewport lies inside [0, T]² and
// has min(MIN_SPAN, T) ≤ span ≤ T.
//
// Hand-written rather than lib/view/raster's poolMatrix over integer blocks: the window is fractional in cell
// units (zooming keeps the point under the pointer fixed), a pixel takes the cells whose centres fall in it,
// and pooling skips the masked triangle block by block (half of a causal matrix is never read).

export interface Viewport {
  /** First visible row (query), in cell units; may be fractional. */
  q0: number;
  /** First visible column (key), in cell units; may be fractional. */
  k0: number;
  /** Rows and columns visible, in cell units; may be fractional. */
  span: number;
}

export interface Cell {
  q: number;
  k: number;
}

/** The smallest span zooming in can reach (cells across), unless the matrix itself is smaller. */
export const MIN_SPAN = 8;

/** The whole matrix. */
export function fitAll(T: number): Viewport {
  return { q0: 0, k0: 0, span: Math.max(T, 0) };
}

function clampNum(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}

/** The viewport moved and resized as little as possible to lie inside the matrix with an allowed span. */
export function clampViewport(vp: Viewport, T: number, minSpan = MIN_SPAN): Viewport {
  if (!(T > 0)) return { q0: 0, k0: 0, span: 0 };
  const lo = Math.min(minSpan, T);
  const span = Number.isFinite(vp.span) ? clampNum(vp.span, lo, T) : T;
  const q0 = Number.isFinite(vp.q0) ? clampNum(vp.q0, 0, T - span) : 0;
  const k0 = Number.isFinite(vp.k0) ? clampNum(vp.k0, 0, T - span) : 0;
  return { q0, k0, span };
}

/**
 * Zoom by `factor` (> 1 in, < 1 out) around `anchor`, a point in cell coordinates (e.g. pointAt of the
 * pointer): the anchor keeps its place on screen unless clamping to the matrix or to the span limits
 * has to move the window.
 */
export function zoomAt(vp: Viewport, T: number, factor: number, anchor: Cell, minSpan = MIN_SPAN): Viewport {
  if (!(factor > 0) || !Number.isFinite(factor) || !(vp.span > 0)) return clampViewport(vp, T, minSpan);
  const span = clampNum(vp.span / factor, Math.min(minSpan, T), T);
  const r = span / vp.span;
  return clampViewport({ q0: anchor.q - (anchor.q - vp.q0) * r, k0: anchor.k - (anchor.k - vp.k0) * r, span }, T, minSpan);
}

/** Zoom around the window's centre. */
export function zoomCentre(vp: Viewport, T: number, factor: number, minSpan = MIN_SPAN): Viewport {
  return zoomAt(vp, T, factor, { q: vp.q0 + vp.span / 2, k: vp.k0 + vp.span / 2 }, minSpan);
}

/** Move the window by dq rows and dk columns (cell units), stopping at the matrix's edges. */
export function pan(vp: Viewport, T: number, dq: number, dk: number, minSpan = MIN_SPAN): Viewport {
  return clampViewport({ q0: vp.q0 + dq, k0: vp.k0 + dk, span: vp.span }, T, minSpan);
}

/** The continuous cell coordinates of point (x, y) of an outPx-wide drawing of the window (any unit). */
export function pointAt(vp: Viewport, outPx: number, x: number, y: number): Cell {
  return { q: vp.q0 + (y / outPx) * vp.span, k: vp.k0 + (x / outPx) * vp.span };
}

/**
 * The cell under point (x, y) of an outPx-wide drawing of the window, or null when the point is outside
 * the drawing (or, given T, outside the matrix). At a pixel's centre this is the cell `rasterize` draws
 * there when cells are at least a pixel wide.
 */
export function cellAt(vp: Viewport, outPx: number, x: number, y: number, T?: number): Cell | null {
  if (!(x >= 0 && y >= 0 && x < outPx && y < outPx)) return null;
  const p = pointAt(vp, outPx, x, y);
  const q = Math.floor(p.q);
  const k = Math.floor(p.k);
  if (T !== undefined && (q < 0 || k < 0 || q >= T || k >= T)) return null;
  return { q, k };
}

/** Whole cells at least partly visible: rows q0..q1 and columns k0..k1, inclusive. */
export function visibleCells(vp: Viewport, T: number): { q0: number; q1: number; k0: number; k1: number } {
  const first = (a: number) => clampNum(Math.floor(a), 0, Math.max(T - 1, 0));
  const last = (a: number) => clampNum(Math.ceil(a + vp.span) - 1, 0, Math.max(T - 1, 0));
  return { q0: first(vp.q0), q1: last(vp.q0), k0: first(vp.k0), k1: last(vp.k0) };
}

/** How many times larger than the full view cells are drawn (1 = whole matrix). */
export function zoomFactor(vp: Viewport, T: number): number {
  return vp.span > 0 ? T / vp.span : 1;
}

/** Whether a pixel of an outPx-wide drawing covers more than one cell (rasterize then pools by max). */
export function isPooled(vp: Viewport, outPx: number): boolean {
  return vp.span > outPx;
}

/**
 * The window as an outPx×outPx image (row-major) of matrix values, T×T row-major, rows = queries.
 *
 * - Cells larger than pixels (span ≤ outPx): pixel (x, y) shows the cell under its centre,
 *   cellAt(vp, outPx, x + 0.5, y + 0.5).
 * - Cells smaller than pixels (span > outPx): each cell whose centre lies in the window belongs to the
 *   one pixel that contains its centre (pixel x = floor((k + 0.5 − k0) · outPx / span), likewise y),
 *   and a pixel shows the MAX over its unmasked cells, so a single bright column (an attention sink)
 *   never disappears when zoomed out.
 *
 * With `causal` (default) cells with k > q are masked; a pixel whose cells are all masked is NaN
 * (paintRgba paints it as masked). NaN matrix values are skipped by the max. One pass over the covered
 * cells, no per-cell allocation; `out` (length ≥ outPx²) may be passed in to reuse a buffer.
 */
export function rasterize(matrix: Float32Array, T: number, vp: Viewport, outPx: number, out?: Float32Array, causal = true): Float32Array {
  const n = outPx * outPx;
  if (matrix.length < T * T) throw new Error(`rasterize: ${matrix.length} values for a ${T}×${T} matrix`);
  const img = out && out.length >= n ? out : new Float32Array(n);
  if (!(outPx > 0) || !(T > 0) || !(vp.span > 0)) {
    img.fill(NaN, 0, n);
    return img;
  }
  const { q0, k0, span } = vp;
  if (span <= outPx) {
    // Nearest cell: one lookup per pixel.
    const rowCell = new Int32Array(outPx);
    const colCell = new Int32Array(outPx);
    for (let p = 0; p < outPx; p++) {
      // The same arithmetic as pointAt, so the tooltip's cell is the drawn cell.
      rowCell[p] = clampNum(Math.floor(q0 + ((p + 0.5) / outPx) * span), 0, T - 1);
      colCell[p] = clampNum(Math.floor(k0 + ((p + 0.5) / outPx) * span), 0, T - 1);
    }
    let o = 0;
    for (let y = 0; y < outPx; y++) {
      const q = rowCell[y]!;
      const base = q * T;
      for (let x = 0; x < outPx; x++, o++) {
        const k = colCell[x]!;
        img[o] = causal && k > q ? NaN : matrix[base + k]!;
      }
    }
    return img;
  }
  // Max pooling: bounds[p]..bounds[p+1]-1 are the cells whose centre falls in pixel p (per axis). Each
  // pixel's max stays in a register while its block of rows × columns is read.
  const scale = outPx / span;
  const rowB = cellBounds(q0, span, scale, outPx, T);
  const colB = cellBounds(k0, span, scale, outPx, T);
  for (let y = 0; y < outPx; y++) {
    const rowOut = y * outPx;
    const qa = rowB[y]!;
    const qb = rowB[y + 1]!;
    for (let x = 0; x < outPx; x++) {
      const ks = colB[x]!;
      const ke0 = colB[x + 1]!;
      if (causal && ks >= qb) {
        // Every row of this block is above the diagonal from here on: masked.
        img.fill(NaN, rowOut + x, rowOut + outPx);
        break;
      }
      let m = -Infinity;
      for (let q = causal && qa < ks ? ks : qa; q < qb; q++) {
        const base = q * T;
        const ke = causal && ke0 > q + 1 ? q + 1 : ke0;
        for (let i = base + ks, e = base + ke; i < e; i++) {
          const v = matrix[i]!;
          if (v > m) m = v;
        }
      }
      img[rowOut + x] = m === -Infinity ? NaN : m;
    }
  }
  return img;
}

/**
 * One key column k of the window's rows [q0, q0 + span) as outPx values, pixel y the same rows `rasterize`
 * gives pixel row y: the cell under the pixel's centre when cells are at least a pixel tall, else the MAX
 * over the rows whose centre falls in the pixel. With `causal` (default) rows q < k are masked (NaN), and a
 * pixel whose rows are all masked is NaN. The pinned strips beside the heatmap draw these.
 */
export function rasterizeColumn(matrix: Float32Array, T: number, k: number, q0: number, span: number, outPx: number, out?: Float32Array, causal = true): Float32Array {
  if (matrix.length < T * T) throw new Error(`rasterizeColumn: ${matrix.length} values for a ${T}×${T} matrix`);
  const img = out && out.length >= outPx ? out : new Float32Array(Math.max(0, outPx));
  if (!(outPx > 0) || !(T > 0) || !(span > 0) || !(k >= 0 && k < T)) {
    img.fill(NaN, 0, Math.max(0, outPx));
    return img;
  }
  if (span <= outPx) {
    for (let p = 0; p < outPx; p++) {
      const q = clampNum(Math.floor(q0 + ((p + 0.5) / outPx) * span), 0, T - 1);
      img[p] = causal && k > q ? NaN : matrix[q * T + k]!;
    }
    return img;
  }
  const rowB = cellBounds(q0, span, outPx / span, outPx, T);
  for (let p = 0; p < outPx; p++) {
    let m = -Infinity;
    for (let q = Math.max(rowB[p]!, causal ? k : 0); q < rowB[p + 1]!; q++) {
      const v = matrix[q * T + k]!;
      if (v > m) m = v;
    }
    img[p] = m === -Infinity ? NaN : m;
  }
  return img;
}

/**
 * Per-axis pixel bounds for max pooling: cell c (0 ≤ c < T) with centre c + 0.5 in [a0, a0 + span)
 * belongs to pixel floor((c + 0.5 − a0) · scale), clamped to outPx − 1. Returns outPx + 1 ascending
 * cell indices; pixel p holds cells bounds[p] ≤ c < bounds[p+1].
 */
function cellBounds(a0: number, span: number, scale: number, outPx: number, T: number): Int32Array {
  const b = new Int32Array(outPx + 1);
  let c = Math.max(0, Math.ceil(a0 - 0.5));
  const end = Math.min(T, Math.ceil(a0 + span - 0.5)); // first cell whose centre is at or past the window's end
  for (let p = 0; p < outPx; p++) {
    b[p] = c;
    while (c < end && Math.min(Math.floor((c + 0.5 - a0) * scale), outPx - 1) <= p) c++;
  }
  b[outPx] = c;
  return b;
}
