// Colour maps (matplotlib's viridis, magma, cividis as 256-entry RGB tables), colour scales (linear, log,
// power) with legend ticks, and painting a matrix into RGBA pixels. Pure TS: no DOM, no React, no I/O.
// Scales, ticks and labels come from lib/view/scale (d3); the viridis and magma tables from d3-scale-chromatic.
import { interpolateMagma, interpolateViridis } from 'd3-scale-chromatic';
import { decadeTicks, formatTick, ticksInside, unitMap } from './scale';

export { formatTick } from './scale';

/** The perceptually uniform, colour-blind-safe maps offered for heatmaps; viridis is the default. */
export type ColormapName = 'viridis' | 'magma' | 'cividis';
export const COLORMAP_NAMES: readonly ColormapName[] = ['viridis', 'magma', 'cividis'];
export const DEFAULT_COLORMAP: ColormapName = 'viridis';

/**
 * matplotlib's cividis (_cm_listed.py _cividis_data), 256 entries rounded to 8 bits, hex RRGGBB; entry i is
 * the colour of t = i/255. Kept as a table: d3-scale-chromatic's cividis is a polynomial fit that differs from
 * it in 251 of 256 entries (by up to 19/255), and painted pixels are compared byte for byte.
 */
const CIVIDIS = [
  '00224e00234f00245100255300255400265600275800285900285b00295d002a5f002a61002b62002c64002c66002d68',
  '002e6a002e6c002f6d00306f0030700031700031710132710533710833700c34700f357012357014367016377018376f',
  '1a386f1c396f1e3a6f203a6f213b6e233c6e243c6e263d6e273e6e293f6e2a3f6d2b406d2d416d2e416d2f426d31436d',
  '32436d33446d34456c35456c36466c38476c39486c3a486c3b496c3c4a6c3d4a6c3e4b6c3f4c6c404c6c414d6c424e6c',
  '434e6c444f6c45506c46516c47516c48526c49536c4a536c4b546c4c556c4d556c4e566c4f576c50576c51586d52596d',
  '535a6d545a6d555b6d555c6d565c6d575d6d585e6d595e6e5a5f6e5b606e5c616e5d616e5e626e5e636f5f636f60646f',
  '61656f62656f636670646770656870656870666970676a71686a71696b716a6c716b6d726c6d726c6e726d6f726e6f73',
  '6f70737071737172747272747273747374757474757575757676767777767777777878777979777a7a787b7a787c7b78',
  '7d7c787e7c787e7d787f7e78807f78817f788280798381798482798582798683798784788885788985788a86788b8778',
  '8c88788d88788e89788f8a78908b78918b78928c78928d78938e78948e77958f779690779791779892779992779a9376',
  '9b94769c95769d95769e96769f9775a09875a19975a29975a39a74a49b74a59c74a69c74a79d73a89e73a99f73aaa073',
  'aba072aca172ada272aea371afa471b0a571b1a570b3a670b4a76fb5a86fb6a96fb7a96eb8aa6eb9ab6dbaac6dbbad6d',
  'bcae6cbdae6cbeaf6bbfb06bc0b16ac1b26ac2b369c3b369c4b468c5b568c6b667c7b767c8b866c9b965cbb965ccba64',
  'cdbb63cebc63cfbd62d0be62d1bf61d2c060d3c05fd4c15fd5c25ed6c35dd7c45cd9c55cdac65bdbc75adcc859ddc858',
  'dec958dfca57e0cb56e1cc55e2cd54e4ce53e5cf52e6d051e7d150e8d24fe9d34eead34cebd44bedd54aeed649efd748',
  'f0d846f1d945f2da44f3db42f5dc41f6dd3ff7de3ef8df3cf9e03afbe138fce236fde334fee434fee535fee636fee838',
].join('');

/**
 * The hex table of a map: viridis and magma are d3-scale-chromatic's, which are matplotlib's 256 entries
 * (its ramp returns entry floor(t · 256), so sampling at (i + 0.5) / 256 reads entry i).
 */
function table(name: ColormapName): string | undefined {
  const ramp = name === 'viridis' ? interpolateViridis : name === 'magma' ? interpolateMagma : undefined;
  if (ramp) return Array.from({ length: 256 }, (_, i) => ramp((i + 0.5) / 256).slice(1)).join('');
  return name === 'cividis' ? CIVIDIS : undefined;
}

export interface Colormap {
  name: ColormapName;
  /** 256 × [r, g, b], 0…255. */
  lut: Uint8Array;
}

const cache = new Map<ColormapName, Colormap>();

/** The named map's lookup table (decoded once, then shared; do not write into `lut`). */
export function colormap(name: ColormapName = DEFAULT_COLORMAP): Colormap {
  let m = cache.get(name);
  if (m) return m;
  const hex = table(name);
  if (hex === undefined) throw new Error(`unknown colour map '${name}' (known: ${COLORMAP_NAMES.join(', ')})`);
  const lut = new Uint8Array(256 * 3);
  for (let i = 0; i < lut.length; i++) lut[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  m = { name, lut };
  cache.set(name, m);
  return m;
}

/** LUT index of t ∈ [0, 1] as matplotlib does it: floor(t · 256), clamped to 0…255 (NaN → 0). */
export function lutIndex(t: number): number {
  const i = Math.floor(t * 256);
  return i > 255 ? 255 : i >= 0 ? i : 0;
}

/** Colour of t ∈ [0, 1] (clamped) as [r, g, b]. */
export function sampleColormap(map: Colormap | ColormapName, t: number): [number, number, number] {
  const lut = (typeof map === 'string' ? colormap(map) : map).lut;
  const o = lutIndex(t) * 3;
  return [lut[o]!, lut[o + 1]!, lut[o + 2]!];
}

/** '#rrggbb' of an [r, g, b] triple. */
export function rgbHex(rgb: readonly number[]): string {
  return '#' + rgb.slice(0, 3).map((x) => Math.round(x).toString(16).padStart(2, '0')).join('');
}

// ---- scales -------------------------------------------------------------------------------------------

export type ScaleKind = 'linear' | 'log' | 'power';

export interface ScaleSpec {
  kind: ScaleKind;
  /** Exponent of the power scale (default 0.5: lifts small values). */
  gamma?: number;
  min: number;
  max: number;
  /** Log scale: values below this are drawn as this (default 1e-4 × max, or 1e-6 when max ≤ 0). */
  logFloor?: number;
}

export interface Scale {
  kind: ScaleKind;
  min: number;
  max: number;
  gamma: number;
  /** The log floor in effect (log scale only; 0 otherwise). */
  logFloor: number;
  /**
   * Maps a value to [0, 1], clamped. linear: (v − min)/(max − min). log: the same on log10 of
   * max(v, floor), with the low end at max(min, floor). power: linear, then ^gamma. A degenerate range
   * (max ≤ min) maps everything to 0; NaN maps to 0 (paintRgba draws non-finite values grey instead).
   */
  norm: (v: number) => number;
}

export const DEFAULT_GAMMA = 0.5;

export function defaultLogFloor(max: number): number {
  return max > 0 ? 1e-4 * max : 1e-6;
}

export function makeScale(spec: ScaleSpec): Scale {
  const { kind, min, max } = spec;
  if (!Number.isFinite(min) || !Number.isFinite(max)) throw new Error(`scale range must be finite, got [${min}, ${max}]`);
  const gamma = spec.gamma ?? DEFAULT_GAMMA;
  if (kind === 'linear' || kind === 'power') {
    if (kind === 'power' && !(gamma > 0)) throw new Error(`power scale needs gamma > 0, got ${gamma}`);
    const g = kind === 'power' ? gamma : 1;
    return { kind, min, max, gamma: g, logFloor: 0, norm: unitMap(min, max, g) };
  }
  if (kind === 'log') {
    const floor = spec.logFloor ?? defaultLogFloor(max);
    if (!(floor > 0)) throw new Error(`log scale needs a positive floor, got ${floor}`);
    // A linear map over log10 values (not d3's scaleLog, whose natural logs round differently).
    const lin = unitMap(Math.log10(Math.max(min, floor)), Math.log10(Math.max(max, floor)));
    const norm = (v: number): number => lin(Math.log10(v > floor ? v : floor));
    return { kind, min, max, gamma: 1, logFloor: floor, norm };
  }
  throw new Error(`unknown scale kind '${kind as string}'`);
}

// ---- legend ticks -------------------------------------------------------------------------------------

export interface Tick {
  value: number;
  /** Position on the legend, scale.norm(value). */
  t: number;
  label: string;
}

/**
 * About `n` (≥ 2) legend ticks at nice values inside the scale's range, lowest first (lib/view/scale):
 * linear / power: ticksInside (multiples of 1, 2, 2.5 or 5 × 10^k; positions follow the power curve); log:
 * decadeTicks between the low end (max(min, floor)) and max. A degenerate range gives one tick at min.
 */
export function ticks(scale: Scale, n = 5): Tick[] {
  const mk = (value: number): Tick => ({ value, t: scale.norm(value), label: formatTick(value) });
  if (scale.kind === 'log') {
    const lowV = Math.max(scale.min, scale.logFloor);
    const highV = Math.max(scale.max, scale.logFloor);
    if (!(highV > lowV)) return [mk(scale.min)];
    return decadeTicks(lowV, highV, n).map(mk);
  }
  return ticksInside(scale.min, scale.max, n).map(mk);
}

// ---- painting -----------------------------------------------------------------------------------------

/** Colour of masked cells (e.g. the future half of causal attention) and of non-finite values. */
export const MASK_RGB: readonly [number, number, number] = [224, 224, 224];

/**
 * Writes rows × cols RGBA pixels (row-major, alpha 255) for a row-major matrix: colour = map at
 * scale.norm(value); cells where mask(r, c) is true, and NaN/±Infinity, are MASK_RGB. No per-cell
 * allocation; `out` must hold at least rows · cols · 4 bytes.
 */
export function paintRgba(
  values: Float32Array,
  rows: number,
  cols: number,
  scale: Scale,
  map: Colormap | ColormapName,
  out: Uint8ClampedArray,
  mask?: (r: number, c: number) => boolean,
): Uint8ClampedArray {
  const n = rows * cols;
  if (values.length < n) throw new Error(`paintRgba: ${values.length} values for a ${rows}×${cols} matrix`);
  if (out.length < n * 4) throw new Error(`paintRgba: output holds ${out.length} bytes, needs ${n * 4}`);
  const lut = (typeof map === 'string' ? colormap(map) : map).lut;
  const norm = scale.norm;
  const [gr, gg, gb] = MASK_RGB;
  let i = 0;
  let o = 0;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++, i++, o += 4) {
      const v = values[i]!;
      if ((mask !== undefined && mask(r, c)) || !Number.isFinite(v)) {
        out[o] = gr;
        out[o + 1] = gg;
        out[o + 2] = gb;
      } else {
        const l = lutIndex(norm(v)) * 3;
        out[o] = lut[l]!;
        out[o + 1] = lut[l + 1]!;
        out[o + 2] = lut[l + 2]!;
      }
      out[o + 3] = 255;
    }
  }
  return out;
}
