// Run-log import (lib/io/runlog): the seed's page capture, raw JSON, plain lists, multi-agent logs, hostile input,
// and the context-growth / prefix-cache arithmetic on a hand-computed case.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { contextGrowth } from '../lib/analysis/contextGrowth';
import { MAX_TEXT_CHARS, parseRunLog, serializeRunLog, type RunLog } from '../lib/io/runlog';

const SEED = readFileSync('test/fixtures/runlog/translation-single-agent.page.txt', 'utf8');

function ok(text: string) {
  const r = parseRunLog(text);
  if (!r.ok) assert.fail(r.error);
  return r;
}
function err(text: string): string {
  const r = parseRunLog(text);
  assert.equal(r.ok, false, 'expected an error');
  return (r as { error: string }).error;
}
function roundTrip(log: RunLog) {
  const again = ok(serializeRunLog(log));
  assert.equal(again.form, 'result-json');
  assert.deepEqual(again.log, log);
}

test('the seed page capture: 26 calls, peak 94,355 prompt tokens, agreeing with main_context_peak', () => {
  const r = ok(SEED);
  assert.equal(r.form, 'page-capture');
  assert.equal(r.log.calls.length, 26);
  assert.equal(r.log.mode, 'single_agent');
  assert.equal(r.log.mainContextPeak, 94355);
  assert.deepEqual(r.log.agents, ['SingleAgent']);
  assert.equal(r.log.calls[0]!.promptTokens, 2024);
  assert.equal(r.log.calls[0]!.completionTokens, 1914);
  assert.equal(r.log.calls[25]!.note, '翻译 Context Engineering [Part 17/17]');
  const g = contextGrowth(r.log);
  assert.equal(g.summary.calls, 26);
  assert.equal(g.summary.peakPromptTokens, 94355);
  assert.equal(g.summary.fileContextPeakMatches, true);
  roundTrip(r.log);
});

test('page capture with strings wrapped mid-string, a number wrapped, and chrome below', () => {
  const lines = ['Some Page', 'header {not json', 'JSON', '{', '|', '||', '"value": {"result": {', '|', '"tracker_calls": [{"agent": "A", "note": "hel', '|', '||', 'lo wor', 'ld", "prompt_tokens": 12', '|', '34, "completion_tokens": 5}]', '}}', '|', '}', '|', 'footer © 2025 {x}'];
  const r = ok(lines.join('\n'));
  assert.equal(r.form, 'page-capture');
  assert.equal(r.log.calls[0]!.note, 'hello world');
  assert.equal(r.log.calls[0]!.promptTokens, 1234);
});

test('raw result JSON: whole object, result object, {result}; each round-trips', () => {
  const calls = [{ agent: 'A', prompt_tokens: 10, completion_tokens: 2, note: 'x', latency_seconds: 1.5, provider: 'p', model: 'm', outcome: 'success', extra: [1] }];
  const forms = [{ value: { result: { mode: 'single_agent', main_context_peak: 10, tracker_calls: calls } } }, { mode: 'single_agent', main_context_peak: 10, tracker_calls: calls }, { result: { mode: 'single_agent', main_context_peak: 10, tracker_calls: calls } }];
  const logs = forms.map((f) => ok(JSON.stringify(f)).log);
  for (const l of logs) {
    assert.deepEqual(l, logs[0]);
    roundTrip(l);
  }
  assert.deepEqual(logs[0]!.calls[0], { agent: 'A', promptTokens: 10, completionTokens: 2, note: 'x', latencySeconds: 1.5, provider: 'p', model: 'm', outcome: 'success' });
});

test('plain list, agent optional; multi-agent log gives one series per agent', () => {
  const list = ok(JSON.stringify([{ prompt_tokens: 5, completion_tokens: 1 }, { agent: 'A', prompt_tokens: 7, completion_tokens: 1, note: 'n' }]));
  assert.equal(list.form, 'list');
  assert.deepEqual(list.log.agents, ['agent', 'A']);
  assert.match(list.notes.join('\n'), /1 of 2 calls name no agent/);
  roundTrip(list.log);
  const multi = ok(JSON.stringify({ mode: 'orchestration', manager_context_peak: 300, tracker_calls: [
    { agent: 'Manager', prompt_tokens: 100, completion_tokens: 20 },
    { agent: 'Worker', prompt_tokens: 300, completion_tokens: 50 },
    { agent: 'Manager', prompt_tokens: 150, completion_tokens: 20 },
    { agent: 'Worker', prompt_tokens: 200, completion_tokens: 50 },
  ] })).log;
  assert.deepEqual(multi.agents, ['Manager', 'Worker']);
  const g = contextGrowth(multi, { alpha: 0 });
  assert.deepEqual(g.agents.map((a) => [a.agent, a.indices, a.peakPromptTokens, a.cachedTokens]), [['Manager', [1, 3], 150, 120], ['Worker', [2, 4], 300, 200]]);
  roundTrip(multi);
});

test('hostile input: clear errors with where, or inert text', () => {
  const good = JSON.stringify({ tracker_calls: [{ agent: 'A', prompt_tokens: 1, completion_tokens: 1 }] });
  assert.match(err(good.slice(0, -5)), /invalid JSON.*truncated/);
  assert.match(err(SEED.slice(0, SEED.length / 2)), /page capture.*invalid JSON/);
  const calls = [0, 1, 2, 3].map(() => ({ agent: 'A', prompt_tokens: 1, completion_tokens: 1 })) as Record<string, unknown>[];
  calls[3]!.prompt_tokens = '12';
  assert.equal(err(JSON.stringify({ value: { result: { tracker_calls: calls } } })), 'value.result.tracker_calls[3].prompt_tokens: expected a number (got the string "12")');
  calls[3]!.prompt_tokens = -1;
  assert.match(err(JSON.stringify({ tracker_calls: calls })), /^tracker_calls\[3\]\.prompt_tokens: expected a whole number/);
  calls[3]!.prompt_tokens = 1;
  delete calls[2]!.completion_tokens;
  assert.equal(err(JSON.stringify({ tracker_calls: calls })), 'tracker_calls[2].completion_tokens: missing');
  assert.match(err(JSON.stringify({ tracker_calls: 'x' })), /tracker_calls: expected a list/);
  assert.match(err(JSON.stringify({ foo: 1 })), /no tracker_calls/);
  assert.match(err('42'), /no JSON found|expected/);
  assert.match(err(''), /empty/);
  assert.match(err('x'.repeat(21 * 1024 * 1024)), /more than the limit/);
  // 5 MB strings: a note is cut (with a note saying so), an agent name is refused, an ignored field passes.
  const big = 'y'.repeat(5 * 1024 * 1024);
  const cut = ok(JSON.stringify({ tracker_calls: [{ agent: 'A', prompt_tokens: 1, completion_tokens: 1, note: big }], translations: { t: big } }));
  assert.equal(cut.log.calls[0]!.note!.length, MAX_TEXT_CHARS);
  assert.match(cut.notes.join('\n'), /tracker_calls\[0\]\.note: 5,242,880 characters/);
  assert.match(err(JSON.stringify({ tracker_calls: [{ agent: big, prompt_tokens: 1, completion_tokens: 1 }] })), /tracker_calls\[0\]\.agent: longer than 200/);
  // Script and HTML in notes are kept verbatim, as text.
  const script = '<script>globalThis.__pwned = 1</script><img src=x onerror=alert(1)>';
  const s = ok(JSON.stringify([{ agent: '<b>A</b>', prompt_tokens: 1, completion_tokens: 1, note: script }]));
  assert.equal(s.log.calls[0]!.note, script);
  assert.equal(s.log.agents[0], '<b>A</b>');
  assert.equal((globalThis as Record<string, unknown>).__pwned, undefined);
  // Deep nesting does not crash.
  const deep = '['.repeat(200000) + ']'.repeat(200000);
  assert.equal(parseRunLog(deep).ok, false);
});

test('contextGrowth: hand-computed 3-call case', () => {
  const log: RunLog = { calls: [
    { agent: 'A', promptTokens: 100, completionTokens: 20 },
    { agent: 'A', promptTokens: 150, completionTokens: 30 },
    { agent: 'A', promptTokens: 170, completionTokens: 10 }, // previous call = 180 > 170: capped at 170
  ], agents: ['A'], mainContextPeak: 160 };
  const g = contextGrowth(log, { alpha: 0.1, contextWindow: 175, outputPrice: 4 });
  assert.deepEqual(g.rows.map((r) => [r.cumulativeTokens, r.cachedTokens, r.uncachedTokens, r.costCached, r.overWindow]), [
    [120, 0, 100, 100, false],
    [300, 120, 30, 42, true],
    [480, 170, 0, 17, true],
  ]);
  const s = g.summary;
  assert.deepEqual([s.calls, s.peakPromptTokens, s.peakIndex, s.promptTokens, s.completionTokens, s.cachedTokens, s.costUncached], [3, 170, 3, 420, 60, 290, 420]);
  assert.ok(Math.abs(s.costCached - 159) < 1e-9);
  assert.ok(Math.abs(s.saved - 261) < 1e-9);
  assert.equal(s.outputCost, 240);
  assert.equal(s.windowCrossedAt, 2);
  assert.equal(s.fileContextPeak, 160);
  assert.equal(s.fileContextPeakMatches, false);
  assert.equal(contextGrowth(log).summary.outputCost, undefined);
  assert.throws(() => contextGrowth(log, { alpha: 2 }), /alpha/);
});
