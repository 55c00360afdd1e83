// A model repository on the Hugging Face Hub (or a mirror, or a local server with the Hub's URL layout), read
// file by file over HTTP: `<endpoint>/<org>/<name>/resolve/<revision>/<file>`. Only fetch is used, so it runs
// on the page, in workers and in Node (the CLI's cache download). Downloads report progress, resume after a
// dropped connection with Range requests, and go through an optional BlobCache so a reload fetches nothing.

import type { Params, StringKey } from '../../i18n';
import { ModelSourceError, type FileProgress, type ModelFiles, type ProgressFn } from './types';

export const DEFAULT_ENDPOINT = 'https://huggingface.co';

export type FetchFn = (url: string, init?: RequestInit) => Promise<Response>;

/** Where a cached blob came from, so a cache can list and delete models (the URL alone is ambiguous). */
export interface BlobMeta {
  endpoint: string;
  repo: string;
  revision: string;
  file: string;
}

/** Whole files by URL. A cache that fails to store must not fail the load: HubFiles ignores put errors. */
export interface BlobCache {
  get(url: string): Promise<Uint8Array | null>;
  put(url: string, bytes: Uint8Array, meta?: BlobMeta): Promise<void>;
  /** Bytes of a cached file without reading it, or null when not cached. */
  size?(url: string): Promise<number | null>;
  /** Bytes [start, end) of a cached file without reading all of it, or null when not cached. */
  range?(url: string, start: number, end: number): Promise<Uint8Array | null>;
}

// ---------------------------------------------------------------------------------------------------------
// Repo ids and endpoints


/** One part of a repo id as the Hub allows it: [A-Za-z0-9._-], no `..`, no leading/trailing `-` or `.`, ≤ 96. */
function validPart(s: string): boolean {
  return s.length > 0 && s.length <= 96 && /^[A-Za-z0-9._-]+$/.test(s) && !s.includes('..') && !/^[-.]|[-.]$/.test(s);
}

/** A branch, tag, commit or `refs/pr/N`: no spaces, no `..`, no empty path segment. */
function validRevision(s: string): boolean {
  return s.length > 0 && s.length <= 256 && /^[A-Za-z0-9._\-/]+$/.test(s) && !s.includes('..') && !s.split('/').includes('');
}

/** Why a text is not a repo id, each a 'msg.model.hub.*' key: the message then says what is accepted. */
type BadRepoWhy = 'badRepo' | 'badRepoNames' | 'badRepoRevision' | 'badRepoCredentials' | 'badRepoSpace' | 'badRepoDataset';

function badRepo(text: string, why: BadRepoWhy = 'badRepo', revision?: string): ModelSourceError {
  const shown = text.length > 120 ? text.slice(0, 117) + '…' : text;
  const params: Params = { text: shown };
  if (revision !== undefined) params.revision = revision.length > 60 ? revision.slice(0, 59) + '…' : revision;
  return new ModelSourceError('bad_repo_id', `msg.model.hub.${why}`, params);
}

export interface RepoRef {
  /** `org/name`. */
  repo: string;
  /** Branch, tag or commit; `main` when none was given. */
  revision: string;
  /** The URL's origin and path prefix when a full URL was given (e.g. a mirror's); informational. */
  endpoint?: string;
}

/** Parses `org/name`, `org/name@rev`, or a Hub URL (`…/org/name`, `…/org/name/tree/<rev>`, `…/resolve|blob/<rev>/…`). */
export function parseRepoId(text: string): RepoRef {
  const t = text.trim();
  if (/^https?:\/\//i.test(t)) return parseRepoUrl(t, text);
  const at = t.indexOf('@');
  const id = at < 0 ? t : t.slice(0, at);
  const revision = at < 0 ? 'main' : t.slice(at + 1);
  const parts = id.split('/');
  if (parts.length !== 2) throw badRepo(text);
  const [org, name] = parts as [string, string];
  if (!validPart(org) || !validPart(name)) throw badRepo(text, 'badRepoNames');
  if (!validRevision(revision)) throw badRepo(text, 'badRepoRevision', revision);
  return { repo: `${org}/${name}`, revision };
}

function parseRepoUrl(t: string, text: string): RepoRef {
  let u: URL;
  try {
    u = new URL(t);
  } catch {
    throw badRepo(text);
  }
  if (u.username || u.password) throw badRepo(text, 'badRepoCredentials');
  const segs = u.pathname.split('/').filter((s) => s !== '');
  if (segs[0] === 'datasets' || segs[0] === 'spaces') throw badRepo(text, segs[0] === 'spaces' ? 'badRepoSpace' : 'badRepoDataset');
  if (segs[0] === 'models') segs.shift();
  if (segs.length < 2) throw badRepo(text);
  const [org, name, kind, rev] = segs as [string, string, string | undefined, string | undefined];
  if (!validPart(org) || !validPart(name)) throw badRepo(text, 'badRepoNames');
  let revision = 'main';
  if (kind !== undefined) {
    if (!['tree', 'resolve', 'blob'].includes(kind) || rev === undefined) throw badRepo(text);
    try {
      revision = decodeURIComponent(rev);
    } catch {
      throw badRepo(text);
    }
    if (!validRevision(revision)) throw badRepo(text, 'badRepoRevision', revision);
  }
  return { repo: `${org}/${name}`, revision, endpoint: u.origin };
}

/** An endpoint like HF_ENDPOINT: http(s) only, no credentials, query or fragment; trailing slashes removed. */
export function normaliseEndpoint(text?: string | null): string {
  const t = (text ?? '').trim();
  if (t === '') return DEFAULT_ENDPOINT;
  const bad = (key: StringKey, params: Params = {}) => new ModelSourceError('bad_endpoint', key, { ...params, endpoint: t });
  let u: URL;
  try {
    u = new URL(t);
  } catch {
    throw bad('msg.model.hub.endpointNotUrl');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw bad('msg.model.hub.endpointScheme', { scheme: u.protocol.replace(/:$/, '') });
  if (u.username || u.password) throw bad('msg.model.hub.endpointCredentials');
  if (u.search || u.hash) throw bad('msg.model.hub.endpointQuery');
  // A loop, not /\/+$/: that regex backtracks quadratically on a path of many slashes followed by a letter.
  let end = u.pathname.length;
  while (end > 0 && u.pathname.charCodeAt(end - 1) === 47) end--;
  return u.origin + u.pathname.slice(0, end);
}

/** The resolve URL of one file; each path segment of the file is encoded, the revision as one segment. */
export function hubFileUrl(endpoint: string, repo: string, revision: string, file: string): string {
  return `${endpoint}/${repo}/resolve/${encodeURIComponent(revision)}/${file.split('/').map(encodeURIComponent).join('/')}`;
}

// ---------------------------------------------------------------------------------------------------------
// Progress

/** Transfer rate smoothed over the last ~3 s, so the shown rate and ETA do not jump with every chunk. */
export class RateMeter {
  private samples: { t: number; n: number }[] = [];
  constructor(private readonly windowMs = 3000) {}
  /** Records `loaded` bytes at time `t` (ms) and returns bytes per second over the window. */
  add(t: number, loaded: number): number {
    this.samples.push({ t, n: loaded });
    // Keep one sample at or before the window's start so the rate spans the whole window.
    while (this.samples.length > 2 && this.samples[1]!.t <= t - this.windowMs) this.samples.shift();
    const first = this.samples[0]!;
    const dt = (t - first.t) / 1000;
    return dt > 0 ? Math.max(0, (loaded - first.n) / dt) : 0;
  }
}

function progress(file: string, loaded: number, total: number | null, rate: number, cached: boolean): FileProgress {
  const etaSeconds = cached ? 0 : total !== null && rate > 0 ? Math.max(0, (total - loaded) / rate) : null;
  return { file, loaded, total, bytesPerSecond: cached ? 0 : rate, etaSeconds, cached };
}

/** Grows only when the server sent more than it announced (a compressed Content-Length). */
class Assembler {
  private buf: Uint8Array;
  length = 0;
  constructor(expected: number | null) {
    this.buf = new Uint8Array(expected ?? 1 << 16);
  }
  push(chunk: Uint8Array): void {
    if (this.length + chunk.length > this.buf.length) {
      const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + chunk.length));
      next.set(this.buf.subarray(0, this.length));
      this.buf = next;
    }
    this.buf.set(chunk, this.length);
    this.length += chunk.length;
  }
  result(): Uint8Array {
    return this.length === this.buf.length ? this.buf : this.buf.slice(0, this.length);
  }
}

// ---------------------------------------------------------------------------------------------------------
// HubFiles

export interface HubFileMeta {
  size: number | null;
  /** ETag without quotes or `W/` (X-Linked-Etag when a redirect carried it: the LFS file's sha256). */
  etag: string | null;
  /** X-Repo-Commit: the commit the revision resolved to, when the server said. */
  commit: string | null;
}

export interface HubFilesOptions {
  /** `org/name`, `org/name@rev` or a Hub URL (its host is ignored: `endpoint` says where to fetch). */
  repo: string;
  revision?: string;
  endpoint?: string;
  fetch?: FetchFn;
  cache?: BlobCache | null;
  /** Resume attempts after a dropped connection (default 5). */
  retries?: number;
  /** First backoff delay in ms, doubled each try up to 2 s (default 250). */
  retryDelayMs?: number;
  /** Least ms between progress reports while a file streams (default 100; the last report always comes). */
  progressIntervalMs?: number;
  /**
   * 'manual' makes meta() read a redirect's X-Linked-Size / X-Linked-Etag / X-Repo-Commit the way
   * huggingface_hub does (Node only: browsers hide redirect headers). Default 'follow'.
   */
  headRedirect?: 'follow' | 'manual';
  now?: () => number;
}

const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);

function normEtag(v: string | null): string | null {
  if (!v) return null;
  const s = v.trim().replace(/^W\//, '').replace(/^"|"$/g, '');
  return s === '' ? null : s;
}

function parseContentRange(v: string | null): { start: number; end: number; total: number | null } | null {
  const m = v ? /^bytes\s+(\d+)-(\d+)\/(\d+|\*)$/i.exec(v.trim()) : null;
  if (!m) return null;
  return { start: Number(m[1]), end: Number(m[2]), total: m[3] === '*' ? null : Number(m[3]) };
}

function contentLength(res: Response): number | null {
  const v = res.headers.get('content-length');
  if (v === null || !/^\d+$/.test(v.trim())) return null;
  return Number(v);
}

function isAbort(e: unknown, signal?: AbortSignal): boolean {
  return signal?.aborted === true || (e instanceof Error && e.name === 'AbortError');
}

export class HubFiles implements ModelFiles {
  readonly kind = 'hub' as const;
  readonly label: string;
  readonly repo: string;
  readonly revision: string;
  readonly endpoint: string;
  /** The last X-Repo-Commit any response carried (the revision's commit), or null. */
  commit: string | null = null;
  private readonly fetchFn: FetchFn;
  private readonly cache: BlobCache | null;
  private readonly retries: number;
  private readonly retryDelayMs: number;
  private readonly progressIntervalMs: number;
  private readonly headRedirect: 'follow' | 'manual';
  private readonly now: () => number;

  constructor(o: HubFilesOptions) {
    // `org/name@rev` as the repo carries its revision; an explicit `revision` wins.
    const ref = parseRepoId(o.repo);
    this.repo = ref.repo;
    this.revision = o.revision ?? ref.revision;
    this.endpoint = normaliseEndpoint(o.endpoint);
    this.label = `${this.repo}@${this.revision}`;
    // Bound through a closure: a bare `fetch` called as a method of another object throws in browsers.
    this.fetchFn = o.fetch ?? ((url, init) => fetch(url, init));
    this.cache = o.cache ?? null;
    this.retries = o.retries ?? 5;
    this.retryDelayMs = o.retryDelayMs ?? 250;
    this.progressIntervalMs = o.progressIntervalMs ?? 100;
    this.headRedirect = o.headRedirect ?? 'follow';
    this.now = o.now ?? (() => performance.now());
  }

  url(file: string): string {
    return hubFileUrl(this.endpoint, this.repo, this.revision, file);
  }

  private blobMeta(file: string): BlobMeta {
    return { endpoint: this.endpoint, repo: this.repo, revision: this.revision, file };
  }

  private remember(res: Response): void {
    const c = res.headers.get('x-repo-commit');
    if (c && /^[0-9a-f]{40}$/i.test(c.trim())) this.commit = c.trim().toLowerCase();
  }

  /** A typed error for a failed response; 404 / 401 / 403 get the sentences users need. */
  private httpError(res: Response, file: string, url: string): ModelSourceError {
    const code = res.headers.get('x-error-code');
    const params = { repo: this.repo, revision: this.revision, file, url, status: res.status, endpoint: this.endpoint };
    if (res.status === 401 || res.status === 403 || code === 'GatedRepo') {
      if (code === 'RepoNotFound') return new ModelSourceError('not_found', 'msg.model.hub.repoNotFoundStatus', { ...params, missing: 'repo' });
      return new ModelSourceError('gated', 'msg.model.hub.gated', params);
    }
    if (res.status === 404) {
      // `missing` tells a missing file (size/text answer null) from a missing repo or revision (always an error).
      if (code === 'RepoNotFound') return new ModelSourceError('not_found', 'msg.model.hub.repoNotFound', { ...params, missing: 'repo' });
      if (code === 'RevisionNotFound') return new ModelSourceError('not_found', 'msg.model.hub.revisionNotFound', { ...params, missing: 'revision' });
      return new ModelSourceError('not_found', 'msg.model.hub.fileNotFound', { ...params, missing: 'file' });
    }
    return new ModelSourceError('network', 'msg.model.hub.http', { ...params, statusText: res.statusText });
  }

  private aborted(file: string): ModelSourceError {
    return new ModelSourceError('aborted', 'msg.model.hub.aborted', { repo: this.repo, file, label: this.label });
  }

  private async request(url: string, file: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
    if (signal?.aborted) throw this.aborted(file);
    try {
      const res = await this.fetchFn(url, { ...init, signal });
      this.remember(res);
      return res;
    } catch (e) {
      if (isAbort(e, signal)) throw this.aborted(file);
      throw new ModelSourceError('network', 'msg.model.hub.unreachable', { url, file, detail: (e as Error).message });
    }
  }

  private async sleep(ms: number, file: string, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw this.aborted(file);
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(t);
        reject(this.aborted(file));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Null for a 404 on a missing file; a missing repo or revision stays an error. */
  private absent(res: Response, file: string, url: string): null {
    const e = this.httpError(res, file, url);
    if (e.params.missing === 'file') return null;
    throw e;
  }

  /** Size, ETag and commit of a file (HEAD, or a one-byte range GET where HEAD fails); null on 404. */
  async meta(file: string, signal?: AbortSignal): Promise<HubFileMeta | null> {
    let url = this.url(file);
    let head: Response | null = null;
    try {
      for (let hop = 0; hop < 5; hop++) {
        const res = await this.request(url, file, { method: 'HEAD', redirect: this.headRedirect }, signal);
        const linked = res.headers.get('x-linked-size');
        const location = res.headers.get('location');
        if (res.status >= 300 && res.status < 400 && location) {
          // huggingface_hub stops at the LFS redirect and trusts its X-Linked-* headers; otherwise follow it.
          if (linked && /^\d+$/.test(linked)) {
            return { size: Number(linked), etag: normEtag(res.headers.get('x-linked-etag') ?? res.headers.get('etag')), commit: this.commit };
          }
          url = new URL(location, url).toString();
          continue;
        }
        head = res;
        break;
      }
    } catch (e) {
      if (e instanceof ModelSourceError && e.code === 'aborted') throw e;
      head = null; // Some servers refuse HEAD outright: try the range GET below.
    }
    if (head) {
      if (head.status === 404) return this.absent(head, file, this.url(file));
      if (head.ok && contentLength(head) !== null) {
        return { size: contentLength(head), etag: normEtag(head.headers.get('x-linked-etag') ?? head.headers.get('etag')), commit: this.commit };
      }
      if (!head.ok && head.status !== 405 && head.status !== 501) throw this.httpError(head, file, this.url(file));
    }
    const res = await this.request(this.url(file), file, { headers: { Range: 'bytes=0-0' } }, signal);
    if (res.status === 404) {
      await res.body?.cancel().catch(() => {});
      return this.absent(res, file, this.url(file));
    }
    if (res.status === 416) {
      await res.body?.cancel().catch(() => {});
      return { size: 0, etag: normEtag(res.headers.get('etag')), commit: this.commit };
    }
    if (!res.ok) throw this.httpError(res, file, this.url(file));
    const cr = parseContentRange(res.headers.get('content-range'));
    const size = res.status === 206 ? (cr?.total ?? null) : contentLength(res);
    await res.body?.cancel().catch(() => {});
    return { size, etag: normEtag(res.headers.get('x-linked-etag') ?? res.headers.get('etag')), commit: this.commit };
  }

  async size(file: string, signal?: AbortSignal): Promise<number | null> {
    const cached = await this.cacheSize(file);
    if (cached !== null) return cached;
    const m = await this.meta(file, signal);
    return m ? m.size : null;
  }

  private async cacheSize(file: string): Promise<number | null> {
    if (!this.cache) return null;
    const url = this.url(file);
    if (this.cache.size) return this.cache.size(url);
    const b = await this.cache.get(url);
    return b ? b.length : null;
  }

  async text(file: string, signal?: AbortSignal): Promise<string | null> {
    try {
      return new TextDecoder().decode(await this.bytes(file, undefined, signal));
    } catch (e) {
      if (e instanceof ModelSourceError && e.code === 'not_found' && e.params.missing === 'file') return null;
      throw e;
    }
  }

  async range(file: string, start: number, end: number, signal?: AbortSignal): Promise<Uint8Array> {
    if (end <= start) return new Uint8Array(0);
    const url = this.url(file);
    if (this.cache) {
      const hit = this.cache.range ? await this.cache.range(url, start, end) : ((await this.cache.get(url))?.slice(start, end) ?? null);
      if (hit) return hit;
    }
    const res = await this.request(url, file, { headers: { Range: `bytes=${start}-${end - 1}` } }, signal);
    if (res.status === 416) {
      await res.body?.cancel().catch(() => {});
      throw new ModelSourceError('network', 'msg.model.hub.tooShort', { url, file, label: this.label, need: start + 1, start, last: end - 1 });
    }
    if (!res.ok) throw this.httpError(res, file, url);
    let body: Uint8Array;
    try {
      body = new Uint8Array(await res.arrayBuffer());
    } catch (e) {
      if (isAbort(e, signal)) throw this.aborted(file);
      throw new ModelSourceError('network', 'msg.model.hub.rangeDropped', { url, file, start, last: end - 1, detail: (e as Error).message });
    }
    if (res.status === 206) {
      const cr = parseContentRange(res.headers.get('content-range'));
      if (cr && cr.start !== start) throw new ModelSourceError('network', 'msg.model.hub.rangeStart', { url, file, got: cr.start, start });
      return body.length > end - start ? body.slice(0, end - start) : body;
    }
    // A server that ignores Range sends the whole file with 200: take the part asked for.
    return body.slice(start, end);
  }

  async bytes(file: string, onProgress?: ProgressFn, signal?: AbortSignal): Promise<Uint8Array> {
    const url = this.url(file);
    if (this.cache) {
      const hit = await this.cache.get(url);
      if (hit) {
        onProgress?.(progress(file, hit.length, hit.length, 0, true));
        return hit;
      }
    }
    const out = await this.download(file, url, onProgress, signal);
    if (this.cache) {
      // Quota errors and the like only cost the next reload a download; the bytes in hand are good.
      await this.cache.put(url, out, this.blobMeta(file)).catch(() => {});
    }
    return out;
  }

  /** Streams a file, resuming with `Range: bytes=<loaded>-` after a drop, until every byte is in. */
  private async download(file: string, url: string, onProgress: ProgressFn | undefined, signal: AbortSignal | undefined): Promise<Uint8Array> {
    const meter = new RateMeter();
    let asm: Assembler | null = null;
    let total: number | null = null;
    let failures = 0;
    let lastReport = -Infinity;
    const report = (force: boolean) => {
      if (!onProgress || !asm) return;
      const t = this.now();
      const rate = meter.add(t, asm.length);
      if (!force && t - lastReport < this.progressIntervalMs) return;
      lastReport = t;
      onProgress(progress(file, asm.length, total, rate, false));
    };
    const retry = async (why: string) => {
      failures++;
      if (failures > this.retries) {
        throw new ModelSourceError('network', 'msg.model.hub.downloadFailed', { url, file, retries: this.retries, got: asm?.length ?? 0, total: total ?? '?', why });
      }
      await this.sleep(Math.min(2000, this.retryDelayMs * 2 ** (failures - 1)), file, signal);
    };

    for (;;) {
      const from = asm?.length ?? 0;
      let res: Response;
      try {
        res = await this.request(url, file, from > 0 ? { headers: { Range: `bytes=${from}-` } } : {}, signal);
      } catch (e) {
        if (e instanceof ModelSourceError && e.code === 'network') {
          await retry(e.message);
          continue;
        }
        throw e;
      }
      if (RETRYABLE_STATUS.has(res.status)) {
        await res.body?.cancel().catch(() => {});
        await retry(`HTTP ${res.status}`);
        continue;
      }
      if (!res.ok) {
        await res.body?.cancel().catch(() => {});
        throw this.httpError(res, file, url);
      }
      if (from > 0 && res.status === 206) {
        const cr = parseContentRange(res.headers.get('content-range'));
        if (!cr || cr.start !== from || (total !== null && cr.total !== null && cr.total !== total)) {
          await res.body?.cancel().catch(() => {});
          throw new ModelSourceError('network', 'msg.model.hub.resumeMismatch', { url, file, from, range: String(res.headers.get('content-range')) });
        }
      } else {
        // First response, or a server that ignored Range and sent the whole file again: start over.
        const cr = res.status === 206 ? parseContentRange(res.headers.get('content-range')) : null;
        total = cr ? cr.total : contentLength(res);
        asm = new Assembler(total);
      }
      const a: Assembler = asm!;
      report(true);
      let dropped: string | null = null;
      if (!res.body) {
        a.push(new Uint8Array(await res.arrayBuffer()));
      } else {
        const reader = res.body.getReader();
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            a.push(value);
            report(false);
          }
        } catch (e) {
          if (isAbort(e, signal)) throw this.aborted(file);
          dropped = (e as Error).message || String(e);
        }
      }
      if (dropped === null && total !== null && a.length < total) dropped = `the body ended at byte ${a.length} of ${total}`;
      if (dropped !== null) {
        if (signal?.aborted) throw this.aborted(file);
        report(true);
        await retry(`connection dropped: ${dropped}`);
        continue;
      }
      // More than announced happens when Content-Length counted compressed bytes: the decoded body is the file.
      if (total !== null && a.length > total) total = a.length;
      if (total === null) total = a.length;
      report(true);
      return a.result();
    }
  }
}
