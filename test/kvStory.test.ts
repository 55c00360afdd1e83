// lib/analysis/invalidation: the KV tab's default comparison (defaultEdit: one word token of the system prompt,
// replaced by a single-token word) on the embedded model's real prompt, and what a comparison shows
// (invalidationStory) for each shape of facts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { defaultEdit, invalidationFacts, invalidationStory, type EditablePrompt } from '../lib/analysis/invalidation';
import { kvDelta, type LayerKv } from '../lib/analysis/kvDiff';
import { loadTokenizerDir } from '../lib/cli/tokenizerDir';
import { runOf } from '../lib/agent/run';
import { buildPrompt } from '../lib/prompt/prompt';
import { readVocab, singleToken } from '../lib/prompt/vocab';
import { scenarioRequest } from '../lib/scenarios';

const tok = loadTokenizerDir('public/models/kvscope-tiny');
const vocab = readVocab(JSON.parse(readFileSync('public/models/kvscope-tiny/tokenizer.json', 'utf8')));
const isToken = (s: string) => singleToken(vocab, s).ok;

test('defaultEdit on Vancouver’s last call: the first word of ≥ 4 letters in the system prompt, replaced by a single token', () => {
  const run = runOf(scenarioRequest('vancouver'));
  const prompt = buildPrompt(tok, run.calls.at(-1)!.request, { addGenerationPrompt: true });
  const e = defaultEdit(prompt, isToken)!;
  assert.equal(e.segment, 'system');
  assert.equal(e.from, prompt.tokens[e.position]!.text);
  assert.match(e.from, /^ \p{L}{4,}$/u);
  const span = prompt.spans.find((s) => s.segment === 'system')!;
  assert.ok(e.position >= span.start && e.position < span.end);
  // No earlier word of ≥ 4 letters in the system segment.
  for (let i = span.start; i < e.position; i++) assert.doesNotMatch(prompt.tokens[i]!.text, /^ \p{L}{4,}$/u);
  assert.notEqual(e.text, e.from);
  assert.ok(isToken(e.text), `${JSON.stringify(e.text)} is one token`);
  // The same edit on the first call: the system prompt is the same, so is the position.
  const first = buildPrompt(tok, run.calls[0]!.request, { addGenerationPrompt: true });
  assert.equal(defaultEdit(first, isToken)!.position, e.position);
});

function fake(tokens: [string, string, boolean?][]): EditablePrompt {
  const spans: { start: number; end: number; segment: string }[] = [];
  tokens.forEach(([, seg], i) => {
    const last = spans[spans.length - 1];
    if (last && last.segment === seg) last.end = i + 1;
    else spans.push({ start: i, end: i + 1, segment: seg });
  });
  return { tokens: tokens.map(([text, , special]) => ({ text, special: special ?? false })), spans };
}

test('defaultEdit falls back: the user’s text without a system prompt; any token when there is no word; a different word when the first candidate is the token itself', () => {
  const noSystem = fake([
    ['<|im_start|>', 'template', true],
    ['user', 'template'],
    ['What', 'user'],
    [' is', 'user'],
    [' weather', 'user'],
    ['?', 'user'],
  ]);
  const e = defaultEdit(noSystem, () => true)!;
  assert.deepEqual([e.position, e.segment, e.from], [4, 'user', ' weather']);
  assert.equal(e.text, ' local', 'the first word differs from the token it replaces');
  // Short words only: the first word token of any length.
  assert.equal(defaultEdit(fake([['Hi', 'system'], [' a', 'system'], ['.', 'system']]), () => true)!.position, 1);
  // No word at all: the first non-special token of the system prompt.
  assert.equal(defaultEdit(fake([['<x>', 'system', true], ['{', 'system'], ['"', 'system']]), () => true)!.position, 1);
  // Only template tokens: the first non-special one.
  assert.equal(defaultEdit(fake([['<x>', 'template', true], ['\n', 'template']]), () => true)!.position, 1);
  // The vocabulary decides: words that are not one token are skipped.
  assert.equal(defaultEdit(noSystem, (s) => s === ' a')!.text, ' a');
  assert.equal(defaultEdit({ tokens: [], spans: [] }, () => true), null);
});

const H = 1;
const D = 2;
function cache(P: number, L: number, f: (l: number, p: number) => number): LayerKv[] {
  return Array.from({ length: L }, (_, l) => {
    const k = new Float32Array(H * P * D);
    const v = new Float32Array(H * P * D);
    for (let p = 0; p < P; p++) for (let d = 0; d < D; d++) k[p * D + d] = v[p * D + d] = f(l, p) + d;
    return { k: { data: k, dims: [H, P, D] }, v: { data: v, dims: [H, P, D] } };
  });
}

test('invalidationStory: same, append, truncate, in place, shifted, other', () => {
  const P = 12;
  const base = (l: number, p: number) => l * 100 + p;
  const a = cache(P, 3, base);
  const facts = (b: LayerKv[], la: number, lb: number, prefix: number) => invalidationFacts(kvDelta(a, b, { tol: 1e-6 }), la, lb, prefix);
  assert.deepEqual(invalidationStory(facts(a, P, P, P)), { kind: 'same', tokens: P });
  // B longer (its caches compared over A's length): append; B shorter: truncate.
  assert.deepEqual(invalidationStory(facts(a, P, P + 5, P)), { kind: 'append', a: P, b: P + 5 });
  assert.deepEqual(invalidationStory(facts(a, P + 5, P, P)), { kind: 'truncate', a: P + 5, b: P });
  // In place at 4: layer 0 only there, layers 1–2 everywhere from 4 on.
  const inPlace = cache(P, 3, (l, p) => base(l, p) + (l === 0 ? (p === 4 ? 1 : 0) : p >= 4 ? 1 : 0));
  assert.deepEqual(invalidationStory(facts(inPlace, P, P, 4)), { kind: 'inPlace', positions: [4], from: 4, later: P - 4, layers: 2 });
  // A later layer that keeps one position unchanged is not the in-place shape.
  const partial = cache(P, 3, (l, p) => base(l, p) + (l === 0 ? (p === 4 ? 1 : 0) : p >= 4 && p !== 9 ? 1 : 0));
  assert.equal(invalidationStory(facts(partial, P, P, 4)).kind, 'other');
  // Shifted: layer 0 changes at every position from 4 on.
  const shifted = cache(P, 3, (l, p) => base(l, p) + (p >= 4 ? 1 : 0));
  assert.deepEqual(invalidationStory(facts(shifted, P, P, 4)), { kind: 'shifted', count: P - 4, first: 4 });
  // Nothing in layer 0 but later layers changed: other, with the recomputed count.
  const other = cache(P, 3, (l, p) => base(l, p) + (l > 0 && p >= 4 ? 1 : 0));
  assert.deepEqual(invalidationStory(facts(other, P, P, 4)), { kind: 'other', prefix: 4, recomputed: P - 4 });
});
