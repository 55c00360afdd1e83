// `kvscope patterns` as a user runs it (a child process): the six modes' per-call token accounting as a
// text table and as JSON, equal to the library's numbers, and one clear stderr line with exit 2 for bad flags.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { accountPattern, PATTERN_MODES } from '../lib/agent/patterns';
import { loadTokenizerDir } from '../lib/cli/tokenizerDir';
import { kvscope } from './helpers/cli';

const MODEL = 'public/models/kvscope-tiny';

test('patterns: text table for the six modes with the default settings (block 256, α 0.1, seed 1)', async () => {
  const r = await kvscope('patterns');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  assert.match(r.stdout, /rounded down to blocks of 256; cached tokens cost 0\.1 × uncached; seed 1/);
  for (const mode of PATTERN_MODES) assert.match(r.stdout, new RegExp(`^${mode}: `, 'm'));
  const tok = loadTokenizerDir(MODEL);
  const summary = r.stdout.slice(r.stdout.indexOf('\nsummary\n'));
  for (const mode of PATTERN_MODES) {
    const t = accountPattern(tok, mode, { blockSize: 256, alpha: 0.1, seed: 1 }).accounting.totals;
    const row = new RegExp(`^  ${mode} +${t.sent} +${t.cached} +${t.recomputed} +${t.cost.toFixed(1)} +${(100 * t.cacheRatio).toFixed(1)}%`, 'm');
    assert.match(summary, row, mode);
  }
  // Seven calls per mode, numbered 1–7.
  assert.equal((r.stdout.match(/^ {5}7 /gm) ?? []).length, 6);
  assert.match(r.stdout, /appends at msg 2 assistant/); // correct only extends
  assert.match(r.stdout, /tools\[\d\]/); // shuffled_tools breaks in the tools block
});

test('patterns --json: the full data, equal to the library for the chosen block size', async () => {
  const r = await kvscope('patterns', '--model', MODEL, '--block', '1', '--alpha', '0.25', '--seed', '3', '--json');
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual([out.model, out.blockSize, out.alpha, out.seed, out.calls], [MODEL, 1, 0.25, 3, 7]);
  assert.deepEqual(out.modes.map((m: { mode: string }) => m.mode), [...PATTERN_MODES]);
  const tok = loadTokenizerDir(MODEL);
  for (const m of out.modes) {
    const lib = accountPattern(tok, m.mode, { blockSize: 1, alpha: 0.25, seed: 3 });
    assert.deepEqual(m.totals, lib.accounting.totals);
    assert.equal(m.calls.length, 7);
    m.calls.forEach((c: Record<string, unknown>, i: number) => {
      const a = lib.accounting.calls[i]!;
      assert.deepEqual([c.sent, c.cached, c.recomputed, c.firstDifference, c.bestEarlier, c.cost], [a.sent, a.cached, a.recomputed, a.firstDifference, a.bestEarlier, a.cost]);
      assert.deepEqual(c.request, lib.run.calls[i]!.request);
      assert.deepEqual(c.breakAt, lib.breaks[i]);
      assert.equal(typeof (c.damage as { en: string }).en, 'string');
      assert.match(c.clock as string, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/);
    });
  }
  const sw = out.modes.find((m: { mode: string }) => m.mode === 'sliding_window');
  assert.deepEqual(sw.calls[4].dropped, [{ message: 3, toolCallId: 'call_find_1', tool: 'find' }]);
  const tf = out.modes.find((m: { mode: string }) => m.mode === 'text_format');
  assert.equal(tf.calls[1].roleStructureLost, true);
  const correct = out.modes[0];
  assert.ok(correct.calls.slice(1).every((c: { extendsEarlier: boolean }) => c.extendsEarlier));
  // Repeatable: the same flags give the same output.
  assert.equal((await kvscope('patterns', '--model', MODEL, '--block', '1', '--alpha', '0.25', '--seed', '3', '--json')).stdout, r.stdout);
});

test('patterns --block 64 --calls 5: cached counts in whole blocks', async () => {
  const r = await kvscope('patterns', '--block', '64', '--calls', '5', '--json');
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  for (const m of out.modes) {
    assert.equal(m.calls.length, 5);
    for (const c of m.calls) assert.equal(c.cached % 64, 0);
  }
});

const BAD: [string, string[], RegExp][] = [
  ['block not a provider size', ['--block', '100'], /^kvscope patterns: --block must be one of 1, 16, 64, 256 \(got 100\)$/],
  ['alpha above 1', ['--alpha', '2'], /^kvscope patterns: --alpha must be a number from 0 to 1 \(got 2\)$/],
  ['alpha not a number', ['--alpha', 'cheap'], /^kvscope patterns: --alpha must be a number from 0 to 1 \(got cheap\)$/],
  ['negative seed', ['--seed', '-1'], /^kvscope patterns: --seed must be an integer ≥ 0 \(got -1\)$/],
  ['too many calls', ['--calls', '9'], /^kvscope patterns: --calls must be an integer from 1 to 7 \(got 9\)$/],
  ['unknown flag', ['--blocks', '16'], /^kvscope patterns: unknown flag --blocks \(known: --model --block --alpha --seed --calls --json\)$/],
  ['missing value', ['--block'], /^kvscope patterns: --block needs a value$/],
  ['no such model folder', ['--model', 'no/such/dir'], /^kvscope patterns: model folder not found: no\/such\/dir$/],
  ['folder without tokenizer', ['--model', 'test'], /^kvscope patterns: test: no tokenizer\.json/],
  ['stray argument', ['correct'], /^kvscope patterns: unexpected argument "correct"$/],
];
for (const [name, args, want] of BAD) {
  test(`patterns: ${name} exits 2 with one line`, async () => {
    const r = await kvscope('patterns', ...args);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    const lines = r.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, want);
  });
}

test('help lists the patterns command', async () => {
  const r = await kvscope('help');
  assert.equal(r.code, 0);
  assert.match(r.stdout, /kvscope patterns \[--model <dir>\] \[--block 256\] \[--alpha 0\.1\] \[--seed 1\]/);
});
