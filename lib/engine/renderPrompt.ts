// A chat request rendered with the loaded model's chat template and the generation prompt, in the engine
// worker; a request the worker finds invalid is an error naming each bad path. Used by every tab that runs a prompt.
import type { EngineClient } from './client';
import type { PromptResult } from './promptHook';
import type { Prompt } from '../prompt/prompt';
import type { ChatRequest } from '../scenarios/types';

export async function renderPrompt(client: EngineClient, request: ChatRequest, signal?: AbortSignal): Promise<Prompt> {
  const r = (await client.prompt(request, { addGenerationPrompt: true }, { signal })) as PromptResult;
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
  return r.prompt;
}
