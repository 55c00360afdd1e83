// Axes for the small SVG charts (cache economics): nice tick values and linear maps from data to pixels.
// Pure TS: no DOM, no React.

export interface Axis {
  /** Domain start and end: the data range widened to whole steps (lo ≤ data min, hi ≥ data max). */
  lo: number;
  hi: number;
  step: number;
  /** lo, lo + step, …, hi. */
  ticks: number[];
}

/** 1, 2, 2.5 or 5 × 10^k, the smallest at or above `raw` (> 0). */
export function niceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const r = raw / mag;
  const m = r <= 1 + 1e-9 ? 1 : r <= 2 + 1e-9 ? 2 : r <= 2.5 + 1e-9 ? 2.5 : r <= 5 + 1e-9 ? 5 : 10;
  return m * mag;
}

const clean = (v: number) => Number(v.toPrecision(12));

/**
 * An axis over [min, max] with about `n` (≥ 2) ticks at nice values. The range is widened outward to
 * whole steps; `integer` keeps the step ≥ 1 (counts such as calls or updates). A degenerate range
 * (max ≤ min) gets one step above min.
 */
export function niceAxis(min: number, max: number, n = 5, integer = false): Axis {
  if (!Number.isFinite(min) || !Number.isFinite(max)) throw new RangeError(`axis range must be finite (got ${min}, ${max})`);
  const count = Math.max(2, Math.floor(n));
  let step = niceStep(max > min ? (max - min) / (count - 1) : Math.abs(min) || 1);
  if (integer) step = Math.max(1, Math.round(step));
  const lo = clean(Math.floor(min / step + 1e-9) * step);
  let hi = clean(Math.ceil(max / step - 1e-9) * step);
  if (hi <= lo) hi = clean(lo + step);
  const ticks: number[] = [];
  for (let i = 0; lo + i * step <= hi + step * 1e-9; i++) ticks.push(clean(lo + i * step));
  return { lo, hi, step, ticks };
}

/** The linear map sending d0 → r0 and d1 → r1 (a flat map to r0 when d0 = d1). */
export function linearMap(d0: number, d1: number, r0: number, r1: number): (v: number) => number {
  if (d1 === d0) return () => r0;
  const k = (r1 - r0) / (d1 - d0);
  return (v) => r0 + (v - d0) * k;
}

/** A tick label: integers as they are, others with at most 2 decimals, float noise trimmed. */
export function tickLabel(v: number): string {
  if (Number.isInteger(v)) return String(v);
  return String(Number(v.toFixed(2)));
}
