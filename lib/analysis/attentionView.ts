// The reductions a heatmap shows from one layer's attention [heads, Q, K]: one head, the head mean or
// max, and "hide the sink column, renormalise". Pure functions; a view draws these and never recomputes.

import type { Tensor } from '../tensor';

/** Which heads a heatmap shows: their mean, their elementwise max, or one head by index. */
export type HeadReduction = 'mean' | 'max' | number;

/**
 * Reduces attention [heads, Q, K] to [Q, K] (a fresh array): 'mean' = mean over heads, 'max' = elementwise
 * max over heads (rows then need not sum to 1), a number = that head. A [Q, K] tensor is one head.
 */
export function reduceHeads(t: Tensor, how: HeadReduction): Tensor {
  let heads: number, q: number, k: number;
  if (t.dims.length === 3) [heads, q, k] = [t.dims[0]!, t.dims[1]!, t.dims[2]!];
  else if (t.dims.length === 2) [heads, q, k] = [1, t.dims[0]!, t.dims[1]!];
  else throw new Error(`attention must be [heads, queries, keys] or [queries, keys], got [${t.dims}]`);
  const n = q * k;
  if (t.data.length !== heads * n) throw new Error(`attention [${t.dims}] holds ${t.data.length} values, expected ${heads * n}`);
  const d = t.data;
  if (typeof how === 'number') {
    if (!Number.isInteger(how) || how < 0 || how >= heads) throw new Error(`head ${how} out of range 0…${heads - 1}`);
    return { data: d.slice(how * n, (how + 1) * n), dims: [q, k] };
  }
  if (heads === 0) throw new Error('attention has no heads');
  const out = d.slice(0, n);
  if (how === 'mean') {
    for (let h = 1; h < heads; h++) for (let i = 0, o = h * n; i < n; i++, o++) out[i]! += d[o]!;
    if (heads > 1) for (let i = 0; i < n; i++) out[i]! /= heads;
  } else if (how === 'max') {
    for (let h = 1; h < heads; h++)
      for (let i = 0, o = h * n; i < n; i++, o++) {
        const v = d[o]!;
        if (v > out[i]!) out[i] = v;
      }
  } else {
    throw new Error(`unknown head reduction '${how as string}'`);
  }
  return { data: out, dims: [q, k] };
}

/**
 * "Hide sink column, renormalise" (docs/CONCEPTS.md#hiding-the-sink-column) for a [Q, K] matrix
 * (row-major): column `key` becomes 0 and every other entry of a row is divided by the row's sum over the
 * remaining keys, so those sum to 1. A row with no mass outside `key` (e.g. query 0 of causal attention,
 * which sees only key 0) stays all 0 rather than being invented. Returns a fresh array; `m` is untouched.
 */
export function hideSinkColumn(m: Float32Array, Q: number, K: number, key = 0): Float32Array {
  if (m.length !== Q * K) throw new Error(`matrix holds ${m.length} values, expected ${Q}×${K}`);
  if (!Number.isInteger(key) || key < 0 || key >= K) throw new Error(`sink key ${key} out of range 0…${K - 1}`);
  const out = new Float32Array(Q * K);
  for (let q = 0; q < Q; q++) {
    const off = q * K;
    let rest = 0;
    for (let k = 0; k < K; k++) if (k !== key) rest += m[off + k]!;
    if (!(rest > 0)) continue;
    for (let k = 0; k < K; k++) if (k !== key) out[off + k] = m[off + k]! / rest;
  }
  return out;
}

/**
 * Causal mask for paintRgba: true where key c lies in query row r's future (c > position of row r).
 * `rows[r]` is row r's absolute position (default r, a full prefill from position 0).
 */
export function causalMask(rows?: readonly number[]): (r: number, c: number) => boolean {
  return rows ? (r, c) => c > (rows[r] ?? r) : (r, c) => c > r;
}

/**
 * Top of a heatmap's colour range: the largest weight in rows ≥ fromRow (all rows if fewer). Early rows
 * see few keys and hold weights near 1, which would otherwise push every later row into the dark end.
 */
export function colourDomainMax(m: Float32Array, Q: number, K: number, fromRow: number): number {
  const start = Q > fromRow ? fromRow : 0;
  let max = 0;
  for (let i = start * K; i < Q * K; i++) if (m[i]! > max) max = m[i]!;
  return max;
}

/** The colour range's top with and without the sink column, and how many times narrower hiding makes it. */
export interface ColourRanges {
  /** colourDomainMax of the matrix as it is. */
  full: number;
  /** colourDomainMax of hideSinkColumn(matrix, …, key): the top once column `key` is hidden and rows renormalised. */
  hidden: number;
  /** full / hidden (Infinity when hidden is 0, NaN when both are). */
  ratio: number;
}

/**
 * Both tops of the colour range for a [Q, K] matrix (rows ≥ fromRow, as colourDomainMax): as it is and with
 * column `key` hidden and rows renormalised (hideSinkColumn's arithmetic, value for value, without building
 * the renormalised matrix), so a view can say how much hiding the sink narrows the range.
 */
export function colourRanges(m: Float32Array, Q: number, K: number, fromRow: number, key = 0): ColourRanges {
  if (m.length !== Q * K) throw new Error(`matrix holds ${m.length} values, expected ${Q}×${K}`);
  const full = colourDomainMax(m, Q, K, fromRow);
  const start = Q > fromRow ? fromRow : 0;
  let hidden = 0;
  for (let q = start; q < Q; q++) {
    const off = q * K;
    let rest = 0;
    for (let k = 0; k < K; k++) if (k !== key) rest += m[off + k]!;
    if (!(rest > 0)) continue;
    for (let k = 0; k < K; k++) {
      if (k === key) continue;
      // Rounded to float32 as hideSinkColumn stores it.
      const v = Math.fround(m[off + k]! / rest);
      if (v > hidden) hidden = v;
    }
  }
  return { full, hidden, ratio: full / hidden };
}
