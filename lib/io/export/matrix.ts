// Matrices in JSON exports (docs/EXPORT.md): small ones as nested number arrays (rows of columns, NaN and
// ±Infinity as null, each value the shortest decimal that reads back as the same float32), larger ones
// packed as base64 of little-endian float32 (bit-exact, NaN kept). Pure; runs anywhere.
import { fromBase64, toBase64 } from '../attention/kvscopeFormat';

/** Matrices with at most this many cells are written as nested arrays. */
export const MATRIX_INLINE_MAX = 65_536;

export interface PackedMatrix {
  shape: [number, number];
  dtype: 'float32';
  encoding: 'base64-le';
  data: string;
}

export type MatrixJson = (number | null)[][] | PackedMatrix;

/** The shortest decimal (6 to 9 significant digits) that reads back as the float32 `v`; null when not finite. */
export function float32Json(v: number): number | null {
  if (!Number.isFinite(v)) return null;
  const f = Math.fround(v);
  if (f === 0) return 0;
  for (let p = 6; p < 9; p++) {
    const s = Number(f.toPrecision(p));
    if (Math.fround(s) === f) return s;
  }
  return Number(f.toPrecision(9));
}

function checkShape(data: ArrayLike<number>, rows: number, cols: number): void {
  if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 0 || cols < 0) throw new RangeError(`matrix shape must be non-negative integers, got ${rows} × ${cols}`);
  if (data.length < rows * cols) throw new RangeError(`matrix ${rows} × ${cols} needs ${rows * cols} values, got ${data.length}`);
}

/** The `rows × cols` row-major matrix at the start of `data` as JSON (see the file comment). */
export function matrixJson(data: Float32Array, rows: number, cols: number): MatrixJson {
  checkShape(data, rows, cols);
  const n = rows * cols;
  if (n <= MATRIX_INLINE_MAX) {
    const out: (number | null)[][] = new Array(rows);
    for (let r = 0; r < rows; r++) {
      const row: (number | null)[] = new Array(cols);
      for (let c = 0; c < cols; c++) row[c] = float32Json(data[r * cols + c]!);
      out[r] = row;
    }
    return out;
  }
  const bytes = new Uint8Array(n * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < n; i++) view.setFloat32(4 * i, data[i]!, true);
  return { shape: [rows, cols], dtype: 'float32', encoding: 'base64-le', data: toBase64(bytes) };
}

export function isPackedMatrix(v: unknown): v is PackedMatrix {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  return Array.isArray(o.shape) && o.dtype === 'float32' && o.encoding === 'base64-le' && typeof o.data === 'string';
}

/**
 * The inverse of matrixJson: rows, cols and the values (null read as NaN). Nested arrays must be
 * rectangular; an empty array is 0 × 0. Throws on anything else.
 */
export function decodeMatrixJson(m: unknown): { rows: number; cols: number; data: Float32Array } {
  if (Array.isArray(m)) {
    const rows = m.length;
    const cols = rows > 0 && Array.isArray(m[0]) ? (m[0] as unknown[]).length : 0;
    const data = new Float32Array(rows * cols);
    m.forEach((row, r) => {
      if (!Array.isArray(row) || row.length !== cols) throw new Error(`matrix row ${r} is not an array of ${cols} values`);
      row.forEach((v, c) => {
        if (v !== null && typeof v !== 'number') throw new Error(`matrix cell (${r}, ${c}) is ${typeof v}, expected a number or null`);
        data[r * cols + c] = v === null ? NaN : v;
      });
    });
    return { rows, cols, data };
  }
  if (isPackedMatrix(m)) {
    const [rows, cols] = m.shape;
    if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows! < 0 || cols! < 0) throw new Error(`bad matrix shape ${JSON.stringify(m.shape)}`);
    const bytes = fromBase64(m.data, 'matrix.data');
    if (bytes.length !== rows! * cols! * 4) throw new Error(`matrix data holds ${bytes.length} bytes, shape ${rows} × ${cols} needs ${rows! * cols! * 4}`);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const data = new Float32Array(rows! * cols!);
    for (let i = 0; i < data.length; i++) data[i] = view.getFloat32(4 * i, true);
    return { rows: rows!, cols: cols!, data };
  }
  throw new Error('not a matrix: expected nested arrays or { shape, dtype: "float32", encoding: "base64-le", data }');
}
