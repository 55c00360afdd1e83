// Scales, ticks and number formats for every chart, axis and colour legend of the app, in one place. Pure TS:
// no DOM, no React, no Intl (labels are the same in every locale).
//
// d3 does the mapping and the formatting: d3-scale's scaleLinear for data → pixel maps and for the [0, 1]
// normalisation of the colour scales (clamped; the power and log colour scales are a d3 linear scale with a
// power interpolator or over log10 values, which keeps their arithmetic, and with it every painted pixel,
// what it was), d3-scale's scaleLog for log axes and their 1…9 × 10^k ticks, d3-array's range, d3-format for
// every tick label. Two pieces stay hand-written:
// - the step: the smallest 1, 2, 2.5 or 5 × 10^k at or above range / (n − 1) (niceStep). d3's tickIncrement
//   rounds geometrically among 1, 2, 5 only; our axes and legends (0, 0.25, 0.5, 0.75, 1; 2.5k, 5k, 7.5k) and
//   their tests need the 2.5 step and the "at or above" rule.
// - decade ticks thinned from the top (decadeTicks): d3's log ticks give 1…9 mantissas or every 1, 2, 5
//   decades, where a colour legend wants at most n powers of ten ending at its top.
import { range } from 'd3-array';
import { format as d3format, formatLocale } from 'd3-format';
import { scaleLinear, scaleLog } from 'd3-scale';

// ---- maps ---------------------------------------------------------------------------------------------

/** The linear map sending d0 → r0 and d1 → r1, not clamped (d3 scaleLinear); a flat map to r0 when d0 = d1. */
export function linearMap(d0: number, d1: number, r0: number, r1: number): (v: number) => number {
  if (d1 === d0) return () => r0;
  return scaleLinear<number, number, number>().domain([d0, d1]).range([r0, r1]).unknown(NaN);
}

/** The log map sending lo → r0 and hi → r1 (0 < lo < hi), clamped to the ends (d3 scaleLog). */
export function logMap(lo: number, hi: number, r0: number, r1: number): (v: number) => number {
  return scaleLog<number, number, number>().domain([lo, hi]).range([r0, r1]).clamp(true).unknown(r0);
}

/**
 * [d0, d1] → [0, 1], clamped, NaN → 0; with `gamma` ≠ 1 the clamped fraction is raised to gamma (a power
 * scale anchored at d0). A degenerate or reversed range (d1 ≤ d0) maps everything to 0. The arithmetic is
 * (v − d0) / (d1 − d0), then Math.pow: the colour LUT index of every value depends on it bit for bit.
 */
export function unitMap(d0: number, d1: number, gamma = 1): (v: number) => number {
  if (!(d1 - d0 > 0)) return () => 0;
  const s = scaleLinear<number, number, number>().domain([d0, d1]).range([0, 1]).clamp(true).unknown(0);
  return gamma === 1 ? s : s.interpolate(() => (t: number) => Math.pow(t, gamma));
}

// ---- ticks --------------------------------------------------------------------------------------------

/** Multiples of ten tried by niceStep: 1, 2, 2.5 and 5 × 10^k. */
export const NICE_MULTIPLES: readonly number[] = [1, 2, 2.5, 5];

/** The smallest m × 10^k (m from `multiples`, ascending within [1, 10)) at or above `raw` (> 0); 1 when raw is not a positive number. */
export function niceStep(raw: number, multiples: readonly number[] = NICE_MULTIPLES): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const r = raw / mag;
  const m = multiples.find((x) => r <= x + 1e-9) ?? 10;
  return m * mag;
}

/** Float noise trimmed off a tick value (0.30000000000000004 → 0.3). */
const clean = (v: number): number => Number(v.toPrecision(12));

/** The multiples of `step` (> 0) from lo to hi, ends included (within 1e-9 steps). */
export function stepTicks(lo: number, hi: number, step: number): number[] {
  if (!(step > 0) || !(hi >= lo)) return [];
  return range(Math.ceil(lo / step - 1e-9), Math.floor(hi / step + 1e-9) + 1).map((i) => clean(i * step));
}

/** About `n` (≥ 2) ticks at nice values inside [min, max] (the range is not widened); one tick at min when max ≤ min. */
export function ticksInside(min: number, max: number, n = 5, multiples: readonly number[] = NICE_MULTIPLES): number[] {
  if (!(max > min)) return [min];
  return stepTicks(min, max, niceStep((max - min) / (Math.max(2, Math.floor(n)) - 1), multiples));
}

export interface Axis {
  /** Domain start and end: the data range widened to whole steps (lo ≤ data min, hi ≥ data max). */
  lo: number;
  hi: number;
  step: number;
  /** lo, lo + step, …, hi. */
  ticks: number[];
}

/**
 * An axis over [min, max] with about `n` (≥ 2) ticks at nice values. The range is widened outward to whole
 * steps (what d3's scale.nice() does, with our steps); `integer` keeps the step ≥ 1 (counts such as calls).
 * A degenerate range (max ≤ min) gets one step above min.
 */
export function niceAxis(min: number, max: number, n = 5, integer = false, multiples: readonly number[] = NICE_MULTIPLES): Axis {
  if (!Number.isFinite(min) || !Number.isFinite(max)) throw new RangeError(`axis range must be finite (got ${min}, ${max})`);
  const count = Math.max(2, Math.floor(n));
  let step = niceStep(max > min ? (max - min) / (count - 1) : Math.abs(min) || 1, multiples);
  if (integer) step = Math.max(1, Math.round(step));
  const lo = clean(Math.floor(min / step + 1e-9) * step);
  let hi = clean(Math.ceil(max / step - 1e-9) * step);
  if (hi <= lo) hi = clean(lo + step);
  return { lo, hi, step, ticks: stepTicks(lo, hi, step) };
}

/**
 * Powers of ten from lo to hi (0 < lo < hi), at most `n` (≥ 2) of them: every stride-th decade counted down
 * from the top one; the two ends when fewer than two decades fall inside.
 */
export function decadeTicks(lo: number, hi: number, n = 5): number[] {
  if (!(hi > lo) || !(lo > 0)) return [lo];
  const k0 = Math.ceil(Math.log10(lo) - 1e-9);
  const k1 = Math.floor(Math.log10(hi) + 1e-9);
  if (k1 - k0 + 1 < 2) return [lo, hi];
  const stride = Math.ceil((k1 - k0 + 1) / Math.max(2, Math.floor(n)));
  return range(k1, k0 - 1, -stride)
    .map((k) => Number(`1e${k}`))
    .reverse();
}

/**
 * Ticks of a log axis over [lo, hi] (0 < lo < hi): the 1, 2, 5 × 10^k inside when there are at least three
 * (all labelled), otherwise every integer mantissa (d3 scaleLog's ticks) with labels on 1, 2 and 5 (or on
 * all when none of those falls inside).
 */
export function logTicks(lo: number, hi: number): { value: number; label: boolean }[] {
  // A count above the decades spanned keeps d3 on its 1…9 × 10^k branch.
  const all = scaleLog().domain([lo, hi]).ticks(Math.ceil(Math.log10(hi / lo)) + 2);
  const mantissa = (v: number) => Math.round(v / 10 ** Math.floor(Math.log10(v) + 1e-9));
  const coarse = all.filter((v) => [1, 2, 5].includes(mantissa(v)));
  if (coarse.length >= 3) return coarse.map((value) => ({ value, label: true }));
  return all.map((value) => ({ value, label: coarse.length === 0 || [1, 2, 5].includes(mantissa(value)) }));
}

// ---- formats ------------------------------------------------------------------------------------------

/** d3-format with an ASCII minus (d3's default locale writes U+2212), for labels that read like String(n). */
const ascii = formatLocale({ decimal: '.', thousands: ',', grouping: [3], currency: ['', ''], minus: '-' });
const plain10 = ascii.format('.10~r');
const expo6 = ascii.format('.6~e');
const fixed2 = ascii.format('.2~f');
const fixed3 = ascii.format('.3~f');
const grouped = ascii.format(',');
const grouped1 = ascii.format(',.1f');
const percent0 = ascii.format('.0%');
const percent1 = ascii.format('.1%');
const sig2 = ascii.format('.2~r');
const signed2 = d3format('+.2~r');
const signedExp1 = d3format('+.1e');

/** Short label: plain decimals in [1e-3, 1e5) (up to 10 significant digits), otherwise 1e-4 / 2.5e-5 / 1.2e5. */
export function formatTick(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  return a >= 1e-3 && a < 1e5 ? plain10(v) : expo6(v).replace('e+', 'e');
}

/** An axis tick label: integers as they are, others with at most 2 decimals, float noise trimmed. */
export function tickLabel(v: number): string {
  return fixed2(v);
}

/** Two significant digits, trailing zeros trimmed (0.0005, 0.02, 0.1). */
export function formatSig2(v: number): string {
  return sig2(v);
}

/** A signed difference: "+0.1", "−0.25" (U+2212), "0"; outside [1e-3, 1e4) as "+2.0e−5". */
export function formatSigned(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  return a >= 1e-3 && a < 1e4 ? signed2(v) : signedExp1(v).replace('e-', 'e−');
}

/** Integers with thousands separators (rounded first): 1234.6 → "1,235". */
export function formatInt(n: number): string {
  return grouped(Math.round(n));
}

/** One decimal with thousands separators: 1234.56 → "1,234.6". */
export function formatTenths(n: number): string {
  return grouped1(n);
}

/** A fraction as a whole percentage: 0.25 → "25%". */
export function formatPercent0(x: number): string {
  return percent0(x);
}

/** A fraction as a percentage with one decimal: 0.86443 → "86.4%". */
export function formatPercent1(x: number): string {
  return percent1(x);
}

/**
 * Labels for one axis's ticks, all in the unit the largest tick needs so that an axis never mixes "8,000"
 * with "10k": below 10,000 as they are (with separators), then k, M or B with at most 3 decimals.
 */
export function tickFormatter(ticks: readonly number[]): (v: number) => string {
  const top = ticks.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  const [d, unit] = top < 10_000 ? [1, ''] : top < 1e6 ? [1e3, 'k'] : top < 1e9 ? [1e6, 'M'] : [1e9, 'B'];
  return (v) => {
    if (v === 0) return '0';
    if (d === 1) return Number.isInteger(v) ? grouped(v) : fixed2(v);
    return fixed3(v / d) + unit;
  };
}
