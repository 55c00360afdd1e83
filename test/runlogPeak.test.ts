// The run-log peak warning (issue 17, item 6): the peak reported is the run's (the largest prompt of any
// call, whichever agent sent it) and names that agent; a context peak the file states that is one agent's
// own (a manager's `manager_context_peak`) is said to be that agent's, not the run's. On the seed run log
// (the book's translation run) and on a multi-agent run made from it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { contextGrowth } from '../lib/analysis/contextGrowth';
import { parseRunLog, runPeak, serializeRunLog, type RunLog } from '../lib/io/runlog';
import { translate } from '../lib/i18n';

const SEED = readFileSync('test/fixtures/runlog/translation-single-agent.page.txt', 'utf8');

function ok(text: string) {
  const r = parseRunLog(text);
  if (!r.ok) assert.fail(r.error);
  return r;
}

/** The seed's 26 translation calls as "Translator", each after a Manager call whose prompt grows to 780 tokens. */
function managedRun(): string {
  const seed = ok(SEED).log;
  const calls: Record<string, unknown>[] = [];
  seed.calls.forEach((c, i) => {
    calls.push({ agent: 'Manager', prompt_tokens: 155 + 25 * i, completion_tokens: 40 });
    calls.push({ agent: 'Translator', prompt_tokens: c.promptTokens, completion_tokens: c.completionTokens, note: c.note });
  });
  return JSON.stringify({ value: { result: { mode: 'orchestration', manager_context_peak: 780, tracker_calls: calls } } });
}

test('the seed run log: the run peaks at 94,355 prompt tokens at call 26, by SingleAgent, as the file states', () => {
  const r = ok(SEED);
  const p = runPeak(r.log);
  assert.deepEqual(p, { tokens: 94355, index: 26, agent: 'SingleAgent' });
  const s = contextGrowth(r.log).summary;
  assert.equal(s.peakPromptTokens, 94355);
  assert.equal(s.peakIndex, 26);
  assert.equal(s.peakAgent, 'SingleAgent');
  assert.equal(s.fileContextPeak, 94355);
  assert.equal(s.fileContextPeakMatches, true);
  assert.equal(s.fileContextPeakAgent, undefined);
  assert.ok(!r.notes.some((n) => /peak \d/.test(n)), r.notes.join('\n'));
});

test('a managed run made from the seed: 780 is the Manager’s own peak; the run’s is 94,355 by Translator at call 52', () => {
  const r = ok(managedRun());
  assert.equal(r.log.mainContextPeak, 780);
  assert.deepEqual(r.log.agents, ['Manager', 'Translator']);
  assert.deepEqual(runPeak(r.log), { tokens: 94355, index: 52, agent: 'Translator', statedAgent: 'Manager' });
  const g = contextGrowth(r.log);
  assert.equal(g.summary.peakPromptTokens, 94355);
  assert.equal(g.summary.peakIndex, 52);
  assert.equal(g.summary.peakAgent, 'Translator');
  assert.equal(g.summary.fileContextPeakMatches, false);
  assert.equal(g.summary.fileContextPeakAgent, 'Manager');
  assert.equal(g.agents.find((a) => a.agent === 'Manager')!.peakPromptTokens, 780);
  // The import note: whose 780 is, and the run's real peak with its agent and call.
  const note = r.notes.find((n) => /peak \d/.test(n));
  assert.equal(note, `the file's context peak 780 is agent "Manager"'s own peak, not the run's; the run's peak is 94,355 prompt tokens (agent "Translator", call 52)`);
  assert.ok(!/780 differs|largest prompt_tokens 780/.test(note!));
  // The summary's line, in both languages.
  const params = { n: '780', agent: 'Manager', peak: '94,355', peakAgent: 'Translator' };
  assert.equal(translate('en', 'runlog.sumFilePeakAgent', params), 'the file’s context peak of 780 is Manager’s own peak, not the run’s; the run’s peak is 94,355, by Translator');
  assert.match(translate('zh', 'runlog.sumFilePeakAgent', params), /780 是智能体 Manager 自己的峰值.*94,355（智能体 Translator）/);
  // Written back and read again: the same log, the same facts.
  assert.deepEqual(ok(serializeRunLog(r.log)).log, r.log);
});

test('a stated peak that is no agent’s: the note gives the run’s peak and its agent, and names no owner', () => {
  const log: RunLog = {
    mainContextPeak: 500,
    agents: ['A', 'B'],
    calls: [
      { agent: 'A', promptTokens: 300, completionTokens: 10 },
      { agent: 'B', promptTokens: 900, completionTokens: 10 },
      { agent: 'A', promptTokens: 900, completionTokens: 10 }, // a tie: the first call keeps the peak
    ],
  };
  assert.deepEqual(runPeak(log), { tokens: 900, index: 2, agent: 'B' });
  const r = ok(serializeRunLog(log));
  assert.deepEqual(r.notes, [`the file's context peak 500 differs from the run's peak of 900 prompt tokens (agent "B", call 2)`]);
  const s = contextGrowth(r.log).summary;
  assert.equal(s.peakAgent, 'B');
  assert.equal(s.fileContextPeakAgent, undefined);
  assert.equal(translate('en', 'runlog.sumFilePeakDiffers', { n: '500', peak: '900' }), 'the file states a context peak of 500; the run’s peak is 900');
});
