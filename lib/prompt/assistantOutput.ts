// Generated assistant text split into what the views show: the <think> block, the answer text and the
// <tool_call> blocks (Qwen3's chat-template format), also while it is still streaming; and the call-limit
// decision of that text. Never throws on model output. No DOM, no Node APIs.
import { en, msg, type Message } from '../io/msg';

export interface ParsedToolCall {
  /** The call's "name"; for malformed JSON, read leniently from the raw text ('' if none found). */
  name: string;
  /** The call's "arguments" as written (an object normally; undefined if absent or unparseable). */
  arguments: unknown;
  /** The text between <tool_call> and </tool_call>, trimmed. */
  raw: string;
  /** Why the block is not a valid call: bad JSON, no name, or no </tool_call> (yet). */
  error?: string;
  /** `error` as a coded message (lib/i18n/message.ts), for the interface's language. */
  errorCoded?: Message;
}

/** A call that is not valid: its fields, and why in English and coded. */
function invalid(name: string, args: unknown, raw: string, why: Message): ParsedToolCall {
  return { name, arguments: args, raw, error: en(why), errorCoded: why };
}

export interface ParsedAssistant {
  /** The reasoning inside <think>…</think>, trimmed; '' for an empty block, null when there is none. */
  think: string | null;
  /** Text outside the think and tool-call blocks, trimmed. */
  answer: string;
  toolCalls: ParsedToolCall[];
  /** An end-of-turn token (<|im_end|> or <|endoftext|>) was reached; anything after it is ignored. */
  complete: boolean;
}

export const END_OF_TURN = ['<|im_end|>', '<|endoftext|>'] as const;
const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';
const CALL_OPEN = '<tool_call>';
const CALL_CLOSE = '</tool_call>';

/** A name from `"name": "…"` in text that is not valid JSON (truncated or malformed calls). */
function lenientName(raw: string): string {
  const m = /"name"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(raw);
  if (!m) return '';
  try {
    return JSON.parse(`"${m[1]}"`) as string;
  } catch {
    return m[1]!;
  }
}

function parseCall(inner: string, closed: boolean): ParsedToolCall {
  const raw = inner.trim();
  if (!closed) return invalid(lenientName(raw), undefined, raw, msg('msg.import.prompt.callUnclosed', { close: CALL_CLOSE }));
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    return invalid(lenientName(raw), undefined, raw, msg('msg.import.prompt.callJson', { detail: (e as Error).message }));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return invalid('', undefined, raw, msg('msg.import.prompt.callObject'));
  const obj = value as Record<string, unknown>;
  if (typeof obj.name !== 'string' || obj.name === '') return invalid('', obj.arguments, raw, msg('msg.import.prompt.callName'));

  return { name: obj.name, arguments: obj.arguments, raw };
}

/**
 * Splits assistant output as the Qwen3 template writes it:
 * `<think>\n…\n</think>\n\n` answer text and/or `<tool_call>\n{"name": …, "arguments": {…}}\n</tool_call>` blocks,
 * then `<|im_end|>`.
 * - Text is cut at the first end-of-turn token (`complete` then true).
 * - Think: a block opening the text (after whitespace); unterminated → everything after `<think>` is
 *   reasoning and the answer is empty (streaming). A `</think>` with no opener (the prompt ended in `<think>`)
 *   makes everything before it reasoning, as Qwen3's reasoning parser does.
 * - Tool calls: every `<tool_call>…</tool_call>` after the think block; malformed JSON keeps the raw text and
 *   an error; an unclosed last block is kept with an error (it may still be streaming).
 * - Answer: the rest, with the blocks removed, trimmed. Stray closing tags stay in it as text.
 */
export function parseAssistantText(text: string): ParsedAssistant {
  let end = text.length;
  for (const marker of END_OF_TURN) {
    const i = text.indexOf(marker);
    if (i >= 0 && i < end) end = i;
  }
  const complete = end < text.length;
  let rest = text.slice(0, end);

  let think: string | null = null;
  const lead = rest.length - rest.trimStart().length;
  if (rest.startsWith(THINK_OPEN, lead)) {
    const body = rest.slice(lead + THINK_OPEN.length);
    const close = body.indexOf(THINK_CLOSE);
    if (close < 0) return { think: body.trim(), answer: '', toolCalls: [], complete };
    think = body.slice(0, close).trim();
    rest = body.slice(close + THINK_CLOSE.length);
  } else {
    const close = rest.indexOf(THINK_CLOSE);
    if (close >= 0 && !rest.slice(0, close).includes(CALL_OPEN)) {
      think = rest.slice(0, close).trim();
      rest = rest.slice(close + THINK_CLOSE.length);
    }
  }

  const toolCalls: ParsedToolCall[] = [];
  let answer = '';
  let at = 0;
  for (;;) {
    const open = rest.indexOf(CALL_OPEN, at);
    if (open < 0) {
      answer += rest.slice(at);
      break;
    }
    answer += rest.slice(at, open);
    const from = open + CALL_OPEN.length;
    const close = rest.indexOf(CALL_CLOSE, from);
    if (close < 0) {
      toolCalls.push(parseCall(rest.slice(from), false));
      break;
    }
    toolCalls.push(parseCall(rest.slice(from, close), true));
    at = close + CALL_CLOSE.length;
  }
  return { think, answer: answer.trim(), toolCalls, complete };
}

export type Decision = 'call' | 'refuse';

/**
 * The book's call-limit classifier (training/py/evaluate.py `decide`): a `phone_call` tool call is a call
 * (a violation once the limit is reached); anything else is a refusal. Counts malformed or unterminated
 * calls whose name reads `phone_call` (evaluate.py checks only that `<tool_call>` and `"phone_call"` occur
 * in its 24-token continuation). Unlike evaluate.py, a `"phone_call"` mentioned only in the reasoning or
 * in another tool's arguments does not count.
 */
export function classifyDecision(parsed: ParsedAssistant): Decision {
  return parsed.toolCalls.some((c) => c.name === 'phone_call') ? 'call' : 'refuse';
}

/** What decodeIds needs of a tokenizer (transformers.js PreTrainedTokenizer fits). */
export interface TokenDecoder {
  decode(ids: number[], options: { skip_special_tokens: boolean }): string;
}

/**
 * Text of generated ids with special tokens kept, so parseAssistantText sees `<|im_end|>` (the think and
 * tool-call tags are ordinary added tokens and would be kept either way). An id sequence that ends inside a
 * UTF-8 character decodes with a trailing U+FFFD until the rest arrives. No ids → '' (transformers.js
 * would throw).
 */
export function decodeIds(tok: TokenDecoder, ids: number[]): string {
  return ids.length === 0 ? '' : tok.decode(ids, { skip_special_tokens: false });
}
