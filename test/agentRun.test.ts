// lib/agent/run: a conversation cut into the requests an agent loop sends — the brief's Vancouver
// walk-through gives two calls — and per-call token accounting over prompts from the embedded tokenizer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callTokenCounts, runOf } from '../lib/agent/run';
import { loadTokenizerDir } from '../lib/cli/tokenizerDir';
import { buildPrompt, messageTokenCounts } from '../lib/prompt/prompt';
import { scenarioRequest } from '../lib/scenarios/index';
import { VANCOUVER, WEATHER_TOOLS } from '../lib/scenarios/vancouver';
import { XFINITY_WITH_STATUS } from '../lib/scenarios/xfinity';

test('Vancouver runs as two calls: the question, then the question + tool calls + two tool results', () => {
  const run = runOf(VANCOUVER);
  assert.equal(run.conversation, VANCOUVER);
  assert.equal(run.calls.length, 2);
  const [c1, c2] = run.calls;
  assert.equal(c1!.index, 0);
  assert.deepEqual(c1!.request.messages.map((m) => m.role), ['system', 'user']);
  assert.deepEqual(c1!.appended, [0, 1]);
  assert.equal(c1!.staticPrefix, 1);
  assert.equal(c1!.request.tools, WEATHER_TOOLS);
  assert.equal(c2!.index, 1);
  assert.deepEqual(c2!.request.messages.map((m) => m.role), ['system', 'user', 'assistant', 'tool', 'tool']);
  assert.deepEqual(c2!.appended, [2, 3, 4]);
  assert.deepEqual(c2!.request.messages[2], VANCOUVER.messages[2]); // the assistant turn goes back verbatim
  assert.deepEqual(c2!.request.messages.slice(3).map((m) => (m.role === 'tool' ? m.tool_call_id : '')), ['call_abc123', 'call_def456']);
  assert.equal(c2!.staticPrefix, 1);
  // The final assistant answer is what call 2 returned, so no call sends it.
  assert.ok(run.calls.every((c) => c.request.messages.length < VANCOUVER.messages.length));
});

test('a conversation ending with a user message gets a last call for the turn still to come', () => {
  const run = runOf(XFINITY_WITH_STATUS);
  const n = XFINITY_WITH_STATUS.messages.length;
  assert.equal(run.calls.length, 6); // five assistant turns + the pending one
  const last = run.calls[5]!;
  assert.equal(last.request.messages.length, n);
  assert.deepEqual(last.appended, [n - 4, n - 3, n - 2, n - 1]); // third phone call, its result, "one more time", status bar
  // Every message is appended exactly once, in order; each call extends the previous one.
  assert.deepEqual(run.calls.flatMap((c) => c.appended), Array.from({ length: n }, (_, i) => i));
  for (let i = 1; i < run.calls.length; i++) {
    const prev = run.calls[i - 1]!.request.messages;
    assert.deepEqual(run.calls[i]!.request.messages.slice(0, prev.length), prev);
  }
});

test('file-tools runs one call per tool call plus the answer', () => {
  const run = runOf(scenarioRequest('file-tools'));
  assert.equal(run.calls.length, 7);
  for (const c of run.calls.slice(1)) assert.equal(c.appended.length, 2); // assistant tool call + its result
});

test('edge cases: no assistant turn, a leading assistant turn, no system message', () => {
  assert.deepEqual(runOf({ messages: [{ role: 'user', content: 'hi' }] }).calls.map((c) => [c.appended, c.staticPrefix]), [[[0], 0]]);
  const lead = runOf({ messages: [{ role: 'assistant', content: 'hello' }, { role: 'user', content: 'hi' }] });
  assert.deepEqual(lead.calls.map((c) => c.appended), [[0, 1]]);
  assert.equal(lead.calls[0]!.request.tools, undefined);
  assert.deepEqual(runOf({ messages: [] }).calls, []);
});

test('callTokenCounts: the static prefix is the same every call and appended tokens add up', () => {
  const tok = loadTokenizerDir('public/models/kvscope-tiny');
  const run = runOf(scenarioRequest('file-tools'));
  const prompts = run.calls.map((c) => buildPrompt(tok, c.request, { addGenerationPrompt: true, enableThinking: false }));
  const counts = callTokenCounts(run, prompts);
  assert.equal(counts.length, 7);
  for (const [i, c] of counts.entries()) {
    assert.equal(c.total, prompts[i]!.ids.length);
    assert.equal(c.static, counts[0]!.static);
    assert.ok(c.appended > 0 && c.generation > 0);
  }
  // Call 1 is all new: the tools block (static, in no message) + the system and user messages + the generation prompt.
  assert.equal(counts[0]!.total, messageTokenCounts(prompts[0]!).tools + counts[0]!.appended + counts[0]!.generation);
  // Append-only: without thinking the render of call i is a prefix of call i + 1's, minus the generation prompt.
  for (let i = 1; i < counts.length; i++) {
    assert.equal(counts[i]!.total, counts[i - 1]!.total - counts[i - 1]!.generation + counts[i]!.appended + counts[i]!.generation);
  }
  assert.throws(() => callTokenCounts(run, prompts.slice(1)), /6 prompts for 7 calls/);
});
