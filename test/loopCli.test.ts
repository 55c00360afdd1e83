// `kvscope loop` as a user runs it (a child process): the per-call text, the --json document (its counts
// consistent: reused + recomputed = prompt tokens, totals = sums), the run log it writes (read back by
// parseRunLog and by `kvscope log`), and one clear line on stderr with exit 2 for every bad flag.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { parseRunLog } from '../lib/io/runlog';
import { kvscope } from './helpers/cli';

const MODEL = 'public/models/kvscope-tiny';
const tmp = mkdtempSync(join(tmpdir(), 'kvscope-loop-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

interface Call {
  call: number;
  messages: unknown[];
  messageCount: number;
  promptTokens: number;
  reused: number;
  recomputed: number;
  commonPrefix: number;
  cachedBefore: number;
  generatedTokens: number;
  statusIndex: number | null;
  decision: string;
  toolResults: { name: string; content: string; error?: string }[];
}
interface Out {
  scenario: string;
  status: string;
  calls: Call[];
  messages: unknown[];
  stop: string;
  totals: { promptTokens: number; reused: number; recomputed: number; generated: number };
  runlog: { path: string; calls: number } | null;
}

test('the text: each call’s messages, prompt tokens, reused and recomputed tokens, and the decision; exit 0', async () => {
  const r = await kvscope('loop', '--model', MODEL, '--scenario', 'xfinity', '--max-calls', '3', '--status', 'replace', '--sampling', 'greedy', '--max-new-tokens', '64');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^loop on scenario xfinity: status replace \(in place, after the task\), at most 3 calls/);
  assert.match(r.stdout, /\ncall 1: 3 messages \(all new; status at 2\), prompt \d+ tokens: reused 0 from the cache, recomputed \d+\n/);
  assert.match(r.stdout, /\ncall 2: \d+ messages \(changed or appended from message 2; status at 2\), prompt \d+ tokens: reused \d+ from the cache, recomputed \d+ \(cache held \d+/);
  assert.match(r.stdout, /\n {2}cache: kept \d+ of \d+ cached tokens .*first difference at token \d+ \(message 2, user, status_bar\)\n/);
  assert.match(r.stdout, /\n {2}decision: /);
  assert.match(r.stdout, /\nstopped: (final|max-calls) — /);
  assert.match(r.stdout, /\ntotals over \d calls: \d+ prompt tokens sent, \d+ reused from the cache \(\d+\.\d %\), \d+ recomputed, \d+ generated\n/);
});

test('--json: the whole run, counts consistent; --runlog writes a log parseRunLog and `kvscope log` read', async () => {
  const file = join(tmp, 'run.json');
  const r = await kvscope('loop', '--model', MODEL, '--scenario', 'vancouver', '--max-calls', '3', '--seed', '2', '--status', 'append', '--runlog', file, '--json');
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as Out;
  assert.equal(out.scenario, 'vancouver');
  assert.equal(out.status, 'append');
  assert.ok(out.calls.length >= 1 && out.calls.length <= 3);
  assert.ok(['final', 'max-calls'].includes(out.stop), out.stop);
  for (const c of out.calls) {
    assert.equal(c.reused + c.recomputed, c.promptTokens, `call ${c.call}`);
    assert.equal(c.messages.length, c.messageCount);
    assert.equal(c.statusIndex, c.messageCount - 1);
    assert.equal(c.reused, c.call === 1 ? 0 : Math.min(c.commonPrefix, c.promptTokens - 1));
    if (c.call > 1) assert.equal(c.cachedBefore, out.calls[c.call - 2]!.promptTokens + out.calls[c.call - 2]!.generatedTokens);
  }
  const sum = (f: (c: Call) => number) => out.calls.reduce((s, c) => s + f(c), 0);
  assert.deepEqual(out.totals, { promptTokens: sum((c) => c.promptTokens), reused: sum((c) => c.reused), recomputed: sum((c) => c.recomputed), generated: sum((c) => c.generatedTokens) });
  assert.deepEqual(out.runlog, { path: file, calls: out.calls.length });
  const log = parseRunLog(readFileSync(file, 'utf8'));
  assert.ok(log.ok, log.ok ? '' : log.error);
  assert.deepEqual(log.log.calls.map((c) => [c.promptTokens, c.completionTokens]), out.calls.map((c) => [c.promptTokens, c.generatedTokens]));
  const viaLog = await kvscope('log', file, '--json');
  assert.equal(viaLog.code, 0, viaLog.stderr);
});

test('bad flags: one line on stderr, exit 2, before the model is loaded', async () => {
  const cases: [string[], RegExp][] = [
    [['--status', 'sometimes'], /--status must be one of off, replace, append \(got sometimes\)/],
    [['--max-calls', '0'], /--max-calls must be an integer ≥ 1 \(got 0\)/],
    [['--max-calls', '101'], /--max-calls must be at most 100/],
    [['--seed', 'x'], /--seed must be an integer ≥ 0/],
    [['--max-new-tokens', '-1'], /--max-new-tokens must be an integer ≥ 1/],
    [['--sampling', 'hot'], /--sampling must be config or greedy/],
    [['--replace-at', 'middle'], /--replace-at must be fixed or end/],
    [['--scenario', 'nowhere'], /unknown scenario "nowhere"/],
    [['--scenario', 'xfinity:arm-c'], /unknown variant "arm-c" of scenario "xfinity"/],
    [['--bogus', '1'], /unknown flag --bogus/],
    [['extra'], /unexpected argument "extra"/],
    [['--model', join(tmp, 'no-model')], /no-model/],
    [['--max-calls'], /--max-calls needs a value/],
  ];
  for (const [args, re] of cases) {
    const r = await kvscope('loop', ...args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, /^kvscope loop: /);
    assert.match(lines[0]!, re);
  }
});
