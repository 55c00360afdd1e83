// Rasters of the A/B heatmaps: the rows of one arm from the shared prefix on, over a key axis common to
// both arms (NaN where a key is in the row's future or past the arm's end), and max pooling of a matrix
// into fewer pixels so that a single bright cell never disappears. Pure TS: no DOM, no React, no I/O.
import { poolMatrix, type Raster } from './raster';

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
 * rows × cols (row-major) pooled to outRows × outCols by max (lib/view/raster poolMatrix), NaN skipped (all
 * NaN → NaN). Output sizes ≥ input sizes keep that axis as it is.
 */
export function poolMax(values: Float32Array, rows: number, cols: number, outRows: number, outCols: number): Raster {
  return poolMatrix(values, rows, cols, Math.max(1, Math.min(rows, outRows)), Math.max(1, Math.min(cols, outCols)), 'max');
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
