// The request validator: every error path names where and why, limits never truncate, accepted
// requests come back normalised (text parts flattened, object arguments serialised) with notes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatErrors, validateRequest, type RequestError, type ValidationResult } from '../lib/prompt/request';
import { VANCOUVER } from '../lib/scenarios/vancouver';
import { XFINITY_WITH_STATUS } from '../lib/scenarios/xfinity';

function errors(r: ValidationResult): RequestError[] {
  assert.equal(r.ok, false, 'expected the request to be rejected');
  return r.ok ? [] : r.errors;
}
function accepted(r: ValidationResult) {
  if (!r.ok) assert.fail(`expected the request to pass:\n${formatErrors(r.errors)}`);
  return r;
}
const lines = (r: ValidationResult) => formatErrors(errors(r)).split('\n');

const call = (id: string, args: unknown = '{"city": "Paris"}') => ({ id, type: 'function', function: { name: 'get_weather', arguments: args } });

test('the built-in scenarios pass unchanged, as objects and as JSON text', () => {
  for (const req of [VANCOUVER, XFINITY_WITH_STATUS]) {
    assert.deepEqual(accepted(validateRequest(req)).request, req);
    const r = accepted(validateRequest(JSON.stringify(req, null, 2)));
    assert.deepEqual(r.request, req);
    assert.deepEqual(r.notes, []);
  }
});

test('malformed JSON: truncated text and a bad token, with line and column', () => {
  const text = JSON.stringify(VANCOUVER, null, 2);
  assert.deepEqual(lines(validateRequest(text.slice(0, 200))), [
    `request: not valid JSON at line ${text.slice(0, 200).split('\n').length}, column ${text.slice(0, 200).split('\n').pop()!.length + 1}: the text ends before the JSON does (truncated?)`,
  ]);
  assert.deepEqual(lines(validateRequest('{\n  "messages": [\n    {"role": "user" "content": "hi"}\n  ]\n}')), [
    "request: not valid JSON at line 3, column 21: Expected ',' or '}' after property value",
  ]);
  assert.deepEqual(lines(validateRequest('[1, 2]')), ['request: expected a JSON object with "messages"; got an array']);
});

test('unknown role, wrong types, missing fields: all reported at once, by path', () => {
  const r = validateRequest({
    messages: [
      { role: 'system', content: 42 },
      'hello',
      { role: 'foo', content: 'x' },
      { content: 'no role' },
      { role: 'user', content: null },
      { role: 'user', content: 'ok', tool_calls: [] },
    ],
    tools: { get_weather: {} },
  });
  assert.deepEqual(lines(r), [
    'messages[0].content: expected a string, null or an array of text parts; got number 42',
    'messages[1]: expected an object with "role" and "content"; got a string "hello"',
    'messages[2].role: unknown role "foo" (expected system, user, assistant, tool)',
    'messages[3].role: missing',
    'messages[4].content: null: a user message needs text',
    'messages[5].tool_calls: only assistant messages carry tool calls',
    'tools: expected an array of {"type": "function", "function": …}; got an object',
  ]);
  assert.deepEqual(lines(validateRequest({})), ['messages: missing']);
  assert.deepEqual(lines(validateRequest({ messages: [] })), ['messages: empty: a request needs at least one message']);
});

test('tool calls and tool messages: ids, arguments that must parse, ids that must match', () => {
  const r = validateRequest({
    messages: [
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: null, tool_calls: [call('a'), { type: 'function', function: { name: 'x', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'a', content: 'sunny' },
      { role: 'assistant', content: '', tool_calls: [call('b', '{"city": "Par'), { id: 'c', type: 'retrieval', function: { name: '', arguments: 3 } }] },
      { role: 'tool', content: 'no id' },
      { role: 'tool', tool_call_id: 'zzz', content: 'wrong id' },
    ],
  });
  assert.deepEqual(lines(r), [
    'messages[1].tool_calls[1].id: missing',
    'messages[3].tool_calls[0].function.arguments: not valid JSON',
    'messages[3].tool_calls[1].type: expected "function"; got a string "retrieval"',
    'messages[3].tool_calls[1].function.name: expected a non-empty string; got a string ""',
    'messages[3].tool_calls[1].function.arguments: expected a JSON string (or an object); got number 3',
    'messages[4].tool_call_id: missing',
    'messages[5].tool_call_id: "zzz" does not match any earlier tool call (earlier ids: a)',
  ]);
  assert.deepEqual(lines(validateRequest({ messages: [{ role: 'tool', tool_call_id: 'a', content: 'x' }] })), [
    'messages[0].tool_call_id: "a" does not match any earlier tool call (no assistant message before it has tool calls)',
  ]);
});

test('tools: shape errors by path; valid tools keep their key order and extra keys', () => {
  assert.deepEqual(
    lines(validateRequest({ messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'function' }, { type: 'function', function: { description: 5, parameters: 'none' } }, 7] })),
    [
      'tools[0].function: missing',
      'tools[1].function.name: missing',
      'tools[1].function.description: expected a string; got number 5',
      'tools[1].function.parameters: expected a JSON Schema object; got a string "none"',
      'tools[2]: expected an object {type, function}; got number 7',
    ],
  );
  const fn = { parameters: { type: 'object', properties: {} }, name: 'f', strict: true };
  const r = accepted(validateRequest({ messages: [{ role: 'user', content: 'x' }], tools: [{ function: fn }] }));
  assert.deepEqual(Object.keys(r.request.tools![0]!.function), ['parameters', 'name', 'strict']);
  assert.deepEqual(r.notes, ['tools without "type" are taken as "function"']);
});

test('limits: a 5 MB tool result, a long request, too many messages — errors, never truncation', () => {
  const big = 'x'.repeat(5_000_000);
  const r = validateRequest({
    messages: [
      { role: 'user', content: 'read it' },
      { role: 'assistant', content: null, tool_calls: [call('r', '{"path": "big.log"}')] },
      { role: 'tool', tool_call_id: 'r', content: big },
    ],
  });
  assert.deepEqual(lines(r), [
    'messages[2].content: 5,000,000 characters, over the limit of 200,000 per message (nothing is truncated)',
    'request: 5,000,037 characters in all, over the limit of 1,000,000 per request (nothing is truncated)',
  ]);
  const six = Array.from({ length: 6 }, (_, i) => ({ role: 'user', content: `m${i}` }));
  assert.deepEqual(lines(validateRequest({ messages: six }, { maxMessages: 5 })), ['messages: 6 messages, over the limit of 5']);
  const ok = accepted(validateRequest({ messages: [{ role: 'user', content: big }] }, { maxMessageChars: 6e6, maxRequestChars: 6e6 }));
  assert.equal((ok.request.messages[0]!.content as string).length, 5_000_000);
});

test('errors are collected up to the cap, and the rest counted', () => {
  const bad = Array.from({ length: 30 }, () => ({ role: 'robot', content: 'x' }));
  const errs = errors(validateRequest({ messages: bad }));
  assert.equal(errs.length, 21);
  assert.equal(errs[19]!.path, 'messages[19].role');
  assert.deepEqual({ path: errs[20]!.path, message: errs[20]!.message }, { path: 'request', message: '10 more error(s) not shown' });
  // Coded for the interface's language: the count is a parameter.
  assert.deepEqual([errs[20]!.key, errs[20]!.params], ['msg.import.req.more', { n: 10 }]);

});

test('content parts are flattened; non-text parts are errors naming their path', () => {
  const r = accepted(validateRequest({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }, { type: 'text', text: 'world' }] }] }));
  assert.deepEqual(r.request.messages, [{ role: 'user', content: 'Hello\nworld' }]);
  assert.deepEqual(r.notes, ['content arrays of text parts are joined with "\\n" into one string']);
  assert.deepEqual(lines(validateRequest({ messages: [{ role: 'user', content: [{ type: 'text', text: 'see' }, { type: 'image_url', image_url: { url: 'x' } }, { type: 'text', text: 1 }] }] })), [
    'messages[0].content[1].type: "image_url" parts are not supported; only {"type": "text", "text": …} parts can be rendered',
    'messages[0].content[2].text: expected a string; got number 1',
  ]);
});

test('normalisation: object arguments serialised, reasoning kept, developer → system; unknown fields noted', () => {
  const r = accepted(
    validateRequest({
      model: 'qwen3',
      temperature: 0.2,
      stream: true,
      chat_template_kwargs: { enable_thinking: false },
      messages: [
        { role: 'developer', content: 'Be brief.' },
        { role: 'user', content: 'Weather?', name: 'ana' },
        { role: 'assistant', content: null, reasoning_content: 'Call the tool.', tool_calls: [call('w', { city: 'Paris', days: [1, 2] })] },
        { role: 'tool', tool_call_id: 'w', content: 'rain', name: 'get_weather' },
      ],
    }),
  );
  assert.deepEqual(r.request.messages, [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Weather?' },
    {
      role: 'assistant',
      content: null,
      reasoning_content: 'Call the tool.',
      tool_calls: [{ id: 'w', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Paris", "days": [1, 2]}' } }],
    },
    { role: 'tool', tool_call_id: 'w', content: 'rain' },
  ]);
  assert.equal(r.request.tools, undefined);
  assert.deepEqual(r.notes.sort(), [
    '"developer" messages are rendered as "system"',
    'ignored message fields (the chat template does not read them): name ×2',
    'ignored top-level fields (they do not change the prompt): model, temperature, stream, chat_template_kwargs',
    'the request asks for enable_thinking=false; set thinking in the prompt options to match',
    'tool-call arguments given as objects are serialised to JSON strings (", " and ": " separators)',
  ]);
});
