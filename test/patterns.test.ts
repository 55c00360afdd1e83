// lib/agent/patterns: the six modes of the book's kv-cache agent as the exact requests each sends, per
// iteration of the scripted file-tools run. Request shapes only; token-level cache behaviour is in
// cacheAccounting.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  flattenHistory,
  formatClock,
  parseClock,
  PATTERN_CALLS,
  PATTERN_MODES,
  patternRun,
  windowStart,
  type PatternMode,
} from '../lib/agent/patterns';
import { runOf } from '../lib/agent/run';
import { validateRequest } from '../lib/prompt/request';
import { FILE_TOOLS } from '../lib/scenarios/fileTools';
import { scenarioRequest } from '../lib/scenarios/index';
import type { ChatMessage } from '../lib/scenarios/types';

const CONVERSATION = scenarioRequest('file-tools');
const SYSTEM = CONVERSATION.messages[0]!.content!;
const TASK = CONVERSATION.messages[1]!.content!;
const CLOCK = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/;

test('every mode: at least 5 calls, valid requests, the same seed gives the same run', () => {
  assert.equal(PATTERN_CALLS, 7);
  for (const mode of PATTERN_MODES) {
    const run = patternRun(mode, { seed: 7 });
    assert.equal(run.mode, mode);
    assert.ok(run.calls.length >= 5);
    assert.deepEqual(patternRun(mode, { seed: 7 }), run);
    assert.ok(run.description.en && run.description.zh);
    run.calls.forEach((c, k) => {
      assert.equal(c.index, k);
      // Every request is one the API accepts: in particular no tool result without its assistant tool_call.
      const v = validateRequest(c.request);
      assert.ok(v.ok, `${mode} call ${k}: ${JSON.stringify(v)}`);
      assert.match(c.clock, CLOCK);
      assert.ok(c.damage.en.length > 10 && c.damage.zh.length > 5, `${mode} call ${k} damage`);
      assert.equal(c.request.messages[0]!.role, 'system');
      assert.equal(c.history, [0, 2, 4, 6, 8, 10, 12][k]);
    });
  }
});

test('calls option and argument checks', () => {
  assert.equal(patternRun('correct', { calls: 5 }).calls.length, 5);
  assert.deepEqual(patternRun('shuffled_tools', { calls: 5, seed: 3 }).calls, patternRun('shuffled_tools', { seed: 3 }).calls.slice(0, 5));
  for (const calls of [0, 8, 2.5]) assert.throws(() => patternRun('correct', { calls }), RangeError);
  assert.throws(() => patternRun('nope' as PatternMode), /unknown mode "nope"/);
  assert.throws(() => patternRun('correct', { clockStart: '2025-02-30 10:00:00' }), RangeError);
  assert.throws(() => patternRun('correct', { clockStart: 'yesterday' }), RangeError);
});

test('the simulated clock: strftime %Y-%m-%d %H:%M:%S.%f, seeded steps, the same in every mode', () => {
  assert.equal(formatClock(parseClock('2025-09-14 10:30:45')), '2025-09-14 10:30:45.000000');
  assert.equal(formatClock(parseClock('2025-09-14 10:30:45.5')), '2025-09-14 10:30:45.500000');
  assert.equal(formatClock(parseClock('2025-12-31 23:59:59.999999') + 1), '2026-01-01 00:00:00.000000');
  assert.equal(formatClock(parseClock('2024-02-28 23:59:59.000001') + 1_000_000), '2024-02-29 00:00:00.000001');

  const run = patternRun('dynamic_system', { seed: 1, clockStart: '2025-09-14 23:59:58.000000' });
  const times = run.calls.map((c) => parseClock(c.clock));
  for (let k = 1; k < times.length; k++) {
    const step = times[k]! - times[k - 1]!;
    assert.ok(step >= 400_000 && step <= 4_000_000, `step ${step}`);
  }
  assert.ok(run.calls.at(-1)!.clock.startsWith('2025-09-15')); // crosses midnight
  for (const mode of PATTERN_MODES) assert.deepEqual(patternRun(mode, { seed: 1 }).calls.map((c) => c.clock), patternRun('correct', { seed: 1 }).calls.map((c) => c.clock));
  assert.notDeepEqual(patternRun('correct', { seed: 2 }).calls.map((c) => c.clock), patternRun('correct', { seed: 1 }).calls.map((c) => c.clock));
});

test('correct: exactly the calls of the append-only run', () => {
  const run = patternRun('correct');
  const ref = runOf(CONVERSATION).calls;
  assert.equal(run.calls.length, ref.length);
  run.calls.forEach((c, k) => {
    assert.deepEqual(c.request.messages, ref[k]!.request.messages);
    assert.deepEqual(c.request.tools, FILE_TOOLS);
    if (k > 0) assert.deepEqual(c.request.messages.slice(0, run.calls[k - 1]!.request.messages.length), run.calls[k - 1]!.request.messages);
  });
});

/** The history the rebuilt modes send: everything between the system prompt (and profile) and the task. */
const rebuilt = (msgs: ChatMessage[], lead: number) => msgs.slice(lead, -1);

test('dynamic_system: CURRENT TIME appended to the system prompt, the task re-sent after the history', () => {
  const run = patternRun('dynamic_system', { seed: 4 });
  const correct = patternRun('correct', { seed: 4 });
  run.calls.forEach((c, k) => {
    const m = c.request.messages;
    assert.equal(m[0]!.content, `${SYSTEM}\n\nCURRENT TIME: ${c.clock}`);
    assert.deepEqual(m.at(-1), { role: 'user', content: TASK });
    assert.deepEqual(rebuilt(m, 1), correct.calls[k]!.request.messages.slice(2));
    assert.deepEqual(c.toolOrder, ['read_file', 'find', 'grep']);
  });
  assert.equal(new Set(run.calls.map((c) => c.request.messages[0]!.content)).size, run.calls.length);
});

test('shuffled_tools: a seeded permutation of the same tool objects on every call', () => {
  const run = patternRun('shuffled_tools', { seed: 1 });
  const orders = new Set<string>();
  for (const c of run.calls) {
    assert.deepEqual([...c.toolOrder].sort(), ['find', 'grep', 'read_file']);
    assert.deepEqual(c.toolOrder, c.request.tools!.map((t) => t.function.name));
    for (const t of c.request.tools!) assert.ok(FILE_TOOLS.includes(t));
    orders.add(c.toolOrder.join());
    assert.equal(c.request.messages[0]!.content, SYSTEM);
  }
  assert.ok(orders.size >= 3, [...orders].join(' | '));
  assert.notDeepEqual(patternRun('shuffled_tools', { seed: 2 }).calls.map((c) => c.toolOrder), run.calls.map((c) => c.toolOrder));
  assert.deepEqual(FILE_TOOLS.map((t) => t.function.name), ['read_file', 'find', 'grep']); // the shared list is not shuffled in place
});

test('dynamic_profile: the profile message right after the system prompt, 99, 98, … credits', () => {
  const run = patternRun('dynamic_profile', { seed: 9 });
  run.calls.forEach((c, k) => {
    assert.equal(c.credits, 99 - k);
    assert.deepEqual(c.request.messages[1], { role: 'user', content: `[User Profile: Premium user with ${99 - k} credits remaining]` });
    assert.deepEqual(c.request.messages.at(-1), { role: 'user', content: TASK });
  });
  // The seed drives the clock and shuffles only: the book takes exactly one credit per call.
  assert.deepEqual(patternRun('dynamic_profile', { seed: 1 }).calls.map((c) => c.credits), run.calls.map((c) => c.credits));
});

test('windowStart keeps the last 6 messages and never separates a tool result from its tool call', () => {
  const call = (id: string, n = 1): ChatMessage => ({
    role: 'assistant',
    content: null,
    tool_calls: Array.from({ length: n }, (_, j) => ({ id: `${id}_${j}`, type: 'function' as const, function: { name: 'find', arguments: '{}' } })),
  });
  const result = (id: string): ChatMessage => ({ role: 'tool', tool_call_id: id, content: 'x' });
  const h: ChatMessage[] = [call('a', 2), result('a_0'), result('a_1'), call('b'), result('b_0'), call('c'), result('c_0'), call('d', 2), result('d_0'), result('d_1')];
  assert.equal(windowStart(h), 3); // len 10 → 4 is a tool result of b → back to b's call: 7 messages kept
  assert.equal(windowStart(h.slice(0, 8)), 0); // len 8 → 2 and 1 are a's results → back to a's call: all 8 kept
  assert.equal(windowStart(h.slice(0, 9)), 3);
  assert.equal(windowStart(h.slice(0, 6)), 0);
  assert.equal(windowStart([]), 0);
  assert.equal(windowStart(h, 2), 7); // len 10 − 2 = 8 is d_0 → back to d's call
});

test('sliding_window: the window slides from call 5 on and reports the tool results that fell out', () => {
  const run = patternRun('sliding_window');
  const dropped = run.calls.map((c) => c.dropped.map((d) => `${d.message}:${d.toolCallId}:${d.tool}`));
  assert.deepEqual(dropped, [[], [], [], [], ['3:call_find_1:find'], ['3:call_find_1:find', '5:call_read_1:read_file'], ['3:call_find_1:find', '5:call_read_1:read_file', '7:call_read_2:read_file']]);
  run.calls.forEach((c, k) => {
    const history = rebuilt(c.request.messages, 1);
    assert.equal(history.length, Math.min(6, 2 * k));
    assert.deepEqual(history, CONVERSATION.messages.slice(2 + 2 * k - history.length, 2 + 2 * k));
    for (const d of c.dropped) assert.ok(!history.some((m) => m.role === 'tool' && m.tool_call_id === d.toolCallId));
  });
  assert.match(run.calls[4]!.damage.en, /find \(call_find_1\)/);
});

test('flattenHistory writes the book text_format', () => {
  const h: ChatMessage[] = [
    { role: 'assistant', content: 'Let me look.', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'find', arguments: '{"pattern": "*.py"}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: './a.py' },
    { role: 'assistant', content: null, tool_calls: [
      { id: 'c2', type: 'function', function: { name: 'read_file', arguments: '{"file_path": "a.py"}' } },
      { id: 'c3', type: 'function', function: { name: 'grep', arguments: '{"pattern": "x"}' } },
    ] },
    { role: 'tool', tool_call_id: 'c2', content: 'print(1)' },
    { role: 'tool', tool_call_id: 'c3', content: 'a.py:1:x' },
    { role: 'assistant', content: 'Done.' },
  ];
  assert.equal(
    flattenHistory(h),
    'Previous conversation:\n' +
      'ASSISTANT: Let me look.\n' +
      'ASSISTANT: [Making tool calls]\n' +
      '  - Calling find with args: {"pattern": "*.py"}\n' +
      'TOOL RESPONSE: ./a.py\n' +
      'ASSISTANT: [Making tool calls]\n' +
      '  - Calling read_file with args: {"file_path": "a.py"}\n' +
      '  - Calling grep with args: {"pattern": "x"}\n' +
      'TOOL RESPONSE: print(1)\n' +
      'TOOL RESPONSE: a.py:1:x\n' +
      'ASSISTANT: Done.\n',
  );
});

test('text_format: one flattened user message before the task; roles are lost from call 2 on', () => {
  const run = patternRun('text_format');
  assert.deepEqual(run.calls[0]!.request.messages.map((m) => m.role), ['system', 'user']);
  assert.equal(run.calls[0]!.roleStructureLost, false);
  run.calls.slice(1).forEach((c, j) => {
    const k = j + 1;
    assert.deepEqual(c.request.messages.map((m) => m.role), ['system', 'user', 'user']);
    assert.equal(c.request.messages[1]!.content, flattenHistory(CONVERSATION.messages.slice(2, 2 + 2 * k)));
    assert.equal(c.request.messages[2]!.content, TASK);
    assert.equal(c.roleStructureLost, true);
    assert.ok(c.request.messages[1]!.content!.startsWith('Previous conversation:\nASSISTANT: [Making tool calls]\n  - Calling find with args: {"pattern": "*.toml", "directory": "."}\nTOOL RESPONSE: ./pyproject.toml\n'));
    assert.deepEqual(c.request.tools, FILE_TOOLS); // tools are still offered
  });
  // The flattened text only grows, call after call.
  for (let k = 2; k < run.calls.length; k++) assert.ok(run.calls[k]!.request.messages[1]!.content!.startsWith(run.calls[k - 1]!.request.messages[1]!.content!));
});
