// The engine in headless Chromium: WASM (threaded when cross-origin isolated, single-threaded when not)
// and WebGPU where Chromium offers an adapter; WebGPU must agree with WASM within 1e-3.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { build } from 'esbuild';
import { launchChromium } from './helpers/browser';
import { serveStatic } from './helpers/staticServer';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-probe-'));
let browser: Awaited<ReturnType<typeof launchChromium>>;

before(async () => {
  await build({ entryPoints: ['test/browser/engineProbe.ts'], bundle: true, format: 'esm', outfile: join(dir, 'probe.js'), logLevel: 'error' });
  await build({ entryPoints: ['test/browser/workerProbe.ts'], bundle: true, format: 'esm', outfile: join(dir, 'workerProbe.js'), logLevel: 'error' });
  await build({ entryPoints: ['workers/engine.worker.ts'], bundle: true, format: 'esm', outfile: join(dir, 'engine.worker.js'), logLevel: 'error' });
  writeFileSync(join(dir, 'worker.html'), '<!doctype html><meta charset="utf-8"><script type="module" src="workerProbe.js"></script><p>worker probe</p>');
  writeFileSync(join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><script type="module" src="probe.js"></script><p>probe</p>');
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function runProbe(isolated: boolean, tokens: number, page_ = 'index.html', fn = 'runProbe'): Promise<Record<string, unknown>> {
  const server = await serveStatic({ '/ort/': 'node_modules/onnxruntime-web/dist', '/models/': 'public/models', '/golden/': 'training/golden', '/': dir }, { isolated });
  try {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/${page_}`);
    await page.waitForFunction((f) => f in self, fn, { timeout: 20_000 });
    const out = (await page.evaluate(([f, n]) => (self as unknown as Record<string, (n: number) => Promise<Record<string, unknown>>>)[f as string]!(n as number), [fn, tokens] as const)) as Record<string, unknown>;
    await page.close();
    assert.deepEqual(errors, []);
    return out;
  } finally {
    await server.close();
  }
}

test('WASM in Chromium: multi-threaded when cross-origin isolated, single-threaded otherwise', async () => {
  const iso = await runProbe(true, 64);
  assert.equal(iso.crossOriginIsolated, true);
  assert.equal(iso.threads, 2);
  assert.equal(iso.wasmProvider, 'wasm');
  const plain = await runProbe(false, 64);
  assert.equal(plain.crossOriginIsolated, false);
  assert.equal(plain.threads, 1);
  console.log('wasm probe', { isolated: iso.wasmMs, single: plain.wasmMs });
});

test('WebGPU agrees with WASM within 1e-3 on logits, attention and K/V (skipped only when Chromium offers no adapter)', async (t) => {
  const out = await runProbe(true, 200);
  console.log('webgpu probe', out);
  if (!out.adapter) return t.skip('no WebGPU adapter in this Chromium');
  assert.equal(out.gpuProvider, 'webgpu');
  assert.equal(out.resident, true, 'the K/V cache stays in GPU buffers between calls');
  for (const k of ['logitsDiff', 'attnDiff', 'kDiff', 'stepDiff', 'forkStepDiff']) assert.ok((out[k] as number) <= 1e-3, `${k} = ${out[k]}`);
  // The large-model plan runs on WebGPU too: layer 2 per head, the others as the head mean.
  assert.equal(out.planProvider, 'webgpu');
  assert.deepEqual(out.planDims, [2, 2, 3, 2]);
  assert.ok((out.planDiff as number) <= 1e-3, `planDiff = ${out.planDiff}`);
  // float16 weights: on WebGPU where the adapter has shader-f16, else on WASM with the reason named.
  if (out.f16Features === true) assert.equal(out.f16Provider, 'webgpu');
  else {
    assert.equal(out.f16Provider, 'wasm');
    assert.match(String(out.f16Note), /WebGPU unavailable, running on WASM: .*f16/);
  }
  assert.ok((out.f16Diff as number) <= 2e-2, `f16Diff = ${out.f16Diff} (float16 weights of float32 values, see graphOptions.test.ts)`);
});

test('the engine worker bundle in Chromium: loads with progress, renders a prompt in the worker, prefills and extends on threads', async () => {
  const out = await runProbe(true, 0, 'worker.html', 'runWorkerProbe');
  assert.equal(out.provider, 'wasm');
  assert.equal(out.isolated, true);
  assert.equal(out.threads, 2);
  assert.ok((out.stages as string[]).length >= 2, `progress stages: ${out.stages}`);
  assert.equal(out.tokens, 478);
  assert.ok((out.spans as number) > 10);
  assert.deepEqual(out.prefillAttnDims, [4, 100, 100]);
  assert.deepEqual(out.extendAttnDims, [4, 1, 101]);
  assert.equal(out.extendLength, 101);
});
