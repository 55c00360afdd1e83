// Adding a scenario that came from outside (a share link, an imported request body) to the user's list:
// always as a NEW custom scenario with a fresh id and a labelled name ("<name> (shared)", "(imported 2)"),
// or — when an identical request is already saved — by selecting that one. Existing scenarios are never
// changed or dropped: with MAX_CUSTOM already kept, the addition is refused with a clear message.
// Pure: returns the new custom list and the ref to select; the caller writes the state.
import type { ChatRequest } from '../scenarios/types';
import { customRef, MAX_CUSTOM, type CustomScenario } from './store';
import { en, msg, verbatim, type Message } from '../io/msg';

export const MAX_NAME_CHARS = 200;

/** Key-order-independent JSON, to compare requests. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

export interface AddScenarioArgs {
  /** The name the source gives (a shared scenario's name, a file name). */
  name: string;
  /** The label appended in parentheses: 'shared' or 'imported'. */
  label: string;
  /** The validated request; null for text that does not validate yet (opened in the editor to be fixed). */
  request: ChatRequest | null;
  /** The text kept in the editor; pretty-printed request JSON by default (required when request is null). */
  text?: string;
  now: number;
  /** First letter of new ids (ids only need to be unique within the list). */
  idPrefix: string;
  /** What the user was doing, for the refusal: "open this shared scenario". */
  action: string;
}

/** `notes` and `error` in English; `codedNotes` and `coded` the same as messages, for the interface's language. */
export type AddScenarioResult =
  | { ok: true; custom: CustomScenario[]; scenario: string; created: string | null; notes: string[]; codedNotes?: Message[] }
  | { ok: false; error: string; coded?: Message };

/** The words callers use for `label` and `action`, as messages (anything else is shown as given). */
const WORDS: Record<string, Message> = {
  shared: msg('msg.import.scn.labelShared'),
  imported: msg('msg.import.scn.labelImported'),
  'open this shared scenario': msg('msg.import.scn.actionShare'),
  'import this request': msg('msg.import.scn.actionImport'),
};
const word = (w: string): Message => (Object.prototype.hasOwnProperty.call(WORDS, w) ? WORDS[w]! : verbatim(w));

export function addScenario(existing: readonly CustomScenario[], a: AddScenarioArgs): AddScenarioResult {
  const key = a.request && canonicalJson(a.request);
  const same = key !== null ? existing.find((c) => c.lastGood && canonicalJson(c.lastGood) === key) : undefined;
  if (same) {
    const note = msg('msg.import.scn.known', { name: same.name }, undefined, { label: word(a.label) });
    return { ok: true, custom: existing as CustomScenario[], scenario: customRef(same.id), created: null, notes: [en(note)], codedNotes: [note] };
  }
  if (existing.length >= MAX_CUSTOM) {
    const coded = msg('msg.import.scn.full', { max: MAX_CUSTOM }, undefined, { action: word(a.action) });
    return { ok: false, error: en(coded), coded };
  }
  const ids = new Set(existing.map((c) => c.id));
  let id = '';
  for (let n = 0; !id || ids.has(id); n++) id = `${a.idPrefix}${Math.max(0, Math.floor(a.now)).toString(36)}${n.toString(36)}`;
  const names = new Set(existing.map((c) => c.name));
  // A scenario shared or imported again does not pile up suffixes.
  const suffix = new RegExp(` \\(${a.label}(?: \\d+)?\\)$`);
  const base = (a.name.trim() || a.label).replace(suffix, '').slice(0, MAX_NAME_CHARS - 20);
  let name = `${base} (${a.label})`;
  for (let n = 2; names.has(name); n++) name = `${base} (${a.label} ${n})`;
  const c: CustomScenario = { id, name, text: a.text ?? JSON.stringify(a.request, null, 2), lastGood: a.request, createdAt: a.now };
  return { ok: true, custom: [...existing, c], scenario: customRef(id), created: id, notes: [], codedNotes: [] };

}
