// Runs: the list of requests an agent loop sends (call 1 … call n), derived from one conversation, and
// per-call token accounting over rendered prompts. Pure data: no tokenizer, no engine, no DOM or I/O.
import type { Prompt } from '../prompt/prompt';
import { TOOLS_MESSAGE } from '../prompt/prompt';
import type { ChatRequest } from '../scenarios/types';

export interface Call {
  /** 0-based position in the run; the UI says "call index + 1". */
  index: number;
  /** Exactly what this call sends: the messages the model had before producing its reply, and the tools. */
  request: ChatRequest;
  /** Indices (into request.messages, which are also conversation indices) of messages new since the previous call. */
  appended: number[];
  /** Count of leading system messages: with the tools, the static prefix that never changes between calls. */
  staticPrefix: number;
}

export interface Run {
  /** The whole conversation the run was cut from (every call's messages are a prefix of it). */
  conversation: ChatRequest;
  calls: Call[];
}

/**
 * The requests an agent loop sent to produce `conversation`: one call before each assistant message
 * (holding every message before it), plus a final call when the conversation ends with a user or tool
 * message (the turn still to be generated). A call with no messages (a leading assistant turn) is skipped.
 * Append-only by construction; the harmful patterns that rewrite requests are separate transforms.
 */
export function runOf(conversation: ChatRequest): Run {
  const msgs = conversation.messages;
  let staticPrefix = 0;
  while (staticPrefix < msgs.length && msgs[staticPrefix]!.role === 'system') staticPrefix++;
  const calls: Call[] = [];
  let sent = 0;
  const cut = (end: number) => {
    if (end === 0) return;
    const request: ChatRequest = { messages: msgs.slice(0, end) };
    if (conversation.tools) request.tools = conversation.tools;
    const appended = Array.from({ length: end - sent }, (_, k) => sent + k);
    calls.push({ index: calls.length, request, appended, staticPrefix: Math.min(staticPrefix, end) });
    sent = end;
  };
  msgs.forEach((m, i) => {
    if (m.role === 'assistant') cut(i);
  });
  const last = msgs[msgs.length - 1];
  if (last && last.role !== 'assistant') cut(msgs.length);
  return { conversation, calls };
}

export interface CallTokens {
  /** All tokens of the call's prompt. */
  total: number;
  /** The static prefix: the leading system messages and the tools block (in call 1 these are also `appended`). */
  static: number;
  /** Tokens of the messages appended since the previous call (envelope included). */
  appended: number;
  /** The generation prompt (`<|im_start|>assistant\n` …). */
  generation: number;
}

/** Token accounting per call, given each call's rendered prompt (prompts[i] renders run.calls[i].request). */
export function callTokenCounts(run: Run, prompts: readonly Prompt[]): CallTokens[] {
  if (prompts.length !== run.calls.length) throw new Error(`callTokenCounts: ${prompts.length} prompts for ${run.calls.length} calls`);
  return run.calls.map((call, i) => {
    const prompt = prompts[i]!;
    const appended = new Set(call.appended);
    const out: CallTokens = { total: prompt.ids.length, static: 0, appended: 0, generation: 0 };
    for (const s of prompt.spans) {
      const n = s.end - s.start;
      if (s.message === TOOLS_MESSAGE || (s.message >= 0 && s.message < call.staticPrefix)) out.static += n;
      if (s.message >= prompt.messageCount) out.generation += n;
      else if (appended.has(s.message)) out.appended += n;
    }
    return out;
  });
}
