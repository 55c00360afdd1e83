// The one validator of OpenAI chat-completions request bodies (pasted JSON or objects) → ChatRequest,
// with path-named errors and notes. Pure data checks: no tokenizer, no rendering, never truncates.
import { pyJson } from '../scenarios/json';
import { MAX_DEPTH } from './jsonLocate';
import type { ChatMessage, ChatRequest, ToolCall, ToolDef } from '../scenarios/types';
import type { Params, StringKey } from '../i18n';
import { en, msg, verbatim, type Message } from '../io/msg';

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

/**
 * One problem: `path: message` in English, and the same as a coded message (`key`, `params`, `parts`, with
 * `where` = `path`) that the interface shows in the user's language (lib/i18n/message.ts describe()).
 */
export interface RequestError {
  /** Where, in the request body: `request`, `messages[3].tool_calls[0].function.arguments`, `tools[1].function.name`. */
  path: string;
  message: string;
  key?: StringKey;
  params?: Params;
  parts?: Record<string, Message>;
  where?: string;
}

/** `notes` in English; `codedNotes` the same as messages, for the interface's language. */
export type ValidationResult =
  | { ok: true; request: ChatRequest; notes: string[]; codedNotes?: Message[] }
  | { ok: false; errors: RequestError[]; notes: string[]; codedNotes?: Message[] };

/** A RequestError for `path` from a message (its text without the path as `message`). */
export function requestError(path: string, key: StringKey, params?: Params, parts?: Record<string, Message>): RequestError {
  const e: RequestError = { path, message: en(msg(key, params, undefined, parts)), key, where: path };
  if (params) e.params = params;
  if (parts) e.parts = parts;
  return e;
}

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
  const counts = { tokens: formatCount(tokenCount), reserve: formatCount(reserve), max: formatCount(maxPositions), over: formatCount(need - maxPositions) };
  return requestError('prompt', reserve > 0 ? 'msg.import.req.contextReserve' : 'msg.import.req.context', counts);
}

class Collector {
  readonly errors: RequestError[] = [];
  dropped = 0;
  constructor(private readonly max: number) {}
  add(path: string, key: StringKey, params?: Params, parts?: Record<string, Message>): void {
    if (this.errors.length < this.max) this.errors.push(requestError(path, key, params, parts));
    else this.dropped++;
  }
  get count(): number {
    return this.errors.length + this.dropped;
  }
  list(): RequestError[] {
    return this.dropped ? [...this.errors, requestError('request', 'msg.import.req.more', { n: this.dropped })] : this.errors;
  }
}

/** Notes once each, in the order first given. */
class Notes {
  private readonly byText = new Map<string, Message>();
  add(key: StringKey, params?: Params): void {
    const m = msg(key, params);
    const text = en(m);
    if (!this.byText.has(text)) this.byText.set(text, m);
  }
  get coded(): Message[] {
    return [...this.byText.values()];
  }
  get texts(): string[] {
    return [...this.byText.keys()];
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value as an error names it: { got: "an array" } etc., for `got {got}`. */
function kind(v: unknown): Record<string, Message> {
  let m: Message;
  if (v === null) m = msg('msg.import.req.v.null');
  else if (Array.isArray(v)) m = msg('msg.import.req.v.array');
  else if (typeof v === 'object') m = msg('msg.import.req.v.object');
  else if (typeof v === 'string') m = msg('msg.import.req.v.string', { text: JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v) });
  else m = msg('msg.import.req.v.other', { type: typeof v, value: String(v) });
  return { got: m };
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
      ? msg('msg.import.req.jsonEnded')
      : verbatim(raw.replace(/^JSON\.parse: /, '').replace(/\s*(in JSON )?at position \d+.*$/, '').replace(/ at line \d+ column \d+ of the JSON data$/, ''));
    return { ok: false, error: where ? requestError('request', 'msg.import.req.jsonAt', { ...where }, { reason }) : requestError('request', 'msg.import.req.json', undefined, { reason }) };
  }
}

/** Text of a content field: a string, or text parts joined by "\n" (as vLLM flattens them for string templates). */
function contentText(v: unknown, path: string, errs: Collector, notes: Notes): string | null | undefined {
  if (typeof v === 'string') return v;
  if (v === null) return null;
  if (v === undefined) return undefined;
  if (Array.isArray(v)) {
    const texts: string[] = [];
    v.forEach((part, i) => {
      const p = `${path}[${i}]`;
      if (!isObj(part)) return errs.add(p, 'msg.import.req.textPart', undefined, kind(part));
      if (part.type !== 'text') {
        if (typeof part.type === 'string') return errs.add(`${p}.type`, 'msg.import.req.partType', { type: part.type });
        return errs.add(`${p}.type`, 'msg.import.req.partNoType');
      }
      if (typeof part.text !== 'string') return errs.add(`${p}.text`, 'msg.import.req.string', undefined, kind(part.text));
      texts.push(part.text);
    });
    if (v.length > 1) notes.add('msg.import.req.noteJoined');
    return texts.join('\n');
  }
  errs.add(path, 'msg.import.req.content', undefined, kind(v));
  return undefined;
}

/**
 * True when `v`, found `depth` levels down the request (the request object is level 1), nests objects and
 * arrays deeper than MAX_DEPTH: the editor's JSON reader refuses such text, and cloning, printing or
 * serialising a value thousands of levels deep overflows the stack. Counted without recursion.
 */
function nestedTooDeep(v: unknown, depth: number): boolean {
  const stack: [unknown, number][] = [[v, depth]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (d > MAX_DEPTH) return true;
    for (const c of Array.isArray(x) ? x : Object.values(x as Obj)) if (typeof c === 'object' && c !== null) stack.push([c, d + 1]);
  }
  return false;
}
const TOO_DEEP = ['msg.import.req.tooDeep', { max: MAX_DEPTH }] as const;

function validateToolCalls(v: unknown, path: string, errs: Collector, notes: Notes): ToolCall[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) {
    errs.add(path, 'msg.import.req.toolCalls', undefined, kind(v));
    return undefined;
  }
  const out: ToolCall[] = [];
  v.forEach((tc, j) => {
    const p = `${path}[${j}]`;
    if (!isObj(tc)) return errs.add(p, 'msg.import.req.toolCall', undefined, kind(tc));
    let ok = true;
    if (tc.id === undefined) ok = fail(errs, `${p}.id`, 'msg.import.req.missing');
    else if (typeof tc.id !== 'string' || tc.id === '') ok = fail(errs, `${p}.id`, 'msg.import.req.nonEmpty', undefined, kind(tc.id));
    if (tc.type === undefined) notes.add('msg.import.req.noteCallType');
    else if (tc.type !== 'function') ok = fail(errs, `${p}.type`, 'msg.import.req.function', undefined, kind(tc.type));
    const fn = tc.function;
    let name = '';
    let args = '';
    if (!isObj(fn)) ok = fn === undefined ? fail(errs, `${p}.function`, 'msg.import.req.missing') : fail(errs, `${p}.function`, 'msg.import.req.callFunction', undefined, kind(fn));
    else {
      if (fn.name === undefined) ok = fail(errs, `${p}.function.name`, 'msg.import.req.missing');
      else if (typeof fn.name !== 'string' || fn.name === '') ok = fail(errs, `${p}.function.name`, 'msg.import.req.nonEmpty', undefined, kind(fn.name));
      else name = fn.name;
      const a = fn.arguments;
      if (a === undefined) ok = fail(errs, `${p}.function.arguments`, 'msg.import.req.missing');
      else if (typeof a === 'string') {
        try {
          JSON.parse(a);
          args = a;
        } catch {
          ok = fail(errs, `${p}.function.arguments`, 'msg.import.req.argsJson');
        }
      } else if (isObj(a) && nestedTooDeep(a, 7)) ok = fail(errs, `${p}.function.arguments`, ...TOO_DEEP);
      else if (isObj(a)) {
        // The API sends a string; an object is what many hand-written logs hold. Python json.dumps style,
        // which is what the template's own `tojson` would print for it.
        args = pyJson(a);
        notes.add('msg.import.req.noteArgs');
      } else ok = fail(errs, `${p}.function.arguments`, 'msg.import.req.args', undefined, kind(a));
    }
    if (ok) out.push({ id: tc.id as string, type: 'function', function: { name, arguments: args } });
  });
  return out;
}

function fail(errs: Collector, path: string, key: StringKey, params?: Params, parts?: Record<string, Message>): false {
  errs.add(path, key, params, parts);
  return false;
}

function validateTools(v: unknown, errs: Collector, notes: Notes): ToolDef[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) {
    errs.add('tools', 'msg.import.req.tools', undefined, kind(v));
    return undefined;
  }
  const out: ToolDef[] = [];
  v.forEach((t, i) => {
    const p = `tools[${i}]`;
    if (!isObj(t)) return errs.add(p, 'msg.import.req.tool', undefined, kind(t));
    let ok = true;
    if (t.type === undefined) notes.add('msg.import.req.noteToolType');
    else if (t.type !== 'function') ok = fail(errs, `${p}.type`, 'msg.import.req.function', undefined, kind(t.type));
    const fn = t.function;
    if (!isObj(fn)) return fn === undefined ? errs.add(`${p}.function`, 'msg.import.req.missing') : errs.add(`${p}.function`, 'msg.import.req.toolFunction', undefined, kind(fn));
    if (fn.name === undefined) ok = fail(errs, `${p}.function.name`, 'msg.import.req.missing');
    else if (typeof fn.name !== 'string' || fn.name === '') ok = fail(errs, `${p}.function.name`, 'msg.import.req.nonEmpty', undefined, kind(fn.name));
    if (fn.description !== undefined && typeof fn.description !== 'string') ok = fail(errs, `${p}.function.description`, 'msg.import.req.string', undefined, kind(fn.description));
    if (fn.parameters !== undefined && !isObj(fn.parameters)) ok = fail(errs, `${p}.function.parameters`, 'msg.import.req.schema', undefined, kind(fn.parameters));
    if (nestedTooDeep(fn, 4)) return errs.add(`${p}.function`, ...TOO_DEEP);
    for (const k of Object.keys(t)) if (k !== 'type' && k !== 'function') notes.add('msg.import.req.noteToolField', { field: k });
    // The function object is kept as sent (key order, extra keys such as "strict"): the template prints it with tojson.
    if (ok) out.push({ type: 'function', function: structuredClone(fn) as ToolDef['function'] });
  });
  return out;
}

/** Validates and normalises one request body: a JSON string or an already-parsed object. */
export function validateRequest(input: unknown, limits: Partial<RequestLimits> = {}): ValidationResult {
  const lim: RequestLimits = { ...DEFAULT_LIMITS, ...limits };
  const errs = new Collector(lim.maxErrors);
  const notes = new Notes();
  const done = (request: ChatRequest | null): ValidationResult =>
    request && errs.count === 0
      ? { ok: true, request, notes: notes.texts, codedNotes: notes.coded }
      : { ok: false, errors: errs.list(), notes: notes.texts, codedNotes: notes.coded };

  let body = input;
  if (typeof input === 'string') {
    const parsed = parseJson(input);
    if (!parsed.ok) return { ok: false, errors: [parsed.error], notes: [], codedNotes: [] };
    body = parsed.value;
  }
  if (!isObj(body)) {
    errs.add('request', 'msg.import.req.body', undefined, kind(body));
    return done(null);
  }
  const ignored = Object.keys(body).filter((k) => !KNOWN_TOP.has(k));
  if (ignored.length) notes.add('msg.import.req.noteIgnoredTop', { fields: ignored.join(', ') });
  if (isObj(body.chat_template_kwargs) && typeof body.chat_template_kwargs.enable_thinking === 'boolean') {
    notes.add('msg.import.req.noteThinking', { value: String(body.chat_template_kwargs.enable_thinking) });
  }

  const raw = body.messages;
  const messages: ChatMessage[] = [];
  if (raw === undefined) errs.add('messages', 'msg.import.req.missing');
  else if (!Array.isArray(raw)) errs.add('messages', 'msg.import.req.messages', undefined, kind(raw));
  else if (raw.length === 0) errs.add('messages', 'msg.import.req.messagesEmpty');
  else if (raw.length > lim.maxMessages) {
    errs.add('messages', 'msg.import.req.messagesLimit', { n: formatCount(raw.length), limit: formatCount(lim.maxMessages) });
  }

  const toolCallIds: string[] = [];
  // Looked up once per tool message: a Set keeps a long request linear (an array made 100,000 messages take seconds).
  const knownIds = new Set<string>();
  const extraFields = new Map<string, number>();
  let total = 0;
  (Array.isArray(raw) ? raw : []).forEach((m, i) => {
    const p = `messages[${i}]`;
    if (!isObj(m)) return errs.add(p, 'msg.import.req.message', undefined, kind(m));
    for (const k of Object.keys(m)) if (!KNOWN_MESSAGE.has(k)) extraFields.set(k, (extraFields.get(k) ?? 0) + 1);
    if (m.role === undefined) return errs.add(`${p}.role`, 'msg.import.req.missing');
    if (typeof m.role !== 'string') return errs.add(`${p}.role`, 'msg.import.req.string', undefined, kind(m.role));
    let role: string = m.role;
    if (role === 'developer') {
      // OpenAI's newer name for the system role; chat templates only know "system".
      notes.add('msg.import.req.noteDeveloper');
      role = 'system';
    }
    if (!(ROLES as readonly string[]).includes(role)) {
      return errs.add(`${p}.role`, 'msg.import.req.role', { role: JSON.stringify(role), roles: ROLES.join(', ') });
    }
    const before = errs.count;
    const content = contentText(m.content, `${p}.content`, errs, notes);
    if (m.tool_calls !== undefined && role !== 'assistant') errs.add(`${p}.tool_calls`, 'msg.import.req.onlyCalls');
    if (m.reasoning_content !== undefined && m.reasoning_content !== null && role !== 'assistant') {
      errs.add(`${p}.reasoning_content`, 'msg.import.req.onlyReasoning');
    }
    if (m.tool_call_id !== undefined && role !== 'tool') notes.add('msg.import.req.noteCallId');

    let msg: ChatMessage | null = null;
    let chars = content?.length ?? 0;
    if (role === 'assistant') {
      const calls = validateToolCalls(m.tool_calls, `${p}.tool_calls`, errs, notes);
      let reasoning: string | undefined;
      if (typeof m.reasoning_content === 'string') reasoning = m.reasoning_content;
      else if (m.reasoning_content !== undefined && m.reasoning_content !== null) {
        errs.add(`${p}.reasoning_content`, 'msg.import.req.string', undefined, kind(m.reasoning_content));
      }
      for (const c of calls ?? []) {
        toolCallIds.push(c.id);
        knownIds.add(c.id);
        chars += c.function.name.length + c.function.arguments.length;
      }
      chars += reasoning?.length ?? 0;
      msg = { role: 'assistant', content: content ?? null };
      if (calls?.length) msg.tool_calls = calls;
      if (reasoning !== undefined) msg.reasoning_content = reasoning;
    } else {
      if (content === null || (content === undefined && m.content === undefined)) {
        errs.add(`${p}.content`, content === null ? 'msg.import.req.contentNull' : 'msg.import.req.contentMissing', { role });
      }
      if (role === 'tool') {
        const id = m.tool_call_id;
        if (id === undefined) errs.add(`${p}.tool_call_id`, 'msg.import.req.missing');
        else if (typeof id !== 'string') errs.add(`${p}.tool_call_id`, 'msg.import.req.string', undefined, kind(id));
        else if (!knownIds.has(id)) {
          if (toolCallIds.length) errs.add(`${p}.tool_call_id`, 'msg.import.req.noMatch', { id: JSON.stringify(id), ids: toolCallIds.slice(-5).join(', ') });
          else errs.add(`${p}.tool_call_id`, 'msg.import.req.noCalls', { id: JSON.stringify(id) });
        }
        if (typeof content === 'string' && typeof id === 'string') msg = { role: 'tool', content, tool_call_id: id };
      } else if (typeof content === 'string') msg = { role, content } as ChatMessage;
    }
    if (chars > lim.maxMessageChars) {
      const where = (content?.length ?? 0) > lim.maxMessageChars ? `${p}.content` : p;
      errs.add(where, 'msg.import.req.messageChars', { n: formatCount(chars), limit: formatCount(lim.maxMessageChars) });
    }
    total += chars;
    if (msg && errs.count === before) messages.push(msg);
  });
  if (extraFields.size) {
    notes.add('msg.import.req.noteIgnoredFields', { fields: [...extraFields].map(([k, n]) => (n > 1 ? `${k} ×${n}` : k)).join(', ') });
  }

  const tools = validateTools(body.tools, errs, notes);
  for (const t of tools ?? []) total += JSON.stringify(t).length;
  if (total > lim.maxRequestChars) {
    errs.add('request', 'msg.import.req.requestChars', { n: formatCount(total), limit: formatCount(lim.maxRequestChars) });
  }
  if (tools && tools.length === 0) notes.add('msg.import.req.noteEmptyTools');

  return done(tools?.length ? { messages, tools } : { messages });
}
