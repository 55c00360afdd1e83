// One entry point for data a user brings (pasted text, a dropped file, a ?url= link): decides what it is —
// an OpenAI chat-completions request body, a run log, or attention computed elsewhere — and reads it with
// that format's own reader. Pure (no DOM): runs in Node tests, workers and the page alike. Nothing here
// evaluates or renders the input; every string stays inert data.
import { checkRequestText, formatLocatedError, locatedMessage, type LocatedError } from '../prompt/editRequest';
import { messageOf } from '../i18n/message';
import { en, joinLines, msg, verbatim, type Message } from './msg';
import { formatJson } from '../prompt/jsonLocate';
import type { ChatRequest } from '../scenarios/types';
import { formatBytes } from '../analysis/kvBytes';
import { MAX_INPUT_CHARS as MAX_RUNLOG_CHARS, parseRunLog, parseRunLogValue, type RunLog, type RunLogForm } from './runlog';
import { ImportError, LIMITS, looksLikeSafetensors, parseAttentionTrajectory, parseKvscopeAttention, KVSCOPE_FORMAT, type ImportedAttention } from './attention';

export type ImportKind = 'request' | 'runlog' | 'attention';

/** Largest input read at all (bytes or characters): the attention reader's own limit. */
export const MAX_IMPORT_BYTES = LIMITS.maxBytes;

/**
 * `notes` and `error` in English (logs, tests); `codedNotes` and `coded` the same as messages for the
 * interface's language (lib/i18n/message.ts; an error of several lines is one message of lines).
 */
export type ImportOutcome =
  | { ok: true; kind: 'request'; request: ChatRequest; text: string; notes: string[]; codedNotes?: Message[] }
  | { ok: true; kind: 'runlog'; log: RunLog; form: RunLogForm; notes: string[]; codedNotes?: Message[] }
  | { ok: true; kind: 'attention'; attention: ImportedAttention; notes: string[]; codedNotes?: Message[] }
  | { ok: false; kind: ImportKind | null; error: string; coded?: Message; errors?: LocatedError[]; text?: string };

/** A failed outcome from its message (English `error` = its text). */
function refused(kind: ImportKind | null, coded: Message, extra: { errors?: LocatedError[]; text?: string } = {}): ImportOutcome {
  return { ok: false, kind, error: en(coded), coded, ...extra };
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What a parsed JSON value looks like, from its top-level keys only. null: none of ours. A request body has
 * `messages`; a kvscope attention file says `format: "kvscope-attention"`; the book's trajectories carry
 * `attention_data` or `llm_calls`; run logs carry `tracker_calls` (at the top, under `result` or under
 * `value.result`), or are a list of calls with `prompt_tokens`.
 */
export function kindOfValue(v: unknown): ImportKind | null {
  if (Array.isArray(v)) return v.length > 0 && isObj(v[0]) && 'prompt_tokens' in v[0] ? 'runlog' : null;
  if (!isObj(v)) return null;
  if (v.format === KVSCOPE_FORMAT || 'attention_data' in v || 'llm_calls' in v) return 'attention';
  if ('messages' in v) return 'request';
  const result = isObj(v.value) && isObj(v.value.result) ? v.value.result : isObj(v.result) ? v.result : v;
  if ('tracker_calls' in result) return 'runlog';
  return null;
}

const HELP = msg('msg.import.data.help');

/** Cheap look at text that is not one JSON value: a web-page capture of a run log still names its fields. */
function kindOfText(text: string): ImportKind | null {
  const head = text.slice(0, 4096);
  if (/"format"\s*:\s*"kvscope-attention"/.test(head) || /"(attention_data|llm_calls|attention_matrix)"\s*:/.test(text)) return 'attention';
  if (/"tracker_calls"\s*:/.test(text) || /"prompt_tokens"\s*:/.test(text)) return 'runlog';
  if (/"messages"\s*:/.test(head)) return 'request';
  return null;
}

function readAttention(input: unknown): ImportOutcome {
  try {
    const attention = isObj(input) && input.format === KVSCOPE_FORMAT ? parseKvscopeAttention(input) : input instanceof Uint8Array ? parseKvscopeAttention(input) : parseAttentionTrajectory(input);
    return { ok: true, kind: 'attention', attention, notes: [], codedNotes: [] };
  } catch (e) {
    if (e instanceof ImportError) return refused('attention', msg('msg.import.data.attention', undefined, undefined, { error: messageOf(e) ?? verbatim(e.message) }));
    throw e;
  }
}

function readRequest(text: string): ImportOutcome {
  const check = checkRequestText(text);
  if (check.ok) {
    // Keep the user's text as written when it is already readable; pretty-print a one-line body.
    const pretty = text.includes('\n') ? text : (() => {
      const f = formatJson(text);
      return f.ok ? f.text : text;
    })();
    return { ok: true, kind: 'request', request: check.request, text: pretty, notes: check.notes, codedNotes: check.codedNotes };
  }
  const shown = check.errors.slice(0, 8);
  const lines: Message[] = [
    check.errors.length === 1 ? msg('msg.import.data.requestOne') : msg('msg.import.data.requestErrors', { n: check.errors.length }),
    ...shown.map(locatedMessage),
    ...(check.errors.length > shown.length ? [msg('msg.import.data.more', { n: check.errors.length - shown.length })] : []),
  ];
  // English as it always read: the validator's own text on each line.
  const error = [en(lines[0]!), ...shown.map(formatLocatedError), ...lines.slice(1 + shown.length).map(en)].join('\n');
  return { ok: false, kind: 'request', error, coded: joinLines(lines), errors: check.errors, text };
}

/**
 * Reads `input` (text, or a file's bytes) as whichever of the three kinds it is. `hint` (from a file name's
 * extension, say) is only a tie-breaker: the content decides. Never throws on bad input.
 */
export function importData(input: string | Uint8Array, hint: ImportKind | null = null, maxBytes: number = MAX_IMPORT_BYTES): ImportOutcome {
  const size = typeof input === 'string' ? input.length : input.byteLength;
  if (size > maxBytes) return refused(hint, msg('msg.import.data.tooLarge', { size: formatBytes(size), limit: formatBytes(maxBytes) }));
  let text: string;
  if (input instanceof Uint8Array) {
    if (looksLikeSafetensors(input)) return readAttention(input);
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(input);
    } catch {
      return refused(hint, msg('msg.import.data.notText', { size: formatBytes(size) }, undefined, { help: HELP }));
    }
  } else text = input;
  text = text.replace(/^\uFEFF/, '');
  if (text.trim() === '') return refused(hint, msg('msg.import.data.empty', undefined, undefined, { help: HELP }));

  let value: unknown;
  let parsed = false;
  try {
    value = JSON.parse(text);
    parsed = true;
  } catch {
    // Not one JSON value: a page capture of a run log, or broken JSON (each reader reports where it breaks).
  }
  const kind = parsed ? kindOfValue(value) : kindOfText(text) ?? hint;
  if (kind === 'request') return readRequest(text);
  if (kind === 'attention') return readAttention(parsed ? value : text);
  if (kind === 'runlog') {
    // Already parsed: don't parse a long log twice. Page captures (not one JSON value) and text over the
    // run-log size limit go to the text reader, which reports that limit.
    const r = parsed && text.length <= MAX_RUNLOG_CHARS ? parseRunLogValue(value) : parseRunLog(text);
    return r.ok
      ? { ok: true, kind: 'runlog', log: r.log, form: r.form, notes: r.notes, codedNotes: r.codedNotes }
      : refused('runlog', msg('msg.import.data.runlog', undefined, undefined, { error: r.coded ?? verbatim(r.error) }));
  }
  if (!parsed) {
    // Broken JSON of unknown kind: the request reader's located syntax error says where (line, column).
    const r = readRequest(text);
    if (r.ok) return r;
    const one = r.errors?.length === 1 && r.errors[0]!.syntax ? r.errors[0]! : null;
    const head = one ? msg('msg.import.data.notJson', undefined, undefined, { error: locatedMessage(one) }) : (r.coded ?? verbatim(r.error));
    const error = `${r.error.replace(/^request body: one error\n/, 'not valid JSON: ')}\n${en(HELP)}`;
    return { ok: false, kind: null, error, coded: joinLines([head, HELP]) };
  }
  const top = isObj(value) ? Object.keys(value).slice(0, 8).join(', ') : '';
  const topMsg = isObj(value) ? (top ? verbatim(top) : msg('msg.import.data.topEmpty')) : Array.isArray(value) ? msg('msg.import.data.topList') : verbatim(typeof value);
  return refused(null, msg('msg.import.data.notFormat', undefined, undefined, { top: topMsg, help: HELP }));
}

/** The import's kind guessed from a file name, as a tie-breaker only. */
export function hintFromName(name: string): ImportKind | null {
  return /\.safetensors$/i.test(name) ? 'attention' : null;
}

/** A scenario or import name from a file name or URL: the last path part without its extension. */
export function nameFromSource(source: string, fallback: string): string {
  const last = source.replace(/[?#].*$/s, '').split(/[\\/]/).filter(Boolean).pop() ?? '';
  const base = last.replace(/\.(json|txt|safetensors|jsonl)$/i, '').trim();
  let decoded = base;
  try {
    decoded = decodeURIComponent(base);
  } catch {
    // keep the raw part
  }
  return (decoded || fallback).slice(0, 120);
}
