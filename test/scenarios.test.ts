import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pyJson } from '../lib/scenarios/json';
import { statusBar, XFINITY_STATUS, XFINITY_WITH_STATUS, XFINITY_WITHOUT_STATUS } from '../lib/scenarios/xfinity';
import { VANCOUVER_MESSAGES } from '../lib/scenarios/vancouver';

test('the status bar is the brief\'s exact text', () => {
  assert.equal(
    XFINITY_STATUS,
    "<agent_status>\nCurrent State:\n- Tool call summary: 'phone_call' has been invoked 3 times (Xfinity: 3 times)\n- Constraint check: Maximum calls to Xfinity reached (3/3)\n</agent_status>",
  );
  assert.match(statusBar({ company: 'KLM', limit: 4, calls: [['KLM', 1], ['Etsy', 2]] }), /invoked 3 times \(KLM: 1 time, Etsy: 2 times\)\n- Constraint check: Calls to KLM: 1\/4, limit not reached/);
});

test('the Xfinity arms share every message but the appended status bar', () => {
  const a = XFINITY_WITHOUT_STATUS.messages;
  const b = XFINITY_WITH_STATUS.messages;
  assert.equal(b.length, a.length + 1);
  assert.deepEqual(b.slice(0, a.length), a);
  assert.equal(a.filter((m) => m.role === 'assistant' && m.tool_calls?.[0]?.function.name === 'phone_call').length, 3);
});

test('pyJson writes Python json.dumps separators', () => {
  assert.equal(pyJson({ city: 'Vancouver', unit: 'celsius', t: 13.2, ok: true, xs: [1, 2] }), '{"city": "Vancouver", "unit": "celsius", "t": 13.2, "ok": true, "xs": [1, 2]}');
  assert.equal(VANCOUVER_MESSAGES[3]!.content, pyJson({ timezone: 'America/Vancouver', datetime: '2025-09-13T05:18:47', day_of_week: 'Saturday' }));
});
