// `--model` for the CLI: a folder on disk, or a Hub repo id read from the Hugging Face cache the way
// huggingface_hub lays it out (so models downloaded with Python just work), downloaded into that cache when
// HF_HUB_OFFLINE is not set. Honours HF_HUB_CACHE, HF_HOME, XDG_CACHE_HOME, HF_ENDPOINT and HF_HUB_OFFLINE.
//
// Layout (huggingface_hub's file_download.py):
//   <cache>/models--<org>--<name>/refs/<revision>            the commit hash the revision points to
//   <cache>/models--<org>--<name>/blobs/<etag>               file contents (etag = sha256 for LFS files)
//   <cache>/models--<org>--<name>/snapshots/<commit>/<file>  relative symlink to the blob (a copy where
//                                                           symlinks fail)
//   <cache>/models--<org>--<name>/.no_exist/<commit>/<file>  marks an optional file the repo does not have

import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { DiskFiles } from '../model/source/disk';
import { INDEX_FILE, shardsFromIndex, weightFiles } from '../model/source/checkpointFiles';
import { HubFiles, normaliseEndpoint, parseRepoId, type FetchFn } from '../model/source/hub';
import { ModelSourceError, type FileProgress, type ProgressFn } from '../model/source/types';

type Env = Record<string, string | undefined>;

const REQUIRED = ['config.json', 'tokenizer.json', 'tokenizer_config.json'] as const;
const OPTIONAL = ['generation_config.json', 'README.md'] as const;

/** huggingface_hub's `_is_true`: 1 / true / yes / on, any case. */
export function isTruthy(v: string | undefined): boolean {
  return v !== undefined && ['1', 'TRUE', 'YES', 'ON'].includes(v.trim().toUpperCase());
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? join(homedir(), p.slice(1)) : p;
}

/** The hub cache folder: HF_HUB_CACHE, else $HF_HOME/hub (HF_HOME defaults to $XDG_CACHE_HOME/huggingface or ~/.cache/huggingface). */
export function hubCacheDir(env: Env = process.env): string {
  const direct = env.HF_HUB_CACHE || env.HUGGINGFACE_HUB_CACHE;
  if (direct) return expandHome(direct);
  const home = env.HF_HOME ? expandHome(env.HF_HOME) : join(env.XDG_CACHE_HOME ? expandHome(env.XDG_CACHE_HOME) : join(homedir(), '.cache'), 'huggingface');
  return join(home, 'hub');
}

export function isOffline(env: Env = process.env): boolean {
  return isTruthy(env.HF_HUB_OFFLINE || env.TRANSFORMERS_OFFLINE);
}

/** `models--org--name` under the cache folder. */
export function repoCacheFolder(cacheDir: string, repo: string): string {
  return join(cacheDir, `models--${repo.split('/').join('--')}`);
}

const isCommit = (s: string) => /^[0-9a-f]{40}$/.test(s);

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p); // follows symlinks: a dangling snapshot link counts as missing
    return true;
  } catch {
    return false;
  }
}

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/** The files a snapshot lacks for kvscope to load it (empty when complete). */
async function missingFiles(snapshot: string): Promise<string[]> {
  if (!(await isDirectory(snapshot))) return ['config.json'];
  const files = new DiskFiles(snapshot);
  const missing: string[] = [];
  for (const f of REQUIRED) if ((await files.size(f)) === null) missing.push(f);
  try {
    for (const s of await weightFiles(files)) if ((await files.size(s)) === null) missing.push(s);
  } catch {
    missing.push('model.safetensors');
  }
  return missing;
}

/** A readable line for stderr: `model.safetensors  12.0 MiB / 40.0 MiB  8.1 MiB/s  4 s left`. */
export function progressLine(p: FileProgress): string {
  const mib = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;
  if (p.cached) return `${p.file}  ${mib(p.loaded)} (cached)`;
  const parts = [p.file, p.total !== null ? `${mib(p.loaded)} / ${mib(p.total)}` : mib(p.loaded)];
  if (p.bytesPerSecond > 0) parts.push(`${mib(p.bytesPerSecond)}/s`);
  if (p.etaSeconds !== null && p.total !== null && p.loaded < p.total) parts.push(`${Math.ceil(p.etaSeconds)} s left`);
  return parts.join('  ');
}

export interface ResolveOptions {
  /** Per-file download progress (the CLI prints progressLine(p) to stderr). */
  onProgress?: ProgressFn;
  /** One-line notes: where the model was found, what is being downloaded. */
  log?: (line: string) => void;
  signal?: AbortSignal;
  /** Resume attempts and backoff for the download (tests make them short). */
  retries?: number;
  retryDelayMs?: number;
}

/**
 * The folder `--model <arg>` names: an existing directory as is; otherwise a repo id (`org/name[@rev]` or a Hub
 * URL) looked up in the Hugging Face cache, and downloaded into it when absent and HF_HUB_OFFLINE is not set.
 */
export async function resolveModelArg(arg: string, env: Env = process.env, fetchFn: FetchFn = (u, i) => fetch(u, i), opts: ResolveOptions = {}): Promise<string> {
  if (await isDirectory(arg)) return arg;
  // Something written as a path (absolute, ./, ../, ~, or more than org/name) is a folder that is not there.
  if (!/^https?:\/\//i.test(arg) && (/^(\/|\.{1,2}\/|~)|\\/.test(arg) || arg.split('/').length > 2)) {
    throw ModelSourceError.plain('not_found', `model folder not found: ${arg}`, { text: arg });
  }
  let ref;
  try {
    ref = parseRepoId(arg);
  } catch (e) {
    if (e instanceof ModelSourceError) {
      throw ModelSourceError.plain('bad_repo_id', `--model ${arg}: no such folder, and not a Hub repository id (${e.message})`, { text: arg });
    }
    throw e;
  }
  const { repo, revision } = ref;
  const cacheDir = hubCacheDir(env);
  const repoDir = repoCacheFolder(cacheDir, repo);
  const refFile = join(repoDir, 'refs', ...revision.split('/'));

  let commit: string | null = isCommit(revision) ? revision : null;
  if (!commit) {
    try {
      const c = (await readFile(refFile, 'utf8')).trim();
      if (c) commit = c;
    } catch {
      // No ref yet: nothing of this revision is cached.
    }
  }
  if (commit) {
    const snapshot = join(repoDir, 'snapshots', commit);
    const missing = await missingFiles(snapshot);
    if (missing.length === 0) {
      opts.log?.(`${repo}@${revision}: using the Hugging Face cache at ${snapshot}`);
      return snapshot;
    }
    if (isOffline(env)) {
      throw ModelSourceError.plain('offline', `HF_HUB_OFFLINE is set and ${repo}@${revision} is incomplete in the Hugging Face cache (looked in ${snapshot}; missing ${missing.join(', ')}).`, { repo, revision, path: snapshot });
    }
  } else if (isOffline(env)) {
    throw ModelSourceError.plain('offline', `HF_HUB_OFFLINE is set and ${repo}@${revision} is not in the Hugging Face cache (looked for ${refFile}).`, { repo, revision, path: refFile });
  }

  const endpoint = normaliseEndpoint(env.HF_ENDPOINT);
  try {
    return await download(repo, revision, endpoint, repoDir, fetchFn, opts);
  } catch (e) {
    // A mistyped relative path also parses as `org/name`: say that no folder matched either.
    if (e instanceof ModelSourceError && (e.code === 'not_found' || e.code === 'gated')) {
      throw ModelSourceError.plain(e.code, `--model ${arg}: no folder of that name, and on the Hub: ${e.message}`, e.params);
    }
    throw e;
  }
}

/** Downloads a revision's model files into the cache the way huggingface_hub does; returns the snapshot folder. */
async function download(repo: string, revision: string, endpoint: string, repoDir: string, fetchFn: FetchFn, opts: ResolveOptions): Promise<string> {
  const hub = new HubFiles({ repo, revision, endpoint, fetch: fetchFn, headRedirect: 'manual', retries: opts.retries, retryDelayMs: opts.retryDelayMs });
  opts.log?.(`${repo}@${revision}: downloading from ${endpoint} into ${repoDir}`);
  // config.json first: it tells whether the repo exists and, through X-Repo-Commit, which commit this is.
  const configMeta = await hub.meta('config.json', opts.signal);
  if (!configMeta) throw ModelSourceError.plain('not_found', `${repo}@${revision} has no config.json on ${endpoint} (expected a Hugging Face model repository).`, { repo, revision });
  const commit = hub.commit ?? (isCommit(revision) ? revision : createHash('sha1').update(`${endpoint}\n${repo}\n${revision}`).digest('hex'));
  const snapshot = join(repoDir, 'snapshots', commit);

  const fetchOne = async (file: string, optional: boolean): Promise<boolean> => {
    const dst = join(snapshot, ...file.split('/'));
    if (await exists(dst)) return true;
    const meta = await hub.meta(file, opts.signal);
    if (!meta) {
      if (!optional) throw ModelSourceError.plain('not_found', `${repo}@${revision} has no file ${file} on ${endpoint}.`, { repo, revision, file });
      await mkdir(join(repoDir, '.no_exist', commit, ...file.split('/').slice(0, -1)), { recursive: true });
      await writeFile(join(repoDir, '.no_exist', commit, ...file.split('/')), '');
      return false;
    }
    const bytes = await hub.bytes(file, opts.onProgress, opts.signal);
    const etag = meta.etag && /^[0-9a-f]{40}$|^[0-9a-f]{64}$/.test(meta.etag) ? meta.etag : createHash('sha256').update(bytes).digest('hex');
    const blob = join(repoDir, 'blobs', etag);
    if (!(await exists(blob))) {
      await mkdir(dirname(blob), { recursive: true });
      // Written aside and renamed, so an interrupted download never leaves a short blob under its final name.
      await writeFile(blob + '.incomplete', bytes);
      await rename(blob + '.incomplete', blob);
    }
    await mkdir(dirname(dst), { recursive: true });
    await rm(dst, { force: true });
    try {
      await symlink(relative(dirname(dst), blob), dst);
    } catch {
      await copyFile(blob, dst); // e.g. Windows without developer mode: huggingface_hub copies too
    }
    return true;
  };

  for (const f of REQUIRED) await fetchOne(f, false);
  for (const f of OPTIONAL) await fetchOne(f, true);
  // The index, when there is one, names the shards; otherwise weightFiles probes the Hub for model.safetensors
  // and refuses other formats by name.
  const shards = (await fetchOne(INDEX_FILE, true))
    ? shardsFromIndex(await readFile(join(snapshot, INDEX_FILE), 'utf8'), hub)
    : await weightFiles(hub, opts.signal);
  for (const s of shards) await fetchOne(s, false);

  if (!isCommit(revision) || revision !== commit) {
    const refFile = join(repoDir, 'refs', ...revision.split('/'));
    await mkdir(dirname(refFile), { recursive: true });
    await writeFile(refFile, commit);
  }
  opts.log?.(`${repo}@${revision}: cached at ${snapshot}`);
  return snapshot;
}
