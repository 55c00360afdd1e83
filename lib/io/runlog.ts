// Run-log import: the per-call token counts an agent framework logged (the book's chapter-10 translation
// experiment writes them as `tracker_calls`), read from
//   (a) the raw result JSON — `{ value: { result: { tracker_calls, main_context_peak, … } } }`, or the
//       `result` object itself (`{ tracker_calls, … }`), or `{ result: { … } }`;
//   (b) a web-page capture of that JSON: page chrome above it, every JSON line followed by `|` / `||`
//       separator lines, long lines possibly wrapped (also in the middle of a string);
//   (c) a plain list `[{ agent, prompt_tokens, completion_tokens, note }]`;
//   (d) any of these with several agents (one series per agent).
// Pure (no DOM, no Node APIs): runs in Node and in Web Workers. Input is only ever JSON.parse'd; notes and
// other strings are kept as inert text, never evaluated or rendered here.
//
// Limits: input ≤ MAX_INPUT_CHARS (20 Mi characters), ≤ MAX_CALLS (100,000) calls, token counts are
// integers in [0, MAX_TOKENS]; an agent name ≤ MAX_AGENT_CHARS characters (else an error); a note, provider,
// model or outcome longer than MAX_TEXT_CHARS is cut to that length (with a line in `notes`).

import type { Params, StringKey } from '../i18n';
import { CodedError } from '../i18n/message';
import { en, msg, type Message } from './msg';

export const MAX_INPUT_CHARS = 20 * 1024 * 1024;
export const MAX_CALLS = 100_000;
export const MAX_TOKENS = 1e12;
export const MAX_AGENT_CHARS = 200;
export const MAX_TEXT_CHARS = 4096;
/** The agent name given to calls that have none (plain lists often omit it). */
export const DEFAULT_AGENT = 'agent';

export interface RunCall {
  agent: string;
  promptTokens: number;
  completionTokens: number;
  note?: string;
  latencySeconds?: number;
  provider?: string;
  model?: string;
  outcome?: string;
}

export interface RunLog {
  /** `mode` of the result ("single_agent", …) when the file gives one. */
  mode?: string;
  /** `main_context_peak` (or `manager_context_peak`) as the file states it. */
  mainContextPeak?: number;
  calls: RunCall[];
  /** Agents in order of first appearance. */
  agents: string[];
}

/** Which accepted form the text was: raw result JSON, a page capture of it, or a plain list of calls. */
export type RunLogForm = 'result-json' | 'page-capture' | 'list';

/**
 * `notes` and `error` in English (logs, the CLI, tests); `codedNotes` and `coded` the same as messages for
 * the interface's language (lib/i18n/message.ts).
 */
export type ParseRunLogResult = { ok: true; log: RunLog; form: RunLogForm; notes: string[]; codedNotes?: Message[] } | { ok: false; error: string; coded?: Message };

class LogError extends CodedError {
  override name = 'LogError';
}

/** A value as an error names it ("a list", "the string \"x\"", "number 5"). */
function describe(v: unknown): Message {
  if (v === null) return msg('msg.import.log.v.null');
  if (Array.isArray(v)) return msg('msg.import.log.v.list');
  if (typeof v === 'string') return v.length > 40 ? msg('msg.import.log.v.longString', { n: v.length }) : msg('msg.import.log.v.string', { text: JSON.stringify(v) });
  if (typeof v === 'object') return msg('msg.import.log.v.object');
  return msg('msg.import.log.v.other', { type: typeof v, value: String(v) });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Line and column (1-based) of a character offset, for error messages. */
function lineCol(text: string, pos: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let i = 0; i < pos && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  }
  return { line, column: pos - last };
}

function parseJson(text: string, what: Message): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const raw = (e as Error).message;
    const m = /position (\d+)/.exec(raw);
    const detail = raw.split('\n')[0]!.replace(/ in JSON at position \d+.*$/, '').slice(0, 120);
    const truncated = /end of (JSON|data)|Unterminated string/i.test(raw) || !m;
    if (!m) return fail('msg.import.log.jsonTruncated', { detail }, undefined, { what });
    const at = lineCol(text, Number(m[1]));
    return fail(truncated ? 'msg.import.log.jsonAtTruncated' : 'msg.import.log.jsonAt', { ...at, detail }, undefined, { what });
  }
}

function fail(key: StringKey, params?: Params, where?: string, parts?: Record<string, Message>): never {
  throw new LogError(key, params, where, parts);
}

const SEPARATOR = /^\s*\|+\s*$/;

/**
 * Reassembles the JSON of a page capture. From the first line that starts with `{` or `[`, drops the `|`
 * separator lines and joins the rest: a line break inside a JSON string was a wrap (joined with nothing), one
 * between tokens is kept as whitespace. Stops where the outermost value closes, so page chrome below is
 * ignored. Returns null when no line starts a JSON value. `joinOutside: ''` also rejoins a number or keyword
 * that was wrapped between lines (parseRunLog retries with it when the first reading is not valid JSON).
 */
export function reassembleCapture(text: string, joinOutside = '\n'): string | null {
  // Lines are walked with indexOf rather than split into an array: a capture of millions of short lines
  // (all within MAX_INPUT_CHARS) took seconds to split and join.
  const first = /(?:^|\n)[^\S\n]*[{[]/.exec(text);
  if (!first) return null;
  const out: string[] = [];
  let inString = false;
  let escaped = false;
  let depth = 0;
  let started = false;
  // A line break between tokens becomes one `joinOutside`, written before the next text (runs of blank lines collapse).
  let pendingJoin = false;
  for (let from = first.index + (first[0].startsWith('\n') ? 1 : 0); from <= text.length; ) {
    let nl = text.indexOf('\n', from);
    if (nl < 0) nl = text.length;
    const line = text.slice(from, nl > from && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl);
    from = nl + 1;
    if (line === '' || line === '|' || line === '||' || SEPARATOR.test(line)) continue; // the common cases without a regex
    // Outside a string a wrapped line's leading indentation is insignificant; inside it, keep it as is.
    const piece = inString ? line : line.trimStart();
    if (piece !== '' && pendingJoin) {
      out.push(joinOutside);
      pendingJoin = false;
    }
    for (let j = 0; j < piece.length; j++) {
      const c = piece.charCodeAt(j);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 92) escaped = true;
        else if (c === 34) inString = false;
      } else if (c === 34) inString = true;
      else if (c === 123 || c === 91) {
        depth++;
        started = true;
      } else if (c === 125 || c === 93) {
        depth--;
        if (started && depth === 0) {
          out.push(piece.slice(0, j + 1));
          return out.join('');
        }
      }
    }
    out.push(piece);
    if (!inString && out.length > 0) pendingJoin = true;
  }
  return out.join(''); // unbalanced: JSON.parse will say where it ends
}

function tokens(v: unknown, at: string): number {
  if (typeof v !== 'number') fail('msg.import.log.number', undefined, at, { got: describe(v) });
  if (!Number.isInteger(v) || v < 0 || v > MAX_TOKENS) fail('msg.import.log.tokens', { max: MAX_TOKENS, got: v }, at);
  return v;
}

function text(v: unknown, at: string, notes: Message[]): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') fail('msg.import.log.string', undefined, at, { got: describe(v) });
  if (v.length > MAX_TEXT_CHARS) {
    notes.push(msg('msg.import.log.cut', { n: v.length.toLocaleString('en-US'), max: MAX_TEXT_CHARS.toLocaleString('en-US') }, at));
    return v.slice(0, MAX_TEXT_CHARS);
  }
  return v;
}

function readCall(v: unknown, at: string, notes: Message[], missingAgent: { n: number }): RunCall {
  if (!isRecord(v)) fail('msg.import.log.call', undefined, at, { got: describe(v) });
  let agent: string;
  if (v.agent === undefined || v.agent === null) {
    agent = DEFAULT_AGENT;
    missingAgent.n++;
  } else if (typeof v.agent !== 'string') fail('msg.import.log.string', undefined, `${at}.agent`, { got: describe(v.agent) });
  else if (v.agent.length === 0) fail('msg.import.log.empty', undefined, `${at}.agent`);
  else if (v.agent.length > MAX_AGENT_CHARS) fail('msg.import.log.agentLong', { max: MAX_AGENT_CHARS, n: v.agent.length }, `${at}.agent`);
  else agent = v.agent;
  if (!('prompt_tokens' in v)) fail('msg.import.log.missing', undefined, `${at}.prompt_tokens`);
  if (!('completion_tokens' in v)) fail('msg.import.log.missing', undefined, `${at}.completion_tokens`);
  const call: RunCall = { agent: agent!, promptTokens: tokens(v.prompt_tokens, `${at}.prompt_tokens`), completionTokens: tokens(v.completion_tokens, `${at}.completion_tokens`) };
  const note = text(v.note, `${at}.note`, notes);
  if (note !== undefined) call.note = note;
  if (v.latency_seconds !== undefined && v.latency_seconds !== null) {
    if (typeof v.latency_seconds !== 'number' || !Number.isFinite(v.latency_seconds) || v.latency_seconds < 0) fail('msg.import.log.latency', undefined, `${at}.latency_seconds`, { got: describe(v.latency_seconds) });
    call.latencySeconds = v.latency_seconds;
  }
  for (const [key, field] of [['provider', 'provider'], ['model', 'model'], ['outcome', 'outcome']] as const) {
    const s = text(v[key], `${at}.${key}`, notes);
    if (s !== undefined) call[field] = s;
  }
  return call;
}

function readCalls(list: unknown[], path: string, notes: Message[]): RunCall[] {
  if (list.length > MAX_CALLS) fail('msg.import.log.callsLimit', { n: list.length.toLocaleString('en-US'), limit: MAX_CALLS.toLocaleString('en-US') }, path);
  const missingAgent = { n: 0 };
  const calls = list.map((c, i) => readCall(c, `${path}[${i}]`, notes, missingAgent));
  if (missingAgent.n > 0) notes.push(msg('msg.import.log.noAgent', { n: missingAgent.n, total: calls.length, agent: DEFAULT_AGENT }));
  return calls;
}

function agentsOf(calls: RunCall[]): string[] {
  return [...new Set(calls.map((c) => c.agent))];
}

function fromValue(value: unknown, notes: Message[]): RunLog {
  if (Array.isArray(value)) {
    if (value.length === 0) fail('msg.import.log.emptyList');
    const calls = readCalls(value, 'calls', notes);
    return { calls, agents: agentsOf(calls) };
  }
  if (!isRecord(value)) fail('msg.import.log.notLog', undefined, undefined, { got: describe(value) });
  const [result, path]: [Record<string, unknown>, string] =
    isRecord(value.value) && isRecord(value.value.result) ? [value.value.result, 'value.result.']
    : isRecord(value.result) ? [value.result, 'result.']
    : [value, ''];
  const list = result.tracker_calls;
  if (list === undefined) fail('msg.import.log.noCalls');
  if (!Array.isArray(list)) fail('msg.import.log.list', undefined, `${path}tracker_calls`, { got: describe(list) });
  if (list.length === 0) fail('msg.import.log.empty', undefined, `${path}tracker_calls`);
  const calls = readCalls(list, `${path}tracker_calls`, notes);
  const log: RunLog = { calls, agents: agentsOf(calls) };
  if (result.mode !== undefined) {
    if (typeof result.mode !== 'string' || result.mode.length > MAX_AGENT_CHARS) fail('msg.import.log.mode', undefined, `${path}mode`, { got: describe(result.mode) });
    log.mode = result.mode;
  }
  for (const key of ['main_context_peak', 'manager_context_peak'] as const) {
    if (result[key] === undefined || result[key] === null) continue;
    log.mainContextPeak = tokens(result[key], `${path}${key}`);
    if (key === 'manager_context_peak') notes.push(msg('msg.import.log.peakFrom', { field: `${path}manager_context_peak` }));
    break;
  }
  return log;
}

/** Reads a run log from any of the accepted forms; never throws. */
export function parseRunLog(input: string): ParseRunLogResult {
  const notes: Message[] = [];
  try {
    if (typeof input !== 'string') fail('msg.import.log.text', undefined, undefined, { got: describe(input) });
    if (input.length > MAX_INPUT_CHARS) fail('msg.import.log.inputLimit', { n: input.length.toLocaleString('en-US'), limit: MAX_INPUT_CHARS.toLocaleString('en-US') });
    const body = input.replace(/^\uFEFF/, '').trim();
    if (body === '') fail('msg.import.log.inputEmpty');
    // Whitespace within one line only: `\n\s*\|+\s*…`, whose \s also matches newlines, backtracked
    // quadratically over a long run of blank lines (100,000 newlines took 13 s).
    const hasSeparators = /\n[^\S\n]*\|+[^\S\n]*(?:\n|$)/.test(body);
    let value: unknown;
    let form: RunLogForm;
    if ((body[0] === '{' || body[0] === '[') && !hasSeparators) {
      value = parseJson(body, msg('msg.import.log.whatJson'));
      form = Array.isArray(value) ? 'list' : 'result-json';
    } else {
      const json = reassembleCapture(body);
      if (json === null) fail('msg.import.log.noJson');
      const what = msg('msg.import.log.whatCapture');
      try {
        value = parseJson(json, what);
      } catch (e) {
        if (!(e instanceof LogError)) throw e;
        const tight = reassembleCapture(body, '');
        try {
          value = parseJson(tight ?? '', what);
        } catch {
          throw e; // report the first reading's error
        }
      }
      form = 'page-capture';
      notes.push(msg('msg.import.log.capture'));
    }
    return logOf(value, form, notes);
  } catch (e) {
    return failure(e);
  }
}

/** The run log in a value already parsed from raw JSON (a result object or a list of calls); never throws. */
export function parseRunLogValue(value: unknown): ParseRunLogResult {
  try {
    return logOf(value, Array.isArray(value) ? 'list' : 'result-json', []);
  } catch (e) {
    return failure(e);
  }
}

/** The run's peak: the largest prompt of any call, its first call (1-based) and that call's agent. */
export interface RunPeak {
  tokens: number;
  index: number;
  agent: string;
  /**
   * When the file states a context peak that is not the run's: the agent whose own peak it is (the first
   * agent whose largest prompt equals it, e.g. a manager's `manager_context_peak`); absent when none is.
   */
  statedAgent?: string;
}

/** The run's peak and, for a stated peak that differs from it, whose peak the file states. */
export function runPeak(log: RunLog): RunPeak {
  let peak: RunPeak = { tokens: 0, index: 0, agent: log.calls[0]?.agent ?? DEFAULT_AGENT };
  const own = new Map<string, number>();
  log.calls.forEach((c, i) => {
    if (i === 0 || c.promptTokens > peak.tokens) peak = { tokens: c.promptTokens, index: i + 1, agent: c.agent };
    own.set(c.agent, Math.max(own.get(c.agent) ?? 0, c.promptTokens));
  });
  const stated = log.mainContextPeak;
  if (stated !== undefined && stated !== peak.tokens) {
    for (const [agent, p] of own) {
      if (p === stated) {
        peak.statedAgent = agent;
        break;
      }
    }
  }
  return peak;
}

function logOf(value: unknown, form: RunLogForm, notes: Message[]): ParseRunLogResult {
  const log = fromValue(value, notes);
  const peak = runPeak(log);
  // A multi-agent framework often states one agent's own peak (a manager's): name whose it is, and the run's.
  const where = msg('msg.import.log.peakWhere', { tokens: peak.tokens.toLocaleString('en-US'), agent: JSON.stringify(peak.agent), index: peak.index });
  if (log.mainContextPeak !== undefined && log.mainContextPeak !== peak.tokens) {
    const stated = log.mainContextPeak.toLocaleString('en-US');
    notes.push(
      peak.statedAgent !== undefined
        ? msg('msg.import.log.peakAgent', { stated, agent: JSON.stringify(peak.statedAgent) }, undefined, { where })
        : msg('msg.import.log.peakDiffers', { stated }, undefined, { where }),
    );
  }
  return { ok: true, log, form, notes: notes.map(en), codedNotes: notes };
}

function failure(e: unknown): ParseRunLogResult {
  if (e instanceof LogError) return { ok: false, error: e.message, coded: msg(e.key, e.params, e.where, e.parts) };
  if (e instanceof RangeError) {
    const coded = msg('msg.import.log.tooLarge', { detail: e.message });
    return { ok: false, error: en(coded), coded };
  }
  throw e;
}


/** The log as raw result JSON (`{ value: { result: … } }`, snake_case fields), which parseRunLog reads back equal. */
export function serializeRunLog(log: RunLog): string {
  const result: Record<string, unknown> = {};
  if (log.mode !== undefined) result.mode = log.mode;
  if (log.mainContextPeak !== undefined) result.main_context_peak = log.mainContextPeak;
  result.tracker_calls = log.calls.map((c) => {
    const o: Record<string, unknown> = { agent: c.agent, prompt_tokens: c.promptTokens, completion_tokens: c.completionTokens };
    if (c.note !== undefined) o.note = c.note;
    if (c.latencySeconds !== undefined) o.latency_seconds = c.latencySeconds;
    if (c.provider !== undefined) o.provider = c.provider;
    if (c.model !== undefined) o.model = c.model;
    if (c.outcome !== undefined) o.outcome = c.outcome;
    return o;
  });
  return JSON.stringify({ value: { result } }, null, 2);
}
