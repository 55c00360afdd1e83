// Fuzzing share-link payloads (lib/io/share, docs/FUZZING.md): checkPayload on mutated payload values,
// decodeShare on fragments made from mutated JSON text and on mutated fragments (cut, %-escapes, stray
// characters), zip bombs and deep JSON inside a link, and applyShare on whatever decodes. decodeShare and
// applyShare never throw; a refusal is one sentence that starts "this share link cannot be opened:" and
// names the field (`scenario.request.messages[0].role`) or what is wrong with the link as a whole.
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { test } from 'node:test';
import fc from 'fast-check';
import { applyShare, checkPayload, decodeShare, toBase64Url, type SharePayload } from '../lib/io/share';
import { defaultState, MAX_CUSTOM, type PersistedState } from '../lib/state/store';
import { VANCOUVER } from '../lib/scenarios/vancouver';
import { Tally, atLeast, guard, guardAsync, expect, NEVER_THROWS, fuzz, fuzzAsync, mutatedValue, mutatedText, hostileJson, jsonText, snippet, deepText, setOwn } from './helpers/fuzz';

const NOW = 1_700_000_000_000;
const builtIn: SharePayload = { v: 1, model: 'kvscope-tiny-sink', tab: 'kv', view: { layer: 2, head: 3, scale: 'log', gamma: 0.7, colormap: 'magma', hideSink: true, pinned: [0, 5] }, scenario: { ref: 'xfinity:with-status' }, selectedToken: 17, context: 2 };
const custom: SharePayload = { ...builtIn, scenario: { name: 'my case', request: VANCOUVER }, selectedToken: undefined, context: 'all' };
const BASES: unknown[] = [builtIn, JSON.parse(JSON.stringify(custom))];
const TEXTS = BASES.map((b) => JSON.stringify(b));
const FIELDS = ['v', 'model', 'tab', 'view', 'scenario', 'selectedToken', 'context', 'ref', 'name', 'request', 'layer', 'head', 'scale', 'gamma', 'colormap', 'hideSink', 'pinned', 'messages', 'role', 'content', 'tools', 'kv', 'attention', 'mean', 'log', 'all', 'last', 'xfinity:with-status', 'kvscope-tiny'];

const fragmentOf = (text: string | Uint8Array) => `#s=${toBase64Url(new Uint8Array(deflateRawSync(typeof text === 'string' ? Buffer.from(text) : text)))}`;
const FRAGMENTS = TEXTS.map((t) => fragmentOf(t));

const full: PersistedState = (() => {
  const s = defaultState();
  s.custom = Array.from({ length: MAX_CUSTOM }, (_, i) => ({ id: `c${i}`, name: `c${i}`, text: '{}', lastGood: { messages: [{ role: 'user', content: `x${i}` }] }, createdAt: i }));
  return s;
})();
const STATES = [defaultState(), full];

const REFUSAL = /^this share link cannot be opened: \S/;

/** Applies a payload that decoded, to an empty and a full store: a new scenario, or a refusal when full. */
function apply(tally: Tally, payload: SharePayload): void {
  for (const state of STATES) {
    const r = guard(tally, NEVER_THROWS, () => applyShare(state, payload, NOW)).value!;
    if (!r.ok) expect(r.error ? null : 'empty refusal');
    else expect(r.state.custom.length <= MAX_CUSTOM ? null : `applyShare kept ${r.state.custom.length} scenarios`);
  }
}

test('fuzz: checkPayload and applyShare on mutated payloads', { timeout: 120_000 }, (t) => {
  const tally = new Tally();
  const check = (v: unknown) => {
    const r = guard(tally, NEVER_THROWS, () => checkPayload(v)).value!;
    if (r.ok) apply(tally, r.payload);
    else expect(r.error && !/\[object Object\]/.test(r.error) ? null : `unclear refusal: ${r.error}`);
  };
  fuzz(4500, fc.constantFrom(...BASES.keys()).chain((i) => mutatedValue(BASES[i], FIELDS)), check);
  fuzz(2000, hostileJson(FIELDS, 5), check);
  t.diagnostic(tally.summary('checkPayload + applyShare'));
  atLeast(tally, 10_000);
});

test('fuzz: decodeShare on links made from mutated JSON and on mutated links', { timeout: 180_000 }, async (t) => {
  const tally = new Tally();
  const decode = async (fragment: string) => {
    const r = (await guardAsync(tally, NEVER_THROWS, () => decodeShare(fragment))).value!;
    if (r.ok) apply(tally, r.payload);
    else expect(REFUSAL.test(r.error) ? null : `refusal not worded as one: ${r.error.slice(0, 200)}`);
  };
  // JSON text mutated, then compressed as the encoder would (the link itself is well formed).
  await fuzzAsync(3000, fc.constantFrom(...TEXTS.keys()).chain((i) => mutatedText(TEXTS[i]!)), (text) => decode(fragmentOf(text)));
  // Values mutated (prototype keys at every level, wrong types), then compressed.
  await fuzzAsync(2000, fc.constantFrom(...BASES.keys()).chain((i) => mutatedValue(BASES[i], FIELDS)), async (v) => {
    const text = jsonText(v, undefined, 1_000_000);
    if (text !== null) await decode(fragmentOf(text));
  });
  // The link mutated: cut, characters inserted or replaced (%-escapes, '=', '&', '#', non-base64), bytes flipped.
  const linkOps = fc.array(
    fc.oneof(
      fc.record({ op: fc.constant('cut' as const), at: fc.nat() }),
      fc.record({ op: fc.constant('insert' as const), at: fc.nat(), text: fc.oneof(fc.constantFrom('%', '%2', '%ZZ', '%E0%A4%A', '%00', '=', '==', '&', '&s=', '#', '?', ' ', '+', '/', '-', '_', 'A', '\uD800', '😀'), snippet) }),
      fc.record({ op: fc.constant('swap' as const), at: fc.nat(), char: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_') }),
    ),
    { minLength: 1, maxLength: 4 },
  );
  await fuzzAsync(3000, fc.constantFrom(...FRAGMENTS.keys()), linkOps, (i, ops) => {
    let f = FRAGMENTS[i]!;
    for (const o of ops) {
      const at = 3 + (o.at % Math.max(1, f.length - 2));
      if (o.op === 'cut') f = f.slice(0, at);
      else if (o.op === 'insert') f = f.slice(0, at) + o.text + f.slice(at);
      else f = f.slice(0, at) + o.char + f.slice(at + 1);
    }
    return decode(f);
  });
  // Random bytes, compressed: not UTF-8, not JSON, or JSON that is not a payload.
  await fuzzAsync(1000, fc.uint8Array({ maxLength: 64 }), (bytes) => decode(fragmentOf(bytes)));
  t.diagnostic(tally.summary('decodeShare'));
  atLeast(tally, 10_000);
});

test('fuzz regressions: share links with deep JSON, zip bombs and prototype keys', { timeout: 60_000 }, async (t) => {
  const tally = new Tally();
  const decode = async (fragment: string) => (await guardAsync(tally, NEVER_THROWS, () => decodeShare(fragment))).value!;
  // A value 100,000 levels deep where the link's notes quoted it: JSON.stringify overflowed the stack and the
  // promise rejected with a RangeError.
  const deep = deepText(100_000, 'array');
  const ref = '"scenario":{"ref":"xfinity:with-status"}';
  const cases: [string, RegExp][] = [
    [`{"v":${deep}}`, /^this share link cannot be opened: unknown format version a list$/],
    [`{"v":1,"model":${deep},${ref}}`, /model a list is not available here/],
    [`{"v":1,"tab":${deep},${ref}}`, /unknown tab a list/],
    [`{"v":1,"view":{"layer":${deep}},${ref}}`, /view\.layer: invalid value a list; the default is used/],
    [`{"v":1,"scenario":{"name":"x","request":{"messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":${deepText(20_000, 'object', '{}')}}}]}}}`, /scenario\.request\.tools\[0\]\.function: nested deeper than 512 levels/],
    ['{}', /^this share link cannot be opened: the format version \("v"\) is missing$/],
  ];
  for (const [text, want] of cases) {
    const r = await decode(fragmentOf(text));
    assert.match(r.ok ? r.notes.join('\n') : r.error, want);
  }
  // A zip bomb: 64 MiB of zeros in a short link.
  const bomb = await decode(fragmentOf(new Uint8Array(64 * 1024 * 1024)));
  assert.equal(bomb.ok, false);
  assert.match((bomb as { error: string }).error, /inflates to more than|characters long/);
  // `__proto__` as an own key, at the top and inside the request: no prototype is changed, the link opens.
  const proto = JSON.parse(JSON.stringify(custom)) as Record<string, unknown>;
  setOwn(proto, '__proto__', { polluted: true });
  setOwn((proto.scenario as { request: Record<string, unknown> }).request, '__proto__', { messages: [] });
  const r = await decode(fragmentOf(JSON.stringify(proto)));
  assert.ok(r.ok, r.ok ? '' : r.error);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  t.diagnostic(tally.summary('decodeShare, fixed cases'));
});
