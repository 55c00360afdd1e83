// The page's IndexedDB database (lib/state/db.ts over the browser's `indexedDB`), one per page, and the
// store options the lab and the lessons pages create their store with: IndexedDB with the one-time move
// from localStorage; localStorage itself where this browser offers no IndexedDB; memory where it offers
// neither (the store then reports that nothing is kept).
import { KvscopeDb } from '../../lib/state/db';
import type { StoreOptions } from '../../lib/state/store';

let db: KvscopeDb | null | undefined;

/** The page's database, or null where this browser has no IndexedDB (some private modes, old browsers). */
export function browserDb(): KvscopeDb | null {
  if (db !== undefined) return db;
  try {
    db = typeof indexedDB === 'undefined' ? null : new KvscopeDb(indexedDB);
  } catch {
    db = null;
  }
  return db;
}

function localStorageOrNull(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // private modes may refuse it
  }
}

const memoryStorage = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k) };
};

/** How the page's store keeps its state (prerendering gets a storage that keeps nothing). */
export function browserStoreOptions(): StoreOptions {
  if (typeof window === 'undefined') return { storage: { getItem: () => null, setItem: () => {}, removeItem: () => {} } };
  const d = browserDb();
  const local = localStorageOrNull();
  if (!d) return { storage: local ?? memoryStorage() };
  const storage = typeof navigator !== 'undefined' ? navigator.storage : undefined;
  return {
    db: {
      db: d,
      legacy: local ?? undefined,
      estimate: storage?.estimate ? () => storage.estimate() : undefined,
    },
  };
}

/** How full this site's storage is, when the browser says. */
export async function storageEstimate(): Promise<{ usage: number | null; quota: number | null }> {
  try {
    const e = await navigator.storage?.estimate?.();
    return { usage: e?.usage ?? null, quota: e?.quota ?? null };
  } catch {
    return { usage: null, quota: null };
  }
}
