// Reads the safetensors format (8-byte header length, JSON header, raw little-endian tensors) with
// bounds checks on the header and every tensor. Holds no model logic; never touches the DOM.

export type DType = 'F32' | 'F16' | 'BF16';
const BYTES: Record<DType, number> = { F32: 4, F16: 2, BF16: 2 };

export interface TensorInfo {
  dtype: DType;
  shape: number[];
  /** Byte range inside the data section (after the header). */
  begin: number;
  end: number;
}

export interface SafetensorsFile {
  tensors: Map<string, TensorInfo>;
  metadata: Record<string, string>;
  /** The data section (shares the input buffer). */
  data: Uint8Array;
}

export class SafetensorsError extends Error {
  constructor(message: string) {
    super(`safetensors: ${message}`);
    this.name = 'SafetensorsError';
  }
}

const MAX_HEADER = 100 * 1024 * 1024;

export function parseSafetensors(bytes: Uint8Array): SafetensorsFile {
  if (bytes.length < 8) throw new SafetensorsError(`file is ${bytes.length} bytes, shorter than the 8-byte header length`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = Number(view.getBigUint64(0, true));
  if (n > MAX_HEADER) throw new SafetensorsError(`header length ${n} exceeds ${MAX_HEADER} bytes`);
  if (8 + n > bytes.length) throw new SafetensorsError(`header claims ${n} bytes but the file has only ${bytes.length - 8} after the length (truncated?)`);
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, 8 + n)));
  } catch (e) {
    throw new SafetensorsError(`header is not valid JSON (${(e as Error).message})`);
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) throw new SafetensorsError('header is not a JSON object');
  const data = bytes.subarray(8 + n);
  const tensors = new Map<string, TensorInfo>();
  let metadata: Record<string, string> = {};
  for (const [name, raw] of Object.entries(header as Record<string, unknown>)) {
    if (name === '__metadata__') {
      metadata = raw as Record<string, string>;
      continue;
    }
    const info = raw as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    if (typeof info !== 'object' || info === null) throw new SafetensorsError(`${name}: entry is not an object`);
    if (typeof info.dtype !== 'string' || !(info.dtype in BYTES)) throw new SafetensorsError(`${name}: unsupported dtype ${JSON.stringify(info.dtype)} (supported: F32, F16, BF16)`);
    if (!Array.isArray(info.shape) || !info.shape.every((d) => Number.isInteger(d) && d >= 0)) throw new SafetensorsError(`${name}: shape must be a list of non-negative integers`);
    const off = info.data_offsets;
    if (!Array.isArray(off) || off.length !== 2 || !off.every((x) => Number.isInteger(x) && x >= 0)) throw new SafetensorsError(`${name}: data_offsets must be two non-negative integers`);
    const [begin, end] = off as [number, number];
    const dtype = info.dtype as DType;
    const shape = info.shape as number[];
    const expected = shape.reduce((a, b) => a * b, 1) * BYTES[dtype];
    if (end < begin || end - begin !== expected) throw new SafetensorsError(`${name}: ${end - begin} bytes for shape [${shape}] ${dtype}, expected ${expected}`);
    if (end > data.length) throw new SafetensorsError(`${name}: data ends at byte ${end} but the data section has ${data.length} bytes (truncated?)`);
    tensors.set(name, { dtype, shape, begin, end });
  }
  const ranges = [...tensors.entries()].sort((a, b) => a[1].begin - b[1].begin);
  for (let i = 1; i < ranges.length; i++) {
    if (ranges[i]![1].begin < ranges[i - 1]![1].end) throw new SafetensorsError(`${ranges[i]![0]} overlaps ${ranges[i - 1]![0]}`);
  }
  return { tensors, metadata, data };
}

function halfToFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * f * 2 ** -24;
  if (e === 31) return f ? NaN : s * Infinity;
  return s * (1 + f / 1024) * 2 ** (e - 15);
}

/** A tensor's values as float32 (F16 and BF16 are upcast exactly). */
export function readFloat32(file: SafetensorsFile, name: string): Float32Array {
  const info = file.tensors.get(name);
  if (!info) throw new SafetensorsError(`no tensor named ${name}`);
  const raw = file.data.subarray(info.begin, info.end);
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const n = (info.end - info.begin) / BYTES[info.dtype];
  const out = new Float32Array(n);
  if (info.dtype === 'F32') for (let i = 0; i < n; i++) out[i] = view.getFloat32(4 * i, true);
  else if (info.dtype === 'F16') for (let i = 0; i < n; i++) out[i] = halfToFloat(view.getUint16(2 * i, true));
  else {
    const u = new Uint32Array(1);
    const f = new Float32Array(u.buffer);
    for (let i = 0; i < n; i++) {
      u[0] = view.getUint16(2 * i, true) << 16;
      out[i] = f[0]!;
    }
  }
  return out;
}

function floatToHalf(x: number): number {
  // Round-to-nearest-even float32 → float16, as numpy/torch do.
  const f = new Float32Array([x]);
  const u = new Uint32Array(f.buffer)[0]!;
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

/** float32 values → IEEE half bit patterns (round to nearest even). */
export function toFloat16Bits(values: Float32Array): Uint16Array {
  const out = new Uint16Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = floatToHalf(values[i]!);
  return out;
}

/** Writes a safetensors file from float32 values, stored as F32 or F16. */
export function writeSafetensors(tensors: Map<string, { shape: number[]; values: Float32Array }>, dtype: 'F32' | 'F16' = 'F32'): Uint8Array {
  const header: Record<string, unknown> = {};
  let offset = 0;
  const parts: Uint8Array[] = [];
  for (const [name, t] of tensors) {
    const bytes = dtype === 'F32' ? new Uint8Array(t.values.slice().buffer) : new Uint8Array(toFloat16Bits(t.values).buffer);
    header[name] = { dtype, shape: t.shape, data_offsets: [offset, offset + bytes.length] };
    parts.push(bytes);
    offset += bytes.length;
  }
  let h = new TextEncoder().encode(JSON.stringify(header));
  const pad = (8 - (h.length % 8)) % 8; // keep the data section 8-byte aligned, as the Python writer does
  if (pad) h = new TextEncoder().encode(JSON.stringify(header) + ' '.repeat(pad));
  const out = new Uint8Array(8 + h.length + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(h.length), true);
  out.set(h, 8);
  let p = 8 + h.length;
  for (const b of parts) {
    out.set(b, p);
    p += b.length;
  }
  return out;
}
