// lib/generate/decodeTokens.ts: decoding ids in the page from the vocabulary alone must give what the real
// tokenizer gives (text and per-token TokenInfo of lib/prompt/prompt.ts), including characters split across
// tokens; and generated assistant text is cut into think / answer / tool_call / template segments the way
// parseAssistantText reads it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { assistantSegments, decodeTokens, endsInsideCharacter, segmentSpans, specialTokenIds, tokenStringBytes, tokenStrings } from '../lib/generate/decodeTokens';
import { buildPrompt } from '../lib/prompt/prompt';
import { validateRequest } from '../lib/prompt/request';
import { createTokenizer, encodeText } from '../lib/prompt/tokenizer';
import { readVocab } from '../lib/prompt/vocab';

const dir = 'public/models/kvscope-tiny/';
const tj = JSON.parse(readFileSync(dir + 'tokenizer.json', 'utf8'));
const tc = JSON.parse(readFileSync(dir + 'tokenizer_config.json', 'utf8'));
const tok = createTokenizer(tj, tc);
const vocab = readVocab(tj);
const strings = tokenStrings(vocab);
const special = specialTokenIds(vocab);

test('tokenStrings inverts the vocabulary; special ids are the added markup tokens', () => {
  assert.equal(strings.length, vocab.size);
  for (const [s, id] of vocab.idOf) assert.equal(strings[id], s);
  const names = [...special].map((id) => strings[id]).sort();
  assert.deepEqual(names, ['</think>', '</tool_call>', '</tool_response>', '<think>', '<tool_call>', '<tool_response>', '<|endoftext|>', '<|im_end|>', '<|im_start|>']);
  assert.deepEqual([...tokenStringBytes('Ġhi')], [0x20, 0x68, 0x69]);
  assert.deepEqual([...tokenStringBytes('<|im_end|>')], [...new TextEncoder().encode('<|im_end|>')]);
  // A character outside the byte-level alphabet can only be a literal added token.
  assert.deepEqual([...tokenStringBytes('天')], [0xe5, 0xa4, 0xa9]);
});

test('a whole prompt decodes to the tokenizer text and the same TokenInfo as buildPrompt', () => {
  for (const file of ['vancouver', 'xfinity-with-status']) {
    const v = validateRequest(readFileSync(`examples/requests/${file}.json`, 'utf8'));
    assert.ok(v.ok);
    const p = buildPrompt(tok, v.request, { addGenerationPrompt: true });
    const d = decodeTokens(strings, p.ids, special);
    assert.equal(d.text, p.text, file);
    assert.equal(d.text, tok.decode(p.ids, { skip_special_tokens: false }));
    assert.equal(d.tokens.length, p.tokens.length);
    d.tokens.forEach((t, i) => {
      const want = p.tokens[i]!;
      assert.deepEqual({ ...t, bytes: [...t.bytes] }, { ...want, bytes: [...want.bytes] }, `${file} token ${i}`);
    });
  }
});

test('characters split across tokens: text goes to the token with the first byte, both marked partial', () => {
  const text = '天气 Vancouver 🌧️ café';
  const ids = encodeText(tok, text);
  const d = decodeTokens(strings, ids, special);
  assert.equal(d.text, text);
  assert.equal(d.tokens.map((t) => t.text).join(''), text);
  const split = d.tokens.filter((t) => t.partial);
  assert.ok(split.length >= 2, `a byte-level vocabulary this small splits CJK characters (${split.length} partial tokens)`);
  assert.ok(d.tokens.some((t) => t.text === '' && t.partial), 'a continuation-only token has no text of its own');
  // Streaming: stopped in the middle of a character, the tail is U+FFFD and the last token is partial.
  const cut = d.tokens.findIndex((t, i) => t.partial && i + 1 < d.tokens.length && d.tokens[i + 1]!.partial);
  const head = decodeTokens(strings, ids.slice(0, cut + 1), special);
  assert.ok(head.text.endsWith('\uFFFD'), JSON.stringify(head.text));
  assert.equal(head.tokens[cut]!.partial, true);
  assert.throws(() => decodeTokens(strings, [vocab.size + 5]), /not in the vocabulary/);
});

test('endsInsideCharacter', () => {
  const e = new TextEncoder();
  assert.equal(endsInsideCharacter(e.encode('ab')), false);
  assert.equal(endsInsideCharacter(e.encode('a天')), false);
  assert.equal(endsInsideCharacter(e.encode('a天').slice(0, 2)), true);
  assert.equal(endsInsideCharacter(e.encode('a天').slice(0, 3)), true);
  assert.equal(endsInsideCharacter(e.encode('🌧').slice(0, 3)), true);
  assert.equal(endsInsideCharacter(new Uint8Array()), false);
});

function segmentsOf(text: string): { seg: string; text: string }[] {
  const d = decodeTokens(strings, encodeText(tok, text), special);
  const segs = assistantSegments(d.text, d.tokens);
  return d.tokens.map((t, i) => ({ seg: segs[i]!, text: t.text }));
}
const joined = (rows: { seg: string; text: string }[], seg: string) => rows.filter((r) => r.seg === seg).map((r) => r.text).join('');

test('assistant segments: think block, answer, tool calls, end of turn', () => {
  const text = '<think>\nI should call.\n</think>\n\nLet me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Vancouver"}}\n</tool_call><|im_end|>\n';
  const rows = segmentsOf(text);
  assert.equal(joined(rows, 'think'), '<think>\nI should call.\n</think>');
  assert.equal(joined(rows, 'tool_call'), '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Vancouver"}}\n</tool_call>');
  assert.equal(joined(rows, 'template'), '<|im_end|>\n');
  assert.equal(joined(rows, 'answer'), '\n\nLet me check.\n');
});

test('assistant segments while streaming: an unclosed think or tool call runs to the end; a lone </think> makes what precedes it think', () => {
  assert.deepEqual(new Set(segmentsOf('<think>\nstill thinking').map((r) => r.seg)), new Set(['think']));
  const call = segmentsOf('Sure.<tool_call>\n{"name": "pho');
  assert.equal(joined(call, 'answer'), 'Sure.');
  assert.equal(joined(call, 'tool_call'), '<tool_call>\n{"name": "pho');
  const lone = segmentsOf('reasoning here</think>\n\nThe answer.');
  assert.equal(joined(lone, 'think'), 'reasoning here</think>');
  assert.equal(joined(lone, 'answer'), '\n\nThe answer.');
  assert.deepEqual(assistantSegments('', []), []);
});

test('segmentSpans: one span per run, tiling from the offset', () => {
  const spans = segmentSpans(['think', 'think', 'answer', 'tool_call', 'tool_call'], 10, 4, 'assistant');
  assert.deepEqual(
    spans.map((s) => [s.start, s.end, s.segment, s.message, s.role]),
    [
      [10, 12, 'think', 4, 'assistant'],
      [12, 13, 'answer', 4, 'assistant'],
      [13, 15, 'tool_call', 4, 'assistant'],
    ],
  );
  assert.deepEqual(segmentSpans([], 0, 0, 'assistant'), []);
});
