// End-to-end: real-shaped checkpoints (random weights, generated at test time: Qwen3-0.6B in BF16 with two shards
// and Qwen3's tokenizer, SmolLM2-135M (Llama), Qwen2.5-0.5B (Qwen2, q/k/v biases)) served by a loopback fake Hub
// with the Hub's URL layout, opened in the built app in headless Chromium as a user would: the "Open a model"
// dialog, a repo id, the endpoint of a mirror, Check (preflight from headers), Load with progress; a reload reads
// the browser's model cache without fetching weights again; a dropped transfer resumes; a folder through the file
// chooser; gated and missing repos refused in words; and the 0.6B shape prefilling ~1,024 tokens on WASM and
// drawing its last layer per head with the sink panel. Offline: everything is on 127.0.0.1.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { launchChromium, trackedPage } from './helpers/browser';
import { startFakeHub, type FakeHub } from './helpers/fakeHub';
import { checkHubRepo, openModelDialog } from './helpers/hubPage';
import { ensureRealCheckpoint, LONG_REQUEST_SENTENCE, requestOfTokens } from './helpers/realCheckpoints';
import { ensureBuiltOut } from './helpers/staticBuild';
import { serveStatic } from './helpers/staticServer';

let browser: Awaited<ReturnType<typeof launchChromium>>;
let server: Awaited<ReturnType<typeof serveStatic>>;
let hub: FakeHub;
let fixtures: string;
const dirs = { qwen3: '', smol: '', qwen25: '' };
let longTokens = 0;

const QWEN3 = 'Qwen/Qwen3-0.6B';
const SMOL = 'HuggingFaceTB/SmolLM2-135M-Instruct';
const QWEN25 = 'Qwen/Qwen2.5-0.5B-Instruct';
const SMOL_SHARD = `${SMOL}/resolve/main/model.safetensors`;
/** Screenshots for a person to look at (CI keeps test-results/ as an artefact). */
const FIGURES = 'test-results/figures/models';

before(async () => {
  ensureBuiltOut();
  dirs.qwen3 = await ensureRealCheckpoint('qwen3-0.6b');
  dirs.smol = await ensureRealCheckpoint('smollm2-135m');
  dirs.qwen25 = await ensureRealCheckpoint('qwen2.5-0.5b');
  hub = await startFakeHub({
    repos: {
      [QWEN3]: { dir: dirs.qwen3 },
      [SMOL]: { dir: dirs.smol },
      [QWEN25]: { dir: dirs.qwen25 },
      'meta-llama/Gated-1B': { dir: dirs.smol, gated: true },
    },
    // The first download of SmolLM2's weights drops after 5 MB: the browser must resume it with a Range request.
    cut: { path: SMOL_SHARD, afterBytes: 5 << 20, times: 1 },
  });
  mkdirSync(FIGURES, { recursive: true });
  fixtures = mkdtempSync(join(tmpdir(), 'kvscope-hub-e2e-'));
  // About 1,024 tokens under Qwen3's template (measured with the checkpoint's own tokenizer).
  const long = requestOfTokens(dirs.qwen3, 1024, LONG_REQUEST_SENTENCE);
  longTokens = long.tokens;
  writeFileSync(join(fixtures, 'long-request.json'), JSON.stringify(long.request));
  server = await serveStatic({ '/': 'out', '/fixtures/': fixtures }, { isolated: true });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
  await hub?.close();
  if (fixtures) rmSync(fixtures, { recursive: true, force: true });
});

/** Clicks Load and waits for the model's first attention run to be painted (`#status` ready). */
async function loadAndWait(page: Page, timeout: number): Promise<{ sawFileProgress: boolean }> {
  let sawFileProgress = false;
  const poll = setInterval(() => {
    void page
      .locator('[data-role="load-file"]')
      .first()
      .textContent({ timeout: 200 })
      .then((t) => {
        if (t && /safetensors/.test(t)) sawFileProgress = true;
      })
      .catch(() => undefined);
  }, 150);
  try {
    await page.click('[data-role="model-load"]');
    await page.waitForSelector('#status[data-ready="true"]', { timeout });
  } finally {
    clearInterval(poll);
  }
  return { sawFileProgress };
}

/** Waits for `selector`; on a timeout, saves a screenshot and says what the page showed (status, notes, errors). */
async function waitOrExplain(page: Page, selector: string, timeout: number, name: string): Promise<void> {
  try {
    await page.waitForSelector(selector, { timeout });
  } catch (e) {
    await page.screenshot({ path: join(FIGURES, `FAILED-${name}.png`) }).catch(() => undefined);
    const said = await page
      .evaluate(() =>
        ['#status', '[data-role="worker-note"]', '[data-role="head-layers"]', '[data-role="model-error"]', '[role="alert"]']
          .map((q) => `${q}: ${Array.from(document.querySelectorAll(q)).map((el) => (el as HTMLElement).outerHTML.slice(0, 400)).join(' | ')}`)
          .join('\n'),
      )
      .catch(() => 'page gone');
    throw new Error(`${(e as Error).message}\n${said}`);
  }
}

async function heatmapColours(page: Page): Promise<number> {
  return page.evaluate(() => {
    const c = document.querySelector('canvas[data-role="heatmap"]') as HTMLCanvasElement | null;
    if (!c) return 0;
    const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    const seen = new Set<number>();
    for (let i = 0; i < d.length; i += 4 * 31) seen.add((d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!);
    return seen.size;
  });
}

const shardBytes = (dir: string, name = 'model.safetensors') => statSync(join(dir, name)).size;

/** Optional files a loader probes for; the Hub answers 404 where a repo has none (Chromium logs each one). */
const OPTIONAL = /\/(README\.md|generation_config\.json|model\.safetensors\.index\.json|model\.safetensors|tokenizer\.model|pytorch_model\.bin)$/;

/** Console errors other than Chromium's line for a 404, after checking that every 404 the fake Hub sent was for an optional file. */
function unexpectedErrors(errors: string[]): string[] {
  const missing = hub.stats.requests.filter((r) => r.status === 404 && !r.path.includes('no-such-model'));
  assert.deepEqual(missing.filter((r) => !OPTIONAL.test(r.path)).map((r) => r.path), [], 'only optional files may be missing');
  return errors.filter((e) => !/favicon/.test(e) && !/the server responded with a status of 404/.test(e));
}

test('SmolLM2-135M by repo id: preflight, download with progress, a dropped transfer resumed, then the heatmap', async () => {
  const { page, errors } = await trackedPage(browser.context);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(server.url + '/');
  await page.waitForSelector('#status[data-ready="true"]', { timeout: 60_000 });
  hub.stats.reset();
  const report = await checkHubRepo(page, hub.url, SMOL);
  assert.match(report, /134[,.]?5|135\s?M|134\.5/i, `parameters in the report: ${report.slice(0, 300)}`);
  // The preflight read headers only: no GET of the weights beyond a header's bytes.
  assert.ok(hub.stats.bytesFor('.safetensors') < 1 << 20, `preflight fetched ${hub.stats.bytesFor('.safetensors')} weight bytes`);
  await page.screenshot({ path: join(FIGURES, 'open-model-smollm2-preflight-1280.png') });
  const { sawFileProgress } = await loadAndWait(page, 240_000);
  assert.ok(sawFileProgress, 'per-file progress named the shard while it downloaded');
  const gets = hub.stats.requestsFor('model.safetensors').filter((r) => r.method === 'GET');
  assert.ok(gets.some((r) => r.range && /^bytes=[1-9]\d*-$/.test(r.range)), `a Range request resumed the cut transfer: ${JSON.stringify(gets.map((r) => r.range))}`);
  assert.ok(hub.stats.bytesFor('model.safetensors') >= shardBytes(dirs.smol), 'the whole shard came over');
  assert.match((await page.textContent('[data-role="model-runtime"]')) ?? '', /wasm/i);
  assert.ok((await heatmapColours(page)) > 10, 'heatmap painted');
  // Llama's template is not Qwen3's: the spans come from prefix renders, and the inspector still names messages.
  assert.ok((await page.locator('[data-role="message-inspector"]').count()) > 0);

  // A reload comes back to the same model from the browser's cache: no weight bytes fetched again.
  hub.stats.reset();
  await page.reload();
  await page.waitForSelector('#status[data-ready="true"]', { timeout: 240_000 });
  assert.match((await page.textContent('[data-role="model-picker"]')) ?? '', /SmolLM2/);
  assert.ok(hub.stats.bytesFor('.safetensors') < 1 << 20, `reload fetched ${hub.stats.bytesFor('.safetensors')} weight bytes`);
  assert.deepEqual(unexpectedErrors(errors), []);
  await page.close();
});

test('refusals: a gated repo and a missing repo are sentences, and nothing is loaded', async () => {
  const { page } = await trackedPage(browser.context);
  await page.goto(server.url + '/');
  await page.waitForSelector('#status[data-ready="true"]', { timeout: 240_000 });
  const gated = await checkHubRepo(page, hub.url, 'meta-llama/Gated-1B');
  assert.match(gated, /gated|private/i);
  await page.click('[data-role="model-dialog-close"]');
  const missing = await checkHubRepo(page, hub.url, 'nobody/no-such-model');
  assert.match(missing, /not found|no such|does not exist/i);
  assert.equal(await page.locator('[data-role="model-load"]:not([disabled])').count(), 0);
  await page.close();
});

test('a folder through the file chooser (Qwen2.5-0.5B layout, q/k/v biases) loads like a Hub repo', async () => {
  const { page, errors } = await trackedPage(browser.context);
  await page.goto(server.url + '/');
  await page.waitForSelector('#status[data-ready="true"]', { timeout: 240_000 });
  await openModelDialog(page);
  hub.stats.reset();
  await page.setInputFiles('[data-role="folder-input"]', dirs.qwen25);
  await page.waitForSelector('[data-role="preflight-report"]', { timeout: 60_000 });
  assert.match((await page.textContent('[data-role="preflight-report"]')) ?? '', /qwen2/i);
  await loadAndWait(page, 400_000);
  assert.equal(hub.stats.requests.length, 0, 'a folder touches no server');
  assert.ok((await heatmapColours(page)) > 10);
  // A large model (1.98 GB of float32 weights): every layer's head mean, one layer per head; another layer's heads
  // are one click, which runs the prompt again.
  await page.selectOption('[data-role="attention-controls"] select[data-control="layer"]', '23');
  await page.waitForSelector('[data-role="head-layer-run"][data-layer="23"]');
  await page.click('[data-role="head-layer-run"]');
  await waitOrExplain(page, '[data-role="heatmap-shows"][data-layer="23"][data-per-head="true"]', 300_000, 'qwen25-head-layer-23');
  assert.deepEqual(unexpectedErrors(errors), []);
  await page.close();
});

test(`Qwen3-0.6B shape by repo id (BF16, two shards): ~1,024 tokens prefilled on WASM, last layer per head and the sink panel`, async () => {
  const { page, errors } = await trackedPage(browser.context);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(server.url + '/?url=/fixtures/long-request.json');
  await page.waitForSelector('#status[data-ready="true"]', { timeout: 240_000 });
  const report = await checkHubRepo(page, hub.url, QWEN3);
  assert.match(report, /596[,.]?0|596\s?M|0\.60\s?B/i, `parameters: ${report.slice(0, 300)}`);
  assert.match(report, /BF16/);
  await page.screenshot({ path: join(FIGURES, 'open-model-qwen3-preflight-1280.png') });
  await loadAndWait(page, 600_000);
  assert.equal(await page.getAttribute('#status', 'data-tokens'), String(longTokens));
  assert.ok(hub.stats.bytesFor('model-00001-of-00002.safetensors') >= shardBytes(dirs.qwen3, 'model-00001-of-00002.safetensors'));
  assert.ok(hub.stats.bytesFor('model-00002-of-00002.safetensors') >= shardBytes(dirs.qwen3, 'model-00002-of-00002.safetensors'));
  // Layer 0 came back per head (the layer on view); the last layer shows its head mean until asked for.
  await page.selectOption('[data-role="attention-controls"] select[data-control="layer"]', '27');
  await page.waitForSelector('[data-role="head-layer-run"][data-layer="27"]');
  assert.match((await page.textContent('[data-role="head-mode-note"]')) ?? '', /mean of 16 heads/);
  await page.click('[data-role="head-layer-run"]');
  await waitOrExplain(page, '[data-role="heatmap-shows"][data-layer="27"][data-per-head="true"]', 600_000, 'qwen3-head-layer-27');
  await page.selectOption('[data-role="attention-controls"] select[data-control="head"]', '3');
  assert.match((await page.textContent('[data-role="heatmap-shows"]')) ?? '', /layer 27 · head 3/);
  assert.ok((await heatmapColours(page)) > 10, 'layer 27, head 3 painted');
  await page.screenshot({ path: join(FIGURES, 'qwen3-shape-layer27-head3-1280.png') });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: join(FIGURES, 'qwen3-shape-layer27-head3-1920.png') });
  const sink = (await page.textContent('[data-role="sink-panel"]')) ?? '';
  assert.match(sink, /27/);
  assert.deepEqual(unexpectedErrors(errors), []);
  await page.close();
});
