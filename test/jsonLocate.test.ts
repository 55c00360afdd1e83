// The located JSON parser: the same value as JSON.parse for every text JSON.parse accepts (and an error
// for every text it refuses), a path and an exact source range for every value, syntax errors with the
// line and column of the mistake, deep nesting refused instead of overflowing the stack.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  MAX_DEPTH,
  childPath,
  formatJson,
  lineColumn,
  locatePath,
  parseJsonLocated,
  parsePath,
  walkNodes,
  type JsonNode,
  type LocateResult,
} from '../lib/prompt/jsonLocate';
import { Rng as SeededRng } from '../lib/util/rng';

/** Seeded PRNG, so a failing case can be replayed. */
function rng(seed: number) {
  const g = new SeededRng(seed);
  return { next: () => g.next(), int: (n: number) => g.int(0, n - 1), pick: <T>(xs: readonly T[]): T => g.pick(xs) };
}
type Rng = ReturnType<typeof rng>;

function ok(r: LocateResult): { value: unknown; root: JsonNode } {
  if (!r.ok) assert.fail(r.error.message);
  return r;
}

/** Same value as JSON.parse: deepStrictEqual (prototypes, -0, own "__proto__") and the same key order. */
function sameAsJsonParse(text: string): void {
  let expected: unknown;
  try {
    expected = JSON.parse(text);
  } catch {
    const r = parseJsonLocated(text);
    assert.equal(r.ok, false, `JSON.parse refuses ${JSON.stringify(text.slice(0, 200))}, parseJsonLocated accepts it`);
    return;
  }
  const r = parseJsonLocated(text);
  if (!r.ok) assert.fail(`JSON.parse accepts ${JSON.stringify(text.slice(0, 200))}, parseJsonLocated says ${r.error.message}`);
  assert.deepStrictEqual(r.value, expected);
  assert.equal(JSON.stringify(r.value), JSON.stringify(expected));
}

function valueAt(value: unknown, steps: (string | number)[]): unknown {
  let v = value;
  for (const s of steps) v = (v as Record<string | number, unknown>)[s];
  return v;
}

/** Every node's range re-parses to the value at its path; its line/column agree with the text. */
function checkLocations(text: string): number {
  const { value, root } = ok(parseJsonLocated(text));
  let n = 0;
  for (const node of walkNodes(root)) {
    n++;
    const steps = parsePath(node.path);
    assert.ok(steps, `path ${node.path} parses`);
    const r = node.range;
    assert.deepStrictEqual(JSON.parse(text.slice(r.offset, r.end)), valueAt(value, steps!), `range of ${node.path}`);
    assert.deepEqual(lineColumn(text, r.offset), { line: r.line, column: r.column }, `start of ${node.path}`);
    assert.deepEqual(lineColumn(text, r.end), { line: r.endLine, column: r.endColumn }, `end of ${node.path}`);
    assert.equal(locatePath(root, node.path).node, node);
    if (node.key) assert.equal(JSON.parse(text.slice(node.key.offset, node.key.end)), steps![steps!.length - 1], `key of ${node.path}`);
    else if (node !== root) assert.equal(typeof steps![steps!.length - 1], 'number');
  }
  return n;
}

const CASES = [
  '0', '-0', '[-0, 0, -0.0, 0e5, -0E-5]', '1e400', '-1e400', '1E+2', '1e-400', '0.1', '123456789012345678901234567890',
  '9007199254740993', '5e-324', '2.2250738585072011e-308', '1.7976931348623157e308', '1.7976931348623159e308', '0.30000000000000004',
  'true', 'false', 'null', '""', '"\\u0041\\u00e9\\u4e2d\\ud83d\\ude00"', '"\\ud800"', '"\\udc00x"', '"\\uDFFF\\uD800"', '"\ud800 raw lone"',
  '"😀 中文 é \u2028 \u2029 \u007f"', '"\\"\\\\\\/\\b\\f\\n\\r\\t"', '"\\u0000"', ' \t\r\n [ \t\r\n 1 \t\r\n , \r\n 2 ] \n ', '{}', '[]', '[[]]', '{"a":{}}',
  '{"a":1,"a":2}', '{"a":{"x":1},"b":0,"a":{"y":2}}', '{"__proto__":{"polluted":1},"x":1}', '{"__proto__":null}', '{"b":1,"2":2,"a":3,"1":4,"10":5,"-1":6,"01":7}',
  '{"constructor":1,"toString":2,"hasOwnProperty":3}', '{"":0}', '["a",{"b":[null,true,false]}]',
];
const INVALID = [
  '', ' ', '{', '}', '[', ']', '[1,]', '{"a":1,}', '{"a" 1}', '{a:1}', "{'a':1}", '[01]', '[-]', '[1.]', '[.5]', '[1e]', '[1e+]', '[+1]', '[0x10]',
  'NaN', 'Infinity', '-Infinity', 'undefined', 'True', 'nul', '"abc', '"\\x"', '"\\u12"', '"\\u12G4"', '"a\nb"', '"a\tb"', '"\u0000"', '"\u001f"',
  '[1 2]', '{"a":1 "b":2}', '1 2', '{"a":1}}', '[1]]', '// c\n1', '/* c */ 1', '[1,,2]', '[,1]', '{,}', '{"a"}', '{"a":}', '\u00a01', '\ufeff1', '1\u00a0',
  '"\\', '"\\u', '"\\u00', 'tru', 'fals', '-', '--1', '1..2', '1e5.5', '[1}', '{"a":1]',
];

test('the same value as JSON.parse for hand-picked texts (numbers, escapes, surrogates, repeated and special keys)', () => {
  for (const text of CASES) {
    assert.doesNotThrow(() => JSON.parse(text), text);
    sameAsJsonParse(text);
    checkLocations(text);
  }
  const proto = ok(parseJsonLocated('{"__proto__":{"polluted":1}}')).value as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(proto), Object.prototype);
  assert.ok(Object.hasOwn(proto, '__proto__'));
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.ok(Object.is(ok(parseJsonLocated('-0')).value, -0));
  assert.equal(ok(parseJsonLocated('1e400')).value, Infinity);
});

test('refuses every text JSON.parse refuses', () => {
  for (const text of INVALID) {
    assert.throws(() => JSON.parse(text), `JSON.parse accepts ${JSON.stringify(text)}`);
    const r = parseJsonLocated(text);
    assert.equal(r.ok, false, `accepted ${JSON.stringify(text)}`);
    if (!r.ok) {
      assert.ok(r.error.offset >= 0 && r.error.offset <= text.length);
      assert.equal(r.error.message, `line ${r.error.line}, column ${r.error.column}: ${r.error.reason}`);
    }
  }
});

// ---- random values and texts ----

const STRING_CHARS = ['a', 'b', 'Z', ' ', '"', '\\', '/', '\n', '\t', '\u0000', '\u001f', '\u007f', '\u2028', 'é', '中', '😀', '\ud800', '\udfff', '{', ']', ',', ':'];
const KEYS = ['a', 'b', 'role', 'content', '', 'a.b', '[0]', '0', '10', 'request', '__proto__', 'with space', '"q"', 'é', 'tool_calls', '$x', '_'];

function randomString(r: Rng): string {
  let s = '';
  for (let i = r.int(8); i > 0; i--) s += r.pick(STRING_CHARS);
  return s;
}
function randomNumber(r: Rng): number {
  switch (r.int(5)) {
    case 0: return r.int(1000) - 500;
    case 1: return (r.next() - 0.5) * 10 ** (r.int(40) - 20);
    case 2: return -0;
    case 3: return r.pick([Number.MAX_VALUE, Number.MIN_VALUE, Number.MAX_SAFE_INTEGER, 1e21, 1e-7, 0.1]);
    default: return r.next();
  }
}
function randomValue(r: Rng, depth: number): unknown {
  const k = depth > 4 ? r.int(4) : r.int(7);
  if (k === 0) return randomString(r);
  if (k === 1) return randomNumber(r);
  if (k === 2) return r.pick([true, false]);
  if (k === 3) return null;
  if (k === 4) return Array.from({ length: r.int(5) }, () => randomValue(r, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = r.int(5); i > 0; i--) Object.defineProperty(o, r.pick(KEYS), { value: randomValue(r, depth + 1), enumerable: true, writable: true, configurable: true });
  return o;
}

/** Random valid JSON text straight from the grammar: any whitespace, any escape, any number spelling, repeated keys. */
function randomText(r: Rng, depth = 0): string {
  const ws = () => (r.int(3) ? '' : Array.from({ length: 1 + r.int(3) }, () => r.pick([' ', '\t', '\n', '\r', '\r\n'])).join(''));
  const str = () => {
    let s = '"';
    for (let i = r.int(6); i > 0; i--) {
      const c = r.int(10);
      if (c < 5) s += r.pick(['a', 'é', '中', '😀', '\ud800', '\u007f', '\u2028', ' ', '/', "'"]);
      else if (c < 8) s += '\\' + r.pick(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
      else s += '\\u' + r.pick(['0041', '00e9', 'D83D', 'de00', 'dbff', '0000', 'FFFF', '4E2d']);
    }
    return s + '"';
  };
  const num = () => {
    let s = r.int(2) ? '-' : '';
    s += r.int(3) ? String(1 + r.int(9)) + Array.from({ length: r.int(25) }, () => r.int(10)).join('') : '0';
    if (r.int(2)) s += '.' + Array.from({ length: 1 + r.int(20) }, () => r.int(10)).join('');
    if (r.int(3) === 0) s += r.pick(['e', 'E']) + r.pick(['', '+', '-']) + Array.from({ length: 1 + r.int(3) }, () => r.int(10)).join('');
    return s;
  };
  const k = depth > 5 ? r.int(5) : r.int(7);
  if (k === 0) return str();
  if (k === 1) return num();
  if (k === 2) return r.pick(['true', 'false']);
  if (k === 3) return 'null';
  if (k === 4) return r.pick(['"' + r.pick(KEYS).replace(/["\\]/g, '\\$&') + '"', num()]);
  if (k === 5) return '[' + ws() + Array.from({ length: r.int(4) }, () => ws() + randomText(r, depth + 1) + ws()).join(',') + ws() + ']';
  const keys = () => (r.int(2) ? str() : JSON.stringify(r.pick(KEYS)));
  return '{' + ws() + Array.from({ length: r.int(5) }, () => ws() + keys() + ws() + ':' + ws() + randomText(r, depth + 1) + ws()).join(',') + ws() + '}';
}

test('property: random values, JSON.stringify-ed compact, indented and tab-indented, parse to JSON.parse\'s value with exact ranges', () => {
  const r = rng(20240611);
  let nodes = 0;
  for (let i = 0; i < 600; i++) {
    const v = randomValue(r, 0);
    for (const indent of [undefined, 2, '\t']) {
      const text = JSON.stringify(v, null, indent);
      sameAsJsonParse(text);
      nodes += checkLocations(text);
    }
  }
  assert.ok(nodes > 5000, `${nodes} nodes checked`);
});

test('property: random texts from the grammar (whitespace, escapes, number spellings, repeated keys) agree with JSON.parse', () => {
  const r = rng(7);
  for (let i = 0; i < 1500; i++) {
    const text = randomText(r);
    sameAsJsonParse(text);
    checkLocations(text);
  }
});

test('property: one-character mutations of valid texts are accepted and refused exactly as JSON.parse does', () => {
  const r = rng(99);
  const alphabet = ['"', '\\', ',', ':', '[', ']', '{', '}', ' ', '\n', '0', '1', '-', '.', 'e', '+', 'u', 'a', 't', 'n', '\u0000', '\ud800'];
  let refused = 0;
  for (let i = 0; i < 3000; i++) {
    const base = randomText(r);
    const at = r.int(base.length + 1);
    const op = r.int(3);
    const text = op === 0 ? base.slice(0, at) + base.slice(at + 1) : op === 1 ? base.slice(0, at) + r.pick(alphabet) + base.slice(at) : base.slice(0, at) + r.pick(alphabet) + base.slice(at + 1);
    sameAsJsonParse(text);
    const res = parseJsonLocated(text);
    if (!res.ok) {
      refused++;
      assert.ok(res.error.offset <= text.length);
    }
  }
  assert.ok(refused > 500, `${refused} mutations refused`);
});

// ---- paths and positions ----

const DOC = `{
  "messages": [
    {"role": "system", "content": "You are terse."},
    {
      "role": "assistant",
      "content": null,
      "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}}
      ]
    }
  ],
  "tools": [{"type": "function", "function": {"name": "get_weather"}}],
  "odd key": {"a.b": [1, 2.5e3]}
}`;

test('paths in the validator grammar, with lines and columns, for a known document', () => {
  const { root } = ok(parseJsonLocated(DOC));
  const at = (path: string) => {
    const l = locatePath(root, path);
    assert.ok(l.exact, `${path} is in the document`);
    const { line, column, endLine, endColumn } = l.node.range;
    return [l.node.type, line, column, endLine, endColumn];
  };
  assert.deepEqual(at('request'), ['object', 1, 1, 14, 2]);
  assert.deepEqual(at('messages'), ['array', 2, 15, 11, 4]);
  assert.deepEqual(at('messages[0]'), ['object', 3, 5, 3, 52]);
  assert.deepEqual(at('messages[0].role'), ['string', 3, 14, 3, 22]);
  assert.deepEqual(at('messages[0].content'), ['string', 3, 35, 3, 51]);
  assert.deepEqual(at('messages[1]'), ['object', 4, 5, 10, 6]);
  assert.deepEqual(at('messages[1].content'), ['null', 6, 18, 6, 22]);
  assert.deepEqual(at('messages[1].tool_calls[0].function.arguments'), ['string', 8, 91, 8, 114]);
  assert.deepEqual(at('tools[0].function.name'), ['string', 12, 55, 12, 68]);
  assert.deepEqual(at('["odd key"]["a.b"][1]'), ['number', 13, 26, 13, 31]);
  const key = locatePath(root, 'messages[1].tool_calls').node.key!;
  assert.deepEqual([key.line, key.column, key.endColumn], [7, 7, 19]);
  // Every node's path names it.
  const paths = [...walkNodes(root)].map((n) => n.path);
  assert.ok(paths.includes('messages[1].tool_calls[0].function.name'));
  assert.ok(paths.includes('["odd key"]["a.b"][0]'));
  assert.equal(checkLocations(DOC), paths.length);
});

test('a path that names nothing in the text locates its nearest existing ancestor', () => {
  const { root } = ok(parseJsonLocated(DOC));
  const near = (path: string) => {
    const l = locatePath(root, path);
    assert.equal(l.exact, false, path);
    return [l.node.path, l.node.range.line, l.node.range.column];
  };
  assert.deepEqual(near('messages[1].tool_call_id'), ['messages[1]', 4, 5]);
  assert.deepEqual(near('messages[1].tool_calls[0].function.description'), ['messages[1].tool_calls[0].function', 8, 54]);
  assert.deepEqual(near('messages[7].role'), ['messages', 2, 15]);
  assert.deepEqual(near('messages[0].content[2].type'), ['messages[0].content', 3, 35]);
  assert.deepEqual(near('prompt'), ['request', 1, 1]);
  assert.deepEqual(near('messages..role'), ['request', 1, 1]);
});

test('paths round-trip through childPath and parsePath, whatever the keys', () => {
  for (const steps of [[], ['messages', 3, 'tool_calls', 0, 'function', 'arguments'], [0, 1], ['a.b', '', '[0]', '"q"', 'request', 'é', '__proto__'], ['request', 'request'], ['$x', 10, '_']] as (string | number)[][]) {
    let path = 'request';
    for (const s of steps) path = childPath(path, s);
    assert.deepEqual(parsePath(path), steps, path);
  }
  assert.equal(childPath('request', 'messages'), 'messages');
  assert.equal(childPath('messages', 3), 'messages[3]');
  assert.equal(childPath('messages[3]', 'tool_call_id'), 'messages[3].tool_call_id');
  assert.equal(childPath('request', 0), 'request[0]');
  assert.equal(childPath('request', 'request'), '["request"]');
  for (const bad of ['.a', 'a..b', 'a[', 'a[01]', 'a[x]', 'a["x]', 'a b', '[0]x']) assert.equal(parsePath(bad), null, bad);
});

// ---- syntax errors ----

test('syntax errors name the mistake and the line and column where it is', () => {
  const cases: [string, number, number, RegExp][] = [
    ['{\n  "messages": [\n    {"role": "user" "content": "hi"}\n  ]\n}', 3, 21, /^expected ',' or '}' after an object member; found '"'$/],
    ['{\n  "a": 1,\n}', 2, 9, /^trailing comma: no member follows this ',' before '}'$/],
    ['[\n  1,\n  2,\n]', 3, 4, /^trailing comma: no element follows this ',' before ']'$/],
    ['{\n  "a": "abc\n}', 2, 8, /not closed before the end of the line/],
    ['{"a": "abc', 1, 7, /^unterminated string/],
    ['{"a": "x\ty"}', 1, 9, /^bare control character U\+0009 in a string \(write it escaped: \\t\)$/],
    ['{"a": "x\\qy"}', 1, 9, /^invalid escape '\\q'/],
    ['["\\u12x4"]', 1, 3, /^invalid escape '\\u12x' in a string: \\u needs four hex digits$/],
    ['{"messages": [\n  {"role": "user"}\n', 3, 1, /^the text ends before the JSON does: '\[' at line 1, column 14 is not closed$/],
    ['{\n  "a": [1, 2}\n', 2, 13, /^expected ',' or '\]' after an array element; found '}'$/],
    ["{'a': 1}", 1, 2, /double quotes/],
    ['{"a": 1, b: 2}', 1, 10, /^expected a key in double quotes after ','; found 'b'/],
    ['{"a" 1}', 1, 6, /^expected ':' after the key "a"/],
    ['[1, // two\n2]', 1, 5, /comment/],
    ['[NaN]', 1, 2, /NaN or Infinity/],
    ['[True]', 1, 2, /lower case/],
    ['[012]', 1, 2, /leading zeros/],
    ['[1.x]', 1, 4, /^expected a digit after the decimal point; found 'x'$/],
    ['[1e]', 1, 4, /^expected a digit in the exponent; found '\]'$/],
    ['[-a]', 1, 3, /^expected a digit after '-'; found 'a'$/],
    ['{"a": 1}\n{"b": 2}', 2, 1, /^unexpected text after the JSON value/],
    ['', 1, 1, /^the text is empty/],
    ['\n\n', 3, 1, /^the text is empty/],
  ];
  for (const [text, line, column, reason] of cases) {
    const r = parseJsonLocated(text);
    assert.equal(r.ok, false, text);
    if (r.ok) continue;
    assert.deepEqual([r.error.line, r.error.column], [line, column], `${JSON.stringify(text)}: ${r.error.message}`);
    assert.match(r.error.reason, reason);
    assert.equal(r.error.message, `line ${line}, column ${column}: ${r.error.reason}`);
  }
});

test(`nesting deeper than ${MAX_DEPTH} levels is refused with an error, never a stack overflow`, () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  sameAsJsonParse(deep(MAX_DEPTH));
  const r = parseJsonLocated(deep(MAX_DEPTH + 1));
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.error.message, `line 1, column ${MAX_DEPTH + 1}: nested deeper than ${MAX_DEPTH} levels of objects and arrays`);
  }
  const objects = '{"a":'.repeat(MAX_DEPTH + 1) + '1' + '}'.repeat(MAX_DEPTH + 1);
  assert.match((parseJsonLocated(objects) as { error: { reason: string } }).error.reason, /nested deeper/);
  for (const text of ['['.repeat(1_000_000), '{"a":'.repeat(200_000), '[{"a":'.repeat(100_000)]) {
    const res = parseJsonLocated(text);
    assert.equal(res.ok, false);
    if (!res.ok) assert.match(res.error.reason, /nested deeper than 512/);
  }
  assert.equal(parseJsonLocated(deep(40), { maxDepth: 40 }).ok, true);
  assert.equal(parseJsonLocated(deep(41), { maxDepth: 40 }).ok, false);
});

test('a 1 MB request parses to JSON.parse\'s value, with the last message located', () => {
  const messages = Array.from({ length: 4000 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `message ${i}: ` + 'lorem ipsum dolor sit amet, '.repeat(8), extra: [i, i / 3, { n: null, t: true }] }));
  const text = JSON.stringify({ messages }, null, 2);
  assert.ok(text.length > 1_000_000, `${text.length} characters`);
  const t0 = performance.now();
  const r = ok(parseJsonLocated(text));
  const ms = performance.now() - t0;
  console.log(`parseJsonLocated: ${(text.length / 1e6).toFixed(2)} MB in ${ms.toFixed(0)} ms`);
  assert.deepStrictEqual(r.value, JSON.parse(text));
  const last = locatePath(r.root, 'messages[3999].content');
  assert.ok(last.exact);
  assert.equal(last.node.range.line, lineColumn(text, text.indexOf('"message 3999: ')).line);
  assert.equal(text.slice(last.node.range.offset, last.node.range.offset + 16), '"message 3999: l');
});

// ---- pretty-printing ----

test('formatJson pretty-prints like JSON.stringify(…, null, 2), keeps tokens as written, and refuses broken JSON', () => {
  const r = rng(5);
  for (let i = 0; i < 300; i++) {
    const v = randomValue(r, 0);
    assert.deepEqual(formatJson(JSON.stringify(v)), { ok: true, text: JSON.stringify(v, null, 2) });
    assert.deepEqual(formatJson(JSON.stringify(v, null, '\t'), 4), { ok: true, text: JSON.stringify(v, null, 4) });
  }
  for (let i = 0; i < 300; i++) {
    const text = randomText(r);
    const f = formatJson(text);
    assert.ok(f.ok);
    if (f.ok) {
      assert.deepStrictEqual(JSON.parse(f.text), JSON.parse(text));
      assert.deepEqual(formatJson(f.text), f, 'formatting is idempotent');
    }
  }
  assert.deepEqual(formatJson('{"a":1.0,"a":1e400, "b" : [ ] ,"c":{ }}'), { ok: true, text: '{\n  "a": 1.0,\n  "a": 1e400,\n  "b": [],\n  "c": {}\n}' });
  assert.deepEqual(formatJson('"a, b: {c}"'), { ok: true, text: '"a, b: {c}"' });
  const bad = formatJson('{"a": 1,}');
  assert.equal(bad.ok, false);
  if (!bad.ok) assert.equal(bad.error.column, 8);
});

test('errors where jsonc-parser reports another place or kind keep our place and wording', () => {
  // jsonc-parser reports these at the start of the token (a word, a string, a number) or at the next token;
  // the messages and places are those the hand-written parser gave.
  const cases: [string, number, number, string][] = [
    ['truex', 1, 5, "unexpected text after the JSON value (only one value is allowed); found 'x'"],
    ['{"a": nullx}', 1, 11, "expected ',' or '}' after an object member; found 'x'"],
    ['[0x10]', 1, 3, "expected ',' or ']' after an array element; found 'x10'"],
    ['[-01]', 1, 3, 'numbers cannot have leading zeros'],
    ['"a\rb"', 1, 3, 'bare control character U+000D in a string (write it escaped: \\r)'],
    ['{"' + 'k'.repeat(45) + '" 1}', 1, 50, `expected ':' after the key "${'k'.repeat(40)}…"; found '1'`],
    ['{"a": 1, "b": }', 1, 15, "expected a value (a string, number, object, array, true, false or null); found '}'"],
    ['[1, }', 1, 5, "expected a value (a string, number, object, array, true, false or null); found '}'"],
    ['{"a": 1 /* c */}', 1, 9, "expected ',' or '}' after an object member; found a comment (JSON has no comments)"],
    ['["\\u12"]', 1, 3, `invalid escape '\\u12"' in a string: \\u needs four hex digits`],
    ['"\\', 1, 1, 'unterminated string: the text ends before its closing "'],
    ['[1e+]', 1, 5, "expected a digit in the exponent; found ']'"],
    ['\ufeff{}', 1, 1, "expected a value (a string, number, object, array, true, false or null); found '\ufeff'"],
    ['{"a":1,,"b":2}', 1, 8, "expected a key in double quotes after ','; found ','"],
  ];
  for (const [text, line, column, reason] of cases) {
    const r = parseJsonLocated(text);
    assert.equal(r.ok, false, text);
    if (!r.ok) assert.deepEqual([r.error.line, r.error.column, r.error.reason], [line, column, reason], JSON.stringify(text));
  }
  // Raw "\r" is whitespace: the formatted text breaks lines with "\n" only.
  assert.deepEqual(formatJson('{\r\n\t"a" :\r\n[1,\r\n2]}'), { ok: true, text: '{\n  "a": [\n    1,\n    2\n  ]\n}' });
});
