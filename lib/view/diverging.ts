// A diverging colour scale for signed differences (B − A): symmetric around 0, neutral at 0, blue below and
// red above (Paul Tol's colour-blind-safe BuRd scheme, the ColorBrewer RdBu 9-class colours), linear or
// with a sign-preserving power that lifts small differences; legend ticks; painting into RGBA pixels.
// Pure TS: no DOM, no React, no I/O.

/** Tol's BuRd (ColorBrewer RdBu, 9 classes) from −1 (blue) through 0 (near white) to +1 (red). */
export const DIVERGING_STOPS: readonly string[] = ['#2166ac', '#4393c3', '#92c5de', '#d1e5f0', '#f7f7f7', '#fddbc7', '#f4a582', '#d6604d', '#b2182b'];

const STOPS_RGB = DIVERGING_STOPS.map((h) => [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16)] as const);

/** Colour of u ∈ [−1, 1] (clamped; NaN → neutral), linearly interpolated between the stops. */
export function divergingRgb(u: number): [number, number, number] {
  const x = Number.isNaN(u) ? 0 : Math.max(-1, Math.min(1, u));
  const pos = ((x + 1) / 2) * (STOPS_RGB.length - 1);
  const i = Math.min(STOPS_RGB.length - 2, Math.floor(pos));
  const f = pos - i;
  const a = STOPS_RGB[i]!;
  const b = STOPS_RGB[i + 1]!;
  return [Math.round(a[0] + (b[0] - a[0]) * f), Math.round(a[1] + (b[1] - a[1]) * f), Math.round(a[2] + (b[2] - a[2]) * f)];
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
  const norm = (v: number) => {
    if (!(max > 0) || !Number.isFinite(v)) return 0;
    const m = Math.min(1, Math.abs(v) / max);
    const u = gamma === 1 ? m : Math.pow(m, gamma);
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

function label(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  const s = a >= 1e-3 && a < 1e4 ? String(Number(v.toPrecision(2))) : v.toExponential(1).replace('e-', 'e−');
  return v > 0 ? '+' + s : s.replace('-', '−');
}

/** Ticks −max, −max/2, 0, +max/2, +max (positions follow the scale's power curve). A max of 0 gives one tick at 0. */
export function divergingTicks(scale: DivergingScale): DivergingTick[] {
  if (!(scale.max > 0)) return [{ value: 0, t: 0.5, label: '0' }];
  return [-1, -0.5, 0, 0.5, 1].map((f) => {
    const value = f * scale.max;
    return { value, t: (scale.norm(value) + 1) / 2, label: label(value) };
  });
}

/** Colour of masked cells and non-finite values (the same grey as lib/view/colormap's MASK_RGB). */
export const DIVERGING_MASK_RGB: readonly [number, number, number] = [224, 224, 224];

/** Writes rows × cols RGBA pixels (alpha 255) for row-major signed values; non-finite values are grey. */
export function paintDiverging(values: Float32Array, rows: number, cols: number, scale: DivergingScale, out: Uint8ClampedArray): Uint8ClampedArray {
  const n = rows * cols;
  if (values.length < n) throw new RangeError(`paintDiverging: ${values.length} values for a ${rows}×${cols} matrix`);
  if (out.length < n * 4) throw new RangeError(`paintDiverging: output holds ${out.length} bytes, needs ${n * 4}`);
  for (let i = 0, o = 0; i < n; i++, o += 4) {
    const v = values[i]!;
    const [r, g, b] = Number.isFinite(v) ? divergingRgb(scale.norm(v)) : DIVERGING_MASK_RGB;
    out[o] = r;
    out[o + 1] = g;
    out[o + 2] = b;
    out[o + 3] = 255;
  }
  return out;
}

/**
 * Pools `values` (rows × cols, row-major) to rows × outCols by keeping, per output column, the value of
 * largest magnitude among the columns it covers (so a single strong difference never disappears). NaN is
 * skipped; an output column with only NaN is NaN. outCols ≥ cols returns a copy.
 */
export function poolSignedColumns(values: Float32Array, rows: number, cols: number, outCols: number): Float32Array {
  if (outCols >= cols) return values.slice(0, rows * cols);
  const out = new Float32Array(rows * outCols);
  for (let r = 0; r < rows; r++) {
    for (let x = 0; x < outCols; x++) {
      const c0 = Math.floor((x * cols) / outCols);
      const c1 = Math.max(c0 + 1, Math.floor(((x + 1) * cols) / outCols));
      let best = NaN;
      for (let c = c0; c < c1; c++) {
        const v = values[r * cols + c]!;
        if (Number.isNaN(v)) continue;
        if (Number.isNaN(best) || Math.abs(v) > Math.abs(best)) best = v;
      }
      out[r * outCols + x] = best;
    }
  }
  return out;
}
