// The kvscope attention tensor format (docs/ATTENTION_FORMAT.md): JSON with base64 little-endian float32 data,
// or .safetensors with tensors `attention.layer{L}` [H, Q, K] and the JSON fields as strings in __metadata__.
// tools/export_attention.py writes it from any PyTorch causal LM that returns attentions.

import { parseSafetensors, readFloat32, writeSafetensors, SafetensorsError } from '../../model/safetensors';
import { messageOf } from '../../i18n/message';
import { en, msg, verbatim, type Message } from '../msg';
import { ImportError, LIMITS, maxRowSumDeviation, putMeta, ROW_SUM_REJECT, VALUE_TOL, type ImportedAttention, type ImportedLayer } from './types';

export const KVSCOPE_FORMAT = 'kvscope-attention';
export const KVSCOPE_VERSION = 1;

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const kind = (x: unknown) => (x === null ? 'null' : Array.isArray(x) ? 'array' : typeof x);

/**
 * A value as a message shows it, without recursion or conversion: JSON.stringify overflows the stack on
 * a value thousands of levels deep, and join() / Number() call a `toString` or `valueOf` key the file sets.
 */
function shown(x: unknown, max = 80): string {
  if (typeof x === 'string') return JSON.stringify(x.length > max ? x.slice(0, max) + '…' : x);
  if (x === null || x === undefined || typeof x === 'number' || typeof x === 'boolean') return String(x);
  if (Array.isArray(x) && x.length <= 16 && x.every((v) => v === null || typeof v === 'number' || typeof v === 'boolean')) return `[${x.map(String).join(',')}]`;
  return Array.isArray(x) ? `a list of ${x.length}` : kind(x);
}

const sameList = (a: unknown, b: readonly number[]) => Array.isArray(a) && a.length === b.length && a.every((v, i) => v === b[i]);

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
  if (s.length % 4 !== 0) throw new ImportError(path, 'msg.import.att.b64Length', { n: s.length });
  const pad = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((s.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < s.length; i += 4) {
    let n = 0;
    for (let j = 0; j < 4; j++) {
      const ch = s.charCodeAt(i + j);
      const isPad = ch === 61 && i + j >= s.length - pad;
      const v = isPad ? 0 : ch < 128 ? B64_INV[ch]! : -1;
      if (v < 0) throw new ImportError(path, 'msg.import.att.b64Char', { offset: i + j });
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
  if (typeof x !== 'number' || !Number.isInteger(x) || x < min) throw new ImportError(path, 'msg.import.att.intMin', { min, got: typeof x === 'number' ? x : kind(x) });
  return x;
}

function parseTokens(x: unknown, path: string): string[] {
  if (!Array.isArray(x)) throw new ImportError(path, 'msg.import.att.tokenList', { kind: kind(x) });
  if (x.length === 0) throw new ImportError(path, 'msg.import.att.empty');
  if (x.length > LIMITS.maxTokens) throw new ImportError(path, 'msg.import.att.tokensLimit', { n: x.length, limit: LIMITS.maxTokens });
  return x.map((t, i) => {
    if (typeof t !== 'string') throw new ImportError(`${path}[${i}]`, 'msg.import.att.string', { kind: kind(t) });
    if (t.length > LIMITS.maxTokenChars) throw new ImportError(`${path}[${i}]`, 'msg.import.att.tokenChars', { n: t.length, limit: LIMITS.maxTokenChars });
    return t;
  });
}

function parseTokenIds(x: unknown, path: string, T: number): number[] | undefined {
  if (x === undefined || x === null) return undefined;
  if (!Array.isArray(x)) throw new ImportError(path, 'msg.import.att.intList', { kind: kind(x) });
  if (x.length !== T) throw new ImportError(path, 'msg.import.att.idsCount', { n: x.length, T });
  return x.map((v, i) => intOr(v, `${path}[${i}]`, 0));
}

function parseLayerHeader(l: unknown, path: string, K: number): LayerHeader {
  if (!isObj(l)) throw new ImportError(path, 'msg.import.att.object', { kind: kind(l) });
  const layer = l.layer === null || l.layer === undefined ? null : intOr(l.layer, `${path}.layer`, 0);
  const heads = l.heads === 'mean' ? 'mean' : intOr(l.heads, `${path}.heads`, 1);
  const qp = l.query_positions;
  if (!Array.isArray(qp)) throw new ImportError(`${path}.query_positions`, 'msg.import.att.intList', { kind: kind(qp) });
  if (qp.length === 0) throw new ImportError(`${path}.query_positions`, 'msg.import.att.empty');
  if (qp.length > LIMITS.maxTokens) throw new ImportError(`${path}.query_positions`, 'msg.import.att.rowsLimit', { n: qp.length, limit: LIMITS.maxTokens });
  let prev = -1;
  const queryPositions = qp.map((v, i) => {
    const q = intOr(v, `${path}.query_positions[${i}]`, 0);
    if (q >= K) throw new ImportError(`${path}.query_positions[${i}]`, 'msg.import.att.beyond', { q, K });
    if (q <= prev) throw new ImportError(`${path}.query_positions[${i}]`, 'msg.import.att.increase', { q, prev });
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
  const okShape = sameList(shape, want) || (h.heads === 'mean' && sameList(shape, [1, Q, K]));
  if (!okShape) throw new ImportError(`${path}.shape`, 'msg.import.att.shape', { want: String(want), heads: h.heads, Q, K, got: shown(shape) });
  const cells = H * Q * K;
  if (cellsSoFar + cells > LIMITS.maxCells) throw new ImportError(path, 'msg.import.att.cellsLimit', { n: cellsSoFar + cells, limit: LIMITS.maxCells });
  if (rawLen !== cells) throw new ImportError(`${path}.data`, 'msg.import.att.dataCount', { n: rawLen, want: String(want), cells });
  // No values: the text is longer than the shape needs, though its rounded count agrees (a few stray characters).
  if (!raw) throw new ImportError(`${path}.data`, 'msg.import.att.dataMore', { cells, want: String(want) });
  const data = raw;
  for (let hh = 0; hh < H; hh++)
    for (let i = 0; i < Q; i++) {
      const q = h.queryPositions[i]!;
      const base = (hh * Q + i) * K;
      for (let k = 0; k < K; k++) {
        const v = data[base + k]!;
        const where = `${path}.data[${h.heads === 'mean' ? '' : `${hh}, `}${i}, ${k}]`;
        if (k <= q) {
          if (!Number.isFinite(v)) throw new ImportError(where, 'msg.import.att.finite', { v: String(v) });
          if (v < -VALUE_TOL || v > 1 + VALUE_TOL) throw new ImportError(where, 'msg.import.att.range', { v: String(v) });
        } else {
          if (!Number.isNaN(v) && Math.abs(v) > VALUE_TOL) throw new ImportError(where, 'msg.import.att.masked', { k, q, v: String(v) });
          data[base + k] = NaN;
        }
      }
    }
  const labelCoded = h.layer === null ? msg('msg.import.att.layerUnknown') : msg('msg.import.att.layer', { layer: h.layer });
  return { layer: h.layer, label: en(labelCoded), labelCoded, heads: h.heads, queries: Q, keys: K, data, queryPositions: h.queryPositions };
}

function finish(layers: ImportedLayer[], tokens: string[], tokenIds: number[] | undefined, meta: ImportedAttention['meta']): ImportedAttention {
  const codedNotes: Message[] = [];
  layers.forEach((l, i) => {
    const dev = maxRowSumDeviation(l);
    if (dev > ROW_SUM_REJECT) throw new ImportError(`layers[${i}]`, 'msg.import.att.rowSum', { dev: dev.toPrecision(3), limit: ROW_SUM_REJECT });
    codedNotes.push(msg('msg.import.att.layerWithin', { at: `layers[${i}]`, dev: dev.toExponential(2) }, undefined, { label: l.labelCoded ?? verbatim(l.label) }));
  });
  return { source: 'kvscope-attention', tokens, ...(tokenIds ? { tokenIds } : {}), layers, meta, notes: codedNotes.map(en), codedNotes, calls: [] };
}

function readMeta(doc: Obj, path: string): ImportedAttention['meta'] {
  const meta: ImportedAttention['meta'] = {};
  if (doc.model !== undefined) {
    if (typeof doc.model !== 'string' || doc.model.length > LIMITS.maxStringChars) throw new ImportError(`${path}model`, 'msg.import.att.model');
    meta.model = doc.model;
  }
  const src = doc.source;
  if (src !== undefined) {
    if (!isObj(src)) throw new ImportError(`${path}source`, 'msg.import.att.scalars', { kind: kind(src) });
    for (const [k, v] of Object.entries(src)) {
      if (typeof v === 'string') {
        if (v.length > LIMITS.maxStringChars) throw new ImportError(`${path}source.${k}`, 'msg.import.att.stringLimit', { n: v.length, limit: LIMITS.maxStringChars });
        putMeta(meta, k, v);
      } else if ((typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean' || v === null) putMeta(meta, k, v);
    }
  }
  return meta;
}

function checkHeader(doc: Obj, path = ''): void {
  if (doc.format !== KVSCOPE_FORMAT) throw new ImportError(`${path}format`, 'msg.import.att.literal', { want: KVSCOPE_FORMAT, got: shown(doc.format) });
  // A number in JSON, a string in safetensors metadata; nothing else is converted.
  const version = typeof doc.version === 'string' ? Number(doc.version) : doc.version;
  if (version !== KVSCOPE_VERSION) throw new ImportError(`${path}version`, 'msg.import.att.version', { got: shown(doc.version, 40), known: KVSCOPE_VERSION });
}

function parseJsonDoc(doc: unknown): ImportedAttention {
  if (!isObj(doc)) throw new ImportError('', 'msg.import.att.notKvscope', { kind: kind(doc) });
  checkHeader(doc);
  const tokens = parseTokens(doc.tokens, 'tokens');
  const tokenIds = parseTokenIds(doc.token_ids, 'token_ids', tokens.length);
  if (!Array.isArray(doc.layers) || doc.layers.length === 0) throw new ImportError('layers', 'msg.import.att.nonEmptyList', { kind: kind(doc.layers) });
  if (doc.layers.length > LIMITS.maxLayers) throw new ImportError('layers', 'msg.import.att.layersLimit', { n: doc.layers.length, limit: LIMITS.maxLayers });
  let cells = 0;
  const layers = doc.layers.map((l, i) => {
    const p = `layers[${i}]`;
    const h = parseLayerHeader(l, p, tokens.length);
    const o = l as Obj;
    if (o.dtype !== 'float32') throw new ImportError(`${p}.dtype`, 'msg.import.att.literal', { want: 'float32', got: shown(o.dtype, 40) });
    if (typeof o.data !== 'string') throw new ImportError(`${p}.data`, 'msg.import.att.base64', { kind: kind(o.data) });
    const Q = h.queryPositions.length;
    const expectBytes = (h.heads === 'mean' ? 1 : h.heads) * Q * tokens.length * 4;
    if (expectBytes > LIMITS.maxCells * 4 || o.data.length > Math.ceil(expectBytes / 3) * 4 + 4) {
      // fail before decoding a huge string
      const got = Math.floor((o.data.length * 3) / 4 / 4);
      buildLayer(h, o.shape, null, got, p, tokens.length, cells); // throws: too many cells, values or characters
    }
    const bytes = fromBase64(o.data, `${p}.data`);
    if (bytes.length % 4 !== 0) throw new ImportError(`${p}.data`, 'msg.import.att.wholeFloats', { n: bytes.length });
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
    if (e instanceof SafetensorsError) throw ImportError.of('', messageOf(e) ?? verbatim(e.message));
    throw e;
  }
  const m = f.metadata;
  if (!isObj(m)) throw new ImportError('__metadata__', 'msg.import.att.metaMissing');
  const json = (key: string): unknown => {
    const v = m[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'string') throw new ImportError(`__metadata__.${key}`, 'msg.import.att.string', { kind: kind(v) });
    try {
      return JSON.parse(v);
    } catch {
      throw new ImportError(`__metadata__.${key}`, 'msg.import.att.metaJson');
    }
  };
  checkHeader(m as Obj, '__metadata__.');
  const tokens = parseTokens(json('tokens'), '__metadata__.tokens');
  const tokenIds = parseTokenIds(json('token_ids'), '__metadata__.token_ids', tokens.length);
  const ls = json('layers');
  if (!Array.isArray(ls) || ls.length === 0) throw new ImportError('__metadata__.layers', 'msg.import.att.nonEmptyList', { kind: kind(ls) });
  if (ls.length > LIMITS.maxLayers) throw new ImportError('__metadata__.layers', 'msg.import.att.layersLimit', { n: ls.length, limit: LIMITS.maxLayers });
  let cells = 0;
  const layers = ls.map((l, i) => {
    const p = `__metadata__.layers[${i}]`;
    const h = parseLayerHeader(l, p, tokens.length);
    const name = (l as Obj).tensor ?? `attention.layer${h.layer}`;
    if (typeof name !== 'string') throw new ImportError(`${p}.tensor`, 'msg.import.att.tensorName', { kind: kind(name) });
    const info = f.tensors.get(name);
    if (!info) throw new ImportError(p, 'msg.import.att.noTensor', { name, has: [...f.tensors.keys()].slice(0, 10).join(', ') });
    if (info.dtype !== 'F32') throw new ImportError(name, 'msg.import.att.dtype', { dtype: info.dtype });
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
    if (input.length > LIMITS.maxBytes) throw new ImportError('', 'msg.import.att.inputBytes', { n: input.length, limit: LIMITS.maxBytes });
    if (looksLikeSafetensors(input)) return parseSafetensorsDoc(input);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(input);
    } catch {
      throw new ImportError('', 'msg.import.att.notText');
    }
    input = text;
  }
  if (typeof input === 'string') {
    if (input.length > LIMITS.maxBytes) throw new ImportError('', 'msg.import.att.inputChars', { n: input.length, limit: LIMITS.maxBytes });
    try {
      input = JSON.parse(input);
    } catch (e) {
      throw new ImportError('', 'msg.import.att.json', { detail: (e as Error).message });
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
  if (a.tokens.length > LIMITS.maxTokens) throw new ImportError('tokens', 'msg.import.att.tokensLimit', { n: a.tokens.length, limit: LIMITS.maxTokens });
  const names = new Set<string>();
  a.layers.forEach((l, i) => {
    const n = tensorName(l, i);
    if (names.has(n)) throw new ImportError(`layers[${i}]`, 'msg.import.att.twice', { layer: String(l.layer) });

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
