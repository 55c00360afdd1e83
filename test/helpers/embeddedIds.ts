// The default embedded model's vocabulary size and token ids, read straight from its shipped files
// (config.json, tokenizer.json), so tests that name these ids follow a retrained model's vocabulary instead of
// hard-coding one training run's numbers.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('../../public/models/kvscope-tiny/', import.meta.url));
const config = JSON.parse(readFileSync(DIR + 'config.json', 'utf8')) as { vocab_size: number };
const tokenizer = JSON.parse(readFileSync(DIR + 'tokenizer.json', 'utf8')) as {
  added_tokens: { id: number; content: string }[];
  model: { vocab: Record<string, number> };
};

export const TINY_VOCAB_SIZE: number = config.vocab_size;

/** The id of one of the default model's added (special or tag) tokens, e.g. '<|im_end|>'. */
export function tinySpecialId(content: string): number {
  const t = tokenizer.added_tokens.find((a) => a.content === content);
  if (!t) throw new Error(`kvscope-tiny's tokenizer has no added token ${content}`);
  return t.id;
}

/** The id of a vocabulary entry of the default model, in byte-level BPE spelling ('Ġassistant' for ' assistant'). */
export function tinyTokenId(piece: string): number {
  const id = tokenizer.model.vocab[piece];
  if (id === undefined) throw new Error(`kvscope-tiny's vocabulary has no ${piece}`);
  return id;
}
