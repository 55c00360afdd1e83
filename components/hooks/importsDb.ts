// Imported run logs and attention files, kept in IndexedDB so they survive a reload (attention files run to
// many MB: too big for localStorage). The raw input is stored, not the parsed form: on reload it goes
// through the same reader again, so a stored item can never bypass validation. Where IndexedDB is missing
// (some private modes) every call fails with a clear message and imports live for the page's lifetime only.
import type { ImportKind } from '../../lib/io/importData';

export interface StoredImport {
  id: string;
  name: string;
  kind: Exclude<ImportKind, 'request'>;
  createdAt: number;
  /** What the user gave: text (pasted, JSON files) or bytes (.safetensors). */
  input: string | Uint8Array;
  /** Size of the input in bytes or characters, for the list. */
  size: number;
}

export type ImportMeta = Omit<StoredImport, 'input'>;

const DB = 'kvscope-imports';
// Metadata and inputs in separate stores: listing (every page load) and renaming never read the inputs,
// which run to hundreds of MB for attention files.
const META = 'meta';
const INPUTS = 'inputs';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    if (typeof indexedDB === 'undefined') return reject(new Error('this browser offers no IndexedDB here (private mode?)'));
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => {
      req.result.createObjectStore(META, { keyPath: 'id' });
      req.result.createObjectStore(INPUTS, { keyPath: 'id' });
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB could not be opened'));
    req.onblocked = () => reject(new Error('IndexedDB is blocked by another tab of kvscope'));
  });
}

/** One transaction over both stores; resolves with what `f` returns once the transaction has completed. */
async function run<T>(mode: IDBTransactionMode, f: (meta: IDBObjectStore, inputs: IDBObjectStore) => () => T): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction([META, INPUTS], mode);
      const result = f(tx.objectStore(META), tx.objectStore(INPUTS));
      tx.oncomplete = () => resolve(result());
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted (storage full?)'));
    });
  } finally {
    db.close();
  }
}

/** Every stored import without its input, oldest first. */
export async function listImports(): Promise<ImportMeta[]> {
  const all = await run('readonly', (meta) => {
    const req = meta.getAll() as IDBRequest<ImportMeta[]>;
    return () => req.result;
  });
  return all.sort((a, b) => a.createdAt - b.createdAt);
}

export async function readImport(id: string): Promise<StoredImport | null> {
  return run('readonly', (meta, inputs) => {
    const m = meta.get(id) as IDBRequest<ImportMeta | undefined>;
    const i = inputs.get(id) as IDBRequest<{ id: string; input: StoredImport['input'] } | undefined>;
    return () => (m.result && i.result ? { ...m.result, input: i.result.input } : null);
  });
}

export async function putImport({ input, ...meta }: StoredImport): Promise<void> {
  await run('readwrite', (m, inputs) => {
    m.put(meta);
    inputs.put({ id: meta.id, input });
    return () => undefined;
  });
}

export async function deleteImport(id: string): Promise<void> {
  await run('readwrite', (meta, inputs) => {
    meta.delete(id);
    inputs.delete(id);
    return () => undefined;
  });
}

export async function renameImport(id: string, name: string): Promise<void> {
  await run('readwrite', (meta) => {
    const req = meta.get(id) as IDBRequest<ImportMeta | undefined>;
    req.onsuccess = () => req.result && meta.put({ ...req.result, name });
    return () => undefined;
  });
}
