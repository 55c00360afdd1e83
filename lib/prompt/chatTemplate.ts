// The chat-template rendering and encoding of a request with a transformers.js tokenizer. It only calls the
// tokenizer's methods, so it imports transformers.js for types alone: pages can import lib/prompt/prompt.ts
// without downloading transformers.js (and the onnxruntime-web build it imports), which only the worker needs.
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import type { ChatRequest } from '../scenarios/types';
import { PromptError } from './promptError';

export type Tokenizer = PreTrainedTokenizer;

export interface RenderOptions {
  addGenerationPrompt?: boolean;
  /** Passed to the template only when set: Qwen3 treats "undefined" as thinking on. */
  enableThinking?: boolean;
}

/**
 * Messages as the template should see them. `content: null` becomes '' (the template concatenates it);
 * absent optional fields stay absent, since `is defined` tests in templates tell undefined from null.
 */
export function templateMessages(request: ChatRequest): Record<string, unknown>[] {
  return request.messages.map((m) => {
    const out: Record<string, unknown> = { role: m.role, content: m.content ?? '' };
    if (m.role === 'assistant') {
      if (m.tool_calls?.length) out.tool_calls = m.tool_calls;
      if (m.reasoning_content !== undefined) out.reasoning_content = m.reasoning_content;
    }
    if (m.role === 'tool') out.tool_call_id = m.tool_call_id;
    return out;
  });
}

/** The request rendered by the tokenizer's own chat template. */
export function renderRequest(tok: Tokenizer, request: ChatRequest, opts: RenderOptions = {}): string {
  const out: unknown = tok.apply_chat_template(templateMessages(request) as never, {
    tools: (request.tools?.length ? request.tools : null) as never,
    tokenize: false,
    add_generation_prompt: opts.addGenerationPrompt ?? false,
    ...(opts.enableThinking === undefined ? {} : { enable_thinking: opts.enableThinking }),
  } as never);
  if (typeof out !== 'string') throw new PromptError('msg.import.prompt.noText');
  return out;
}

/**
 * Each tool as the chat template's own `tojson` filter prints it (same jinja engine, so key order,
 * separators and escaping match the rendered <tools> block). tojson never emits a raw newline.
 */
export function renderToolJson(tok: Tokenizer, request: ChatRequest): string[] {
  if (!request.tools?.length) return [];
  const out: unknown = tok.apply_chat_template([] as never, {
    chat_template: "{%- for tool in tools %}{{- tool | tojson }}{{- '\\n' }}{%- endfor %}",
    tools: request.tools as never,
    tokenize: false,
  } as never);
  if (typeof out !== 'string') throw new PromptError('msg.import.prompt.noToJson');

  return out.split('\n').slice(0, request.tools.length);
}

/** Ids of a text, with no special tokens added around it (the template already wrote them). */
export function encodeText(tok: Tokenizer, text: string): number[] {
  return Array.from(tok.encode(text, { add_special_tokens: false }));
}
