// Where two token sequences part and how their K/V caches differ (docs/CONCEPTS.md#prefix-invalidation):
// the first differing token, single-token edits that keep positions in place, and per-layer,
// per-position max |ΔK| and |ΔV| under a stated alignment of A's positions to B's. Pure functions over
// tensors; no engine, no rendering, no I/O.

import type { Tensor } from '../tensor';

/** One layer's cache: K (post-RoPE) and V, each [kvHeads, positions, headDim]. */
export interface LayerKv {
  k: Tensor;
  v: Tensor;
}

/** Index of the first token where `a` and `b` differ; null when one is a prefix of the other (or they are equal). */
export function firstDifferingToken(a: readonly number[], b: readonly number[]): number | null {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return null;
}

/**
 * Where the two sequences part: the first differing token, or the shorter length when one is a prefix of
 * the other. Cache entries at positions before it can be reused; from it on everything is recomputed.
 */
export function commonPrefixLength(a: readonly number[], b: readonly number[]): number {
  return firstDifferingToken(a, b) ?? Math.min(a.length, b.length);
}

function checkPosition(ids: readonly number[], position: number, what: string, allowEnd: boolean): void {
  const max = allowEnd ? ids.length : ids.length - 1;
  if (!Number.isInteger(position) || position < 0 || position > max) throw new RangeError(`${what} position ${position} is outside 0…${max}`);
}

function checkIds(ids: readonly number[]): void {
  for (const id of ids) if (!Number.isInteger(id) || id < 0) throw new RangeError(`token id ${id} is not a non-negative integer`);
}

/**
 * `ids` with the token at `position` replaced by `newId`, every other token where it was. No
 * re-tokenization: an in-place edit stays in place, so later tokens keep their positions.
 */
export function tokenEdit(ids: readonly number[], position: number, newId: number): number[] {
  checkPosition(ids, position, 'edit', false);
  checkIds([newId]);
  const out = ids.slice();
  out[position] = newId;
  return out;
}

/** `ids` with `newIds` inserted before `position` (position = ids.length appends); later tokens shift right. */
export function tokenInsert(ids: readonly number[], position: number, newIds: readonly number[]): number[] {
  checkPosition(ids, position, 'insert', true);
  checkIds(newIds);
  return [...ids.slice(0, position), ...newIds, ...ids.slice(position)];
}

/** `ids` without the `count` tokens starting at `position`; later tokens shift left. */
export function tokenDelete(ids: readonly number[], position: number, count = 1): number[] {
  checkPosition(ids, position, 'delete', false);
  if (!Number.isInteger(count) || count < 1 || position + count > ids.length) throw new RangeError(`cannot delete ${count} tokens at ${position} of ${ids.length}`);
  return [...ids.slice(0, position), ...ids.slice(position + count)];
}

/**
 * How A's positions pair with B's.
 * - `'position'`: A position j ↔ B position j, for j < min(lengths).
 * - `{ shiftAfter, by }`: A position j < shiftAfter ↔ B position j; A position j ≥ shiftAfter ↔ B position
 *   j + by. Pairs whose B position falls outside B or onto the unshifted range (j + by < shiftAfter) are
 *   left out. An insertion of d tokens at p is `{ shiftAfter: p, by: d }` (B's inserted positions are
 *   unpaired); a deletion of d tokens at p is `{ shiftAfter: p, by: -d }` (A's deleted positions are
 *   unpaired). This pairs the same token with itself ("token-aligned"): after a shift the same token sits
 *   at a different position, so RoPE'd K differs while layer-0 V (no RoPE) does not.
 */
export type Alignment = 'position' | { shiftAfter: number; by: number };

/** The aligned position pairs: A position a[i] is compared with B position b[i]. */
export function alignPositions(lengthA: number, lengthB: number, alignment: Alignment): { a: Int32Array; b: Int32Array } {
  const pa: number[] = [];
  const pb: number[] = [];
  if (alignment === 'position') {
    for (let j = 0; j < Math.min(lengthA, lengthB); j++) {
      pa.push(j);
      pb.push(j);
    }
  } else {
    const { shiftAfter, by } = alignment;
    if (!Number.isInteger(shiftAfter) || shiftAfter < 0 || !Number.isInteger(by)) throw new RangeError(`alignment needs integer shiftAfter ≥ 0 and by (got ${shiftAfter}, ${by})`);
    for (let j = 0; j < Math.min(shiftAfter, lengthA, lengthB); j++) {
      pa.push(j);
      pb.push(j);
    }
    for (let j = shiftAfter; j < lengthA; j++) {
      const k = j + by;
      if (k < shiftAfter || k >= lengthB) continue;
      pa.push(j);
      pb.push(k);
    }
  }
  return { a: Int32Array.from(pa), b: Int32Array.from(pb) };
}

/**
 * The token-aligned pairing for two sequences that share a prefix and a suffix: the common suffix (at
 * most what is left after the common prefix) is shifted by the length difference. Null when the lengths
 * are equal (token alignment is then position alignment) or there is no common suffix.
 */
export function suffixAlignment(a: readonly number[], b: readonly number[]): { shiftAfter: number; by: number; suffix: number } | null {
  if (a.length === b.length) return null;
  const prefix = commonPrefixLength(a, b);
  const room = Math.min(a.length, b.length) - prefix;
  let s = 0;
  while (s < room && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  if (s === 0) return null;
  return { shiftAfter: a.length - s, by: b.length - a.length, suffix: s };
}

export type KvClass = 'identical' | 'within tol' | 'changed';

/** 'identical': every K and V value bit-equal; 'within tol': max |Δ| ≤ tol; else 'changed'. */
export function classifyDelta(bitEqual: boolean, maxDiff: number, tol: number): KvClass {
  if (bitEqual) return 'identical';
  return maxDiff <= tol ? 'within tol' : 'changed';
}

export interface LayerDelta {
  layer: number;
  /** Max |ΔK| and |ΔV| over every compared position of this layer. */
  maxK: number;
  maxV: number;
  /**
   * The first compared pair whose K or V differs by more than tol, with its own max |ΔK| and |ΔV|
   * (`index` into the pairs, `a` and `b` the positions); null when none does.
   */
  first: { index: number; a: number; b: number; maxK: number; maxV: number } | null;
  /** Compared pairs per class. */
  identical: number;
  withinTol: number;
  changed: number;
}

export interface KvDelta {
  layers: number;
  /** Number of compared pairs; `a[i]` in A is compared with `b[i]` in B. */
  positions: number;
  a: Int32Array;
  b: Int32Array;
  /** Max |ΔK| and |ΔV| over kv-heads and head dims, [layers × positions] (layer-major). */
  maxK: Float32Array;
  maxV: Float32Array;
  /** 1 where every K and V value of the pair is bit-equal, [layers × positions]. */
  bitEqual: Uint8Array;
  tol: number;
  alignment: Alignment;
  perLayer: LayerDelta[];
}

export interface KvDeltaOptions {
  alignment?: Alignment;
  /** Differences ≤ tol count as 'within tol'; 0 compares bit-exactly (default 0). */
  tol?: number;
}

function shape(t: Tensor, what: string): [number, number, number] {
  if (t.dims.length !== 3) throw new Error(`${what}: expected [kvHeads, positions, headDim], got [${t.dims}]`);
  const [h, n, d] = t.dims as [number, number, number];
  if (t.data.length !== h * n * d) throw new Error(`${what}: ${t.data.length} values for dims [${t.dims}]`);
  return [h, n, d];
}

/** Max |x − y| over one position's [kvHeads, headDim] values (NaN counts as Infinity), and whether all bits agree. */
function positionDiff(x: Float32Array, nx: number, px: number, y: Float32Array, ny: number, py: number, heads: number, dim: number, xb: Uint32Array, yb: Uint32Array): [number, boolean] {
  let m = 0;
  let same = true;
  for (let h = 0; h < heads; h++) {
    const ox = (h * nx + px) * dim;
    const oy = (h * ny + py) * dim;
    for (let i = 0; i < dim; i++) {
      if (xb[ox + i] !== yb[oy + i]) same = false;
      const d = Math.abs(x[ox + i]! - y[oy + i]!);
      if (d > m) m = d;
      else if (Number.isNaN(d)) m = Infinity;
    }
  }
  return [m, same];
}

const bits = (a: Float32Array) => new Uint32Array(a.buffer, a.byteOffset, a.length);

/** Per layer and aligned position: max |ΔK|, max |ΔV|, bit-equality, and the first pair differing above tol. */
export function kvDelta(aLayers: readonly LayerKv[], bLayers: readonly LayerKv[], opts: KvDeltaOptions = {}): KvDelta {
  const alignment = opts.alignment ?? 'position';
  const tol = opts.tol ?? 0;
  if (!(tol >= 0)) throw new RangeError(`tol must be ≥ 0 (got ${tol})`);
  if (aLayers.length !== bLayers.length) throw new Error(`cannot compare ${aLayers.length} layers with ${bLayers.length}`);
  const L = aLayers.length;
  if (L === 0) throw new Error('no layers to compare');
  const [heads, nA, dim] = shape(aLayers[0]!.k, 'A layer 0 K');
  const [, nB] = shape(bLayers[0]!.k, 'B layer 0 K');
  for (let l = 0; l < L; l++) {
    for (const [side, x, n] of [['A', aLayers[l]!, nA], ['B', bLayers[l]!, nB]] as const) {
      for (const kind of ['k', 'v'] as const) {
        const [h, p, d] = shape(x[kind], `${side} layer ${l} ${kind.toUpperCase()}`);
        if (h !== heads || p !== n || d !== dim) throw new Error(`${side} layer ${l} ${kind.toUpperCase()}: dims [${h},${p},${d}] do not match [${heads},${n},${dim}]`);
      }
    }
  }
  const { a, b } = alignPositions(nA, nB, alignment);
  const P = a.length;
  const maxK = new Float32Array(L * P);
  const maxV = new Float32Array(L * P);
  const bitEqual = new Uint8Array(L * P);
  const perLayer: LayerDelta[] = [];
  for (let l = 0; l < L; l++) {
    const A = aLayers[l]!;
    const B = bLayers[l]!;
    const [ak, av, bk, bv] = [A.k.data, A.v.data, B.k.data, B.v.data];
    const [akb, avb, bkb, bvb] = [bits(ak), bits(av), bits(bk), bits(bv)];
    const row: LayerDelta = { layer: l, maxK: 0, maxV: 0, first: null, identical: 0, withinTol: 0, changed: 0 };
    for (let i = 0; i < P; i++) {
      const [dk, sk] = positionDiff(ak, nA, a[i]!, bk, nB, b[i]!, heads, dim, akb, bkb);
      const [dv, sv] = positionDiff(av, nA, a[i]!, bv, nB, b[i]!, heads, dim, avb, bvb);
      maxK[l * P + i] = dk;
      maxV[l * P + i] = dv;
      bitEqual[l * P + i] = sk && sv ? 1 : 0;
      row.maxK = Math.max(row.maxK, dk);
      row.maxV = Math.max(row.maxV, dv);
      const cls = classifyDelta(sk && sv, Math.max(dk, dv), tol);
      if (cls === 'identical') row.identical++;
      else if (cls === 'within tol') row.withinTol++;
      else {
        row.changed++;
        row.first ??= { index: i, a: a[i]!, b: b[i]!, maxK: dk, maxV: dv };
      }
    }
    perLayer.push(row);
  }
  return { layers: L, positions: P, a, b, maxK, maxV, bitEqual, tol, alignment, perLayer };
}

/** The class of compared pair `index` at `layer`. */
export function kvClass(delta: KvDelta, layer: number, index: number): KvClass {
  const at = layer * delta.positions + index;
  return classifyDelta(delta.bitEqual[at] === 1, Math.max(delta.maxK[at]!, delta.maxV[at]!), delta.tol);
}

/** Max |ΔK| and |ΔV| (and bit-equality) over the pairs with A position < `end`, across all layers. */
export function prefixDelta(delta: KvDelta, end: number): { positions: number; maxK: number; maxV: number; bitIdentical: boolean } {
  let maxK = 0;
  let maxV = 0;
  let same = true;
  let n = 0;
  for (let i = 0; i < delta.positions; i++) {
    if (delta.a[i]! >= end || delta.b[i]! >= end) continue;
    n++;
    for (let l = 0; l < delta.layers; l++) {
      const at = l * delta.positions + i;
      maxK = Math.max(maxK, delta.maxK[at]!);
      maxV = Math.max(maxV, delta.maxV[at]!);
      if (!delta.bitEqual[at]) same = false;
    }
  }
  return { positions: n, maxK, maxV, bitIdentical: same };
}
