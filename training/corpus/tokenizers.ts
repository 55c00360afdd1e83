// Loads a Hugging Face tokenizer folder from disk and renders + encodes requests with the model's own
// chat template, through lib/prompt (the app's code path). Thin wrapper: no rendering logic of its own.
import { loadTokenizerDir } from '../../lib/cli/tokenizerDir';
import { encodeText, renderRequest, type Tokenizer } from '../../lib/prompt/tokenizer';
import type { ChatMessage, ToolDef } from '../../lib/scenarios/types';

export type { Tokenizer } from '../../lib/prompt/tokenizer';

export async function loadTokenizer(dir: string): Promise<Tokenizer> {
  return loadTokenizerDir(dir);
}

export interface RenderOptions {
  tools?: ToolDef[];
  addGenerationPrompt?: boolean;
  enableThinking?: boolean;
}

export function render(tok: Tokenizer, messages: ChatMessage[], opts: RenderOptions = {}): string {
  const { tools, ...rest } = opts;
  return renderRequest(tok, tools ? { messages, tools } : { messages }, rest);
}

export function encode(tok: Tokenizer, text: string): number[] {
  return encodeText(tok, text);
}
