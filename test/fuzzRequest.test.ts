// Fuzzing the request import (docs/FUZZING.md): validateRequest on values and text, the editor's
// checkRequestText, and importData, which sniffs pasted or dropped text and bytes. Bases: the example requests,
// the built-in scenarios, and request shapes of other APIs (OpenAI Responses, Anthropic Messages, a bare
// message list), which must be refused with a path-named error, never a crash.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { validateRequest, type ValidationResult } from '../lib/prompt/request';
import { checkRequestText } from '../lib/prompt/editRequest';
import { parsePath } from '../lib/prompt/jsonLocate';
import { importData, kindOfValue, nameFromSource } from '../lib/io/importData';
import { VANCOUVER } from '../lib/scenarios/vancouver';
import { XFINITY_WITH_STATUS } from '../lib/scenarios/xfinity';
import { Tally, atLeast, guard, expect, NEVER_THROWS, fuzz, mutatedValue, mutatedText, mutatedBytes, hostileJson, hostileString, bigString, deepValue, setOwn, jsonText, FUZZ_SEED, INVALID_UTF8 } from './helpers/fuzz';

const EXAMPLES = readdirSync('examples/requests').map((f) => readFileSync(`examples/requests/${f}`, 'utf8'));
const OTHER_APIS: unknown[] = [
  // OpenAI Responses
  { model: 'gpt-4o', input: [{ role: 'user', content: [{ type: 'input_text', text: 'hi' }] }], instructions: 'be brief', tools: [{ type: 'function', name: 'f', parameters: {} }] },
  // Anthropic Messages
  { model: 'claude', system: 'be brief', max_tokens: 100, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image', source: { type: 'base64', data: 'AAAA' } }] }, { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: { a: 1 } }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] }], tools: [{ name: 'f', description: 'd', input_schema: { type: 'object' } }] },
  // A bare list of messages
  [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }],
];
const BASES: unknown[] = [VANCOUVER, XFINITY_WITH_STATUS, ...EXAMPLES.map((t) => JSON.parse(t) as unknown), ...OTHER_APIS];
const BASE_TEXTS = [...EXAMPLES, ...BASES.map((b) => JSON.stringify(b)), ...BASES.slice(0, 3).map((b) => JSON.stringify(b, null, 1))];

const FIELDS = ['messages', 'tools', 'role', 'content', 'tool_calls', 'tool_call_id', 'reasoning_content', 'function', 'name', 'arguments', 'type', 'text', 'id', 'description', 'parameters', 'system', 'user', 'assistant', 'tool', 'developer', 'chat_template_kwargs', 'enable_thinking', 'input', 'model'];

/** validateRequest's errors: each names a path of the validator's grammar (or `request`) and says why. */
function checkValidation(r: ValidationResult): string | null {
  if (r.ok) return r.request.messages.length > 0 ? null : 'accepted a request without messages';
  if (r.errors.length === 0) return 'rejected without an error';
  for (const e of r.errors) {
    if (!e.message) return `empty message at ${e.path}`;
    if (parsePath(e.path) === null && e.path !== 'prompt') return `error path ${JSON.stringify(e.path)} is not a key path`;
  }
  return null;
}

const anyBase = fc.constantFrom(...BASES.keys());
const anyText = fc.constantFrom(...BASE_TEXTS.keys());

test('fuzz: validateRequest on values and text', { timeout: 120_000 }, (t) => {
  const tally = new Tally();
  const validate = (input: unknown) => expect(checkValidation(guard(tally, NEVER_THROWS, () => validateRequest(input)).value!));
  // Mutated valid requests (wrong types, deleted fields, prototype keys at every level, deep values).
  fuzz(5000, anyBase.chain((i) => mutatedValue(BASES[i], FIELDS)), validate);
  // Random request-shaped values.
  fuzz(2500, hostileJson(FIELDS, 5), validate);
  // Mutated text: truncations, duplicate keys, bad escapes, lone surrogates, deep nesting.
  fuzz(3000, anyText.chain((i) => mutatedText(BASE_TEXTS[i]!)), validate);
  t.diagnostic(tally.summary('validateRequest'));
  atLeast(tally, 10_000);
});

test('fuzz: checkRequestText places every error in the text', { timeout: 120_000 }, (t) => {
  const tally = new Tally();
  fuzz(6000, anyText.chain((i) => mutatedText(BASE_TEXTS[i]!)), (text) => {
    const r = guard(tally, NEVER_THROWS, () => checkRequestText(text)).value!;
    if (r.ok) return;
    expect(r.errors.length ? null : 'no errors');
    for (const e of r.errors) {
      expect(e.line >= 1 && e.column >= 1 && e.offset >= 0 && e.offset <= text.length ? null : `error placed outside the text: line ${e.line}, column ${e.column}, offset ${e.offset}`);
      expect(e.message ? null : 'empty message');
    }
  });
  fuzz(4000, hostileJson(FIELDS, 5), fc.boolean(), (v, pretty) => {
    // Too deep for JSON.stringify itself: deep text of the same kind.
    const text = jsonText(v, pretty ? 2 : undefined) ?? '{"messages": ' + '['.repeat(5000) + ']'.repeat(5000) + '}';
    const r = guard(tally, NEVER_THROWS, () => checkRequestText(text)).value!;
    if (!r.ok) for (const e of r.errors) expect(e.line >= 1 && e.offset <= text.length ? null : `bad place ${e.line}:${e.column}`);
  });
  t.diagnostic(tally.summary('checkRequestText'));
  atLeast(tally, 10_000);
});

/** importData's refusals: a sentence that says where (a line, a path) or what the whole input is. */
const IMPORT_PLACE = /line \d+|[\w\]]: |top level|input|UTF-8|\.safetensors|nothing to import|expected|limit/;

test('fuzz: importData sniffs text and bytes without throwing', { timeout: 120_000 }, (t) => {
  const tally = new Tally();
  const other = new Tally();
  const run = (input: string | Uint8Array) => {
    const r = guard(tally, NEVER_THROWS, () => importData(input)).value!;
    if (!r.ok) expect(r.error && IMPORT_PLACE.test(r.error) ? null : `refusal without a place: ${r.error.slice(0, 300)}`);
  };
  fuzz(5000, anyText.chain((i) => mutatedText(BASE_TEXTS[i]!)), run);
  const bytes = BASE_TEXTS.map((s) => new TextEncoder().encode(s));
  fuzz(3000, fc.constantFrom(...bytes.keys()).chain((i) => mutatedBytes(bytes[i]!)), run);
  fuzz(3000, hostileJson([...FIELDS, 'tracker_calls', 'attention_data', 'llm_calls', 'format', 'prompt_tokens', 'result', 'value'], 4), (v) => {
    guard(other, NEVER_THROWS, () => kindOfValue(v));
    const text = jsonText(v);
    if (text !== null) run(text);
  });
  // File names and ?url= values become scenario names.
  fuzz(1000, fc.oneof(hostileString, fc.constantFrom('a.json', 'https://x.test/a/b%ZZ.json?q#f', '%E0%A4%A.json', '..\\..\\x.safetensors', '/'.repeat(1000))), (name) => {
    const r = guard(other, NEVER_THROWS, () => nameFromSource(name, 'imported')).value!;
    expect(r.length > 0 && r.length <= 120 ? null : `name of ${r.length} characters`);
  });
  t.diagnostic(tally.summary('importData'));
  t.diagnostic(other.summary('kindOfValue + nameFromSource'));
  atLeast(tally, 10_000);
});

test('fuzz regressions: the request readers on extreme inputs', { timeout: 60_000 }, (t) => {
  const tally = new Tally();
  const validate = (input: unknown) => {
    const r = guard(tally, NEVER_THROWS, () => validateRequest(input)).value!;
    expect(checkValidation(r));
    return r;
  };
  const errorsOf = (r: ValidationResult) => (r.ok ? [] : r.errors.map((e) => `${e.path}: ${e.message}`));
  // Tool parameters and call arguments 10,000 levels deep overflowed the stack in structuredClone / pyJson.
  const deepParams = { messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'f', parameters: deepValue(10_000, 'object') } }] };
  assert.deepEqual(errorsOf(validate(deepParams)), ['tools[0].function: nested deeper than 512 levels of objects and arrays']);
  const deepArgs = { messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: deepValue(10_000, 'object') } }] }] };
  assert.deepEqual(errorsOf(validate(deepArgs)), ['messages[0].tool_calls[0].function.arguments: nested deeper than 512 levels of objects and arrays']);
  // 507 levels under a tool's function (512 in all) still pass, as in the editor's JSON reader.
  assert.equal(validate({ messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'f', parameters: deepValue(507, 'object') } }] }).ok, true);
  // 100,000 messages answering 50,000 tool calls: each answer was looked up in an array (4.7 s), now a Set.
  const messages: unknown[] = [];
  for (let i = 0; i < 50_000; i++) messages.push({ role: 'assistant', content: null, tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'f', arguments: '{}' } }] }, { role: 'tool', tool_call_id: `c${i}`, content: 'ok' });
  assert.equal(validate({ messages }, ).ok, false); // over maxMessages, but answered quickly
  assert.equal(guard(tally, NEVER_THROWS, () => validateRequest({ messages }, { maxMessages: 200_000, maxRequestChars: 1e9 })).value!.ok, true);
  const protoMsg: Record<string, unknown> = { role: 'user', content: 'hi' };
  setOwn(protoMsg, '__proto__', { role: 'tool' });
  assert.equal(validate({ messages: [protoMsg] }).ok, true);
  for (const c of [
    { messages: new Array(3000).fill({ role: 'user', content: 'x' }) },
    { messages: [{ role: 'user', content: 'x'.repeat(5_000_000) }] },
    '['.repeat(100_000),
    '{"messages":' + '['.repeat(10_000) + ']'.repeat(10_000) + '}',
    '{"messages":[{"role":"user","content":"\\ud800"}],"messages":[]}',
  ]) {
    validate(c);
    if (typeof c === 'string') guard(tally, NEVER_THROWS, () => checkRequestText(c));
  }
  for (const bad of INVALID_UTF8) guard(tally, NEVER_THROWS, () => importData(new Uint8Array([0x7b, ...bad, 0x7d])));
  const huge = fc.sample(bigString(1_100_000), { seed: FUZZ_SEED, numRuns: 3 });
  for (const s of huge) guard(tally, NEVER_THROWS, () => importData(JSON.stringify({ messages: [{ role: 'user', content: s }] })));
  t.diagnostic(tally.summary('request readers, fixed cases'));
});
