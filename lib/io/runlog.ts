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

export type ParseRunLogResult = { ok: true; log: RunLog; form: RunLogForm; notes: string[] } | { ok: false; error: string };

class LogError extends Error {}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return v.length > 40 ? `a string of ${v.length} characters` : `the string ${JSON.stringify(v)}`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Line and column (1-based) of a character offset, for error messages. */
function lineCol(text: string, pos: number): string {
  let line = 1;
  let last = -1;
  for (let i = 0; i < pos && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  }
  return `line ${line}, column ${pos - last}`;
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const msg = (e as Error).message;
    const m = /position (\d+)/.exec(msg);
    const where = m ? ` at ${lineCol(text, Number(m[1]))}` : '';
    const short = msg.split('\n')[0]!.replace(/ in JSON at position \d+.*$/, '').slice(0, 120);
    if (/end of (JSON|data)|Unterminated string/i.test(msg) || !m) return fail(`${what}: invalid JSON${where} (${short}; truncated?)`);
    return fail(`${what}: invalid JSON${where} (${short})`);
  }
}

function fail(msg: string): never {
  throw new LogError(msg);
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
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => /^\s*[{[]/.test(l));
  if (start < 0) return null;
  const out: string[] = [];
  let inString = false;
  let escaped = false;
  let depth = 0;
  let started = false;
  for (let i = start; i < lines.length; i++) {
    const line = lines[i]!;
    if (SEPARATOR.test(line)) continue;
    // Outside a string a wrapped line's leading indentation is insignificant; inside it, keep it as is.
    const piece = inString ? line : line.trimStart();
    if (out.length > 0 && !inString) out.push(joinOutside);
    for (let j = 0; j < piece.length; j++) {
      const c = piece[j]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === '\\') escaped = true;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{' || c === '[') {
        depth++;
        started = true;
      } else if (c === '}' || c === ']') {
        depth--;
        if (started && depth === 0) {
          out.push(piece.slice(0, j + 1));
          return out.join('');
        }
      }
    }
    out.push(piece);
  }
  return out.join(''); // unbalanced: JSON.parse will say where it ends
}

function tokens(v: unknown, at: string): number {
  if (typeof v !== 'number') fail(`${at}: expected a number (got ${describe(v)})`);
  if (!Number.isInteger(v) || v < 0 || v > MAX_TOKENS) fail(`${at}: expected a whole number of tokens from 0 to ${MAX_TOKENS} (got ${v})`);
  return v;
}

function text(v: unknown, at: string, notes: string[]): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') fail(`${at}: expected a string (got ${describe(v)})`);
  if (v.length > MAX_TEXT_CHARS) {
    notes.push(`${at}: ${v.length.toLocaleString('en-US')} characters, kept the first ${MAX_TEXT_CHARS.toLocaleString('en-US')}`);
    return v.slice(0, MAX_TEXT_CHARS);
  }
  return v;
}

function readCall(v: unknown, at: string, notes: string[], missingAgent: { n: number }): RunCall {
  if (!isRecord(v)) fail(`${at}: expected an object with prompt_tokens and completion_tokens (got ${describe(v)})`);
  let agent: string;
  if (v.agent === undefined || v.agent === null) {
    agent = DEFAULT_AGENT;
    missingAgent.n++;
  } else if (typeof v.agent !== 'string') fail(`${at}.agent: expected a string (got ${describe(v.agent)})`);
  else if (v.agent.length === 0) fail(`${at}.agent: empty`);
  else if (v.agent.length > MAX_AGENT_CHARS) fail(`${at}.agent: longer than ${MAX_AGENT_CHARS} characters (${v.agent.length})`);
  else agent = v.agent;
  if (!('prompt_tokens' in v)) fail(`${at}.prompt_tokens: missing`);
  if (!('completion_tokens' in v)) fail(`${at}.completion_tokens: missing`);
  const call: RunCall = { agent: agent!, promptTokens: tokens(v.prompt_tokens, `${at}.prompt_tokens`), completionTokens: tokens(v.completion_tokens, `${at}.completion_tokens`) };
  const note = text(v.note, `${at}.note`, notes);
  if (note !== undefined) call.note = note;
  if (v.latency_seconds !== undefined && v.latency_seconds !== null) {
    if (typeof v.latency_seconds !== 'number' || !Number.isFinite(v.latency_seconds) || v.latency_seconds < 0) fail(`${at}.latency_seconds: expected a number ≥ 0 (got ${describe(v.latency_seconds)})`);
    call.latencySeconds = v.latency_seconds;
  }
  for (const [key, field] of [['provider', 'provider'], ['model', 'model'], ['outcome', 'outcome']] as const) {
    const s = text(v[key], `${at}.${key}`, notes);
    if (s !== undefined) call[field] = s;
  }
  return call;
}

function readCalls(list: unknown[], path: string, notes: string[]): RunCall[] {
  if (list.length > MAX_CALLS) fail(`${path}: ${list.length.toLocaleString('en-US')} calls, more than the limit of ${MAX_CALLS.toLocaleString('en-US')}`);
  const missingAgent = { n: 0 };
  const calls = list.map((c, i) => readCall(c, `${path}[${i}]`, notes, missingAgent));
  if (missingAgent.n > 0) notes.push(`${missingAgent.n} of ${calls.length} calls name no agent; counted as "${DEFAULT_AGENT}"`);
  return calls;
}

function agentsOf(calls: RunCall[]): string[] {
  return [...new Set(calls.map((c) => c.agent))];
}

function fromValue(value: unknown, notes: string[]): RunLog {
  if (Array.isArray(value)) {
    if (value.length === 0) fail('the list of calls is empty');
    const calls = readCalls(value, 'calls', notes);
    return { calls, agents: agentsOf(calls) };
  }
  if (!isRecord(value)) fail(`expected a result object or a list of calls (got ${describe(value)})`);
  const [result, path]: [Record<string, unknown>, string] =
    isRecord(value.value) && isRecord(value.value.result) ? [value.value.result, 'value.result.']
    : isRecord(value.result) ? [value.result, 'result.']
    : [value, ''];
  const list = result.tracker_calls;
  if (list === undefined) fail(`no tracker_calls (looked for value.result.tracker_calls, result.tracker_calls and tracker_calls)`);
  if (!Array.isArray(list)) fail(`${path}tracker_calls: expected a list (got ${describe(list)})`);
  if (list.length === 0) fail(`${path}tracker_calls: empty`);
  const calls = readCalls(list, `${path}tracker_calls`, notes);
  const log: RunLog = { calls, agents: agentsOf(calls) };
  if (result.mode !== undefined) {
    if (typeof result.mode !== 'string' || result.mode.length > MAX_AGENT_CHARS) fail(`${path}mode: expected a short string (got ${describe(result.mode)})`);
    log.mode = result.mode;
  }
  for (const key of ['main_context_peak', 'manager_context_peak'] as const) {
    if (result[key] === undefined || result[key] === null) continue;
    log.mainContextPeak = tokens(result[key], `${path}${key}`);
    if (key === 'manager_context_peak') notes.push(`context peak taken from ${path}manager_context_peak`);
    break;
  }
  return log;
}

/** Reads a run log from any of the accepted forms; never throws. */
export function parseRunLog(input: string): ParseRunLogResult {
  const notes: string[] = [];
  try {
    if (typeof input !== 'string') fail(`expected text (got ${describe(input)})`);
    if (input.length > MAX_INPUT_CHARS) fail(`input is ${input.length.toLocaleString('en-US')} characters, more than the limit of ${MAX_INPUT_CHARS.toLocaleString('en-US')}`);
    const body = input.replace(/^\uFEFF/, '').trim();
    if (body === '') fail('input is empty');
    const hasSeparators = /\n\s*\|+\s*(\r?\n|$)/.test(body);
    let value: unknown;
    let form: RunLogForm;
    if ((body[0] === '{' || body[0] === '[') && !hasSeparators) {
      value = parseJson(body, 'JSON');
      form = Array.isArray(value) ? 'list' : 'result-json';
    } else {
      const json = reassembleCapture(body);
      if (json === null) fail('no JSON found (expected a run-log result JSON, a list of calls, or a page capture of one)');
      const what = 'page capture (after removing page chrome and | separator lines)';
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
      notes.push('read as a page capture: page chrome and | separator lines removed, wrapped lines rejoined');
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

function logOf(value: unknown, form: RunLogForm, notes: string[]): ParseRunLogResult {
  const log = fromValue(value, notes);
  const peak = log.calls.reduce((m, c) => Math.max(m, c.promptTokens), 0);
  if (log.mainContextPeak !== undefined && log.mainContextPeak !== peak)
    notes.push(`the file's context peak ${log.mainContextPeak} differs from the largest prompt_tokens ${peak} (in a multi-agent run it may count one agent only)`);
  return { ok: true, log, form, notes };
}

function failure(e: unknown): ParseRunLogResult {
  if (e instanceof LogError) return { ok: false, error: e.message };
  if (e instanceof RangeError) return { ok: false, error: `input too large or too deeply nested (${e.message})` };
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
