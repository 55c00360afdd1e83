// The persisted app state: survives a "reload" (a new store over the same storage), sanitises whatever
// storage holds, keeps invalid edits as text without replacing the last good request, reports storage errors.
// Over a string storage (as before) and over IndexedDB (fake-indexeddb): the move from localStorage, a full
// quota that keeps what was saved, no silent cap on custom scenarios.
import 'fake-indexeddb/auto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IDBFactory } from 'fake-indexeddb';
import { createKvscopeStore, customOf, customRef, defaultState, MAX_CUSTOM, sanitizePersisted, STORAGE_KEY, type CustomScenario } from '../lib/state/store';
import { KvscopeDb, type IdbFactoryLike } from '../lib/state/db';
import { quotaFactory } from './helpers/quotaIdb';
import { scenarioRequest } from '../lib/scenarios';
import { EMBEDDED_MODELS, parseModelCard } from '../lib/model/embedded';
import { CATALOG, isScenarioRef } from '../lib/scenarios/catalog';
import { readFileSync, existsSync } from 'node:fs';

class MemoryStorage {
  map = new Map<string, string>();
  failWrites = false;
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    if (this.failWrites) throw new Error('QuotaExceededError');
    this.map.set(k, v);
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
}

async function fresh(storage: MemoryStorage) {
  const s = createKvscopeStore({ storage, now: () => 1_700_000_000_000 });
  await s.persist.rehydrate();
  return s;
}

test('settings and custom scenarios survive a reload', async () => {
  const storage = new MemoryStorage();
  const a = await fresh(storage);
  assert.equal(a.getState().hydrated, true);
  a.getState().setLang('zh');
  a.getState().setModel('kvscope-tiny-sink');
  a.getState().setView({ layer: 2, head: 3, scale: 'log', colormap: 'magma', hideSink: true, pinned: [7, 0, 7, -1] });
  const good = scenarioRequest('beijing');
  const id = a.getState().createCustom('my case', JSON.stringify(good), good)!;
  a.getState().editCustomText(id, '{"messages": [');
  a.getState().setContext(0);
  a.getState().setSelectedToken(7);
  a.getState().setTab('kv');

  const b = await fresh(storage);
  const s = b.getState();
  assert.equal(s.lang, 'zh');
  assert.equal(s.model, 'kvscope-tiny-sink');
  assert.deepEqual(s.view, { layer: 2, head: 3, scale: 'log', gamma: 0.5, colormap: 'magma', hideSink: true, pinned: [0, 7] });
  assert.equal(s.scenario, customRef(id));
  const c = customOf(s, s.scenario)!;
  assert.equal(c.name, 'my case');
  // The invalid text the user typed is kept verbatim; the last good request is untouched.
  assert.equal(c.text, '{"messages": [');
  assert.deepEqual(c.lastGood, good);
  assert.equal(s.selectedToken, 7);
  assert.equal(s.context, 0);
  assert.equal(s.tab, 'kv');
});

test('before rehydration the store holds defaults (so the first render matches the prerendered page)', () => {
  const storage = new MemoryStorage();
  storage.setItem(STORAGE_KEY, JSON.stringify({ state: { lang: 'zh' }, version: 1 }));
  const s = createKvscopeStore({ storage });
  assert.equal(s.getState().hydrated, false);
  assert.equal(s.getState().lang, 'en');
});

test('corrupt or hostile storage falls back to defaults field by field', async () => {
  const storage = new MemoryStorage();
  storage.setItem(STORAGE_KEY, '{not json');
  const a = await fresh(storage);
  assert.equal(a.getState().hydrated, true);
  assert.equal(a.getState().lang, 'en');

  storage.setItem(
    STORAGE_KEY,
    JSON.stringify({
      state: {
        lang: 'fr',
        model: 'gpt-5',
        scenario: 'custom:nope',
        view: { layer: -1, head: 'sum', scale: 'cubic', gamma: 99, colormap: 'jet', hideSink: 'yes' },
        custom: [
          { id: 'ok1', name: 'kept', text: 'x', lastGood: { messages: [{ role: 'wizard', content: 'hi' }] }, createdAt: 1 },
          { id: '../../etc', text: 'x' },
          { id: 'ok1', name: 'duplicate', text: 'y' },
          'garbage',
        ],
        selectedToken: 1.5,
        tab: 'settings',
      },
      version: 1,
    }),
  );
  const b = await fresh(storage);
  const s = b.getState();
  const d = defaultState();
  assert.equal(s.lang, d.lang);
  assert.equal(s.model, d.model);
  assert.equal(s.scenario, d.scenario);
  assert.deepEqual(s.view, d.view);
  assert.equal(s.custom.length, 1);
  assert.equal(s.custom[0]!.name, 'kept');
  // A stored "last good" request that no longer validates (unknown role) is dropped, not trusted.
  assert.equal(s.custom[0]!.lastGood, null);
  assert.equal(s.selectedToken, null);
  assert.equal(s.tab, 'attention');
});

test('an unknown stored version is migrated through the same sanitiser', async () => {
  const storage = new MemoryStorage();
  storage.setItem(STORAGE_KEY, JSON.stringify({ state: { lang: 'zh', scenario: 'xfinity:with-status' }, version: 0 }));
  const s = (await fresh(storage)).getState();
  assert.equal(s.lang, 'zh');
  assert.equal(s.scenario, 'xfinity:with-status');
});

test('a failing storage is reported in the state, and the app keeps working', async () => {
  const storage = new MemoryStorage();
  const a = await fresh(storage);
  storage.failWrites = true;
  a.getState().setLang('zh');
  assert.equal(a.getState().lang, 'zh');
  assert.match(a.getState().persistError ?? '', /could not save: QuotaExceededError/);
  storage.failWrites = false;
  a.getState().setLang('en');
  assert.equal(a.getState().persistError, null);
});

test('actions refuse unknown models and scenario refs; deleting the open custom scenario returns to the default', async () => {
  const a = await fresh(new MemoryStorage());
  a.getState().setModel('nope');
  assert.equal(a.getState().model, 'kvscope-tiny');
  a.getState().setScenario('custom:missing');
  assert.equal(a.getState().scenario, 'vancouver');
  a.getState().setScenario('xfinity:with-status');
  assert.equal(a.getState().scenario, 'xfinity:with-status');
  const id = a.getState().createCustom('  ', '{}', null)!;
  assert.equal(a.getState().custom[0]!.name, id);
  a.getState().deleteCustom(id);
  assert.equal(a.getState().scenario, 'vancouver');
  assert.equal(a.getState().custom.length, 0);
});

test('sanitizePersisted keeps valid data unchanged', () => {
  const d = { ...defaultState(), lang: 'zh' as const, scenario: 'file-tools' };
  assert.deepEqual(sanitizePersisted(d), d);
});

test('catalog: every built-in scenario and variant is a ref the CLI parser and registry accept', () => {
  assert.ok(CATALOG.length >= 5);
  for (const e of CATALOG) {
    assert.ok(isScenarioRef(e.ref));
    assert.ok(scenarioRequest(e.id, e.variant).messages.length > 0);
    assert.ok(e.title.en && e.title.zh);
  }
  assert.ok(!isScenarioRef('xfinity:nope'));
});

test('embedded models: each folder exists with its files and a card whose description parses', () => {
  const seen: string[] = [];
  for (const m of EMBEDDED_MODELS) {
    const dir = 'public' + m.path;
    for (const f of ['config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json', 'README.md']) assert.ok(existsSync(dir + f), dir + f);
    const card = parseModelCard(readFileSync(dir + 'README.md', 'utf8'));
    assert.ok(card.description.length > 20 && !card.description.includes('\n'));
    assert.match(card.descriptionZh, /[\u4e00-\u9fff]/);
    seen.push(`${m.id}:${card.engineered}`);
  }
  assert.deepEqual(seen, ['kvscope-tiny:false', 'kvscope-tiny-sink:true']);
});

test('parseModelCard: quoted and bare values, missing front matter and description are errors', () => {
  assert.deepEqual(parseModelCard('---\ndescription: "a \\"b\\""\nengineered: true\n---\n# x'), { description: 'a "b"', descriptionZh: 'a "b"', engineered: true });
  assert.deepEqual(parseModelCard('---\ndescription: plain words\n---\n'), { description: 'plain words', descriptionZh: 'plain words', engineered: false });
  assert.equal(parseModelCard('---\ndescription: "x"\ndescription_zh: "模型"\n---\n').descriptionZh, '模型');
  assert.throws(() => parseModelCard('# no front matter'), /no front matter/);
  assert.throws(() => parseModelCard('---\nlicense: x\n---\n'), /no description/);
});

test('the second model of a side-by-side view must be an embedded model; the view keeps it across a reload', async () => {
  const storage = new MemoryStorage();
  const a = await fresh(storage);
  a.getState().setCompare('kvscope-tiny-sink');
  assert.equal(a.getState().compare, 'kvscope-tiny-sink');
  a.getState().setCompare('not-a-model');
  assert.equal(a.getState().compare, 'kvscope-tiny-sink', 'an unknown model is refused');
  const b = await fresh(storage);
  assert.equal(b.getState().compare, 'kvscope-tiny-sink');
  b.getState().setCompare(null);
  assert.equal(b.getState().compare, null);
  assert.equal(sanitizePersisted({ ...defaultState(), compare: 'gpt-5' }).compare, null);
});

test('model choices: Hub models persist canonically and join the recent list; folder models come back as the default with a note', async () => {
  const storage = new MemoryStorage();
  const a = await fresh(storage);
  a.getState().setModel('hub:Qwen/Qwen3-0.6B');
  assert.equal(a.getState().model, 'hub:Qwen/Qwen3-0.6B@main');
  a.getState().setModel('hub:HuggingFaceTB/SmolLM2-135M-Instruct@v1.0');
  a.getState().setModel('hub:Qwen/Qwen3-0.6B@main');
  assert.deepEqual(a.getState().recent, ['hub:Qwen/Qwen3-0.6B@main', 'hub:HuggingFaceTB/SmolLM2-135M-Instruct@v1.0']);
  a.getState().setModel('hub:not a repo');
  a.getState().setModel('hub:https://huggingface.co/Qwen/Qwen3-0.6B');
  assert.equal(a.getState().model, 'hub:Qwen/Qwen3-0.6B@main', 'malformed ids and URLs are refused');
  const b = await fresh(storage);
  assert.equal(b.getState().model, 'hub:Qwen/Qwen3-0.6B@main');
  assert.equal(b.getState().lostFolder, null);
  assert.equal(b.getState().recent.length, 2);

  b.getState().setModel('folder:my-qwen');
  assert.equal(b.getState().model, 'folder:my-qwen');
  assert.deepEqual(b.getState().recent, ['hub:Qwen/Qwen3-0.6B@main', 'hub:HuggingFaceTB/SmolLM2-135M-Instruct@v1.0'], 'folders are not recent Hub models');
  const c = await fresh(storage);
  assert.equal(c.getState().model, 'kvscope-tiny');
  assert.equal(c.getState().lostFolder, 'my-qwen');
  c.getState().clearLostFolder();
  assert.equal(c.getState().lostFolder, null);
  c.getState().forgetRecent('hub:Qwen/Qwen3-0.6B@main');
  assert.deepEqual(c.getState().recent, ['hub:HuggingFaceTB/SmolLM2-135M-Instruct@v1.0']);
});

test('Hub endpoint and provider: persisted, normalised, invalid values refused or reset', async () => {
  const storage = new MemoryStorage();
  const a = await fresh(storage);
  assert.equal(a.getState().hubEndpoint, 'https://huggingface.co');
  assert.equal(a.getState().provider, 'auto');
  assert.equal(a.getState().setHubEndpoint('https://hf-mirror.com/'), true);
  assert.equal(a.getState().setHubEndpoint('ftp://example.com'), false);
  assert.equal(a.getState().setHubEndpoint('https://user:pw@example.com'), false);
  assert.equal(a.getState().hubEndpoint, 'https://hf-mirror.com');
  a.getState().setProvider('wasm');
  a.getState().setProvider('cuda' as never);
  assert.equal(a.getState().provider, 'wasm');
  const b = await fresh(storage);
  assert.equal(b.getState().hubEndpoint, 'https://hf-mirror.com');
  assert.equal(b.getState().provider, 'wasm');

  const s = sanitizePersisted({ hubEndpoint: 'javascript:alert(1)', provider: 'cuda', recent: ['hub:a/b', 'hub:a/b@main', 'kvscope-tiny', 'folder:x', 'hub:bad', 7], model: 'hub:x/y@refs/pr/3' });
  assert.equal(s.hubEndpoint, 'https://huggingface.co');
  assert.equal(s.provider, 'auto');
  assert.deepEqual(s.recent, ['hub:a/b@main'], 'only Hub choices, canonical, once');
  assert.equal(s.model, 'hub:x/y@refs/pr/3');
  assert.equal(sanitizePersisted({ recent: Array.from({ length: 20 }, (_, i) => `hub:o/m${i}`) }).recent.length, 8);
});

// ---- IndexedDB ------------------------------------------------------------------------------------------

class Local extends MemoryStorage {}

async function freshDb(factory: IdbFactoryLike, extra: { legacy?: Local; estimate?: () => Promise<{ usage?: number; quota?: number }> } = {}) {
  const s = createKvscopeStore({ db: { db: new KvscopeDb(factory), ...extra }, now: () => 1_700_000_000_000 });
  await s.persist.rehydrate();
  return s;
}

test('over IndexedDB: settings and a half-typed scenario survive a reload', async () => {
  const f = new IDBFactory() as unknown as IdbFactoryLike;
  const a = await freshDb(f);
  assert.equal(a.getState().hydrated, true);
  a.getState().setLang('zh');
  const id = a.getState().createCustom('draft', '{"messages": [', null)!;
  a.getState().editCustomText(id, '{"messages": [{"role": "user"');
  await a.flushed!();
  const b = await freshDb(f);
  assert.equal(b.getState().lang, 'zh');
  assert.equal(b.getState().scenario, customRef(id));
  assert.equal(customOf(b.getState(), b.getState().scenario)!.text, '{"messages": [{"role": "user"');
});

test('over IndexedDB: the localStorage state of older versions moves in on the first load, and the key goes', async () => {
  const f = new IDBFactory() as unknown as IdbFactoryLike;
  const legacy = new Local();
  const good = scenarioRequest('beijing');
  legacy.setItem(STORAGE_KEY, JSON.stringify({ state: { ...defaultState(), lang: 'zh', scenario: 'custom:old1', custom: [{ id: 'old1', name: 'mine', text: 'typed', lastGood: good, createdAt: 3 }] }, version: 1 }));
  const a = await freshDb(f, { legacy });
  assert.equal(a.getState().lang, 'zh');
  assert.equal(customOf(a.getState(), a.getState().scenario)!.text, 'typed');
  assert.equal(legacy.getItem(STORAGE_KEY), null, 'removed once verified');
  const b = await freshDb(f, { legacy });
  assert.equal(b.getState().lang, 'zh');
  assert.deepEqual(customOf(b.getState(), b.getState().scenario)!.lastGood, good);
});

test('over IndexedDB: nothing is written before the stored state was read (defaults never overwrite it)', async () => {
  const f = new IDBFactory() as unknown as IdbFactoryLike;
  const a = await freshDb(f);
  a.getState().setLang('zh');
  await a.flushed!();
  const b = createKvscopeStore({ db: { db: new KvscopeDb(f) } });
  b.getState().setTab('kv'); // before rehydration
  await b.persist.rehydrate();
  assert.equal(b.getState().lang, 'zh');
  const c = await freshDb(f);
  assert.equal(c.getState().lang, 'zh');
});

test('over IndexedDB: a full quota is reported with what was not saved and how full storage is; saved data stays, the edit stays in the page', async () => {
  const q = quotaFactory(new IDBFactory() as unknown as IdbFactoryLike);
  const estimate = async () => ({ usage: 4_900_000, quota: 5_000_000 });
  const a = await freshDb(q.factory, { estimate });
  const id = a.getState().createCustom('kept', '{"messages": []}', null)!;
  await a.flushed!();
  q.limit(200);
  a.getState().editCustomText(id, 'x'.repeat(10_000));
  await a.flushed!();
  await new Promise((r) => setTimeout(r, 10)); // the estimate arrives after the failure
  const p = a.getState().persistProblem;
  assert.ok(p, 'a problem is reported');
  assert.equal(p.code, 'quota');
  assert.deepEqual(p.what, { kind: 'scenario', name: 'kept' });
  assert.equal(p.usage, 4_900_000);
  assert.equal(p.quota, 5_000_000);
  assert.equal(customOf(a.getState(), customRef(id))!.text.length, 10_000, 'the edit is still in the page');
  assert.equal(customOf((await freshDb(q.factory)).getState(), customRef(id))!.text, '{"messages": []}', 'the last saved text is intact');
  // Space again: the next save writes the change that failed, and the notice goes.
  q.limit(Infinity);
  a.getState().setLang('zh');
  await a.flushed!();
  assert.equal(a.getState().persistProblem, null);
  assert.equal(customOf((await freshDb(q.factory)).getState(), customRef(id))!.text.length, 10_000);
});

test('over IndexedDB: a database that cannot be read is never written (it would replace the stored state with defaults)', async () => {
  const f = new IDBFactory() as unknown as IdbFactoryLike;
  const a = await freshDb(f);
  a.getState().setLang('zh');
  await a.flushed!();
  const db = new KvscopeDb(f);
  let writes = 0;
  db.loadState = async () => {
    throw new Error('read failed');
  };
  db.saveState = async () => {
    writes++;
    return { settings: true, put: [], deleted: [] };
  };
  const b = createKvscopeStore({ db: { db } });
  await b.persist.rehydrate();
  assert.equal(b.getState().persistProblem?.code, 'read');
  b.getState().setLang('en');
  await b.flushed!();
  assert.equal(writes, 0);
  assert.equal((await freshDb(f)).getState().lang, 'zh');
});

test('no silent cap: at MAX_CUSTOM, creating adds nothing unless the user agreed to replace one; a longer stored list is kept whole', async () => {
  const full: CustomScenario[] = Array.from({ length: MAX_CUSTOM }, (_, i) => ({ id: `c${i}`, name: `n${i}`, text: '', lastGood: null, createdAt: i }));
  const storage = new MemoryStorage();
  storage.setItem(STORAGE_KEY, JSON.stringify({ state: { custom: full }, version: 1 }));
  const a = await fresh(storage);
  assert.equal(a.getState().createCustom('one more', '{}', null), null);
  assert.equal(a.getState().custom.length, MAX_CUSTOM);
  assert.equal(a.getState().custom[0]!.id, 'c0', 'nothing dropped');
  const id = a.getState().createCustom('one more', '{}', null, 'c0');
  assert.ok(id);
  assert.deepEqual(a.getState().custom.map((c) => c.id).slice(0, 2), ['c1', 'c2']);
  assert.equal(a.getState().custom.at(-1)!.name, 'one more');
  const more = [...full, { id: 'extra', name: 'x', text: '', lastGood: null, createdAt: 99 }];
  assert.equal(sanitizePersisted({ custom: more }).custom.length, MAX_CUSTOM + 1);
});
