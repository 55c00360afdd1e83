// The browser's copy of the user's work: one IndexedDB database, `kvscope`, with the settings, the custom
// scenarios (one record each, so typing in one scenario rewrites that record only) and the imported run logs
// and attention files (metadata apart from the inputs, which run to hundreds of MB). A small promise wrapper
// over `indexedDB`, typed structurally (lib/ has no DOM types) so Node tests run it over fake-indexeddb.
// Every save is ONE transaction: a full quota aborts it whole and what was saved before stays as it was.
// Also here: the one-time moves from where older versions kept things (localStorage `kvscope:state`, the
// `kvscope-imports` database), each written, read back and compared before the old copy is removed.

import type { Params, StringKey } from '../i18n';
import { CodedError, type Message } from '../i18n/message';

export const DB_NAME = 'kvscope';
/** The IndexedDB schema version (object stores); the persisted state's own version is STATE_VERSION. */
export const DB_VERSION = 1;
/** Where imports lived before they joined `kvscope` (components/hooks/importsDb.ts of older versions). */
export const LEGACY_IMPORTS_DB = 'kvscope-imports';

const SETTINGS = 'settings';
const SCENARIOS = 'scenarios';
const IMPORT_META = 'importMeta';
const IMPORT_INPUTS = 'importInputs';
const STORES = [SETTINGS, SCENARIOS, IMPORT_META, IMPORT_INPUTS] as const;
type StoreName = (typeof STORES)[number];
// Keys of the settings store.
const STATE_KEY = 'state';
const IMPORTS_MOVED_KEY = 'importsMoved';

// ---- the IndexedDB surface used here (what the DOM's and fake-indexeddb's objects both offer) ----------

type Handler = ((ev: never) => unknown) | null;
export interface IdbRequestLike<T = unknown> {
  readonly result: T;
  readonly error: unknown;
  onsuccess: Handler;
  onerror: Handler;
}
export interface IdbOpenRequestLike extends IdbRequestLike<IdbDatabaseLike> {
  onupgradeneeded: Handler;
  onblocked: Handler;
}
export interface IdbObjectStoreLike {
  get(key: string): IdbRequestLike;
  getAll(): IdbRequestLike<unknown[]>;
  getAllKeys(): IdbRequestLike<unknown[]>;
  put(value: unknown, key?: string): IdbRequestLike;
  delete(key: string): IdbRequestLike;
}
export interface IdbTransactionLike {
  objectStore(name: string): IdbObjectStoreLike;
  readonly error: unknown;
  oncomplete: Handler;
  onerror: Handler;
  onabort: Handler;
  abort(): void;
  /** IndexedDB 3.0: commit without waiting for the event loop (older browsers lack it). */
  commit?(): void;
}
export interface IdbDatabaseLike {
  readonly version?: number;
  readonly objectStoreNames: { contains(name: string): boolean; readonly length: number };
  createObjectStore(name: string, options?: { keyPath?: string }): unknown;
  transaction(stores: string[], mode: 'readonly' | 'readwrite'): IdbTransactionLike;
  close(): void;
  onversionchange: Handler;
}
export interface IdbFactoryLike {
  open(name: string, version?: number): IdbOpenRequestLike;
  deleteDatabase(name: string): IdbRequestLike & { onblocked: Handler };
}

/** localStorage's part that the migration needs. */
export interface StringStorageLike {
  getItem(key: string): string | null;
  removeItem(key: string): void;
}

// ---- errors ------------------------------------------------------------------------------------------

export type StorageErrorCode = 'quota' | 'unavailable' | 'blocked' | 'failed';

/**
 * A storage failure with a code the interface words in the user's language (components/lab/StorageNotice.tsx);
 * the message itself is coded too (lib/i18n/message.ts): the detail the notice shows. English in `.message`.
 */
export class StorageError extends CodedError {
  constructor(
    readonly code: StorageErrorCode,
    key: StringKey,
    params?: Params,
  ) {
    super(key, params);
    this.name = 'StorageError';
  }
}

const errName = (e: unknown): string => (typeof e === 'object' && e !== null && typeof (e as { name?: unknown }).name === 'string' ? (e as { name: string }).name : '');
const errMessage = (e: unknown): string =>
  typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string' ? (e as { message: string }).message : String(e);

/** Whether an error (a DOMException, a StorageError, anything thrown by a storage) means "the quota is full". */
export function isQuotaError(e: unknown): boolean {
  if (e instanceof StorageError) return e.code === 'quota';
  const name = errName(e);
  // Firefox's older name; Chromium reports the quota through the aborted transaction's error.
  return name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED' || /quota/i.test(errMessage(e));
}

/** Any thrown value as a StorageError (quota recognised); `fallback` when it says nothing. */
export function toStorageError(e: unknown, fallback: Message = { key: 'msg.import.store.failed' }): StorageError {
  if (e instanceof StorageError) return e;
  if (isQuotaError(e)) return new StorageError('quota', 'msg.import.store.quota', { detail: errMessage(e) || 'QuotaExceededError' });
  const m = e === null || e === undefined ? '' : errMessage(e);
  return m ? new StorageError('failed', 'msg.import.verbatim', { text: m }) : new StorageError('failed', fallback.key, fallback.params);
}

// ---- records -------------------------------------------------------------------------------------------

/** A custom scenario as stored (lib/state/store.ts CustomScenario; re-validated when read). */
export interface StoredScenario {
  id: string;
  [field: string]: unknown;
}

/** The persisted state split for storage: everything but the scenarios, and the scenarios in their order. */
export interface StateSnapshot {
  version: number;
  /** PersistedState without `custom` (sanitised by the store when read). */
  settings: Record<string, unknown>;
  custom: readonly StoredScenario[];
}

export type ImportKindStored = 'runlog' | 'attention';

export interface StoredImport {
  id: string;
  name: string;
  kind: ImportKindStored;
  createdAt: number;
  /** What the user gave: text (pasted, JSON files) or bytes (.safetensors). */
  input: string | Uint8Array;
  /** Size of the input in bytes or characters, for the list. */
  size: number;
}
export type ImportMeta = Omit<StoredImport, 'input'>;

/** What one save changes, so a failure can say what was not saved. */
export interface SaveDiff {
  settings: boolean;
  put: StoredScenario[];
  deleted: string[];
}

interface SettingsRecord {
  version: number;
  state: Record<string, unknown>;
  /** Scenario ids in the user's order (records carry no position). */
  order: string[];
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What changed from `prev` (the last snapshot written) to `next`; identity first, content where identity differs. */
export function diffSnapshots(next: StateSnapshot, prev: StateSnapshot | null): SaveDiff {
  const order = (s: StateSnapshot) => s.custom.map((c) => c.id);
  const settings = prev === null || prev.version !== next.version || JSON.stringify(next.settings) !== JSON.stringify(prev.settings) || order(next).join('\u0000') !== order(prev).join('\u0000');
  const before = new Map((prev?.custom ?? []).map((c) => [c.id, c]));
  const put = next.custom.filter((c) => {
    const p = before.get(c.id);
    return p === undefined || (p !== c && JSON.stringify(p) !== JSON.stringify(c));
  });
  const ids = new Set(next.custom.map((c) => c.id));
  const deleted = [...before.keys()].filter((id) => !ids.has(id));
  return { settings, put, deleted };
}

// ---- the database --------------------------------------------------------------------------------------

export interface KvscopeDbOptions {
  /** Database name (tests use their own). */
  name?: string;
  /** The old imports database to move from (tests pass their own name). */
  legacyImports?: string;
}

export class KvscopeDb {
  private readonly factory: IdbFactoryLike;
  private readonly name: string;
  private readonly legacyImports: string;
  private opening: Promise<IdbDatabaseLike> | null = null;
  private importsMoved: Promise<void> | null = null;

  constructor(factory: IdbFactoryLike, options: KvscopeDbOptions = {}) {
    this.factory = factory;
    this.name = options.name ?? DB_NAME;
    this.legacyImports = options.legacyImports ?? LEGACY_IMPORTS_DB;
  }

  /** One connection for the page; another tab upgrading the schema makes this one close and reopen later. */
  private open(): Promise<IdbDatabaseLike> {
    if (this.opening) return this.opening;
    const p = this.openVersion(DB_VERSION).then(async (db) => {
      if (STORES.every((s) => db.objectStoreNames.contains(s))) return db;
      // A database without our stores (created empty by an open without a version, say): one version up
      // runs the upgrade that creates them.
      const next = (db.version ?? DB_VERSION) + 1;
      db.close();
      return this.openVersion(next);
    });
    this.opening = p;
    p.catch(() => {
      if (this.opening === p) this.opening = null; // the next call tries again
    });
    return p;
  }

  /** Opens at `version`, creating missing stores; a database already above it is opened as it is. */
  private openVersion(version: number | undefined): Promise<IdbDatabaseLike> {
    return new Promise<IdbDatabaseLike>((resolve, reject) => {
      let req: IdbOpenRequestLike;
      try {
        req = version === undefined ? this.factory.open(this.name) : this.factory.open(this.name, version);
      } catch (e) {
        return reject(new StorageError('unavailable', 'msg.import.store.unavailable', { detail: errMessage(e) }));
      }
      req.onupgradeneeded = () => {
        const db = req.result;
        for (const s of STORES) if (!db.objectStoreNames.contains(s)) db.createObjectStore(s, s === SETTINGS ? undefined : { keyPath: 'id' });
      };
      req.onsuccess = () => {
        const db = req.result;
        db.onversionchange = () => {
          db.close();
          this.opening = null;
        };
        resolve(db);
      };
      req.onerror = () => {
        // VersionError: a later kvscope (or a repair above) raised the version; its schema holds ours.
        if (version !== undefined && errName(req.error) === 'VersionError') return resolve(this.openVersion(undefined));
        reject(new StorageError('unavailable', 'msg.import.store.unavailable', { detail: errMessage(req.error) }));
      };
      req.onblocked = () => reject(new StorageError('blocked', 'msg.import.store.blocked'));
    });
  }

  /**
   * One transaction: `f` queues its requests and returns a reader for the result, called once the
   * transaction has committed. An abort (quota, a failed request) rejects with a StorageError and undoes it all.
   */
  async run<T>(stores: readonly StoreName[], mode: 'readonly' | 'readwrite', f: (get: (s: StoreName) => IdbObjectStoreLike) => () => T, commitNow = false): Promise<T> {
    const db = await this.open();
    return new Promise<T>((resolve, reject) => {
      let tx: IdbTransactionLike;
      try {
        tx = db.transaction([...stores], mode);
      } catch (e) {
        this.opening = null; // a closed connection (versionchange): the next call reopens
        return reject(toStorageError(e));
      }
      let result: () => T;
      try {
        result = f((s) => tx.objectStore(s));
      } catch (e) {
        // A value IndexedDB cannot store (DataCloneError) or a bad key: nothing was written.
        try {
          tx.abort();
        } catch {
          // already finished
        }
        return reject(toStorageError(e));
      }
      tx.oncomplete = () => {
        try {
          resolve(result());
        } catch (e) {
          reject(toStorageError(e));
        }
      };
      tx.onerror = () => undefined; // the abort that follows carries the reason
      tx.onabort = () => reject(toStorageError(tx.error, { key: 'msg.import.store.aborted' }));
      // A write is committed as soon as it is queued, so a reload right after typing does not cut it off.
      // Not when `f` queues more requests from a callback (renameImport, a full save's key sweep).
      if (mode === 'readwrite' && commitNow) {
        try {
          tx.commit?.();
        } catch {
          // already committing
        }
      }
    });
  }

  close(): void {
    const p = this.opening;
    this.opening = null;
    void p?.then((db) => db.close()).catch(() => undefined);
  }

  // ---- settings and scenarios --------------------------------------------------------------------------

  /** The stored state, scenarios in the user's order; null when nothing was saved yet. */
  async loadState(): Promise<StateSnapshot | null> {
    const { rec, all } = await this.run([SETTINGS, SCENARIOS], 'readonly', (s) => {
      const r = s(SETTINGS).get(STATE_KEY);
      const a = s(SCENARIOS).getAll();
      return () => ({ rec: r.result, all: a.result });
    });
    if (!isObj(rec)) return null;
    const order = Array.isArray(rec.order) ? rec.order.filter((x): x is string => typeof x === 'string') : [];
    const pos = new Map(order.map((id, i) => [id, i]));
    const custom = all.filter((c): c is StoredScenario => isObj(c) && typeof c.id === 'string');
    // Records the order does not name (written by a newer tab, say) follow the ordered ones, oldest first.
    const created = (c: StoredScenario) => (typeof c.createdAt === 'number' ? c.createdAt : 0);
    custom.sort((a, b) => (pos.get(a.id) ?? Infinity) - (pos.get(b.id) ?? Infinity) || created(a) - created(b));
    return { version: typeof rec.version === 'number' ? rec.version : 0, settings: isObj(rec.state) ? rec.state : {}, custom };
  }

  /** Writes what changed since `prev` (null: everything, and removes scenarios not in `next`) in one transaction. */
  async saveState(next: StateSnapshot, prev: StateSnapshot | null): Promise<SaveDiff> {
    const diff = diffSnapshots(next, prev);
    if (!diff.settings && diff.put.length === 0 && diff.deleted.length === 0) return diff;
    const full = prev === null;
    await this.run([SETTINGS, SCENARIOS], 'readwrite', (s) => {
      const scenarios = s(SCENARIOS);
      if (diff.settings) {
        const rec: SettingsRecord = { version: next.version, state: next.settings, order: next.custom.map((c) => c.id) };
        s(SETTINGS).put(rec, STATE_KEY);
      }
      for (const c of diff.put) scenarios.put(c);
      for (const id of diff.deleted) scenarios.delete(id);
      if (full) {
        // A full write also drops records no longer in the state (e.g. left by a failed earlier session).
        const keys = scenarios.getAllKeys();
        const keep = new Set(next.custom.map((c) => c.id));
        keys.onsuccess = () => {
          for (const k of keys.result) if (typeof k === 'string' && !keep.has(k)) scenarios.delete(k);
        };
      }
      return () => undefined;
    }, !full);
    return diff;
  }

  // ---- imports ---------------------------------------------------------------------------------------------

  /** Every stored import without its input, oldest first. */
  async listImports(): Promise<ImportMeta[]> {
    await this.moveLegacyImports();
    const all = await this.run([IMPORT_META], 'readonly', (s) => {
      const r = s(IMPORT_META).getAll();
      return () => r.result as ImportMeta[];
    });
    return all.sort((a, b) => a.createdAt - b.createdAt);
  }

  async readImport(id: string): Promise<StoredImport | null> {
    await this.moveLegacyImports();
    return this.run([IMPORT_META, IMPORT_INPUTS], 'readonly', (s) => {
      const m = s(IMPORT_META).get(id) as IdbRequestLike<ImportMeta | undefined>;
      const i = s(IMPORT_INPUTS).get(id) as IdbRequestLike<{ id: string; input: StoredImport['input'] } | undefined>;
      return () => (m.result && i.result ? { ...m.result, input: i.result.input } : null);
    });
  }

  /** Stores imports (metadata and inputs) in one transaction: all of them or, on a full quota, none. */
  async putImports(items: readonly StoredImport[]): Promise<void> {
    await this.moveLegacyImports();
    await this.run([IMPORT_META, IMPORT_INPUTS], 'readwrite', (s) => {
      for (const { input, ...meta } of items) {
        s(IMPORT_META).put(meta);
        s(IMPORT_INPUTS).put({ id: meta.id, input });
      }
      return () => undefined;
    });
  }

  putImport(item: StoredImport): Promise<void> {
    return this.putImports([item]);
  }

  async deleteImport(id: string): Promise<void> {
    await this.moveLegacyImports();
    await this.run([IMPORT_META, IMPORT_INPUTS], 'readwrite', (s) => {
      s(IMPORT_META).delete(id);
      s(IMPORT_INPUTS).delete(id);
      return () => undefined;
    });
  }

  async renameImport(id: string, name: string): Promise<void> {
    await this.moveLegacyImports();
    await this.run([IMPORT_META], 'readwrite', (s) => {
      const store = s(IMPORT_META);
      const req = store.get(id) as IdbRequestLike<ImportMeta | undefined>;
      req.onsuccess = () => {
        if (req.result) store.put({ ...req.result, name });
      };
      return () => undefined;
    });
  }

  // ---- moves from older versions ---------------------------------------------------------------------------

  /**
   * The imports database of older versions, copied into `kvscope` once (one transaction), compared, then
   * deleted. A failed copy leaves the old database in place and the next page load tries again.
   */
  moveLegacyImports(): Promise<void> {
    this.importsMoved ??= this.doMoveLegacyImports().catch((e) => {
      this.importsMoved = null;
      throw e;
    });
    return this.importsMoved;
  }

  private async doMoveLegacyImports(): Promise<void> {
    const done = await this.run([SETTINGS], 'readonly', (s) => {
      const r = s(SETTINGS).get(IMPORTS_MOVED_KEY);
      return () => r.result === true;
    });
    if (done) return;
    const old = await this.openLegacyImports();
    let items: StoredImport[] = [];
    if (old) {
      try {
        const { meta, inputs } = await readAllLegacy(old);
        const byId = new Map(inputs.filter(isObj).map((i) => [i.id, i.input]));
        items = meta.filter(isObj).flatMap((m): StoredImport[] => {
          const input = byId.get(m.id);
          return typeof m.id === 'string' && (typeof input === 'string' || input instanceof Uint8Array) ? [{ ...(m as unknown as ImportMeta), input }] : [];
        });
      } finally {
        old.close();
      }
    }
    // Copy and mark in one transaction; then read back before the old copy goes.
    await this.run([SETTINGS, IMPORT_META, IMPORT_INPUTS], 'readwrite', (s) => {
      for (const { input, ...meta } of items) {
        s(IMPORT_META).put(meta);
        s(IMPORT_INPUTS).put({ id: meta.id, input });
      }
      s(SETTINGS).put(true, IMPORTS_MOVED_KEY);
      return () => undefined;
    });
    const ids = await this.run([IMPORT_INPUTS], 'readonly', (s) => {
      const r = s(IMPORT_INPUTS).getAllKeys();
      return () => new Set(r.result);
    });
    if (items.some((i) => !ids.has(i.id))) throw new StorageError('failed', 'msg.import.store.importsUnverified');
    await deleteDatabase(this.factory, this.legacyImports).catch(() => undefined); // a leftover copy is harmless
  }

  /** The old imports database, or null when there is none (opening one that did not exist creates it empty: removed again). */
  private async openLegacyImports(): Promise<IdbDatabaseLike | null> {
    const db = await new Promise<IdbDatabaseLike | null>((resolve) => {
      let req: IdbOpenRequestLike;
      try {
        req = this.factory.open(this.legacyImports);
      } catch {
        return resolve(null);
      }
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => resolve(null);
      req.onblocked = () => resolve(null);
    });
    if (db && !(db.objectStoreNames.contains('meta') && db.objectStoreNames.contains('inputs'))) {
      db.close();
      await deleteDatabase(this.factory, this.legacyImports).catch(() => undefined);
      return null;
    }
    return db;
  }
}

function readAllLegacy(db: IdbDatabaseLike): Promise<{ meta: unknown[]; inputs: unknown[] }> {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(['meta', 'inputs'], 'readonly');
    const m = tx.objectStore('meta').getAll();
    const i = tx.objectStore('inputs').getAll();
    tx.oncomplete = () => resolve({ meta: m.result, inputs: i.result });
    tx.onabort = () => reject(toStorageError(tx.error));
  });
}

function deleteDatabase(factory: IdbFactoryLike, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = factory.deleteDatabase(name);
    req.onsuccess = () => resolve();
    req.onerror = () => reject(toStorageError(req.error));
    req.onblocked = () => resolve(); // deleted once the other connection closes
  });
}

// ---- the move from localStorage ------------------------------------------------------------------------------

export type LegacyMove =
  | { kind: 'none' }
  /** Moved and verified; the old key was removed. */
  | { kind: 'moved'; snapshot: StateSnapshot }
  /** The state is in IndexedDB already; a stale old key (an older tab wrote it) was removed. */
  | { kind: 'stale' }
  /** Could not be written: the old key is kept, and the state it holds is returned to show. */
  | { kind: 'failed'; snapshot: StateSnapshot; error: StorageError };

/** The state an older version kept in localStorage under `key` (zustand's `{state, version}` JSON), or null. */
export function readLegacyState(storage: StringStorageLike, key: string): StateSnapshot | null {
  let text: string | null;
  try {
    text = storage.getItem(key);
  } catch {
    return null;
  }
  if (text === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null; // unreadable: left where it is, never deleted
  }
  if (!isObj(parsed) || !isObj(parsed.state)) return null;
  const { custom, ...settings } = parsed.state;
  // One record per id (the store keeps the first of duplicates too), so the read-back compares equal.
  const seen = new Set<string>();
  const list = Array.isArray(custom) ? custom.filter((c): c is StoredScenario => isObj(c) && typeof c.id === 'string' && !seen.has(c.id) && Boolean(seen.add(c.id))) : [];
  return { version: typeof parsed.version === 'number' ? parsed.version : 0, settings, custom: list };
}

/**
 * Moves the localStorage state into the database when the database has none: write (one transaction), read
 * back, compare, and only then remove the old key. `existing` is what the database holds (loadState()).
 */
export async function moveLegacyState(db: KvscopeDb, storage: StringStorageLike, key: string, existing: StateSnapshot | null): Promise<LegacyMove> {
  const legacy = readLegacyState(storage, key);
  if (!legacy) return { kind: 'none' };
  if (existing) {
    remove(storage, key);
    return { kind: 'stale' };
  }
  try {
    await db.saveState(legacy, null);
    const back = await db.loadState();
    if (!back || JSON.stringify(back) !== JSON.stringify(legacy)) throw new StorageError('failed', 'msg.import.store.stateDiffers');

    remove(storage, key);
    return { kind: 'moved', snapshot: back };
  } catch (e) {
    return { kind: 'failed', snapshot: legacy, error: toStorageError(e) };
  }
}

function remove(storage: StringStorageLike, key: string): void {
  try {
    storage.removeItem(key);
  } catch {
    // kept: harmless, the database wins from now on
  }
}
