// Layout of the Step tab's attention strip: which key positions its x axis spans, where each key's column
// sits, its axis ticks, which keys get a token label, and which pixel columns show cached keys. The axis
// spans the CACHED part rounded up to a nice size (never the whole timeline), so the keys in the cache fill
// most of the strip at every step and the scale steps up as the cache grows. Pure TS: no DOM, no React.
import { niceAxis, niceStep, stepTicks } from './scale';
import { poolMatrix } from './raster';

/**
 * The smallest x domain, in key positions. Below it a handful of cached keys would each be a block a
 * tenth of the strip wide and the domain would change on every step; 32 keys keep columns readable
 * (about 35 px each at 1280 px) and the first 21 steps fill two thirds of the strip.
 */
export const MIN_STRIP_KEYS = 32;

/** Keys per tick: nice steps only (1, 2, 5 × 10^k), so tick labels are whole positions. */
const TICK_MULTIPLES: readonly number[] = [1, 2, 5];

/**
 * Key positions the strip's x axis spans for `cached` keys of a `total`-token timeline: `cached` rounded up
 * to a nice size (lib/view/scale niceAxis: the d3-style nice() with steps 1, 2, 2.5, 5 × 10^k and about 5
 * ticks, so the domain grows in a few steps, and cached / domain stays ≥ 2/3 once above the minimum), at
 * least `min`, but never past the timeline's end nor below `cached` itself.
 */
export function stripDomain(cached: number, total: number, min = MIN_STRIP_KEYS): number {
  const c = Math.max(0, Math.floor(cached));
  const n = Math.max(c, Math.floor(total));
  const want = c <= min ? min : niceAxis(0, c, 5, true).hi;
  return Math.max(1, c, Math.min(n, want));
}

export interface StripTick {
  key: number;
  /** CSS px from the strip's left edge: the key column's centre. */
  x: number;
}

export interface StripLayout {
  /** Keys in the cache (drawn with their weights). */
  cached: number;
  /** Keys on the timeline (prompt plus generated). */
  total: number;
  /** Key positions the x axis spans (stripDomain). */
  domain: number;
  /** The strip's width in CSS px. */
  width: number;
  /** CSS px per key. */
  keyPx: number;
  /** CSS px the cached keys span from the left edge. */
  cachedPx: number;
  /** Timeline tokens not in the cache yet (drawn or not). */
  notCached: number;
  /** Axis ticks at whole key positions, about one per `tickPx`. */
  ticks: StripTick[];
}

/** The strip's layout for `cached` keys of `total` at `width` CSS px, with about one axis tick per `tickPx` px. */
export function stripLayout(cached: number, total: number, width: number, tickPx = 90, min = MIN_STRIP_KEYS): StripLayout {
  const c = Math.max(0, Math.floor(cached));
  const n = Math.max(c, Math.floor(total));
  const domain = stripDomain(c, n, min);
  const w = Math.max(1, width);
  const keyPx = w / domain;
  const count = Math.max(2, Math.floor(w / Math.max(1, tickPx)) + 1);
  const step = Math.max(1, Math.round(niceStep(domain / (count - 1), TICK_MULTIPLES)));
  const ticks = stepTicks(0, domain - 1, step).map((key) => ({ key, x: (key + 0.5) * keyPx }));
  return { cached: c, total: n, domain, width: w, keyPx, cachedPx: c * keyPx, notCached: n - c, ticks };
}

/** Key k's column: [left, right) in CSS px. */
export function keyColumn(l: StripLayout, k: number): [number, number] {
  return [k * l.keyPx, (k + 1) * l.keyPx];
}

/** The key under CSS x (0 … width), or null outside the domain. Keys ≥ cached are in the headroom. */
export function keyAtX(l: StripLayout, x: number): number | null {
  if (!(x >= 0 && x < l.width)) return null;
  return Math.min(l.domain - 1, Math.floor(x / l.keyPx));
}

/**
 * The first of `pixels` backing-store columns whose keys are all uncached: pixel x shows the keys
 * lib/view/raster poolSpan(x, domain, pixels) gives it, which start at ⌊x · domain / pixels⌋.
 */
export function headroomStart(l: StripLayout, pixels: number): number {
  return Math.min(pixels, Math.ceil((l.cached * pixels) / l.domain - 1e-9));
}

/**
 * One value per backing-store pixel column: the largest weight among the cached keys it covers (lib/view/raster
 * poolMatrix 'max', so a single strong key never disappears), NaN where it covers no cached key.
 */
export function stripColumns(weights: Float32Array | null, l: StripLayout, pixels: number): Float32Array {
  const row = new Float32Array(l.domain).fill(NaN);
  if (weights) row.set(weights.subarray(0, Math.min(weights.length, l.cached, l.domain)));
  return poolMatrix(row, 1, l.domain, 1, Math.max(1, Math.floor(pixels)), 'max').data;
}

/**
 * Which cached keys get a token label under the strip. Every one when a column is at least `minPx` wide;
 * otherwise a subset whose label centres are at least `minPx` apart, taken greedily: the keys in `first`
 * (the query, the most attended keys) in their order, then key 0, then every stride-th key. Ascending.
 */
export function stripLabelKeys(l: StripLayout, minPx: number, first: readonly number[] = []): number[] {
  const n = Math.min(l.cached, l.domain);
  if (n === 0) return [];
  if (l.keyPx >= minPx) return Array.from({ length: n }, (_, k) => k);
  const stride = Math.max(1, Math.ceil(minPx / l.keyPx));
  const chosen: number[] = [];
  const centre = (k: number) => (k + 0.5) * l.keyPx;
  const tryAdd = (k: number) => {
    if (!(Number.isInteger(k) && k >= 0 && k < n) || chosen.includes(k)) return;
    const x = centre(k);
    if (chosen.every((o) => Math.abs(centre(o) - x) >= minPx)) chosen.push(k);
  };
  for (const k of first) tryAdd(k);
  tryAdd(0);
  for (let k = 0; k < n; k += stride) tryAdd(k);
  return chosen.sort((a, b) => a - b);
}

/** A token label cut to `max` characters (an ellipsis marks the cut), so rotated labels fit their band. */
export function shortLabel(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, Math.max(1, max - 1)).join('') + '…';
}
