// The models that ship in public/models and load offline, and the one-line description each card
// (README.md front matter, written by training/py/card.py) gives. Paths are URL paths under the app root.
import { CodedError } from '../i18n/message';

export interface EmbeddedModel {
  id: string;
  /** URL path of the model folder, with a trailing slash. */
  path: string;
}

export const EMBEDDED_MODELS: readonly EmbeddedModel[] = [
  { id: 'kvscope-tiny', path: '/models/kvscope-tiny/' },
  { id: 'kvscope-tiny-sink', path: '/models/kvscope-tiny-sink/' },
];
export const DEFAULT_MODEL = 'kvscope-tiny';

/** The files of a model folder in Hugging Face layout, as the loader fetches them. */
export const MODEL_FILES = ['config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json'] as const;

export interface ModelCard {
  description: string;
  /** `description_zh:`, shown when the interface is in Chinese; the English line when the card has none. */
  descriptionZh: string;
  /** True when something in the model was engineered rather than learnt (the card says which). */
  engineered: boolean;
}

/**
 * Reads `description:` and `engineered:` from a card's front matter (the block between the first two `---`
 * lines). Only these scalar fields are read, double-quoted or bare; anything else in the card is ignored.
 */
export function parseModelCard(readme: string): ModelCard {
  const m = /^---\r?\n([\s\S]*?)\r?\n---/.exec(readme);
  if (!m) throw new CodedError('msg.model.card.noFrontMatter', undefined, 'model card');
  const fields = new Map<string, string>();
  for (const line of m[1]!.split(/\r?\n/)) {
    const kv = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line);
    if (kv) fields.set(kv[1]!, kv[2]!.trim());
  }
  const raw = fields.get('description');
  if (raw === undefined || raw === '') throw new CodedError('msg.model.card.noDescription', undefined, 'model card');
  const description = unquote(raw, 'description');
  const zh = fields.get('description_zh');
  return { description, descriptionZh: zh ? unquote(zh, 'description_zh') : description, engineered: fields.get('engineered') === 'true' };
}

function unquote(raw: string, field: string): string {
  if (!raw.startsWith('"')) return raw;
  try {
    return JSON.parse(raw) as string;
  } catch {
    throw new CodedError('msg.model.card.badString', { field }, 'model card');
  }
}
