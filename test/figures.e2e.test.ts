// End-to-end, as a teacher sees the app: every tab at 1280×800 and 1920×1080, in English and 简体中文, on the
// exported app in headless Chromium. Asserts from the DOM and pixels what a projector needs (the heatmap above
// the fold, token labels on the axes, the selected row outlined, the sink column wide enough to see, the
// changed KV cell visible, no horizontal scrolling) and saves every screenshot under test-results/figures/
// (CI keeps that folder as an artefact; look at them).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { countColour } from './helpers/pixels';
import { launchChromium } from './helpers/browser';
import { serveStatic } from './helpers/staticServer';
import { resetAppStorage } from './helpers/appStorage';
import { ensureBuiltOut } from './helpers/staticBuild';
import { readModelDir } from '../lib/cli/modelDir';
import { createTokenizer } from '../lib/prompt/tokenizer';
import { buildPrompt } from '../lib/prompt/prompt';
import { displayToken } from '../lib/prompt/label';
import { scenarioRequest } from '../lib/scenarios';
import { MARK_COLORS } from '../lib/view/palette';
import type { Tab } from '../lib/state/store';

const OUT = 'test-results/figures';
const TABS: Tab[] = ['attention', 'step', 'ab', 'kv', 'data'];
/** What each tab shows once its own work is done (the attention run is the page's: #status). */
const READY: Record<Tab, string> = {
  attention: '#status[data-ready="true"]',
  step: '[data-role="step-lab"][data-idle="true"]',
  ab: '[data-role="ab-lab"][data-ready="true"]',
  kv: '[data-role="kv-lab"][data-ready="true"]',
  data: '[data-role="data-lab"]',
};

let browser: Awaited<ReturnType<typeof launchChromium>>;
let server: Awaited<ReturnType<typeof serveStatic>>;

before(async () => {
  ensureBuiltOut();
  server = await serveStatic({ '/': 'out' }, { isolated: true });
  browser = await launchChromium();
  mkdirSync(OUT, { recursive: true });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(w: number, h: number, opts: { lang?: 'en' | 'zh'; query?: string } = {}): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.setViewportSize({ width: w, height: h });
  await resetAppStorage(page, server.url);
  await page.goto(server.url + '/' + (opts.query ?? ''));
  await page.waitForSelector(READY.attention, { timeout: 90_000, state: 'attached' });
  if (opts.lang === 'zh') {
    await page.click('[data-lang="zh"]');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  }
  return { page, errors };
}

async function showTab(page: Page, tab: Tab) {
  await page.click(`[data-tab="${tab}"]`);
  await page.waitForSelector(READY[tab], { timeout: 120_000 });
  // Canvases paint in an animation frame after React commits.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** How far the page scrolls sideways (0 when it fits). */
const overflowX = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

async function boxOf(page: Page, selector: string) {
  const b = await page.locator(selector).first().boundingBox();
  assert.ok(b, `${selector} has a box`);
  return b;
}

for (const lang of ['en', 'zh'] as const) {
  for (const [w, h] of [
    [1280, 800],
    [1920, 1080],
  ] as const) {
    test(`${lang} at ${w}×${h}: the heatmap opens above the fold, no tab scrolls sideways, screenshots of every tab`, async () => {
      const { page, errors } = await open(w, h, { lang });
      const heat = await boxOf(page, 'canvas[data-role="heatmap"]');
      // The whole matrix is on the first screen, not only its top edge.
      assert.ok(heat.y >= 0 && heat.y + heat.height <= h, `heatmap spans y ${heat.y}–${heat.y + heat.height} of a ${h}px window`);
      for (const tab of TABS) {
        await showTab(page, tab);
        assert.equal(await overflowX(page), 0, `${tab} scrolls sideways at ${w}px`);
        await page.screenshot({ path: `${OUT}/${lang}-${w}x${h}-${tab}.png` });
      }
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
}

test('at 1024×768 every tab still fits the width', async () => {
  const { page, errors } = await open(1024, 768);
  for (const tab of TABS) {
    await showTab(page, tab);
    assert.equal(await overflowX(page), 0, `${tab} scrolls sideways at 1024px`);
    await page.screenshot({ path: `${OUT}/en-1024x768-${tab}.png` });
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('北京: both axes show the tokens; selecting a token outlines its row in the heatmap', async () => {
  const model = readModelDir('public/models/kvscope-tiny');
  const tok = createTokenizer(model.tokenizerJson!, model.tokenizerConfig!);
  const prompt = buildPrompt(tok, scenarioRequest('beijing'), { addGenerationPrompt: true });
  const labels = prompt.tokens.map(displayToken);
  const T = labels.length;
  const { page, errors } = await open(1280, 800);
  await page.selectOption('[data-role="scenario-picker"] select', 'beijing');
  await page.waitForSelector(`#status[data-ready="true"][data-tokens="${T}"]`);
  const keys = await page.$$eval('[data-role="heatmap-axis-keys"] [data-key-label]', (els) => els.map((e) => [Number(e.getAttribute('data-key-label')), e.textContent ?? '']));
  const queries = await page.$$eval('[data-role="heatmap-axis-queries"] [data-query-label]', (els) => els.map((e) => [Number(e.getAttribute('data-query-label')), e.textContent ?? '']));
  assert.equal(keys.length, T, 'every key column of a 17-token prompt is labelled');
  assert.equal(queries.length, T, 'every query row is labelled');
  for (const [i, text] of [...keys, ...queries] as [number, string][]) {
    // A label may be cut with an ellipsis in its gutter; what it shows is the token's own text.
    const shown = text.replace(/…$/, '');
    assert.ok(labels[i]!.startsWith(shown) && shown.length > 0, `label ${i}: "${text}" vs token "${labels[i]}"`);
  }
  // Select query 9 in the token view: its heatmap row is outlined where the row is drawn.
  const q = 9;
  await page.click(`[data-token-index="${q}"]`);
  const outline = await boxOf(page, `[data-role="heatmap-row-outline"][data-row="${q}"]`);
  const heat = await boxOf(page, 'canvas[data-role="heatmap"]');
  const rowTop = heat.y + (q / T) * heat.height;
  const rowBottom = heat.y + ((q + 1) / T) * heat.height;
  assert.ok(outline.y <= rowTop + 1 && outline.y + outline.height >= rowBottom - 1, `outline y ${outline.y}–${outline.y + outline.height} covers row ${rowTop}–${rowBottom}`);
  // And the outline is really painted in the selection colour (pixels of the page, not only an element).
  const png = await page.screenshot({ clip: { x: outline.x - 2, y: outline.y - 2, width: outline.width + 4, height: outline.height + 4 } });
  const hits = await countColour(page, png, MARK_COLORS.select);
  assert.ok(hits > outline.width, `${hits} selection-coloured pixels around the outlined row`);
  await page.screenshot({ path: `${OUT}/en-1280x800-beijing-selected.png` });
  assert.deepEqual(errors, []);
  await page.close();
});

test('sink model, whole Vancouver conversation (478 tokens), last layer: the key-0 column is drawn at least 4 CSS px wide, and bright', async () => {
  const { page, errors } = await open(1280, 800);
  await page.selectOption('[data-role="model-picker"] select', 'kvscope-tiny-sink');
  await page.click('[data-role="context-picker"] [data-context="all"]');
  await page.waitForSelector('#status[data-ready="true"][data-tokens="478"]', { timeout: 90_000 });
  // The sink was seeded in the last layer (the model card says so); layer 0 has none.
  await page.selectOption('[data-control="layer"]', '3');
  await page.waitForSelector('#status[data-layer="3"]', { state: 'attached' });
  const strip = page.locator('canvas[data-role="heatmap-pinned"]');
  const columns = ((await strip.getAttribute('data-columns')) ?? '').split(' ').filter(Boolean).map(Number);
  assert.deepEqual(columns, [0], 'key 0 is pinned by default');
  const box = await boxOf(page, 'canvas[data-role="heatmap-pinned"]');
  assert.ok(box.width / columns.length >= 4, `pinned column ${box.width / columns.length} CSS px wide`);
  const heat = await boxOf(page, 'canvas[data-role="heatmap"]');
  assert.ok(box.y <= heat.y + 1 && box.y + box.height >= heat.y + heat.height - 1, 'the strip spans the matrix rows');
  // Seen from the back row: the strip is far brighter than the matrix around it (viridis: bright = high weight).
  const lum = (sel: string) =>
    page.evaluate((sel) => {
      const c = document.querySelector(sel) as HTMLCanvasElement;
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let sum = 0;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) {
        if (d[i] === d[i + 1] && d[i + 1] === d[i + 2]) continue; // grey: the masked triangle
        sum += 0.2126 * d[i]! + 0.7152 * d[i + 1]! + 0.0722 * d[i + 2]!;
        n++;
      }
      return sum / Math.max(1, n);
    }, sel);
  const stripLum = await lum('canvas[data-role="heatmap-pinned"]');
  const matrixLum = await lum('canvas[data-role="heatmap"]');
  assert.ok(stripLum > matrixLum + 60, `key-0 strip luminance ${stripLum.toFixed(0)} vs matrix ${matrixLum.toFixed(0)}`);
  await page.screenshot({ path: `${OUT}/en-1280x800-sink-478.png` });
  assert.deepEqual(errors, []);
  await page.close();
});

test('two models side by side: the sink model beside the default on the same prompt (both on the first screen), and below it on the Step, A/B and KV tabs', async () => {
  const { page, errors } = await open(1280, 800);
  await page.selectOption('[data-control="compare"]', 'kvscope-tiny-sink');
  await page.waitForSelector('[data-role="compare-figure"][data-ready="true"][data-tokens="411"]', { timeout: 90_000 });
  const heatmaps = page.locator('canvas[data-role="heatmap"]');
  assert.equal(await heatmaps.count(), 2);
  const [a, b] = [(await heatmaps.nth(0).boundingBox())!, (await heatmaps.nth(1).boundingBox())!];
  assert.ok(Math.abs(a.y - b.y) < 2 && b.x > a.x + a.width, 'side by side, same size');
  assert.ok(a.y + a.height <= 800 && b.x + b.width <= 1280, 'both on the first screen');
  assert.equal(await overflowX(page), 0);
  await page.selectOption('[data-control="layer"]', '3');
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${OUT}/en-1280x800-side-by-side.png` });
  // The Step, A/B and KV tabs show the same view on the second model below the first, from its own worker.
  for (const tab of ['step', 'ab', 'kv'] as const) {
    await page.click(`[data-tab="${tab}"]`);
    const second = `[data-role="second-model"][data-model="kvscope-tiny-sink"]`;
    await page.waitForSelector(`${second} ${READY[tab]}`, { timeout: 120_000 });
    await page.waitForSelector(`${READY[tab]}:not(${second} *)`, { timeout: 120_000 });
    assert.equal(await overflowX(page), 0, `${tab} with a second model scrolls sideways`);
    assert.match((await page.textContent(`${second} [data-role="view-header"] [data-fact="model"]`)) ?? '', /kvscope-tiny-sink/);
    await page.screenshot({ path: `${OUT}/en-1280x800-side-by-side-${tab}.png`, fullPage: true });
  }
  await page.click('[data-tab="attention"]');
  await page.selectOption('[data-control="compare"]', '');
  await page.waitForFunction(() => document.querySelectorAll('canvas[data-role="heatmap"]').length === 1);
  assert.equal(await page.locator('[data-role="second-model"]').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('KV tab: the one changed layer-0 cell of an in-place edit is visible, not hidden under the prefix line', async () => {
  const { page, errors } = await open(1280, 800);
  await showTab(page, 'kv');
  const marker = page.locator('[data-role="kv-changed-marker"][data-layer="0"]').first();
  await marker.waitFor({ timeout: 90_000 });
  const b = (await marker.boundingBox())!;
  assert.ok(b.width >= 4 && b.height >= 4, `marker ${b.width}×${b.height} CSS px`);
  assert.ok(b.y + b.height <= 800, 'the marker is above the fold');
  // Nothing is drawn over the marker's centre.
  const onTop = await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.closest('[data-role="kv-changed-marker"]') !== null, [b.x + b.width / 2, b.y + b.height / 2]);
  assert.ok(onTop, 'the marker is the topmost element at its centre');
  await page.screenshot({ path: `${OUT}/en-1280x800-kv-edit.png` });
  assert.deepEqual(errors, []);
  await page.close();
});

test('presentation mode: ?present=1 hides the chrome, the heatmap grows, PageDown moves to the next view, Esc leaves', async () => {
  const normal = await open(1920, 1080);
  const small = await boxOf(normal.page, 'canvas[data-role="heatmap"]');
  await normal.page.close();
  const { page, errors } = await open(1920, 1080, { query: '?present=1' });
  assert.equal(await page.evaluate(() => document.documentElement.dataset.present), 'true');
  assert.equal(await page.locator('[data-role="model-picker"]').isVisible(), false, 'the model picker is chrome');
  await page.waitForFunction((w) => (document.querySelector('canvas[data-role="heatmap"]')?.getBoundingClientRect().width ?? 0) > w, small.width);
  await page.screenshot({ path: `${OUT}/en-1920x1080-present-attention.png` });
  await page.keyboard.press('PageDown');
  await page.waitForSelector('[data-tab="step"][aria-selected="true"]');
  await page.waitForSelector(READY.step, { timeout: 90_000 });
  await page.screenshot({ path: `${OUT}/en-1920x1080-present-step.png` });
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => document.documentElement.dataset.present === undefined);
  assert.equal(new URL(page.url()).searchParams.get('present'), null, 'the URL flag is cleared');
  assert.equal(await page.locator('[data-role="model-picker"]').isVisible(), true);
  assert.deepEqual(errors, []);
  await page.close();
});

