// lib/scenarios/index: every built-in scenario and variant is a valid request that renders with the
// embedded tokenizer; the Xfinity arms share every token before the status bar; unknown ids are named.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { loadTokenizerDir } from '../lib/cli/tokenizerDir';
import { buildPrompt, messageTokenCounts } from '../lib/prompt/prompt';
import { checkContext, validateRequest } from '../lib/prompt/request';
import type { Tokenizer } from '../lib/prompt/tokenizer';
import { getScenario, parseScenarioRef, SCENARIO_IDS, SCENARIOS, scenarioRegions, scenarioRequest } from '../lib/scenarios/index';
import { VANCOUVER } from '../lib/scenarios/vancouver';
import { XFINITY_WITH_STATUS, XFINITY_WITHOUT_STATUS } from '../lib/scenarios/xfinity';

let tok: Tokenizer;
before(() => {
  tok = loadTokenizerDir('public/models/kvscope-tiny');
});

const everyRequest = () =>
  SCENARIOS.flatMap((s) => [[s.id, s.request] as const, ...(s.variants ?? []).map((v) => [`${s.id}:${v.id}`, v.request] as const)]);

test('the registry holds the built-in scenarios with bilingual titles', () => {
  assert.deepEqual(SCENARIO_IDS, ['vancouver', 'beijing', 'xfinity', 'file-tools', 'thinking']);
  for (const s of SCENARIOS) {
    for (const t of [s.title, s.description, ...(s.variants ?? []).map((v) => v.title), ...(s.regions ?? []).map((r) => r.label)]) {
      assert.ok(t.en.length > 0 && t.zh.length > 0, s.id);
    }
  }
  assert.deepEqual(getScenario('xfinity').variants?.map((v) => v.id), ['without-status', 'with-status']);
  assert.equal(scenarioRequest('vancouver'), VANCOUVER);
  assert.equal(scenarioRequest('xfinity', 'with-status'), XFINITY_WITH_STATUS);
  assert.equal(scenarioRequest('xfinity', 'without-status'), XFINITY_WITHOUT_STATUS);
});

test('every scenario and variant validates and renders with the embedded tokenizer within its context', () => {
  for (const [name, request] of everyRequest()) {
    const v = validateRequest(structuredClone(request));
    assert.ok(v.ok, `${name}: ${JSON.stringify(v.ok ? '' : v.errors)}`);
    assert.deepEqual(v.request, request, name);
    const prompt = buildPrompt(tok, request, { addGenerationPrompt: true, enableThinking: true });
    assert.ok(prompt.ids.length > 0, name);
    assert.equal(prompt.spans[0]!.start, 0, name);
    assert.equal(prompt.spans.at(-1)!.end, prompt.ids.length, name);
    prompt.spans.forEach((s, i) => i > 0 && assert.equal(s.start, prompt.spans[i - 1]!.end, name));
    assert.equal(checkContext(prompt.ids.length, 4096), null, name);
  }
});

test('file-tools is a scripted run: at least five tool calls, each answered by its result, then an answer', () => {
  const msgs = scenarioRequest('file-tools').messages;
  const calls = msgs.flatMap((m, i) => (m.role === 'assistant' && m.tool_calls ? m.tool_calls.map((c) => ({ i, c })) : []));
  assert.ok(calls.length >= 5);
  assert.deepEqual([...new Set(calls.map((x) => x.c.function.name))].sort(), ['find', 'grep', 'read_file']);
  for (const { i, c } of calls) {
    const next = msgs[i + 1];
    assert.ok(next?.role === 'tool' && next.tool_call_id === c.id, c.id);
  }
  assert.equal(msgs.at(-1)!.role, 'assistant');
  assert.equal(new Set(calls.map((x) => x.c.id)).size, calls.length);
});

test('the Xfinity arms share every token before the status message', () => {
  const a = buildPrompt(tok, scenarioRequest('xfinity', 'without-status'), { addGenerationPrompt: true, enableThinking: true });
  const b = buildPrompt(tok, scenarioRequest('xfinity', 'with-status'), { addGenerationPrompt: true, enableThinking: true });
  const status = b.messageCount - 1;
  const first = b.spans.find((s) => s.message === status)!;
  assert.ok(b.spans.some((s) => s.message === status && s.segment === 'status_bar'));
  assert.equal(first.start, a.ids.length - messageTokenCounts(a).generation);
  assert.deepEqual(b.ids.slice(0, first.start), a.ids.slice(0, first.start));
  assert.notDeepEqual(b.ids.slice(first.start, a.ids.length), a.ids.slice(first.start));
});

test('Xfinity regions name the phone history, the distractors, the latest query and (arm B only) the status bar', () => {
  const b = scenarioRegions('xfinity', 'with-status');
  const msgs = XFINITY_WITH_STATUS.messages;
  const of = (id: string) => b.find((r) => r.id === id)!.messages;
  assert.equal(of('phone_history').length, 6);
  assert.ok(of('phone_history').every((i) => /phone|PHONE_EVENT/.test(JSON.stringify(msgs[i]))));
  assert.equal(of('search_distractors').length, 4);
  assert.match(msgs[of('latest_user_query')[0]!]!.content ?? '', /one more time/);
  assert.match(msgs[of('status_bar')[0]!]!.content ?? '', /^<agent_status>/);
  assert.deepEqual(scenarioRegions('xfinity', 'without-status').map((r) => r.id), ['phone_history', 'search_distractors', 'latest_user_query']);
  assert.deepEqual(scenarioRegions('vancouver'), []);
});

test('unknown scenario or variant ids throw, naming what is known', () => {
  assert.throws(() => scenarioRequest('nope'), /unknown scenario "nope" \(known: vancouver, beijing, xfinity \(variants: without-status, with-status\), file-tools, thinking\)/);
  assert.throws(() => scenarioRequest('xfinity', 'maybe'), /unknown variant "maybe" of scenario "xfinity" \(known: without-status, with-status\)/);
  assert.throws(() => scenarioRequest('vancouver', 'x'), /it has no variants/);
  assert.deepEqual(parseScenarioRef('xfinity:with-status'), { id: 'xfinity', variant: 'with-status' });
  assert.deepEqual(parseScenarioRef('beijing'), { id: 'beijing' });
});
