// Text of token ids in the page, where no tokenizer object exists (the tokenizer lives in the engine
// worker): ids → byte-level token strings through the vocabulary (lib/prompt/vocab.ts, inverted) → bytes
// (lib/prompt/byteLevel.ts) → UTF-8 text, with per-token TokenInfo as lib/prompt/prompt.ts builds them for
// prompts. Also the segment (think / answer / tool_call / template) of each generated token, so a growing
// assistant turn can be coloured like a prompt. Pure: no DOM, no Node APIs.
import { tokenBytes } from '../prompt/byteLevel';
import { tokensFromBytes } from '../prompt/tokenText';
import type { Role, Segment, Span, TokenInfo } from '../prompt/prompt';
import type { Vocab } from '../prompt/vocab';
import { END_OF_TURN } from '../prompt/assistantOutput';
import { CodedError } from '../i18n/message';

/** The vocabulary inverted: token string by id ('' where no token has that id). */
export function tokenStrings(v: Vocab): string[] {
  const out: string[] = new Array<string>(v.size).fill('');
  for (const [s, id] of v.idOf) if (id >= 0 && id < out.length) out[id] = s;
  return out;
}

/** Qwen's added tokens that are markup rather than text (used to mark tokens special). */
export const QWEN_TAGS: readonly string[] = ['<think>', '</think>', '<tool_call>', '</tool_call>', '<tool_response>', '</tool_response>'];

/** Ids of tokens that look like added special tokens: `<|…|>` and the Qwen tags. */
export function specialTokenIds(v: Vocab): Set<number> {
  const out = new Set<number>();
  for (const [s, id] of v.idOf) if (/^<\|[^|\s]*\|>$/.test(s) || QWEN_TAGS.includes(s)) out.add(id);
  return out;
}

const encoder = new TextEncoder();

/**
 * Bytes of one token string. Byte-level BPE strings map symbol by symbol to bytes; added tokens are stored as
 * their literal text, which for ASCII markup (`<|im_end|>`, `<think>`) is the same bytes because printable
 * ASCII other than space maps to itself. A string with a character outside the byte-level alphabet can only
 * be an added token: its literal UTF-8.
 */
export function tokenStringBytes(s: string): Uint8Array {
  try {
    return tokenBytes(s);
  } catch {
    return encoder.encode(s);
  }
}

export { endsInsideCharacter } from '../prompt/tokenText';

export interface DecodedTokens {
  /** The ids' text (UTF-8 decoded; a character cut off at the end decodes as U+FFFD until the rest arrives). */
  text: string;
  /** Per id, as lib/prompt/prompt.ts builds TokenInfo: a character belongs to the token holding its first byte. */
  tokens: TokenInfo[];
}

/**
 * Decodes `ids` with `strings` (tokenStrings of the vocabulary). Throws on an id with no token string.
 * `special` marks added tokens (TokenInfo.special).
 */
export function decodeTokens(strings: readonly string[], ids: readonly number[], special: ReadonlySet<number> = new Set()): DecodedTokens {
  const parts = ids.map((id) => {
    const s = strings[id];
    if (s === undefined || s === '') throw new CodedError('msg.engine.gen.notInVocab', { id });
    return { bytes: tokenStringBytes(s), special: special.has(id) };
  });
  const { tokens, text } = tokensFromBytes(ids, parts);
  return { text, tokens };
}

/** Segments an assistant turn's tokens can belong to. */
export type AssistantSegment = Extract<Segment, 'think' | 'answer' | 'tool_call' | 'template'>;

/**
 * The segment of each token of generated assistant text, following parseAssistantText's reading: a
 * `<think>` block opening the text (or text before a `</think>` with no opener) is think, tags included;
 * `<tool_call>…</tool_call>` blocks (an unclosed one runs to the end) are tool_call; the end-of-turn token
 * and anything after it is template; the rest is answer. A token takes the segment of its first character;
 * a token with no characters of its own (the tail bytes of a split character) that of the token before it.
 */
export function assistantSegments(text: string, tokens: readonly { start: number; end: number }[]): AssistantSegment[] {
  const n = text.length;
  const seg: AssistantSegment[] = new Array<AssistantSegment>(n).fill('answer');
  const fill = (a: number, b: number, s: AssistantSegment) => {
    for (let i = Math.max(0, a); i < Math.min(b, n); i++) seg[i] = s;
  };
  let end = n;
  for (const m of END_OF_TURN) {
    const i = text.indexOf(m);
    if (i >= 0 && i < end) end = i;
  }
  fill(end, n, 'template');
  const body = text.slice(0, end);
  let from = 0;
  const lead = body.length - body.trimStart().length;
  if (body.startsWith('<think>', lead)) {
    const close = body.indexOf('</think>', lead + 7);
    from = close < 0 ? end : close + 8;
    fill(lead, from, 'think');
  } else {
    const close = body.indexOf('</think>');
    if (close >= 0 && !body.slice(0, close).includes('<tool_call>')) {
      from = close + 8;
      fill(0, from, 'think');
    }
  }
  for (;;) {
    const open = body.indexOf('<tool_call>', from);
    if (open < 0) break;
    const close = body.indexOf('</tool_call>', open + 11);
    const stop = close < 0 ? end : close + 12;
    fill(open, stop, 'tool_call');
    from = stop;
  }
  const out: AssistantSegment[] = [];
  tokens.forEach((t, i) => {
    const own = t.start < n ? seg[t.start]! : 'answer';
    out.push(t.start < t.end ? own : (out[i - 1] ?? own));
  });
  return out;
}

/** Spans tiling tokens offset…offset + segments.length − 1: one span per run of equal segments. */
export function segmentSpans(segments: readonly Segment[], offset: number, message: number, role: Role): Span[] {
  const spans: Span[] = [];
  segments.forEach((s, i) => {
    const last = spans[spans.length - 1];
    if (last && last.segment === s) last.end = offset + i + 1;
    else spans.push({ start: offset + i, end: offset + i + 1, message, role, segment: s });
  });
  return spans;
}
