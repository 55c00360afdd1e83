// Shareable links: the scenario and view settings as compressed JSON in the URL fragment (`#s=…`).
// JSON → deflate-raw (CompressionStream) → base64url. The fragment never reaches a server, and a link is
// opened as a NEW named custom scenario, never over the user's own. Everything decoded is treated as
// hostile: the size is checked before inflating, inflation is capped (zip bombs), and every field is
// validated (the request by the one request validator, the view by the store's sanitiser).
// Web-standard APIs only (CompressionStream, TextEncoder, btoa/atob): Node ≥ 20 and browsers alike.
import type { ChatRequest } from '../scenarios/types';
import { validateRequest, formatErrors, formatCount } from '../prompt/request';
import { isScenarioRef } from '../scenarios/catalog';
import { EMBEDDED_MODELS, DEFAULT_MODEL } from '../model/embedded';
import { addScenario, MAX_NAME_CHARS } from '../state/addScenario';
import { en, joinLines, msg, verbatim, type Message } from './msg';
import { readCapped } from './linkPolicy';
import {
  customOf,
  isContext,
  type ContextChoice,
  sanitizeView,
  DEFAULT_VIEW,
  TABS,
  type CustomScenario,
  type PersistedState,
  type Tab,
  type ViewSettings,
} from '../state/store';

export const SHARE_VERSION = 1;
export const SHARE_KEY = 's';

/**
 * Longest fragment (`#s=…`, in characters) we make or accept. Browsers take far longer URLs (Chrome ~2 MB),
 * but much on the way does not: many servers and proxies refuse request lines over 8 KiB, and chat apps,
 * mail clients and link shorteners cut or refuse long links (and the fragment is part of what they keep).
 * 8,000 characters leaves room for the origin and path inside the common 8 KiB limit.
 */
export const MAX_FRAGMENT_CHARS = 8_000;
/** Most bytes of JSON a fragment may inflate to (zip-bomb guard): deflate reaches ~1000:1, so 8 KB → ~8 MB. */
export const MAX_INFLATED_BYTES = 2 * 1024 * 1024;

export type ShareScenario = { ref: string } | { name: string; request: ChatRequest };

export interface SharePayload {
  v: 1;
  model: string;
  tab: Tab;
  view: ViewSettings;
  /** A built-in scenario travels as its ref; a custom one as its name and validated request. */
  scenario: ShareScenario;
  selectedToken?: number;
  /** Which call of the agent loop the attention views show (absent: the last call). */
  context?: ContextChoice;
}

export interface ShareLimits {
  maxFragmentChars: number;
  maxInflatedBytes: number;
}
const DEFAULTS: ShareLimits = { maxFragmentChars: MAX_FRAGMENT_CHARS, maxInflatedBytes: MAX_INFLATED_BYTES };

// `error` and `notes` in English (logs, tests); `coded` and `codedNotes` the same as messages for the
// interface's language (lib/i18n/message.ts).
export type EncodeResult = { ok: true; fragment: string; bytes: number } | { ok: false; error: string; coded?: Message };
/** A link refused for its size only: which cap (`tooLong`: characters of the fragment; `tooBig`: inflated bytes). */
export interface ShareCap {
  code: 'tooLong' | 'tooBig';
  size: number;
  limit: number;
}
export type DecodeResult = { ok: true; payload: SharePayload; notes: string[]; codedNotes?: Message[] } | { ok: false; error: string; coded?: Message; cap?: ShareCap };
export type PayloadCheck = { ok: true; payload: SharePayload; notes: string[]; codedNotes?: Message[] } | { ok: false; error: string; coded?: Message };

/** A failure from its message. */
const failed = (coded: Message) => ({ ok: false as const, error: en(coded), coded });

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/**
 * A decoded value as a note or error shows it, never stringified whole: a link's JSON may nest thousands
 * deep (JSON.stringify then overflows the stack) or hold a megabyte string.
 */
function shown(v: unknown): Message {
  if (typeof v === 'string') return verbatim(JSON.stringify(v.length > 80 ? v.slice(0, 80) + '…' : v));
  if (typeof v !== 'object' || v === null) return verbatim(String(v));
  if (Array.isArray(v) && v.length <= 16 && v.every((x) => x === null || typeof x === 'number' || typeof x === 'boolean')) return verbatim(`[${v.map(String).join(',')}]`);
  return msg(Array.isArray(v) ? 'msg.import.share.aList' : 'msg.import.share.anObject');
}

/** Whether a raw view setting came through the sanitiser unchanged (its values are scalars or a flat list). */
function unchanged(raw: unknown, clean: unknown): boolean {
  if (Array.isArray(clean)) return Array.isArray(raw) && raw.length === clean.length && raw.every((x, i) => x === clean[i]);
  return raw === clean;
}

// ---------------------------------------------------------------------------------------------------
// Payload from the app state

/**
 * The payload for what the page shows now. A custom scenario travels as its last valid request (never
 * the editor text, which may be invalid); one that never validated cannot be shared.
 */
export function shareFromState(state: PersistedState): PayloadCheck {
  const notes: Message[] = [];
  let scenario: ShareScenario;
  const custom = customOf(state, state.scenario);
  if (state.scenario.startsWith('custom:')) {
    if (!custom) return failed(msg('msg.import.share.noScenario', { ref: JSON.stringify(state.scenario) }));
    if (!custom.lastGood) return failed(msg('msg.import.share.neverValid', { name: custom.name }));
    const now = validateRequest(custom.text);
    if (!now.ok || JSON.stringify(now.request) !== JSON.stringify(custom.lastGood)) {
      notes.push(msg('msg.import.share.noteLastValid', { name: custom.name }));
    }
    scenario = { name: custom.name, request: custom.lastGood };
  } else scenario = { ref: state.scenario };
  const payload: SharePayload = { v: SHARE_VERSION, model: state.model, tab: state.tab, view: state.view, scenario };
  if (state.selectedToken !== null) payload.selectedToken = state.selectedToken;
  if (state.context !== 'last') payload.context = state.context;
  return { ok: true, payload, notes: notes.map(en), codedNotes: notes };
}

// ---------------------------------------------------------------------------------------------------
// Bytes: deflate-raw and base64url

/** Pushes `input` through a (de)compression stream; the write side runs concurrently so backpressure cannot stall it. */
async function transform(stream: CompressionStream | DecompressionStream, input: Uint8Array<ArrayBuffer>, cap: number) {
  const writer = stream.writable.getWriter();
  const writing = writer.write(input).then(() => writer.close());
  writing.catch(() => {}); // errors surface on the read side; never leave a rejection unhandled
  const result = await readCapped(stream.readable as ReadableStream<Uint8Array>, cap);
  if (result.ok) await writing;
  return result;
}

export async function deflateRaw(input: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const r = await transform(new CompressionStream('deflate-raw'), input, Number.MAX_SAFE_INTEGER);
  if (!r.ok) throw new Error('unreachable');
  return r.bytes;
}

/** Inflates, stopping as soon as the output passes `cap` bytes (null then). Throws on corrupt data. */
export async function inflateRaw(input: Uint8Array<ArrayBuffer>, cap: number): Promise<Uint8Array | null> {
  const r = await transform(new DecompressionStream('deflate-raw'), input, cap);
  return r.ok ? r.bytes : null;
}

export function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Null unless the text is base64url (standard base64 `+/` and padding are tolerated). */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9\-_+/]*={0,2}$/.test(text)) return null;
  const b64 = text.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  if (b64.length % 4 === 1) return null;
  try {
    const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------------
// Encode

function tooLong(chars: number, limit: number): Message {
  return msg('msg.import.share.tooLong', { chars: formatCount(chars), limit: formatCount(limit) });
}

export async function encodeShare(payload: SharePayload, limits: Partial<ShareLimits> = {}): Promise<EncodeResult> {
  const lim = { ...DEFAULTS, ...limits };
  // Only what decodeShare accepts is encoded: a link that cannot be opened is never handed out.
  const checked = checkPayload(payload);
  if (!checked.ok) return failed(msg('msg.import.share.cannotShare', undefined, undefined, { why: checked.coded ?? verbatim(checked.error) }));
  const json = JSON.stringify(checked.payload);
  const bytes = new TextEncoder().encode(json);
  if (bytes.byteLength > lim.maxInflatedBytes) {
    return failed(msg('msg.import.share.stateTooBig', { bytes: formatCount(bytes.byteLength), limit: formatCount(lim.maxInflatedBytes) }));
  }
  const fragment = `#${SHARE_KEY}=${toBase64Url(await deflateRaw(bytes))}`;
  if (fragment.length > lim.maxFragmentChars) return failed(tooLong(fragment.length, lim.maxFragmentChars));
  // The fragment is ASCII, so its characters are its bytes.
  return { ok: true, fragment, bytes: fragment.length };
}

// ---------------------------------------------------------------------------------------------------
// Decode

/** The encoded value of `#s=…`, `s=…` or a bare value; other `&`-separated keys are ignored. */
function fragmentValue(fragment: string): string | null {
  const f = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  if (!f.includes('=')) return f;
  for (const part of f.split('&')) {
    const eq = part.indexOf('=');
    if (eq >= 0 && part.slice(0, eq) === SHARE_KEY) return part.slice(eq + 1);
  }
  return null;
}

export async function decodeShare(fragment: string, limits: Partial<ShareLimits> = {}): Promise<DecodeResult> {
  const lim = { ...DEFAULTS, ...limits };
  const bad = (why: Message, cap?: ShareCap): DecodeResult => ({ ...failed(msg('msg.import.share.cannotOpen', undefined, undefined, { why })), ...(cap ? { cap } : {}) });
  if (typeof fragment !== 'string') return bad(msg('msg.import.share.noData'));
  if (fragment.length > lim.maxFragmentChars) {
    const cap: ShareCap = { code: 'tooLong', size: fragment.length, limit: lim.maxFragmentChars };
    return bad(msg('msg.import.share.linkTooLong', { size: formatCount(fragment.length), limit: formatCount(lim.maxFragmentChars) }), cap);
  }
  const value = fragmentValue(fragment);
  if (value === null) return bad(msg('msg.import.share.noKey', { key: SHARE_KEY }));
  if (value === '') return bad(msg('msg.import.share.empty'));
  let raw = value;
  if (raw.includes('%')) {
    try {
      raw = decodeURIComponent(raw);
    } catch {
      return bad(msg('msg.import.share.badEscape'));
    }
  }
  const compressed = fromBase64Url(raw);
  if (!compressed) return bad(msg('msg.import.share.badBase64'));
  let inflated: Uint8Array | null;
  try {
    inflated = await inflateRaw(compressed, lim.maxInflatedBytes);
  } catch {
    return bad(msg('msg.import.share.corrupt'));
  }
  if (!inflated) return bad(msg('msg.import.share.inflates', { limit: formatCount(lim.maxInflatedBytes) }), { code: 'tooBig', size: lim.maxInflatedBytes + 1, limit: lim.maxInflatedBytes });
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(inflated);
  } catch {
    return bad(msg('msg.import.share.notUtf8'));
  }
  let value2: unknown;
  try {
    value2 = JSON.parse(text);
  } catch {
    return bad(msg('msg.import.share.notJson'));
  }
  const checked = checkPayload(value2);
  return checked.ok ? checked : bad(checked.coded ?? verbatim(checked.error));
}

/**
 * Validates a payload from anywhere. Errors: wrong shape or version, an unknown scenario ref, an invalid
 * request (the validator's path-named errors). Settings that are invalid take their defaults, with a note.
 */
export function checkPayload(v: unknown): PayloadCheck {
  const notes: Message[] = [];
  if (!isObj(v)) return failed(msg('msg.import.share.notObject'));
  if (v.v !== SHARE_VERSION) {
    const newer = typeof v.v === 'number' && v.v > SHARE_VERSION;
    return failed(
      newer ? msg('msg.import.share.newer', { v: String(v.v), reads: SHARE_VERSION }) : v.v === undefined ? msg('msg.import.share.noVersion') : msg('msg.import.share.version', undefined, undefined, { v: shown(v.v) }),
    );
  }
  const known = new Set(['v', 'model', 'tab', 'view', 'scenario', 'selectedToken', 'context']);
  const extra = Object.keys(v).filter((k) => !known.has(k));
  if (extra.length) notes.push(msg('msg.import.share.noteIgnored', { fields: extra.join(', ') }));

  // Scenario: the one thing a link must get right.
  const s = v.scenario;
  let scenario: ShareScenario;
  if (!isObj(s)) return failed(msg('msg.import.req.missing', undefined, 'scenario'));
  if ('ref' in s) {
    if (typeof s.ref !== 'string') return failed(msg('msg.import.share.string', undefined, 'scenario.ref'));
    if (!isScenarioRef(s.ref)) return failed(msg('msg.import.share.unknownRef', { ref: JSON.stringify(s.ref.slice(0, 80)) }, 'scenario.ref'));
    scenario = { ref: s.ref };
  } else if ('request' in s) {
    if (typeof s.name !== 'string' || !s.name.trim()) return failed(msg('msg.import.share.nonEmpty', undefined, 'scenario.name'));
    const r = validateRequest(s.request);
    if (!r.ok) {
      // The validator's path-named errors, each under scenario.request.
      const lines = r.errors.map((e) => (e.key ? msg(e.key, e.params, `scenario.request.${e.path}`, e.parts) : verbatim(`scenario.request.${formatErrors([e])}`)));
      return failed(msg('msg.import.share.invalidRequest', undefined, undefined, { lines: joinLines(lines) }));
    }
    for (const n of r.codedNotes ?? r.notes.map(verbatim)) notes.push(msg('msg.import.share.noteRequest', undefined, undefined, { note: n }));
    scenario = { name: s.name.trim().slice(0, MAX_NAME_CHARS), request: r.request };
  } else return failed(msg('msg.import.share.scenarioShape', undefined, 'scenario'));

  // Settings: a bad one falls back to its default rather than refusing the whole link.
  let model = v.model;
  if (typeof model !== 'string' || !EMBEDDED_MODELS.some((m) => m.id === model)) {
    notes.push(msg('msg.import.share.noteModel', undefined, undefined, { model: shown(model) }));
    model = undefined;
  }
  let tab = v.tab as Tab;
  if (!TABS.includes(tab)) {
    notes.push(msg('msg.import.share.noteTab', undefined, undefined, { tab: shown(v.tab) }));
    tab = TABS[0]!;
  }
  const view = sanitizeView(v.view);
  if (!isObj(v.view)) notes.push(msg('msg.import.share.noteNoView'));
  else {
    for (const k of Object.keys(DEFAULT_VIEW) as (keyof ViewSettings)[]) {
      // Links made before a field existed simply lack it: that is no error.
      if (v.view[k] === undefined && k === 'pinned') continue;
      if (!unchanged(v.view[k], view[k])) notes.push(msg('msg.import.share.noteView', undefined, `view.${k}`, { value: shown(v.view[k]) }));
    }
  }
  const payload: SharePayload = { v: SHARE_VERSION, model: typeof model === 'string' ? model : DEFAULT_MODEL, tab, view, scenario };
  if (v.selectedToken !== undefined && v.selectedToken !== null) {
    if (isInt(v.selectedToken)) payload.selectedToken = v.selectedToken;
    else notes.push(msg('msg.import.share.noteToken', undefined, 'selectedToken'));
  }
  if (v.context !== undefined) {
    if (isContext(v.context)) payload.context = v.context;
    else notes.push(msg('msg.import.share.noteContext', undefined, 'context'));
  }
  return { ok: true, payload, notes: notes.map(en), codedNotes: notes };
}

// ---------------------------------------------------------------------------------------------------
// Apply

export type ApplyResult =
  | { ok: true; state: PersistedState; notes: string[]; codedNotes?: Message[]; created: string | null }
  | { ok: false; error: string; coded?: Message };

/**
 * The state after opening a link: settings applied and the scenario selected. A shared request becomes a
 * NEW custom scenario ("<name> (shared)", fresh id) unless one with an identical request exists, which is
 * selected instead. Existing custom scenarios are never changed or dropped: with MAX_CUSTOM already kept,
 * the link is refused. Pure: the caller writes the state (`store.setState(result.state)`). The language is
 * the user's own and is kept.
 */
export function applyShare(state: PersistedState, payload: SharePayload, now: number): ApplyResult {
  const notes: Message[] = [];
  let scenario: string;
  let custom: CustomScenario[] = state.custom;
  let created: string | null = null;
  const sc = payload.scenario;
  if ('ref' in sc) scenario = sc.ref;
  else {
    const r = addScenario(state.custom, { name: sc.name, label: 'shared', request: sc.request, now, idPrefix: 's', action: 'open this shared scenario' });
    if (!r.ok) return r;
    ({ custom, scenario, created } = r);
    notes.push(...(r.codedNotes ?? r.notes.map(verbatim)));
  }
  return {
    ok: true,
    state: {
      ...state,
      model: payload.model,
      tab: payload.tab,
      view: { ...payload.view },
      custom,
      scenario,
      selectedToken: payload.selectedToken ?? null,
      context: payload.context ?? 'last',
    },
    notes: notes.map(en),
    codedNotes: notes,
    created,
  };
}

