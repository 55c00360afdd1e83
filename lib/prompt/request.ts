// The one validator of OpenAI chat-completions request bodies (pasted JSON or objects) → ChatRequest,
// with path-named errors and notes. Pure data checks: no tokenizer, no rendering, never truncates.
import { pyJson } from '../scenarios/json';
import type { ChatMessage, ChatRequest, ToolCall, ToolDef } from '../scenarios/types';

export interface RequestLimits {
  /** Characters of one message (content + reasoning + tool-call names and arguments). */
  maxMessageChars: number;
  /** Characters of the whole request (all messages + the tools' JSON). */
  maxRequestChars: number;
  maxMessages: number;
  /** Errors reported before the rest are only counted. */
  maxErrors: number;
}

export const DEFAULT_LIMITS: RequestLimits = {
  maxMessageChars: 200_000,
  maxRequestChars: 1_000_000,
  maxMessages: 2_000,
  maxErrors: 20,
};

export interface RequestError {
  /** Where, in the request body: `request`, `messages[3].tool_calls[0].function.arguments`, `tools[1].function.name`. */
  path: string;
  message: string;
}

export type ValidationResult =
  | { ok: true; request: ChatRequest; notes: string[] }
  | { ok: false; errors: RequestError[]; notes: string[] };

const ROLES = ['system', 'user', 'assistant', 'tool'] as const;
const KNOWN_TOP = new Set(['messages', 'tools']);
/** Message fields the API defines but the chat template never reads: accepted, reported once. */
const KNOWN_MESSAGE = new Set(['role', 'content', 'tool_calls', 'reasoning_content', 'tool_call_id']);

export function formatError(e: RequestError): string {
  return `${e.path}: ${e.message}`;
}

/** One `path: message` line per error. */
export function formatErrors(errors: readonly RequestError[]): string {
  return errors.map(formatError).join('\n');
}

/** Thousands separators without Intl, so messages read the same in Node and every browser. */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * The prompt must fit the model's positions (max_position_embeddings): RoPE tables and the K/V cache
 * end there, and we never drop tokens silently. `reserve` counts tokens still to be generated.
 */
export function checkContext(tokenCount: number, maxPositions: number, reserve = 0): RequestError | null {
  const need = tokenCount + reserve;
  if (need <= maxPositions) return null;
  const what = reserve > 0 ? `${formatCount(tokenCount)} prompt tokens + ${formatCount(reserve)} to generate` : `${formatCount(tokenCount)} tokens`;
  return {
    path: 'prompt',
    message:
      `${what} do not fit the model's context of ${formatCount(maxPositions)} positions (max_position_embeddings); ` +
      `${formatCount(need - maxPositions)} too many. Nothing is truncated: shorten the request.`,
  };
}

class Collector {
  readonly errors: RequestError[] = [];
  dropped = 0;
  constructor(private readonly max: number) {}
  add(path: string, message: string): void {
    if (this.errors.length < this.max) this.errors.push({ path, message });
    else this.dropped++;
  }
  get count(): number {
    return this.errors.length + this.dropped;
  }
  list(): RequestError[] {
    return this.dropped ? [...this.errors, { path: 'request', message: `${this.dropped} more error(s) not shown` }] : this.errors;
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function kind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return `a string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}`;
  return `${typeof v} ${String(v)}`;
}

/** Line and column (1-based) of a UTF-16 offset. */
function lineColumn(text: string, pos: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < pos && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: pos - lineStart + 1 };
}

/** JSON.parse with the engine's message turned into a line/column (V8 gives a position, Firefox a line and column). */
function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: RequestError } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    const raw = e instanceof Error ? e.message : String(e);
    let where: { line: number; column: number } | null = null;
    const lc = /line (\d+) column (\d+)/.exec(raw);
    const pos = /position (\d+)/.exec(raw);
    let ended = /end of (JSON )?(input|data)/i.test(raw);
    if (lc) where = { line: Number(lc[1]), column: Number(lc[2]) };
    else if (pos) {
      where = lineColumn(text, Number(pos[1]));
      // A parser that stops in trailing whitespace ran out of text, whatever it says it expected.
      ended ||= Number(pos[1]) >= text.trimEnd().length;
    } else if (ended) where = lineColumn(text, text.length);
    const reason = ended
      ? 'the text ends before the JSON does (truncated?)'
      : raw.replace(/^JSON\.parse: /, '').replace(/\s*(in JSON )?at position \d+.*$/, '').replace(/ at line \d+ column \d+ of the JSON data$/, '');
    const at = where ? ` at line ${where.line}, column ${where.column}` : '';
    return { ok: false, error: { path: 'request', message: `not valid JSON${at}: ${reason}` } };
  }
}

/** Text of a content field: a string, or text parts joined by "\n" (as vLLM flattens them for string templates). */
function contentText(v: unknown, path: string, errs: Collector, notes: Set<string>): string | null | undefined {
  if (typeof v === 'string') return v;
  if (v === null) return null;
  if (v === undefined) return undefined;
  if (Array.isArray(v)) {
    const texts: string[] = [];
    v.forEach((part, i) => {
      const p = `${path}[${i}]`;
      if (!isObj(part)) return errs.add(p, `expected a {"type": "text", "text": …} part; got ${kind(part)}`);
      if (part.type !== 'text') {
        const t = typeof part.type === 'string' ? `"${part.type}" parts are not supported` : 'part without a "type"';
        return errs.add(`${p}.type`, `${t}; only {"type": "text", "text": …} parts can be rendered`);
      }
      if (typeof part.text !== 'string') return errs.add(`${p}.text`, `expected a string; got ${kind(part.text)}`);
      texts.push(part.text);
    });
    if (v.length > 1) notes.add('content arrays of text parts are joined with "\\n" into one string');
    return texts.join('\n');
  }
  errs.add(path, `expected a string, null or an array of text parts; got ${kind(v)}`);
  return undefined;
}

function validateToolCalls(v: unknown, path: string, errs: Collector, notes: Set<string>): ToolCall[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) {
    errs.add(path, `expected an array of tool calls; got ${kind(v)}`);
    return undefined;
  }
  const out: ToolCall[] = [];
  v.forEach((tc, j) => {
    const p = `${path}[${j}]`;
    if (!isObj(tc)) return errs.add(p, `expected an object {id, type, function}; got ${kind(tc)}`);
    let ok = true;
    if (tc.id === undefined) ok = fail(errs, `${p}.id`, 'missing');
    else if (typeof tc.id !== 'string' || tc.id === '') ok = fail(errs, `${p}.id`, `expected a non-empty string; got ${kind(tc.id)}`);
    if (tc.type === undefined) notes.add('tool calls without "type" are taken as "function"');
    else if (tc.type !== 'function') ok = fail(errs, `${p}.type`, `expected "function"; got ${kind(tc.type)}`);
    const fn = tc.function;
    let name = '';
    let args = '';
    if (!isObj(fn)) ok = fail(errs, `${p}.function`, fn === undefined ? 'missing' : `expected an object {name, arguments}; got ${kind(fn)}`);
    else {
      if (fn.name === undefined) ok = fail(errs, `${p}.function.name`, 'missing');
      else if (typeof fn.name !== 'string' || fn.name === '') ok = fail(errs, `${p}.function.name`, `expected a non-empty string; got ${kind(fn.name)}`);
      else name = fn.name;
      const a = fn.arguments;
      if (a === undefined) ok = fail(errs, `${p}.function.arguments`, 'missing');
      else if (typeof a === 'string') {
        try {
          JSON.parse(a);
          args = a;
        } catch {
          ok = fail(errs, `${p}.function.arguments`, 'not valid JSON');
        }
      } else if (isObj(a)) {
        // The API sends a string; an object is what many hand-written logs hold. Python json.dumps style,
        // which is what the template's own `tojson` would print for it.
        args = pyJson(a);
        notes.add('tool-call arguments given as objects are serialised to JSON strings (", " and ": " separators)');
      } else ok = fail(errs, `${p}.function.arguments`, `expected a JSON string (or an object); got ${kind(a)}`);
    }
    if (ok) out.push({ id: tc.id as string, type: 'function', function: { name, arguments: args } });
  });
  return out;
}

function fail(errs: Collector, path: string, message: string): false {
  errs.add(path, message);
  return false;
}

function validateTools(v: unknown, errs: Collector, notes: Set<string>): ToolDef[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) {
    errs.add('tools', `expected an array of {"type": "function", "function": …}; got ${kind(v)}`);
    return undefined;
  }
  const out: ToolDef[] = [];
  v.forEach((t, i) => {
    const p = `tools[${i}]`;
    if (!isObj(t)) return errs.add(p, `expected an object {type, function}; got ${kind(t)}`);
    let ok = true;
    if (t.type === undefined) notes.add('tools without "type" are taken as "function"');
    else if (t.type !== 'function') ok = fail(errs, `${p}.type`, `expected "function"; got ${kind(t.type)}`);
    const fn = t.function;
    if (!isObj(fn)) return errs.add(`${p}.function`, fn === undefined ? 'missing' : `expected an object {name, description?, parameters?}; got ${kind(fn)}`);
    if (fn.name === undefined) ok = fail(errs, `${p}.function.name`, 'missing');
    else if (typeof fn.name !== 'string' || fn.name === '') ok = fail(errs, `${p}.function.name`, `expected a non-empty string; got ${kind(fn.name)}`);
    if (fn.description !== undefined && typeof fn.description !== 'string') ok = fail(errs, `${p}.function.description`, `expected a string; got ${kind(fn.description)}`);
    if (fn.parameters !== undefined && !isObj(fn.parameters)) ok = fail(errs, `${p}.function.parameters`, `expected a JSON Schema object; got ${kind(fn.parameters)}`);
    for (const k of Object.keys(t)) if (k !== 'type' && k !== 'function') notes.add(`ignored tool field "${k}"`);
    // The function object is kept as sent (key order, extra keys such as "strict"): the template prints it with tojson.
    if (ok) out.push({ type: 'function', function: structuredClone(fn) as ToolDef['function'] });
  });
  return out;
}

/** Validates and normalises one request body: a JSON string or an already-parsed object. */
export function validateRequest(input: unknown, limits: Partial<RequestLimits> = {}): ValidationResult {
  const lim: RequestLimits = { ...DEFAULT_LIMITS, ...limits };
  const errs = new Collector(lim.maxErrors);
  const notes = new Set<string>();
  const done = (request: ChatRequest | null): ValidationResult =>
    request && errs.count === 0 ? { ok: true, request, notes: [...notes] } : { ok: false, errors: errs.list(), notes: [...notes] };

  let body = input;
  if (typeof input === 'string') {
    const parsed = parseJson(input);
    if (!parsed.ok) return { ok: false, errors: [parsed.error], notes: [] };
    body = parsed.value;
  }
  if (!isObj(body)) {
    errs.add('request', `expected a JSON object with "messages"; got ${kind(body)}`);
    return done(null);
  }
  const ignored = Object.keys(body).filter((k) => !KNOWN_TOP.has(k));
  if (ignored.length) notes.add(`ignored top-level fields (they do not change the prompt): ${ignored.join(', ')}`);
  if (isObj(body.chat_template_kwargs) && typeof body.chat_template_kwargs.enable_thinking === 'boolean') {
    notes.add(`the request asks for enable_thinking=${body.chat_template_kwargs.enable_thinking}; set thinking in the prompt options to match`);
  }

  const raw = body.messages;
  const messages: ChatMessage[] = [];
  if (raw === undefined) errs.add('messages', 'missing');
  else if (!Array.isArray(raw)) errs.add('messages', `expected an array of messages; got ${kind(raw)}`);
  else if (raw.length === 0) errs.add('messages', 'empty: a request needs at least one message');
  else if (raw.length > lim.maxMessages) {
    errs.add('messages', `${formatCount(raw.length)} messages, over the limit of ${formatCount(lim.maxMessages)}`);
  }

  const toolCallIds: string[] = [];
  const extraFields = new Map<string, number>();
  let total = 0;
  (Array.isArray(raw) ? raw : []).forEach((m, i) => {
    const p = `messages[${i}]`;
    if (!isObj(m)) return errs.add(p, `expected an object with "role" and "content"; got ${kind(m)}`);
    for (const k of Object.keys(m)) if (!KNOWN_MESSAGE.has(k)) extraFields.set(k, (extraFields.get(k) ?? 0) + 1);
    if (m.role === undefined) return errs.add(`${p}.role`, 'missing');
    if (typeof m.role !== 'string') return errs.add(`${p}.role`, `expected a string; got ${kind(m.role)}`);
    let role: string = m.role;
    if (role === 'developer') {
      // OpenAI's newer name for the system role; chat templates only know "system".
      notes.add('"developer" messages are rendered as "system"');
      role = 'system';
    }
    if (!(ROLES as readonly string[]).includes(role)) {
      return errs.add(`${p}.role`, `unknown role ${JSON.stringify(role)} (expected ${ROLES.join(', ')})`);
    }
    const before = errs.count;
    const content = contentText(m.content, `${p}.content`, errs, notes);
    if (m.tool_calls !== undefined && role !== 'assistant') errs.add(`${p}.tool_calls`, 'only assistant messages carry tool calls');
    if (m.reasoning_content !== undefined && m.reasoning_content !== null && role !== 'assistant') {
      errs.add(`${p}.reasoning_content`, 'only assistant messages carry reasoning');
    }
    if (m.tool_call_id !== undefined && role !== 'tool') notes.add('"tool_call_id" on non-tool messages is ignored');

    let msg: ChatMessage | null = null;
    let chars = content?.length ?? 0;
    if (role === 'assistant') {
      const calls = validateToolCalls(m.tool_calls, `${p}.tool_calls`, errs, notes);
      let reasoning: string | undefined;
      if (typeof m.reasoning_content === 'string') reasoning = m.reasoning_content;
      else if (m.reasoning_content !== undefined && m.reasoning_content !== null) {
        errs.add(`${p}.reasoning_content`, `expected a string; got ${kind(m.reasoning_content)}`);
      }
      for (const c of calls ?? []) {
        toolCallIds.push(c.id);
        chars += c.function.name.length + c.function.arguments.length;
      }
      chars += reasoning?.length ?? 0;
      msg = { role: 'assistant', content: content ?? null };
      if (calls?.length) msg.tool_calls = calls;
      if (reasoning !== undefined) msg.reasoning_content = reasoning;
    } else {
      if (content === null || (content === undefined && m.content === undefined)) {
        errs.add(`${p}.content`, `${content === null ? 'null' : 'missing'}: a ${role} message needs text`);
      }
      if (role === 'tool') {
        const id = m.tool_call_id;
        if (id === undefined) errs.add(`${p}.tool_call_id`, 'missing');
        else if (typeof id !== 'string') errs.add(`${p}.tool_call_id`, `expected a string; got ${kind(id)}`);
        else if (!toolCallIds.includes(id)) {
          const known = toolCallIds.length ? `earlier ids: ${toolCallIds.slice(-5).join(', ')}` : 'no assistant message before it has tool calls';
          errs.add(`${p}.tool_call_id`, `${JSON.stringify(id)} does not match any earlier tool call (${known})`);
        }
        if (typeof content === 'string' && typeof id === 'string') msg = { role: 'tool', content, tool_call_id: id };
      } else if (typeof content === 'string') msg = { role, content } as ChatMessage;
    }
    if (chars > lim.maxMessageChars) {
      const where = (content?.length ?? 0) > lim.maxMessageChars ? `${p}.content` : p;
      errs.add(where, `${formatCount(chars)} characters, over the limit of ${formatCount(lim.maxMessageChars)} per message (nothing is truncated)`);
    }
    total += chars;
    if (msg && errs.count === before) messages.push(msg);
  });
  if (extraFields.size) {
    notes.add(`ignored message fields (the chat template does not read them): ${[...extraFields].map(([k, n]) => (n > 1 ? `${k} ×${n}` : k)).join(', ')}`);
  }

  const tools = validateTools(body.tools, errs, notes);
  for (const t of tools ?? []) total += JSON.stringify(t).length;
  if (total > lim.maxRequestChars) {
    errs.add('request', `${formatCount(total)} characters in all, over the limit of ${formatCount(lim.maxRequestChars)} per request (nothing is truncated)`);
  }
  if (tools && tools.length === 0) notes.add('an empty "tools" array renders like no tools');
  return done(tools?.length ? { messages, tools } : { messages });
}
