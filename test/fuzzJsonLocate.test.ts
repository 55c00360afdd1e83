// Fuzzing the JSON locator (lib/prompt/jsonLocate, docs/FUZZING.md). Its own promise is the oracle: it
// accepts exactly the texts JSON.parse accepts (up to MAX_DEPTH levels), with the same value, and every syntax
// error has a line and column inside the text. formatJson changes whitespace only; parsePath / locatePath /
// childPath never throw, whatever path they are given.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { childPath, formatJson, lineColumn, locatePath, MAX_DEPTH, parseJsonLocated, parsePath, walkNodes } from '../lib/prompt/jsonLocate';
import { Tally, atLeast, guard, expect, NEVER_THROWS, fuzz, mutatedText, hostileJson, hostileString, jsonText, deepText, snippet } from './helpers/fuzz';

const TEXTS = [
  ...readdirSync('examples/requests').map((f) => readFileSync(`examples/requests/${f}`, 'utf8')),
  readFileSync('public/models/kvscope-tiny/config.json', 'utf8'),
  readFileSync('test/fixtures/templates/qwen3-spans.json', 'utf8').slice(0, 20_000),
  '{"a": [1, -0, 1e400, 0.5e-7, true, false, null, "\\u00e9\\ud83d\\ude00\\n"], "a": {"__proto__": {"x": 1}, "constructor": []}}',
  '  [ ]  ',
  '"just a string"',
];
/** Same value as JSON.parse gives: compared as JSON text, with -0 told apart. */
const same = (a: unknown, b: unknown) => {
  const ta = jsonText(a);
  return ta !== null ? ta === jsonText(b) && Object.is(a, b) === Object.is(b, a) : true;
};

test('fuzz: parseJsonLocated agrees with JSON.parse and places every error', { timeout: 120_000 }, (t) => {
  const tally = new Tally();
  const run = (text: string) => {
    const r = guard(tally, NEVER_THROWS, () => parseJsonLocated(text)).value!;
    let native: { ok: true; value: unknown } | { ok: false };
    try {
      native = { ok: true, value: JSON.parse(text) };
    } catch {
      native = { ok: false };
    }
    if (r.ok) {
      expect(native.ok ? null : 'accepted text that JSON.parse refuses');
      expect(native.ok && same(r.value, native.value) ? null : 'a different value from JSON.parse');
      let n = 0;
      for (const node of walkNodes(r.root)) {
        if (n++ > 200) break;
        expect(node.range.offset >= 0 && node.range.end <= text.length && node.range.offset < node.range.end ? null : `node ${node.path} outside the text`);
        const back = locatePath(r.root, node.path);
        expect(back.exact && back.node === node ? null : `locatePath(${JSON.stringify(node.path)}) does not find its own node`);
      }
    } else {
      const e = r.error;
      const deep = /nested deeper than/.test(e.reason);
      expect(!native.ok || deep ? null : `refused text that JSON.parse accepts: ${e.message}`);
      expect(e.offset >= 0 && e.offset <= text.length && e.line >= 1 && e.column >= 1 ? null : `error outside the text: ${e.message}`);
      const lc = lineColumn(text, e.offset);
      expect(lc.line === e.line && lc.column === e.column ? null : 'line and column disagree with the offset');
    }
  };
  fuzz(7000, fc.constantFrom(...TEXTS.keys()).chain((i) => mutatedText(TEXTS[i]!)), run);
  fuzz(2500, hostileJson(['messages', 'role', 'content', 'a', 'b'], 5), fc.constantFrom(0, 1, 2), (v, space) => {
    const text = jsonText(v, space);
    if (text !== null) run(text);
  });
  fuzz(1500, fc.array(fc.oneof(snippet, fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '1', 'true', '"k"')), { maxLength: 30 }), (parts) => run(parts.join('')));
  t.diagnostic(tally.summary('parseJsonLocated'));
  atLeast(tally, 10_000);
});

test('fuzz: formatJson changes whitespace only', { timeout: 120_000 }, (t) => {
  const tally = new Tally();
  fuzz(6000, fc.constantFrom(...TEXTS.keys()).chain((i) => mutatedText(TEXTS[i]!)), fc.constantFrom(0, 2, 4), (text, indent) => {
    const r = guard(tally, NEVER_THROWS, () => formatJson(text, indent)).value!;
    if (!r.ok) return;
    const strip = (s: string) => s.replace(/\s+/g, '');
    // Outside strings only whitespace changes, so with all whitespace removed the two texts agree.
    expect(strip(r.text) === strip(text.replaceAll('\r', ' ')) ? null : 'formatting changed more than whitespace');
    expect(same(JSON.parse(r.text), JSON.parse(text)) ? null : 'formatting changed the value');
  });
  fuzz(4500, hostileJson(['a', 'b', 'messages'], 5), (v) => {
    const text = jsonText(v);
    if (text !== null) guard(tally, NEVER_THROWS, () => formatJson(text));
  });
  t.diagnostic(tally.summary('formatJson'));
  atLeast(tally, 10_000);
});

test('fuzz: parsePath, childPath and locatePath on any path', { timeout: 120_000 }, (t) => {
  const tally = new Tally();
  const doc = parseJsonLocated(TEXTS[1]!);
  assert.ok(doc.ok);
  const piece = fc.oneof(fc.constantFrom('.', '[', ']', '"', '\\', '[0]', '[01]', '["a"]', '["\\u00e9"]', 'messages', 'request', '__proto__', 'constructor', '$', '_', '0', '-1', '[9999999999999999999999]'), fc.string({ maxLength: 4 }), snippet);
  fuzz(5000, fc.array(piece, { maxLength: 12 }), (parts) => {
    const path = parts.join('');
    const steps = guard(tally, NEVER_THROWS, () => parsePath(path)).value;
    guard(tally, NEVER_THROWS, () => locatePath(doc.root, path));
    if (steps) {
      // A path that parses is rebuilt by childPath into one that parses to the same steps.
      const again = steps.reduce<string>((p, s) => childPath(p, s), 'request');
      expect(JSON.stringify(parsePath(again)) === JSON.stringify(steps) ? null : `childPath does not rebuild ${JSON.stringify(path)}`);
    }
  });
  fuzz(5000, fc.array(fc.oneof(fc.nat(), hostileString), { maxLength: 8 }), (keys) => {
    const path = guard(tally, NEVER_THROWS, () => keys.reduce<string>((p, k) => childPath(p, k), 'request')).value!;
    const steps = guard(tally, NEVER_THROWS, () => parsePath(path)).value;
    expect(JSON.stringify(steps) === JSON.stringify(keys) ? null : `parsePath(childPath(…)) lost a key: ${path.slice(0, 200)}`);
  });
  t.diagnostic(tally.summary('parsePath / childPath / locatePath'));
  atLeast(tally, 10_000);
});

test('fuzz regressions: the locator on deep, long and odd text', { timeout: 60_000 }, (t) => {
  const tally = new Tally();
  for (const text of [deepText(MAX_DEPTH + 1, 'array'), deepText(100_000, 'object'), '['.repeat(1_000_000), '"' + 'a'.repeat(2_000_000), '\n'.repeat(1_000_000) + '{', '{"a":1}' + ' '.repeat(1_000_000) + 'x']) {
    const r = guard(tally, NEVER_THROWS, () => parseJsonLocated(text)).value!;
    assert.equal(r.ok, false);
  }
  // jsonc-parser's formatter wrote "undefined" into the text at 100 levels with indent 2 (50 with indent 4).
  for (const [indent, depth] of [[2, 100], [4, 50], [8, 30], [1, 200], [2, 511]]) {
    const text = deepText(depth!, 'array');
    const f = guard(tally, NEVER_THROWS, () => formatJson(text, indent)).value!;
    assert.ok(f.ok);
    assert.equal(f.text, JSON.stringify(JSON.parse(text), null, indent));
  }
  // An indent of 0 is compact, as in JSON.stringify (jsonc-parser took it for 4).
  assert.deepEqual(formatJson('{ "a" : [ 1 , 2 ] }', 0), { ok: true, text: '{"a":[1,2]}' });
  // An index beyond 2^53 parsed to 1e22, which childPath wrote back as "[1e+22]".
  assert.equal(parsePath('[9999999999999999999999]'), null);
  assert.deepEqual(parsePath('messages[9007199254740991].role'), ['messages', 9007199254740991, 'role']);
  for (const path of ['a.'.repeat(200_000) + 'a', '["' + 'a'.repeat(1_000_000) + '"]', '[0]'.repeat(200_000), 'a' + '["x"]'.repeat(100_000)]) {
    guard(tally, NEVER_THROWS, () => parsePath(path));
  }
  t.diagnostic(tally.summary('jsonLocate, fixed cases'));
});
