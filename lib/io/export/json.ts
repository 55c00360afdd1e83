// The JSON export of a view (docs/EXPORT.md): an envelope { kvscope: "view-export", version: 1, name,
// title, data } around the numbers the view shows, made JSON-ready (typed arrays as arrays, non-finite
// numbers as null) and pretty-printed with arrays of numbers kept on one line. Pure.
import { sanitizeFilename } from './filename';

export const VIEW_EXPORT = 'view-export';
export const VIEW_EXPORT_VERSION = 1;

export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };

export interface ViewExport {
  kvscope: typeof VIEW_EXPORT;
  version: typeof VIEW_EXPORT_VERSION;
  /** The sanitised name (the file's stem). */
  name: string;
  title: string | null;
  data: JsonValue;
}

const isTyped = (v: unknown): v is ArrayLike<number | bigint> => ArrayBuffer.isView(v) && !(v instanceof DataView);

/**
 * `v` as plain JSON values, as JSON.stringify would see it, with these differences: typed arrays become
 * arrays of numbers (bigint elements as strings), bigints become strings, Sets become arrays and Maps
 * objects, non-finite numbers become null. Functions, symbols and undefined are dropped from objects
 * (null in arrays). Cycles throw.
 */
export function jsonReady(v: unknown, seen: Set<object> = new Set()): JsonValue {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'number':
      return Number.isFinite(v) ? v : null;
    case 'string':
    case 'boolean':
      return v;
    case 'bigint':
      return v.toString();
    case 'function':
    case 'symbol':
      return null;
  }
  const o = v as object;
  if (isTyped(o)) return Array.from(o, (x) => (typeof x === 'bigint' ? x.toString() : Number.isFinite(x) ? x : null));
  if (o instanceof ArrayBuffer) return Array.from(new Uint8Array(o));
  if (o instanceof Date) return Number.isNaN(o.getTime()) ? null : o.toISOString();
  if (typeof (o as { toJSON?: unknown }).toJSON === 'function') return jsonReady((o as { toJSON: () => unknown }).toJSON(), seen);
  if (seen.has(o)) throw new TypeError('cannot export a cyclic structure as JSON');
  seen.add(o);
  try {
    if (Array.isArray(o)) return o.map((x) => jsonReady(x, seen));
    if (o instanceof Set) return [...o].map((x) => jsonReady(x, seen));
    const out: { [k: string]: JsonValue } = {};
    const entries: [string, unknown][] = o instanceof Map ? [...o].map(([k, x]) => [String(k), x]) : Object.entries(o);
    for (const [k, x] of entries) {
      if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
      out[k] = jsonReady(x, seen);
    }
    return out;
  } finally {
    seen.delete(o);
  }
}

const isFlat = (a: JsonValue[]) => a.every((x) => x === null || typeof x === 'number' || typeof x === 'boolean');

/** JSON.stringify(v, null, indent)-like text, except that arrays of numbers, booleans and nulls stay on one line. */
export function prettyJson(v: JsonValue, indent = 2): string {
  const pad = (d: number) => ' '.repeat(d * indent);
  const go = (x: JsonValue, d: number): string => {
    if (x === null || typeof x !== 'object') return JSON.stringify(x);
    if (Array.isArray(x)) {
      if (x.length === 0) return '[]';
      if (isFlat(x)) return `[${x.map((e) => JSON.stringify(e)).join(', ')}]`;
      return `[\n${x.map((e) => pad(d + 1) + go(e, d + 1)).join(',\n')}\n${pad(d)}]`;
    }
    const keys = Object.keys(x);
    if (keys.length === 0) return '{}';
    return `{\n${keys.map((k) => `${pad(d + 1)}${JSON.stringify(k)}: ${go(x[k]!, d + 1)}`).join(',\n')}\n${pad(d)}}`;
  };
  return go(v, 0);
}

/** The envelope of a view's numbers. */
export function exportEnvelope(name: string, title: string | undefined | null, data: unknown): ViewExport {
  return { kvscope: VIEW_EXPORT, version: VIEW_EXPORT_VERSION, name: sanitizeFilename(name), title: title ?? null, data: jsonReady(data) };
}

/** The envelope as the text of the .json file (pretty-printed, trailing newline). */
export function envelopeText(name: string, title: string | undefined | null, data: unknown): string {
  return prettyJson(exportEnvelope(name, title, data) as unknown as JsonValue) + '\n';
}
