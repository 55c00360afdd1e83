// `npm run bench:models:browser`: the Qwen3-0.6B-shaped checkpoint (test/helpers/realCheckpoints.ts: Qwen3-0.6B's
// exact config, BF16, two shards, Qwen3's tokenizer, random weights) opened in the built app in headless Chromium
// as a user opens it (issue 16): a repo id typed in the "Open a model" dialog with a loopback fake Hub as the
// endpoint, Check, Load. Per prompt length (512 and 2,048 tokens, `--tokens 512,2048`), a fresh browser profile:
//   download  Load clicked → the first heatmap of the new model painted (download, session, prefill on WASM)
//   cache     the same page reloaded, Load again: the weights come from the browser's model cache
// and the tab's peak memory: the highest VmHWM (peak resident set) among this browser's renderer processes, which
// hold the page and its inference worker. The engine runs on WASM: the machine's Chromium has no GPU adapter.
// Writes bench/results-models-browser.json. Only loopback is used.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { CHROMIUM, launchChromium } from '../test/helpers/browser';
import { startFakeHub } from '../test/helpers/fakeHub';
import { checkHubRepo } from '../test/helpers/hubPage';
import { ensureRealCheckpoint, LONG_REQUEST_SENTENCE, requestOfTokens } from '../test/helpers/realCheckpoints';
import { ensureBuiltOut } from '../test/helpers/staticBuild';
import { serveStatic } from '../test/helpers/staticServer';
import { option, PAINT_MARK } from './common';

const args = process.argv.slice(2);
const TOKENS = (option('--tokens') ?? '512,2048').split(',').map(Number);
const REPO = 'Qwen/Qwen3-0.6B';
const TIMEOUT = 1_200_000;

/** Renderer processes descended from this process (the browser it launched): pid → peak RSS in MiB. */
function rendererPeaksMiB(): Map<number, number> {
  const parent = new Map<number, number>();
  const renderers: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      parent.set(Number(e), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      if (readFileSync(`/proc/${e}/cmdline`, 'utf8').includes('--type=renderer')) renderers.push(Number(e));
    } catch {
      /* exited meanwhile */
    }
  }
  const mine = (pid: number): boolean => {
    for (let p = pid, n = 0; p > 1 && n < 64; p = parent.get(p) ?? 0, n++) if (p === process.pid) return true;
    return false;
  };
  const peaks = new Map<number, number>();
  for (const pid of renderers.filter(mine)) {
    try {
      peaks.set(pid, Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024));
    } catch {
      /* exited meanwhile */
    }
  }
  return peaks;
}

/**
 * In the page: records on `window.__bench` when `#status` first reports a prompt of `tokens` tokens ready while the
 * model picker names Qwen3 (page clock). Runs as an init script before a reload, or at once before a click.
 */
function watchReady(tokens: number): void {
  const w = window as unknown as { __bench: { start: number; ready: number } };
  w.__bench = { start: performance.now(), ready: -1 };
  // Anonymous callbacks only: tsx names named functions with a helper that does not exist in the page.
  new MutationObserver(() => {
    const status = document.getElementById('status');
    const picker = document.querySelector('[data-role="model-picker"]');
    if (w.__bench.ready < 0 && status?.dataset.ready === 'true' && status.dataset.tokens === String(tokens) && /Qwen3/.test(picker?.textContent ?? '')) w.__bench.ready = performance.now();
  }).observe(document, { attributes: true, subtree: true, childList: true, characterData: true });
}

/** Milliseconds (page clock) from `start` (a click, or navigation start) to that ready state and to the first heatmap paint after it. */
async function firstHeatmap(page: Page): Promise<{ readyMs: number; heatmapMs: number }> {
  await page.waitForFunction(
    (mark) => {
      const b = (window as unknown as { __bench?: { ready: number } }).__bench;
      return b !== undefined && b.ready >= 0 && performance.getEntriesByName(mark).some((e) => e.startTime >= b.ready);
    },
    PAINT_MARK,
    { timeout: TIMEOUT, polling: 100 },
  );
  return page.evaluate((mark) => {
    const b = (window as unknown as { __bench: { start: number; ready: number } }).__bench;
    const paint = performance.getEntriesByName(mark).find((e) => e.startTime >= b.ready)!;
    return { readyMs: b.ready - b.start, heatmapMs: paint.startTime - b.start };
  }, PAINT_MARK);
}

/** The highest peak among renderer processes that were not running at `before`, or null. */
function newPeak(before: Map<number, number>): number | null {
  const fresh = [...rendererPeaksMiB()].filter(([pid]) => !before.has(pid)).map(([, mib]) => mib);
  return fresh.length ? Math.max(...fresh) : null;
}

async function row(dir: string, tokens: number, out: string): Promise<Record<string, unknown>> {
  const fixtures = mkdtempSync(join(tmpdir(), 'kvscope-bench-models-browser-'));
  const req = requestOfTokens(dir, tokens, LONG_REQUEST_SENTENCE);
  writeFileSync(join(fixtures, 'request.json'), JSON.stringify(req.request));
  const hub = await startFakeHub({ repos: { [REPO]: { dir } } });
  const server = await serveStatic({ '/': out, '/fixtures/': fixtures }, { isolated: true });
  const browser = await launchChromium();
  try {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(server.url + '/?url=/fixtures/request.json');
    await page.waitForSelector('#status[data-ready="true"]', { timeout: 240_000 });
    await checkHubRepo(page, hub.url, REPO);
    process.stderr.write(`  ${req.tokens} tokens: download …`);
    await page.evaluate(watchReady, req.tokens);
    await page.click('[data-role="model-load"]');
    const download = await firstHeatmap(page);
    const before = rendererPeaksMiB();
    const peakDownload = Math.max(...before.values());
    const weightBytes = hub.stats.bytesFor('.safetensors');
    process.stderr.write(` ${(download.heatmapMs / 1000).toFixed(1)} s; reload from the cache …`);
    // A reload comes back to the same model and prompt, the weights read from the browser's model cache.
    await page.addInitScript(watchReady, req.tokens);
    await page.reload();
    const cache = await firstHeatmap(page);
    const weightBytesAgain = hub.stats.bytesFor('.safetensors') - weightBytes;
    const r = {
      tokens: req.tokens,
      download: { ...download, weightMiB: Math.round(weightBytes / 2 ** 20), tabPeakMiB: peakDownload },
      // The reloaded page's own peak where it got a new renderer process; null where it kept the old one.
      cache: { ...cache, weightMiBFetched: Math.round(weightBytesAgain / 2 ** 20), tabPeakMiB: newPeak(before) },
      provider: await page.getAttribute('[data-role="model-runtime"]', 'data-provider').catch(() => null),
      errors,
    };
    process.stderr.write(` ${(cache.heatmapMs / 1000).toFixed(1)} s; tab peak ${r.download.tabPeakMiB} MiB\n`);
    return r;
  } finally {
    await browser.close();
    await server.close();
    await hub.close();
    rmSync(fixtures, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const out = ensureBuiltOut((l) => process.stderr.write(l + '\n'));
  const dir = await ensureRealCheckpoint('qwen3-0.6b');
  const chromium = execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8' }).trim();
  process.stderr.write(`bench:models:browser on ${cpus().length} × ${cpus()[0]?.model}, ${chromium}, ${new Date().toISOString()}\n`);
  const result: Record<string, unknown> = { machine: { cpus: cpus().length, cpu: cpus()[0]?.model, chromium, date: new Date().toISOString() }, command: `npm run bench:models:browser${args.length ? ' -- ' + args.join(' ') : ''}`, rows: [] as unknown[] };
  for (const t of TOKENS) (result.rows as unknown[]).push(await row(dir, t, out));
  writeFileSync('bench/results-models-browser.json', JSON.stringify(result, null, 2) + '\n');
  process.stderr.write('wrote bench/results-models-browser.json\n');
}

void main();
