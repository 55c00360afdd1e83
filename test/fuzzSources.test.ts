// Fuzzing the model-source readers (docs/FUZZING.md): Hub repo ids and URLs (parseRepoId), Hub endpoints
// (normaliseEndpoint) and shard indexes (shardsFromIndex). Allowed: a value or a ModelSourceError whose code
// says what kind of refusal it is and whose message quotes the text or names the file and key.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { normaliseEndpoint, parseRepoId } from '../lib/model/source/hub';
import { shardsFromIndex, INDEX_FILE } from '../lib/model/source/checkpointFiles';
import { ModelSourceError, type ModelFiles } from '../lib/model/source/types';
import { Tally, atLeast, guard, expect, fuzz, mutatedText, mutatedValue, hostileJson, hostileString, jsonText, snippet, deepText, type Contract } from './helpers/fuzz';

const source = (codes: string[], place: RegExp): Contract => ({ ours: (e) => e instanceof ModelSourceError && codes.includes(e.code), place: (e) => place.test(e.message) });
const REPO = source(['bad_repo_id'], /^".*" is not a Hub model repository/s);
const ENDPOINT = source(['bad_endpoint'], /^Hub endpoint ".*" /s);
const INDEX = source(['unsupported'], new RegExp(`${INDEX_FILE.replace(/\./g, '\\.')}`));

const IDS = [
  'Qwen/Qwen3-0.6B',
  'Qwen/Qwen3-0.6B@main',
  'HuggingFaceTB/SmolLM2-135M-Instruct@v1.0',
  'meta-llama/Llama-3.2-1B@refs/pr/12',
  'https://huggingface.co/Qwen/Qwen3-0.6B',
  'https://huggingface.co/Qwen/Qwen3-0.6B/tree/refs%2Fpr%2F1',
  'https://hf-mirror.com/models/org/name/resolve/0123abcd/config.json',
  'http://127.0.0.1:8080/org/name/blob/main/model.safetensors',
  '  Qwen/Qwen3-0.6B  ',
];
const ENDPOINTS = ['https://huggingface.co', 'https://hf-mirror.com/', 'http://127.0.0.1:8080/hub/', 'https://example.com/a/b//', ''];

/** Pieces a URL or an id is made of, spliced in anywhere. */
const urlPiece = fc.constantFrom('/', '//', '@', ':', '?', '#', '%', '%2F', '%00', '%ZZ', '..', '.', '-', 'user:pw@', 'javascript:', 'data:text/html,', 'file:///', 'https://', 'http://', '\\', ' ', '\t', '\n', '\u0000', '\uD800', '😀', 'tree', 'resolve', 'blob', 'datasets', 'spaces', 'models', 'refs/pr/1', 'a'.repeat(97), 'x'.repeat(300));

const spliced = (bases: string[]) =>
  fc.tuple(fc.constantFrom(...bases), fc.array(fc.tuple(fc.nat(), fc.oneof(urlPiece, snippet)), { minLength: 1, maxLength: 4 })).map(([b, ins]) => ins.reduce((s, [at, p]) => s.slice(0, at % (s.length + 1)) + p + s.slice(at % (s.length + 1)), b));

test('fuzz: parseRepoId', { timeout: 120_000 }, (t) => {
  const tally = new Tally();
  const id = (s: string) => {
    const r = guard(tally, REPO, () => parseRepoId(s));
    if (r.value) expect(/^[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+$/.test(r.value.repo) && r.value.revision.length > 0 ? null : `accepted a malformed repo ${JSON.stringify(r.value)}`);
    else expect(r.error!.message.length < 1000 ? null : 'the refusal quotes the whole text');
  };
  fuzz(8500, fc.oneof(spliced(IDS), fc.constantFrom(...IDS.keys()).chain((i) => mutatedText(IDS[i]!))), id);
  fuzz(1500, hostileString, id);
  t.diagnostic(tally.summary('parseRepoId'));
  atLeast(tally, 10_000);
});

test('fuzz: normaliseEndpoint', { timeout: 120_000 }, (t) => {
  const tally = new Tally();
  const endpoint = (s: string | null | undefined) => {
    const r = guard(tally, ENDPOINT, () => normaliseEndpoint(s));
    if (r.value) expect(/^https?:\/\/[^/?#@]+(\/[^?#]*)?$/.test(r.value) && !r.value.endsWith('/') ? null : `accepted a malformed endpoint ${JSON.stringify(r.value)}`);
  };
  fuzz(8500, fc.oneof(spliced(ENDPOINTS), fc.constantFrom(...ENDPOINTS.keys()).chain((i) => mutatedText(ENDPOINTS[i]!))), endpoint);
  fuzz(1500, fc.oneof(hostileString, fc.constantFrom(null, undefined)), endpoint);
  t.diagnostic(tally.summary('normaliseEndpoint'));
  atLeast(tally, 10_000);
});

const files = { label: 'Qwen/Qwen3-0.6B@main' } as ModelFiles;
const GOOD_INDEX = { metadata: { total_size: 1234 }, weight_map: { 'model.embed_tokens.weight': 'model-00001-of-00002.safetensors', 'lm_head.weight': 'model-00002-of-00002.safetensors', 'model.norm.weight': 'model-00002-of-00002.safetensors' } };

test('fuzz: shardsFromIndex', { timeout: 120_000 }, (t) => {
  const tally = new Tally();
  const run = (text: string) => {
    const r = guard(tally, INDEX, () => shardsFromIndex(text, files));
    if (r.value) for (const s of r.value) expect(/^[^/\\]+\.safetensors$/.test(s) && !s.includes('..') ? null : `accepted shard name ${JSON.stringify(s)}`);
  };
  const text = JSON.stringify(GOOD_INDEX, null, 2);
  fuzz(5000, mutatedText(text), run);
  fuzz(4500, mutatedValue(GOOD_INDEX, ['weight_map', 'metadata', 'total_size', 'model.safetensors', '../model.safetensors', 'a/b.safetensors', '.hidden.safetensors', 'model-00001-of-00002.safetensors']), (v) => {
    const s = jsonText(v);
    if (s !== null) run(s);
  });
  fuzz(2000, hostileJson(['weight_map', 'metadata', 'model.safetensors', '../x.safetensors'], 4), (v) => {
    const s = jsonText(v);
    if (s !== null) run(s);
  });
  t.diagnostic(tally.summary('shardsFromIndex'));
  atLeast(tally, 10_000);
});

test('fuzz regressions: model sources on extreme text', { timeout: 60_000 }, (t) => {
  const tally = new Tally();
  for (const s of ['a/'.repeat(100_000), 'https://huggingface.co/' + 'a/'.repeat(100_000), '@'.repeat(100_000), 'org/name@' + 'a/'.repeat(100_000)]) {
    const r = guard(tally, REPO, () => parseRepoId(s));
    assert.ok(r.error);
    assert.ok(r.error.message.length < 1000, 'the refusal quotes a shortened text');
  }
  for (const s of ['https://' + 'a'.repeat(1_000_000) + '.com', 'http://' + '%'.repeat(100_000)]) guard(tally, ENDPOINT, () => normaliseEndpoint(s));
  // Trailing slashes were cut with /\/+$/, which took 4 s on 60,000 slashes followed by a letter.
  assert.equal(guard(tally, ENDPOINT, () => normaliseEndpoint('https://h/' + '/'.repeat(60_000) + 'x/')).value, 'https://h/' + '/'.repeat(60_000) + 'x');
  const r = guard(tally, INDEX, () => shardsFromIndex(`{"weight_map": {"a": ${deepText(10_000, 'array')}}}`, files));
  assert.match(r.error!.message, /weight_map\["a"\] is not a file name/);
  t.diagnostic(tally.summary('model sources, fixed cases'));
});
