// The static export (out/) holds what its pages fetch, and fetches what it holds:
// - no bundler-emitted copy of onnxruntime-web's runtime (.wasm in _next/static/media);
// - every runtime file (ort-wasm-*.mjs / .wasm) that the ORT chunks in _next/static/chunks ask for is in
//   out/ort, and nothing else is; this holds for the webgpu build whether or not a browser can run WebGPU;
// - in headless Chromium the page loads the embedded model on WASM and every request under /ort/ is a 200;
// - the app's worker, asked for WebGPU, starts the webgpu build's runtime from ort/ and loads the model. The
//   Debian Chromium here (--disable-gpu --enable-unsafe-webgpu) hands the worker a WebGPU session; with no
//   adapter the session falls back to WASM on the same runtime. Either way the load must succeed;
// - the main page's own JS (Worker replaced by a stub, so no worker starts) has no ORT or transformers.js.
//
// out/ is built first (npm run build, ~1 min) only when it is missing or older than a source
// (test/helpers/staticBuild.ts ensureBuiltOut). KVSCOPE_STATIC_OUT=DIR checks another export and never builds.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launchChromium } from './helpers/browser';
import { serveStatic } from './helpers/staticServer';
import { checkOrtRuntime, diskUse, ensureBuiltOut, fullLoad, isWorkerOnly, pageOwnLoad, workerLoad } from './helpers/staticBuild';

let dir: string;
let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
let server: Awaited<ReturnType<typeof serveStatic>> | undefined;
let probeDir: string | undefined;

before(() => {
  dir = process.env.KVSCOPE_STATIC_OUT ?? ensureBuiltOut((l) => console.log(l));
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (probeDir) rmSync(probeDir, { recursive: true, force: true });
});

/** The export served cross-origin isolated, with a blank page at /__probe/ to start its worker from. */
async function served() {
  if (!probeDir) {
    probeDir = mkdtempSync(join(tmpdir(), 'kvscope-probe-'));
    writeFileSync(join(probeDir, 'index.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>probe</title>');
  }
  server ??= await serveStatic({ '/': dir, '/__probe/': probeDir }, { isolated: true });
  browser ??= await launchChromium();
  return { url: server.url + '/', probe: server.url + '/__probe/', context: browser.context };
}

test('the export carries no bundler-emitted ORT runtime', () => {
  assert.deepEqual(diskUse(dir).strayWasm, [], '.wasm files outside ort/');
  // The *.bundle.min.mjs builds embed the glue and name their .wasm relative to the chunk, so the bundler
  // copies it into _next/static/media; next.config.js aliases the imports to the builds without it.
  const bundled = checkOrtRuntime(dir).chunks.filter((x) => x.builds.some((b) => b.includes('.bundle.')));
  assert.deepEqual(bundled.map((x) => `${x.file}: ${x.builds.join(', ')}`), [], 'chunks with a *.bundle ORT build');
});

test('every runtime file the ORT chunks ask for is in ort/, and ort/ holds nothing else', () => {
  const c = checkOrtRuntime(dir);
  const builds = c.chunks.flatMap((x) => x.builds);
  // The worker imports both builds; a missing one means the chunks are no longer recognised.
  assert.ok(builds.some((b) => b.startsWith('ort.wasm.')), `no chunk holds onnxruntime-web's wasm build: ${JSON.stringify(c.chunks)}`);
  assert.ok(builds.some((b) => b.startsWith('ort.webgpu.')), `no chunk holds onnxruntime-web's webgpu build: ${JSON.stringify(c.chunks)}`);
  for (const x of c.chunks) if (x.builds.length) assert.ok(x.asks.length > 0, `${x.file} (${x.builds.join(', ')}) names no runtime file`);
  assert.deepEqual(c.missing, [], `asked for by ${c.chunks.map((x) => `${x.file} [${x.asks.join(', ')}]`).join('; ')} but missing from ${dir}/ort`);
  assert.deepEqual(c.unused, [], `in ${dir}/ort but asked for by no chunk`);
  // Each build's runtime is a glue .mjs and the .wasm it names.
  assert.ok(c.present.some((f) => f.endsWith('.wasm')) && c.present.some((f) => f.endsWith('.mjs')), c.present.join(', '));
});

test('the page loads the embedded model on WASM from the export; every /ort/ request is a 200', async () => {
  const { url, context } = await served();
  const r = await fullLoad(context, url, dir);
  assert.deepEqual(r.errors, []);
  assert.match(r.provider, /wasm/);
  const ort = r.fetched.filter((f) => f.path.startsWith('/ort/'));
  assert.ok(ort.some((f) => f.path.endsWith('.wasm')) && ort.some((f) => f.path.endsWith('.mjs')), `ORT runtime requests: ${ort.map((f) => f.path).join(', ')}`);
  assert.deepEqual(ort.filter((f) => f.status !== 200).map((f) => `${f.path} ${f.status}`), []);
  assert.deepEqual(r.fetched.filter((f) => f.path.endsWith('.wasm') && !f.path.startsWith('/ort/')).map((f) => f.path), []);
});

test("the app's worker asked for WebGPU starts the webgpu build's runtime from ort/", async (t) => {
  const { url, probe, context } = await served();
  const { workers } = await pageOwnLoad(context, url, dir);
  assert.ok(workers[0], 'the page created no worker');
  const webgpuAsks = new Set(checkOrtRuntime(dir).chunks.filter((x) => x.builds.some((b) => b.startsWith('ort.webgpu.'))).flatMap((x) => x.asks));
  const r = await workerLoad(context, probe, workers[0], 'webgpu', { dir });
  const ort = r.fetched.filter((f) => f.path.startsWith('/ort/'));
  assert.deepEqual(ort.filter((f) => f.status !== 200).map((f) => `${f.path} ${f.status}`), []);
  assert.ok('ok' in r.response && r.response.ok, `load on webgpu: ${JSON.stringify(r.response)}`);
  // The runtime the webgpu build names is the one that was fetched.
  for (const name of webgpuAsks) assert.ok(ort.some((f) => f.path === '/ort/' + name), `/ort/${name} was not fetched: ${ort.map((f) => f.path).join(', ')}`);
  t.diagnostic(`session provider: ${r.response.result?.provider}`);
});

test('the main page downloads no ORT or transformers.js chunk before its worker starts', async () => {
  const { url, context } = await served();
  const own = await pageOwnLoad(context, url, dir);
  assert.ok(own.workers.length > 0, 'the page never created its engine worker (the stub saw no `new Worker`)');
  const js = own.fetched.filter((f) => f.content !== null);
  assert.ok(js.length > 0, 'the page loaded no JS');
  const workerOnly = js.filter((f) => isWorkerOnly(f.content!));
  assert.deepEqual(
    workerOnly.map((f) => `${f.path} (${[f.content!.transformers ? 'transformers.js' : '', ...f.content!.ortBuilds].filter(Boolean).join(', ')}; ${(f.bytes / 1024).toFixed(0)} KiB)`),
    [],
    'worker-only chunks on the main page',
  );
});
