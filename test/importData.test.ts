// lib/io/importData: one entry point decides what a user brought (request body, run log, attention) and reads it
// with that format's reader; hostile inputs give clear errors. lib/state/addScenario: an imported request
// becomes a NEW named scenario, never over the user's own.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { importData, kindOfValue, nameFromSource, hintFromName } from '../lib/io/importData';
import { addScenario } from '../lib/state/addScenario';
import { MAX_CUSTOM, type CustomScenario } from '../lib/state/store';
import { writeKvscopeAttention, type ImportedAttention } from '../lib/io/attention/index';
import { MAX_INPUT_CHARS, serializeRunLog } from '../lib/io/runlog';

const CAPTURE = readFileSync('test/fixtures/runlog/translation-single-agent.page.txt', 'utf8');

const request = {
  model: 'gpt-4o',
  temperature: 0.2,
  messages: [
    { role: 'system', content: 'You are helpful.' },
    { role: 'user', content: 'Weather in 北京?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"北京"}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: '{"temp": 3}' },
  ],
  tools: [{ type: 'function', function: { name: 'get_weather', description: 'd', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
};

function attention(): ImportedAttention {
  const T = 3;
  const data = new Float32Array([1, NaN, NaN, 0.5, 0.5, NaN, 0.2, 0.3, 0.5]);
  return { source: 'kvscope-attention', tokens: ['a', 'b', 'c'], layers: [{ layer: 0, label: 'layer 0', heads: 'mean', queries: T, keys: T, data, queryPositions: [0, 1, 2] }], meta: { model: 'm' }, notes: [], calls: [] };
}

test('a request body is recognised, read by the request validator, and unknown fields are noted', () => {
  const r = importData(JSON.stringify(request));
  assert.ok(r.ok && r.kind === 'request', JSON.stringify(r));
  assert.equal(r.request.messages.length, 4);
  assert.match(r.notes.join('\n'), /ignored top-level fields.*model.*temperature/);
  // A one-line body is pretty-printed for the editor; the same request comes back from the text.
  assert.ok(r.text.split('\n').length > 10);
  assert.deepEqual(JSON.parse(r.text), request);
  // Round trip: the validated request, written out and imported again, is the same request with no notes.
  const again = importData(JSON.stringify(r.request));
  assert.ok(again.ok && again.kind === 'request');
  assert.deepEqual(again.request, r.request);
  assert.deepEqual(again.notes, []);
});

test('request errors name the path and the line', () => {
  const bad = structuredClone(request);
  bad.messages[2]!.tool_calls![0]!.function.arguments = '{"city": 北京';
  const r = importData(JSON.stringify(bad, null, 2));
  assert.ok(!r.ok && r.kind === 'request');
  assert.match(r.error, /line \d+: messages\[2\]\.tool_calls\[0\]\.function\.arguments: not valid JSON/);
  assert.ok(r.text, 'the text is kept so the user can open it in the editor');
  // Unknown role, wrong type.
  const r2 = importData(JSON.stringify({ messages: [{ role: 'wizard', content: 'x' }, { role: 'user', content: 5 }] }));
  assert.ok(!r2.ok);
  assert.match(r2.error, /messages\[0\]\.role/);
  assert.match(r2.error, /messages\[1\]\.content/);
});

test('truncated JSON: a located syntax error, whatever the kind', () => {
  const text = JSON.stringify(request, null, 2);
  const r = importData(text.slice(0, text.length / 2));
  assert.ok(!r.ok);
  assert.match(r.error, /line \d+, column \d+/);
  const unknown = importData('{"a": [1, 2');
  assert.ok(!unknown.ok && unknown.kind === null);
  assert.match(unknown.error, /not valid JSON: line 1, column \d+/);
});

test('hostile inputs: a 5 MB string, HTML in content, empty input, binary bytes, other JSON', () => {
  const huge = importData(JSON.stringify({ messages: [{ role: 'user', content: 'x'.repeat(5 * 1024 * 1024) }] }));
  assert.ok(!huge.ok);
  assert.match(huge.error, /messages\[0\]/);
  assert.match(huge.error, /200,000|limit|exceed/i);
  // HTML and script are data: kept verbatim (rendering them as text is the views' job, checked in the browser).
  const html = '<img src=x onerror=alert(1)><script>alert(2)</script>';
  const h = importData(JSON.stringify({ messages: [{ role: 'user', content: html }] }));
  assert.ok(h.ok && h.kind === 'request');
  assert.equal(h.request.messages[0]!.content, html);
  for (const empty of ['', '   \n', '\uFEFF']) {
    const e = importData(empty);
    assert.ok(!e.ok);
    assert.match(e.error, /empty/);
  }
  const bin = importData(new Uint8Array([0xff, 0xfe, 0x00, 0x81, 0x12]));
  assert.ok(!bin.ok);
  assert.match(bin.error, /neither UTF-8 text nor a \.safetensors file/);
  const other = importData('{"hello": 1, "world": 2}');
  assert.ok(!other.ok);
  assert.match(other.error, /top level: hello, world/);
  const limit = importData('{"messages": []}', null, 10);
  assert.ok(!limit.ok);
  assert.match(limit.error, /larger than the limit of 10 B/);
});

test('run logs: the page capture, the raw JSON and a plain list', () => {
  const cap = importData(CAPTURE);
  assert.ok(cap.ok && cap.kind === 'runlog');
  assert.equal(cap.form, 'page-capture');
  assert.equal(cap.log.calls.length, 26);
  assert.equal(Math.max(...cap.log.calls.map((c) => c.promptTokens)), 94_355);
  // Round trip: serialised back to raw JSON, imported again, the same calls.
  const raw = importData(serializeRunLog(cap.log));
  assert.ok(raw.ok && raw.kind === 'runlog');
  assert.equal(raw.form, 'result-json');
  assert.deepEqual(raw.log.calls, cap.log.calls);
  const list = importData(JSON.stringify([{ agent: 'a', prompt_tokens: 10, completion_tokens: 2, note: 'n' }]));
  assert.ok(list.ok && list.kind === 'runlog' && list.log.calls.length === 1);
  // The run-log reader's own size limit holds on this path too.
  const padded = importData(JSON.stringify([{ agent: 'a', prompt_tokens: 10, completion_tokens: 2 }]) + ' '.repeat(MAX_INPUT_CHARS));
  assert.ok(!padded.ok && padded.kind === 'runlog');
  assert.match(padded.error, /more than the limit of 20,971,520/);
  const broken = importData(CAPTURE.slice(0, CAPTURE.indexOf('"prompt_tokens": 13162')));
  assert.ok(!broken.ok && broken.kind === 'runlog');
  assert.match(broken.error, /^run log: /);
});

test('attention: kvscope JSON, kvscope safetensors bytes and a trajectory', () => {
  const a = attention();
  const json = importData(writeKvscopeAttention(a, 'json'));
  assert.ok(json.ok && json.kind === 'attention');
  assert.deepEqual(json.attention.tokens, a.tokens);
  const st = importData(writeKvscopeAttention(a, 'safetensors'));
  assert.ok(st.ok && st.kind === 'attention');
  assert.equal(st.attention.layers[0]!.queries, 3);
  assert.ok(Math.abs(st.attention.layers[0]!.data[7]! - 0.3) < 1e-7);
  const traj = importData(JSON.stringify({ tokens: ['a', 'b'], attention_data: { tokens: ['a', 'b'], attention_matrix: [[1], [0.4, 0.6]], output_only: false } }));
  assert.ok(traj.ok && traj.kind === 'attention');
  assert.equal(traj.attention.source, 'attention_visualization');
  const bad = importData(JSON.stringify({ format: 'kvscope-attention', version: 1, tokens: 'abc' }));
  assert.ok(!bad.ok && bad.kind === 'attention');
  assert.match(bad.error, /^attention: tokens: expected a list/);
});

test('kind detection looks at the top level only', () => {
  assert.equal(kindOfValue({ messages: [] }), 'request');
  assert.equal(kindOfValue({ value: { result: { tracker_calls: [] } } }), 'runlog');
  assert.equal(kindOfValue({ result: { tracker_calls: [] } }), 'runlog');
  assert.equal(kindOfValue([{ prompt_tokens: 1 }]), 'runlog');
  assert.equal(kindOfValue({ llm_calls: [] }), 'attention');
  assert.equal(kindOfValue({ x: { messages: [] } }), null);
  assert.equal(kindOfValue([]), null);
  assert.equal(hintFromName('run.safetensors'), 'attention');
  assert.equal(nameFromSource('http://127.0.0.1:8080/data/my%20agent.json?x=1', 'import'), 'my agent');
  assert.equal(nameFromSource('', 'import'), 'import');
});

test('addScenario: a new named scenario, identical ones selected, never over the user’s own, refused when full', () => {
  const mine: CustomScenario = { id: 'a', name: 'agent (imported)', text: 'my unsaved edit', lastGood: { messages: [{ role: 'user', content: 'hi' }] }, createdAt: 1 };
  const req = { messages: [{ role: 'user' as const, content: 'new' }] };
  const r = addScenario([mine], { name: 'agent', label: 'imported', request: req, now: 5, idPrefix: 'i', action: 'import this request' });
  assert.ok(r.ok);
  assert.equal(r.custom.length, 2);
  assert.deepEqual(r.custom[0], mine, 'the existing scenario is untouched');
  assert.equal(r.custom[1]!.name, 'agent (imported 2)');
  assert.equal(r.scenario, `custom:${r.created}`);
  const again = addScenario(r.custom, { name: 'other', label: 'imported', request: { messages: [{ content: 'new', role: 'user' }] } as never, now: 6, idPrefix: 'i', action: 'import this request' });
  assert.ok(again.ok);
  assert.equal(again.created, null);
  assert.equal(again.scenario, r.scenario);
  assert.match(again.notes.join(), /already saved as "agent \(imported 2\)"/);
  // Text that does not validate yet: always a new scenario with no last good request, never matched to another.
  const draft = addScenario(r.custom, { name: 'agent', label: 'imported', request: null, text: '{"messages": [', now: 8, idPrefix: 'i', action: 'import this request' });
  assert.ok(draft.ok && draft.created);
  assert.equal(draft.custom.length, 3);
  assert.deepEqual({ ...draft.custom[2]!, id: '' }, { id: '', name: 'agent (imported 3)', text: '{"messages": [', lastGood: null, createdAt: 8 });
  const full = Array.from({ length: MAX_CUSTOM }, (_, i): CustomScenario => ({ id: `c${i}`, name: `c${i}`, text: '', lastGood: null, createdAt: i }));
  const refused = addScenario(full, { name: 'x', label: 'imported', request: req, now: 7, idPrefix: 'i', action: 'import this request' });
  assert.ok(!refused.ok);
  assert.match(refused.error, /already have 50 scenarios.*delete one to import this request/);
});
