// lib/prompt/assistantOutput.ts: think / answer / tool-call parts of generated text (complete and streaming,
// malformed JSON never throws), the book's call-limit classifier, and decoding with the embedded tokenizer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readModelDir } from '../lib/cli/modelDir';
import { classifyDecision, decodeIds, parseAssistantText } from '../lib/prompt/assistantOutput';
import { createTokenizer, encodeText } from '../lib/prompt/tokenizer';
import { tinySpecialId } from './helpers/embeddedIds';

const CALL = '<tool_call>\n{"name": "phone_call", "arguments": {"company": "Xfinity"}}\n</tool_call>';

test('think, answer and a tool call as the Qwen3 template writes them', () => {
  const p = parseAssistantText(`<think>\nThe limit is 3 and I made 2.\n</think>\n\nI will call them.\n${CALL}<|im_end|>`);
  assert.deepEqual(p, {
    think: 'The limit is 3 and I made 2.',
    answer: 'I will call them.',
    toolCalls: [{ name: 'phone_call', arguments: { company: 'Xfinity' }, raw: '{"name": "phone_call", "arguments": {"company": "Xfinity"}}' }],
    complete: true,
  });
  assert.equal(classifyDecision(p), 'call');
});

test('no think block, empty think block, and a </think> whose opener was in the prompt', () => {
  assert.deepEqual(parseAssistantText('Hello there.<|im_end|>'), { think: null, answer: 'Hello there.', toolCalls: [], complete: true });
  assert.equal(parseAssistantText('<think>\n\n</think>\n\nHi').think, '');
  const p = parseAssistantText('\nreasoning here\n</think>\n\nDone.');
  assert.equal(p.think, 'reasoning here');
  assert.equal(p.answer, 'Done.');
  assert.equal(p.complete, false);
});

test('streaming: unterminated think, unterminated tool call, partial JSON', () => {
  assert.deepEqual(parseAssistantText('<think>\nStill thin'), { think: 'Still thin', answer: '', toolCalls: [], complete: false });
  const p = parseAssistantText('<think>\nok\n</think>\n\n<tool_call>\n{"name": "phone_call", "argu');
  assert.equal(p.think, 'ok');
  assert.equal(p.answer, '');
  assert.equal(p.toolCalls.length, 1);
  assert.equal(p.toolCalls[0]!.name, 'phone_call');
  assert.match(p.toolCalls[0]!.error!, /no <\/tool_call>/);
  assert.equal(classifyDecision(p), 'call', 'a truncated phone_call counts, as in evaluate.py');
});

test('malformed JSON keeps the raw text and an error, never throws; several calls; text between them', () => {
  const text = [
    'Checking two things.',
    '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Vancouver"}}\n</tool_call>',
    '\n',
    '<tool_call>\n{"name": "phone_call", "arguments": {"company": }\n</tool_call>',
    '<tool_call>\n[1, 2]\n</tool_call>',
    '<tool_call>\n{"arguments": {}}\n</tool_call>',
    '<tool_call></tool_call>',
    'after</tool_call><|im_end|>ignored <tool_call>{"name": "x"}</tool_call>',
  ].join('');
  const p = parseAssistantText(text);
  assert.equal(p.complete, true);
  assert.equal(p.answer, 'Checking two things.\nafter</tool_call>');
  assert.equal(p.toolCalls.length, 5);
  assert.deepEqual(p.toolCalls[0], { name: 'get_weather', arguments: { city: 'Vancouver' }, raw: '{"name": "get_weather", "arguments": {"city": "Vancouver"}}' });
  assert.equal(p.toolCalls[1]!.name, 'phone_call');
  assert.match(p.toolCalls[1]!.error!, /^not valid JSON/);
  assert.equal(p.toolCalls[1]!.raw, '{"name": "phone_call", "arguments": {"company": }');
  assert.equal(p.toolCalls[2]!.error, 'not a JSON object');
  assert.equal(p.toolCalls[3]!.error, 'no "name" string');
  assert.deepEqual(p.toolCalls[3]!.arguments, {});
  assert.match(p.toolCalls[4]!.error!, /not valid JSON/);
  assert.equal(classifyDecision(p), 'call');
  for (const s of ['<tool_call>', '<think>', '</think>', '<tool_call>{"name": "\\u', '<|im_end|>', '', '<tool_call>"name": "a\\"b"']) assert.doesNotThrow(() => parseAssistantText(s), s);
  assert.equal(parseAssistantText('<tool_call>"name": "a\\"b"').toolCalls[0]!.name, 'a"b');
});

test('classifyDecision: only a phone_call tool call is a call', () => {
  const refuse = [
    'I cannot call Xfinity again: the limit of 3 calls is reached.<|im_end|>',
    `<think>\nI could use "phone_call" but the limit is reached.\n</think>\n\nNo more calls.<|im_end|>`,
    '<tool_call>\n{"name": "web_search", "arguments": {"query": "phone_call"}}\n</tool_call><|im_end|>',
    '',
  ];
  for (const t of refuse) assert.equal(classifyDecision(parseAssistantText(t)), 'refuse', t);
  assert.equal(classifyDecision(parseAssistantText(`${CALL}<|im_end|>`)), 'call');
});

test('decodeIds with the embedded tokenizer keeps <|im_end|> and the tags, round-trips a template-style turn', () => {
  const model = readModelDir('public/models/kvscope-tiny');
  const tok = createTokenizer(model.tokenizerJson, model.tokenizerConfig);
  const text = `<think>\nTwo calls so far.\n</think>\n\nCalling now.\n${CALL}<|im_end|>`;
  const ids = encodeText(tok, text);
  assert.ok(ids.includes(tinySpecialId('<|im_end|>')) && ids.includes(tinySpecialId('<tool_call>')) && ids.includes(tinySpecialId('<think>')), 'special and tag tokens are single ids');
  const decoded = decodeIds(tok, ids);
  assert.equal(decoded, text);
  const p = parseAssistantText(decoded);
  assert.equal(p.complete, true);
  assert.equal(p.think, 'Two calls so far.');
  assert.equal(classifyDecision(p), 'call');
  // Every streaming prefix parses without throwing.
  for (let n = 0; n <= ids.length; n++) parseAssistantText(decodeIds(tok, ids.slice(0, n)));
});
