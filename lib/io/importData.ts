// One entry point for data a user brings (pasted text, a dropped file, a ?url= link): decides what it is —
// an OpenAI chat-completions request body, a run log, or attention computed elsewhere — and reads it with
// that format's own reader. Pure (no DOM): runs in Node tests, workers and the page alike. Nothing here
// evaluates or renders the input; every string stays inert data.
import { checkRequestText, formatLocatedError, type LocatedError } from '../prompt/editRequest';
import { formatJson } from '../prompt/jsonLocate';
import type { ChatRequest } from '../scenarios/types';
import { formatBytes } from '../analysis/kvBytes';
import { MAX_INPUT_CHARS as MAX_RUNLOG_CHARS, parseRunLog, parseRunLogValue, type RunLog, type RunLogForm } from './runlog';
import { ImportError, LIMITS, looksLikeSafetensors, parseAttentionTrajectory, parseKvscopeAttention, KVSCOPE_FORMAT, type ImportedAttention } from './attention';

export type ImportKind = 'request' | 'runlog' | 'attention';

/** Largest input read at all (bytes or characters): the attention reader's own limit. */
export const MAX_IMPORT_BYTES = LIMITS.maxBytes;

export type ImportOutcome =
  | { ok: true; kind: 'request'; request: ChatRequest; text: string; notes: string[] }
  | { ok: true; kind: 'runlog'; log: RunLog; form: RunLogForm; notes: string[] }
  | { ok: true; kind: 'attention'; attention: ImportedAttention; notes: string[] }
  | { ok: false; kind: ImportKind | null; error: string; errors?: LocatedError[]; text?: string };

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

const HELP = 'expected an OpenAI chat-completions request body ({"messages": […], "tools": […]}), a run log (tracker_calls, or a list of {agent, prompt_tokens, completion_tokens}), or attention (kvscope-attention JSON / .safetensors, or an attention_visualization trajectory)';

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
    return { ok: true, kind: 'attention', attention, notes: [] };
  } catch (e) {
    if (e instanceof ImportError) return { ok: false, kind: 'attention', error: `attention: ${e.message}` };
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
    return { ok: true, kind: 'request', request: check.request, text: pretty, notes: check.notes };
  }
  const shown = check.errors.slice(0, 8).map(formatLocatedError);
  const more = check.errors.length > shown.length ? [`… and ${check.errors.length - shown.length} more`] : [];
  return { ok: false, kind: 'request', error: ['request body: ' + (check.errors.length === 1 ? 'one error' : `${check.errors.length} errors`), ...shown, ...more].join('\n'), errors: check.errors, text };
}

/**
 * Reads `input` (text, or a file's bytes) as whichever of the three kinds it is. `hint` (from a file name's
 * extension, say) is only a tie-breaker: the content decides. Never throws on bad input.
 */
export function importData(input: string | Uint8Array, hint: ImportKind | null = null, maxBytes: number = MAX_IMPORT_BYTES): ImportOutcome {
  const size = typeof input === 'string' ? input.length : input.byteLength;
  if (size > maxBytes) return { ok: false, kind: hint, error: `input of ${formatBytes(size)} is larger than the limit of ${formatBytes(maxBytes)}` };
  let text: string;
  if (input instanceof Uint8Array) {
    if (looksLikeSafetensors(input)) return readAttention(input);
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(input);
    } catch {
      return { ok: false, kind: hint, error: `neither UTF-8 text nor a .safetensors file (${formatBytes(size)}); ${HELP}` };
    }
  } else text = input;
  text = text.replace(/^\uFEFF/, '');
  if (text.trim() === '') return { ok: false, kind: hint, error: `nothing to import: the input is empty; ${HELP}` };

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
    return r.ok ? { ok: true, kind: 'runlog', log: r.log, form: r.form, notes: r.notes } : { ok: false, kind: 'runlog', error: `run log: ${r.error}` };
  }
  if (!parsed) {
    // Broken JSON of unknown kind: the request reader's located syntax error says where (line, column).
    const r = readRequest(text);
    if (r.ok) return r;
    return { ok: false, kind: null, error: `${r.error.replace(/^request body: one error\n/, 'not valid JSON: ')}\n${HELP}` };
  }
  const keys = isObj(value) ? Object.keys(value).slice(0, 8).join(', ') : Array.isArray(value) ? 'a list' : typeof value;
  return { ok: false, kind: null, error: `not a format kvscope reads (top level: ${keys || 'an empty object'}); ${HELP}` };
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
