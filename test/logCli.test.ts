// `kvscope log` as a user runs it: text table and --json for the seed page capture, and one stderr line with
// exit 2 for a missing file, bad input and bad flags.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { kvscope } from './helpers/cli';

const SEED = 'test/fixtures/runlog/translation-single-agent.page.txt';

test('log: text table for the seed page capture', async () => {
  const r = await kvscope('log', SEED);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  assert.match(r.stdout, /: 26 calls; cached tokens cost 0\.1 × uncached/);
  assert.match(r.stdout, /^ +26 +94,355 +1,578 /m);
  assert.match(r.stdout, /peak prompt tokens +94,355 \(call 26\); file's main_context_peak 94,355 agrees/);
  assert.match(r.stdout, /prompt tokens +1,272,156/);
  assert.match(r.stdout, /input cost uncached +1272156\.0/);
  assert.match(r.stdout, /input cost cached +172468\.5/);
});

test('log --json --alpha --window: the full data', async () => {
  const r = await kvscope('log', SEED, '--alpha', '0.5', '--window', '65536', '--json');
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.form, 'page-capture');
  assert.equal(out.alpha, 0.5);
  assert.equal(out.rows.length, 26);
  assert.equal(out.summary.peakPromptTokens, 94355);
  assert.equal(out.summary.windowCrossedAt, 18); // 65,919 + 1,749 > 65,536
  assert.deepEqual(out.agentNames, ['SingleAgent']);
});

test('log: bad file, bad input, bad flags → one stderr line, exit 2', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kvscope-log-'));
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify({ tracker_calls: [{ agent: 'A', prompt_tokens: 'x', completion_tokens: 1 }] }));
  const cases: [string[], RegExp][] = [
    [['log', join(dir, 'missing.json')], /^kvscope log: file not found: /],
    [['log', bad], /tracker_calls\[0\]\.prompt_tokens: expected a number/],
    [['log'], /missing <file>/],
    [['log', SEED, '--alpha', '2'], /--alpha must be a number from 0 to 1/],
    [['log', SEED, '--bogus', '1'], /unknown flag --bogus/],
  ];
  for (const [argv, re] of cases) {
    const r = await kvscope(...argv);
    assert.equal(r.code, 2, argv.join(' '));
    assert.equal(r.stdout, '');
    assert.match(r.stderr, re);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});
