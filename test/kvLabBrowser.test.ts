// The KV-cache tab in headless Chromium (harness test/browser/kvLabHarness.ts): the real engine worker, the
// embedded model, <KvLab> under the app's globals.css in a page-like <main>. By default it compares the shown
// prompt with a one-token edit of its system prompt: layer 0 changes at that position only, and its change
// marker is at least 4 CSS px wide and on top (not covered by the end-of-prefix line); the consecutive-calls
// view is one click away; the maps are above the fold at 1280×800; nothing on the tab scrolls sideways at
// 1280 px or 1024 px. Set KVSCOPE_SHOTS=<dir> to save screenshots there.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { launchChromium, trackedPage } from './helpers/browser';
import { serveStatic } from './helpers/staticServer';
import { MARK_COLORS } from '../lib/view/palette';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-kvlab-'));
const SHOTS = process.env.KVSCOPE_SHOTS;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let server: Awaited<ReturnType<typeof serveStatic>>;

before(async () => {
  await build({ entryPoints: ['test/browser/kvLabHarness.ts'], bundle: true, format: 'esm', outfile: join(dir, 'harness.js'), logLevel: 'error', define: { 'process.env.NODE_ENV': '"production"' } });
  await build({ entryPoints: ['workers/engine.worker.ts'], bundle: true, format: 'esm', outfile: join(dir, 'engine.worker.js'), logLevel: 'error' });
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><link rel="stylesheet" href="/app/globals.css"><body><script type="module" src="harness.js"></script>',
  );
  server = await serveStatic({ '/ort/': 'node_modules/onnxruntime-web/dist', '/models/': 'public/models', '/app/': 'app', '/': dir }, { isolated: true });
  browser = await launchChromium();
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Expect {
  T: number;
  layers: number;
  calls: number[];
  edit: { position: number; segment: string; from: string; text: string };
  editLabel: string;
}

async function open(query: string, size = { width: 1280, height: 800 }): Promise<{ page: Page; errors: string[]; expect: Expect }> {
  const { page, errors } = await trackedPage(browser.context);
  await page.setViewportSize(size);
  await page.goto(`${server.url}/index.html?${query}`);
  await page.waitForSelector('[data-role="kv-result"]', { timeout: 90_000 });
  const expect = (await page.evaluate(() => (self as unknown as { __expect: unknown }).__expect)) as Expect;
  return { page, errors, expect };
}

/** Waits until the economics panels below the maps have rendered (the widest parts of the tab). */
async function economicsReady(page: Page): Promise<void> {
  for (const role of ['pattern-summary', 'radix-tree', 'block-rows', 'think-table', 'status-table', 'status-chart']) await page.waitForSelector(`[data-role="${role}"]`, { timeout: 90_000 });
  await page.waitForFunction(() => !document.querySelector('[data-role="econ-progress"]'), null, { timeout: 60_000 });
  // The tab says so itself: the comparison and every economics panel are done.
  await page.waitForSelector('[data-role="kv-lab"][data-ready="true"]', { timeout: 60_000 });
}

async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage });
}

/** The element at a marker's centre, and the marker's box. */
async function markerHit(page: Page, selector: string) {
  return page.$eval(selector, (m) => {
    const r = m.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return { width: r.width, height: r.height, top: r.top, bottom: r.bottom, same: hit === m, hit: hit ? `${hit.tagName} ${hit.getAttribute('data-role')}` : 'none', background: getComputedStyle(m).backgroundColor };
  });
}

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

test('default: a one-token edit of the system prompt; layer 0 changes only there, marked ≥ 4 px wide and on top of the prefix line', async () => {
  const { page, errors, expect } = await open('lang=en&scenario=vancouver');
  const p = expect.edit.position;
  assert.equal(expect.edit.segment, 'system', 'the default edit is in the system prompt');
  assert.equal(expect.T, expect.calls.at(-1), 'the shown prompt is the last call as sent');
  await page.waitForSelector(`[data-role="kv-result"][data-source="edit"][data-prefix="${p}"]`, { timeout: 90_000 });
  assert.equal(await page.getAttribute('[data-control="kv-source"][data-source="edit"]', 'aria-pressed'), 'true');
  assert.equal(await page.getAttribute('[data-role="kv-result"]', 'data-a-tokens'), String(expect.T));
  assert.equal(await page.getAttribute('[data-role="kv-result"]', 'data-b-tokens'), String(expect.T));
  // The facts, from the real tensors: layer 0 only at p; every later layer at all positions from p on.
  const facts = (await page.textContent('[data-role="kv-facts"]')) ?? '';
  assert.match(facts, new RegExp(`Layer 0: only position\\(s\\) ${p} changed \\(1\\)`));
  for (let l = 1; l < expect.layers; l++) assert.match(facts, new RegExp(`Layer ${l}: ${expect.T - p} of ${expect.T - p} positions`));
  assert.match(facts, new RegExp(`Positions 0…${p} − 1 are bit-identical`));
  assert.equal(await page.getAttribute('[data-role="kv-story"]', 'data-story'), 'inPlace');
  assert.match((await page.textContent('[data-role="kv-story"]')) ?? '', new RegExp(`layer 0 differs only at position ${p}\\b`));
  // The header says what is compared.
  const header = (await page.textContent('[data-role="view-header"]')) ?? '';
  assert.match(header, /kvscope-tiny/);
  assert.match(header, new RegExp(`A = the shown prompt \\(${expect.T} tokens\\) vs B = it with position ${p} “${expect.editLabel}” →`));
  assert.match(header, new RegExp(`layers ${expect.layers}`));

  for (const map of ['k', 'v']) {
    // One layer-0 marker, at p, ≥ 4 CSS px wide, and what the pointer hits at its centre (not the prefix line).
    const sel = `[data-role="kv-changed-marker"][data-map="${map}"][data-layer="0"]`;
    assert.equal(await page.locator(sel).count(), 1, `${map}: one layer-0 marker`);
    assert.equal(await page.getAttribute(sel, 'data-position'), String(p));
    assert.equal(await page.getAttribute(sel, 'data-changed'), '1');
    const hit = await markerHit(page, sel);
    assert.ok(hit.width >= 4, `${map}: marker ${hit.width} px wide`);
    assert.ok(hit.same, `${map}: the marker’s centre shows ${hit.hit} (${JSON.stringify(hit)})`);
    assert.equal(hit.background, rgb(MARK_COLORS.change), `${map}: a narrow marker is filled with the change colour`);
    // The prefix line is there, at the same x, underneath.
    assert.ok(await page.$(`[data-role="kv-map"][data-map="${map}"] [data-role="kv-prefix-line"]`));
    // Later layers: one marker each, from p to the end.
    for (let l = 1; l < expect.layers; l++) {
      const later = page.locator(`[data-role="kv-changed-marker"][data-map="${map}"][data-layer="${l}"]`);
      assert.equal(await later.count(), 1);
      assert.equal(await later.getAttribute('data-from'), String(p));
      assert.equal(await later.getAttribute('data-to'), String(expect.T));
    }
  }
  assert.equal((await page.textContent('[data-role="kv-map"][data-map="k"] [data-role="kv-callout"]'))?.trim(), `layer 0 · position ${p} changed`);
  // Pointing at the marker reads the cell under it (the marker passes the pointer on to the map).
  const box = (await page.locator('[data-role="kv-changed-marker"][data-map="k"][data-layer="0"]').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForFunction((x) => document.querySelector('[data-role="kv-hover"]')?.textContent?.includes(x), `layer 0 · A position ${p} “${expect.editLabel}” · B position ${p} “␣`);
  assert.match((await page.textContent('[data-role="kv-hover"]')) ?? '', /max \|ΔK\| [\d.e-]+ · max \|ΔV\| [\d.e-]+$/);
  await shot(page, 'helperD-en-1280-kv');
  // Above the fold at 1280×800 on first open (the page did not jump): both maps and the legend.
  assert.equal(await page.evaluate(() => window.scrollY), 0);
  const legendBottom = await page.$eval('[data-role="kv-diff-legend"]', (e) => e.getBoundingClientRect().bottom);
  assert.ok(legendBottom <= 800, `legend ends at ${legendBottom}px`);
  // The ΔK map is painted: the reused prefix (identical) and the changed cells have different colours.
  const colours = await page.evaluate(() => {
    const c = document.querySelector('canvas[data-role="kv-diff-map"]') as HTMLCanvasElement;
    const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    const p = (2 * c.width + 0) * 4;
    const q = (2 * c.width + c.width - 1) * 4;
    return { prefix: [d[p], d[p + 1], d[p + 2]].join(','), after: [d[q], d[q + 1], d[q + 2]].join(',') };
  });
  assert.equal(colours.prefix, '166,219,160');
  assert.notEqual(colours.after, colours.prefix);
  assert.deepEqual(errors, []);
  await page.close();
});

test('consecutive calls are one click away (B continues A: nothing marked); back to the edit in one click', async () => {
  const { page, errors, expect } = await open('lang=en&scenario=vancouver');
  await page.waitForSelector('[data-role="kv-result"][data-source="edit"]', { timeout: 90_000 });
  await page.click('[data-control="kv-source"][data-source="calls"]');
  const [a, b] = expect.calls;
  await page.waitForSelector(`[data-role="kv-result"][data-source="calls"][data-prefix="${a}"]`, { timeout: 90_000 });
  assert.match((await page.textContent('[data-role="kv-facts"]')) ?? '', new RegExp(`B continues A \\(${a} → ${b} tokens\\)`));
  assert.equal(await page.getAttribute('[data-role="kv-story"]', 'data-story'), 'append');
  assert.equal(await page.locator('[data-role="kv-changed-marker"]').count(), 0);
  assert.match((await page.textContent('[data-role="view-header"]')) ?? '', new RegExp(`A = call 1 \\(${a} tokens\\) vs B = call 2 \\(${b} tokens\\)`));
  await shot(page, 'helperD-en-1280-kv-calls');
  // A token that is not one vocabulary entry is refused at the field, and the last result stays.
  await page.click('[data-control="kv-source"][data-source="edit"]');
  await page.waitForSelector(`[data-role="kv-result"][data-source="edit"][data-prefix="${expect.edit.position}"]`, { timeout: 90_000 });
  await page.fill('[data-control="kv-token"]', 'antidisestablishmentarianism');
  await page.waitForSelector('[role="alert"]:has-text("not a single token")');
  assert.equal(await page.getAttribute('[data-role="kv-result"]', 'data-prefix'), String(expect.edit.position));
  // Another position picked in the prompt's tokens: the marker follows.
  const q = expect.edit.position + 20;
  await page.fill('[data-control="kv-token"]', ' the');
  await page.click(`[data-role="kv-edit-tokens"] [data-token-index="${q}"]`);
  await page.waitForSelector(`[data-role="kv-result"][data-prefix="${q}"]`, { timeout: 90_000 });
  assert.equal(await page.getAttribute('[data-role="kv-changed-marker"][data-map="k"][data-layer="0"]', 'data-position'), String(q));
  assert.deepEqual(errors, []);
  await page.close();
});

test('no horizontal overflow on the whole tab at 1280 px and 1024 px (tables, tree, charts)', async () => {
  for (const size of [
    { width: 1280, height: 800 },
    { width: 1024, height: 768 },
  ]) {
    const { page, errors } = await open('lang=en&scenario=vancouver', size);
    await economicsReady(page);
    const m = await page.evaluate(() => {
      const root = document.querySelector('[data-role="kv-lab"]')!;
      return { root: root.scrollWidth - root.clientWidth, doc: document.documentElement.scrollWidth - innerWidth };
    });
    assert.ok(m.root <= 0, `${size.width}: the tab's root overflows by ${m.root}px`);
    assert.equal(m.doc, 0, `${size.width}: the page scrolls sideways by ${m.doc}px`);
    // The maps fill their panel (sized from the container, not a fixed width).
    const fill = await page.evaluate(() => {
      const panel = document.querySelector('[data-role="kv-main"]')!.getBoundingClientRect();
      const map = document.querySelector('canvas[data-role="kv-diff-map"]')!.getBoundingClientRect();
      return { panel: panel.right, map: map.right };
    });
    assert.ok(fill.map <= fill.panel && fill.map > fill.panel - 60, `${size.width}: map ends at ${fill.map}, panel at ${fill.panel}`);
    await shot(page, `helperD-en-${size.width}-kv-full`, true);
    if (SHOTS) for (const role of ['kv-main', 'view-secondary', 'patterns-panel', 'think-drop-panel', 'status-econ-panel']) await page.locator(`[data-role="${role}"]`).screenshot({ path: join(SHOTS, `helperD-en-${size.width}-${role}.png`) });
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('Chinese: the story, callout and header are in Chinese', async () => {
  const { page, errors, expect } = await open('lang=zh&scenario=vancouver');
  const p = expect.edit.position;
  await page.waitForSelector(`[data-role="kv-result"][data-prefix="${p}"]`, { timeout: 90_000 });
  assert.equal((await page.textContent('[data-role="kv-map"][data-map="k"] [data-role="kv-callout"]'))?.trim(), `第 0 层 · 位置 ${p} 已改变`);
  assert.match((await page.textContent('[data-role="kv-story"]')) ?? '', /只改了一个 token/);
  assert.match((await page.textContent('[data-role="view-header"]')) ?? '', /KV 缓存/);
  await economicsReady(page);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth), 0);
  await shot(page, 'helperD-zh-1280-kv');
  assert.deepEqual(errors, []);
  await page.close();
});

test('presentation mode (html[data-present]): the details panel is hidden, the maps stay and still fit', async () => {
  const { page, errors, expect } = await open('lang=en&scenario=vancouver', { width: 1280, height: 800 });
  await page.waitForSelector(`[data-role="kv-result"][data-prefix="${expect.edit.position}"]`, { timeout: 90_000 });
  await page.evaluate(() => {
    document.documentElement.dataset.present = 'true';
    document.querySelector<HTMLElement>('[data-role="fake-chrome"]')!.style.display = 'none';
  });
  assert.equal(await page.isVisible('[data-role="view-secondary"]'), false);
  assert.ok(await page.isVisible('[data-role="kv-changed-marker"][data-map="k"][data-layer="0"]'));
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth), 0);
  const legendBottom = await page.$eval('[data-role="kv-diff-legend"]', (e) => e.getBoundingClientRect().bottom);
  assert.ok(legendBottom <= 800, `legend ends at ${legendBottom}px`);
  await shot(page, 'helperD-en-1280-kv-present');
  assert.deepEqual(errors, []);
  await page.close();
});
