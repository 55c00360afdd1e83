// Loads a Hugging Face tokenizer folder from disk with transformers.js (the app's code path) and
// renders + encodes requests with the model's own chat template. No network: remote loading is off.
import path from 'node:path';
import { AutoTokenizer, env } from '@huggingface/transformers';
import type { ChatMessage, ToolDef } from '../../lib/scenarios/types';

env.allowRemoteModels = false;

export type Tokenizer = Awaited<ReturnType<typeof AutoTokenizer.from_pretrained>>;

export async function loadTokenizer(dir: string): Promise<Tokenizer> {
  const abs = path.resolve(dir);
  env.localModelPath = path.dirname(abs) + path.sep;
  return AutoTokenizer.from_pretrained(path.basename(abs));
}

export interface RenderOptions {
  tools?: ToolDef[];
  addGenerationPrompt?: boolean;
  enableThinking?: boolean;
}

export function render(tok: Tokenizer, messages: ChatMessage[], opts: RenderOptions = {}): string {
  // The API allows `content: null` on assistant turns; the template cannot concatenate null.
  const safe = messages.map((m) => (m.content === null ? { ...m, content: '' } : m));
  const out = tok.apply_chat_template(safe as never, {
    tools: opts.tools as never,
    tokenize: false,
    add_generation_prompt: opts.addGenerationPrompt ?? false,
    ...(opts.enableThinking === undefined ? {} : { enable_thinking: opts.enableThinking }),
  } as never);
  if (typeof out !== 'string') throw new Error('chat template did not return text');
  return out;
}

export function encode(tok: Tokenizer, text: string): number[] {
  return Array.from(tok.encode(text, { add_special_tokens: false }) as number[]);
}
