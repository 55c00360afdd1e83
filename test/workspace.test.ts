// The workspace file (lib/state/workspace.ts): a round trip keeps settings, scenarios and imports (bytes too);
// a bad file is refused with the place of the problem; a merge adds without changing or dropping anything
// here (taken names get a suffix, identical items are skipped, the cap refuses as a whole).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultState, MAX_CUSTOM, type CustomScenario, type PersistedState } from '../lib/state/store';
import { mergedScenarios, newImports, planMerge, readWorkspace, writeWorkspace, WORKSPACE_FORMAT, type WorkspaceError } from '../lib/state/workspace';
import type { StoredImport } from '../lib/state/db';
import { scenarioRequest } from '../lib/scenarios';
import { translate, type StringKey } from '../lib/i18n';

const good = scenarioRequest('beijing');
const sc = (id: string, name: string, text = '{}', lastGood: CustomScenario['lastGood'] = null): CustomScenario => ({ id, name, text, lastGood, createdAt: 5 });
const state = (custom: CustomScenario[], over: Partial<PersistedState> = {}): PersistedState => ({ ...defaultState(), custom, ...over });
const imp = (id: string, name: string, input: string | Uint8Array, createdAt = 7): StoredImport => ({ id, name, kind: 'attention', createdAt, input, size: typeof input === 'string' ? input.length : input.byteLength });
const when = new Date('2026-01-02T03:04:05Z');

function refused(text: string): WorkspaceError {
  const r = readWorkspace(text);
  assert.equal(r.ok, false, `accepted: ${text.slice(0, 80)}`);
  return (r as { error: WorkspaceError }).error;
}

const file = (o: Record<string, unknown>) => JSON.stringify({ format: WORKSPACE_FORMAT, version: 1, ...o });

test('a written workspace reads back whole: settings, scenarios with their last good request, text and byte imports', () => {
  const bytes = new Uint8Array(70_000).map((_, i) => (i * 31) & 255);
  const s = state([sc('a', 'mine', JSON.stringify(good), good), sc('b', 'half typed', '{"messages": [')], { lang: 'zh', scenario: 'custom:a', tab: 'data' });
  const text = writeWorkspace(s, [imp('d1', 'log', '[1,2]'), imp('d2', 'attn', bytes)], when);
  const r = readWorkspace(text);
  assert.ok(r.ok);
  const { custom: _c, ...settings } = s;
  assert.deepEqual(r.workspace.settings, settings);
  assert.deepEqual(r.workspace.scenarios, s.custom);
  assert.equal(r.workspace.exportedAt, when.toISOString());
  assert.deepEqual(r.workspace.imports[1]!.input, bytes);
  assert.equal(r.workspace.imports[0]!.input, '[1,2]');
  assert.equal(JSON.parse(text).format, 'kvscope-workspace');
  assert.equal(JSON.parse(text).version, 1);
});

test('a bad file is refused with the place of the first problem, and every refusal has words in both languages', () => {
  const cases: [string, WorkspaceError['code'], string][] = [
    ['{"format": "kvscope-workspace", "version": 1,\n  "scenarios": [}', 'json', 'line 2, column 17'],
    ['[1, 2]', 'type', '(file)'],
    [JSON.stringify({ format: 'something-else', version: 1 }), 'format', 'format'],
    [file({ version: 2 }), 'version', 'version'],
    [file({ version: '1' }), 'type', 'version'],
    [file({ scenarios: {} }), 'type', 'scenarios'],
    [file({ scenarios: [{ id: 'a', name: 'ok', text: '' }, { id: 'b', name: 7, text: '' }] }), 'type', 'scenarios[1].name'],
    [file({ scenarios: [{ id: 'a', name: '  ', text: '' }] }), 'value', 'scenarios[0].name'],
    [file({ scenarios: [{ id: 'a', name: 'x', text: '', lastGood: { messages: [{ role: 'wizard', content: 'hi' }] } }] }), 'request', 'scenarios[0].lastGood'],
    [file({ imports: [{ id: 'd', name: 'n', kind: 'video', input: { text: '' } }] }), 'value', 'imports[0].kind'],
    [file({ imports: [{ id: 'd', name: 'n', kind: 'runlog', input: { base64: '***' } }] }), 'value', 'imports[0].input.base64'],
    [file({ imports: [{ id: 'd', name: 'n', kind: 'runlog', input: {} }] }), 'type', 'imports[0].input.text'],
    [file({ imports: [{ id: 'd', name: 'n', kind: 'runlog' }] }), 'type', 'imports[0].input'],
    [file({ settings: 'zh' }), 'type', 'settings'],
  ];
  for (const [text, code, place] of cases) {
    const e = refused(text);
    assert.equal(e.code, code, `${text}: ${e.message}`);
    assert.equal(e.place, place, `${text}: ${e.message}`);
    for (const lang of ['en', 'zh'] as const) {
      const words = translate(lang, `workspace.err.${e.code}` as StringKey, e.params);
      assert.doesNotMatch(words, /\{\w+\}/, `${lang}: ${words}`);
    }
  }
  assert.equal(readWorkspace('x'.repeat(100), 50).ok, false);
  assert.equal((readWorkspace('x'.repeat(100), 50) as { error: WorkspaceError }).error.code, 'tooLarge');
});

test('hostile keys change no prototype; unknown settings fall back to defaults', () => {
  const text = `{"format":"kvscope-workspace","version":1,"__proto__":{"polluted":1},"settings":{"__proto__":{"polluted":2},"constructor":{"prototype":{"polluted":3}},"lang":"zh","model":"gpt-9"},"scenarios":[{"id":"a","name":"n","text":"","__proto__":{"polluted":4}}]}`;
  const r = readWorkspace(text);
  assert.ok(r.ok);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(r.workspace.settings.lang, 'zh');
  assert.equal(r.workspace.settings.model, defaultState().model);
  assert.equal(Object.getPrototypeOf(r.workspace.scenarios[0]), Object.prototype);
});

test('a merge adds with fresh ids, suffixes taken names, skips identical items and changes nothing already here', () => {
  const here = [sc('h1', 'shared name', 'mine'), sc('h2', 'same', JSON.stringify(good), good)];
  const text = writeWorkspace(
    state([sc('h1', 'shared name', 'theirs'), sc('x2', 'same', JSON.stringify(good), good), sc('x3', 'new one'), sc('x4', 'shared name', 'third')], { scenario: 'custom:x3', lang: 'zh' }),
    [imp('d1', 'log', 'abc'), imp('d2', 'attn', 'same', 9)],
    when,
  );
  const r = readWorkspace(text);
  assert.ok(r.ok);
  const plan = planMerge({ custom: here, imports: [{ id: 'd2', name: 'attn', kind: 'attention', createdAt: 9, size: 4 }] }, r.workspace, 1_700_000_000_000);
  assert.deepEqual(
    plan.scenarios.map((s) => [s.status, s.name]),
    [
      ['renamed', 'shared name (2)'],
      ['same', 'same'],
      ['add', 'new one'],
      ['renamed', 'shared name (3)'],
    ],
  );
  assert.deepEqual(plan.imports.map((i) => [i.status, i.name]), [['add', 'log'], ['same', 'attn']]);
  const merged = mergedScenarios(here, plan);
  assert.deepEqual(merged.slice(0, 2), here, 'existing scenarios unchanged and first');
  assert.equal(merged.length, 5);
  assert.equal(new Set(merged.map((c) => c.id)).size, 5, 'ids are unique');
  assert.ok(!merged.slice(2).some((c) => c.id === 'h1'), 'a clashing id is never reused');
  // The file's selected scenario points at the id it got here.
  const x3 = plan.scenarios.find((s) => s.from === 'new one')!;
  assert.equal(plan.settings.scenario, `custom:${x3.id}`);
  assert.deepEqual(newImports(plan).map((i) => i.name), ['log']);
  assert.notEqual(newImports(plan)[0]!.id, 'd1');
  assert.equal(plan.overCap, null);
});

test('a merge that would pass MAX_CUSTOM is refused as a whole, saying how many to delete', () => {
  const here = Array.from({ length: MAX_CUSTOM - 1 }, (_, i) => sc(`h${i}`, `h${i}`));
  const r = readWorkspace(writeWorkspace(state([sc('a', 'a'), sc('b', 'b'), sc('c', 'c')]), [], when));
  assert.ok(r.ok);
  const plan = planMerge({ custom: here, imports: [] }, r.workspace, 1);
  assert.deepEqual(plan.overCap, { total: MAX_CUSTOM + 2, max: MAX_CUSTOM, excess: 2 });
  // Only identical ones: nothing to add, no refusal.
  const same = readWorkspace(writeWorkspace(state(here.slice(0, 3)), [], when));
  assert.ok(same.ok);
  assert.equal(planMerge({ custom: here, imports: [] }, same.workspace, 1).overCap, null);
});
