// Fuzzing createTokenizer (lib/prompt/tokenizer, docs/FUZZING.md) with hostile tokenizer.json and
// tokenizer_config.json. The base is kvscope-tiny's own tokenizer cut to a small vocabulary (building one
// from the full 8,902-token file takes ~40 ms, too slow for 10,000 cases; the checks do not depend on its
// size). The only allowed outcome is a tokenizer that encodes and decodes text, or a TokenizerError naming
// the file and the key path; transformers.js's own errors (and its hangs: stacked ByteLevel steps, growing
// Replace steps) are caught or refused before it sees them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { createTokenizer, TokenizerError } from '../lib/prompt/tokenizer';
import { Tally, atLeast, guard, fuzz, mutatedValue, hostileJson, setOwn, deepValue, type Contract } from './helpers/fuzz';

const CONTRACT: Contract = {
  ours: (e) => e instanceof TokenizerError,
  place: (e) => {
    const t = e as TokenizerError;
    return e.message.startsWith(`${t.file}: `) && (t.path !== '' || /nested deeper|expected a JSON object|transformers\.js cannot|fails on a test text/.test(e.message));
  },
};

const dir = 'public/models/kvscope-tiny/';
const fullJson = JSON.parse(readFileSync(dir + 'tokenizer.json', 'utf8')) as Record<string, any>;
const fullConfig = JSON.parse(readFileSync(dir + 'tokenizer_config.json', 'utf8')) as Record<string, any>;
const V = 260; // the 256 byte-level symbols and a few merges
const TJ = structuredClone(fullJson);
TJ.model.vocab = Object.fromEntries(Object.entries(fullJson.model.vocab as Record<string, number>).filter(([, id]) => id < V));
TJ.model.merges = (fullJson.model.merges as unknown[]).slice(0, V - 256);
TJ.added_tokens = (fullJson.added_tokens as { id: number }[]).map((t, i) => ({ ...t, id: V + i }));
const TC = structuredClone(fullConfig);
TC.added_tokens_decoder = Object.fromEntries(Object.values(fullConfig.added_tokens_decoder as Record<string, unknown>).map((v, i) => [String(V + i), v]));
// A second shape: a SentencePiece-style pipeline (Prepend / Replace / ByteFallback / Fuse / Strip), as TinyLlama's.
const SP = structuredClone(TJ);
SP.normalizer = { type: 'Sequence', normalizers: [{ type: 'Prepend', prepend: '▁' }, { type: 'Replace', pattern: { String: ' ' }, content: '▁' }] };
SP.pre_tokenizer = null;
SP.decoder = { type: 'Sequence', decoders: [{ type: 'Replace', pattern: { String: '▁' }, content: ' ' }, { type: 'ByteFallback' }, { type: 'Fuse' }, { type: 'Strip', content: ' ', start: 1, stop: 0 }] };
SP.model = { ...SP.model, byte_fallback: true };
const JSONS: unknown[] = [TJ, SP];

const FIELDS = ['model', 'type', 'vocab', 'merges', 'added_tokens', 'id', 'content', 'special', 'normalizer', 'pre_tokenizer', 'decoder', 'post_processor', 'pretokenizers', 'normalizers', 'decoders', 'processors', 'Regex', 'String', 'pattern', 'behavior', 'invert', 'add_prefix_space', 'trim_offsets', 'use_regex', 'unk_token', 'byte_fallback', 'ignore_merges', 'BPE', 'WordPiece', 'Unigram', 'Sequence', 'Split', 'ByteLevel', 'NFC', 'NFKC', 'Metaspace', 'Replace', 'Strip', 'Prepend', 'Lowercase', 'ByteFallback', 'Fuse', 'TemplateProcessing', 'Digits', 'Punctuation', 'continuing_subword_prefix', 'end_of_word_suffix', 'fuse_unk', 'dropout', 'lstrip', 'rstrip', 'normalized', 'single_word', 'bos_token', 'eos_token', 'pad_token', 'unk_token', 'chat_template', 'added_tokens_decoder', 'additional_special_tokens', 'tokenizer_class', 'padding_side', '__type', 'AddedToken', '<|im_end|>', '<|endoftext|>', 'ĠĠ', 'Ġ'];

/** transformers.js prints warnings for some unknown fields; they are not what these tests look at. */
function quietly(run: () => void): void {
  const { warn, log, error } = console;
  console.warn = console.log = console.error = () => {};
  try {
    run();
  } finally {
    Object.assign(console, { warn, log, error });
  }
}

test('fuzz: createTokenizer on hostile tokenizer.json and tokenizer_config.json', { timeout: 180_000 }, (t) => {
  const tally = new Tally();
  const run = (a: unknown, b: unknown) => guard(tally, CONTRACT, () => createTokenizer(a, b));
  quietly(() => {
    fuzz(5000, fc.constantFrom(...JSONS.keys()).chain((i) => mutatedValue(JSONS[i], FIELDS)), (tj) => run(tj, TC));
    fuzz(3500, mutatedValue(TC, FIELDS), (tc) => run(TJ, tc));
    fuzz(1500, hostileJson(FIELDS, 5), hostileJson(FIELDS, 3), (a, b) => {
      run(a, b);
      run({ ...TJ, ...(typeof a === 'object' && a !== null && !Array.isArray(a) ? a : {}) }, TC);
    });
  });
  t.diagnostic(tally.summary('createTokenizer'));
  atLeast(tally, 10_000);
});

test('fuzz regressions: hostile tokenizers give a TokenizerError naming the key, without hanging', { timeout: 60_000 }, (t) => {
  const tally = new Tally();
  const split = (TJ.pre_tokenizer as { pretokenizers: unknown[] }).pretokenizers;
  const noPrimitive: Record<string, unknown> = {};
  setOwn(noPrimitive, 'toString', 1);
  const cases: [unknown, unknown, RegExp][] = [
    // Stacked ByteLevel steps made transformers.js encode forever (the text doubles per step).
    [{ ...TJ, pre_tokenizer: { type: 'Sequence', pretokenizers: [...split, ...split, ...split] } }, TC, /^tokenizer\.json: pre_tokenizer\.pretokenizers\[3\]: a second ByteLevel step/],
    [{ ...TJ, normalizer: { type: 'Sequence', normalizers: Array(12).fill({ type: 'Replace', pattern: { String: 'l' }, content: 'llllllll' }) } }, TC, /^tokenizer\.json: normalizer\.normalizers\[0\]\.content: 8 characters in place of the 1/],
    [{ ...TJ, normalizer: { type: 'Replace', pattern: { String: '' }, content: 'x' } }, TC, /^tokenizer\.json: normalizer\.pattern\.String: empty/],
    [{ ...TJ, pre_tokenizer: { type: 'Sequence', pretokenizers: Array(2000).fill({ type: 'Digits' }) } }, TC, /^tokenizer\.json: pre_tokenizer\.pretokenizers: 2000 steps/],
    // A vocabulary that is a long string: transformers.js took seconds, then failed on decode.
    [{ ...TJ, model: { ...TJ.model, vocab: '\n'.repeat(60_000) } }, TC, /^tokenizer\.json: model\.vocab: expected an object/],
    [{ ...TJ, model: { ...TJ.model, merges: [{}] } }, TC, /^tokenizer\.json: model\.merges\[0\]: expected/],
    [{ ...TJ, added_tokens: [{ id: '1', content: 'x' }] }, TC, /^tokenizer\.json: added_tokens\[0\]\.id: expected a token id/],
    [{ ...TJ, pre_tokenizer: { type: 'Split', pattern: { Regex: 'x' }, behavior: 5 } }, TC, /^tokenizer\.json: pre_tokenizer\.behavior: expected a string/],
    [{ ...TJ, decoder: deepValue(100, 'object') }, TC, /^tokenizer\.json: nested deeper than 32 levels/],
    [{ ...TJ, model: { ...TJ.model, type: 'Nope' } }, TC, /^tokenizer\.json: model\.type: expected BPE, WordPiece, Unigram/],
    [TJ, { ...TC, eos_token: noPrimitive }, /^tokenizer_config\.json: eos_token: expected a token string/],
    [TJ, { ...TC, chat_template: [{ name: 1 }] }, /^tokenizer_config\.json: chat_template\[0\]: expected/],
    [TJ, { ...TC, additional_special_tokens: 'x' }, /^tokenizer_config\.json: additional_special_tokens: expected a list, got string/],
    [{ ...TJ, decoder: { type: 'Sequence', decoders: 'x' } }, TC, /^tokenizer\.json: decoder\.decoders: expected a list of steps/],
    [{ ...TJ, post_processor: { type: 'Nope' } }, TC, /^tokenizer\.json: transformers\.js cannot build a tokenizer from it/],
  ];
  quietly(() => {
    for (const [a, b, want] of cases) {
      const r = guard(tally, CONTRACT, () => createTokenizer(a, b));
      assert.ok(r.error, `expected a TokenizerError for ${want}`);
      assert.match(r.error.message, want);
    }
    // The real tokenizers still load, and the cut one encodes.
    for (const [a, b] of [[fullJson, fullConfig], [TJ, TC], [SP, TC]]) assert.ok(guard(tally, CONTRACT, () => createTokenizer(a, b)).value);
  });
  t.diagnostic(tally.summary('createTokenizer, fixed cases'));
});
