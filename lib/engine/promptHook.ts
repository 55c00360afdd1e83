// The worker's `prompt` request: validate an OpenAI request and render + tokenize it with lib/prompt,
// off the page's main thread and cancellable between stages. Glue only; the logic lives in lib/prompt.

import { buildPromptAsync, type Prompt, type PromptOptions } from '../prompt/prompt';
import { validateRequest, type RequestError } from '../prompt/request';
import { createTokenizer, type Tokenizer } from '../prompt/tokenizer';
import type { PromptHook } from './host';
import type { Message } from '../i18n/message';

/**
 * What a `prompt` request answers: invalid input is a value with path-named errors, not an exception. `notes`
 * in English; `codedNotes` the same as messages (validation's, then the prompt's), for the page's language.
 */
export type PromptResult =
  | { ok: true; prompt: Prompt; notes: string[]; codedNotes: Message[] }
  | { ok: false; errors: RequestError[]; notes: string[]; codedNotes: Message[] };

export const promptHook: PromptHook<Tokenizer> = {
  tokenizer: (files) => createTokenizer(files.tokenizer, files.tokenizerConfig ?? {}),
  async build(tok, request, options, { signal }): Promise<PromptResult> {
    const v = validateRequest(request);
    if (!v.ok) return { ok: false, errors: v.errors, notes: v.notes, codedNotes: v.codedNotes ?? [] };
    const prompt = await buildPromptAsync(tok, v.request, { ...(options as PromptOptions | undefined), signal });
    return { ok: true, prompt, notes: [...v.notes, ...prompt.notes], codedNotes: [...(v.codedNotes ?? []), ...(prompt.codedNotes ?? [])] };
  },
};
