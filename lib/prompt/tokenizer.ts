// A transformers.js tokenizer built from in-memory tokenizer.json + tokenizer_config.json objects, and
// (re-exported from ./chatTemplate) the chat-template rendering of a request. No file or network access:
// callers bring the two objects.
import { PreTrainedTokenizer } from '@huggingface/transformers';
import type { Tokenizer } from './chatTemplate';

export * from './chatTemplate';

/**
 * `AutoTokenizer.from_pretrained` minus the loading: it only picks a subclass by `tokenizer_class`, and
 * Qwen2Tokenizer (the class of every kvscope tokenizer) adds nothing to PreTrainedTokenizer.
 */
export function createTokenizer(tokenizerJson: unknown, tokenizerConfig: unknown): Tokenizer {
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObj(tokenizerJson) || !isObj(tokenizerJson.model)) throw new Error('tokenizer.json: expected an object with a "model"');
  if (!isObj(tokenizerConfig)) throw new Error('tokenizer_config.json: expected an object');
  return new PreTrainedTokenizer(tokenizerJson, tokenizerConfig);
}

