// Labelled pieces for any chat template, read off the template itself: render growing prefixes of the message
// list and give each step's new characters to the message that step added (docs/CONCEPTS.md#spans-for-other-chat-templates).
// Used by prompt.ts when the Qwen3 layout (layout.ts) does not match the render. Pure: the caller brings the
// render function, so this module never touches a tokenizer.
import type { ChatMessage, ChatRequest } from '../scenarios/types';
import type { RenderOptions } from './chatTemplate';
import { isStatusBar, TOOLS_MESSAGE, type Piece, type Role, type Segment } from './layout';
import { messageOf } from '../i18n/message';
import { en, msg, verbatim, type Message } from '../io/msg';

/** The model's chat template applied to a request (throws when the template refuses it). */
export type RenderFn = (request: ChatRequest, opts: RenderOptions) => string;

export interface PrefixPieces {
  /** Pieces whose texts join to the full render; null when the text could not be attributed to messages. */
  pieces: Piece[] | null;
  /** Where prefix stability broke and how that was handled; why attribution failed. */
  notes: string[];
  /** The same notes as messages, for the interface's language (lib/i18n/message.ts). */
  codedNotes: Message[];
}

/** The note prompt.ts adds when these pieces label a prompt (PREFIX_METHOD is its English text). */
export const PREFIX_METHOD_MESSAGE = msg('msg.import.prefix.method');
export const PREFIX_METHOD = en(PREFIX_METHOD_MESSAGE);

interface Labelled {
  start: number;
  end: number;
  message: number;
  role: Role;
  segment: Segment;
  part?: number;
}

// Python's str.strip('\n') family, as templates call them.
const lstripNl = (s: string) => s.replace(/^\n+/, '');
const rstripNl = (s: string) => s.replace(/\n+$/, '');
const stripNl = (s: string) => lstripNl(rstripNl(s));

function commonPrefixLength(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** Ranges of the render already given a label (tools, contents); later searches skip them. */
class Claims {
  readonly ranges: Labelled[] = [];
  free(start: number, end: number): boolean {
    return this.ranges.every((r) => end <= r.start || start >= r.end);
  }
  add(r: Labelled): Labelled {
    this.ranges.push(r);
    return r;
  }
}

/**
 * Where `needle` lies in text[lo, hi) clear of claimed ranges: the last such place (`last`), since a message's
 * content follows its header, so an early hit may be the header itself (content "user" in "<|im_start|>user\n");
 * or the first (fallback mode, where [lo, hi) also holds later messages).
 */
function findIn(text: string, needle: string, lo: number, hi: number, claims: Claims, last: boolean): number {
  if (!needle || hi - lo < needle.length) return -1;
  if (last) {
    for (let i = text.lastIndexOf(needle, hi - needle.length); i >= lo; i = i > 0 ? text.lastIndexOf(needle, i - 1) : -1) {
      if (claims.free(i, i + needle.length)) return i;
    }
  } else {
    for (let i = text.indexOf(needle, lo); i >= 0 && i + needle.length <= hi; i = text.indexOf(needle, i + 1)) {
      if (claims.free(i, i + needle.length)) return i;
    }
  }
  return -1;
}

/** The first of `variants` found (different templates trim, strip newlines or JSON-quote a content). */
function findVariant(text: string, variants: string[], lo: number, hi: number, claims: Claims, last: boolean): { at: number; len: number } | null {
  for (const v of [...new Set(variants)]) {
    const at = findIn(text, v, lo, hi, claims, last);
    if (at >= 0) return { at, len: v.length };
  }
  return null;
}

/** End (exclusive) of the JSON object whose '{' is at `at`: string-aware brace matching, -1 when open at `hi`. */
function objectEnd(text: string, at: number, hi: number): number {
  let depth = 0;
  let inString = false;
  for (let i = at; i < hi; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i + 1;
  }
  return -1;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A tool definition or a tool call naming `name`, as a template prints either: {name …} or {type, function: {name …}}. */
const namesIt = (v: unknown, name: string) => isObj(v) && (v.name === name || (isObj(v.function) && v.function.name === name));

/** '{' characters tried before a `"name"` key when looking for the object around it (a tool is two levels up). */
const MAX_OPENERS = 6;

/**
 * The JSON object the template printed for the tool or call `name`, found in text[lo, hi) from `from` on: a
 * `"name": "…"` key, widened to the outermost enclosing object that parses and names it. Whatever the indentation
 * or key order, the template's JSON is then located exactly; null when it printed no such object.
 */
function findNamedObject(text: string, name: string, from: number, lo: number, hi: number, claims: Claims): [number, number] | null {
  const key = new RegExp(`"name"\\s*:\\s*${escapeRegExp(JSON.stringify(name))}`, 'g');
  key.lastIndex = from;
  for (let m = key.exec(text); m && m.index < hi; m = key.exec(text)) {
    let best: [number, number] | null = null;
    let opener = m.index;
    for (let tries = 0; tries < MAX_OPENERS && opener > lo; tries++) {
      opener = text.lastIndexOf('{', opener - 1);
      if (opener < lo) break;
      const end = objectEnd(text, opener, hi);
      if (end <= m.index) continue;
      try {
        if (namesIt(JSON.parse(text.slice(opener, end)), name) && claims.free(opener, end)) best = [opener, end];
      } catch {
        // not JSON: braces of the surrounding template text
      }
    }
    if (best) return best;
  }
  return null;
}

/**
 * A tool call as printed: its JSON object, or else (a template that writes calls in another syntax) the name
 * through the arguments when they follow it verbatim or JSON-quoted.
 */
function findCall(text: string, call: { name: string; arguments: string }, lo: number, hi: number, claims: Claims): [number, number] | null {
  const obj = findNamedObject(text, call.name, lo, lo, hi, claims);
  if (obj) return obj;
  const at = findIn(text, call.name, lo, hi, claims, false);
  if (at < 0) return null;
  const args = findVariant(text, [call.arguments, JSON.stringify(call.arguments)], at + call.name.length, hi, claims, false);
  return [at, args ? args.at + args.len : at + call.name.length];
}

function contentSegment(m: ChatMessage): Segment {
  if (m.role === 'system') return 'system';
  if (m.role === 'tool') return 'tool_result';
  if (m.role === 'user') return isStatusBar(m.content) ? 'status_bar' : 'user';
  return 'answer';
}

/** An assistant message's reasoning and visible answer, split as Qwen-family templates split them. */
function assistantParts(m: Extract<ChatMessage, { role: 'assistant' }>): { reasoning: string; answer: string; raw: string } {
  const raw = m.content ?? '';
  if (m.reasoning_content !== undefined && m.reasoning_content !== null) return { reasoning: m.reasoning_content, answer: raw, raw };
  if (!raw.includes('</think>')) return { reasoning: '', answer: raw, raw };
  const parts = raw.split('</think>');
  const before = rstripNl(parts[0]!).split('<think>');
  return { reasoning: lstripNl(before[before.length - 1]!), answer: lstripNl(parts[parts.length - 1]!), raw };
}

/**
 * Finds message i's content (and an assistant's reasoning and tool calls) in text[lo, hi) and claims it.
 * `chunk`: [lo, hi) is exactly the message's text, so contents are searched from the end (see findIn); otherwise
 * [lo, hi) runs on into later messages and everything is searched forwards. Returns the claimed ranges and
 * whether a content that must be printed was missing (a non-empty text of a user, system or tool message, or a
 * non-empty assistant answer; reasoning and tool calls may legitimately be left out by a template).
 */
function locateMessage(text: string, msgs: readonly ChatMessage[], i: number, lo: number, hi: number, claims: Claims, chunk: boolean): { found: Labelled[]; missing: boolean } {
  const m = msgs[i]!;
  const found: Labelled[] = [];
  const claim = (start: number, end: number, segment: Segment, part?: number) => {
    const r: Labelled = { start, end, message: i, role: m.role, segment };
    if (part !== undefined) r.part = part;
    found.push(claims.add(r));
    return r;
  };
  if (m.role !== 'assistant') {
    const c = m.content;
    // A JSON-quoted content (Llama 3.1 prints tool results through tojson) is claimed with its quotes, so it is
    // tried first: a byte-level tokenizer may merge the opening quote with the first letters.
    const hit = findVariant(text, [JSON.stringify(c), c, c.trim()], lo, hi, claims, chunk);
    if (hit) claim(hit.at, hit.at + hit.len, contentSegment(m));
    return { found, missing: !hit && c.trim() !== '' };
  }
  const { reasoning, answer } = assistantParts(m);
  const answerVariants = [answer, lstripNl(answer), answer.trim()];
  const thinkVariants = [reasoning, stripNl(reasoning), reasoning.trim()];
  const calls = m.tool_calls ?? [];
  let answerHit: { at: number; len: number } | null = null;
  if (chunk) {
    // Calls are distinctive JSON: place them first (in order), then the answer before them, the reasoning before it.
    let cursor = lo;
    calls.forEach((c, j) => {
      const r = findCall(text, c.function, cursor, hi, claims);
      if (r) cursor = claim(r[0], r[1], 'tool_call', j).end;
    });
    const firstCall = found.length ? found[0]!.start : hi;
    answerHit = findVariant(text, answerVariants, lo, firstCall, claims, true);
    if (answerHit) claim(answerHit.at, answerHit.at + answerHit.len, 'answer');
    const think = findVariant(text, thinkVariants, lo, answerHit ? answerHit.at : firstCall, claims, true);
    if (think) claim(think.at, think.at + think.len, 'think');
  } else {
    let cursor = lo;
    const think = findVariant(text, thinkVariants, cursor, hi, claims, false);
    if (think) cursor = claim(think.at, think.at + think.len, 'think').end;
    answerHit = findVariant(text, answerVariants, cursor, hi, claims, false);
    if (answerHit) cursor = claim(answerHit.at, answerHit.at + answerHit.len, 'answer').end;
    calls.forEach((c, j) => {
      const r = findCall(text, c.function, cursor, hi, claims);
      if (r) cursor = claim(r[0], r[1], 'tool_call', j).end;
    });
  }
  return { found, missing: !answerHit && answer.trim() !== '' };
}

/**
 * Claims each tool's JSON in text[lo, hi) (in request order, each after the last) and the template text between
 * the first and the last one found, all as the tools block (TOOLS_MESSAGE). Nothing when the template does not
 * print the tools as JSON objects.
 */
function locateTools(text: string, tools: NonNullable<ChatRequest['tools']>, lo: number, hi: number, claims: Claims): void {
  const found: Labelled[] = [];
  let cursor = lo;
  tools.forEach((t, j) => {
    const r = findNamedObject(text, t.function.name, cursor, cursor, hi, claims);
    if (!r) return;
    found.push({ start: r[0], end: r[1], message: TOOLS_MESSAGE, role: 'system', segment: 'tools', part: j });
    cursor = r[1];
  });
  found.forEach((r, k) => {
    claims.add(r);
    const next = found[k + 1];
    if (next && next.start > r.end) claims.add({ start: r.end, end: next.start, message: TOOLS_MESSAGE, role: 'system', segment: 'template' });
  });
}

const MAX_BREAKS_SHOWN = 3;

function tryRender(render: RenderFn, request: ChatRequest, opts: RenderOptions): { text: string } | { error: string; coded: Message } {
  try {
    return { text: render(request, opts) };
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    return { error, coded: messageOf(e) ?? verbatim(error) };
  }
}

/**
 * The pieces of `full` (the request rendered with `opts`), step by step: yields after each template render so
 * that a worker can take a cancel between them (prompt.ts drives it). See prefixPieces.
 */
export function* prefixPiecesSteps(request: ChatRequest, opts: RenderOptions, render: RenderFn, full: string): Generator<void, PrefixPieces> {
  const msgs = request.messages;
  const n = msgs.length;
  const notes: Message[] = [];
  const done = (pieces: Piece[] | null): PrefixPieces => ({ pieces, notes: notes.map(en), codedNotes: notes });
  const bare: RenderOptions = { ...opts, addGenerationPrompt: false };

  // bounds[k]: where the text of messages[0..k) ends in `full`, when the render of that prefix is a prefix of
  // `full` (k = n: all messages, no generation prompt; what follows is the generation prompt).
  const renders: Array<{ text: string } | { error: string; coded: Message }> = [];
  const bounds: Array<number | undefined> = [0];
  for (let k = 1; k <= n; k++) {
    const r = k === n && !opts.addGenerationPrompt ? { text: full } : tryRender(render, { ...request, messages: msgs.slice(0, k) }, bare);
    renders[k] = r;
    const prev = bounds.slice(0, k).reverse().find((b) => b !== undefined) ?? 0;
    bounds[k] = 'text' in r && full.startsWith(r.text) && r.text.length >= prev ? r.text.length : undefined;
    yield;
  }

  const breaks: Message[] = [];
  // The first few breaks in full, then a count (a long agent run in a Qwen-style template breaks at every tool turn).
  const listBreaks = (): Message => {
    const shownList = breaks.slice(0, MAX_BREAKS_SHOWN);
    let shown = shownList[shownList.length - 1]!;
    for (let i = shownList.length - 2; i >= 0; i--) shown = msg('msg.import.prefix.join', undefined, undefined, { first: shownList[i]!, rest: shown });
    return breaks.length > MAX_BREAKS_SHOWN ? msg('msg.import.prefix.andMore', { n: breaks.length - MAX_BREAKS_SHOWN }, undefined, { list: shown }) : shown;
  };
  const why = (k: number): Message => {
    const r = renders[k]!;
    const which = k === n ? msg('msg.import.prefix.allMessages') : msg('msg.import.prefix.messages', { last: k - 1 });
    if ('error' in r) return msg('msg.import.prefix.refused', undefined, undefined, { which, error: r.coded });
    return msg('msg.import.prefix.notPrefix', { at: commonPrefixLength(r.text, full) }, undefined, { which });
  };
  const nextKnown = (k: number) => {
    for (let j = k + 1; j <= n; j++) if (bounds[j] !== undefined) return bounds[j]!;
    return full.length;
  };

  const claims = new Claims();
  if (request.tools?.length) {
    // The tools are printed before the first user turn ends (in the system block or in the first user message).
    const u = msgs.findIndex((m) => m.role === 'user');
    const hi = u < 0 ? full.length : (bounds[u + 1] ?? nextKnown(u + 1));
    locateTools(full, request.tools, 0, hi, claims);
  }

  // Each message's end in turn: known from its prefix render, or else found after its content.
  for (let k = 1; k <= n; k++) {
    const i = k - 1;
    const lo = bounds[i]!;
    const known = bounds[k];
    if (known !== undefined) {
      locateMessage(full, msgs, i, lo, known, claims, true);
      continue;
    }
    breaks.push(msg('msg.import.prefix.break', { i, role: msgs[i]!.role }, undefined, { why: why(k) }));
    const limit = nextKnown(k);
    const { found, missing } = locateMessage(full, msgs, i, lo, limit, claims, false);
    if (missing) {
      notes.push(msg('msg.import.prefix.lost', { i, lo }, undefined, { method: PREFIX_METHOD_MESSAGE, breaks: listBreaks() }));
      return done(null);
    }
    // Its end: after its last located piece, plus the closing text the template writes there when the message
    // is last (as in the prefix render, or in a render without tools when the template refused the prefix) as
    // far as the full render agrees. Consecutive tool results in one turn end this way in Qwen templates.
    let alt = renders[k]!;
    if (!('text' in alt) && request.tools?.length) {
      alt = tryRender(render, { messages: msgs.slice(0, k) }, bare);
      yield;
    }
    const altText = 'text' in alt ? alt.text : '';
    const lastPiece = found.reduce<Labelled | undefined>((a, r) => (!a || r.end > a.end ? r : a), undefined);
    let end = lastPiece ? lastPiece.end : lo;
    let tail = '';
    if (lastPiece) {
      const pieceText = full.slice(lastPiece.start, lastPiece.end);
      const at = altText.lastIndexOf(pieceText);
      if (at >= 0) tail = altText.slice(at + pieceText.length);
    } else if (altText.startsWith(full.slice(0, lo))) tail = altText.slice(lo);
    end = Math.min(limit, end + commonPrefixLength(tail, full.slice(end, limit)));
    // Claimed tools inside the stretch stay with the tools block; the message must not end inside one of them.
    for (const r of claims.ranges) if (r.start < end && r.end > end) end = r.end;
    bounds[k] = end;
  }
  if (breaks.length) notes.push(msg('msg.import.prefix.breaks', undefined, undefined, { breaks: listBreaks() }));

  return done(toPieces(full, msgs, bounds as number[], claims));

}

/** Claimed ranges, and template text between them owned by the message whose stretch it lies in. */
function toPieces(full: string, msgs: readonly ChatMessage[], bounds: readonly number[], claims: Claims): Piece[] {
  const n = msgs.length;
  const owner = (k: number): { message: number; role: Role } => (k < n ? { message: k, role: msgs[k]!.role } : { message: n, role: 'assistant' });
  const out: Piece[] = [];
  const push = (start: number, end: number, message: number, role: Role, segment: Segment, part?: number) => {
    if (end <= start) return;
    const p: Piece = { text: full.slice(start, end), message, role, segment };
    if (part !== undefined) p.part = part;
    out.push(p);
  };
  const ranges = [...claims.ranges].sort((a, b) => a.start - b.start);
  // Stretch k holds messages[k]'s text: [bounds[k], bounds[k + 1]); the last one is the generation prompt.
  const stretches = [...bounds, full.length];
  let pos = 0;
  let ri = 0;
  for (let k = 0; k <= n; k++) {
    const end = Math.max(stretches[k + 1]!, pos);
    const { message, role } = owner(k);
    while (pos < end) {
      const r = ranges[ri];
      if (r && r.start < end) {
        push(pos, r.start, message, role, 'template');
        push(r.start, r.end, r.message, r.role, r.segment, r.part);
        pos = r.end;
        ri++;
      } else {
        push(pos, end, message, role, 'template');
        pos = end;
      }
    }
  }
  return out;
}

/**
 * Pieces of `full` (the request rendered with `opts` by the model's template) for any template. Renders
 * messages[0..k) for k = 1…n without the generation prompt: when each render is a prefix of `full`, the characters
 * step k adds are messages[k−1]'s (its role header, content and closing tokens). Inside them the message's
 * content is found and labelled with the segment the Qwen3 layout uses (an assistant's reasoning `think`, its
 * answer `answer`, each call's JSON `tool_call` with `part`); the rest is `template`, owned by that message. Text
 * the template writes before the first message (a BOS token, a default system prompt, a date header) is in the
 * first step, so it is the first message's `template`, with that message's role (readers such as abArms take a
 * message's role from its spans, so a user message 0 must not gain a 'system' span). The tools' JSON objects, where the template prints them,
 * form the tools block (TOOLS_MESSAGE). What follows the last message is the generation prompt (message n).
 * A render that is not a prefix of `full` (or that the template refuses) leaves that message's end to be found
 * after its content; when the content is not there either, pieces is null and a note says where it broke.
 */
export function prefixPieces(request: ChatRequest, opts: RenderOptions, render: RenderFn, full: string): PrefixPieces {
  const steps = prefixPiecesSteps(request, opts, render, full);
  for (;;) {
    const s = steps.next();
    if (s.done) return s.value;
  }
}
