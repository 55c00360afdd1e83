// Axes of the Step tab's K/V-growth chart: tokens in the cache on x, bytes on y, through lib/view/scale's
// nice axes (d3 maps underneath). Bytes are labelled in one binary unit per axis (B, KiB, MiB, GiB) chosen
// from the axis's top, with nice steps in that unit, so the ticks read 0 / 250 KiB / 500 KiB / … rather than
// 244.1 KiB. Pure TS: no DOM, no React.
import { formatInt, linearMap, niceAxis, tickLabel, ticksInside } from './scale';

export interface AxisTick {
  value: number;
  label: string;
}

export interface ChartAxis {
  /** Domain end (≥ the data's largest value); the domain starts at 0. */
  hi: number;
  ticks: AxisTick[];
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/** A byte axis from 0 to at least `max` bytes with about `n` ticks, in the binary unit the top needs. */
export function bytesAxis(max: number, n = 5): ChartAxis {
  const top = Math.max(1, max);
  let u = 0;
  while (top / 1024 ** u >= 1024 && u < BYTE_UNITS.length - 1) u++;
  const unit = 1024 ** u;
  const a = niceAxis(0, top / unit, n, u === 0);
  return { hi: a.hi * unit, ticks: a.ticks.map((v) => ({ value: v * unit, label: v === 0 ? '0' : `${tickLabel(v)} ${BYTE_UNITS[u]}` })) };
}

/**
 * A token-count axis from 0 to exactly `max` (the timeline's end, where the projection ends) with about `n`
 * whole-number ticks at nice values inside it.
 */
export function tokensAxis(max: number, n = 6): ChartAxis {
  const hi = Math.max(1, Math.floor(max));
  const ticks = ticksInside(0, hi, n).filter((v) => Number.isInteger(v));
  return { hi, ticks: ticks.map((v) => ({ value: v, label: formatInt(v) })) };
}

export interface GrowthChartGeometry {
  x: (tokens: number) => number;
  y: (bytes: number) => number;
  xAxis: ChartAxis;
  yAxis: ChartAxis;
}

/**
 * Maps of the K/V-growth chart: x over tokensAxis(total), y over bytesAxis(bytes at `total`), into the plot
 * box [left, right] × [bottom, top] (SVG y grows downward, so bottom > top).
 */
export function growthChartGeometry(total: number, maxBytes: number, box: { left: number; right: number; top: number; bottom: number }): GrowthChartGeometry {
  const xAxis = tokensAxis(total);
  const yAxis = bytesAxis(maxBytes);
  return { x: linearMap(0, xAxis.hi, box.left, box.right), y: linearMap(0, yAxis.hi, box.bottom, box.top), xAxis, yAxis };
}
