// The "Run the loop live" panel in headless Chromium (harness test/browser/liveLoopHarness.ts): the real
// engine worker, the embedded model, <LiveLoopPanel> on the vancouver scenario. A greedy run of 2 calls
// with the status bar appended shows 2 call cards whose prompt / reused / recomputed counts are the
// engine's; call 2's reused count equals the common prefix of what the cache held (call 1's prompt and its
// generated tokens) and call 2's prompt, both prompts re-rendered here in Node from the requests the loop
// sent (an independent tokenizer run, checked token for token against the worker's); the export parses as a
// run log (lib/io/runlog parseRunLog) with the same counts; Stop aborts a run mid-generation; the Chinese
// interface shows the Chinese strings.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { launchChromium, trackedPage } from './helpers/browser';
import { serveStatic } from './helpers/staticServer';
import { STRINGS } from '../lib/i18n';
import { readModelDir } from '../lib/cli/modelDir';
import { createTokenizer } from '../lib/prompt/tokenizer';
import { buildPrompt } from '../lib/prompt/prompt';
import { parseRunLog } from '../lib/io/runlog';
import type { ChatRequest } from '../lib/scenarios/types';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-liveloop-'));
let browser: Awaited<ReturnType<typeof launchChromium>>;
let server: Awaited<ReturnType<typeof serveStatic>>;
const model = readModelDir('public/models/kvscope-tiny');
const tok = createTokenizer(model.tokenizerJson, model.tokenizerConfig);

before(async () => {
  await build({ entryPoints: ['test/browser/liveLoopHarness.ts'], bundle: true, format: 'esm', outfile: join(dir, 'harness.js'), logLevel: 'error', define: { 'process.env.NODE_ENV': '"production"' } });
  await build({ entryPoints: ['workers/engine.worker.ts'], bundle: true, format: 'esm', outfile: join(dir, 'engine.worker.js'), logLevel: 'error' });
  copyFileSync('app/globals.css', join(dir, 'globals.css'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><link rel="stylesheet" href="globals.css"><body style="margin:12px 20px"><script type="module" src="harness.js"></script>',
  );
  server = await serveStatic({ '/ort/': 'node_modules/onnxruntime-web/dist', '/models/': 'public/models', '/': dir }, { isolated: true });
  browser = await launchChromium([], { acceptDownloads: true });
});
after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface RunRecord {
  stop: string;
  calls: { request: ChatRequest; ids: number[]; generated: number[]; reused: number; recomputed: number; promptTokens: number; cachedBefore: number }[];
}

async function open(lang = 'en'): Promise<{ page: Page; errors: string[] }> {
  const { page, errors } = await trackedPage(browser.context);
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto(`${server.url}/index.html?lang=${lang}&scenario=vancouver`);
  await page.waitForFunction(() => (self as unknown as { __ready?: boolean; __harnessError?: string }).__ready || (self as unknown as { __harnessError?: string }).__harnessError, null, { timeout: 60_000 });
  const err = await page.evaluate(() => (self as unknown as { __harnessError?: string }).__harnessError);
  assert.equal(err, undefined, err);
  await page.waitForSelector('[data-role="loop-run"]:not([disabled])', { timeout: 20_000 });
  return { page, errors };
}

async function settings(page: Page, s: { calls: number; maxNew: number; status: string }): Promise<void> {
  await page.fill('[data-role="loop-max-calls"]', String(s.calls));
  await page.fill('[data-role="loop-max-new"]', String(s.maxNew));
  await page.selectOption('[data-role="loop-status"]', s.status);
}

const idle = (page: Page) => page.waitForSelector('[data-role="live-loop"][data-running="false"][data-stop]:not([data-stop=""])', { timeout: 180_000 });

/** Longest common prefix, written out here rather than imported from the loop. */
function prefix(a: readonly number[], b: readonly number[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

test('a greedy append run of 2 calls: the engine’s reuse equals the common prefix, and the export is a run log', { timeout: 300_000 }, async () => {
  const { page, errors } = await open();
  await settings(page, { calls: 2, maxNew: 160, status: 'append' });
  await page.click('[data-role="loop-run"]');
  await idle(page);
  const state = (await page.textContent('[data-role="loop-state"]')) ?? '';
  const runs = (await page.evaluate(() => (self as unknown as { __runs: unknown[] }).__runs)) as RunRecord[];
  assert.equal(runs.length, 1);
  const run = runs[0]!;
  assert.equal(run.calls.length, 2, `the model made ${run.calls.length} calls (${run.stop}: ${state})`);
  assert.equal(run.stop, 'max-calls');

  const cards = await page.$$eval('[data-role="loop-call"]', (els) =>
    els.map((e) => ({ call: Number(e.getAttribute('data-call')), T: Number(e.getAttribute('data-prompt-tokens')), reused: Number(e.getAttribute('data-reused')), recomputed: Number(e.getAttribute('data-recomputed')), generated: Number(e.getAttribute('data-generated')), decision: e.getAttribute('data-decision') })),
  );
  assert.deepEqual(cards.map((c) => c.call), [1, 2]);

  // Each prompt re-rendered in Node from the request the loop sent equals the worker's, token for token.
  const ids = run.calls.map((c) => buildPrompt(tok, c.request, { addGenerationPrompt: true }).ids);
  run.calls.forEach((c, i) => assert.deepEqual(c.ids, ids[i], `call ${i + 1}: the worker's prompt ids`));
  // append: call 2 sends call 1's messages (status included), then the turn, its tool results and a new status.
  const [m1, m2] = [run.calls[0]!.request.messages, run.calls[1]!.request.messages];
  assert.deepEqual(m2.slice(0, m1.length), m1, 'call 2 starts with every message of call 1');
  assert.match(String(m2.at(-1)!.content), /^<agent_status>/);

  // Call 1 starts from an empty cache: every prompt token computed.
  assert.deepEqual([cards[0]!.T, cards[0]!.reused, cards[0]!.recomputed], [ids[0]!.length, 0, ids[0]!.length]);
  // Call 2: the cache held call 1's prompt and its generated tokens; the engine kept their common prefix with call 2's prompt.
  const held = [...ids[0]!, ...run.calls[0]!.generated];
  const T2 = ids[1]!.length;
  const want = Math.min(prefix(held, ids[1]!), T2 - 1);
  const promptsPrefix = prefix(ids[0]!, ids[1]!);
  console.log(`call 1: T ${ids[0]!.length}, generated ${run.calls[0]!.generated.length}; call 2: T ${T2}, prefix of the prompts ${promptsPrefix}, prefix with the cache ${prefix(held, ids[1]!)}, reused ${cards[1]!.reused}, recomputed ${cards[1]!.recomputed}`);
  assert.equal(run.calls[1]!.cachedBefore, held.length);
  assert.equal(cards[1]!.T, T2);
  assert.equal(cards[1]!.reused, want);
  assert.equal(cards[1]!.recomputed, T2 - want);
  assert.ok(cards[1]!.reused >= promptsPrefix, 'append keeps at least the prefix the two prompts share');
  // The worker's cache now: call 2's prompt and its generated tokens.
  const cacheIds = (await page.evaluate(() => (self as unknown as { __client: { ids: number[] } }).__client.ids)) as number[];
  assert.deepEqual(cacheIds, [...ids[1]!, ...run.calls[1]!.generated]);
  // The bar: the reused part's width over the recomputed part's is their ratio.
  const widths = await page.$$eval('[data-role="loop-call"][data-call="2"] [data-role="loop-bar"] > div', (els) => els.map((e) => e.getBoundingClientRect().width));
  assert.ok(Math.abs(widths[0]! / (widths[0]! + widths[1]!) - want / T2) < 0.02, `bar ${widths.join(' / ')} vs ${want}/${T2}`);

  // Export: the run log the Data tab imports.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-role="loop-export"]')]);
  const parsed = parseRunLog(readFileSync((await dl.path())!, 'utf8'));
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  assert.equal(parsed.log.mode, 'live_loop_status_append');
  assert.deepEqual(parsed.log.calls.map((c) => [c.promptTokens, c.completionTokens]), cards.map((c) => [c.T, c.generated]));
  assert.match(parsed.log.calls[1]!.note ?? '', new RegExp(`reused ${want}, recomputed ${T2 - want}`));
  assert.deepEqual(errors, []);
  await page.close();
});

test('Stop aborts a run while it generates; the Chinese interface shows the Chinese strings', { timeout: 300_000 }, async () => {
  const { page, errors } = await open('zh');
  assert.ok(((await page.textContent('[data-role="live-loop"] h2')) ?? '').includes(STRINGS['loop.title'].zh));
  assert.ok(((await page.textContent('[data-role="loop-shared-note"]')) ?? '').includes(STRINGS['loop.sharedWorker'].zh));
  await settings(page, { calls: 8, maxNew: 512, status: 'replace' });
  await page.click('[data-role="loop-run"]');
  // Wait for the first generated tokens of call 1, then stop.
  await page.waitForFunction(() => Number(document.querySelector('[data-role="live-loop"]')?.getAttribute('data-calls')) >= 1 || ((document.querySelector('[data-role="loop-streaming"] pre')?.textContent ?? '').length > 0), null, { timeout: 120_000 });
  await page.click('[data-role="loop-stop"]');
  await idle(page);
  assert.equal(await page.getAttribute('[data-role="live-loop"]', 'data-stop'), 'aborted');
  assert.ok(((await page.textContent('[data-role="loop-state"]')) ?? '').includes(STRINGS['loop.stopAborted'].zh));
  const runs = (await page.evaluate(() => (self as unknown as { __runs: unknown[] }).__runs)) as RunRecord[];
  const run = runs[0]!;
  assert.ok(run.calls.length < 8, `stopped after ${run.calls.length} calls`);
  // The worker's cache holds exactly what the loop left: the last call's prompt and the tokens it generated before the stop.
  const last = run.calls.at(-1)!;
  const cacheIds = (await page.evaluate(() => (self as unknown as { __client: { ids: number[] } }).__client.ids)) as number[];
  assert.deepEqual(cacheIds, [...last.ids, ...last.generated]);
  // A stopped run still exports.
  assert.equal(await page.isDisabled('[data-role="loop-export"]'), false);
  assert.deepEqual(errors, []);
  await page.close();
});
