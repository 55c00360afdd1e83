// `kvscope streaming` as a user runs it (a child process): the text table and the JSON document with the
// per-token NLL arrays, and one clear line on stderr with exit 2 for every bad input. Short runs (--tokens)
// keep it quick; the numbers of whole-text runs are in docs/CONCEPTS.md#streamingllm-experiment.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { perplexity } from '../lib/analysis/streaming';
import { kvscope } from './helpers/cli';

const MODEL = 'public/models/kvscope-tiny';
const tmp = mkdtempSync(join(tmpdir(), 'kvscope-streaming-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

interface Run {
  keysPerQuery: string;
  maxKeys: number;
  perplexity: number;
  perplexityAfterFill: number | null;
  meanNll: number;
  nll: number[];
}
interface Out {
  model: string;
  text: string;
  textTokens: number;
  tokens: number;
  predictions: number;
  window: number;
  sink: number;
  firstEvictedQuery: number;
  predictionsAfterFill: number;
  strategies: Record<'window' | 'sink' | 'full', Run>;
}

test('--json: per strategy the per-token NLL, the perplexities it implies, and the kept-key counts', async () => {
  const r = await kvscope('streaming', '--model', MODEL, '--tokens', '120', '--window', '32', '--sink', '4', '--json');
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as Out;
  assert.equal(out.text, 'examples/streaming/calllimit-heldout.txt');
  assert.ok(out.textTokens > 2000, `the default text has ${out.textTokens} tokens`);
  assert.deepEqual([out.tokens, out.predictions, out.window, out.sink, out.firstEvictedQuery, out.predictionsAfterFill], [120, 119, 32, 4, 32, 87]);
  for (const s of ['window', 'sink', 'full'] as const) {
    const run = out.strategies[s];
    assert.equal(run.nll.length, 119);
    assert.ok(run.nll.every((x) => Number.isFinite(x) && x >= 0), `${s}: NLL in nats is ≥ 0`);
    assert.ok(Math.abs(run.perplexity - perplexity(run.nll)!) < 1e-9);
    assert.ok(Math.abs(run.perplexityAfterFill! - perplexity(run.nll, 32)!) < 1e-9);
    assert.ok(Math.abs(run.meanNll - Math.log(run.perplexity)) < 1e-9);
  }
  assert.deepEqual([out.strategies.window.maxKeys, out.strategies.sink.maxKeys, out.strategies.full.maxKeys], [32, 32, 119]);
  assert.equal(out.strategies.sink.keysPerQuery, 'the first 4 + the last 28');
  // Before the window fills, every strategy sees every earlier token (float32 noise between the decodings).
  for (let i = 0; i < 32; i++) assert.ok(Math.abs(out.strategies.window.nll[i]! - out.strategies.full.nll[i]!) <= 1e-5, `nll[${i}]`);
  assert.ok(out.strategies.window.nll.slice(32).some((x, i) => x !== out.strategies.full.nll[32 + i]), 'after it fills, eviction changes the predictions');
});

test('text output: the table, and a window that never fills says so', async () => {
  const r = await kvscope('streaming', '--model', MODEL, '--tokens', '40', '--window', '64', '--sink', '0');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /text: examples\/streaming\/calllimit-heldout\.txt — 40 of \d+ tokens, 39 predictions/);
  assert.match(r.stdout, /window W = 64 keys per query \(the query included\), sink k = 0/);
  assert.match(r.stdout, /the window never fills \(39 predictions ≤ W = 64\): nothing is evicted/);
  assert.match(r.stdout, /\n {2}window +\d+\.\d{3} +- +\d+\.\d{4} +the last 64\n/);
  assert.match(r.stdout, /\n {2}sink +\d+\.\d{3} +- +\d+\.\d{4} +the last 64 \(k = 0: same as window\)\n/);
  assert.match(r.stdout, /\n {2}full +\d+\.\d{3} +- /);
});

test('--text reads any file, special tokens included', async () => {
  const p = join(tmp, 'text.txt');
  writeFileSync(p, '<|im_start|>user\nWhat time is it in Vancouver and in Beijing?<|im_end|>\n<|im_start|>assistant\n');
  const r = await kvscope('streaming', '--model', MODEL, '--text', p, '--window', '8', '--sink', '1', '--json');
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as Out;
  assert.equal(out.tokens, out.textTokens);
  assert.ok(out.tokens > 8 && out.tokens < 40, `${out.tokens} tokens`);
});

const file = (name: string, text: string) => {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
};

const HOSTILE: [string, () => string[], RegExp][] = [
  ['missing model', () => ['--tokens', '10'], /missing --model/],
  ['a model folder that does not exist', () => ['--model', join(tmp, 'nope')], /model folder not found/],
  ['a missing text file', () => ['--model', MODEL, '--text', join(tmp, 'nope.txt')], /text file not found: .*nope\.txt/],
  ['a text of one token', () => ['--model', MODEL, '--text', file('one.txt', 'a')], /1 token; the experiment needs at least 2/],
  ['a sink as large as the window', () => ['--model', MODEL, '--window', '4', '--sink', '4'], /--sink must be at most --window − 1 = 3 \(got 4\)/],
  ['window 0', () => ['--model', MODEL, '--window', '0'], /--window must be an integer ≥ 1 \(got 0\)/],
  ['a negative sink', () => ['--model', MODEL, '--sink', '-1'], /--sink must be an integer ≥ 0 \(got -1\)/],
  ['--tokens 1', () => ['--model', MODEL, '--tokens', '1'], /--tokens must be an integer ≥ 2 \(got 1\)/],
  ['a text longer than the context', () => ['--model', MODEL, '--text', file('long.txt', ' a'.repeat(5000))], /5000 tokens exceed the model's context of 4096; pass --tokens 4096 or fewer/],
  ['unknown flag', () => ['--model', MODEL, '--windows', '4'], /unknown flag --windows/],
];

for (const [name, argv, message] of HOSTILE) {
  test(`streaming refuses ${name} with one line and exit 2`, async () => {
    const r = await kvscope('streaming', ...argv());
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, '');
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, /^kvscope streaming: /);
    assert.match(lines[0]!, message);
  });
}
