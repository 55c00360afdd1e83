// The Qwen3 chat template's output as labelled pieces (which message, role and segment wrote each
// character). Mirrors the template only to label it: prompt.ts checks it against the real render.
import type { ChatMessage, ChatRequest } from '../scenarios/types';
import type { RenderOptions } from './tokenizer';

export type Segment = 'template' | 'system' | 'tools' | 'user' | 'think' | 'answer' | 'tool_call' | 'tool_result' | 'status_bar';
export type Role = ChatMessage['role'];

/** Message index of the tools block (request.tools and its preamble): it belongs to no message. */
export const TOOLS_MESSAGE = -1;

export interface Piece {
  text: string;
  /** Index into request.messages; TOOLS_MESSAGE; or messages.length for the generation prompt. */
  message: number;
  role: Role;
  segment: Segment;
  /** Tool index in request.tools (segment `tools`) or tool-call index in the message (segment `tool_call`). */
  part?: number;
}

/** A user message that reports agent state (docs/CONCEPTS.md#segments) rather than asking something. */
export function isStatusBar(content: string): boolean {
  return content.startsWith('<agent_status>');
}

// Python's str.strip('\n') family, as the template calls them.
const lstripNl = (s: string) => s.replace(/^\n+/, '');
const rstripNl = (s: string) => s.replace(/\n+$/, '');
const stripNl = (s: string) => lstripNl(rstripNl(s));

const TOOLS_HEAD =
  '# Tools\n\nYou may call one or more functions to assist with the user query.\n\n' +
  'You are provided with function signatures within <tools></tools> XML tags:\n<tools>';
const TOOLS_TAIL =
  '\n</tools>\n\nFor each function call, return a json object with function name and arguments within ' +
  '<tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call><|im_end|>\n';

/**
 * Pieces whose concatenation is the Qwen3 template's output for `request`. Template text is owned by
 * the message it wraps (`<|im_start|>user\n` … `<|im_end|>\n` belong to that user message), so
 * per-message token counts include their envelope. `toolJson` is each tool printed by the template's tojson.
 */
export function layoutPieces(request: ChatRequest, opts: RenderOptions, toolJson: readonly string[]): Piece[] {
  const msgs = request.messages;
  const n = msgs.length;
  const out: Piece[] = [];
  const push = (text: string, message: number, role: Role, segment: Segment, part?: number) => {
    if (text) out.push(part === undefined ? { text, message, role, segment } : { text, message, role, segment, part });
  };
  const text = (m: ChatMessage) => m.content ?? '';
  const first = msgs[0];
  const sys0 = first?.role === 'system' ? first : undefined;

  if (toolJson.length) {
    push('<|im_start|>system\n', sys0 ? 0 : TOOLS_MESSAGE, 'system', 'template');
    if (sys0) push(text(sys0), 0, 'system', 'system');
    push((sys0 ? '\n\n' : '') + TOOLS_HEAD, TOOLS_MESSAGE, 'system', 'template');
    toolJson.forEach((json, j) => {
      push('\n', TOOLS_MESSAGE, 'system', 'template');
      push(json, TOOLS_MESSAGE, 'system', 'tools', j);
    });
    push(TOOLS_TAIL, TOOLS_MESSAGE, 'system', 'template');
  } else if (sys0) {
    push('<|im_start|>system\n', 0, 'system', 'template');
    push(text(sys0), 0, 'system', 'system');
    push('<|im_end|>\n', 0, 'system', 'template');
  }

  // The last real user query: assistant turns after it keep their reasoning, earlier ones lose it.
  let lastQuery = n - 1;
  for (let i = n - 1; i >= 0; i--) {
    const m = msgs[i]!;
    const c = text(m);
    if (m.role === 'user' && !(c.startsWith('<tool_response>') && c.endsWith('</tool_response>'))) {
      lastQuery = i;
      break;
    }
  }

  msgs.forEach((m, i) => {
    if (m.role === 'user' || (m.role === 'system' && i > 0)) {
      const seg: Segment = m.role === 'system' ? 'system' : isStatusBar(m.content) ? 'status_bar' : 'user';
      push(`<|im_start|>${m.role}\n`, i, m.role, 'template');
      push(m.content, i, m.role, seg);
      push('<|im_end|>\n', i, m.role, 'template');
    } else if (m.role === 'assistant') {
      let content = text(m);
      let reasoning = '';
      if (m.reasoning_content !== undefined && m.reasoning_content !== null) reasoning = m.reasoning_content;
      else if (content.includes('</think>')) {
        const parts = content.split('</think>');
        content = lstripNl(parts[parts.length - 1]!);
        const before = rstripNl(parts[0]!).split('<think>');
        reasoning = lstripNl(before[before.length - 1]!);
      }
      if (i > lastQuery && (i === n - 1 || reasoning)) {
        push('<|im_start|>assistant\n<think>\n', i, 'assistant', 'template');
        push(stripNl(reasoning), i, 'assistant', 'think');
        push('\n</think>\n\n', i, 'assistant', 'template');
        push(lstripNl(content), i, 'assistant', 'answer');
      } else {
        push('<|im_start|>assistant\n', i, 'assistant', 'template');
        push(content, i, 'assistant', 'answer');
      }
      (m.tool_calls ?? []).forEach((tc, j) => {
        if (j > 0 || content) push('\n', i, 'assistant', 'template');
        push('<tool_call>\n', i, 'assistant', 'template');
        // The JSON object is what the model writes for a call, so it is the tool_call segment as a whole.
        push(`{"name": "${tc.function.name}", "arguments": ${tc.function.arguments}}`, i, 'assistant', 'tool_call', j);
        push('\n</tool_call>', i, 'assistant', 'template');
      });
      push('<|im_end|>\n', i, 'assistant', 'template');
    } else if (m.role === 'tool') {
      // Consecutive tool results share one user turn; each owns its <tool_response> envelope.
      if (i === 0 || msgs[i - 1]!.role !== 'tool') push('<|im_start|>user', i, 'tool', 'template');
      push('\n<tool_response>\n', i, 'tool', 'template');
      push(m.content, i, 'tool', 'tool_result');
      push('\n</tool_response>', i, 'tool', 'template');
      if (i === n - 1 || msgs[i + 1]!.role !== 'tool') push('<|im_end|>\n', i, 'tool', 'template');
    }
  });

  if (opts.addGenerationPrompt) {
    push('<|im_start|>assistant\n', n, 'assistant', 'template');
    if (opts.enableThinking === false) push('<think>\n\n</think>\n\n', n, 'assistant', 'template');
  }
  return out;
}
