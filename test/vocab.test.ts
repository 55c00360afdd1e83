// Token-level edits look tokens up by text: plain, with a leading space, whitespace, specials; multi-token
// texts are refused. Checked against the embedded tokenizer's own encoding.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readVocab, singleToken } from '../lib/prompt/vocab';
import { createTokenizer, encodeText } from '../lib/prompt/tokenizer';

const dir = 'public/models/kvscope-tiny/';
const tj = JSON.parse(readFileSync(dir + 'tokenizer.json', 'utf8'));
const tc = JSON.parse(readFileSync(dir + 'tokenizer_config.json', 'utf8'));

test('single tokens by text agree with the tokenizer: each found text encodes to exactly that id', () => {
  const v = readVocab(tj);
  const tok = createTokenizer(tj, tc);
  let checked = 0;
  for (const text of ['the', ' the', '\n', ' weather', 'Vancouver', ' Beijing', ':', '{"', '<|im_end|>', '<think>']) {
    const r = singleToken(v, text);
    if (!r.ok) continue;
    assert.deepEqual(encodeText(tok, text), [r.id], text);
    checked++;
  }
  assert.ok(checked >= 6, `${checked} texts were single tokens`);
});

test('multi-token and empty texts are refused with a reason', () => {
  const v = readVocab(tj);
  const r = singleToken(v, 'antidisestablishmentarianism');
  assert.equal(r.ok, false);
  assert.match((r as { message: string }).message, /not a single token/);
  assert.equal(singleToken(v, '').ok, false);
});

test('readVocab refuses a tokenizer without a BPE vocabulary', () => {
  assert.throws(() => readVocab({ model: { type: 'Unigram' } }), /no model.vocab/);
});
