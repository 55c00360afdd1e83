// The importers' errors and notes as coded messages (lib/i18n/msgImport.ts, lib/i18n/message.ts): for every
// outcome of hostile and mutated input — importData, the run-log reader, share links, the request validator,
// the attention readers, the JSON reader, workspace files, storage — the coded message's English is exactly
// the English text the code gives (`error`, `notes`, `.message`), every key exists, every {parameter} of its
// text is supplied, and the Chinese text is a translation (no English key text left, no placeholder left).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { STRINGS, translate, type StringKey } from '../lib/i18n';
import { describe, messageOf, messageText, type Message } from '../lib/i18n/message';
import { importData } from '../lib/io/importData';
import { parseRunLog } from '../lib/io/runlog';
import { checkPayload, decodeShare, encodeShare, applyShare, toBase64Url, type SharePayload } from '../lib/io/share';
import { formatError, validateRequest } from '../lib/prompt/request';
import { checkRequestText, formatLocatedError, locatedMessage } from '../lib/prompt/editRequest';
import { parseJsonLocated } from '../lib/prompt/jsonLocate';
import { ImportError, parseAttentionTrajectory, parseKvscopeAttention, writeKvscopeAttention, type ImportedAttention } from '../lib/io/attention/index';
import { readWorkspace } from '../lib/state/workspace';
import { StorageError, toStorageError } from '../lib/state/db';
import { addScenario } from '../lib/state/addScenario';
import { compareBlocker } from '../lib/analysis/importCompare';
import { ScenarioError, scenarioRequest } from '../lib/scenarios/index';
import { checkLinkUrl } from '../lib/io/linkPolicy';
import { defaultState, MAX_CUSTOM } from '../lib/state/store';
import { FUZZ_SEED, mutatedText, mutatedValue, mutatedBytes, hostileJson, jsonText } from './helpers/fuzz';


const en = (m: Message) => messageText('en', m);
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((x) => x[1]!);

/** Every key of the message (and of its parts) exists, and each {parameter} of its text is given. */
function wellFormed(m: Message, where: string): void {
  assert.ok(Object.prototype.hasOwnProperty.call(STRINGS, m.key), `${where}: unknown key ${m.key}`);
  const given = new Set([...Object.keys(m.params ?? {}), ...Object.keys(m.parts ?? {})]);
  for (const p of placeholders(STRINGS[m.key as StringKey].en)) assert.ok(given.has(p), `${where}: ${m.key} lacks {${p}}`);
  for (const [k, part] of Object.entries(m.parts ?? {})) wellFormed(part, `${where}.${k}`);
  // Chinese: every placeholder filled (the filled text may hold braces of its own: user data), and translated.
  const zh = translate('zh', m.key as StringKey, Object.fromEntries([...given].map((k) => [k, '·'])));
  assert.doesNotMatch(zh, /\{\w+\}/, `${where}: ${m.key} zh`);
}

/** A result with `error`/`coded` and `notes`/`codedNotes`: the same text both ways. */
function same(r: { ok: boolean; error?: string; coded?: Message; notes?: string[]; codedNotes?: Message[] }, where: string): void {
  if (!r.ok) {
    assert.ok(r.coded, `${where}: a refusal without a coded message: ${r.error}`);
    wellFormed(r.coded, where);
    assert.equal(en(r.coded), r.error, `${where}: English differs`);
    assert.equal(typeof messageText('zh', r.coded), 'string');
  } else if (r.notes) {
    assert.ok(r.codedNotes, `${where}: notes without coded notes`);
    assert.deepEqual(r.codedNotes.map(en), r.notes, `${where}: notes differ`);
    r.codedNotes.forEach((n, i) => wellFormed(n, `${where} note ${i}`));
  }
}

/** A thrown coded error: its English `.message` is its message's English. */
function sameError(e: unknown, where: string): void {
  const m = messageOf(e);
  assert.ok(m, `${where}: ${String(e)} is not coded`);
  wellFormed(m, where);
  assert.equal(en(m), (e as Error).message, `${where}: English differs`);
}

const params = { seed: FUZZ_SEED, numRuns: 150 };
const REQUESTS = ['beijing', 'vancouver', 'xfinity-with-status'].map((n) => readFileSync(`examples/requests/${n}.json`, 'utf8'));
const RUNLOG = readFileSync('test/fixtures/runlog/translation-single-agent.page.txt', 'utf8');
const T = 4;
function attention(): ImportedAttention {
  const data = new Float32Array(T * T).fill(NaN);
  for (let q = 0; q < T; q++) for (let k = 0; k <= q; k++) data[q * T + k] = 1 / (q + 1);
  return { source: 'kvscope-attention', tokens: ['a', 'b', 'c', 'd'], tokenIds: [1, 2, 3, 4], layers: [{ layer: 0, label: 'layer 0', heads: 'mean', queries: T, keys: T, data, queryPositions: [0, 1, 2, 3] }], meta: { model: 'm' }, notes: [], calls: [] };
}
const ATTENTION_JSON = writeKvscopeAttention(attention(), 'json');
const ATTENTION_ST = writeKvscopeAttention(attention(), 'safetensors');
const TRAJECTORY = JSON.stringify({ tokens: ['a', 'b', 'c'], attention_data: { num_layers: 2, attention_matrix: [[1], [0.5, 0.5], [0.2, 0.3, 0.5]] } });

test('importData: every refusal and note, on mutated requests, run logs and attention, is coded with the same English', () => {
  for (const base of [...REQUESTS, RUNLOG, ATTENTION_JSON, TRAJECTORY]) {
    fc.assert(fc.property(mutatedText(base), (text) => same(importData(text), 'importData')), params);
  }
  fc.assert(fc.property(mutatedBytes(ATTENTION_ST), (bytes) => same(importData(bytes), 'importData bytes')), params);
  for (const input of ['', '   ', '[1,2]', '{}', '"x"', '{"messages": [', 'nul', new Uint8Array([0xff, 0xfe]), REQUESTS[0]!, RUNLOG, ATTENTION_JSON, TRAJECTORY]) same(importData(input), 'importData fixed');
  same(importData('x'.repeat(20), null, 10), 'importData limit');
});

test('the run-log reader: refusals and notes', () => {
  fc.assert(fc.property(mutatedText(RUNLOG), (text) => same(parseRunLog(text), 'parseRunLog')), params);
  fc.assert(fc.property(hostileJson(['tracker_calls', 'agent', 'prompt_tokens', 'completion_tokens', 'result', 'value', 'main_context_peak', 'manager_context_peak', 'mode', 'note']), (v) => same(parseRunLog(jsonText(v) ?? ''), 'parseRunLog json')), params);
});

test('the request validator: each error is its message at its path; notes', () => {
  const base = JSON.parse(REQUESTS[2]!) as unknown;
  fc.assert(
    fc.property(mutatedValue(base, ['messages', 'role', 'content', 'tool_calls', 'tools', 'function', 'name', 'arguments', 'type', 'tool_call_id', 'reasoning_content']), (v) => {
      const r = validateRequest(v);
      if (r.ok) same(r, 'validateRequest');
      else {
        for (const e of r.errors) {
          assert.ok(e.key, `uncoded: ${formatError(e)}`);
          const m = messageOf(e)!;
          wellFormed(m, 'validateRequest');
          assert.equal(en(m), formatError(e));
        }
        assert.deepEqual((r.codedNotes ?? []).map(en), r.notes);
      }
    }),
    params,
  );
  // Located in the editor: the line first.
  fc.assert(
    fc.property(mutatedText(REQUESTS[0]!), (text) => {
      const r = checkRequestText(text);
      if (!r.ok) for (const e of r.errors) assert.equal(en(locatedMessage(e)), formatLocatedError(e));
    }),
    params,
  );
});

test('the JSON reader: every syntax error reason is coded', () => {
  fc.assert(
    fc.property(mutatedText(REQUESTS[1]!), (text) => {
      const r = parseJsonLocated(text);
      if (!r.ok) {
        wellFormed(r.error.coded, 'parseJsonLocated');
        assert.equal(en(r.error.coded), r.error.reason);
      }
    }),
    { ...params, numRuns: 300 },
  );
});

test('the attention readers throw coded ImportErrors', () => {
  const check = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      assert.ok(e instanceof ImportError, String(e));
      sameError(e, 'attention');
    }
  };
  fc.assert(fc.property(mutatedText(ATTENTION_JSON), (text) => check(() => parseKvscopeAttention(text))), params);
  fc.assert(fc.property(mutatedBytes(ATTENTION_ST), (bytes) => check(() => parseKvscopeAttention(bytes))), params);
  fc.assert(fc.property(mutatedText(TRAJECTORY), (text) => check(() => parseAttentionTrajectory(text))), params);
  const ok = parseAttentionTrajectory(TRAJECTORY);
  assert.deepEqual(ok.codedNotes!.map(en), ok.notes);
  assert.equal(ok.layers[0]!.label, en(ok.layers[0]!.labelCoded!));
  assert.match(describe('zh', ok.layers[0]!.labelCoded), /最后一层/);
});

test('share links: refusals and notes, encoding and opening', async () => {
  const payload: SharePayload = { v: 1, model: 'kvscope-tiny-sink', tab: 'kv', view: { layer: 2, head: 3, scale: 'log', gamma: 0.7, colormap: 'magma', hideSink: true, pinned: [0, 5] }, scenario: { name: 'mine', request: JSON.parse(REQUESTS[0]!) }, context: 'all' };
  fc.assert(fc.property(mutatedValue(payload, ['v', 'model', 'tab', 'view', 'scenario', 'ref', 'name', 'request', 'messages', 'role', 'layer', 'pinned', 'context', 'selectedToken']), (v) => same(checkPayload(v), 'checkPayload')), params);
  const fragment = (await encodeShare(payload)) as { fragment: string };
  for (const f of ['', '#', '#s=', '#x=1', '#s=%zz', '#s=!!', '#s=AAAA', fragment.fragment.slice(0, 40), fragment.fragment, '#s=' + 'A'.repeat(9000)]) same(await decodeShare(f), `decodeShare ${f.slice(0, 20)}`);
  same(await decodeShare(`#s=${toBase64Url(new Uint8Array([0xff]))}`), 'decodeShare corrupt');
  const full = defaultState();
  full.custom = Array.from({ length: MAX_CUSTOM }, (_, i) => ({ id: `c${i}`, name: `c${i}`, text: '{}', lastGood: { messages: [{ role: 'user', content: `x${i}` }] }, createdAt: i }));
  same(applyShare(full, payload, 1), 'applyShare full');
  same(applyShare(defaultState(), payload, 1), 'applyShare');
  same(addScenario(full.custom, { name: 'x', label: 'imported', request: { messages: [{ role: 'user', content: 'x0' }] }, now: 1, idPrefix: 'i', action: 'import this request' }), 'addScenario known');
  const refused = addScenario(full.custom, { name: 'x', label: 'imported', request: null, now: 1, idPrefix: 'i', action: 'import this request' });
  same(refused, 'addScenario full');
  assert.match(describe('zh', (refused as { coded: Message }).coded), /导入这个请求/);
  same(await encodeShare(payload, { maxFragmentChars: 10 }), 'encodeShare too long');
});

test('workspace refusals carry their detail coded; storage errors, scenario errors, compare refusals and link refusals are coded', () => {
  for (const text of ['{', '{"format": "kvscope-workspace", "version": 1, "scenarios": [{"id": "a", "name": "x", "text": "", "lastGood": {"messages": [{"role": "wizard", "content": "hi"}]}}]}', '{"format": "kvscope-workspace", "version": 1, "imports": [{"id": "a", "name": " ", "kind": "runlog", "input": {"text": ""}}]}']) {
    const r = readWorkspace(text);
    assert.ok(!r.ok && r.error.detailCoded, text);
    if (!r.ok) wellFormed(r.error.detailCoded!, 'workspace');
  }
  for (const e of [new StorageError('blocked', 'msg.import.store.blocked'), toStorageError(new Error('boom')), toStorageError(null), toStorageError({ name: 'QuotaExceededError', message: '' })]) sameError(e, 'storage');
  for (const [id, variant] of [['nope', undefined], ['xfinity', 'nope'], ['beijing', 'nope']] as const) {
    try {
      scenarioRequest(id, variant);
      assert.fail('no error');
    } catch (e) {
      assert.ok(e instanceof ScenarioError);
      sameError(e, 'scenario');
    }
  }
  const a = attention();
  for (const b of [compareBlocker({ ...a, tokenIds: undefined }, { numLayers: 2, vocabSize: 10, maxPositions: 10 }), compareBlocker(a, { numLayers: 2, vocabSize: 3, maxPositions: 10 }, 'a.json'), compareBlocker(a, { numLayers: 2, vocabSize: 10, maxPositions: 2 })]) {
    sameError(b, 'compare');
  }
  const link = checkLinkUrl('javascript:alert(1)', 'https://kvscope.example/');
  assert.ok(!link.ok);
  if (!link.ok) wellFormed(messageOf(link.refusal)!, 'link');
});
