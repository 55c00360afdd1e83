// Rasters of the A/B heatmaps: the rows of one arm from the shared prefix on, over a key axis common to
// both arms (NaN where a key is in the row's future or past the arm's end), and max pooling of a matrix
// into fewer pixels so that a single bright cell never disappears. Pure TS: no DOM, no React, no I/O.

/**
 * Rows `fromRow` … T − 1 of a T × T attention matrix (row-major, rows = query positions from 0) over keys
 * 0 … keys − 1, keys ≥ T allowed (the other arm may be longer): NaN where k > q (causal mask) or k ≥ T.
 */
export function rowBlock(matrix: Float32Array, T: number, fromRow: number, keys: number): Float32Array {
  if (matrix.length < T * T) throw new RangeError(`rowBlock: ${matrix.length} values for a ${T}×${T} matrix`);
  if (!Number.isInteger(fromRow) || fromRow < 0 || fromRow > T) throw new RangeError(`rowBlock: first row ${fromRow} outside 0…${T}`);
  const rows = T - fromRow;
  const out = new Float32Array(rows * keys).fill(NaN);
  for (let r = 0; r < rows; r++) {
    const q = fromRow + r;
    const n = Math.min(q + 1, keys, T);
    out.set(matrix.subarray(q * T, q * T + n), r * keys);
  }
  return out;
}

/**
 * rows × cols (row-major) pooled to outRows × outCols: each output cell is the max over the input cells it
 * covers, NaN skipped (all NaN → NaN). Output sizes ≥ input sizes keep that axis as it is.
 */
export function poolMax(values: Float32Array, rows: number, cols: number, outRows: number, outCols: number): { data: Float32Array; rows: number; cols: number } {
  const R = Math.max(1, Math.min(rows, outRows));
  const C = Math.max(1, Math.min(cols, outCols));
  if (R === rows && C === cols) return { data: values.slice(0, rows * cols), rows, cols };
  const out = new Float32Array(R * C).fill(NaN);
  const bounds = (n: number, m: number) => Array.from({ length: m + 1 }, (_, i) => Math.floor((i * n) / m));
  const rb = bounds(rows, R);
  const cb = bounds(cols, C);
  for (let y = 0; y < R; y++) {
    for (let x = 0; x < C; x++) {
      let best = NaN;
      for (let r = rb[y]!; r < Math.max(rb[y]! + 1, rb[y + 1]!); r++) {
        for (let c = cb[x]!; c < Math.max(cb[x]! + 1, cb[x + 1]!); c++) {
          const v = values[r * cols + c]!;
          if (!Number.isNaN(v) && (Number.isNaN(best) || v > best)) best = v;
        }
      }
      out[y * C + x] = best;
    }
  }
  return { data: out, rows: R, cols: C };
}

/** Largest finite value (0 when none). */
export function finiteMax(values: Float32Array): number {
  let m = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v > m && Number.isFinite(v)) m = v;
  }
  return m;
}
