// Hub downloads kept in the browser's Cache Storage, so a reload reads weights from disk instead of the
// network. Each entry is keyed by its resolve URL and carries which endpoint / repo / revision / file it is,
// so the model picker can list cached models and delete one. The CacheStorage is passed in (the page's
// `caches`, or an in-memory fake in Node tests); without one every call is a no-op.

import type { BlobCache, BlobMeta } from './hub';

export const CACHE_NAME = 'kvscope-models-v1';

/** The parts of the Cache API used here (structural, so no DOM lib types are needed). */
export interface CacheLike {
  match(request: string): Promise<Response | undefined>;
  put(request: string, response: Response): Promise<void>;
  delete(request: string): Promise<boolean>;
  keys(): Promise<ReadonlyArray<{ url: string }>>;
}

export interface CacheStorageLike {
  open(name: string): Promise<CacheLike>;
}

export interface CachedModel {
  endpoint: string;
  repo: string;
  revision: string;
  files: { name: string; bytes: number }[];
  bytes: number;
}

const H = { repo: 'x-kvscope-repo', revision: 'x-kvscope-revision', endpoint: 'x-kvscope-endpoint', file: 'x-kvscope-file' } as const;

/** The page's or worker's CacheStorage, or null where there is none (Node, insecure origins). */
export function defaultCacheStorage(): CacheStorageLike | null {
  const c = (globalThis as { caches?: CacheStorageLike }).caches;
  return c && typeof c.open === 'function' ? c : null;
}

const NO_CACHE: BlobCache = {
  get: async () => null,
  put: async () => {},
  size: async () => null,
  range: async () => null,
};

/** A BlobCache over Cache Storage; a no-op when `storage` is null (e.g. no `caches` global). */
export function browserBlobCache(storage: CacheStorageLike | null = defaultCacheStorage()): BlobCache {
  if (!storage) return NO_CACHE;
  let opened: Promise<CacheLike> | null = null;
  const cache = () => (opened ??= storage.open(CACHE_NAME));
  const sizeOf = (res: Response): number | null => {
    const v = res.headers.get('content-length');
    return v !== null && /^\d+$/.test(v) ? Number(v) : null;
  };
  return {
    async get(url) {
      const res = await (await cache()).match(url);
      if (!res) return null;
      const bytes = new Uint8Array(await res.arrayBuffer());
      // An entry whose body does not match its recorded length is not trusted: download again.
      const expect = sizeOf(res);
      return expect === null || expect === bytes.length ? bytes : null;
    },
    async put(url, bytes, meta?: BlobMeta) {
      const headers: Record<string, string> = { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) };
      if (meta) {
        headers[H.repo] = meta.repo;
        headers[H.revision] = meta.revision;
        headers[H.endpoint] = meta.endpoint;
        headers[H.file] = meta.file;
      }
      await (await cache()).put(url, new Response(bytes as Uint8Array<ArrayBuffer>, { headers }));
    },
    async size(url) {
      const res = await (await cache()).match(url);
      if (!res) return null;
      await res.body?.cancel().catch(() => {});
      return sizeOf(res);
    },
    async range(url, start, end) {
      const res = await (await cache()).match(url);
      if (!res) return null;
      // blob().slice reads only the part asked for where the browser backs cache bodies by disk.
      const blob = await res.blob();
      return new Uint8Array(await blob.slice(start, end).arrayBuffer());
    },
  };
}

/** Every model with at least one file in the cache, grouped by endpoint, repo and revision. */
export async function listCachedModels(storage: CacheStorageLike | null = defaultCacheStorage()): Promise<CachedModel[]> {
  if (!storage) return [];
  const cache = await storage.open(CACHE_NAME);
  const byModel = new Map<string, CachedModel>();
  for (const req of await cache.keys()) {
    const res = await cache.match(req.url);
    if (!res) continue;
    const h = res.headers;
    await res.body?.cancel().catch(() => {});
    const repo = h.get(H.repo);
    const revision = h.get(H.revision);
    const endpoint = h.get(H.endpoint);
    const name = h.get(H.file);
    if (!repo || !revision || !endpoint || !name) continue;
    const bytes = Number(h.get('content-length')) || 0;
    const key = JSON.stringify([endpoint, repo, revision]);
    let m = byModel.get(key);
    if (!m) byModel.set(key, (m = { endpoint, repo, revision, files: [], bytes: 0 }));
    m.files.push({ name, bytes });
    m.bytes += bytes;
  }
  const out = [...byModel.values()];
  // Code-unit order, not localeCompare: the same list in every locale.
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  for (const m of out) m.files.sort((a, b) => cmp(a.name, b.name));
  return out.sort((a, b) => cmp(a.repo, b.repo) || cmp(a.revision, b.revision) || cmp(a.endpoint, b.endpoint));
}

/** Deletes every cached file of one model; returns how many entries were removed. */
export async function deleteCachedModel(endpoint: string, repo: string, revision: string, storage: CacheStorageLike | null = defaultCacheStorage()): Promise<number> {
  if (!storage) return 0;
  const cache = await storage.open(CACHE_NAME);
  let removed = 0;
  for (const req of await cache.keys()) {
    const res = await cache.match(req.url);
    if (!res) continue;
    const h = res.headers;
    await res.body?.cancel().catch(() => {});
    if (h.get(H.endpoint) === endpoint && h.get(H.repo) === repo && h.get(H.revision) === revision) {
      if (await cache.delete(req.url)) removed++;
    }
  }
  return removed;
}
