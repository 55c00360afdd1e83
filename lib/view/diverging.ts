// A diverging colour scale for signed differences (B − A): symmetric around 0, neutral at 0, blue below and
// red above (Paul Tol's colour-blind-safe BuRd scheme, the ColorBrewer RdBu 9-class colours), linear or
// with a sign-preserving power that lifts small differences; legend ticks; painting into RGBA pixels.
// Pure TS: no DOM, no React, no I/O. The stops come from d3-scale-chromatic, the piecewise colour map and
// the magnitude scale from d3-scale (lib/view/scale), the ticks and labels from lib/view/scale.
import { scaleLinear } from 'd3-scale';
import { schemeRdBu } from 'd3-scale-chromatic';
import { MASK_RGB } from './colormap';
import { formatSigned, ticksInside, unitMap } from './scale';
import { hexRgb, paintCells, poolMatrix } from './raster';

/** Tol's BuRd (ColorBrewer RdBu, 9 classes) from −1 (blue) through 0 (near white) to +1 (red). */
export const DIVERGING_STOPS: readonly string[] = [...schemeRdBu[9]!].reverse();

type Rgb = [number, number, number];

/** The stops at −1, −0.75, …, +1, each channel interpolated linearly and rounded (d3 piecewise scaleLinear). */
const ramp = scaleLinear<Rgb, Rgb>()
  .domain(DIVERGING_STOPS.map((_, i) => -1 + (2 * i) / (DIVERGING_STOPS.length - 1)))
  .range(DIVERGING_STOPS.map(hexRgb))
  .interpolate((a, b) => (f) => [Math.round(a[0] + (b[0] - a[0]) * f), Math.round(a[1] + (b[1] - a[1]) * f), Math.round(a[2] + (b[2] - a[2]) * f)])
  .clamp(true);

/** Colour of u ∈ [−1, 1] (clamped; NaN → neutral), linearly interpolated between the stops. */
export function divergingRgb(u: number): [number, number, number] {
  return ramp(Number.isNaN(u) ? 0 : u);
}

export interface DivergingScale {
  /** Values at ±max get the end colours; larger magnitudes are clamped. */
  max: number;
  /** 1: linear; < 1 lifts small differences: u = sign(v) · (|v| / max)^gamma. */
  gamma: number;
  /** v → u ∈ [−1, 1]; a max ≤ 0 maps everything to 0. */
  norm: (v: number) => number;
}

export function makeDivergingScale(max: number, gamma = 1): DivergingScale {
  if (!Number.isFinite(max) || max < 0) throw new RangeError(`diverging scale needs a finite max ≥ 0, got ${max}`);
  if (!(gamma > 0)) throw new RangeError(`diverging scale needs gamma > 0, got ${gamma}`);
  const magnitude = unitMap(0, max, gamma);
  const norm = (v: number) => {
    if (!Number.isFinite(v)) return 0;
    const u = magnitude(Math.abs(v));
    return v < 0 ? -u : u;
  };
  return { max, gamma, norm };
}

export interface DivergingTick {
  value: number;
  /** Position on a legend from 0 (left, −max) to 1 (right, +max). */
  t: number;
  label: string;
}

/** About five nice ticks from −max to +max (positions follow the scale's power curve). A max of 0 gives one tick at 0. */
export function divergingTicks(scale: DivergingScale): DivergingTick[] {
  if (!(scale.max > 0)) return [{ value: 0, t: 0.5, label: '0' }];
  return ticksInside(-scale.max, scale.max, 5).map((value) => ({ value, t: (scale.norm(value) + 1) / 2, label: formatSigned(value) }));
}

/** Colour of masked cells and non-finite values: lib/view/colormap's MASK_RGB. */
export const DIVERGING_MASK_RGB: readonly [number, number, number] = MASK_RGB;

/** Writes rows × cols RGBA pixels (alpha 255) for row-major signed values; non-finite values are grey. */
export function paintDiverging(values: Float32Array, rows: number, cols: number, scale: DivergingScale, out: Uint8ClampedArray): Uint8ClampedArray {
  const n = rows * cols;
  if (values.length < n) throw new RangeError(`paintDiverging: ${values.length} values for a ${rows}×${cols} matrix`);
  if (out.length < n * 4) throw new RangeError(`paintDiverging: output holds ${out.length} bytes, needs ${n * 4}`);
  return paintCells(rows, cols, out, (r, c) => {
    const v = values[r * cols + c]!;
    return Number.isFinite(v) ? divergingRgb(scale.norm(v)) : MASK_RGB;
  });
}

/**
 * Pools `values` (rows × cols, row-major) to rows × outCols keeping, per output column, the value of largest
 * magnitude (lib/view/raster poolMatrix 'maxAbs'). outCols ≥ cols returns a copy.
 */
export function poolSignedColumns(values: Float32Array, rows: number, cols: number, outCols: number): Float32Array {
  if (outCols >= cols) return values.slice(0, rows * cols);
  return poolMatrix(values, rows, cols, rows, outCols, 'maxAbs').data;
}
