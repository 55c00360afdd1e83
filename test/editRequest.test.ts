// The editor's check: text → JSON with positions → the request validator → each error at the line of
// the field it names (or of the object that lacks it). Valid text gives the validator's request and notes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkRequestText, errorCount, formatLocatedError, type RequestCheck } from '../lib/prompt/editRequest';
import { validateRequest } from '../lib/prompt/request';
import { VANCOUVER } from '../lib/scenarios/vancouver';
import { XFINITY_WITH_STATUS } from '../lib/scenarios/xfinity';

function failed(r: RequestCheck) {
  if (r.ok) assert.fail('expected the text to be rejected');
  return r;
}

// Line numbers on the left are the document's own (1-based).
const BROKEN = [
  /*  1 */ '{',
  /*  2 */ '  "model": "qwen3",',
  /*  3 */ '  "messages": [',
  /*  4 */ '    {"role": "system", "content": "Use the tools."},',
  /*  5 */ '    {"role": "user", "content": "Weather in Paris?"},',
  /*  6 */ '    {',
  /*  7 */ '      "role": "assistant",',
  /*  8 */ '      "content": null,',
  /*  9 */ '      "tool_calls": [',
  /* 10 */ '        {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{city: Paris}"}}',
  /* 11 */ '      ]',
  /* 12 */ '    },',
  /* 13 */ '    {',
  /* 14 */ '      "role": "tool",',
  /* 15 */ '      "content": "18 C"',
  /* 16 */ '    },',
  /* 17 */ '    {"role": "robot", "content": "beep"},',
  /* 18 */ '    {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}}]}',
  /* 19 */ '  ],',
  /* 20 */ '  "tools": [{"type": "function", "function": {"description": "no name"}}]',
  /* 21 */ '}',
].join('\n');

test('validator errors of a real invalid request land on the lines of their fields', () => {
  const r = failed(checkRequestText(BROKEN));
  assert.equal(r.syntax, false);
  assert.deepEqual(r.errors.map(formatLocatedError), [
    'line 10: messages[2].tool_calls[0].function.arguments: not valid JSON',
    'line 13: messages[3].tool_call_id: missing',
    'line 17: messages[4].role: unknown role "robot" (expected system, user, assistant, tool)',
    'line 18: messages[5].content[0].type: "image_url" parts are not supported; only {"type": "text", "text": …} parts can be rendered',
    'line 20: tools[0].function.name: missing',
  ]);
  const [args, toolId, role, part, toolName] = r.errors;
  // An exact field: the caret goes to its value, the value's span is marked.
  assert.equal(args!.exact, true);
  assert.equal(BROKEN.slice(args!.offset, args!.end), '"{city: Paris}"');
  assert.deepEqual([args!.fromLine, args!.toLine], [10, 10]);
  // A missing field: the object that lacks it, at its opening brace.
  assert.equal(toolId!.exact, false);
  assert.equal(BROKEN[toolId!.offset], '{');
  assert.deepEqual([toolId!.line, toolId!.column, toolId!.fromLine, toolId!.toLine], [13, 5, 13, 13]);
  assert.equal(BROKEN.slice(role!.offset, role!.end), '"robot"');
  assert.equal(role!.column, 14);
  assert.equal(BROKEN.slice(part!.offset, part!.end), '"image_url"');
  assert.equal(toolName!.exact, false);
  assert.equal(BROKEN.slice(toolName!.offset, toolName!.offset + 15), '{"description":');
  // The validator's notes come along (the ignored top-level "model").
  assert.ok(r.notes.some((n) => n.includes('model')), r.notes.join('\n'));
  // The same errors as the validator gives for the text itself.
  const v = validateRequest(BROKEN);
  assert.ok(!v.ok);
  if (!v.ok) assert.deepEqual(r.errors.map((e) => ({ path: e.path, message: e.message, key: e.key, params: e.params })), v.errors.map((e) => ({ path: e.path, message: e.message, key: e.key, params: e.params })));

});

test('the key line is marked with its value when they are on different lines', () => {
  const text = '{"messages": [{"role": "user", "content":\n  42}]}';
  const [e] = failed(checkRequestText(text)).errors;
  assert.deepEqual([e!.path, e!.line, e!.column, e!.fromLine, e!.toLine, e!.exact], ['messages[0].content', 2, 3, 1, 2, true]);
});

test('errors about the whole request sit at its first line; a non-object body too', () => {
  const [missing] = failed(checkRequestText('\n\n  {"tools": []}')).errors;
  assert.equal(formatLocatedError(missing!), 'line 3: messages: missing');
  assert.equal(missing!.column, 3);
  const [arr] = failed(checkRequestText('[1, 2]')).errors;
  assert.equal(formatLocatedError(arr!), 'line 1: request: expected a JSON object with "messages"; got an array');
  const [empty] = failed(checkRequestText('{\n  "messages": []\n}')).errors;
  assert.deepEqual([empty!.line, empty!.exact], [2, true]);
});

test('a JSON syntax error is one located error, and no validation runs', () => {
  const text = '{\n  "messages": [\n    {"role": "user" "content": "hi"}\n  ]\n}';
  const r = failed(checkRequestText(text));
  assert.equal(r.syntax, true);
  assert.equal(r.errors.length, 1);
  assert.equal(formatLocatedError(r.errors[0]!), "line 3, column 21: expected ',' or '}' after an object member; found '\"'");
  assert.deepEqual([r.errors[0]!.fromLine, r.errors[0]!.toLine, r.errors[0]!.offset], [3, 3, text.indexOf('"content"')]);
  // Cut after "messages[1]": the innermost bracket still open is the messages array's.
  const full = JSON.stringify(VANCOUVER, null, 2);
  const cutText = full.slice(0, full.indexOf('\n    }', full.indexOf('"role": "user"')) + 7);
  const cut = failed(checkRequestText(cutText));
  assert.equal(cut.errors[0]!.message, "the text ends before the JSON does: '[' at line 2, column 15 is not closed");
  assert.equal(cut.errors[0]!.offset, cutText.length);
});

test('valid text gives the validator\'s request and notes', () => {
  for (const req of [VANCOUVER, XFINITY_WITH_STATUS]) {
    for (const text of [JSON.stringify(req), JSON.stringify(req, null, 2)]) {
      const r = checkRequestText(text);
      assert.ok(r.ok);
      if (r.ok) {
        assert.deepEqual(r.request, req);
        assert.deepEqual(r.notes, []);
      }
    }
  }
  const r = checkRequestText('{"model": "m", "messages": [{"role": "developer", "content": "x"}, {"role": "user", "content": "y"}]}');
  assert.ok(r.ok);
  if (r.ok) {
    assert.deepEqual(r.request.messages[0], { role: 'system', content: 'x' });
    assert.equal(r.notes.length, 2);
  }
});

test('the error count includes the errors the validator only counted', () => {
  const messages = Array.from({ length: 30 }, () => ({ role: 'bot', content: 'x' }));
  const r = failed(checkRequestText(JSON.stringify({ messages }, null, 2)));
  assert.equal(r.errors.length, 21);
  assert.equal(r.errors[20]!.message, '10 more error(s) not shown');
  assert.equal(errorCount(r.errors), 30);
  assert.equal(errorCount(r.errors.slice(0, 3)), 3);
  // Line 1 "{", line 2 "\"messages\": [", then four lines a message with "role" second.
  assert.equal(r.errors[9]!.line, 3 + 9 * 4 + 1);
});
