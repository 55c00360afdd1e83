// Reading an import in the parse worker, in headless Chromium (harness test/browser/parseHarness.ts: the real
// Worker with a bundle of workers/parse.worker.ts, components/hooks/useParseWorker and <ParseProgress>).
// A run log of 100,000 calls (19 MB; and a page capture of one, which takes the worker longer) is read in
// the worker: after half a second the progress line shows the import's name, a stage and a Cancel button;
// the result has every call, and no task of the page's main thread used 200 ms of CPU meanwhile (a DevTools
// trace; the wall-clock figures are printed). Cancel stops a read at once (the worker is replaced; the
// cancelled read goes to a worker that stalls 30 s, test/browser/slowParse.worker.ts) and the next read
// works; the line is in Chinese in the Chinese interface. PARSE_TRACE=<file> saves the trace.
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
  await build({ ...common, entryPoints: ['test/browser/slowParse.worker.ts'], outfile: join(dir, 'slowParse.worker.js') });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><body style="margin:20px"><script type="module" src="harness.js"></script>');
  const calls = Array.from({ length: CALLS }, (_, i) => ({ agent: `agent ${i % 3}`, prompt_tokens: 1000 + i, completion_tokens: 50, note: `call ${i} `.padEnd(110, 'x') }));
  writeFileSync(join(dir, 'big.json'), JSON.stringify({ value: { result: { mode: 'orchestration', tracker_calls: calls } } }));
  // The same as a web-page capture: chrome above, a | line after every line of the JSON (the seed's form).
  const lines = JSON.stringify({ value: { result: { mode: 'orchestration', tracker_calls: calls.slice(0, 60_000) } } }, null, 1).split('\n');
  const capture = ['Page title', 'JSON', ...lines.flatMap((l) => [l, '|'])].join('\n');
  assert.ok(capture.length < 20 * 2 ** 20, `capture of ${capture.length} characters`);
  writeFileSync(join(dir, 'capture.txt'), capture);
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
type Harness = { __load: (u: string) => Promise<void>; __parse: (n: string) => Promise<void>; __parseHere: () => Promise<void>; __holdNextWorker: () => void };
/** Fetches the file into the page (before a measured read). */
const load = (page: Page, url: string) => page.evaluate((u) => (window as unknown as Harness).__load(u), url);
/** Starts reading the loaded file in the worker (does not wait for it). */
const start = (page: Page, name: string) => page.evaluate((n) => void (window as unknown as Harness).__parse(n), name);
/** What the progress line showed during the last read, in order (recorded in the page by a MutationObserver). */
const linesShown = (page: Page): Promise<string[]> => page.evaluate(() => (window as unknown as { __lines: string[] }).__lines);
/** The last read's duration in the page, ms. */
const took = (page: Page): Promise<number> => page.evaluate(() => (window as unknown as { __took: number }).__took);
/** Has the page click Cancel the moment the button is in the DOM (a MutationObserver, so no frame or poll can miss it). */
const cancelOnShow = (page: Page) => page.evaluate(() => void ((window as unknown as { __cancelOnShow: boolean }).__cancelOnShow = true));
/** The next read goes to a worker that stalls 30 s after its first progress message, as inside one long
 * JSON.parse (test/browser/slowParse.worker.ts): it is still running when Cancel shows on any machine (a real
 * file slow enough on a slow machine is over the import limit, or read in under half a second on a fast one:
 * CI refused a 74 MB file at once). The worker that replaces it is the real one. */
const holdNextRead = (page: Page) => page.evaluate(() => (window as unknown as Harness).__holdNextWorker());
/** The line shows once a read has run SHOW_PROGRESS_AFTER_MS (500 ms), at the next tick of its 250 ms clock; a
 * read this long must have shown it (margin for timers delayed on a loaded machine). */
const MUST_SHOW_AFTER_MS = 1_500;
const result = async (page: Page): Promise<Result> => {
  await page.waitForFunction(() => (window as unknown as { __result: unknown }).__result !== null, null, { timeout: 120_000, polling: 100 });
  return (await page.evaluate(() => (window as unknown as { __result: unknown }).__result)) as Result;
};

const lineRe = (name: string) =>
  new RegExp(`^Reading ${name}: (starting…|decoding, \\d+% of [\\d.]+ MiB|parsing and checking [\\d.]+ MiB \\([\\d.]+ s\\))Cancel$`);

test('100,000 calls are read in the worker with a progress line; no main-thread task uses 200 ms of CPU; Cancel stops a read', async (t) => {
  const { page, errors } = await open();
  const cdp = await startTrace(browser.context, page);
  for (const [file, name] of [['big.json', 'big run'], ['capture.txt', 'big capture']] as const) {
    await load(page, `/${file}`);
    const t0 = Date.now();
    await mark(page, file, 'start');
    await start(page, name);
    const r = await result(page);
    await mark(page, file, 'end');
    assert.deepEqual(r, { ok: true, kind: 'runlog', calls: file === 'big.json' ? CALLS : 60_000, cancelled: false });
    const [shown, ms] = [await linesShown(page), await took(page)];
    t.diagnostic(`${file}: read in ${Date.now() - t0} ms (${Math.round(ms)} ms in the page); progress lines shown: ${shown.length}`);
    // A read that ends before the line's threshold shows none; a longer one must (the held read below always does).
    if (ms >= MUST_SHOW_AFTER_MS) assert.ok(shown.length > 0, `${file}: read for ${Math.round(ms)} ms without a progress line`);
    for (const line of shown) assert.match(line, lineRe(name));
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
  await load(page, '/capture.txt');
  await holdNextRead(page);
  await cancelOnShow(page);
  await start(page, 'big capture');
  const cancelled = await result(page);
  assert.deepEqual([cancelled.ok, cancelled.cancelled], [false, true], `the read was not cancelled: ${JSON.stringify(cancelled)}`);
  const shown = await linesShown(page);
  assert.ok(shown.length > 0);
  for (const line of shown) assert.match(line, lineRe('big capture'));
  const ms = await page.evaluate(() => {
    const w = window as unknown as { __cancelledAt: number; __resultAt: number };
    return w.__resultAt - w.__cancelledAt; // from the click to the outcome
  });
  assert.ok(ms < 5_000, `the outcome came ${Math.round(ms)} ms after Cancel`);
  await page.waitForSelector('[data-role="parse-progress"]', { state: 'detached' });
  await load(page, '/seed.txt');
  await start(page, 'seed');
  assert.deepEqual(await result(page), { ok: true, kind: 'runlog', calls: 26, cancelled: false });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the progress line in Chinese', async () => {
  const { page, errors } = await open('zh');
  await load(page, '/capture.txt');
  await holdNextRead(page);
  await cancelOnShow(page);
  await start(page, '大日志');
  assert.equal((await result(page)).cancelled, true);
  const [line = ''] = await linesShown(page);
  assert.ok(line.startsWith('正在读取 大日志'), line);
  assert.ok(line.endsWith(STRINGS['runlog.parseCancel'].zh), line);
  assert.deepEqual(errors, []);
  await page.close();
});
