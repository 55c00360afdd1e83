// Imported run logs and attention files, kept in the page's IndexedDB database (lib/state/db.ts, beside the
// settings and scenarios; older versions' separate `kvscope-imports` database is moved in on first use).
// The raw input is stored, not the parsed form: on reload it goes through the same reader again, so a stored
// item can never bypass validation. Where IndexedDB is missing (some private modes) every call fails with a
// clear message and imports live for the page's lifetime only. A full quota rejects with a StorageError
// (code 'quota') and stores nothing of that import.
import { StorageError, type ImportMeta, type StoredImport } from '../../lib/state/db';
import { browserDb } from './kvscopeDb';

export type { ImportMeta, StoredImport } from '../../lib/state/db';

function db() {
  const d = browserDb();
  if (!d) throw new StorageError('unavailable', 'msg.import.store.noIdb');

  return d;
}

/** Every stored import without its input, oldest first. */
export async function listImports(): Promise<ImportMeta[]> {
  return db().listImports();
}

export async function readImport(id: string): Promise<StoredImport | null> {
  return db().readImport(id);
}

export async function putImport(item: StoredImport): Promise<void> {
  return db().putImport(item);
}

export async function deleteImport(id: string): Promise<void> {
  return db().deleteImport(id);
}

export async function renameImport(id: string, name: string): Promise<void> {
  return db().renameImport(id, name);
}
