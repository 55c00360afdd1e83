// Reads the safetensors format (8-byte header length, JSON header, raw little-endian tensors) with
// bounds checks on the header and every tensor. Holds no model logic; never touches the DOM.

import type { Params, StringKey } from '../i18n';
import { CodedError } from '../i18n/message';
import { bf16BitsToF32, f16BitsToF32, f32ToF16Bits, f32View, u16View } from './halfFloat';

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

/** A refusal of a safetensors file: a 'msg.model.st.*' message, shown after "safetensors: " (or `where`). */
export class SafetensorsError extends CodedError {
  constructor(key: StringKey, params?: Params, where = 'safetensors') {
    super(key, params, where);
    this.name = 'SafetensorsError';
  }
}

const MAX_HEADER = 100 * 1024 * 1024;

/**
 * Bits per element of every dtype the safetensors format names, so a header can be checked (and its
 * unsupported tensors named) even where this module cannot read the values. Sub-byte types are packed.
 */
const DTYPE_BITS: Record<string, number> = {
  BOOL: 8, U8: 8, I8: 8, F8_E5M2: 8, F8_E4M3: 8, F8_E8M0: 8, I16: 16, U16: 16, F16: 16, BF16: 16,
  I32: 32, U32: 32, F32: 32, I64: 64, U64: 64, F64: 64, C64: 64, F4: 4, F6_E2M3: 6, F6_E3M2: 6, I4: 4, U4: 4,
};

/** A tensor as a header describes it; `dtype` is null where this module cannot read `rawDtype`. */
export interface HeaderTensorInfo extends Omit<TensorInfo, 'dtype'> {
  dtype: DType | null;
  /** The dtype string as written in the header ("BF16", "I8", "F8_E4M3", …). */
  rawDtype: string;
}

export interface SafetensorsHeader {
  tensors: Map<string, HeaderTensorInfo>;
  metadata: Record<string, string>;
  /** N, the JSON header's length in bytes (the first 8 bytes hold it). */
  headerLength: number;
  /** Where the data section starts in the file: 8 + N. */
  dataStart: number;
  /** End of the last tensor inside the data section (the least the data section can hold). */
  dataEnd: number;
}

/** The header length N from a file's first 8 bytes (little-endian u64), bounded by 100 MiB. */
export function readHeaderLength(first8: Uint8Array): number {
  if (first8.length < 8) throw new SafetensorsError('msg.model.st.short', { length: first8.length });
  const n = Number(new DataView(first8.buffer, first8.byteOffset, 8).getBigUint64(0, true));
  if (n > MAX_HEADER) throw new SafetensorsError('msg.model.st.headerTooLong', { length: n, max: MAX_HEADER });
  return n;
}

function decodeHeader(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (e) {
    throw new SafetensorsError('msg.model.st.headerJson', { detail: (e as Error).message });
  }
}

/** A header value as a message shows it: strings and numbers as JSON, containers by kind (never stringified whole: they may be nested thousands deep). */
function shown(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v);
  if (typeof v !== 'object' || v === null) return String(v);
  return Array.isArray(v) ? 'a list' : 'an object';
}

/** The format's own dtype names only: `in` and plain lookups would also find "constructor", "toString", … */
const has = (table: object, key: string) => Object.prototype.hasOwnProperty.call(table, key);

/**
 * Checks the header's entries. `strict` refuses dtypes other than F32/F16/BF16 (parseSafetensors reads
 * values); otherwise every dtype is reported. `dataLength` is the data section's size when known.
 */
function readEntries(header: unknown, dataLength: number | undefined, strict: boolean): Pick<SafetensorsHeader, 'tensors' | 'metadata'> {
  if (typeof header !== 'object' || header === null || Array.isArray(header)) throw new SafetensorsError('msg.model.st.headerNotObject');
  const tensors = new Map<string, HeaderTensorInfo>();
  let metadata: Record<string, string> = {};
  for (const [name, raw] of Object.entries(header as Record<string, unknown>)) {
    if (name === '__metadata__') {
      // The format defines it as a map of strings to strings; readers look keys up in it, so it is checked here.
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new SafetensorsError('msg.model.st.metadataNotObject', { got: shown(raw) });
      const bad = Object.entries(raw).find(([, v]) => typeof v !== 'string');
      if (bad) throw new SafetensorsError('msg.model.st.metadataValue', { key: bad[0], got: shown(bad[1]) });
      metadata = raw as Record<string, string>;
      continue;
    }
    const info = raw as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    if (typeof info !== 'object' || info === null) throw new SafetensorsError('msg.model.st.entryNotObject', { tensor: name });
    if (typeof info.dtype !== 'string' || (strict && !has(BYTES, info.dtype))) throw new SafetensorsError('msg.model.st.dtype', { tensor: name, dtype: shown(info.dtype) });
    if (!Array.isArray(info.shape) || !info.shape.every((d) => Number.isInteger(d) && d >= 0)) throw new SafetensorsError('msg.model.st.shape', { tensor: name });
    const off = info.data_offsets;
    if (!Array.isArray(off) || off.length !== 2 || !off.every((x) => Number.isInteger(x) && x >= 0)) throw new SafetensorsError('msg.model.st.offsets', { tensor: name });
    const [begin, end] = off as [number, number];
    const rawDtype = info.dtype;
    const shape = info.shape as number[];
    const bits = has(DTYPE_BITS, rawDtype) ? DTYPE_BITS[rawDtype] : undefined;
    // A dtype name this table lacks has no size to check; a known one must match its shape exactly.
    if (bits !== undefined) {
      const expected = Math.ceil((shape.reduce((a, b) => a * b, 1) * bits) / 8);
      if (end < begin || end - begin !== expected) throw new SafetensorsError('msg.model.st.size', { tensor: name, bytes: end - begin, shape: String(shape), dtype: rawDtype, expected });
    } else if (end < begin) throw new SafetensorsError('msg.model.st.offsetsOrder', { tensor: name, begin, end });
    if (dataLength !== undefined && end > dataLength) throw new SafetensorsError('msg.model.st.truncatedTensor', { tensor: name, end, length: dataLength });
    tensors.set(name, { dtype: has(BYTES, rawDtype) ? (rawDtype as DType) : null, rawDtype, shape, begin, end });
  }
  const ranges = [...tensors.entries()].sort((a, b) => a[1].begin - b[1].begin);
  for (let i = 1; i < ranges.length; i++) {
    if (ranges[i]![1].begin < ranges[i - 1]![1].end) throw new SafetensorsError('msg.model.st.overlap', { tensor: ranges[i]![0], other: ranges[i - 1]![0] });
  }
  return { tensors, metadata };
}

export function parseSafetensors(bytes: Uint8Array): SafetensorsFile {
  const n = readHeaderLength(bytes);
  if (8 + n > bytes.length) throw new SafetensorsError('msg.model.st.truncatedHeader', { length: n, have: bytes.length - 8 });
  const header = decodeHeader(bytes.subarray(8, 8 + n));
  const data = bytes.subarray(8 + n);
  const { tensors: entries, metadata } = readEntries(header, data.length, true);
  // Strict mode admitted readable dtypes only, so every entry's dtype is set; entries keep TensorInfo's fields only.
  const tensors = new Map<string, TensorInfo>();
  for (const [name, t] of entries) tensors.set(name, { dtype: t.dtype!, shape: t.shape, begin: t.begin, end: t.end });
  return { tensors, metadata, data };
}

/**
 * Parses a file's header only, from its first 8 + N bytes (more is ignored): a look at a checkpoint before
 * its weights are fetched. Every dtype is reported, readable or not. With `fileSize`, a tensor that would
 * end past the file is refused as truncated.
 */
export function parseSafetensorsHeader(headerBytes: Uint8Array, fileSize?: number): SafetensorsHeader {
  const n = readHeaderLength(headerBytes);
  if (fileSize !== undefined && 8 + n > fileSize) throw new SafetensorsError('msg.model.st.truncatedHeader', { length: n, have: fileSize - 8 });
  if (8 + n > headerBytes.length) throw new SafetensorsError('msg.model.st.headerGiven', { length: n, have: headerBytes.length - 8 });
  const header = decodeHeader(headerBytes.subarray(8, 8 + n));
  const { tensors, metadata } = readEntries(header, fileSize === undefined ? undefined : fileSize - 8 - n, false);
  let dataEnd = 0;
  for (const t of tensors.values()) dataEnd = Math.max(dataEnd, t.end);
  return { tensors, metadata, headerLength: n, dataStart: 8 + n, dataEnd };
}

/** A tensor's values as float32 (F16 and BF16 are upcast exactly). A new array: callers may keep or change it. */
export function readFloat32(file: SafetensorsFile, name: string): Float32Array {
  const info = file.tensors.get(name);
  if (!info) throw new SafetensorsError('msg.model.st.noTensor', { tensor: name });
  const raw = file.data.subarray(info.begin, info.end);
  if (info.dtype === 'F32') return f32View(raw).slice();
  return info.dtype === 'F16' ? f16BitsToF32(u16View(raw)) : bf16BitsToF32(u16View(raw));
}

/** float32 values → IEEE half bit patterns (round to nearest even). */
export function toFloat16Bits(values: Float32Array): Uint16Array {
  return f32ToF16Bits(values);
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
