// The token view's BertViz-style tint: with a query selected, each key token k ≤ q takes the weight of row q
// (the matrix the heatmap shows, so a hidden sink's renormalisation applies) as a tint strength relative to
// the row's largest weight; keys after q are in the query's future. Pure TS: no DOM, no React.

export interface RowTint {
  query: number;
  /** Weights of keys 0…query from row `query` (a view into the matrix; NaN where the matrix has none). */
  weights: Float32Array;
  /** The row's largest finite weight (0 when none is positive): the full-strength tint. */
  max: number;
}

/** Row q of a T × T row-major matrix as a tint, or null when q is not a row. */
export function rowTint(matrix: Float32Array, T: number, q: number | null): RowTint | null {
  if (q === null || !Number.isInteger(q) || q < 0 || q >= T || matrix.length < T * T) return null;
  const weights = matrix.subarray(q * T, q * T + q + 1);
  let max = 0;
  for (const w of weights) if (w > max) max = w;
  return { query: q, weights, max };
}

/** Tint strength in [0, 1] of weight w against the row's max: linear, 0 for NaN, negatives or a zero max. */
export function tintAlpha(w: number, max: number): number {
  if (!(max > 0) || !(w > 0)) return 0;
  return Math.min(1, w / max);
}

/** Whether text on a tint of this strength should be light (the tint colour is dark at full strength). */
export function lightInkOn(alpha: number): boolean {
  return alpha > 0.55;
}
