// `kvscope analyze --scenario id[:variant]` as a user runs it (a child process): built-in scenarios
// analyze like request files, and unknown ids or conflicting flags give one clear line on stderr and exit 2.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { kvscope } from './helpers/cli';

const MODEL = 'public/models/kvscope-tiny';


test('analyze --scenario xfinity:with-status matches the request file of the same arm', async () => {
  const r = await kvscope('analyze', '--model', MODEL, '--scenario', 'xfinity:with-status', '--json');
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.ok(out.tokens > 600 && out.tokens < 700);
  assert.equal(out.segments.status_bar.spans, 1);
  assert.equal(out.sink.perLayer.length, 4);
  const file = JSON.parse((await kvscope('analyze', '--model', MODEL, '--messages', 'examples/requests/xfinity-with-status.json', '--json')).stdout);
  assert.equal(out.tokens, file.tokens);
  assert.deepEqual(out.spans, file.spans);
  const a = JSON.parse((await kvscope('analyze', '--model', MODEL, '--scenario', 'xfinity:without-status', '--json')).stdout);
  assert.equal(a.segments.status_bar, undefined);
  assert.ok(a.tokens < out.tokens);
});

test('analyze --scenario prints the scenario name in text output', async () => {
  const r = await kvscope('analyze', '--model', MODEL, '--scenario', 'beijing', '--min-query', '4');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^scenario beijing: \d+ tokens/);
});

const BAD: [string, string[], RegExp][] = [
  ['unknown scenario', ['--scenario', 'nope'], /^kvscope analyze: unknown scenario "nope" \(known: vancouver, beijing, xfinity \(variants: without-status, with-status\), file-tools, thinking\)$/],
  ['unknown variant', ['--scenario', 'xfinity:maybe'], /^kvscope analyze: unknown variant "maybe" of scenario "xfinity" \(known: without-status, with-status\)$/],
  ['both sources', ['--scenario', 'vancouver', '--messages', 'examples/requests/vancouver.json'], /^kvscope analyze: give either --messages or --scenario, not both$/],
  ['no source', [], /^kvscope analyze: missing --messages <file> or --scenario <id>/],
];
for (const [name, args, want] of BAD) {
  test(`analyze: ${name} exits 2 with one line`, async () => {
    const r = await kvscope('analyze', '--model', MODEL, ...args);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    const lines = r.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, want);
  });
}

test('help lists the scenarios', async () => {
  const r = await kvscope('help');
  assert.equal(r.code, 0);
  assert.match(r.stdout, /--scenario <id>\[:<variant>\]/);
  assert.match(r.stdout, /scenarios: vancouver, beijing, xfinity \(variants: without-status, with-status\), file-tools/);
});
