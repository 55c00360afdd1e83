// Conversions between float32, float16 and bfloat16 bit patterns over whole arrays, with integer ops only
// and no allocation per element: a 0.6B-parameter checkpoint is 600 M values, and the first version (one
// Float32Array per value) made building its graph take minutes (docs/BENCHMARKS.md, "Loading a checkpoint").

/** float32 bits → float16 bits, round to nearest even (as numpy and torch do); NaN stays NaN, overflow → ±Inf. */
function f32BitsToF16(u: number): number {
  const sign = (u >>> 16) & 0x8000;
  const exp = (u >>> 23) & 0xff;
  let mant = u & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let half = mant >> shift;
    const rem = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    if (rem > mid || (rem === mid && half & 1)) half++;
    return sign | half;
  }
  let half = (e << 10) | (mant >> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && half & 1)) half++;
  return sign | half;
}

/** float32 values → float16 bits (round to nearest even). */
export function f32ToF16Bits(values: Float32Array, out = new Uint16Array(values.length)): Uint16Array {
  const u = new Uint32Array(values.buffer, values.byteOffset, values.length);
  for (let i = 0; i < u.length; i++) out[i] = f32BitsToF16(u[i]!);
  return out;
}

/** bfloat16 bits → float16 bits (round to nearest even; values beyond ±65504 become ±Inf). */
export function bf16ToF16Bits(bits: Uint16Array, out = new Uint16Array(bits.length)): Uint16Array {
  for (let i = 0; i < bits.length; i++) out[i] = f32BitsToF16(bits[i]! << 16);
  return out;
}

/** How many finite values became ±Inf in a float16 conversion (`src` float32 bits or bfloat16 bits, `out` float16 bits). */
export function f16Overflows(out: Uint16Array, srcIsFinite: (i: number) => boolean): number {
  let n = 0;
  for (let i = 0; i < out.length; i++) if ((out[i]! & 0x7fff) === 0x7c00 && srcIsFinite(i)) n++;
  return n;
}

/** float32 values → bfloat16 bits (round to nearest even, as torch's `.to(torch.bfloat16)`). */
export function f32ToBf16Bits(values: Float32Array, out = new Uint16Array(values.length)): Uint16Array {
  const u = new Uint32Array(values.buffer, values.byteOffset, values.length);
  for (let i = 0; i < u.length; i++) {
    const x = u[i]!;
    if ((x & 0x7f800000) === 0x7f800000 && x & 0x7fffff) out[i] = (x >>> 16) | 0x40; // quiet NaN
    else out[i] = ((x + 0x7fff + ((x >>> 16) & 1)) >>> 16) & 0xffff;
  }
  return out;
}

let f16Table: Float32Array | undefined;
/** The 65,536 float16 values as float32 (256 KiB, built once): decoding is then a lookup. */
function halfTable(): Float32Array {
  if (f16Table) return f16Table;
  const t = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const s = h & 0x8000 ? -1 : 1;
    const e = (h >> 10) & 0x1f;
    const f = h & 0x3ff;
    t[h] = e === 0 ? s * f * 2 ** -24 : e === 31 ? (f ? NaN : s * Infinity) : s * (1 + f / 1024) * 2 ** (e - 15);
  }
  return (f16Table = t);
}

/** float16 bits → float32 values (exact). */
export function f16BitsToF32(bits: Uint16Array, out = new Float32Array(bits.length)): Float32Array {
  const t = halfTable();
  for (let i = 0; i < bits.length; i++) out[i] = t[bits[i]!]!;
  return out;
}

/** bfloat16 bits → float32 values (exact: bfloat16 is the top half of a float32). */
export function bf16BitsToF32(bits: Uint16Array, out = new Float32Array(bits.length)): Float32Array {
  const u = new Uint32Array(out.buffer, out.byteOffset, out.length);
  for (let i = 0; i < bits.length; i++) u[i] = bits[i]! << 16;
  return out;
}

/** A little-endian uint16 view of `bytes`, copying only when the offset is odd (typed arrays need alignment). */
export function u16View(bytes: Uint8Array): Uint16Array {
  if (bytes.byteOffset % 2 === 0) return new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 1);
  return new Uint16Array(bytes.slice().buffer);
}

/** A float32 view of `bytes`, copying only when the offset is not a multiple of 4. */
export function f32View(bytes: Uint8Array): Float32Array {
  if (bytes.byteOffset % 4 === 0) return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2);
  return new Float32Array(bytes.slice().buffer);
}
