// The kvscope attention tensor format (docs/ATTENTION_FORMAT.md): JSON with base64 little-endian float32 data,
// or .safetensors with tensors `attention.layer{L}` [H, Q, K] and the JSON fields as strings in __metadata__.
// tools/export_attention.py writes it from any PyTorch causal LM that returns attentions.

import { parseSafetensors, readFloat32, writeSafetensors, SafetensorsError } from '../../model/safetensors';
import { ImportError, LIMITS, maxRowSumDeviation, ROW_SUM_REJECT, VALUE_TOL, type ImportedAttention, type ImportedLayer } from './types';

export const KVSCOPE_FORMAT = 'kvscope-attention';
export const KVSCOPE_VERSION = 1;

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const kind = (x: unknown) => (x === null ? 'null' : Array.isArray(x) ? 'array' : typeof x);

// ---- base64 (own implementation: lib/ runs in browsers, workers and Node alike) ----
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_INV = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) B64_INV[B64.charCodeAt(i)] = i;

export function toBase64(bytes: Uint8Array): string {
  const parts: string[] = [];
  let chunk = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!, b = bytes[i + 1] ?? 0, c = bytes[i + 2] ?? 0;
    const n = (a << 16) | (b << 8) | c;
    chunk += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]! + (i + 1 < bytes.length ? B64[(n >> 6) & 63]! : '=') + (i + 2 < bytes.length ? B64[n & 63]! : '=');
    if (chunk.length >= 65536) {
      parts.push(chunk);
      chunk = '';
    }
  }
  parts.push(chunk);
  return parts.join('');
}

export function fromBase64(s: string, path: string): Uint8Array {
  if (s.length % 4 !== 0) throw new ImportError(path, `base64 length ${s.length} is not a multiple of 4`);
  const pad = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((s.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < s.length; i += 4) {
    let n = 0;
    for (let j = 0; j < 4; j++) {
      const ch = s.charCodeAt(i + j);
      const isPad = ch === 61 && i + j >= s.length - pad;
      const v = isPad ? 0 : ch < 128 ? B64_INV[ch]! : -1;
      if (v < 0) throw new ImportError(path, `invalid base64 character at offset ${i + j}`);
      n = (n << 6) | v;
    }
    if (o < out.length) out[o++] = (n >> 16) & 255;
    if (o < out.length) out[o++] = (n >> 8) & 255;
    if (o < out.length) out[o++] = n & 255;
  }
  return out;
}

// ---- validation shared by JSON and safetensors ----

interface LayerHeader {
  layer: number | null;
  heads: 'mean' | number;
  queryPositions: number[];
}

function intOr(x: unknown, path: string, min: number): number {
  if (typeof x !== 'number' || !Number.isInteger(x) || x < min) throw new ImportError(path, `expected an integer ≥ ${min}, got ${typeof x === 'number' ? x : kind(x)}`);
  return x;
}

function parseTokens(x: unknown, path: string): string[] {
  if (!Array.isArray(x)) throw new ImportError(path, `expected a list of token strings, got ${kind(x)}`);
  if (x.length === 0) throw new ImportError(path, 'is empty');
  if (x.length > LIMITS.maxTokens) throw new ImportError(path, `${x.length} tokens exceed the limit of ${LIMITS.maxTokens}`);
  return x.map((t, i) => {
    if (typeof t !== 'string') throw new ImportError(`${path}[${i}]`, `expected a string, got ${kind(t)}`);
    if (t.length > LIMITS.maxTokenChars) throw new ImportError(`${path}[${i}]`, `token of ${t.length} characters exceeds the limit of ${LIMITS.maxTokenChars}`);
    return t;
  });
}

function parseTokenIds(x: unknown, path: string, T: number): number[] | undefined {
  if (x === undefined || x === null) return undefined;
  if (!Array.isArray(x)) throw new ImportError(path, `expected a list of integers, got ${kind(x)}`);
  if (x.length !== T) throw new ImportError(path, `has ${x.length} entries but tokens has ${T}`);
  return x.map((v, i) => intOr(v, `${path}[${i}]`, 0));
}

function parseLayerHeader(l: unknown, path: string, K: number): LayerHeader {
  if (!isObj(l)) throw new ImportError(path, `expected an object, got ${kind(l)}`);
  const layer = l.layer === null || l.layer === undefined ? null : intOr(l.layer, `${path}.layer`, 0);
  const heads = l.heads === 'mean' ? 'mean' : intOr(l.heads, `${path}.heads`, 1);
  const qp = l.query_positions;
  if (!Array.isArray(qp)) throw new ImportError(`${path}.query_positions`, `expected a list of integers, got ${kind(qp)}`);
  if (qp.length === 0) throw new ImportError(`${path}.query_positions`, 'is empty');
  if (qp.length > LIMITS.maxTokens) throw new ImportError(`${path}.query_positions`, `${qp.length} rows exceed the limit of ${LIMITS.maxTokens}`);
  let prev = -1;
  const queryPositions = qp.map((v, i) => {
    const q = intOr(v, `${path}.query_positions[${i}]`, 0);
    if (q >= K) throw new ImportError(`${path}.query_positions[${i}]`, `position ${q} is beyond the ${K} tokens`);
    if (q <= prev) throw new ImportError(`${path}.query_positions[${i}]`, `positions must increase (${q} after ${prev})`);
    prev = q;
    return q;
  });
  return { layer, heads, queryPositions };
}

/** Checks the expected shape and turns raw values into an ImportedLayer (masked cells k > q become NaN). */
function buildLayer(h: LayerHeader, shape: unknown, raw: Float32Array | null, rawLen: number, path: string, K: number, cellsSoFar: number): ImportedLayer {
  const Q = h.queryPositions.length;
  const H = h.heads === 'mean' ? 1 : h.heads;
  const want = h.heads === 'mean' ? [Q, K] : [H, Q, K];
  const okShape = Array.isArray(shape) && (shape.join() === want.join() || (h.heads === 'mean' && shape.join() === [1, Q, K].join()));
  if (!okShape) throw new ImportError(`${path}.shape`, `expected [${want}] (heads ${h.heads}, ${Q} query positions, ${K} tokens), got ${JSON.stringify(shape)}`);
  const cells = H * Q * K;
  if (cellsSoFar + cells > LIMITS.maxCells) throw new ImportError(path, `${cellsSoFar + cells} attention cells in all exceed the limit of ${LIMITS.maxCells}`);
  if (rawLen !== cells) throw new ImportError(`${path}.data`, `holds ${rawLen} float32 values, shape [${want}] needs ${cells}`);
  const data = raw!;
  for (let hh = 0; hh < H; hh++)
    for (let i = 0; i < Q; i++) {
      const q = h.queryPositions[i]!;
      const base = (hh * Q + i) * K;
      for (let k = 0; k < K; k++) {
        const v = data[base + k]!;
        const where = `${path}.data[${h.heads === 'mean' ? '' : `${hh}, `}${i}, ${k}]`;
        if (k <= q) {
          if (!Number.isFinite(v)) throw new ImportError(where, `expected a finite number, got ${v}`);
          if (v < -VALUE_TOL || v > 1 + VALUE_TOL) throw new ImportError(where, `attention weight ${v} is outside [0, 1]`);
        } else {
          if (!Number.isNaN(v) && Math.abs(v) > VALUE_TOL) throw new ImportError(where, `key ${k} is after query position ${q} and must be 0 (or NaN), got ${v}`);
          data[base + k] = NaN;
        }
      }
    }
  const label = h.layer === null ? 'layer unknown' : `layer ${h.layer}`;
  return { layer: h.layer, label, heads: h.heads, queries: Q, keys: K, data, queryPositions: h.queryPositions };
}

function finish(layers: ImportedLayer[], tokens: string[], tokenIds: number[] | undefined, meta: ImportedAttention['meta']): ImportedAttention {
  const notes: string[] = [];
  layers.forEach((l, i) => {
    const dev = maxRowSumDeviation(l);
    if (dev > ROW_SUM_REJECT) throw new ImportError(`layers[${i}]`, `rows do not sum to 1 (max |sum − 1| = ${dev.toPrecision(3)} > ${ROW_SUM_REJECT}): not attention probabilities`);
    notes.push(`layers[${i}] (${l.label}): rows sum to 1 within ${dev.toExponential(2)} (max |sum − 1|)`);
  });
  return { source: 'kvscope-attention', tokens, ...(tokenIds ? { tokenIds } : {}), layers, meta, notes, calls: [] };
}

function readMeta(doc: Obj, path: string): ImportedAttention['meta'] {
  const meta: ImportedAttention['meta'] = {};
  if (doc.model !== undefined) {
    if (typeof doc.model !== 'string' || doc.model.length > LIMITS.maxStringChars) throw new ImportError(`${path}model`, 'expected a string (at most 1,000,000 characters)');
    meta.model = doc.model;
  }
  const src = doc.source;
  if (src !== undefined) {
    if (!isObj(src)) throw new ImportError(`${path}source`, `expected an object of scalars, got ${kind(src)}`);
    for (const [k, v] of Object.entries(src)) {
      if (typeof v === 'string') {
        if (v.length > LIMITS.maxStringChars) throw new ImportError(`${path}source.${k}`, `string of ${v.length} characters exceeds the limit of ${LIMITS.maxStringChars}`);
        meta[k] = v;
      } else if ((typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean' || v === null) meta[k] = v;
    }
  }
  return meta;
}

function checkHeader(doc: Obj, path = ''): void {
  if (doc.format !== KVSCOPE_FORMAT) throw new ImportError(`${path}format`, `expected "${KVSCOPE_FORMAT}", got ${JSON.stringify(doc.format)?.slice(0, 80)}`);
  if (Number(doc.version) !== KVSCOPE_VERSION) throw new ImportError(`${path}version`, `unsupported version ${JSON.stringify(doc.version)?.slice(0, 40)} (this reader knows ${KVSCOPE_VERSION})`);
}

function parseJsonDoc(doc: unknown): ImportedAttention {
  if (!isObj(doc)) throw new ImportError('', `expected a kvscope-attention object, got ${kind(doc)}`);
  checkHeader(doc);
  const tokens = parseTokens(doc.tokens, 'tokens');
  const tokenIds = parseTokenIds(doc.token_ids, 'token_ids', tokens.length);
  if (!Array.isArray(doc.layers) || doc.layers.length === 0) throw new ImportError('layers', `expected a non-empty list, got ${kind(doc.layers)}`);
  if (doc.layers.length > LIMITS.maxLayers) throw new ImportError('layers', `${doc.layers.length} layers exceed the limit of ${LIMITS.maxLayers}`);
  let cells = 0;
  const layers = doc.layers.map((l, i) => {
    const p = `layers[${i}]`;
    const h = parseLayerHeader(l, p, tokens.length);
    const o = l as Obj;
    if (o.dtype !== 'float32') throw new ImportError(`${p}.dtype`, `expected "float32", got ${JSON.stringify(o.dtype)?.slice(0, 40)}`);
    if (typeof o.data !== 'string') throw new ImportError(`${p}.data`, `expected a base64 string, got ${kind(o.data)}`);
    const Q = h.queryPositions.length;
    const expectBytes = (h.heads === 'mean' ? 1 : h.heads) * Q * tokens.length * 4;
    if (expectBytes > LIMITS.maxCells * 4 || o.data.length > Math.ceil(expectBytes / 3) * 4 + 4) {
      // fail before decoding a huge string
      const got = Math.floor((o.data.length * 3) / 4 / 4);
      buildLayer(h, o.shape, null, got, p, tokens.length, cells);
    }
    const bytes = fromBase64(o.data, `${p}.data`);
    if (bytes.length % 4 !== 0) throw new ImportError(`${p}.data`, `${bytes.length} bytes is not a whole number of float32 values`);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const raw = new Float32Array(bytes.length / 4);
    for (let j = 0; j < raw.length; j++) raw[j] = view.getFloat32(4 * j, true);
    const layer = buildLayer(h, o.shape, raw, raw.length, p, tokens.length, cells);
    cells += raw.length;
    return layer;
  });
  return finish(layers, tokens, tokenIds, readMeta(doc, ''));
}

export function looksLikeSafetensors(b: Uint8Array): boolean {
  if (b.length < 9) return false;
  const n = Number(new DataView(b.buffer, b.byteOffset, b.byteLength).getBigUint64(0, true));
  return n > 0 && 8 + n <= b.length && b[8] === 0x7b;
}

function parseSafetensorsDoc(bytes: Uint8Array): ImportedAttention {
  let f;
  try {
    f = parseSafetensors(bytes);
  } catch (e) {
    if (e instanceof SafetensorsError) throw new ImportError('', e.message);
    throw e;
  }
  const m = f.metadata;
  if (!isObj(m)) throw new ImportError('__metadata__', 'missing: a kvscope-attention safetensors file carries its header there');
  const json = (key: string): unknown => {
    const v = m[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'string') throw new ImportError(`__metadata__.${key}`, `expected a string, got ${kind(v)}`);
    try {
      return JSON.parse(v);
    } catch {
      throw new ImportError(`__metadata__.${key}`, 'expected JSON text in the string');
    }
  };
  checkHeader(m as Obj, '__metadata__.');
  const tokens = parseTokens(json('tokens'), '__metadata__.tokens');
  const tokenIds = parseTokenIds(json('token_ids'), '__metadata__.token_ids', tokens.length);
  const ls = json('layers');
  if (!Array.isArray(ls) || ls.length === 0) throw new ImportError('__metadata__.layers', `expected a non-empty list, got ${kind(ls)}`);
  if (ls.length > LIMITS.maxLayers) throw new ImportError('__metadata__.layers', `${ls.length} layers exceed the limit of ${LIMITS.maxLayers}`);
  let cells = 0;
  const layers = ls.map((l, i) => {
    const p = `__metadata__.layers[${i}]`;
    const h = parseLayerHeader(l, p, tokens.length);
    const name = (l as Obj).tensor ?? `attention.layer${h.layer}`;
    if (typeof name !== 'string') throw new ImportError(`${p}.tensor`, `expected a tensor name, got ${kind(name)}`);
    const info = f.tensors.get(name);
    if (!info) throw new ImportError(p, `no tensor named ${name} in the file (has: ${[...f.tensors.keys()].slice(0, 10).join(', ')})`);
    if (info.dtype !== 'F32') throw new ImportError(name, `expected dtype F32, got ${info.dtype}`);
    const n = info.shape.reduce((a, b) => a * b, 1);
    const Q = h.queryPositions.length;
    const H = h.heads === 'mean' ? 1 : h.heads;
    if (n !== H * Q * tokens.length || cells + n > LIMITS.maxCells) buildLayer(h, info.shape, null, n, name, tokens.length, cells);
    const layer = buildLayer(h, info.shape, readFloat32(f, name), n, name, tokens.length, cells);
    cells += n;
    return layer;
  });
  const meta = readMeta({ model: m.model, source: json('source') }, '__metadata__.');
  return finish(layers, tokens, tokenIds, meta);
}

/** Reads the kvscope format: a parsed JSON value, JSON text, or bytes (JSON text or .safetensors). */
export function parseKvscopeAttention(input: unknown): ImportedAttention {
  if (input instanceof Uint8Array) {
    if (input.length > LIMITS.maxBytes) throw new ImportError('', `input of ${input.length} bytes exceeds the limit of ${LIMITS.maxBytes}`);
    if (looksLikeSafetensors(input)) return parseSafetensorsDoc(input);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(input);
    } catch {
      throw new ImportError('', 'neither a safetensors file nor UTF-8 JSON text');
    }
    input = text;
  }
  if (typeof input === 'string') {
    if (input.length > LIMITS.maxBytes) throw new ImportError('', `input of ${input.length} characters exceeds the limit of ${LIMITS.maxBytes}`);
    try {
      input = JSON.parse(input);
    } catch (e) {
      throw new ImportError('', `not valid JSON (${(e as Error).message})`);
    }
  }
  return parseJsonDoc(input);
}

// ---- writing ----

/** Cells after each row's query position (and any NaN) are written as 0. */
function cleanData(l: ImportedLayer): Float32Array {
  const out = new Float32Array(l.data.length);
  for (let i = 0; i < l.data.length; i++) {
    const v = l.data[i]!;
    out[i] = Number.isNaN(v) ? 0 : v;
  }
  return out;
}

function shapeOf(l: ImportedLayer, forSafetensors: boolean): number[] {
  return l.heads === 'mean' ? (forSafetensors ? [1, l.queries, l.keys] : [l.queries, l.keys]) : [l.heads, l.queries, l.keys];
}

function tensorName(l: ImportedLayer, i: number): string {
  return l.layer === null ? `attention.unknown${i}` : `attention.layer${l.layer}`;
}

function sourceOf(a: ImportedAttention): Obj {
  const { model: _model, ...rest } = a.meta;
  return rest;
}

/** Writes an ImportedAttention in the kvscope format: JSON text (base64 data) or .safetensors bytes. */
export function writeKvscopeAttention(a: ImportedAttention, as: 'json'): string;
export function writeKvscopeAttention(a: ImportedAttention, as: 'safetensors'): Uint8Array;
export function writeKvscopeAttention(a: ImportedAttention, as: 'json' | 'safetensors'): string | Uint8Array {
  const model = typeof a.meta.model === 'string' ? a.meta.model : '';
  if (a.tokens.length > LIMITS.maxTokens) throw new ImportError('tokens', `${a.tokens.length} tokens exceed the limit of ${LIMITS.maxTokens}`);
  const names = new Set<string>();
  a.layers.forEach((l, i) => {
    const n = tensorName(l, i);
    if (names.has(n)) throw new ImportError(`layers[${i}]`, `layer ${l.layer} appears twice`);
    names.add(n);
  });
  if (as === 'json') {
    const doc = {
      format: KVSCOPE_FORMAT,
      version: KVSCOPE_VERSION,
      model,
      tokens: a.tokens,
      ...(a.tokenIds ? { token_ids: a.tokenIds } : {}),
      layers: a.layers.map((l) => ({ layer: l.layer, heads: l.heads, shape: shapeOf(l, false), query_positions: l.queryPositions, dtype: 'float32', data: toBase64(new Uint8Array(cleanData(l).buffer)) })),
      source: sourceOf(a),
    };
    return JSON.stringify(doc);
  }
  const tensors = new Map<string, { shape: number[]; values: Float32Array }>();
  a.layers.forEach((l, i) => tensors.set(tensorName(l, i), { shape: shapeOf(l, true), values: cleanData(l) }));
  const metadata: Record<string, string> = {
    format: KVSCOPE_FORMAT,
    version: String(KVSCOPE_VERSION),
    model,
    tokens: JSON.stringify(a.tokens),
    ...(a.tokenIds ? { token_ids: JSON.stringify(a.tokenIds) } : {}),
    layers: JSON.stringify(a.layers.map((l, i) => ({ layer: l.layer, heads: l.heads, query_positions: l.queryPositions, tensor: tensorName(l, i) }))),
    source: JSON.stringify(sourceOf(a)),
  };
  return withMetadata(writeSafetensors(tensors, 'F32'), metadata);
}

/** Re-emits a safetensors file with `__metadata__` added to its header (writeSafetensors writes none). */
function withMetadata(file: Uint8Array, metadata: Record<string, string>): Uint8Array {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const n = Number(view.getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(file.subarray(8, 8 + n))) as Obj;
  header.__metadata__ = metadata;
  let text = JSON.stringify(header);
  const enc = new TextEncoder();
  let h = enc.encode(text);
  const pad = (8 - (h.length % 8)) % 8;
  if (pad) h = enc.encode((text += ' '.repeat(pad)));
  const data = file.subarray(8 + n);
  const out = new Uint8Array(8 + h.length + data.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(h.length), true);
  out.set(h, 8);
  out.set(data, 8 + h.length);
  return out;
}
