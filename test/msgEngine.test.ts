// Errors and notes of the engine side (lib/engine, lib/generate, lib/agent, lib/analysis, lib/cache) carry a
// code and parameters (lib/i18n/message): the English text stays as it was, the page shows them in 简体中文,
// and the code survives the worker boundary as plain data.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EngineRequestError } from '../lib/engine/client';
import { checkRequest } from '../lib/engine/protocol';
import { PromptRequestError } from '../lib/engine/renderPrompt';
import { parseGenerationConfig, SamplingError } from '../lib/generate/sampling';
import { simulateStatus, statusFormula } from '../lib/cache/statusEconomics';
import { checkWindow } from '../lib/analysis/streaming';
import { contextGrowth, GrowthError } from '../lib/analysis/contextGrowth';
import { describe, errorData, message, messageText } from '../lib/i18n/message';
import { LatestTask } from '../lib/util/latestTask';

const caught = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  assert.fail('expected a throw');
};

test('generation_config.json errors: the same English text, placed at the file, and in Chinese', () => {
  const e = caught(() => parseGenerationConfig({ temperature: 0 }));
  assert.ok(e instanceof SamplingError);
  assert.equal(e.name, 'SamplingError');
  assert.equal(e.message, 'generation_config.json: temperature must be a number > 0 (got 0)');
  assert.equal(describe('zh', e), 'generation_config.json：temperature 必须是 > 0 的数（实际为 0）');
});

test('range errors a user can reach stay RangeErrors and are coded', () => {
  const e = caught(() => statusFormula({ S: 1, R: 1, N: 1, alpha: 2 }));
  assert.ok(e instanceof RangeError);
  assert.equal(e.message, 'alpha must be in [0, 1] (got 2)');
  assert.match(describe('zh', e), /alpha 必须在 \[0, 1\] 内/);
  const big = caught(() => simulateStatus({ S: 1000, R: 1000, N: 1000, alpha: 0.1 }));
  assert.ok(big instanceof RangeError);
  assert.match((big as Error).message, /^simulation too large \(~\d+ tokens\); lower N, S, R or callsBetween$/);
  assert.match(describe('zh', big), /模拟规模太大/);
  assert.equal(describe('zh', caught(() => checkWindow(4, 4))), 'sink 必须是 0 到 窗口 − 1 = 3 之间的整数（实际为 4）');
  const g = caught(() => contextGrowth({ calls: [], agents: [] } as never, { alpha: 3 }));
  assert.ok(g instanceof GrowthError);
  assert.equal((g as Error).message, 'alpha must be from 0 to 1 (got 3)');
});

test('protocol refusals and client errors carry their code across postMessage', () => {
  const r = checkRequest({ id: 3, type: 'streaming', ids: [1, 2], window: 0, sink: 0 });
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.equal(r.error.message, 'streaming: window must be an integer ≥ 1');
  // What the worker posts is cloned: only plain data arrives.
  const wire = structuredClone(r.error);
  const e = EngineRequestError.of(wire, 3, 'streaming');
  assert.equal(e.message, 'streaming: window must be an integer ≥ 1');
  assert.equal(e.code, 'bad_request');
  assert.equal(describe('zh', e), 'streaming：window 必须是 ≥ 1 的整数');
  assert.deepEqual(errorData(e).coded, { key: 'msg.engine.request.streamingWindow' });
  // A failure from outside kvscope (the runtime's own words) has no code: shown as it is.
  const plain = EngineRequestError.of({ code: 'runtime', message: 'Aborted()' }, 4, 'prefill');
  assert.equal(describe('zh', plain), 'Aborted()');
  // An unknown key from the wire is not trusted.
  const odd = EngineRequestError.of({ code: 'runtime', message: 'x', coded: { key: 'no.such.key' as never } }, 5, 'prefill');
  assert.equal(odd.key, undefined);
});

test('a request the worker refuses with one coded error is shown at its path in the page language', () => {
  const m = message('msg.engine.session.noTokens');
  const e = new PromptRequestError([{ path: 'messages[0]', message: messageText('en', m), ...m } as never]);
  assert.equal(e.message, 'messages[0]: nothing to run: no tokens given');
  assert.equal(describe('en', e), e.message);
  assert.equal(describe('zh', e), 'messages[0]：没有可运行的内容：未给出任何 token');
  // Several errors: the joined English text.
  const two = new PromptRequestError([
    { path: 'a', message: 'x' },
    { path: 'b', message: 'y' },
  ]);
  assert.equal(describe('zh', two), 'a: x; b: y');
});

test("a failed task keeps its error's code for the view, and forgets it when the next task starts", async () => {
  const runner = new LatestTask<number>(() => undefined);
  runner.start('a', async () => {
    throw new SamplingError('msg.engine.sampling.zeroSum');
  });
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(runner.snapshot.error, 'probabilities sum to 0');
  assert.equal(describe('zh', runner.snapshot.failure), '概率之和为 0');
  runner.start('b', async () => 1);
  assert.equal('failure' in runner.snapshot, false);
});
