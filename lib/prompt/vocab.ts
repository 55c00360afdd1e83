// Single tokens by text, for token-level edits: the KV lab replaces or inserts exactly one token, so an
// in-place edit stays in place instead of re-tokenizing into an insertion. Reads the vocabulary of a
// byte-level BPE tokenizer.json (model.vocab plus added_tokens); no tokenizer library needed.
import { bytesToSymbols } from './byteLevel';
import { PromptError } from './promptError';
import { en, msg, type Message } from '../io/msg';

export interface Vocab {
  /** Token id of a byte-level token string, e.g. "Ġthe". */
  idOf: Map<string, number>;
  size: number;
}

export function readVocab(tokenizerJson: unknown): Vocab {
  const tj = tokenizerJson as { model?: { vocab?: Record<string, number> }; added_tokens?: { id: number; content: string }[] };
  const vocab = tj?.model?.vocab;
  if (!vocab || typeof vocab !== 'object') throw new PromptError('msg.import.prompt.noVocab');
  const idOf = new Map<string, number>(Object.entries(vocab));
  // Special tokens (<|im_start|>, <think>…) are matched by their literal text.
  for (const t of tj.added_tokens ?? []) idOf.set(t.content, t.id);
  let size = 0;
  for (const id of idOf.values()) size = Math.max(size, id + 1);
  return { idOf, size };
}

/** `message` in English; `coded` the same as a message, for the interface's language (lib/i18n/message.ts). */
export type SingleToken = { ok: true; id: number } | { ok: false; message: string; coded: Message };

const notSingle = (coded: Message): SingleToken => ({ ok: false, message: en(coded), coded });

/**
 * The id of the single token whose text is `text` ("the", " the", "\n", "<|im_end|>"), or why there is none.
 * A text that the tokenizer would split into several tokens is refused: the edit must be one token.
 */
export function singleToken(v: Vocab, text: string): SingleToken {
  if (text === '') return notSingle(msg('msg.import.prompt.emptyToken'));
  const special = v.idOf.get(text);
  if (special !== undefined && /^<.*>$/s.test(text)) return { ok: true, id: special };
  const symbols = bytesToSymbols(new TextEncoder().encode(text));
  const id = v.idOf.get(symbols);
  if (id !== undefined) return { ok: true, id };
  return notSingle(msg('msg.import.prompt.notSingle', { text }));

}
