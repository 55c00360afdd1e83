// A chat request rendered with the loaded model's chat template and the generation prompt, in the engine
// worker; a request the worker finds invalid is an error naming each bad path. Used by every tab that runs a prompt.
import type { EngineClient } from './client';
import type { PromptResult } from './promptHook';
import type { Prompt } from '../prompt/prompt';
import type { RequestError } from '../prompt/request';
import type { ChatRequest } from '../scenarios/types';
import type { Params, StringKey } from '../i18n';
import { messageOf, type Message } from '../i18n/message';

/** A request error's coded message (lib/prompt's, as it crossed the worker), placed at its path. */
function codedOf(e: RequestError): Message | null {
  const m = messageOf(e) ?? messageOf((e as { coded?: unknown }).coded);
  return m && { ...m, where: m.where ?? e.path };
}

/**
 * The worker refused the request: `.message` is every error as `path: message`; with one error that has a coded
 * message, the error carries it (key, params, where) so the page shows it in its language.
 */
export class PromptRequestError extends Error {
  readonly key?: StringKey;
  readonly params?: Params;
  readonly where?: string;
  constructor(readonly errors: readonly RequestError[]) {
    super(errors.map((e) => `${e.path}: ${e.message}`).join('; '));
    this.name = 'PromptRequestError';
    const m = errors.length === 1 ? codedOf(errors[0]!) : null;
    if (m) {
      this.key = m.key;
      if (m.params) this.params = m.params;
      if (m.where) this.where = m.where;
    }
  }
}

export async function renderPrompt(client: EngineClient, request: ChatRequest, signal?: AbortSignal): Promise<Prompt> {
  const r = (await client.prompt(request, { addGenerationPrompt: true }, { signal })) as PromptResult;
  if (!r.ok) throw new PromptRequestError(r.errors);
  return r.prompt;
}
