// Colour maps (matplotlib's viridis, magma, cividis as 256-entry RGB tables), colour scales (linear, log,
// power) with legend ticks, and painting a matrix into RGBA pixels. Pure TS: no DOM, no React, no I/O.

/** The perceptually uniform, colour-blind-safe maps offered for heatmaps; viridis is the default. */
export type ColormapName = 'viridis' | 'magma' | 'cividis';
export const COLORMAP_NAMES: readonly ColormapName[] = ['viridis', 'magma', 'cividis'];
export const DEFAULT_COLORMAP: ColormapName = 'viridis';

/**
 * matplotlib's listed colormaps (_cm_listed.py: _viridis_data, _magma_data, _cividis_data), all 256
 * entries, each channel rounded to 8 bits and written as hex RRGGBB. Entry i is the colour of t = i/255.
 */
const TABLES: Record<ColormapName, string> = {
  viridis: [
    '44015444025645045745055946075a46085c460a5d460b5e470d60470e61471063471164471365481467481668481769',
    '48186a481a6c481b6d481c6e481d6f481f70482071482173482374482475482576482677482878482979472a7a472c7a',
    '472d7b472e7c472f7d46307e46327e46337f463480453581453781453882443983443a83443b84433d84433e85423f85',
    '4240864241864142874144874045884046883f47883f48893e49893e4a893e4c8a3d4d8a3d4e8a3c4f8a3c508b3b518b',
    '3b528b3a538b3a548c39558c39568c38588c38598c375a8c375b8d365c8d365d8d355e8d355f8d34608d34618d33628d',
    '33638d32648e32658e31668e31678e31688e30698e306a8e2f6b8e2f6c8e2e6d8e2e6e8e2e6f8e2d708e2d718e2c718e',
    '2c728e2c738e2b748e2b758e2a768e2a778e2a788e29798e297a8e297b8e287c8e287d8e277e8e277f8e27808e26818e',
    '26828e26828e25838e25848e25858e24868e24878e23888e23898e238a8d228b8d228c8d228d8d218e8d218f8d21908d',
    '21918c20928c20928c20938c1f948c1f958b1f968b1f978b1f988b1f998a1f9a8a1e9b8a1e9c891e9d891f9e891f9f88',
    '1fa0881fa1881fa1871fa28720a38620a48621a58521a68522a78522a88423a98324aa8325ab8225ac8226ad8127ad81',
    '28ae8029af7f2ab07f2cb17e2db27d2eb37c2fb47c31b57b32b67a34b67935b77937b87838b9773aba763bbb753dbc74',
    '3fbc7340bd7242be7144bf7046c06f48c16e4ac16d4cc26c4ec36b50c46a52c56954c56856c66758c7655ac8645cc863',
    '5ec96260ca6063cb5f65cb5e67cc5c69cd5b6ccd5a6ece5870cf5773d05675d05477d1537ad1517cd2507fd34e81d34d',
    '84d44b86d54989d5488bd6468ed64590d74393d74195d84098d83e9bd93c9dd93ba0da39a2da37a5db36a8db34aadc32',
    'addc30b0dd2fb2dd2db5de2bb8de29bade28bddf26c0df25c2df23c5e021c8e020cae11fcde11dd0e11cd2e21bd5e21a',
    'd8e219dae319dde318dfe318e2e418e5e419e7e419eae51aece51befe51cf1e51df4e61ef6e620f8e621fbe723fde725',
  ].join(''),
  magma: [
    '00000401000501010601010802010902020b02020d03030f03031204041405041606051806051a07061c08071e090720',
    '0a08220b09240c09260d0a290e0b2b100b2d110c2f120d31130d34140e36150e38160f3b180f3d19103f1a10421c1044',
    '1d11471e114920114b21114e22115024125325125527125829115a2a115c2c115f2d11612f1163311165331067341069',
    '36106b38106c390f6e3b0f703d0f713f0f72400f74420f75440f764510774710784910784a10794c117a4e117b4f127b',
    '51127c52137c54137d56147d57157e59157e5a167e5c167f5d177f5f187f601880621980641a80651a80671b80681c81',
    '6a1c816b1d816d1d816e1e81701f81721f817320817521817621817822817922827b23827c23827e2482802582812581',
    '8326818426818627818827818928818b29818c29818e2a81902a81912b81932b80942c80962c80982d80992d809b2e7f',
    '9c2e7f9e2f7fa02f7fa1307ea3307ea5317ea6317da8327daa337dab337cad347cae347bb0357bb2357bb3367ab5367a',
    'b73779b83779ba3878bc3978bd3977bf3a77c03a76c23b75c43c75c53c74c73d73c83e73ca3e72cc3f71cd4071cf4070',
    'd0416fd2426fd3436ed5446dd6456cd8456cd9466bdb476adc4869de4968df4a68e04c67e24d66e34e65e44f64e55064',
    'e75263e85362e95462ea5661eb5760ec5860ed5a5fee5b5eef5d5ef05f5ef1605df2625df2645cf3655cf4675cf4695c',
    'f56b5cf66c5cf66e5cf7705cf7725cf8745cf8765cf9785df9795df97b5dfa7d5efa7f5efa815ffb835ffb8560fb8761',
    'fc8961fc8a62fc8c63fc8e64fc9065fd9266fd9467fd9668fd9869fd9a6afd9b6bfe9d6cfe9f6dfea16efea36ffea571',
    'fea772fea973feaa74feac76feae77feb078feb27afeb47bfeb67cfeb77efeb97ffebb81febd82febf84fec185fec287',
    'fec488fec68afec88cfeca8dfecc8ffecd90fecf92fed194fed395fed597fed799fed89afdda9cfddc9efddea0fde0a1',
    'fde2a3fde3a5fde5a7fde7a9fde9aafdebacfcecaefceeb0fcf0b2fcf2b4fcf4b6fcf6b8fcf7b9fcf9bbfcfbbdfcfdbf',
  ].join(''),
  cividis: [
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
  ].join(''),
};

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
  const hex = TABLES[name];
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
    const span = max - min;
    const lin = (v: number): number => {
      if (!(span > 0)) return 0;
      const t = (v - min) / span;
      return t > 1 ? 1 : t >= 0 ? t : 0;
    };
    const norm = kind === 'linear' ? lin : gamma === 1 ? lin : (v: number) => Math.pow(lin(v), gamma);
    return { kind, min, max, gamma: kind === 'power' ? gamma : 1, logFloor: 0, norm };
  }
  if (kind === 'log') {
    const floor = spec.logFloor ?? defaultLogFloor(max);
    if (!(floor > 0)) throw new Error(`log scale needs a positive floor, got ${floor}`);
    const lo = Math.log10(Math.max(min, floor));
    const hi = Math.log10(Math.max(max, floor));
    const span = hi - lo;
    const norm = (v: number): number => {
      if (!(span > 0)) return 0;
      const t = (Math.log10(v > floor ? v : floor) - lo) / span;
      return t > 1 ? 1 : t >= 0 ? t : 0;
    };
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

/** Short label: plain decimals in [1e-3, 1e5), otherwise 1e-4 / 2.5e-5 style; float noise trimmed. */
export function formatTick(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e-3 && a < 1e5) return String(Number(v.toPrecision(10)));
  const [mant, exp] = v.toExponential(6).split('e');
  return `${Number(Number(mant).toPrecision(6))}e${Number(exp)}`;
}

function niceStep(raw: number): number {
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const r = raw / mag;
  const m = r <= 1 ? 1 : r <= 2 ? 2 : r <= 2.5 ? 2.5 : r <= 5 ? 5 : 10;
  return m * mag;
}

/**
 * About `n` (≥ 2) legend ticks at nice values inside the scale's range, lowest first. linear / power:
 * multiples of 1, 2, 2.5 or 5 × 10^k (positions follow the power curve); log: powers of ten between the
 * low end (max(min, floor)) and max, thinned to at most n, or the two ends when no decade falls inside.
 * A degenerate range gives one tick at min.
 */
export function ticks(scale: Scale, n = 5): Tick[] {
  const count = Math.max(2, Math.floor(n));
  const mk = (value: number): Tick => ({ value, t: scale.norm(value), label: formatTick(value) });
  if (scale.kind === 'log') {
    const lowV = Math.max(scale.min, scale.logFloor);
    const highV = Math.max(scale.max, scale.logFloor);
    if (!(highV > lowV)) return [mk(scale.min)];
    const eps = 1e-9;
    const k0 = Math.ceil(Math.log10(lowV) - eps);
    const k1 = Math.floor(Math.log10(highV) + eps);
    if (k1 - k0 + 1 < 2) return [mk(lowV), mk(highV)];
    const stride = Math.ceil((k1 - k0 + 1) / count);
    const out: Tick[] = [];
    for (let k = k1; k >= k0; k -= stride) out.push(mk(Number(`1e${k}`)));
    return out.reverse();
  }
  const { min, max } = scale;
  if (!(max > min)) return [mk(min)];
  const step = niceStep((max - min) / (count - 1));
  const out: Tick[] = [];
  const first = Math.ceil(min / step - 1e-9);
  for (let i = first; i * step <= max + step * 1e-9; i++) out.push(mk(Number((i * step).toPrecision(12))));
  return out;
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
