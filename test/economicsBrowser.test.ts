// <CacheEconomics> in headless Chromium (harness test/browser/economicsHarness.ts, prompts rendered with
// the embedded model's tokenizer fetched over HTTP): every number shown matches lib/ computed here in
// Node on the same tokenizer — the six modes' costs and per-call accounting under each control, the
// break points and damage text, the radix tree and block hashes, the think-block drop, the status-bar
// economics with its real S and R — and renderPrompt runs once per prompt, waits for a model, and
// retries after a failure.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { launchChromium, trackedPage } from './helpers/browser';
import { serveStatic } from './helpers/staticServer';
import { loadTokenizerDir } from '../lib/cli/tokenizerDir';
import { accountPattern, PATTERN_MODES, type PatternMode } from '../lib/agent/patterns';
import { blockHits, buildRadix } from '../lib/cache/radix';
import { runOf } from '../lib/agent/run';
import { reasoningMessages, thinkDrops } from '../lib/cache/thinkDrop';
import { crossoverUpdates, statusCountsFromPrompt, statusFormula } from '../lib/cache/statusEconomics';
import { buildPrompt } from '../lib/prompt/prompt';
import { THINKING_REQUEST } from '../lib/scenarios/thinking';
import { scenarioRequest } from '../lib/scenarios';
import type { BlockSize } from '../lib/cache/accounting';

const tok = loadTokenizerDir('public/models/kvscope-tiny');
const PROMPTS_PER_PAGE = PATTERN_MODES.length * 7 + runOf(THINKING_REQUEST).calls.length + 1;

let browser: Awaited<ReturnType<typeof launchChromium>>;
let server: Awaited<ReturnType<typeof serveStatic>>;
let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kvscope-econ-'));
  await build({
    entryPoints: ['test/browser/economicsHarness.ts'],
    bundle: true,
    format: 'esm',
    outfile: join(dir, 'harness.js'),
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><body style="margin:20px"><script type="module" src="harness.js"></script>');
  server = await serveStatic({ '/': dir, '/models': 'public/models' }, { isolated: false });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function open(query: string, ready = true): Promise<{ page: Page; errors: string[] }> {
  const { page, errors } = await trackedPage(browser.context);
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(`${server.url}/index.html?${query}`);
  if (ready) await whenReady(page);
  return { page, errors };
}

async function whenReady(page: Page): Promise<void> {
  for (const role of ['pattern-summary', 'think-table', 'status-table']) await page.waitForSelector(`[data-role="${role}"]`, { timeout: 60_000 });
  await page.waitForFunction(() => !document.querySelector('[data-role="econ-progress"]'), null, { timeout: 60_000 });
}

const attr = (page: Page, selector: string, name: string) => page.$eval(selector, (e, n) => e.getAttribute(n), name);
const num = async (page: Page, selector: string, name: string) => Number(await attr(page, selector, name));

async function expectCosts(page: Page, opts: { blockSize: BlockSize; alpha: number; seed: number }): Promise<void> {
  await page.waitForFunction((s) => document.querySelector('[data-role="pattern-params"]')?.textContent?.includes(`seed ${s}`), opts.seed, { timeout: 30_000 });
  for (const mode of PATTERN_MODES) {
    const want = accountPattern(tok, mode, opts).accounting.totals;
    const sel = `[data-role="pattern-summary"] g[data-mode="${mode}"]`;
    await page.waitForFunction(([s, c]) => Math.abs(Number(document.querySelector(s!)?.getAttribute('data-cost')) - Number(c)) < 1e-6, [sel, String(want.cost)], { timeout: 10_000 }).catch(() => undefined);
    assert.ok(Math.abs((await num(page, sel, 'data-cost')) - want.cost) < 1e-6, `${mode} cost ${JSON.stringify(opts)}`);
    assert.ok(Math.abs((await num(page, sel, 'data-ratio')) - want.cacheRatio) < 1e-12, `${mode} ratio`);
  }
}

async function selectMode(page: Page, mode: PatternMode): Promise<void> {
  await page.click(`button[data-mode="${mode}"]`);
  await page.waitForFunction((m) => document.querySelector('[data-role="pattern-description"] code')?.textContent === m, mode);
}

test('six modes: costs, ratios and per-call accounting equal lib/ on the same tokenizer, under every control', async () => {
  const { page, errors } = await open('lang=en');
  await expectCosts(page, { blockSize: 256, alpha: 0.1, seed: 1 });
  // correct is the cheapest mode at the defaults.
  const costs = await page.$$eval('[data-role="pattern-summary"] g[data-mode]', (gs) => gs.map((g) => [g.getAttribute('data-mode'), Number(g.getAttribute('data-cost'))] as const));
  assert.equal(costs.reduce((a, b) => (b[1] < a[1] ? b : a))[0], 'correct');

  for (const mode of ['correct', 'sliding_window'] as const) {
    await selectMode(page, mode);
    const want = accountPattern(tok, mode, { blockSize: 256, alpha: 0.1, seed: 1 });
    const rows = await page.$$eval('[data-role="pattern-calls-table"] tbody tr[data-call]', (trs) =>
      trs.map((tr) => ({ sent: Number(tr.getAttribute('data-sent')), cached: Number(tr.getAttribute('data-cached')), fd: tr.getAttribute('data-first-difference'), damage: tr.querySelector('[data-role="pattern-damage"]')?.textContent })),
    );
    assert.deepEqual(
      rows,
      want.accounting.calls.map((c, i) => ({ sent: c.sent, cached: c.cached, fd: c.firstDifference === null ? '' : String(c.firstDifference), damage: want.run.calls[i]!.damage.en })),
    );
    const bars = await page.$$eval('[data-role="pattern-calls-chart"] g[data-call]', (gs) => gs.map((g) => [Number(g.getAttribute('data-cached')), Number(g.getAttribute('data-recomputed'))]));
    assert.deepEqual(bars, want.accounting.calls.map((c) => [c.cached, c.recomputed]));
  }

  // dynamic_system breaks inside the system prompt (message 0) on every call after the first, at the token breakPointAt names.
  await selectMode(page, 'dynamic_system');
  const ds = accountPattern(tok, 'dynamic_system', { blockSize: 256, alpha: 0.1, seed: 1 });
  const breakTexts = await page.$$eval('[data-role="pattern-calls-table"] tbody tr[data-call]', (trs) => trs.map((tr) => tr.children[5]!.textContent ?? ''));
  for (let i = 1; i < breakTexts.length; i++) {
    const b = ds.breaks[i]!;
    assert.equal(b.message, 0);
    assert.match(breakTexts[i]!, new RegExp(`^token ${b.token} .*message 0 \\(system\\)`), breakTexts[i]);
  }

  await page.selectOption('[data-control="econ-block"]', '16');
  await expectCosts(page, { blockSize: 16, alpha: 0.1, seed: 1 });
  await page.fill('[data-control="econ-alpha"]', '0.5');
  await expectCosts(page, { blockSize: 16, alpha: 0.5, seed: 1 });
  await page.fill('[data-control="econ-seed"]', '7');
  await expectCosts(page, { blockSize: 16, alpha: 0.5, seed: 7 });
  // An invalid α is refused with a message and the last valid one stays.
  await page.fill('[data-control="econ-alpha"]', '1.5');
  assert.match((await page.textContent('[role="alert"]')) ?? '', /still using 0\.5/);
  await expectCosts(page, { blockSize: 16, alpha: 0.5, seed: 7 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('prefix tree and block hashes of the selected mode equal buildRadix and blockHits', async () => {
  const { page, errors } = await open('lang=en');
  await page.selectOption('[data-control="econ-block"]', '16');
  for (const mode of ['sliding_window', 'shuffled_tools', 'correct'] as const) {
    await selectMode(page, mode);
    const prompts = accountPattern(tok, mode, { seed: 1 }).prompts.map((p) => p.ids);
    const radix = buildRadix(prompts);
    await page.waitForFunction((n) => Number(document.querySelector('[data-role="radix-tree"]')?.getAttribute('data-nodes')) === n, radix.nodes.length, { timeout: 5_000 }).catch(() => undefined);
    assert.equal(await num(page, '[data-role="radix-tree"]', 'data-nodes'), radix.nodes.length, mode);
    const edges = await page.$$eval('[data-role="radix-tree"] g[data-node]', (gs) => gs.map((g) => [Number(g.getAttribute('data-node')), Number(g.getAttribute('data-tokens')), g.getAttribute('data-calls')]));
    assert.deepEqual(
      edges.sort((a, b) => Number(a[0]) - Number(b[0])),
      radix.nodes.filter((n) => n.parent !== null).map((n) => [n.id, n.end - n.start, n.calls.join(' ')]),
    );
    const hits = await page.$$eval('[data-role="radix-hits"] tr[data-call]', (trs) => trs.map((tr) => Number(tr.getAttribute('data-hit'))));
    assert.deepEqual(hits, radix.inserts.map((i) => i.hit));
    const blocks = await page.$$eval('[data-role="block-rows"] g[data-call]', (gs) => gs.map((g) => [Number(g.getAttribute('data-hit-blocks')), Number(g.getAttribute('data-blocks'))]));
    assert.deepEqual(blocks, blockHits(prompts, 16).map((b) => [b.hitBlocks, b.blocks]));
    assert.equal(await attr(page, '[data-role="block-agree"]', 'data-agree'), 'true');
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('text_format: the last call next to correct’s, from message 1 on — tool-call structure on one side only', async () => {
  const { page, errors } = await open('lang=en');
  assert.equal(await page.$('[data-role="text-format-compare"]'), null);
  await selectMode(page, 'text_format');
  const chipTexts = (side: string) => page.$$eval(`[data-role="text-format-compare"] [data-side="${side}"] [data-token-index]`, (cs) => cs.map((c) => c.textContent ?? ''));
  const correct = await chipTexts('correct');
  const flat = await chipTexts('text_format');
  const last = (mode: PatternMode) => accountPattern(tok, mode, { seed: 1 }).prompts.at(-1)!;
  const from = (mode: PatternMode) => last(mode).spans.find((s) => s.message === 1)!.start;
  assert.equal(correct.length, last('correct').ids.length - from('correct'));
  assert.equal(flat.length, last('text_format').ids.length - from('text_format'));
  assert.ok(correct.includes('<tool_call>') && correct.includes('<tool_response>'));
  assert.ok(!flat.includes('<tool_call>') && !flat.includes('<tool_response>'));
  assert.ok(flat.join('').startsWith('<|im_start|>user↵Previous'), flat.slice(0, 6).join('|'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('think-block drop: the break, lost tokens and dropped message equal thinkDrops', async () => {
  const { page, errors } = await open('lang=en');
  const run = runOf(THINKING_REQUEST);
  const prompts = run.calls.map((c) => buildPrompt(tok, c.request, { addGenerationPrompt: true }));
  const drops = thinkDrops(prompts, run.calls.map((c) => reasoningMessages(c.request.messages)));
  const rows = await page.$$eval('[data-role="think-table"] tr[data-call]', (trs) => trs.map((tr) => [tr.getAttribute('data-break'), Number(tr.getAttribute('data-lost')), tr.getAttribute('data-dropped')]));
  assert.deepEqual(rows, drops.map((d) => [d.breakAt === null ? '' : String(d.breakAt), d.lostTokens, d.dropped.join(' ')]));
  const broken = drops.find((d) => d.causedByThinkDrop)!;
  assert.ok(broken, 'the template drops a think block in this run');
  const summary = (await page.textContent('[data-role="think-summary"]')) ?? '';
  assert.match(summary, new RegExp(`Call ${broken.index + 1} drops the <think> block of message ${broken.dropped[0]}.*token ${broken.breakAt}.*${broken.lostTokens} of call ${broken.earlier! + 1}`));
  // The strip shows both calls up to the break, with the same tokens before it.
  const strip = await page.$$eval('[data-role="think-strip"] > div', (ds) => ds.slice(0, 2).map((d) => Array.from(d.querySelectorAll('[data-token-index]'), (c) => [Number(c.getAttribute('data-token-index')), c.textContent])));
  const before = (row: (string | number | null)[][]) => row.filter(([i]) => Number(i) < broken.breakAt!);
  assert.deepEqual(before(strip[0]!), before(strip[1]!));
  assert.ok(strip[0]!.some(([i]) => i === broken.breakAt));
  assert.deepEqual(errors, []);
  await page.close();
});

test('status bar: S and R measured on Xfinity B, formula = simulation, and where they part', async () => {
  const { page, errors } = await open('lang=en');
  const request = scenarioRequest('xfinity', 'with-status');
  const prompt = buildPrompt(tok, request, { addGenerationPrompt: true });
  const { S, R } = statusCountsFromPrompt(prompt, request.messages.length - 1, [2, 3, 4, 5]);
  assert.equal(await num(page, '[data-role="status-measured"]', 'data-s'), S);
  assert.equal(await num(page, '[data-role="status-measured"]', 'data-r'), R);
  assert.equal(await page.inputValue('[data-control="status-S"]'), String(S));
  const f = statusFormula({ S, R, N: 3, alpha: 0.1 });
  assert.ok(Math.abs((await num(page, 'tr[data-row="formula"]', 'data-replace')) - f.replace) < 1e-9);
  assert.ok(Math.abs((await num(page, 'tr[data-row="formula"]', 'data-append')) - f.append) < 1e-9);
  assert.ok(Math.abs((await num(page, 'tr[data-row="sim-updates"]', 'data-replace')) - f.replace) < 1e-6);
  assert.equal(await attr(page, 'tr[data-row="sim-updates"]', 'data-agree'), 'true');
  assert.ok(Math.abs((await num(page, '[data-role="status-chart"]', 'data-nstar')) - crossoverUpdates(S, R, 0.1)) < 1e-9);
  assert.ok(await page.$('[data-role="crossover"]'));
  // The simulated dots arrive one per task; all of them, the chosen N among them.
  await page.waitForFunction(() => /^(\d+)\/\1$/.test(document.querySelector('[data-role="status-chart"]')?.getAttribute('data-dots') ?? ''));
  const [drawn, planned] = ((await attr(page, '[data-role="status-chart"]', 'data-dots')) ?? '').split('/').map(Number);
  assert.ok(planned! >= 2, `dots planned: ${planned}`);
  assert.equal((await page.$$('[data-role="status-chart"] g[data-n]')).length, drawn);
  assert.ok(await page.$('[data-role="status-chart"] g[data-n="3"]'), 'a dot at the chosen N');

  // No call between updates: assumption (a) fails, and the view says why.
  await page.fill('[data-control="status-m"]', '0');
  await page.waitForFunction(() => document.querySelector('tr[data-row="sim-updates"]')?.getAttribute('data-agree') === 'false');
  assert.match((await page.textContent('[data-role="status-agree"]')) ?? '', /m = 0/);
  // Calls between updates re-read stale statuses: the all-calls line names the extra term.
  await page.fill('[data-control="status-m"]', '2');
  await page.fill('[data-control="status-N"]', '6');
  await page.waitForFunction(() => /αS·m\(N−1\)\(N−2\)\/2/.test(document.querySelector('[data-role="status-all-calls"]')?.textContent ?? ''));
  assert.equal(await attr(page, 'tr[data-row="sim-updates"]', 'data-agree'), 'true');
  // α = 0: stale statuses are free, no crossover.
  await page.fill('[data-control="status-alpha"]', '0');
  await page.waitForFunction(() => document.querySelector('[data-role="status-chart"]')?.getAttribute('data-nstar') === 'Infinity');
  assert.equal(await page.$('[data-role="crossover"]'), null);
  // Back to the measured counts.
  await page.fill('[data-control="status-S"]', '999');
  await page.click('[data-control="status-reset"]');
  assert.equal(await page.inputValue('[data-control="status-S"]'), String(S));
  assert.equal(await page.inputValue('[data-control="status-alpha"]'), '0.1');
  assert.deepEqual(errors, []);
  await page.close();
});

test('renderPrompt runs once per prompt: a new function or analysed renders nothing again, a model load renders all', async () => {
  const { page, errors } = await open('lang=en');
  assert.equal(await page.evaluate(() => (window as unknown as { __renders: number }).__renders), PROMPTS_PER_PAGE);
  await page.evaluate(() => {
    const w = window as unknown as { __rerender: () => void; __newAnalysed: () => void; __unload: () => void };
    w.__rerender();
    w.__newAnalysed();
    w.__rerender();
  });
  await page.evaluate(() => (window as unknown as { __unload: () => void }).__unload());
  await page.waitForFunction(() => !document.querySelector('[data-role="pattern-summary"]'));
  await page.evaluate(() => (window as unknown as { __newAnalysed: () => void }).__newAnalysed());
  await whenReady(page);
  assert.equal(await page.evaluate(() => (window as unknown as { __renders: number }).__renders), 2 * PROMPTS_PER_PAGE);
  assert.deepEqual(errors, []);
  await page.close();
});

test('no model yet: a waiting note and no rendering; then a progress bar while prompts render', async () => {
  const { page, errors } = await open('lang=en&delay=600000&slow=40', false);
  await page.waitForSelector('[data-role="cache-economics"]');
  const text = (await page.textContent('[data-role="cache-economics"]')) ?? '';
  assert.equal(text.match(/Waiting for the model/g)?.length, 3);
  assert.equal(await page.evaluate(() => (window as unknown as { __renders: number }).__renders), 0);
  assert.equal(await page.$('[data-role="econ-progress"]'), null);
  await page.evaluate(() => (window as unknown as { __newAnalysed: () => void }).__newAnalysed());
  await page.waitForSelector('[data-role="econ-progress"] progress');
  const p = await page.$eval('[data-role="econ-progress"] progress', (e) => [(e as HTMLProgressElement).value, (e as HTMLProgressElement).max]);
  assert.ok(p[0]! < p[1]!, `progress ${p}`);
  assert.match((await page.textContent('[data-role="econ-progress"]')) ?? '', /rendering .*\d+ \/ \d+ prompts/);
  await whenReady(page);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a failing renderer shows its error; the next analysed retries', async () => {
  const { page } = await open('lang=en&fail=1', false);
  await page.waitForFunction(() => document.querySelectorAll('[data-role="cache-economics"] [role="alert"]').length === 3);
  assert.match((await page.textContent('[data-role="cache-economics"] [role="alert"]')) ?? '', /renderer unavailable/);
  await page.evaluate(() => {
    const w = window as unknown as { __heal: () => void; __newAnalysed: () => void };
    w.__heal();
    w.__newAnalysed();
  });
  await whenReady(page);
  assert.equal(await page.$$eval('[data-role="cache-economics"] [role="alert"]', (a) => a.length), 0);
  await page.close();
});

test('labels follow the language (Chinese)', async () => {
  const { page, errors } = await open('lang=zh');
  const text = (await page.textContent('[data-role="cache-economics"]')) ?? '';
  for (const s of ['缓存经济学', '六种构造请求的方式', '前缀缓存的结构', '被丢弃的 <think> 块', '状态栏：替换，还是追加新的？', '交叉点', '重算的 token × 1']) assert.ok(text.includes(s), s);
  assert.ok(!text.includes('Total cost of all calls'));
  // Damage text comes from lib/agent/patterns in the page's language.
  const damage = accountPattern(tok, 'correct', { seed: 1 }).run.calls[1]!.damage.zh;
  assert.ok(text.includes(damage));
  assert.deepEqual(errors, []);
  await page.close();
});
