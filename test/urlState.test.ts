// Shareable links: round trips, the size limit, hostile fragments (random bytes, non-JSON, zip bombs,
// invalid requests) and opening a link as a new scenario without touching the user's own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import {
  applyShare,
  decodeShare,
  encodeShare,
  shareFromState,
  toBase64Url,
  MAX_FRAGMENT_CHARS,
  type SharePayload,
} from '../lib/io/share';
import { defaultState, customRef, MAX_CUSTOM, type PersistedState } from '../lib/state/store';
import { scenarioRequest } from '../lib/scenarios';
import type { ChatRequest } from '../lib/scenarios/types';

const NOW = 1_700_000_000_000;

function builtIn(): SharePayload {
  return {
    v: 1,
    model: 'kvscope-tiny-sink',
    tab: 'kv',
    view: { layer: 2, head: 3, scale: 'log', gamma: 0.7, colormap: 'magma', hideSink: true, pinned: [0, 5] },
    scenario: { ref: 'xfinity:with-status' },
    selectedToken: 17,
  };
}

function customPayload(request: ChatRequest = scenarioRequest('xfinity', 'with-status'), name = 'my case'): SharePayload {
  return { ...builtIn(), scenario: { name, request }, selectedToken: undefined };
}

/** A fragment holding arbitrary JSON text, compressed as the encoder would. */
function fragmentOf(text: string): string {
  return `#s=${toBase64Url(new Uint8Array(deflateRawSync(Buffer.from(text))))}`;
}

async function decodeError(fragment: string, limits = {}): Promise<string> {
  const r = await decodeShare(fragment, limits);
  assert.equal(r.ok, false, `expected an error for ${fragment.slice(0, 60)}`);
  return r.ok ? '' : r.error;
}

test('a built-in scenario travels as its ref and round-trips with all settings', async () => {
  const p = builtIn();
  const e = await encodeShare(p);
  assert.ok(e.ok, !e.ok ? e.error : '');
  assert.match(e.fragment, /^#s=[A-Za-z0-9_-]+$/);
  assert.equal(e.bytes, e.fragment.length);
  assert.ok(e.fragment.length < 400, `a built-in link is short (${e.fragment.length})`);
  const d = await decodeShare(e.fragment);
  assert.ok(d.ok, !d.ok ? d.error : '');
  assert.deepEqual(d.payload, p);
  assert.deepEqual(d.notes, []);
  // Tolerant of the leading '#' and the key.
  for (const f of [e.fragment.slice(1), e.fragment.slice(3), `#x=1&${e.fragment.slice(1)}`]) {
    const again = await decodeShare(f);
    assert.ok(again.ok && again.payload.scenario && 'ref' in again.payload.scenario, f.slice(0, 10));
  }
});

test('a custom scenario travels as its name and validated request, tools included', async () => {
  const req = scenarioRequest('xfinity', 'with-status');
  assert.ok(req.tools?.length, 'the fixture has tools');
  const p = customPayload(req, '  Ünïcode 名字 ');
  const e = await encodeShare(p);
  assert.ok(e.ok, !e.ok ? e.error : '');
  const d = await decodeShare(e.fragment);
  assert.ok(d.ok, !d.ok ? d.error : '');
  assert.deepEqual(d.payload.scenario, { name: 'Ünïcode 名字', request: req });
  assert.equal(d.payload.selectedToken, undefined);
  assert.deepEqual(d.payload.view, p.view);
});

test('shareFromState: built-in ref, custom lastGood (never the invalid text), never-valid refused', () => {
  const s = defaultState();
  const b = shareFromState({ ...s, scenario: 'beijing', selectedToken: 4 });
  assert.ok(b.ok);
  assert.deepEqual(b.payload.scenario, { ref: 'beijing' });
  assert.equal(b.payload.selectedToken, 4);

  const good = scenarioRequest('beijing');
  const st: PersistedState = {
    ...s,
    scenario: customRef('a'),
    custom: [{ id: 'a', name: 'mine', text: '{"messages": [ broken', lastGood: good, createdAt: 0 }],
  };
  const c = shareFromState(st);
  assert.ok(c.ok);
  assert.deepEqual(c.payload.scenario, { name: 'mine', request: good });
  assert.match(c.notes.join('\n'), /last valid version of "mine"/);

  const never = shareFromState({ ...st, custom: [{ ...st.custom[0]!, lastGood: null }] });
  assert.equal(never.ok, false);
  assert.match(!never.ok ? never.error : '', /never been a valid request/);
});

test('the size limit: refused with the size and the limit, not silently truncated', async () => {
  // Incompressible content: pseudo-random text.
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) % 62;
  const abc = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  const content = Array.from({ length: 12_000 }, () => abc[rnd()]).join('');
  const e = await encodeShare(customPayload({ messages: [{ role: 'user', content }] }));
  assert.equal(e.ok, false);
  const msg = !e.ok ? e.error : '';
  assert.match(msg, /the share link would be \d{2},\d{3} characters long; the limit is 8,000/);
  assert.match(msg, /chat apps/);
  assert.equal(MAX_FRAGMENT_CHARS, 8_000);
  // A smaller limit applies too.
  const small = await encodeShare(builtIn(), { maxFragmentChars: 20 });
  assert.equal(small.ok, false);
  assert.match(!small.ok ? small.error : '', /limit is 20 /);
  // Decoding refuses an oversize fragment before doing anything with it.
  assert.match(await decodeError('#s=' + 'A'.repeat(9_000)), /9,003 characters long, over the limit of 8,000/);
});

test('encodeShare refuses payloads the decoder would refuse', async () => {
  const bad = await encodeShare({ ...builtIn(), scenario: { ref: 'custom:abc' } });
  assert.equal(bad.ok, false);
  assert.match(!bad.ok ? bad.error : '', /unknown scenario "custom:abc"/);
});

test('hostile fragments give clear errors', async () => {
  // Random bytes: not a deflate stream, or one that inflates to garbage.
  let seed = 7;
  for (let round = 0; round < 20; round++) {
    const bytes = new Uint8Array(300).map(() => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24);
    const err = await decodeError('#s=' + toBase64Url(bytes));
    assert.match(err, /^this share link cannot be opened: (the compressed data is corrupt|the data is not (UTF-8 text|valid JSON))/, err);
  }
  // Not base64url.
  assert.match(await decodeError('#s=he!!o'), /not valid base64url/);
  assert.match(await decodeError('#s=A'), /not valid base64url/);
  assert.match(await decodeError('#s='), /empty/);
  assert.match(await decodeError('#a=1&b=2'), /no "s=" part/);
  // Valid deflate, not JSON / not an object.
  assert.match(await decodeError(fragmentOf('hello, world')), /not valid JSON/);
  assert.match(await decodeError(fragmentOf('[1,2,3]')), /not a JSON object/);
  // Truncated link: the deflate stream ends early.
  const ok = await encodeShare(customPayload());
  assert.ok(ok.ok);
  assert.match(await decodeError(ok.fragment.slice(0, ok.fragment.length - 40)), /corrupt|not valid JSON/);
});

test('zip bombs: rejected by size before inflating, and inflation is capped', async () => {
  const zeros = Buffer.alloc(50 * 1024 * 1024);
  const bomb = '#s=' + toBase64Url(new Uint8Array(deflateRawSync(zeros, { level: 9 })));
  assert.ok(bomb.length > MAX_FRAGMENT_CHARS);
  // The size error, not the inflation one: the length is checked first.
  assert.match(await decodeError(bomb), /characters long, over the limit of 8,000/);
  // Even when the fragment limit is lifted, inflation stops at the cap instead of allocating 50 MB.
  assert.match(await decodeError(bomb, { maxFragmentChars: Infinity }), /inflates to more than 2,097,152 bytes/);
  // A bomb that fits inside the fragment limit (5 MB of zeros → ~6.8k characters) is capped too.
  const small = '#s=' + toBase64Url(new Uint8Array(deflateRawSync(Buffer.alloc(5 * 1024 * 1024), { level: 9 })));
  assert.ok(small.length <= MAX_FRAGMENT_CHARS, `small bomb is ${small.length} characters`);
  assert.match(await decodeError(small), /inflates to more than 2,097,152 bytes/);
});

test('every field is validated: version, scenario ref, request (path-named), settings fall back with notes', async () => {
  const p = builtIn() as unknown as Record<string, unknown>;
  const enc = (o: unknown) => fragmentOf(JSON.stringify(o));
  assert.match(await decodeError(enc({ ...p, v: 2 })), /newer version of kvscope/);
  assert.match(await decodeError(enc({ ...p, v: '1' })), /unknown format version "1"/);
  assert.match(await decodeError(enc({ ...p, scenario: { ref: 'atlantis' } })), /scenario\.ref: unknown scenario "atlantis"/);
  assert.match(await decodeError(enc({ ...p, scenario: undefined })), /scenario: missing/);
  assert.match(await decodeError(enc({ ...p, scenario: { name: '', request: scenarioRequest('beijing') } })), /scenario\.name/);
  const hostile = { messages: [{ role: 'hacker', content: 'hi' }] };
  const err = await decodeError(enc({ ...p, scenario: { name: 'x', request: hostile } }));
  assert.match(err, /the shared request is invalid/);
  assert.match(err, /scenario\.request\.messages\[0\]\.role: unknown role "hacker"/);

  const d = await decodeShare(enc({ ...p, model: 'gpt-9', tab: 'evil', view: { ...(p.view as object), gamma: 99, colormap: '<script>' }, selectedToken: -1, extra: 1 }));
  assert.ok(d.ok, !d.ok ? d.error : '');
  assert.equal(d.payload.model, 'kvscope-tiny');
  assert.equal(d.payload.tab, 'attention');
  assert.equal(d.payload.view.colormap, 'viridis');
  assert.notEqual(d.payload.view.gamma, 99);
  assert.equal(d.payload.view.layer, 2, 'valid settings are kept');
  assert.equal(d.payload.selectedToken, undefined);
  const notes = d.notes.join('\n');
  for (const re of [/model "gpt-9"/, /unknown tab "evil"/, /view\.gamma: invalid value 99/, /view\.colormap/, /selectedToken/, /ignored fields: extra/]) {
    assert.match(notes, re);
  }
});

test('applyShare: a shared request becomes a new scenario; existing ones are never overwritten', () => {
  const mineReq = scenarioRequest('beijing');
  const state: PersistedState = {
    ...defaultState(),
    lang: 'zh',
    custom: [
      { id: 'a', name: 'my case (shared)', text: 'my own, unsaved edit', lastGood: mineReq, createdAt: 1 },
      { id: 's' + NOW.toString(36) + '0', name: 'other', text: '{}', lastGood: null, createdAt: 2 },
    ],
  };
  const before = structuredClone(state);
  const req = scenarioRequest('vancouver');
  const r = applyShare(state, customPayload(req, 'my case'), NOW);
  assert.ok(r.ok);
  assert.deepEqual(state, before, 'pure: the input is not mutated');
  assert.equal(r.state.custom.length, 3);
  assert.deepEqual(r.state.custom.slice(0, 2), before.custom, 'existing scenarios unchanged');
  const added = r.state.custom[2]!;
  assert.equal(r.created, added.id);
  assert.ok(!before.custom.some((c) => c.id === added.id), 'fresh id, no collision');
  assert.equal(added.name, 'my case (shared 2)', 'no name clash with the existing "(shared)" one');
  assert.deepEqual(added.lastGood, req);
  assert.deepEqual(JSON.parse(added.text), req);
  assert.equal(added.createdAt, NOW);
  assert.equal(r.state.scenario, customRef(added.id));
  assert.equal(r.state.model, 'kvscope-tiny-sink');
  assert.equal(r.state.tab, 'kv');
  assert.equal(r.state.view.colormap, 'magma');
  assert.equal(r.state.selectedToken, null);
  assert.equal(r.state.lang, 'zh', "the user's language is kept");

  // The same link opened again selects the scenario it made instead of duplicating it.
  const again = applyShare(r.state, customPayload(req, 'whatever'), NOW + 1);
  assert.ok(again.ok);
  assert.equal(again.created, null);
  assert.equal(again.state.custom.length, 3);
  assert.equal(again.state.scenario, customRef(added.id));
  // An identical request that the user already has (key order aside) is selected too.
  const reordered = JSON.parse(JSON.stringify(mineReq, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v)));
  const dup = applyShare(state, customPayload(reordered), NOW);
  assert.ok(dup.ok);
  assert.equal(dup.state.scenario, customRef('a'));
  assert.equal(dup.state.custom, state.custom);
  assert.match(dup.notes.join(), /already saved as "my case \(shared\)"/);

  // A shared scenario shared on does not pile up suffixes.
  const re = applyShare(defaultState(), customPayload(req, 'x (shared 3)'), NOW);
  assert.ok(re.ok);
  assert.equal(re.state.custom[0]!.name, 'x (shared)');

  // A built-in link selects the ref and keeps the custom list as it is.
  const b = applyShare(state, builtIn(), NOW);
  assert.ok(b.ok);
  assert.equal(b.state.scenario, 'xfinity:with-status');
  assert.equal(b.state.selectedToken, 17);
  assert.equal(b.state.custom, state.custom);
});

test('applyShare refuses rather than dropping a scenario when the list is full', () => {
  const full: PersistedState = {
    ...defaultState(),
    custom: Array.from({ length: MAX_CUSTOM }, (_, i) => ({ id: `c${i}`, name: `n${i}`, text: '', lastGood: null, createdAt: i })),
  };
  const r = applyShare(full, customPayload(), NOW);
  assert.equal(r.ok, false);
  assert.match(!r.ok ? r.error : '', /already have 50 scenarios/);
});

test('decode → apply end to end', async () => {
  const e = await encodeShare(customPayload(scenarioRequest('thinking'), 'think'));
  assert.ok(e.ok);
  const d = await decodeShare(e.fragment);
  assert.ok(d.ok);
  const r = applyShare(defaultState(), d.payload, NOW);
  assert.ok(r.ok);
  assert.equal(r.state.custom[0]!.name, 'think (shared)');
  assert.deepEqual(r.state.custom[0]!.lastGood, scenarioRequest('thinking'));
});
