// A loopback stand-in for the Hugging Face Hub: serves folders at `/<org>/<name>/resolve/<rev>/<file>` with
// HEAD, GET and Range requests (206 + Content-Range), X-Repo-Commit and ETag headers, 404s with the Hub's
// X-Error-Code, 401 for gated repos, optional LFS-style redirects to a CDN path, and a switch that cuts a
// file's transfer after N bytes. It counts requests and bytes per path so tests can prove what was fetched.

import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { randomCheckpoint, type RandomSpec } from '../../lib/model/randomCheckpoint';
import { parseSafetensors, readFloat32, writeSafetensors } from '../../lib/model/safetensors';

export interface FakeRepo {
  dir: string;
  /** The branch name served (default 'main'); the commit hash is served too. */
  revision?: string;
  /** 40-hex commit (default: sha1 of the repo id). */
  commit?: string;
  gated?: boolean;
}

export interface FakeHubOptions {
  repos: Record<string, FakeRepo>;
  /** Cut the transfer of files whose request path ends with `path` after `afterBytes`, for the first `times` GETs. */
  cut?: { path: string; afterBytes: number; times: number };
  /** Answer *.safetensors with a 302 to a CDN path carrying X-Linked-Size / X-Linked-Etag, as the Hub does. */
  redirectLfs?: boolean;
  /** Ignore Range headers (answer 200 with the whole file), like a server without range support. */
  noRanges?: boolean;
  /** Send no X-Repo-Commit header (as some mirrors and plain static servers). */
  noCommitHeader?: boolean;
}

export interface RequestLog {
  method: string;
  path: string;
  range: string | null;
  status: number;
  bytes: number;
}

export interface FakeHub {
  url: string;
  stats: {
    requests: RequestLog[];
    /** Body bytes sent for paths ending with `suffix` (GETs only). */
    bytesFor(suffix: string): number;
    /** Requests whose path ends with `suffix`. */
    requestsFor(suffix: string): RequestLog[];
    reset(): void;
  };
  close(): Promise<void>;
}

async function readRange(file: string, start: number, end: number): Promise<Uint8Array> {
  const fh = await open(file, 'r');
  try {
    const out = new Uint8Array(end - start);
    await fh.read(out, 0, out.length, start);
    return out;
  } finally {
    await fh.close();
  }
}

const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');

export async function startFakeHub(opts: FakeHubOptions): Promise<FakeHub> {
  const requests: RequestLog[] = [];
  let cutsLeft = opts.cut?.times ?? 0;

  // ETags by file and mtime: hashing a 600 MB shard on every range request would make preflight slow.
  const etags = new Map<string, string>();
  const etagOf = async (file: string, mtimeMs: number): Promise<string> => {
    const key = `${file}\u0000${mtimeMs}`;
    let e = etags.get(key);
    if (!e) {
      const h = createHash(file.endsWith('.safetensors') ? 'sha256' : 'sha1');
      for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
      etags.set(key, (e = h.digest('hex')));
    }
    return e;
  };

  const serveFile = async (req: IncomingMessage, res: ServerResponse, path: string, file: string, headers: Record<string, string>, log: RequestLog) => {
    const st = await stat(file);
    const size = st.size;
    const etag = await etagOf(file, st.mtimeMs);
    res.setHeader('ETag', `"${etag}"`);
    res.setHeader('Accept-Ranges', opts.noRanges ? 'none' : 'bytes');
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    let start = 0;
    let end = size; // exclusive
    const range = opts.noRanges ? undefined : req.headers.range;
    if (range) {
      const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
      if (m && (m[1] !== '' || m[2] !== '')) {
        if (m[1] === '') {
          start = Math.max(0, size - Number(m[2]));
        } else {
          start = Number(m[1]);
          end = m[2] === '' ? size : Math.min(size, Number(m[2]) + 1);
        }
      }
      if (!m || start >= size || end <= start) {
        res.statusCode = log.status = 416;
        res.setHeader('Content-Range', `bytes */${size}`);
        res.end();
        return;
      }
      res.statusCode = log.status = 206;
      res.setHeader('Content-Range', `bytes ${start}-${end - 1}/${size}`);
    } else {
      res.statusCode = log.status = 200;
    }
    res.setHeader('Content-Length', String(end - start));
    res.setHeader('Content-Type', 'application/octet-stream');
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    // Streamed from disk: shards of real-shaped checkpoints are hundreds of MB.
    // Only a transfer longer than the cut is cut (a preflight's small range reads pass).
    if (opts.cut && cutsLeft > 0 && path.endsWith(opts.cut.path) && end - start > opts.cut.afterBytes) {
      cutsLeft--;
      const n = Math.min(end - start, opts.cut.afterBytes);
      log.bytes = n;
      res.flushHeaders();
      const part = n > 0 ? await readRange(file, start, start + n) : new Uint8Array(0);
      res.write(part, () => {
        // Destroy after the partial body is on the wire: the client sees a dropped connection mid-body.
        setTimeout(() => res.socket?.destroy(), 5);
      });
      return;
    }
    log.bytes = end - start;
    if (end === start) return void res.end();
    await pipeline(createReadStream(file, { start, end: end - 1 }), res).catch(() => undefined);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = decodeURIComponent(url.pathname);
    const log: RequestLog = { method: req.method ?? 'GET', path, range: req.headers.range ?? null, status: 0, bytes: 0 };
    requests.push(log);
    const fail = (status: number, code: string, msg: string) => {
      res.statusCode = log.status = status;
      res.setHeader('X-Error-Code', code);
      res.setHeader('Content-Type', 'text/plain');
      res.end(req.method === 'HEAD' ? undefined : msg);
    };
    // CORS as the Hub sends it, so pages on another loopback port can fetch (with Range) and read the headers.
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', 'Content-Range, Content-Length, ETag, X-Repo-Commit, X-Error-Code, Accept-Ranges, X-Linked-Size, X-Linked-Etag');
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Headers', 'Range, Content-Type');
      res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
      res.statusCode = log.status = 204;
      return void res.end();
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return fail(405, 'MethodNotAllowed', 'method not allowed');

    // `/__cdn/<org>/<name>/<commit>/<file>`: where LFS redirects point.
    const cdn = /^\/__cdn\/([^/]+\/[^/]+)\/([0-9a-f]{40})\/(.+)$/.exec(path);
    const m = cdn ?? /^\/([^/]+\/[^/]+)\/resolve\/(.+?)\/(.+)$/.exec(url.pathname);
    if (!m) return fail(404, 'EntryNotFound', 'not found');
    const repoId = cdn ? m[1]! : decodeURIComponent(m[1]!);
    const rev = cdn ? m[2]! : decodeURIComponent(m[2]!);
    const fileName = cdn ? m[3]! : decodeURIComponent(m[3]!);
    const repo = opts.repos[repoId];
    if (!repo) return fail(404, 'RepoNotFound', `Repository ${repoId} not found`);
    if (repo.gated) return fail(401, 'GatedRepo', `Access to model ${repoId} is restricted.`);
    const commit = repo.commit ?? sha1(repoId);
    if (rev !== (repo.revision ?? 'main') && rev !== commit) return fail(404, 'RevisionNotFound', `Invalid rev id: ${rev}`);
    if (fileName.split('/').some((s) => s === '..' || s === '')) return fail(404, 'EntryNotFound', 'bad path');
    const file = join(repo.dir, ...fileName.split('/'));
    const st = await stat(file).catch(() => null);
    if (!st || !st.isFile()) return fail(404, 'EntryNotFound', `${fileName} does not exist on "${rev}"`);

    const headers: Record<string, string> = opts.noCommitHeader ? {} : { 'X-Repo-Commit': commit };
    if (opts.redirectLfs && !cdn && fileName.endsWith('.safetensors')) {
      const body = await readFile(file);
      res.statusCode = log.status = 302;
      res.setHeader('Location', `/__cdn/${repoId}/${commit}/${fileName}`);
      for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
      res.setHeader('X-Linked-Size', String(body.length));
      res.setHeader('X-Linked-Etag', `"${createHash('sha256').update(body).digest('hex')}"`);
      res.end();
      return;
    }
    await serveFile(req, res, path, file, cdn ? {} : headers, log);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      res.statusCode = 500;
      res.end(String(e));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stats: {
      requests,
      bytesFor: (suffix) => requests.filter((r) => r.method === 'GET' && r.path.endsWith(suffix)).reduce((a, r) => a + r.bytes, 0),
      requestsFor: (suffix) => requests.filter((r) => r.path.endsWith(suffix)),
      reset: () => {
        requests.length = 0;
      },
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Model folders for the fake Hub: a small random checkpoint with kvscope-tiny's tokenizer files.

const TINY = join(import.meta.dirname, '..', '..', 'public', 'models', 'kvscope-tiny');

export interface ModelFolderOptions {
  spec?: RandomSpec;
  /** Split the weights into this many shards with a model.safetensors.index.json (default 1: no index). */
  shards?: number;
  /** Write model.gguf instead of safetensors (for the refusal test). */
  ggufOnly?: boolean;
  generationConfig?: boolean;
}

/** Writes a loadable model folder; returns each file's bytes by name. */
export function writeModelFolder(dir: string, o: ModelFolderOptions = {}): Record<string, Uint8Array> {
  mkdirSync(dir, { recursive: true });
  const out: Record<string, Uint8Array> = {};
  const put = (name: string, bytes: Uint8Array) => {
    writeFileSync(join(dir, name), bytes);
    out[name] = bytes;
  };
  const { configText, weights } = randomCheckpoint(o.spec ?? { family: 'qwen3', seed: 7 });
  put('config.json', new TextEncoder().encode(configText));
  for (const f of ['tokenizer.json', 'tokenizer_config.json']) {
    copyFileSync(join(TINY, f), join(dir, f));
    out[f] = new Uint8Array(readFileSync(join(dir, f)));
  }
  if (o.generationConfig !== false) put('generation_config.json', new TextEncoder().encode(JSON.stringify({ temperature: 0.7, top_p: 0.9 })));
  if (o.ggufOnly) {
    put('model.gguf', new TextEncoder().encode('GGUF fake'));
    return out;
  }
  const n = o.shards ?? 1;
  if (n <= 1) {
    put('model.safetensors', weights);
    return out;
  }
  const parsed = parseSafetensors(weights);
  const names = [...parsed.tensors.keys()].sort();
  const weightMap: Record<string, string> = {};
  let total = 0;
  for (let s = 0; s < n; s++) {
    const shardName = `model-${String(s + 1).padStart(5, '0')}-of-${String(n).padStart(5, '0')}.safetensors`;
    const part = new Map<string, { shape: number[]; values: Float32Array }>();
    names.filter((_, i) => i % n === s).forEach((t) => {
      part.set(t, { shape: parsed.tensors.get(t)!.shape, values: readFloat32(parsed, t) });
      weightMap[t] = shardName;
    });
    const bytes = writeSafetensors(part);
    total += bytes.length;
    put(shardName, bytes);
  }
  put('model.safetensors.index.json', new TextEncoder().encode(JSON.stringify({ metadata: { total_size: total }, weight_map: weightMap })));
  return out;
}
