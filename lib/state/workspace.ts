// The whole workspace as one JSON file: settings, the user's scenarios and the imported run logs and
// attention files (inputs as text, or base64 for bytes). Reading a file checks every field and names the
// place of the first problem (`scenarios[3].name`); merging never changes or drops an existing item — a
// name already taken gets a suffix, an identical item is skipped, and more scenarios than MAX_CUSTOM are
// refused as a whole with how many to delete first. Pure: the page writes the result (components/data/WorkspacePanel.tsx).
import { validateRequest } from '../prompt/request';
import { parseJsonLocated } from '../prompt/jsonLocate';
import type { ChatRequest } from '../scenarios/types';
import { DEFAULT_SCENARIO } from '../scenarios/catalog';
import { canonicalJson } from './addScenario';
import type { ImportKindStored, ImportMeta, StoredImport } from './db';
import { msg, verbatim, type Message } from '../io/msg';
import { customRef, MAX_CUSTOM, sanitizePersisted, type CustomScenario, type PersistedState } from './store';

export const WORKSPACE_FORMAT = 'kvscope-workspace';
export const WORKSPACE_VERSION = 1;
/** Files above this are refused before parsing (a JSON.parse of it would hold several times its size). */
export const MAX_WORKSPACE_CHARS = 512 * 1024 * 1024;
const MAX_NAME = 200;

export type Settings = Omit<PersistedState, 'custom'>;

export interface Workspace {
  settings: Settings;
  scenarios: CustomScenario[];
  imports: StoredImport[];
  exportedAt: string | null;
}

// ---- writing ---------------------------------------------------------------------------------------------

function toBase64(bytes: Uint8Array): string {
  let out = '';
  // String.fromCharCode takes arguments: in slices, so large inputs never overflow the call stack.
  for (let i = 0; i < bytes.length; i += 0x8000) out += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(out);
}

function fromBase64(text: string): Uint8Array | null {
  let bin: string;
  try {
    bin = atob(text);
  } catch {
    return null;
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** The file's text. */
export function writeWorkspace(state: PersistedState, imports: readonly StoredImport[], now: Date): string {
  const { custom, ...settings } = state;
  return JSON.stringify(
    {
      format: WORKSPACE_FORMAT,
      version: WORKSPACE_VERSION,
      exportedAt: now.toISOString(),
      settings,
      scenarios: custom.map((c) => ({ id: c.id, name: c.name, text: c.text, lastGood: c.lastGood, createdAt: c.createdAt })),
      imports: imports.map((i) => ({
        id: i.id,
        name: i.name,
        kind: i.kind,
        createdAt: i.createdAt,
        input: typeof i.input === 'string' ? { text: i.input } : { base64: toBase64(i.input) },
      })),
    },
    null,
    1,
  );
}

// ---- reading ---------------------------------------------------------------------------------------------

export type WorkspaceErrorCode = 'tooLarge' | 'json' | 'format' | 'version' | 'type' | 'value' | 'request';

/** A refusal: `code` and `params` for the interface's words, `place` where in the file, `message` in English. */
export interface WorkspaceError {
  code: WorkspaceErrorCode;
  /** `scenarios[3].name`, `imports[0].input`, `(file)`; line and column for JSON syntax errors. */
  place: string;
  params: Record<string, string | number>;
  message: string;
  /** The `detail` parameter as a message (a JSON syntax error, the request validator's error), for the interface's language. */
  detailCoded?: Message;
}

export type WorkspaceRead = { ok: true; workspace: Workspace } | { ok: false; error: WorkspaceError };

/** JSON value kinds, as codes in `params` (the interface words them) and in English in `message`. */
export type ValueKind = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null' | 'missing';
const KIND_WORDS: Record<ValueKind, string> = { object: 'an object', array: 'an array', string: 'a string', number: 'a number', boolean: 'true or false', null: 'null', missing: 'nothing (missing)' };
type Kind = 'object' | 'array' | 'string' | 'number';
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
function kindOf(v: unknown): ValueKind {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  const t = typeof v;
  return t === 'object' || t === 'string' || t === 'number' || t === 'boolean' ? t : 'missing';
}

class Refusal {
  constructor(readonly error: WorkspaceError) {}
}

function refuse(code: WorkspaceErrorCode, place: string, message: string, params: Record<string, string | number> = {}, detailCoded?: Message): never {
  throw new Refusal({ code, place, params: { place, ...params }, message: `${place}: ${message}`, ...(detailCoded ? { detailCoded } : {}) });
}

function expect<T>(v: unknown, kind: Kind, place: string): T {
  const ok = kind === 'object' ? isObj(v) : kind === 'array' ? Array.isArray(v) : kind === 'string' ? typeof v === 'string' : typeof v === 'number' && Number.isFinite(v);
  if (!ok) refuse('type', place, `expected ${KIND_WORDS[kind]}, found ${KIND_WORDS[kindOf(v)]}`, { expected: kind, found: kindOf(v) });
  return v as T;
}

function name(v: unknown, place: string): string {
  const s = expect<string>(v, 'string', place);
  if (!s.trim()) refuse('value', place, 'the name is empty', { detail: 'empty' }, msg('msg.import.ws.emptyName'));
  return s.slice(0, MAX_NAME);
}

function readScenario(v: unknown, place: string): CustomScenario {
  const o = expect<Record<string, unknown>>(v, 'object', place);
  const id = expect<string>(o.id, 'string', `${place}.id`);
  const text = expect<string>(o.text, 'string', `${place}.text`);
  let lastGood: ChatRequest | null = null;
  if (o.lastGood !== null && o.lastGood !== undefined) {
    const r = validateRequest(o.lastGood);
    if (!r.ok) {
      const first = r.errors[0]!;
      const detailCoded = first.key ? msg(first.key, first.params, first.path, first.parts) : verbatim(`${first.path}: ${first.message}`);
      refuse('request', `${place}.lastGood`, `not a valid request: ${first.path}: ${first.message}`, { detail: `${first.path}: ${first.message}` }, detailCoded);
    }
    lastGood = r.request;
  }
  const createdAt = o.createdAt === undefined ? 0 : expect<number>(o.createdAt, 'number', `${place}.createdAt`);
  return { id, name: name(o.name, `${place}.name`), text, lastGood, createdAt };
}

const KINDS: readonly ImportKindStored[] = ['runlog', 'attention'];

function readImport(v: unknown, place: string): StoredImport {
  const o = expect<Record<string, unknown>>(v, 'object', place);
  const id = expect<string>(o.id, 'string', `${place}.id`);
  const kind = expect<string>(o.kind, 'string', `${place}.kind`);
  if (!KINDS.includes(kind as ImportKindStored)) {
    refuse('value', `${place}.kind`, `expected "runlog" or "attention", found ${JSON.stringify(kind.slice(0, 40))}`, { detail: kind.slice(0, 40) }, msg('msg.import.ws.kind', { found: JSON.stringify(kind.slice(0, 40)) }));
  }
  const createdAt = o.createdAt === undefined ? 0 : expect<number>(o.createdAt, 'number', `${place}.createdAt`);
  const inp = expect<Record<string, unknown>>(o.input, 'object', `${place}.input`);
  let input: string | Uint8Array;
  if (typeof inp.text === 'string') input = inp.text;
  else if (typeof inp.base64 === 'string') {
    const bytes = fromBase64(inp.base64);
    if (!bytes) refuse('value', `${place}.input.base64`, 'not valid base64', { detail: 'base64' }, msg('msg.import.ws.base64'));
    input = bytes;
  } else refuse('type', `${place}.input.text`, 'expected a string ({"text": …}, or {"base64": …} for bytes)', { expected: 'string', found: kindOf(inp.text ?? inp.base64) });
  const size = typeof input === 'string' ? input.length : input.byteLength;
  return { id, name: name(o.name, `${place}.name`), kind: kind as ImportKindStored, createdAt, input, size };
}

/** Checks a workspace file; the first problem is refused with its place. Nothing outside the result is touched. */
export function readWorkspace(text: string, maxChars = MAX_WORKSPACE_CHARS): WorkspaceRead {
  if (text.length > maxChars) {
    return { ok: false, error: { code: 'tooLarge', place: '(file)', params: { place: '(file)', size: text.length, max: maxChars }, message: `the file has ${text.length} characters, more than the ${maxChars} read` } };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    // JSON.parse says little about where; the locating parser (the editor's) says line and column.
    const located = text.length <= 32 * 1024 * 1024 ? parseJsonLocated(text) : null;
    const e = located && !located.ok ? located.error : null;
    const place = e ? `line ${e.line}, column ${e.column}` : '(file)';
    const detailCoded = e ? e.coded : msg('msg.import.ws.notJson');
    return { ok: false, error: { code: 'json', place, params: { place, line: e?.line ?? 0, column: e?.column ?? 0, detail: e?.reason ?? 'not JSON' }, message: `not valid JSON: ${e?.message ?? 'JSON.parse failed'}`, detailCoded } };

  }
  try {
    const o = expect<Record<string, unknown>>(raw, 'object', '(file)');
    if (o.format !== WORKSPACE_FORMAT) refuse('format', 'format', `expected "${WORKSPACE_FORMAT}", found ${JSON.stringify(o.format)?.slice(0, 60) ?? 'nothing'}`, { found: JSON.stringify(o.format)?.slice(0, 60) ?? '—' });
    const version = expect<number>(o.version, 'number', 'version');
    if (!Number.isInteger(version) || version < 1 || version > WORKSPACE_VERSION) refuse('version', 'version', `version ${version} is not one this kvscope reads (1 to ${WORKSPACE_VERSION})`, { found: version, max: WORKSPACE_VERSION });
    const settingsRaw = o.settings === undefined ? {} : expect<Record<string, unknown>>(o.settings, 'object', 'settings');
    const scenarios = (o.scenarios === undefined ? [] : expect<unknown[]>(o.scenarios, 'array', 'scenarios')).map((s, i) => readScenario(s, `scenarios[${i}]`));
    const imports = (o.imports === undefined ? [] : expect<unknown[]>(o.imports, 'array', 'imports')).map((s, i) => readImport(s, `imports[${i}]`));
    // Settings are sanitised field by field like stored ones (an unknown model falls back to the default).
    const { custom: _c, ...settings } = sanitizePersisted({ ...settingsRaw, custom: scenarios });
    return { ok: true, workspace: { settings, scenarios, imports, exportedAt: typeof o.exportedAt === 'string' ? o.exportedAt.slice(0, 40) : null } };
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, error: e.error };
    throw e;
  }
}

// ---- merging ---------------------------------------------------------------------------------------------

export type MergeStatus = 'add' | 'renamed' | 'same';

export interface PlannedScenario {
  status: MergeStatus;
  /** The name it gets (the file's, or with a suffix when taken); for 'same', the existing one's. */
  name: string;
  from: string;
  /** The id it gets; for 'same', the existing scenario's. */
  id: string;
  scenario: CustomScenario;
}

export interface PlannedImport {
  status: MergeStatus;
  name: string;
  from: string;
  id: string;
  item: StoredImport;
}

export interface MergePlan {
  scenarios: PlannedScenario[];
  imports: PlannedImport[];
  /** The file's settings, its selected scenario pointed at the id it gets here. */
  settings: Settings;
  /** Set when the scenarios would go above MAX_CUSTOM: nothing may be imported until `excess` are deleted. */
  overCap: { total: number; max: number; excess: number } | null;
}

/** "name", "name (2)", "name (3)"… : the first not in `taken` (which it joins). */
function freeName(base: string, taken: Set<string>): string {
  const stem = base.replace(/ \(\d+\)$/, '').slice(0, MAX_NAME - 8);
  let n = base;
  for (let i = 2; taken.has(n); i++) n = `${stem} (${i})`;
  taken.add(n);
  return n;
}

function freeId(prefix: string, now: number, taken: Set<string>): string {
  let id = '';
  for (let n = 0; !id || taken.has(id); n++) id = `${prefix}${Math.max(0, Math.floor(now)).toString(36)}${n.toString(36)}`;
  taken.add(id);
  return id;
}

export function planMerge(current: { custom: readonly CustomScenario[]; imports: readonly ImportMeta[] }, ws: Workspace, now: number): MergePlan {
  const names = new Set(current.custom.map((c) => c.name));
  const ids = new Set(current.custom.map((c) => c.id));
  const idMap = new Map<string, string>();
  const scenarios = ws.scenarios.map((s): PlannedScenario => {
    const same = current.custom.find((c) => c.name === s.name && c.text === s.text && canonicalJson(c.lastGood) === canonicalJson(s.lastGood));
    if (same) {
      idMap.set(s.id, same.id);
      return { status: 'same', name: same.name, from: s.name, id: same.id, scenario: same };
    }
    const n = freeName(s.name, names);
    const id = freeId('w', now, ids);
    idMap.set(s.id, id);
    return { status: n === s.name ? 'add' : 'renamed', name: n, from: s.name, id, scenario: { ...s, id, name: n } };
  });

  const importNames = new Set(current.imports.map((i) => i.name));
  const importIds = new Set(current.imports.map((i) => i.id));
  const imports = ws.imports.map((item): PlannedImport => {
    const same = current.imports.find((i) => i.name === item.name && i.kind === item.kind && i.size === item.size && i.createdAt === item.createdAt);
    if (same) return { status: 'same', name: same.name, from: item.name, id: same.id, item };
    const n = freeName(item.name, importNames);
    const id = freeId('w', now, importIds);
    return { status: n === item.name ? 'add' : 'renamed', name: n, from: item.name, id, item: { ...item, id, name: n } };
  });

  const ref = ws.settings.scenario;
  const mapped = ref.startsWith('custom:') ? idMap.get(ref.slice('custom:'.length)) : undefined;
  const settings: Settings = { ...ws.settings, scenario: mapped ? customRef(mapped) : ref.startsWith('custom:') ? DEFAULT_SCENARIO : ref };
  const added = scenarios.filter((s) => s.status !== 'same').length;
  const total = current.custom.length + added;
  return { scenarios, imports, settings, overCap: added > 0 && total > MAX_CUSTOM ? { total, max: MAX_CUSTOM, excess: total - MAX_CUSTOM } : null };
}

/** The scenario list after the merge: the existing ones unchanged, then the new ones. */
export function mergedScenarios(current: readonly CustomScenario[], plan: MergePlan): CustomScenario[] {
  return [...current, ...plan.scenarios.filter((s) => s.status !== 'same').map((s) => s.scenario)];
}

/** The imports to store (new ones only). */
export function newImports(plan: MergePlan): StoredImport[] {
  return plan.imports.filter((i) => i.status !== 'same').map((i) => i.item);
}
