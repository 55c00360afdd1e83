// lib/state/db.ts over fake-indexeddb: the state split into settings and one record per scenario, saves
// that write only what changed in one transaction, a full quota that aborts a save whole (what was saved
// before stays), the one-time moves from localStorage and from the old imports database.
import 'fake-indexeddb/auto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IDBFactory } from 'fake-indexeddb';
import { diffSnapshots, KvscopeDb, moveLegacyState, readLegacyState, StorageError, type IdbFactoryLike, type StateSnapshot, type StoredImport } from '../lib/state/db';
import { quotaFactory } from './helpers/quotaIdb';

const fresh = () => new IDBFactory() as unknown as IdbFactoryLike;

const sc = (id: string, text = 'x', createdAt = 1) => ({ id, name: `name ${id}`, text, lastGood: null, createdAt });
const snap = (custom: StateSnapshot['custom'], settings: Record<string, unknown> = { lang: 'en' }): StateSnapshot => ({ version: 1, settings, custom });

class Local {
  map = new Map<string, string>();
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
}

test('the state round-trips: settings, scenarios in the user order, deletions', async () => {
  const f = fresh();
  const db = new KvscopeDb(f);
  assert.equal(await db.loadState(), null);
  const a = snap([sc('b', 'B', 5), sc('a', 'A', 9)], { lang: 'zh', view: { layer: 2 } });
  await db.saveState(a, null);
  const back = await new KvscopeDb(f).loadState();
  assert.deepEqual(back, a);
  const b = snap([sc('a', 'A2', 9), sc('c')], { lang: 'zh', view: { layer: 2 } });
  const diff = await db.saveState(b, a);
  assert.deepEqual(
    { settings: diff.settings, put: diff.put.map((c) => c.id), deleted: diff.deleted },
    { settings: true, put: ['a', 'c'], deleted: ['b'] },
    'the order changed (settings), a edited, c new, b gone',
  );
  assert.deepEqual(await new KvscopeDb(f).loadState(), b);
});

test('a save writes only what changed: the same objects are skipped, equal content too', () => {
  const x = sc('x');
  const prev = snap([x, sc('y')]);
  const next = snap([x, sc('y')]);
  assert.deepEqual(diffSnapshots(next, prev), { settings: false, put: [], deleted: [] });
  const typed = snap([{ ...x, text: 'typed' }, prev.custom[1]!]);
  const d = diffSnapshots(typed, prev);
  assert.equal(d.settings, false, 'typing in a scenario does not rewrite the settings');
  assert.deepEqual(d.put.map((c) => c.id), ['x']);
});

test('a full quota aborts the whole save with a quota error; everything saved before is intact', async () => {
  const q = quotaFactory(fresh());
  const db = new KvscopeDb(q.factory);
  const first = snap([sc('a', 'small'), sc('b', 'small too')], { lang: 'zh' });
  await db.saveState(first, null);
  q.limit(100); // bytes a transaction may add from now on
  const big = snap([sc('a', 'small'), sc('b', 'y'.repeat(5000)), sc('c', 'new')], { lang: 'en' });
  await assert.rejects(db.saveState(big, first), (e: unknown) => e instanceof StorageError && e.code === 'quota');
  // No partial write: not the settings, not the new scenario, not the edit.
  assert.deepEqual(await new KvscopeDb(q.factory).loadState(), first);
  q.limit(Infinity);
  await db.saveState(big, first);
  assert.deepEqual(await new KvscopeDb(q.factory).loadState(), big);
});

test('imports: metadata and input stored together, listed oldest first, renamed, deleted; a quota refusal stores none', async () => {
  const q = quotaFactory(fresh());
  const db = new KvscopeDb(q.factory);
  const item = (id: string, createdAt: number, input: string | Uint8Array): StoredImport => ({ id, name: `n${id}`, kind: 'attention', createdAt, input, size: typeof input === 'string' ? input.length : input.byteLength });
  await db.putImport(item('b', 2, new Uint8Array([1, 2, 3])));
  await db.putImport(item('a', 1, '{"x":1}'));
  assert.deepEqual((await db.listImports()).map((m) => m.id), ['a', 'b']);
  assert.deepEqual((await db.readImport('b'))!.input, new Uint8Array([1, 2, 3]));
  await db.renameImport('a', 'renamed');
  assert.equal((await db.listImports())[0]!.name, 'renamed');
  q.limit(50);
  await assert.rejects(db.putImports([item('c', 3, 'small'), item('d', 4, 'z'.repeat(500))]), (e: unknown) => e instanceof StorageError && e.code === 'quota');
  assert.deepEqual((await db.listImports()).map((m) => m.id), ['a', 'b'], 'neither c nor d');
  q.limit(Infinity);
  await db.deleteImport('a');
  assert.equal(await db.readImport('a'), null);
});

test('the localStorage state moves in once: written, read back, then the old key removed', async () => {
  const f = fresh();
  const db = new KvscopeDb(f);
  const local = new Local();
  local.map.set('kvscope:state', JSON.stringify({ state: { lang: 'zh', custom: [sc('k1', 'kept'), sc('k1', 'duplicate'), 'junk'] }, version: 1 }));
  const m = await moveLegacyState(db, local, 'kvscope:state', await db.loadState());
  assert.equal(m.kind, 'moved');
  assert.equal(local.getItem('kvscope:state'), null);
  const back = await new KvscopeDb(f).loadState();
  assert.deepEqual(back, { version: 1, settings: { lang: 'zh' }, custom: [sc('k1', 'kept')] });
  // A key an older tab wrote again later is stale: the database wins and the key goes.
  local.map.set('kvscope:state', JSON.stringify({ state: { lang: 'en' }, version: 1 }));
  assert.equal((await moveLegacyState(db, local, 'kvscope:state', back)).kind, 'stale');
  assert.equal(local.getItem('kvscope:state'), null);
  assert.equal((await db.loadState())!.settings.lang, 'zh');
});

test('a move that cannot be written keeps the old key and returns its state; unreadable JSON is left alone', async () => {
  const q = quotaFactory(fresh());
  q.limit(10);
  const db = new KvscopeDb(q.factory);
  const local = new Local();
  const old = JSON.stringify({ state: { lang: 'zh', custom: [sc('a', 'a'.repeat(100))] }, version: 1 });
  local.map.set('kvscope:state', old);
  const m = await moveLegacyState(db, local, 'kvscope:state', null);
  assert.equal(m.kind, 'failed');
  if (m.kind === 'failed') {
    assert.equal(m.error.code, 'quota');
    assert.equal(m.snapshot.custom.length, 1);
  }
  assert.equal(local.getItem('kvscope:state'), old, 'kept');
  local.map.set('kvscope:state', '{not json');
  assert.equal(readLegacyState(local, 'kvscope:state'), null);
  assert.equal((await moveLegacyState(new KvscopeDb(fresh()), local, 'kvscope:state', null)).kind, 'none');
  assert.equal(local.getItem('kvscope:state'), '{not json');
});

/** The schema of components/hooks/importsDb.ts before imports joined the kvscope database. */
async function seedOldImports(f: IdbFactoryLike, name: string, items: StoredImport[]) {
  await new Promise<void>((resolve, reject) => {
    const req = f.open(name, 1);
    req.onupgradeneeded = () => {
      req.result.createObjectStore('meta', { keyPath: 'id' });
      req.result.createObjectStore('inputs', { keyPath: 'id' });
    };
    req.onerror = () => reject(req.error);
    req.onsuccess = () => {
      const db = req.result;
      const tx = db.transaction(['meta', 'inputs'], 'readwrite');
      for (const { input, ...meta } of items) {
        tx.objectStore('meta').put(meta);
        tx.objectStore('inputs').put({ id: meta.id, input });
      }
      tx.oncomplete = () => {
        db.close();
        resolve();
      };
    };
  });
}

test('imports in the old kvscope-imports database move into kvscope once, and the old database is deleted', async () => {
  const f = fresh();
  const items: StoredImport[] = [
    { id: 'd1', name: 'run log', kind: 'runlog', createdAt: 10, input: '[{"agent":"a","prompt_tokens":1,"completion_tokens":1}]', size: 55 },
    { id: 'd2', name: 'attn', kind: 'attention', createdAt: 5, input: new Uint8Array([9, 8, 7]), size: 3 },
  ];
  await seedOldImports(f, 'kvscope-imports', items);
  const db = new KvscopeDb(f);
  assert.deepEqual((await db.listImports()).map((m) => m.id), ['d2', 'd1']);
  assert.deepEqual((await db.readImport('d2'))!.input, new Uint8Array([9, 8, 7]));
  const names = (await (f as unknown as IDBFactory).databases()).map((d) => d.name);
  assert.deepEqual(names, ['kvscope']);
  // Once moved, a later page never moves again (a new old database, say from an old tab, stays put).
  await seedOldImports(f, 'kvscope-imports', [{ ...items[0]!, id: 'late' }]);
  assert.deepEqual((await new KvscopeDb(f).listImports()).map((m) => m.id), ['d2', 'd1']);
});

test('no old imports database: nothing moved and none left behind', async () => {
  const f = fresh();
  assert.deepEqual(await new KvscopeDb(f).listImports(), []);
  assert.deepEqual((await (f as unknown as IDBFactory).databases()).map((d) => d.name), ['kvscope']);
});

test('a factory that cannot open gives a typed "unavailable" error', async () => {
  const broken: IdbFactoryLike = {
    open: () => {
      throw new Error('SecurityError: private mode');
    },
    deleteDatabase: () => {
      throw new Error('no');
    },
  };
  await assert.rejects(new KvscopeDb(broken).loadState(), (e: unknown) => e instanceof StorageError && e.code === 'unavailable');
});

test('a kvscope database without its stores (created empty elsewhere) is repaired one version up, and later opens still work', async () => {
  const f = fresh();
  await new Promise<void>((resolve) => {
    const req = f.open('kvscope');
    req.onsuccess = () => {
      req.result.close();
      resolve();
    };
  });
  const db = new KvscopeDb(f);
  await db.saveState(snap([sc('a')]), null);
  db.close();
  assert.deepEqual(await new KvscopeDb(f).loadState(), snap([sc('a')]), 'opened at version 2 by a kvscope that asks for version 1');
});
