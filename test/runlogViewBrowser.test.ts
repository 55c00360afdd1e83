// <RunLogView> in headless Chromium (React 19 createRoot, harness test/browser/runlogHarness.ts): the book's
// translation run (page capture fixture) shows 26 calls and its 94,355-token peak; the cost summary equals
// contextGrowth computed here, and follows α; hovering or ←/→ shows a call's numbers; the window control
// validates inline; a multi-agent log gets one legend entry per agent; HTML in notes and agent names stays
// text; 20,000 calls draw as a few hundred SVG elements; Chinese labels.
// With RUNLOG_SHOTS=<dir> it also saves screenshots (26 calls and 3 agents, English and Chinese) there.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { launchChromium, trackedPage } from './helpers/browser';
import { serveHarness } from './helpers/harness';
import { GROWTH_CHART } from '../components/data/useGrowthChart';
import { formatCount } from '../lib/prompt/request';
import { formatUnits } from '../lib/view/growthChart';
import { formatPercent1 as formatPercent } from '../lib/view/scale';
import { contextGrowth } from '../lib/analysis/contextGrowth';
import { parseRunLog, type RunLog } from '../lib/io/runlog';

const SEED = readFileSync('test/fixtures/runlog/translation-single-agent.page.txt', 'utf8');
const SHOTS = process.env.RUNLOG_SHOTS;

let browser: Awaited<ReturnType<typeof launchChromium>>;
let server: Awaited<ReturnType<typeof serveHarness>>;

before(async () => {
  server = await serveHarness('test/browser/runlogHarness.ts');
  browser = await launchChromium();
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

function parsed(text: string): RunLog {
  const r = parseRunLog(text);
  if (!r.ok) assert.fail(r.error);
  return r.log;
}

/** A three-agent run: a manager that plans and merges, a researcher and a writer whose contexts grow. */
function threeAgentText(): string {
  const calls: Record<string, unknown>[] = [];
  const ctx = { Manager: 3000, Researcher: 2000, Writer: 2500 };
  for (let round = 0; round < 12; round++) {
    for (const agent of ['Manager', 'Researcher', 'Writer'] as const) {
      if (agent === 'Writer' && round % 2 === 1) continue;
      ctx[agent] += agent === 'Researcher' ? 4200 + 150 * round : agent === 'Writer' ? 2600 : 900;
      calls.push({ agent, prompt_tokens: ctx[agent], completion_tokens: agent === 'Writer' ? 1600 : 420 + 10 * round, note: `${agent} round ${round + 1}`, latency_seconds: 2 + round / 4 });
    }
  }
  return JSON.stringify({ value: { result: { mode: 'orchestration', manager_context_peak: ctx.Manager, tracker_calls: calls } } });
}

interface Opened {
  page: Page;
  errors: string[];
  dialogs: string[];
}

async function open(text: string, name: string, lang = 'en'): Promise<Opened> {
  const { page, errors, dialogs } = await trackedPage(browser.context);
  await page.setViewportSize({ width: 1180, height: 1000 });
  await page.goto(`${server.url}/index.html`);
  await page.waitForFunction(() => (window as unknown as { __ready?: boolean }).__ready === true, null, { timeout: 20_000 });
  const err = await page.evaluate(([t, n, l]) => (window as unknown as { __show: (a: string, b: string, c: string) => string | null }).__show(t!, n!, l!), [text, name, lang]);
  assert.equal(err, null);
  await page.waitForSelector('svg[data-role="growth-chart"]', { timeout: 20_000 });
  return { page, errors, dialogs };
}

const stat = async (page: Page, role: string) => {
  const el = page.locator(`[data-role="runlog-sum-${role}"]`);
  return { value: Number(await el.getAttribute('data-value')), text: ((await el.locator('[data-field="value"]').textContent()) ?? '').trim() };
};

/** Page coordinates of the middle of call i's (0-based) column of n. */
async function callPoint(page: Page, n: number, i: number): Promise<{ x: number; y: number }> {
  const box = (await page.locator('svg[data-role="growth-chart"]').boundingBox())!;
  const k = box.width / GROWTH_CHART.width;
  const b = GROWTH_CHART.box;
  return { x: box.x + (b.x0 + ((i + 0.5) / n) * b.w) * k, y: box.y + (b.y0 + b.h * 0.9) * k };
}

async function tooltip(page: Page, call: number, total: number, lang = 'en'): Promise<Record<string, string>> {
  const [c, n] = [formatCount(call), formatCount(total)];
  const head = lang === 'zh' ? `第 ${c} 次调用（共 ${n} 次）` : `call ${c} of ${n}`;
  await page.waitForFunction((h) => document.querySelector('[data-role="growth-tooltip"] [data-field="call"]')?.textContent === h, head, { timeout: 5_000 }).catch(() => undefined);
  const fields = await page.$$eval('[data-role="growth-tooltip"] [data-field]', (els) => els.map((e) => [e.getAttribute('data-field')!, (e.lastElementChild ?? e).textContent ?? ''] as const));
  const out = Object.fromEntries(fields);
  assert.equal(out.call, head, JSON.stringify(out));
  return out;
}

test('the translation run: 26 calls, peak 94,355, cost summary = contextGrowth, α and window controls', async () => {
  const log = parsed(SEED);
  const { page, errors, dialogs } = await open(SEED, 'translation-single-agent.page.txt');
  assert.equal(await page.getAttribute('svg[data-role="growth-chart"]', 'data-calls'), '26');
  assert.equal(await page.textContent('[data-role="runlog-name"]'), 'translation-single-agent.page.txt');
  const g = contextGrowth(log, { alpha: 0.1, contextWindow: 128000 });
  assert.deepEqual(await stat(page, 'calls'), { value: 26, text: '26' });
  assert.deepEqual(await stat(page, 'peak'), { value: 94355, text: '94,355' });
  assert.match((await page.textContent('[data-role="runlog-sum-peak"]')) ?? '', /at call 26/);
  assert.equal(await page.getAttribute('[data-role="runlog-file-peak"]', 'data-matches'), 'true');
  assert.deepEqual(await stat(page, 'prompt'), { value: g.summary.promptTokens, text: formatCount(g.summary.promptTokens) });
  assert.deepEqual(await stat(page, 'completion'), { value: g.summary.completionTokens, text: formatCount(g.summary.completionTokens) });
  assert.deepEqual(await stat(page, 'cost-uncached'), { value: g.summary.costUncached, text: formatUnits(g.summary.costUncached) });
  assert.deepEqual(await stat(page, 'cost-cached'), { value: g.summary.costCached, text: formatUnits(g.summary.costCached) });
  assert.equal((await stat(page, 'cost-cached')).text, '172,468.5');
  assert.deepEqual(await stat(page, 'saved'), { value: g.summary.saved, text: `${formatUnits(g.summary.saved)} (${formatPercent(g.summary.savedFraction)})` });
  assert.equal(await page.textContent('[data-role="runlog-saved-pct"]'), '(86.4%)');
  assert.match((await page.textContent('[data-role="runlog-sum-cost-cached"]')) ?? '', /α\s=\s0\.1/);
  assert.match((await page.textContent('[data-role="runlog-sum-window"]')) ?? '', /no call exceeds 128,000 tokens/);
  assert.match((await page.textContent('[data-role="runlog-upper-bound"]')) ?? '', /upper bound/);
  assert.match((await page.textContent('[data-role="runlog-notes"]')) ?? '', /read as a page capture/);
  // Single agent: no agent legend, no per-agent table; the cached part is in the legend.
  assert.equal(await page.locator('[data-role="growth-legend-agent"]').count(), 0);
  assert.equal(await page.locator('[data-role="runlog-agents"]').count(), 0);
  assert.match((await page.textContent('[data-role="growth-legend-cached"]')) ?? '', /append-only cache/);
  // The window line is drawn and labelled.
  assert.match((await page.textContent('[data-role="growth-window"]')) ?? '', /context window 128,000/);
  if (SHOTS) await page.locator('[data-role="runlog-view"]').screenshot({ path: join(SHOTS, 'runlog-26-en.png') });

  // α = 0.5: the cached cost is uncached + 0.5 × cached tokens; α = 0 leaves the uncached tokens only.
  for (const a of [0.5, 0]) {
    await page.fill('[data-control="runlog-alpha"]', String(a));
    const ga = contextGrowth(log, { alpha: a }).summary;
    await page.waitForFunction((v) => document.querySelector('[data-role="runlog-sum-cost-cached"]')?.getAttribute('data-value') === String(v), ga.costCached);
    assert.deepEqual(await stat(page, 'cost-cached'), { value: ga.costCached, text: formatUnits(ga.costCached) });
    assert.equal(ga.costCached, ga.promptTokens - ga.cachedTokens + a * ga.cachedTokens);
    assert.deepEqual(await stat(page, 'cost-uncached'), { value: g.summary.costUncached, text: formatUnits(g.summary.costUncached) });
    assert.match((await page.textContent('[data-role="runlog-sum-cost-cached"]')) ?? '', new RegExp(`α\\s=\\s${a}\\b`));
  }
  assert.equal((await stat(page, 'cost-cached')).value, g.summary.promptTokens - g.summary.cachedTokens);
  // A bad α: a message, and the last good value (0) stays in use.
  await page.fill('[data-control="runlog-alpha"]', '1.5');
  assert.match((await page.textContent('[data-role="runlog-alpha-invalid"]')) ?? '', /α must be a number from 0 to 1; still using 0\./);
  assert.equal(await page.getAttribute('[data-control="runlog-alpha"]', 'aria-invalid'), 'true');
  assert.equal((await stat(page, 'cost-cached')).value, g.summary.promptTokens - g.summary.cachedTokens);
  await page.fill('[data-control="runlog-alpha"]', '0.1');
  assert.equal(await page.locator('[data-role="runlog-alpha-invalid"]').count(), 0);
  assert.equal((await stat(page, 'cost-cached')).value, g.summary.costCached);

  // Window 32,768: calls over it are banded and the summary names the first.
  await page.selectOption('[data-control="runlog-window"]', '32768');
  const g32 = contextGrowth(log, { contextWindow: 32768 });
  const over = g32.rows.filter((r) => r.overWindow).length;
  await page.waitForSelector('path[data-series="over"]');
  assert.match((await page.textContent('[data-role="runlog-sum-window"]')) ?? '', new RegExp(`first exceeded at call ${g32.summary.windowCrossedAt}; ${over} calls over 32,768 tokens`));
  // Custom: a bad value keeps 32,768 with a message; a good one applies.
  await page.selectOption('[data-control="runlog-window"]', 'custom');
  await page.fill('[data-control="runlog-window-custom"]', '12abc');
  assert.match((await page.textContent('[data-role="runlog-window-invalid"]')) ?? '', /whole number of tokens from 1 to 1,000,000,000,000; still using 32,768/);
  assert.match((await page.textContent('[data-role="runlog-sum-window"]')) ?? '', /32,768/);
  await page.fill('[data-control="runlog-window-custom"]', '60000');
  assert.equal(await page.locator('[data-role="runlog-window-invalid"]').count(), 0);
  const g60 = contextGrowth(log, { contextWindow: 60000 });
  assert.match((await page.textContent('[data-role="runlog-sum-window"]')) ?? '', new RegExp(`first exceeded at call ${g60.summary.windowCrossedAt};`));
  // None: no window line, no bands.
  await page.selectOption('[data-control="runlog-window"]', 'none');
  assert.equal(await page.locator('[data-role="growth-window"]').count(), 0);
  assert.equal(await page.locator('path[data-series="over"]').count(), 0);
  // A window far above the bars: named above the chart.
  await page.selectOption('[data-control="runlog-window"]', '1000000');
  assert.match((await page.textContent('[data-role="growth-window"]')) ?? '', /context window 1,000,000 ↑/);
  await page.close();
  assert.deepEqual(errors, []);
  assert.deepEqual(dialogs, []);
});

test('hover and ←/→ select a call; the tooltip shows its numbers', async () => {
  const log = parsed(SEED);
  const g = contextGrowth(log);
  const { page, errors } = await open(SEED, 'seed');
  const expectCall = (out: Record<string, string>, i: number) => {
    const r = g.rows[i]!;
    const c = log.calls[i]!;
    assert.equal(out.agent, 'SingleAgent');
    assert.equal(out.prompt, formatCount(r.promptTokens));
    assert.equal(out.cached, formatCount(r.cachedTokens));
    assert.equal(out.uncached, formatCount(r.uncachedTokens));
    assert.equal(out.completion, formatCount(r.completionTokens));
    assert.equal(out.cumulative, formatCount(r.cumulativeTokens));
    assert.equal(out.latency, `${c.latencySeconds!.toFixed(2)} s`);
    assert.equal(out.note, c.note);
  };
  const p = await callPoint(page, 26, 11);
  await page.mouse.move(p.x, p.y);
  const out = await tooltip(page, 12, 26);
  expectCall(out, 11);
  assert.equal(out.prompt, '44,255');
  // Another bar.
  const q = await callPoint(page, 26, 25);
  await page.mouse.move(q.x, q.y);
  expectCall(await tooltip(page, 26, 26), 25);
  // Keyboard: ← from 26 → 25; Home → 1; → → 2; End → 26.
  await page.focus('[data-role="growth-chart-focus"]');
  await page.keyboard.press('ArrowLeft');
  expectCall(await tooltip(page, 25, 26), 24);
  await page.keyboard.press('Home');
  expectCall(await tooltip(page, 1, 26), 0);
  await page.keyboard.press('ArrowRight');
  expectCall(await tooltip(page, 2, 26), 1);
  await page.keyboard.press('End');
  expectCall(await tooltip(page, 26, 26), 25);
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('[data-role="growth-tooltip"]').count(), 0);
  await page.close();
  assert.deepEqual(errors, []);
});

test('three agents: one legend entry and one table row per agent, each call in its agent colour', async () => {
  const text = threeAgentText();
  const log = parsed(text);
  assert.deepEqual(log.agents, ['Manager', 'Researcher', 'Writer']);
  const { page, errors } = await open(text, 'orchestration-3-agents.json');
  assert.deepEqual(await page.$$eval('[data-role="growth-legend-agent"]', (els) => els.map((e) => e.textContent)), ['Manager', 'Researcher', 'Writer']);
  assert.equal(await page.locator('[data-role="runlog-agents"] tbody tr').count(), 3);
  assert.match((await page.textContent('[data-role="runlog-meta"]')) ?? '', new RegExp(`${log.calls.length} calls · 3 agents`));
  // Bars of three colours: one uncached path per agent.
  assert.equal(await page.locator('path[data-series^="uncached-"]').count(), 3);
  const g = contextGrowth(log);
  assert.equal(await page.getAttribute('[data-role="runlog-file-peak"]', 'data-matches'), String(g.summary.fileContextPeakMatches));
  // The second call is the researcher's.
  const p = await callPoint(page, log.calls.length, 1);
  await page.mouse.move(p.x, p.y);
  const out = await tooltip(page, 2, log.calls.length);
  assert.equal(out.agent, 'Researcher');
  assert.equal(out.prompt, formatCount(log.calls[1]!.promptTokens));
  if (SHOTS) {
    await page.mouse.move(p.x + 300, p.y);
    await page.locator('[data-role="runlog-view"]').screenshot({ path: join(SHOTS, 'runlog-3agents-en-hover.png') });
    await page.mouse.move(0, 0);
    await page.locator('[data-role="runlog-view"]').screenshot({ path: join(SHOTS, 'runlog-3agents-en.png') });
  }
  await page.close();
  assert.deepEqual(errors, []);
});

test('HTML in notes and agent names renders as text', async () => {
  const evil = '<img src=x onerror=alert(1)>';
  const text = JSON.stringify([
    { agent: '<b>Boss</b>', prompt_tokens: 1000, completion_tokens: 10, note: evil },
    { agent: 'Worker<script>window.__pwned=1</script>', prompt_tokens: 2000, completion_tokens: 20, note: '<svg onload=alert(2)>' },
  ]);
  const { page, errors, dialogs } = await open(text, `<img src=y onerror=alert(3)>.json`);
  const p = await callPoint(page, 2, 0);
  await page.mouse.move(p.x, p.y);
  const out = await tooltip(page, 1, 2);
  assert.equal(out.note, evil);
  assert.equal(out.agent, '<b>Boss</b>');
  assert.equal(await page.evaluate(() => document.querySelectorAll('img').length), 0);
  assert.equal(await page.evaluate(() => document.querySelectorAll('[data-role="runlog-view"] b, [data-role="runlog-view"] script').length), 0);
  assert.equal(await page.textContent('[data-role="runlog-name"]'), '<img src=y onerror=alert(3)>.json');
  const q = await callPoint(page, 2, 1);
  await page.mouse.move(q.x, q.y);
  assert.equal((await tooltip(page, 2, 2)).note, '<svg onload=alert(2)>');
  assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  assert.deepEqual(await page.$$eval('[data-role="growth-legend-agent"]', (els) => els.map((e) => e.textContent)), ['<b>Boss</b>', 'Worker<script>window.__pwned=1</script>']);
  await page.close();
  assert.deepEqual(errors, []);
  assert.deepEqual(dialogs, []);
});

test('20,000 calls: a few hundred SVG elements, not 20,000; every call still reachable', async () => {
  const N = 20_000;
  const calls = Array.from({ length: N }, (_, i) => ({ agent: i % 3 === 0 ? 'planner' : 'worker', prompt_tokens: 1000 + ((i * 37) % 5000) + Math.floor(i / 10), completion_tokens: 50 + (i % 7), note: `step ${i + 1}` }));
  const text = JSON.stringify(calls);
  const log = parsed(text);
  const t0 = Date.now();
  const { page, errors } = await open(text, 'big.json');
  const ms = Date.now() - t0;
  const count = await page.$$eval('svg[data-role="growth-chart"] *', (els) => els.length);
  assert.ok(count < 400, `${count} SVG elements`);
  assert.equal(await page.getAttribute('svg[data-role="growth-chart"]', 'data-calls'), String(N));
  assert.ok(Number(await page.getAttribute('svg[data-role="growth-chart"]', 'data-columns')) < 1100);
  assert.match((await page.textContent('[data-role="growth-binned"]')) ?? '', /each column covers up to \d+ calls/);
  // x labels thinned to every 2,000th call, written compactly.
  assert.deepEqual(await page.$$eval('svg[data-role="growth-chart"] text', (els) => els.map((e) => e.textContent).filter((s) => /^(1|\d+k)$/.test(s ?? '') && s !== '0')).then((l) => l.slice(-11)), ['1', '2k', '4k', '6k', '8k', '10k', '12k', '14k', '16k', '18k', '20k']);
  assert.equal(await page.locator('[data-role="runlog-view"] *').count() < 1000, true);
  // Keyboard reaches the last call; the tooltip names it exactly.
  await page.focus('[data-role="growth-chart-focus"]');
  await page.keyboard.press('End');
  const g = contextGrowth(log);
  const out = await tooltip(page, N, N);
  assert.equal(out.cumulative, formatCount(g.rows[N - 1]!.cumulativeTokens));
  await page.keyboard.press('ArrowLeft');
  assert.equal((await tooltip(page, N - 1, N)).note, `step ${N - 1}`);
  // Hovering a column shows the call it draws (its largest prompt).
  const p = await callPoint(page, N, N / 2);
  await page.mouse.move(p.x, p.y);
  await page.waitForSelector('[data-role="growth-tooltip"]');
  assert.match((await page.textContent('[data-role="growth-tooltip"]')) ?? '', /its column covers calls [\d,]+–[\d,]+/);
  if (SHOTS) await page.locator('[data-role="runlog-view"]').screenshot({ path: join(SHOTS, 'runlog-20k-en-hover.png') });
  await page.close();
  assert.deepEqual(errors, []);
  assert.ok(ms < 15_000, `opened in ${ms} ms`);
});

test('Chinese: translated labels, summary and tooltip', async () => {
  const { page, errors } = await open(SEED, 'translation-single-agent.page.txt', 'zh');
  assert.match((await page.textContent('[data-role="runlog-view"]')) ?? '', /汇总/);
  assert.match((await page.textContent('[data-role="runlog-sum-peak"]')) ?? '', /提示 token 峰值94,355出现在第 26 次调用/);
  assert.match((await page.textContent('[data-role="runlog-upper-bound"]')) ?? '', /这是一个上限/);
  assert.match((await page.textContent('svg[data-role="growth-chart"]')) ?? '', /累计 token（全部调用）/);
  const p = await callPoint(page, 26, 11);
  await page.mouse.move(p.x, p.y);
  await tooltip(page, 12, 26, 'zh');
  if (SHOTS) {
    await page.locator('[data-role="runlog-view"]').screenshot({ path: join(SHOTS, 'runlog-26-zh-hover.png') });
    const multi = await open(threeAgentText(), 'orchestration-3-agents.json', 'zh');
    await multi.page.selectOption('[data-control="runlog-window"]', '32768');
    await multi.page.locator('[data-role="runlog-view"]').screenshot({ path: join(SHOTS, 'runlog-3agents-zh-32k.png') });
    await multi.page.close();
  }
  await page.close();
  assert.deepEqual(errors, []);
});
