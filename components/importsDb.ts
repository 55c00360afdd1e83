// Imported run logs and attention files, kept in IndexedDB so they survive a reload (attention files run to
// many MB: too big for localStorage). The raw input is stored, not the parsed form: on reload it goes
// through the same reader again, so a stored item can never bypass validation. Where IndexedDB is missing
// (some private modes) every call fails with a clear message and imports live for the page's lifetime only.
import type { ImportKind } from '../lib/import/importData';

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
const STORE = 'items';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    if (typeof indexedDB === 'undefined') return reject(new Error('this browser offers no IndexedDB here (private mode?)'));
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'id' });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB could not be opened'));
    req.onblocked = () => reject(new Error('IndexedDB is blocked by another tab of kvscope'));
  });
}

async function run<T>(mode: IDBTransactionMode, f: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = f(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = () => reject(tx.error ?? req.error ?? new Error('IndexedDB transaction failed'));
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted (storage full?)'));
    });
  } finally {
    db.close();
  }
}

/** Every stored import without its input, oldest first. */
export async function listImports(): Promise<ImportMeta[]> {
  const all = await run('readonly', (s) => s.getAll() as IDBRequest<StoredImport[]>);
  return all.map(({ input: _input, ...meta }) => meta).sort((a, b) => a.createdAt - b.createdAt);
}

export async function readImport(id: string): Promise<StoredImport | null> {
  return ((await run('readonly', (s) => s.get(id) as IDBRequest<StoredImport | undefined>)) ?? null) as StoredImport | null;
}

export async function putImport(item: StoredImport): Promise<void> {
  await run('readwrite', (s) => s.put(item));
}

export async function deleteImport(id: string): Promise<void> {
  await run('readwrite', (s) => s.delete(id));
}

export async function renameImport(id: string, name: string): Promise<void> {
  const item = await readImport(id);
  if (item) await putImport({ ...item, name });
}
