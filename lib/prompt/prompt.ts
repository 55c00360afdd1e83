// A request as the model receives it: rendered text, token ids, per-token bytes and character offsets,
// and spans labelling every token with message, role and segment. Pure: no DOM, no I/O, no React.
import type { ChatRequest } from '../scenarios/types';
import { tokenBytes } from './byteLevel';
import { layoutPieces, TOOLS_MESSAGE, type Piece, type Role, type Segment } from './layout';
import { encodeText, renderRequest, renderToolJson, type RenderOptions, type Tokenizer } from './chatTemplate';
import { PREFIX_METHOD_MESSAGE, prefixPiecesSteps } from './prefixSpans';
import { PromptError } from './promptError';
import { en, msg, type Message } from '../io/msg';
import { tokensFromBytes } from './tokenText';

export type { Role, Segment } from './layout';
export { TOOLS_MESSAGE, isStatusBar } from './layout';

export interface TokenInfo {
  id: number;
  /**
   * This token's slice of `Prompt.text` (joined, the texts are the text). A character split across
   * tokens belongs to the token holding its first byte; tokens holding only its later bytes get ''.
   */
  text: string;
  /** The token's own UTF-8 bytes (may be part of a character). */
  bytes: Uint8Array;
  /** UTF-16 offsets into Prompt.text, end exclusive; start === end for a continuation-only token. */
  start: number;
  end: number;
  /** Starts or ends inside a multi-byte character, so its bytes alone are not valid UTF-8. */
  partial: boolean;
  /** An added token of the vocabulary (`<|im_start|>`, `<think>` …), matched whole, not byte-level BPE. */
  special: boolean;
}

export interface Span {
  /** Token indices, end exclusive. Spans tile the tokens: contiguous, non-empty, in order. */
  start: number;
  end: number;
  /**
   * Index into request.messages. TOOLS_MESSAGE (-1) for the tools block (the tool schemas and the
   * template text around them); messages.length for the generation prompt (the turn to be generated).
   * Template text carries the message it wraps, so counts per message include the envelope.
   */
  message: number;
  role: Role;
  segment: Segment;
  /** Tool index in request.tools (segment `tools`), tool-call index in the message (segment `tool_call`). */
  part?: number;
}

export interface Prompt {
  /** What the model reads: the rendered request, after the tokenizer's normalizer (Qwen: NFC). */
  text: string;
  ids: number[];
  tokens: TokenInfo[];
  spans: Span[];
  /** request.messages.length, so that message === messageCount can be read as the generation prompt. */
  messageCount: number;
  /** Things a reader should know (normalised text, spans read off prefix renders, spans that could not be derived). */
  notes: string[];
  /** The same notes as messages, for the interface's language (lib/i18n/message.ts). */
  codedNotes?: Message[];
}

export type PromptOptions = RenderOptions;

interface Rendered {
  rendered: string;
  pieces: Piece[];
}

function renderStage(tok: Tokenizer, request: ChatRequest, opts: PromptOptions): Rendered {
  return { rendered: renderRequest(tok, request, opts), pieces: layoutPieces(request, opts, renderToolJson(tok, request)) };
}

const encoder = new TextEncoder();
const bytesCache = new WeakMap<Tokenizer, Map<number, { bytes: Uint8Array; special: boolean }>>();

/**
 * Bytes of one vocabulary entry: added tokens are literal text, the rest byte-level symbols. Reads the
 * wrapped @huggingface/tokenizers model (`_tokenizer`, public in the typings): transformers.js has no
 * id → token-string call of its own.
 */
function idBytes(tok: Tokenizer, id: number): { bytes: Uint8Array; special: boolean } {
  let cache = bytesCache.get(tok);
  if (!cache) {
    cache = new Map();
    for (const [aid, added] of tok._tokenizer.get_added_tokens_decoder()) cache.set(aid, { bytes: encoder.encode(added.content), special: true });
    bytesCache.set(tok, cache);
  }
  let hit = cache.get(id);
  if (!hit) {
    const s = tok._tokenizer.id_to_token(id);
    if (s === undefined) throw new PromptError('msg.import.prompt.notInVocab', { id });

    hit = { bytes: tokenBytes(s), special: false };
    cache.set(id, hit);
  }
  return hit;
}

function tokenStage(tok: Tokenizer, ids: number[]): { tokens: TokenInfo[]; text: string; byteStarts: number[] } {
  return tokensFromBytes(ids, ids.map((id) => idBytes(tok, id)));
}

/** Spans from pieces: each token goes to the piece holding its first byte (a straddling token goes where it starts). */
function spanStage(pieces: Piece[], byteStarts: number[]): Span[] {
  const pieceEnds: number[] = [];
  let b = 0;
  for (const p of pieces) {
    b += encoder.encode(p.text).length;
    pieceEnds.push(b);
  }
  const spans: Span[] = [];
  let pi = 0;
  byteStarts.forEach((b0, t) => {
    while (pi < pieces.length - 1 && pieceEnds[pi]! <= b0) pi++;
    const p = pieces[pi]!;
    const last = spans[spans.length - 1];
    if (last && last.message === p.message && last.segment === p.segment && last.role === p.role && last.part === p.part) last.end = t + 1;
    else {
      const s: Span = { start: t, end: t + 1, message: p.message, role: p.role, segment: p.segment };
      if (p.part !== undefined) s.part = p.part;
      spans.push(s);
    }
  });
  return spans;
}

function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * How the tokens' text relates to the render: the same, the render normalised to NFC (pieces are normalised
 * too), or something else (null: no pieces can be trusted).
 */
function textForm(rendered: string, text: string, notes: Message[]): 'same' | 'nfc' | null {
  if (text === rendered) return 'same';
  if (text === rendered.normalize('NFC')) {
    notes.push(msg('msg.import.prompt.nfc'));
    return 'nfc';
  }
  notes.push(msg('msg.import.prompt.spell', { at: firstDifference(text, rendered) }));
  return null;
}

/** Pieces in the text's form, or the first character where they disagree with it. */
function alignPieces(text: string, form: 'same' | 'nfc', pieces: Piece[]): { pieces: Piece[] } | { at: number; joined: string } {
  const aligned = form === 'nfc' ? pieces.map((p) => ({ ...p, text: p.text.normalize('NFC') })) : pieces;
  const joined = aligned.map((p) => p.text).join('');
  return joined === text ? { pieces: aligned } : { at: firstDifference(joined, text), joined };
}

/**
 * The pieces that label the text: the Qwen3 layout when it matches the render; else pieces from rendering
 * each prefix of the message list with the model's own template (prefixSpans.ts); else null, and the prompt
 * becomes one template span with a note, rather than spans that point at the wrong characters. Yields between
 * template renders (see buildPromptAsync).
 */
function* labelSteps(tok: Tokenizer, request: ChatRequest, opts: PromptOptions, r: Rendered, text: string, notes: Message[]): Generator<void, Piece[] | null> {
  const form = textForm(r.rendered, text, notes);
  if (!form) return null;
  const layout = alignPieces(text, form, r.pieces);
  if ('pieces' in layout) return layout.pieces;
  const mismatch = msg('msg.import.prompt.mismatch', {
    at: layout.at,
    expected: JSON.stringify(layout.joined.slice(layout.at, layout.at + 30)),
    found: JSON.stringify(text.slice(layout.at, layout.at + 30)),
  });
  yield;
  const render = (req: ChatRequest, o: RenderOptions) => renderRequest(tok, req, o);
  const prefix = yield* prefixPiecesSteps(request, opts, render, r.rendered);
  const aligned = prefix.pieces && alignPieces(text, form, prefix.pieces);
  if (aligned && 'pieces' in aligned) {
    notes.push(msg('msg.import.prompt.prefixUsed', { at: layout.at }, undefined, { method: PREFIX_METHOD_MESSAGE }), ...prefix.codedNotes);
    return aligned.pieces;
  }
  notes.push(mismatch, ...prefix.codedNotes);
  if (aligned) notes.push(msg('msg.import.prompt.prefixMisaligned', { at: aligned.at }, undefined, { method: PREFIX_METHOD_MESSAGE }));
  return null;
}

function finish(ids: number[], tokens: TokenInfo[], text: string, byteStarts: number[], pieces: Piece[] | null, messageCount: number, notes: Message[]): Prompt {
  const spans = pieces
    ? spanStage(pieces, byteStarts)
    : ids.length
      ? [{ start: 0, end: ids.length, message: TOOLS_MESSAGE, role: 'system' as const, segment: 'template' as const }]
      : [];
  return { text, ids, tokens, spans, messageCount, notes: notes.map(en), codedNotes: notes };
}


/** Renders `request` with the tokenizer's chat template and labels every token. Pure and synchronous. */
export function buildPrompt(tok: Tokenizer, request: ChatRequest, opts: PromptOptions = {}): Prompt {
  const r = renderStage(tok, request, opts);
  const ids = encodeText(tok, r.rendered);
  const { tokens, text, byteStarts } = tokenStage(tok, ids);
  const notes: Message[] = [];
  const steps = labelSteps(tok, request, opts, r, text, notes);
  let s = steps.next();
  while (!s.done) s = steps.next();
  return finish(ids, tokens, text, byteStarts, s.value, request.messages.length, notes);
}

/** Lets queued worker messages (a cancel) run between stages. */
const yieldTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * buildPrompt in stages for a worker: yields between rendering, encoding and labelling (and between the
 * template renders of prefix spans), and rejects with the signal's reason (an AbortError DOMException by
 * default) once `signal` is aborted.
 */
export async function buildPromptAsync(
  tok: Tokenizer,
  request: ChatRequest,
  opts: PromptOptions & { signal?: AbortSignal } = {},
): Promise<Prompt> {
  const { signal, ...renderOpts } = opts;
  signal?.throwIfAborted();
  const r = renderStage(tok, request, renderOpts);
  await yieldTurn();
  signal?.throwIfAborted();
  const ids = encodeText(tok, r.rendered);
  await yieldTurn();
  signal?.throwIfAborted();
  const { tokens, text, byteStarts } = tokenStage(tok, ids);
  const notes: Message[] = [];
  const steps = labelSteps(tok, request, renderOpts, r, text, notes);
  let s = steps.next();
  while (!s.done) {
    await yieldTurn();
    signal?.throwIfAborted();
    s = steps.next();
  }
  return finish(ids, tokens, text, byteStarts, s.value, request.messages.length, notes);
}

export interface TokenCounts {
  /** Tokens per request message, template envelope included. */
  messages: number[];
  /** The tools block (schemas and their preamble). */
  tools: number;
  /** The generation prompt (`<|im_start|>assistant\n` …). */
  generation: number;
}

export function messageTokenCounts(prompt: Prompt): TokenCounts {
  const counts: TokenCounts = { messages: new Array<number>(prompt.messageCount).fill(0), tools: 0, generation: 0 };
  for (const s of prompt.spans) {
    const n = s.end - s.start;
    if (s.message === TOOLS_MESSAGE) counts.tools += n;
    else if (s.message >= prompt.messageCount) counts.generation += n;
    else counts.messages[s.message] = (counts.messages[s.message] ?? 0) + n;
  }
  return counts;
}

/** Index of the span holding token `t` (binary search; spans tile the tokens); -1 when there are none. */
export function spanIndexAt(prompt: Prompt, t: number): number {
  if (!prompt.spans.length) return -1;
  let lo = 0;
  let hi = prompt.spans.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (prompt.spans[mid]!.start <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A token as a label: its text, or its bytes in hex when it holds part of a character. */
export function tokenLabel(t: TokenInfo): string {
  if (!t.partial) return t.text;
  return Array.from(t.bytes, (b) => `<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`).join('');
}
