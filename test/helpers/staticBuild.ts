// The exported app (out/) as test/staticBuild.test.ts and bench/browser/pageWeight.ts see it: whether it is
// up to date with its sources (and a build that only one process runs at a time), which of its JS chunks
// carry onnxruntime-web or transformers.js (told by content, not by name), which runtime files those chunks
// ask for, and what the main page and the worker download in headless Chromium.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BrowserContext } from 'playwright-core';
import { folderReader, runtimeClosure, runtimeFilesIn } from '../../scripts/ort-runtime.mjs';

export const OUT = 'out';

// ---- is out/ built from the current sources? -----------------------------------------------------------

/** What `npm run build` reads (public/ort is written by the build itself, so it is left out). */
const SOURCES = ['app', 'components', 'lib', 'workers', 'public', 'next.config.js', 'tsconfig.json', 'package.json', 'package-lock.json', 'scripts/copy-ort.mjs', 'scripts/ort-runtime.mjs'];
const NOT_SOURCES = new Set(['public/ort', 'node_modules']);

function newestSource(): { path: string; mtimeMs: number } {
  let newest = { path: '', mtimeMs: 0 };
  const visit = (p: string) => {
    if (NOT_SOURCES.has(p) || !existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) for (const e of readdirSync(p)) visit(join(p, e));
    else if (st.mtimeMs > newest.mtimeMs) newest = { path: p, mtimeMs: st.mtimeMs };
  };
  for (const s of SOURCES) visit(s);
  return newest;
}

/** Why out/ needs a build (missing, or a source newer than out/index.html), or null when it is current. */
export function outStaleness(dir = OUT): string | null {
  const index = join(dir, 'index.html');
  if (!existsSync(index)) return `${dir}/index.html is missing`;
  const src = newestSource();
  return src.mtimeMs > statSync(index).mtimeMs ? `${src.path} is newer than ${dir}/index.html` : null;
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * out/, built first (`npm run build`, ~1 min) when outStaleness() says so. A lock folder in the temp
 * directory, named after this checkout, keeps two test processes that both call this from building at once;
 * the second one waits and then finds out/ current.
 */
export function ensureBuiltOut(log: (line: string) => void = () => {}): string {
  if (outStaleness() === null) return OUT;
  const lock = join(tmpdir(), `kvscope-build-${createHash('sha1').update(resolve('.')).digest('hex').slice(0, 12)}.lock`);
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      // A lock left by a killed process: a build never takes 10 minutes.
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })!.mtimeMs > 10 * 60_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`waited 10 min for another build (lock ${lock})`);
      sleep(500);
    }
  }
  try {
    const why = outStaleness();
    if (why !== null) {
      log(`${why}: npm run build …`);
      try {
        execFileSync('npm', ['run', 'build'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
      } catch (e) {
        const { stdout, stderr } = e as { stdout?: Buffer; stderr?: Buffer };
        throw new Error(`npm run build failed:\n${(String(stdout ?? '') + String(stderr ?? '')).slice(-4000)}`);
      }
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  return OUT;
}

// ---- what a chunk is -----------------------------------------------------------------------------------

export interface JsContent {
  /** onnxruntime-web builds in the chunk, by the module path Turbopack keeps for their import.meta.url. */
  ortBuilds: string[];
  /** Runtime files (ort-wasm-*.mjs / .wasm) the chunk names. */
  ortRuntime: string[];
  /** The chunk carries transformers.js. */
  transformers: boolean;
}

export function jsContent(text: string): JsContent {
  return {
    ortBuilds: [...new Set(Array.from(text.matchAll(/onnxruntime-web\/dist\/(ort[\w.-]*?\.m?js)\b/g), (m) => m[1]!))].sort(),
    ortRuntime: runtimeFilesIn(text),
    transformers: /@huggingface\/transformers|\bPreTrainedTokenizer\b/.test(text),
  };
}

/** True for a chunk only the worker should load: onnxruntime-web or transformers.js. */
export function isWorkerOnly(c: JsContent): boolean {
  return c.ortBuilds.length > 0 || c.ortRuntime.length > 0 || c.transformers;
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

export interface OrtCheck {
  /** The chunks (paths relative to the export) that carry onnxruntime-web, and what each asks for. */
  chunks: { file: string; builds: string[]; asks: string[] }[];
  /** Every runtime file asked for, directly or by a runtime .mjs in out/ort, that out/ort has. */
  present: string[];
  /** … and those it lacks. */
  missing: string[];
  /** Files in out/ort that nothing asks for. */
  unused: string[];
}

/** The ORT chunks of an export against its ort/ folder. */
export function checkOrtRuntime(dir = OUT): OrtCheck {
  const chunks = filesUnder(join(dir, '_next', 'static', 'chunks'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => ({ file: relative(dir, f), c: jsContent(readFileSync(f, 'latin1')) }))
    .filter(({ c }) => c.ortBuilds.length > 0 || c.ortRuntime.length > 0)
    .map(({ file, c }) => ({ file, builds: c.ortBuilds, asks: c.ortRuntime }));
  const ortDir = join(dir, 'ort');
  const { files, missing } = runtimeClosure(new Set(chunks.flatMap((c) => c.asks)), folderReader(ortDir));
  const unused = existsSync(ortDir) ? readdirSync(ortDir).filter((f) => !files.includes(f)).sort() : [];
  return { chunks, present: files, missing, unused };
}

// ---- sizes ---------------------------------------------------------------------------------------------

export const gzipBytes = (buf: Buffer) => gzipSync(buf).length; // zlib's default level (6), as web servers use

export interface DiskUse {
  files: number;
  bytes: number;
  /** Per first-level folder of the export ("ort/", "_next/", "models/", …) and "(top-level files)". */
  byEntry: Record<string, { files: number; bytes: number }>;
  /** .wasm files outside ort/. */
  strayWasm: string[];
}

export function diskUse(dir = OUT): DiskUse {
  const out: DiskUse = { files: 0, bytes: 0, byEntry: {}, strayWasm: [] };
  for (const f of filesUnder(dir)) {
    const rel = relative(dir, f);
    const top = rel.includes('/') ? rel.split('/')[0]! + '/' : '(top-level files)';
    const size = statSync(f).size;
    out.files++;
    out.bytes += size;
    const e = (out.byEntry[top] ??= { files: 0, bytes: 0 });
    e.files++;
    e.bytes += size;
    if (rel.endsWith('.wasm') && top !== 'ort/') out.strayWasm.push(rel);
  }
  return out;
}

// ---- what the browser downloads ------------------------------------------------------------------------

export interface Fetched {
  /** URL path, e.g. /_next/static/chunks/0cz1d0mv5g_q7.js. */
  path: string;
  status: number;
  /** Bytes of the file in the export (0 when it has none), and gzipped. */
  bytes: number;
  gzip: number;
  content: JsContent | null;
}

function fetched(dir: string, path: string, status: number): Fetched {
  const file = join(dir, path);
  const isFile = existsSync(file) && statSync(file).isFile();
  const buf = isFile ? readFileSync(file) : Buffer.alloc(0);
  const js = /\.m?js$/.test(path);
  return { path, status, bytes: buf.length, gzip: isFile ? gzipBytes(buf) : 0, content: js && isFile ? jsContent(buf.toString('latin1')) : null };
}

/**
 * The main page's own downloads on first load, with `Worker` replaced by a stub that never starts (the
 * URLs it was given come back in `workers`): what a visitor's page costs before any worker runs.
 */
export async function pageOwnLoad(context: BrowserContext, url: string, dir = OUT): Promise<{ fetched: Fetched[]; workers: string[] }> {
  const page = await context.newPage();
  await page.addInitScript(() => {
    const w = window as unknown as { __workerUrls: string[]; Worker: unknown };
    w.__workerUrls = [];
    w.Worker = class {
      constructor(u: string | URL) {
        w.__workerUrls.push(String(u));
      }
      postMessage() {}
      terminate() {}
      addEventListener() {}
      removeEventListener() {}
      dispatchEvent() {
        return false;
      }
    };
  });
  const seen: Fetched[] = [];
  page.on('response', (r) => {
    const u = new URL(r.url());
    if (u.origin === new URL(url).origin) seen.push(fetched(dir, decodeURIComponent(u.pathname), r.status()));
  });
  await page.goto(url);
  // The page creates its worker once it has booted; wait for that, then for the network to settle.
  await page.waitForFunction(() => (window as unknown as { __workerUrls: string[] }).__workerUrls.length > 0, undefined, { timeout: 60_000 }).catch(() => {});
  await page.waitForLoadState('networkidle');
  const workers = await page.evaluate(() => (window as unknown as { __workerUrls: string[] }).__workerUrls);
  await page.close();
  return { fetched: seen, workers };
}

/**
 * Everything the page and its worker download until the embedded model is loaded ([data-ready="true"]),
 * with the provider line the page shows, and the page's errors.
 */
export async function fullLoad(context: BrowserContext, url: string, dir = OUT): Promise<{ fetched: Fetched[]; provider: string; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const seen: Fetched[] = [];
  page.on('response', (r) => {
    const u = new URL(r.url());
    if (u.origin === new URL(url).origin) seen.push(fetched(dir, decodeURIComponent(u.pathname), r.status()));
  });
  await page.goto(url);
  await page.waitForSelector('[data-ready="true"]', { timeout: 120_000 });
  await page.waitForLoadState('networkidle');
  const provider = (await page.locator('text=/runs on /').first().textContent({ timeout: 5_000 }).catch(() => '')) ?? '';
  await page.close();
  return { fetched: seen, provider, errors };
}

/** Count, bytes and gzip bytes of the JS among `xs`, each path once. */
export function jsTotals(xs: Fetched[]): { files: number; bytes: number; gzip: number } {
  const js = [...new Map(xs.filter((f) => f.content !== null).map((f) => [f.path, f])).values()];
  return { files: js.length, bytes: js.reduce((a, f) => a + f.bytes, 0), gzip: js.reduce((a, f) => a + f.gzip, 0) };
}

/**
 * Starts the app's own engine worker (`workerUrl`, as the page created it: see pageOwnLoad's `workers`) from
 * a blank page at `probeUrl` on the same origin, and loads the model at `modelBase` on `provider`. The
 * answer is the worker's `load` response; `fetched` lists what the page and the worker downloaded.
 */
export async function workerLoad(
  context: BrowserContext,
  probeUrl: string,
  workerUrl: string,
  provider: 'wasm' | 'webgpu',
  { dir = OUT, modelBase = '/models/kvscope-tiny/' } = {},
): Promise<{ response: { ok: boolean; result?: { provider: string }; error?: { code: string; message: string } } | { workerError: string }; fetched: Fetched[] }> {
  const page = await context.newPage();
  const seen: Fetched[] = [];
  page.on('response', (r) => {
    const u = new URL(r.url());
    if (u.origin === new URL(probeUrl).origin) seen.push(fetched(dir, decodeURIComponent(u.pathname), r.status()));
  });
  await page.goto(probeUrl);
  const response = await page.evaluate(
    async ({ workerUrl, provider, modelBase }) => {
      // Turbopack's worker bootstrap is a classic script (importScripts), whatever options the app passed.
      const w = new Worker(workerUrl);
      const [config, shard] = await Promise.all([fetch(modelBase + 'config.json').then((r) => r.text()), fetch(modelBase + 'model.safetensors').then((r) => r.arrayBuffer())]);
      try {
        return await new Promise<never>((resolve) => {
          w.onmessage = (e) => e.data?.kind === 'response' && e.data.id === 1 && resolve(e.data as never);
          w.onerror = (e) => resolve({ workerError: e.message } as never);
          w.postMessage({ id: 1, type: 'load', config, shards: [shard], provider });
        });
      } finally {
        w.terminate();
      }
    },
    { workerUrl, provider, modelBase },
  );
  await page.close();
  return { response, fetched: seen };
}
