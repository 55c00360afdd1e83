// A transformers.js tokenizer built from in-memory tokenizer.json + tokenizer_config.json objects, and
// (re-exported from ./chatTemplate) the chat-template rendering of a request. No file or network access:
// callers bring the two objects. Both come from strangers (a Hub repo, a dropped folder), so they are checked
// before transformers.js sees them: every refusal is a TokenizerError naming the file and the key path.
import { PreTrainedTokenizer } from '@huggingface/transformers';
import type { Params, StringKey } from '../i18n';
import { CodedError } from '../i18n/message';
import type { Tokenizer } from './chatTemplate';

export * from './chatTemplate';

export type TokenizerFile = 'tokenizer.json' | 'tokenizer_config.json';

/** A refusal of a tokenizer file: a 'msg.model.tok.*' message, shown after "<file>: <path>: ". */
export class TokenizerError extends CodedError {
  constructor(
    readonly file: TokenizerFile,
    /** Key path inside the file (`model.vocab`, `pre_tokenizer.pretokenizers[1]`); '' for the file as a whole. */
    readonly path: string,
    key: StringKey,
    params?: Params,
  ) {
    super(key, params, path ? `${file}: ${path}` : file);
    this.name = 'TokenizerError';
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : typeof v);
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 2 ** 31;

/** Deepest nesting accepted in either file (real ones stay under 8); transformers.js recurses through it. */
const MAX_DEPTH = 32;
/** Steps in one Sequence (real ones have 2 to 5), and Sequences inside Sequences. */
const MAX_SEQUENCE = 16;
const MAX_SEQUENCE_DEPTH = 4;
const MODEL_TYPES = ['BPE', 'WordPiece', 'Unigram'];
const SPECIAL_KEYS = ['bos_token', 'eos_token', 'pad_token', 'unk_token', 'sep_token', 'mask_token', 'cls_token'];
/** Encoded and decoded once at creation, so a tokenizer that fails on text fails here, with a typed error. */
const PROBE = 'Hello, world! 你好 123\n\tçà ёж 😀';

function depthOver(v: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[v, 1]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (d > max) return true;
    for (const c of Array.isArray(x) ? x : Object.values(x as Obj)) if (typeof c === 'object' && c !== null) stack.push([c, d + 1]);
  }
  return false;
}

/** The list key of a Sequence for each pipeline part. */
const SEQUENCE_KEY = { normalizer: 'normalizers', pre_tokenizer: 'pretokenizers', post_processor: 'processors', decoder: 'decoders' } as const;
type Part = keyof typeof SEQUENCE_KEY;

/**
 * One pipeline step (and the steps of a Sequence): an object with a string `type`. Bounds what would make
 * transformers.js hang: ByteLevel twice re-encodes every byte of the text (its length doubles per pass), and a
 * Replace whose content is longer than what it replaces multiplies the text once per step.
 */
function checkStep(v: unknown, path: string, part: Part, depth: number, counts: { byteLevel: number }): void {
  const bad = (p: string, key: StringKey, params?: Params) => new TokenizerError('tokenizer.json', p, key, params);
  if (!isObj(v)) throw bad(path, 'msg.model.tok.stepNotObject', { got: kind(v) });
  if (typeof v.type !== 'string' || v.type === '') throw bad(`${path}.type`, 'msg.model.tok.stepType', { got: kind(v.type) });
  if (v.type === 'Sequence') {
    const key = SEQUENCE_KEY[part];
    const steps = v[key];
    if (!Array.isArray(steps)) throw bad(`${path}.${key}`, 'msg.model.tok.steps', { got: kind(steps) });
    if (steps.length > MAX_SEQUENCE) throw bad(`${path}.${key}`, 'msg.model.tok.tooManySteps', { count: steps.length, max: MAX_SEQUENCE });
    if (depth >= MAX_SEQUENCE_DEPTH) throw bad(path, 'msg.model.tok.sequenceDepth', { max: MAX_SEQUENCE_DEPTH });
    steps.forEach((s, i) => checkStep(s, `${path}.${key}[${i}]`, part, depth + 1, counts));
    return;
  }
  if (v.type === 'ByteLevel' && part === 'pre_tokenizer' && ++counts.byteLevel > 1) throw bad(path, 'msg.model.tok.byteLevelTwice');
  for (const key of ['behavior', 'replacement', 'prepend_scheme', 'prepend', 'content'] as const) {
    if (v[key] !== undefined && typeof v[key] !== 'string') throw bad(`${path}.${key}`, 'msg.model.tok.string', { got: kind(v[key]) });
  }
  if (v.type === 'Split' || v.type === 'Replace') {
    const p = v.pattern;
    if (!isObj(p) || (typeof p.String !== 'string' && typeof p.Regex !== 'string')) throw bad(`${path}.pattern`, 'msg.model.tok.pattern');
    if (typeof p.String === 'string' && p.String === '') throw bad(`${path}.pattern.String`, 'msg.model.tok.patternEmpty');
  }
  if (v.type === 'Replace') {
    const p = v.pattern as Obj;
    const content = typeof v.content === 'string' ? v.content : '';
    // A String pattern: no longer than what it replaces. A Regex may match one character: at most one out.
    const room = typeof p.String === 'string' ? p.String.length : 1;
    if (content.length > room) throw bad(`${path}.content`, typeof p.String === 'string' ? 'msg.model.tok.replaceGrows' : 'msg.model.tok.replaceGrowsRegex', { count: content.length, room });
  }
}

function checkTokenizerJson(tj: unknown): asserts tj is Obj {
  const bad = (p: string, key: StringKey, params?: Params) => new TokenizerError('tokenizer.json', p, key, params);
  if (!isObj(tj)) throw bad('', 'msg.model.tok.notObject', { got: kind(tj) });
  const m = tj.model;
  if (!isObj(m)) throw bad('model', 'msg.model.tok.object', { got: kind(m) });
  // The vocabulary and merges (hundreds of thousands of entries) are checked entry by entry below.
  if (depthOver({ ...tj, model: { ...m, vocab: null, merges: null } }, MAX_DEPTH)) throw bad('', 'msg.model.tok.depth', { max: MAX_DEPTH });
  if (typeof m.type !== 'string' || !MODEL_TYPES.includes(m.type)) throw bad('model.type', 'msg.model.tok.modelType', { got: typeof m.type === 'string' ? JSON.stringify(m.type.slice(0, 40)) : kind(m.type) });
  if (m.type === 'Unigram') {
    if (!Array.isArray(m.vocab)) throw bad('model.vocab', 'msg.model.tok.unigramVocab', { got: kind(m.vocab) });
    m.vocab.forEach((e, i) => {
      if (!Array.isArray(e) || typeof e[0] !== 'string' || typeof e[1] !== 'number') throw bad(`model.vocab[${i}]`, 'msg.model.tok.unigramEntry');
    });
  } else {
    if (!isObj(m.vocab)) throw bad('model.vocab', 'msg.model.tok.vocab', { got: kind(m.vocab) });
    const vocab = m.vocab;
    for (const token of Object.keys(vocab)) if (!isId(vocab[token])) throw bad(`model.vocab[${JSON.stringify(token.slice(0, 40))}]`, 'msg.model.tok.id', { got: kind(vocab[token]) });
  }
  if (m.type === 'BPE') {
    if (!Array.isArray(m.merges)) throw bad('model.merges', 'msg.model.tok.list', { got: kind(m.merges) });
    const merges = m.merges;
    for (let i = 0; i < merges.length; i++) {
      const x: unknown = merges[i];
      const ok = typeof x === 'string' || (Array.isArray(x) && x.length === 2 && typeof x[0] === 'string' && typeof x[1] === 'string');
      if (!ok) throw bad(`model.merges[${i}]`, 'msg.model.tok.merge');
    }
  }
  for (const key of ['unk_token', 'continuing_subword_prefix', 'end_of_word_suffix'] as const) {
    if (m[key] !== undefined && m[key] !== null && typeof m[key] !== 'string') throw bad(`model.${key}`, 'msg.model.tok.stringOrNull', { got: kind(m[key]) });
  }
  const added = tj.added_tokens ?? [];
  if (!Array.isArray(added)) throw bad('added_tokens', 'msg.model.tok.list', { got: kind(added) });
  added.forEach((t, i) => {
    if (!isObj(t)) throw bad(`added_tokens[${i}]`, 'msg.model.tok.addedToken', { got: kind(t) });
    if (!isId(t.id)) throw bad(`added_tokens[${i}].id`, 'msg.model.tok.id', { got: kind(t.id) });
    if (typeof t.content !== 'string' || t.content === '') throw bad(`added_tokens[${i}].content`, 'msg.model.tok.nonEmpty', { got: kind(t.content) });
  });
  const counts = { byteLevel: 0 };
  for (const part of Object.keys(SEQUENCE_KEY) as Part[]) {
    if (!(part in tj)) throw bad(part, 'msg.model.tok.partMissing');
    if (tj[part] !== null) checkStep(tj[part], part, part, 0, counts);
  }
}

function checkTokenizerConfig(tc: unknown): asserts tc is Obj {
  const bad = (p: string, key: StringKey, params?: Params) => new TokenizerError('tokenizer_config.json', p, key, params);
  if (!isObj(tc)) throw bad('', 'msg.model.tok.notObject', { got: kind(tc) });
  if (depthOver(tc, MAX_DEPTH)) throw bad('', 'msg.model.tok.depth', { max: MAX_DEPTH });
  for (const key of SPECIAL_KEYS) {
    const v = tc[key];
    if (v === undefined || v === null || v === false || typeof v === 'string') continue;
    if (!isObj(v) || v.__type !== 'AddedToken' || typeof v.content !== 'string') throw bad(key, 'msg.model.tok.special', { got: kind(v) });
  }
  const t = tc.chat_template;
  if (t !== undefined && t !== null && typeof t !== 'string') {
    if (!Array.isArray(t)) throw bad('chat_template', 'msg.model.tok.chatTemplate', { got: kind(t) });
    t.forEach((e, i) => {
      if (!isObj(e) || typeof e.name !== 'string' || typeof e.template !== 'string') throw bad(`chat_template[${i}]`, 'msg.model.tok.chatTemplateEntry');
    });
  }
  const extra = tc.additional_special_tokens;
  if (extra !== undefined && extra !== null && !Array.isArray(extra)) throw bad('additional_special_tokens', 'msg.model.tok.list', { got: kind(extra) });
}

/**
 * `AutoTokenizer.from_pretrained` minus the loading: it only picks a subclass by `tokenizer_class`, and
 * Qwen2Tokenizer (the class of every kvscope tokenizer) adds nothing to PreTrainedTokenizer. Throws a
 * TokenizerError for anything it cannot use, including what transformers.js itself refuses.
 */
export function createTokenizer(tokenizerJson: unknown, tokenizerConfig: unknown): Tokenizer {
  checkTokenizerJson(tokenizerJson);
  checkTokenizerConfig(tokenizerConfig);
  let tok: PreTrainedTokenizer;
  try {
    tok = new PreTrainedTokenizer(tokenizerJson, tokenizerConfig);
  } catch (e) {
    throw new TokenizerError('tokenizer.json', '', 'msg.model.tok.build', { detail: (e as Error)?.message ?? String(e) });
  }
  try {
    tok.decode(tok.encode(PROBE, { add_special_tokens: false }));
  } catch (e) {
    throw new TokenizerError('tokenizer.json', '', 'msg.model.tok.probe', { detail: (e as Error)?.message ?? String(e) });
  }
  return tok;
}
