// Reading an import in the parse worker, in headless Chromium (harness test/browser/parseHarness.ts: the real
// Worker with a bundle of workers/parse.worker.ts, components/hooks/useParseWorker and <ParseProgress>).
// A run log of 100,000 calls (19 MB; and a page capture of one, which takes the worker longer) is read in
// the worker: after half a second the progress line shows the import's name, a stage and a Cancel button;
// the result has every call, and no task of the page's main thread used 200 ms of CPU meanwhile (a DevTools
// trace; the wall-clock figures are printed). Cancel stops a read at once (the worker is replaced) and the
// next read works; the line is in Chinese in the Chinese interface. PARSE_TRACE=<file> saves the trace.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { launchChromium, trackedPage } from './helpers/browser';
import { serveStatic } from './helpers/staticServer';
import { STRINGS } from '../lib/i18n';
import { mark, phaseTasks, startTrace, stopTrace } from './helpers/mainThread';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-parse-'));
let browser: Awaited<ReturnType<typeof launchChromium>>;
let server: Awaited<ReturnType<typeof serveStatic>>;
const CALLS = 100_000;

before(async () => {
  const common = { bundle: true, format: 'esm' as const, logLevel: 'error' as const, define: { 'process.env.NODE_ENV': '"production"' } };
  await build({ ...common, entryPoints: ['test/browser/parseHarness.ts'], outfile: join(dir, 'harness.js') });
  await build({ ...common, entryPoints: ['workers/parse.worker.ts'], outfile: join(dir, 'parse.worker.js') });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><body style="margin:20px"><script type="module" src="harness.js"></script>');
  const calls = Array.from({ length: CALLS }, (_, i) => ({ agent: `agent ${i % 3}`, prompt_tokens: 1000 + i, completion_tokens: 50, note: `call ${i} `.padEnd(110, 'x') }));
  writeFileSync(join(dir, 'big.json'), JSON.stringify({ value: { result: { mode: 'orchestration', tracker_calls: calls } } }));
  // The same as a web-page capture: chrome above, a | line after every line of the JSON (the seed's form).
  const lines = JSON.stringify({ value: { result: { mode: 'orchestration', tracker_calls: calls.slice(0, 60_000) } } }, null, 1).split('\n');
  const capture = ['Page title', 'JSON', ...lines.flatMap((l) => [l, '|'])].join('\n');
  assert.ok(capture.length < 20 * 2 ** 20, `capture of ${capture.length} characters`);
  writeFileSync(join(dir, 'capture.txt'), capture);
  // For Cancel: a read long enough (several seconds) that the button, shown after half a second, is always
  // there to click — the 18 MB capture can finish first on a quiet machine.
  const slow = Array.from({ length: 4 }, () => calls);
  writeFileSync(join(dir, 'slow.json'), JSON.stringify({ value: { result: { mode: 'orchestration', tracker_calls: slow.flat() } } }));
  writeFileSync(join(dir, 'seed.txt'), readFileSync('test/fixtures/runlog/translation-single-agent.page.txt'));
  server = await serveStatic({ '/': dir }, { isolated: true });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(lang = 'en'): Promise<{ page: Page; errors: string[] }> {
  const { page, errors } = await trackedPage(browser.context);
  await page.goto(`${server.url}/index.html?lang=${lang}`);
  await page.waitForFunction(() => (window as unknown as { __ready?: boolean }).__ready === true);
  return { page, errors };
}

type Result = { ok: boolean; kind: string | null; calls?: number; error?: string; cancelled: boolean };
type Harness = { __load: (u: string) => Promise<void>; __parse: (n: string) => Promise<void>; __parseHere: () => Promise<void> };
/** Fetches the file into the page (before a measured read). */
const load = (page: Page, url: string) => page.evaluate((u) => (window as unknown as Harness).__load(u), url);
/** Starts reading the loaded file in the worker (does not wait for it). */
const start = (page: Page, name: string) => page.evaluate((n) => void (window as unknown as Harness).__parse(n), name);
/** The progress line's text as soon as it shows (read in the same step: the job may end right after). */
const progressLine = async (page: Page): Promise<string> =>
  String(await (await page.waitForFunction(() => document.querySelector('[data-role="parse-progress"]')?.textContent ?? false, null, { timeout: 60_000, polling: 'raf' })).jsonValue());
/** Clicks Cancel the moment it shows (in the same step as finding it). */
const cancelSoon = async (page: Page): Promise<void> => {
  await page.waitForFunction(
    () => {
      const b = document.querySelector<HTMLButtonElement>('[data-role="parse-cancel"]');
      b?.click();
      return !!b;
    },
    null,
    { timeout: 60_000, polling: 'raf' },
  );
};
const result = async (page: Page): Promise<Result> => {
  await page.waitForFunction(() => (window as unknown as { __result: unknown }).__result !== null, null, { timeout: 120_000 });
  return (await page.evaluate(() => (window as unknown as { __result: unknown }).__result)) as Result;
};

test('100,000 calls are read in the worker with a progress line; no main-thread task uses 200 ms of CPU; Cancel stops a read', async (t) => {
  const { page, errors } = await open();
  const cdp = await startTrace(browser.context, page);
  for (const [file, name] of [['big.json', 'big run'], ['capture.txt', 'big capture']] as const) {
    await load(page, `/${file}`);
    const t0 = Date.now();
    await mark(page, file, 'start');
    await start(page, name);
    const line = await progressLine(page);
    assert.match(line, new RegExp(`^Reading ${name}: (starting…|decoding, \\d+% of [\\d.]+ MiB|parsing and checking [\\d.]+ MiB \\([\\d.]+ s\\))Cancel$`));
    const r = await result(page);
    await mark(page, file, 'end');
    assert.deepEqual(r, { ok: true, kind: 'runlog', calls: file === 'big.json' ? CALLS : 60_000, cancelled: false });
    t.diagnostic(`${file}: read in ${Date.now() - t0} ms`);
    await page.waitForSelector('[data-role="parse-progress"]', { state: 'detached' });
  }
  // For comparison (printed, not asserted): the same file read on the main thread, as before the worker.
  await load(page, '/big.json');
  await mark(page, 'on the main thread', 'start');
  await page.evaluate(() => (window as unknown as Harness).__parseHere());
  assert.equal((await result(page)).calls, CALLS);
  await mark(page, 'on the main thread', 'end');
  const events = await stopTrace(cdp);
  if (process.env.PARSE_TRACE) writeFileSync(process.env.PARSE_TRACE, JSON.stringify(events));
  const all = phaseTasks(events, ['big.json', 'capture.txt', 'on the main thread']);
  const { 'on the main thread': here, ...tasks } = all;
  t.diagnostic(`big.json read on the main thread instead: longest task ${Math.round(here!.cpu)} ms CPU (${Math.round(here!.wall)} ms wall-clock)`);
  for (const [file, x] of Object.entries(tasks)) t.diagnostic(`${file}: the page's main thread: longest task ${Math.round(x.cpu)} ms CPU (${Math.round(x.wall)} ms wall-clock), ${Math.round(x.totalCpu)} ms CPU in all`);
  for (const [file, x] of Object.entries(tasks)) assert.ok(x.cpu < 200, `${file}: a main-thread task used ${Math.round(x.cpu)} ms of CPU`);

  // Cancel: the read stops, the line goes, nothing comes back but the cancellation; the next read works.
  await load(page, '/slow.json');
  await start(page, 'big capture');
  const c0 = Date.now();
  await cancelSoon(page);
  const cancelled = await result(page);
  assert.deepEqual([cancelled.ok, cancelled.cancelled], [false, true]);
  assert.ok(Date.now() - c0 < 5_000, `cancelled in ${Date.now() - c0} ms`);
  await page.waitForSelector('[data-role="parse-progress"]', { state: 'detached' });
  await load(page, '/seed.txt');
  await start(page, 'seed');
  assert.deepEqual(await result(page), { ok: true, kind: 'runlog', calls: 26, cancelled: false });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the progress line in Chinese', async () => {
  const { page, errors } = await open('zh');
  await load(page, '/slow.json');
  await start(page, '大日志');
  const line = await progressLine(page);
  assert.ok(line.startsWith('正在读取 大日志'), line);
  assert.ok(line.endsWith(STRINGS['runlog.parseCancel'].zh), line);
  await cancelSoon(page);
  assert.equal((await result(page)).cancelled, true);
  assert.deepEqual(errors, []);
  await page.close();
});
