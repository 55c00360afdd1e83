// Rasters of the A/B heatmaps: the axis both arms share (alignAxis: shared prefix, what only A or only B
// has, the common suffix), each arm's rows over it and B − A, the range of the difference view, painting
// with absent cells hatched, row-label placement and row geometry; also the older per-position row block
// and max pooling (a single bright cell never disappears). Pure TS: no DOM, no React, no I/O.
import type { Segment } from '../prompt/layout';
import { MASK_RGB } from './colormap';
import { poolMatrix, poolSpan, type Raster } from './raster';

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

// ---------------------------------------------------------------------------------------------------
// The aligned axis: the A/B maps put both arms on one axis (keys and query rows alike) so that the same
// token faces the same token. Shared prefix first (same ids, same positions), then what only A has, what
// only B has, and last the tokens both arms end with (the longest common suffix of the two tails: same
// ids, positions shifted when the middles differ in length — e.g. the generation prompt after B's status
// message). A column or row one arm lacks has no counterpart there: drawn as 'absent', never as 0.

/** What an aligned index holds: the shared prefix, a token only one arm has, or a common-suffix token. */
export type ZoneKind = 'shared' | 'onlyA' | 'onlyB' | 'suffix';

export interface AxisZone {
  kind: ZoneKind;
  /** Aligned indices, end exclusive. */
  start: number;
  end: number;
}

export interface AlignedAxis {
  length: number;
  /** Aligned index → token position in A and in B; −1 where that arm lacks it. */
  a: Int32Array;
  b: Int32Array;
  sharedPrefix: number;
  /** Tokens after the shared prefix that both arms end with, paired from the end. */
  commonSuffix: number;
  /** The non-empty zones, in axis order. */
  zones: AxisZone[];
}

export type ArmKey = 'a' | 'b';

/**
 * The aligned axis of two prompts given their shared prefix P (lib/analysis/abCompare alignArms): 0 … P − 1
 * shared, then A's and B's tokens between the prefix and their common suffix, then the common suffix.
 */
export function alignAxis(idsA: ArrayLike<number>, idsB: ArrayLike<number>, sharedPrefix: number): AlignedAxis {
  const Ta = idsA.length;
  const Tb = idsB.length;
  const P = sharedPrefix;
  if (!Number.isInteger(P) || P < 0 || P > Math.min(Ta, Tb)) throw new RangeError(`alignAxis: shared prefix ${P} outside 0…${Math.min(Ta, Tb)}`);
  let S = 0;
  while (S < Ta - P && S < Tb - P && idsA[Ta - 1 - S] === idsB[Tb - 1 - S]) S++;
  const midA = Ta - P - S;
  const midB = Tb - P - S;
  const length = P + midA + midB + S;
  const a = new Int32Array(length).fill(-1);
  const b = new Int32Array(length).fill(-1);
  for (let i = 0; i < P; i++) a[i] = b[i] = i;
  for (let i = 0; i < midA; i++) a[P + i] = P + i;
  for (let i = 0; i < midB; i++) b[P + midA + i] = P + i;
  for (let i = 0; i < S; i++) {
    a[P + midA + midB + i] = P + midA + i;
    b[P + midA + midB + i] = P + midB + i;
  }
  const zones: AxisZone[] = [];
  const push = (kind: ZoneKind, start: number, n: number) => n > 0 && zones.push({ kind, start, end: start + n });
  push('shared', 0, P);
  push('onlyA', P, midA);
  push('onlyB', P + midA, midB);
  push('suffix', P + midA + midB, S);
  return { length, a, b, sharedPrefix: P, commonSuffix: S, zones };
}

/** The zone of aligned index i. */
export function zoneAt(axis: AlignedAxis, i: number): AxisZone | null {
  return axis.zones.find((z) => z.start <= i && i < z.end) ?? null;
}

/**
 * How many query rows the maps show by default: every aligned row after the shared prefix (the rows that
 * can differ, including each arm's decision row and, built in, B's status message) plus up to `context`
 * shared rows above them.
 */
export function defaultRowCount(axis: AlignedAxis, context = 8): number {
  return Math.max(1, Math.min(axis.length, axis.length - axis.sharedPrefix + Math.min(context, axis.sharedPrefix)));
}

/**
 * One arm's attention rows over the aligned axis: aligned rows from … from + rows − 1 (row-major, rows ×
 * axis.length) of a T × T matrix (row-major, heads already reduced). NaN where the arm lacks the row or the
 * key, or the key is in the row's future (absentRows / absentCols tell the two apart).
 */
export function alignedBlock(matrix: Float32Array, T: number, axis: AlignedAxis, arm: ArmKey, from: number, rows: number): Float32Array {
  if (matrix.length < T * T) throw new RangeError(`alignedBlock: ${matrix.length} values for a ${T}×${T} matrix`);
  if (!Number.isInteger(from) || from < 0 || rows < 0 || from + rows > axis.length) throw new RangeError(`alignedBlock: rows ${from}…${from + rows - 1} outside the axis of ${axis.length}`);
  const pos = axis[arm];
  const K = axis.length;
  const out = new Float32Array(rows * K).fill(NaN);
  for (let r = 0; r < rows; r++) {
    const q = pos[from + r]!;
    if (q < 0) continue;
    if (q >= T) throw new RangeError(`alignedBlock: position ${q} outside the arm's ${T} tokens`);
    for (let j = 0; j < K; j++) {
      const k = pos[j]!;
      if (k >= 0 && k <= q) out[r * K + j] = matrix[q * T + k]!;
    }
  }
  return out;
}

/** B − A cell by cell; NaN wherever either is NaN (absent or future in either arm). */
export function diffBlock(a: Float32Array, b: Float32Array): Float32Array {
  if (a.length !== b.length) throw new RangeError(`diffBlock: ${a.length} and ${b.length} values`);
  const out = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = b[i]! - a[i]!;
  return out;
}

/** 1 for each aligned row from … from + rows − 1 that `arms` (one or both) lack; with both, a row either lacks. */
export function absentRows(axis: AlignedAxis, arms: readonly ArmKey[], from: number, rows: number): Uint8Array {
  const out = new Uint8Array(rows);
  for (let r = 0; r < rows; r++) out[r] = arms.some((arm) => axis[arm][from + r]! < 0) ? 1 : 0;
  return out;
}

/** 1 for each aligned column that `arms` lack (with both arms: a column either lacks). */
export function absentCols(axis: AlignedAxis, arms: readonly ArmKey[]): Uint8Array {
  return absentRows(axis, arms, 0, axis.length);
}

export interface DiffRange {
  /** Largest |B − A| over the rows that can differ, 0 when there are none. */
  max: number;
  /** Where (aligned row and column), null when nothing was compared. */
  at: { row: number; col: number } | null;
  /** Cells compared. */
  cells: number;
}

/**
 * The range of the difference view: max |B − A| over the rows that can differ and have a counterpart (the
 * aligned rows after the shared prefix that both arms have: the common suffix, with the decision row) and
 * the keys both arms have, in the past of both rows. The shared-prefix rows are left out: they are
 * identical (section "shared rows"), and their zeros would say nothing about the scale.
 */
export function diffRange(matA: Float32Array, Ta: number, matB: Float32Array, Tb: number, axis: AlignedAxis): DiffRange {
  let max = 0;
  let at: DiffRange['at'] = null;
  let cells = 0;
  for (let i = axis.sharedPrefix; i < axis.length; i++) {
    const qa = axis.a[i]!;
    const qb = axis.b[i]!;
    if (qa < 0 || qb < 0) continue;
    for (let j = 0; j < axis.length; j++) {
      const ka = axis.a[j]!;
      const kb = axis.b[j]!;
      if (ka < 0 || kb < 0 || ka > qa || kb > qb) continue;
      const d = Math.abs(matB[qb * Tb + kb]! - matA[qa * Ta + ka]!);
      cells++;
      if (d > max || at === null) {
        max = Math.max(max, d);
        at = { row: i, col: j };
      }
    }
  }
  return { max, at, cells };
}

/** Backing-store colours of cells an arm lacks: white with grey diagonal hatching. */
export const HATCH_RGB: readonly [number, number, number] = [255, 255, 255];
export const HATCH_INK_RGB: readonly [number, number, number] = [160, 160, 160];
/** Hatching period (pixels along a diagonal) and line width. */
const HATCH_PERIOD = 6;
const HATCH_LINE = 2;

/** Whether pixel (x, y) lies on a hatching line. */
export function onHatch(x: number, y: number): boolean {
  return (x + y) % HATCH_PERIOD < HATCH_LINE;
}

export interface AlignedPaint {
  /** rows × keys, row-major (alignedBlock, diffBlock); NaN: absent or future. */
  values: Float32Array;
  rows: number;
  keys: number;
  /** Rows and columns drawn hatched (absentRows, absentCols). */
  absentRow: Uint8Array;
  absentCol: Uint8Array;
  /** Pixel size of the raster. */
  width: number;
  height: number;
  /** What a pixel keeps of the cells it covers: the largest value, or the value of largest magnitude. */
  reduce: 'max' | 'maxAbs';
  /** Colour of a finite value. */
  colour: (v: number) => readonly number[];
}

/**
 * Paints the aligned map into width × height RGBA pixels: each pixel covers the rows and keys lib/view/raster
 * poolSpan gives it; it is hatched when all its rows or all its keys are absent, otherwise it shows the
 * reduced value of its present cells (grey, MASK_RGB, when they are all in the future).
 */
export function paintAligned(p: AlignedPaint, out: Uint8ClampedArray): Uint8ClampedArray {
  const { values, rows, keys, absentRow, absentCol, width, height, colour } = p;
  if (values.length < rows * keys) throw new RangeError(`paintAligned: ${values.length} values for a ${rows}×${keys} matrix`);
  if (out.length < width * height * 4) throw new RangeError(`paintAligned: output holds ${out.length} bytes, needs ${width * height * 4}`);
  const abs = p.reduce === 'maxAbs';
  const cols = Array.from({ length: width }, (_, x) => {
    const [c0, c1] = poolSpan(x, keys, width);
    let absent = true;
    for (let c = c0; c < c1; c++) if (!absentCol[c]) absent = false;
    return { c0, c1, absent };
  });
  let o = 0;
  for (let y = 0; y < height; y++) {
    const [r0, r1] = poolSpan(y, rows, height);
    let rowAbsent = true;
    for (let r = r0; r < r1; r++) if (!absentRow[r]) rowAbsent = false;
    for (let x = 0; x < width; x++, o += 4) {
      const col = cols[x]!;
      let rgb: readonly number[];
      if (rowAbsent || col.absent) rgb = onHatch(x, y) ? HATCH_INK_RGB : HATCH_RGB;
      else {
        let best = NaN;
        let key = -Infinity;
        for (let r = r0; r < r1; r++) {
          if (absentRow[r]) continue;
          for (let c = col.c0; c < col.c1; c++) {
            const v = values[r * keys + c]!;
            const k = abs ? Math.abs(v) : v;
            if (k > key) {
              key = k;
              best = v;
            }
          }
        }
        rgb = Number.isNaN(best) ? MASK_RGB : colour(best);
      }
      out[o] = rgb[0]!;
      out[o + 1] = rgb[1]!;
      out[o + 2] = rgb[2]!;
      out[o + 3] = 255;
    }
  }
  return out;
}

/**
 * Which of `rows` rows, each `rowPx` pixels tall, get a text label `labelPx` tall: all when they have the
 * room, otherwise every stride-th counted up from the last (the decision row is always labelled).
 */
export function labelledRows(rows: number, rowPx: number, labelPx: number): number[] {
  if (rows <= 0) return [];
  const stride = rowPx >= labelPx ? 1 : Math.ceil(labelPx / Math.max(rowPx, 1e-9));
  const out: number[] = [];
  for (let r = rows - 1; r >= 0; r -= stride) out.push(r);
  return out.reverse();
}

/**
 * Geometry of the maps: each row's height in pixels (a whole number, 1 … maxRowPx, so that rows stay even)
 * and the raster height, within `budget` pixels; more rows than the budget are pooled (rowPx < 1).
 */
export function rowGeometry(rows: number, budget: number, maxRowPx = 18): { rowPx: number; height: number } {
  if (rows <= 0) return { rowPx: 0, height: 0 };
  if (rows > budget) return { rowPx: budget / rows, height: Math.floor(budget) };
  const rowPx = Math.max(1, Math.min(maxRowPx, Math.floor(budget / rows)));
  return { rowPx, height: rows * rowPx };
}

/** Per aligned column, the segment of the arm's token there (null where the arm lacks it). */
export function alignedSegments(axis: AlignedAxis, arm: ArmKey, spans: readonly { start: number; end: number; segment: Segment }[]): (Segment | null)[] {
  const pos = axis[arm];
  const out: (Segment | null)[] = new Array<Segment | null>(axis.length).fill(null);
  let si = 0;
  for (let j = 0; j < axis.length; j++) {
    const k = pos[j]!;
    if (k < 0) continue;
    // Positions rise along the axis wherever the arm has them, so one forward scan finds every span.
    while (si < spans.length - 1 && spans[si]!.end <= k) si++;
    const s = spans[si];
    out[j] = s && s.start <= k && k < s.end ? s.segment : null;
  }
  return out;
}

/** Per pixel column of a band `width` px wide, the first non-null segment among the columns it covers. */
export function bandSegments(segments: readonly (Segment | null)[], width: number): (Segment | null)[] {
  return Array.from({ length: width }, (_, x) => {
    const [c0, c1] = poolSpan(x, segments.length, width);
    for (let c = c0; c < c1; c++) if (segments[c]) return segments[c]!;
    return null;
  });
}

/** The token positions a zone covers in each arm ([first, last], inclusive), null where the arm has none. */
export function zoneSpans(axis: AlignedAxis, zone: AxisZone): { a: [number, number] | null; b: [number, number] | null } {
  const span = (pos: Int32Array): [number, number] | null => {
    let lo = -1;
    let hi = -1;
    for (let i = zone.start; i < zone.end; i++) {
      const p = pos[i]!;
      if (p < 0) continue;
      if (lo < 0) lo = p;
      hi = p;
    }
    return lo < 0 ? null : [lo, hi];
  };
  return { a: span(axis.a), b: span(axis.b) };
}

/** Columns c0 … c1 − 1 of a rows × cols row-major matrix (a copy; the whole matrix when that is all of it). */
export function sliceColumns(values: Float32Array, rows: number, cols: number, c0: number, c1: number): Float32Array {
  if (!(0 <= c0 && c0 <= c1 && c1 <= cols)) throw new RangeError(`sliceColumns: ${c0}…${c1} outside 0…${cols}`);
  if (c0 === 0 && c1 === cols) return values;
  const w = c1 - c0;
  const out = new Float32Array(rows * w);
  for (let r = 0; r < rows; r++) out.set(values.subarray(r * cols + c0, r * cols + c1), r * w);
  return out;
}

/** The zones of the axis seen through the column window c0 … c1 − 1, shifted so that c0 is 0. */
export function windowZones(axis: AlignedAxis, c0: number, c1: number): AxisZone[] {
  return axis.zones.flatMap((z) => {
    const start = Math.max(z.start, c0);
    const end = Math.min(z.end, c1);
    return end > start ? [{ kind: z.kind, start: start - c0, end: end - c0 }] : [];
  });
}

/** Per zone, the sum of a row's finite values over the zone's columns (a row over the whole aligned axis). */
export function zoneSums(row: Float32Array, zones: readonly AxisZone[]): number[] {
  return zones.map((z) => {
    let s = 0;
    for (let j = z.start; j < z.end; j++) {
      const v = row[j]!;
      if (Number.isFinite(v)) s += v;
    }
    return s;
  });
}
