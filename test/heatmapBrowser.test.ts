// <Heatmap> in headless Chromium (React 19 createRoot, harness test/browser/heatmapHarness.ts): canvas
// pixels carry the colour scale + colour map give each cell, masked cells are MASK_RGB, wheel zoom keeps
// the cell under the pointer and the tooltip follows the viewport maths, the keyboard zooms, pans and
// resets, a bright key-0 column survives zooming out (max pooling), bands show segments, and the canvas
// is drawn at devicePixelRatio resolution. As a figure: token labels on both axes where cells have room
// (index ticks otherwise, labels after zooming in), a click selects and outlines the query row, pinned
// columns stay as wide strips at any length and zoom, and the tooltip names each token's message and segment.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { launchChromium, trackedPage } from './helpers/browser';
import { countColour } from './helpers/pixels';
import { serveHarness } from './helpers/harness';
import { makeScale, MASK_RGB, sampleColormap } from '../lib/view/colormap';
import { cellAt, fitAll, pointAt, visibleCells, zoomCentre, pan, type Viewport } from '../lib/view/viewport';
import { cellValue, makeSpans, sinkAttention, wordLabels, type MatrixKind } from './browser/heatmapMatrices';
import { MARK_COLORS, paletteCss, SEGMENT_COLORS } from '../lib/view/palette';
import { formatWeight, truncateLabel } from '../lib/view/heatmapAxis';
import { HEATMAP_PAINTED_MARK } from '../lib/view/paintMark';
import { formatSig2 } from '../lib/view/scale';
import { colourRanges, hideSinkColumn, reduceHeads } from '../lib/analysis/attentionView';
import { DEFAULT_MIN_QUERY } from '../lib/analysis/sink';

const scale = makeScale({ kind: 'linear', min: 0, max: 1 });
let browser: Awaited<ReturnType<typeof launchChromium>>;
let server: Awaited<ReturnType<typeof serveHarness>>;

before(async () => {
  server = await serveHarness('test/browser/heatmapHarness.ts');
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

interface Opened {
  page: Page;
  errors: string[];
  /** Canvas top-left in page coordinates (CSS px). */
  box: { x: number; y: number; width: number; height: number };
}

async function open(query: string, deviceScaleFactor = 1): Promise<Opened> {
  const { page, errors } = await trackedPage(browser.context);
  await page.setViewportSize({ width: 1000, height: 800 });
  if (deviceScaleFactor !== 1) {
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Emulation.setDeviceMetricsOverride', { width: 1000, height: 800, deviceScaleFactor, mobile: false });
  }
  await page.goto(`${server.url}/index.html?${query}`);
  await page.waitForSelector('canvas[data-role="heatmap"][data-painted]', { timeout: 20_000 });
  const box = (await (await page.$('canvas[data-role="heatmap"]'))!.boundingBox())!;
  return { page, errors, box };
}

const painted = (page: Page) => page.$eval('canvas[data-role="heatmap"]', (c) => Number((c as HTMLCanvasElement).dataset.painted));
async function waitRepaint(page: Page, before: number): Promise<void> {
  await page.waitForFunction((n) => Number((document.querySelector('canvas[data-role="heatmap"]') as HTMLCanvasElement).dataset.painted) > n, before, { timeout: 5_000 });
}
async function viewOf(page: Page): Promise<Viewport> {
  const [q0, k0, span] = (await page.$eval('canvas[data-role="heatmap"]', (c) => c.getAttribute('data-view') ?? '')).split(' ').map(Number);
  return { q0: q0!, k0: k0!, span: span! };
}
/** RGB of backing-store pixel (x, y) of a canvas. */
async function pixel(page: Page, x: number, y: number, selector = 'canvas[data-role="heatmap"]'): Promise<number[]> {
  return page.$eval(selector, (c, [x, y]) => Array.from((c as HTMLCanvasElement).getContext('2d')!.getImageData(x!, y!, 1, 1).data.slice(0, 3)), [Math.floor(x), Math.floor(y)]);
}
/**
 * The cell the tooltip names. Pointer updates render on React's continuous-event lane (not synchronously
 * with the event), so with `expect` it first waits up to 5 s for that cell, then asserts on what is shown.
 */
async function tooltipCell(page: Page, expect?: { q: number; k: number }): Promise<{ q: number; k: number; text: string }> {
  if (expect) {
    await page
      .waitForFunction(
        ([q, k]) => new RegExp(`query\\s+${q}\\b[^\\n]*\\n(?:\\s+[^\\n]*\\n)?\\S+\\s+${k}\\b`).test(document.querySelector('[data-role="heatmap-tooltip"]')?.textContent ?? ''),
        [expect.q, expect.k],
        { timeout: 5_000 },
      )
      .catch(() => undefined);
  }
  const text = (await page.textContent('[data-role="heatmap-tooltip"]')) ?? '';
  const m = /query\s+(\d+)[^\n]*\n(?:\s+[^\n]*\n)?key\s+(\d+)/.exec(text);
  assert.ok(m, `tooltip text: ${JSON.stringify(text)}`);
  const got = { q: Number(m[1]), k: Number(m[2]), text };
  if (expect) assert.deepEqual([got.q, got.k], [expect.q, expect.k], `tooltip: ${JSON.stringify(text)}`);
  return got;
}
const colourOf = (kind: MatrixKind, q: number, k: number) => (k > q ? [...MASK_RGB] : sampleColormap('viridis', scale.norm(Math.fround(cellValue(kind, q, k)))));
/** Page coordinates of the centre of cell (q, k) in view vp on a px-wide canvas at `box`. */
function cellCentre(box: Opened['box'], vp: Viewport, px: number, q: number, k: number): { x: number; y: number } {
  return { x: box.x + ((k + 0.5 - vp.k0) / vp.span) * px, y: box.y + ((q + 0.5 - vp.q0) / vp.span) * px };
}

test('each cell centre has the colour scale + colour map give its value; masked cells are MASK_RGB; hover shows the weight', async () => {
  const T = 64;
  const px = 256; // 4 px per cell at devicePixelRatio 1
  const { page, errors, box } = await open(`kind=ramp&T=${T}&px=${px}`);
  assert.equal(await page.$eval('canvas[data-role="heatmap"]', (c) => (c as HTMLCanvasElement).width), px);
  const cells: [number, number][] = [[0, 0], [5, 3], [17, 17], [40, 9], [63, 0], [63, 62], [31, 30], [2, 50], [10, 11], [0, 63]];
  const distinct = new Set<string>();
  for (const [q, k] of cells) {
    const got = await pixel(page, k * 4 + 2, q * 4 + 2);
    assert.deepEqual(got, colourOf('ramp', q, k), `cell (${q}, ${k})`);
    distinct.add(got.join(','));
  }
  assert.ok(distinct.size >= 6, 'the chosen cells differ in colour, so a flat canvas cannot pass');
  assert.deepEqual(await pixel(page, 50 * 4 + 2, 2 * 4 + 2), [...MASK_RGB]);
  // Hover: the tooltip names the cell and its exact weight.
  await page.mouse.move(box.x + 9 * 4 + 2, box.y + 40 * 4 + 2);
  const tip = await tooltipCell(page, { q: 40, k: 9 });
  assert.match(tip.text, /query 40 t40\nkey\s+9 t9\n/);
  assert.match(tip.text, new RegExp(`weight ${Math.fround(cellValue('ramp', 40, 9)).toPrecision(6).replace('.', '\\.')}$`));
  assert.match(tip.text, /weight 0\.\d+/);
  await page.mouse.move(box.x + 50 * 4 + 2, box.y + 2 * 4 + 2);
  assert.match((await tooltipCell(page, { q: 2, k: 50 })).text, /masked \(future\)$/);
  // Full view of a small matrix: no pooling note.
  assert.equal(await page.locator('[data-role="heatmap-pooled-note"]').count(), 0);
  assert.equal(await page.evaluate((name) => performance.getEntriesByName(name).length > 0, HEATMAP_PAINTED_MARK), true);
  await page.close();
  assert.deepEqual(errors, []);
});

test('wheel zoom keeps the cell under the pointer; the tooltip and pixels follow the viewport maths', async () => {
  const T = 64;
  const px = 256;
  const { page, errors, box } = await open(`kind=ramp&T=${T}&px=${px}`);
  const full = fitAll(T);
  const anchor = cellCentre(box, full, px, 40, 12);
  await page.mouse.move(anchor.x, anchor.y);
  await tooltipCell(page, { q: 40, k: 12 });
  const n = await painted(page);
  await page.mouse.wheel(0, -300);
  await waitRepaint(page, n);
  await page.waitForFunction(() => document.querySelector('canvas[data-role="heatmap"]')!.getAttribute('data-view') !== '0 0 64');
  const vp = await viewOf(page);
  assert.ok(vp.span < T / 1.5, `zoomed in: ${JSON.stringify(vp)}`);
  // The anchor point is where it was, in cell coordinates.
  const before = pointAt(full, px, anchor.x - box.x, anchor.y - box.y);
  const after_ = pointAt(vp, px, anchor.x - box.x, anchor.y - box.y);
  assert.ok(Math.abs(before.q - after_.q) < 0.05 && Math.abs(before.k - after_.k) < 0.05, `anchor ${JSON.stringify(before)} → ${JSON.stringify(after_)}`);
  await tooltipCell(page, { q: 40, k: 12 });
  // Elsewhere the tooltip names the cell cellAt gives in the new window, not the old one.
  const far = { x: 20, y: 230 };
  const expected = cellAt(vp, px, far.x, far.y, T)!;
  assert.notDeepEqual(expected, cellAt(full, px, far.x, far.y, T));
  const c2 = cellCentre(box, vp, px, expected.q, expected.k);
  await page.mouse.move(c2.x, c2.y);
  await tooltipCell(page, expected);
  // The drawn pixel there is that cell's colour.
  assert.deepEqual(await pixel(page, c2.x - box.x, c2.y - box.y), colourOf('ramp', expected.q, expected.k));
  const w = visibleCells(vp, T);
  assert.match((await page.textContent('[data-role="heatmap-window"]')) ?? '', new RegExp(`rows ${w.q0}–${w.q1}, cols ${w.k0}–${w.k1} · zoom \\d`));
  await page.close();
  assert.deepEqual(errors, []);
});

test('keyboard: + zooms at the centre, arrows pan, 0 restores the full view; drag pans', async () => {
  const T = 64;
  const px = 256;
  const { page, errors, box } = await open(`kind=ramp&T=${T}&px=${px}`);
  await page.focus('[data-role="heatmap-region"]');
  let n = await painted(page);
  await page.keyboard.press('+');
  await waitRepaint(page, n);
  const z = zoomCentre(fitAll(T), T, 1.5);
  assert.deepEqual(await viewOf(page), z);
  n = await painted(page);
  await page.keyboard.press('ArrowRight');
  await waitRepaint(page, n);
  const moved = pan(z, T, 0, 0.1 * z.span);
  const got = await viewOf(page);
  assert.ok(Math.abs(got.k0 - moved.k0) < 1e-9 && got.q0 === moved.q0 && got.span === moved.span, JSON.stringify(got));
  // The top-left pixel shows the window's first cell.
  const first = cellAt(got, px, 0.5, 0.5, T)!;
  assert.deepEqual(await pixel(page, 0, 0), colourOf('ramp', first.q, first.k));
  n = await painted(page);
  await page.keyboard.press('0');
  await waitRepaint(page, n);
  assert.deepEqual(await viewOf(page), fitAll(T));
  assert.match((await page.textContent('[data-role="heatmap-window"]')) ?? '', /rows 0–63, cols 0–63 · zoom 1×/);
  assert.deepEqual(await pixel(page, 2, 63 * 4 + 2), colourOf('ramp', 63, 0));
  // Drag: zoom in with the button, then drag the canvas left by a quarter: the window moves right.
  await page.click('button[aria-label="zoom in"]');
  await page.click('button[aria-label="zoom in"]');
  const zoomed = await viewOf(page);
  assert.ok(Math.abs(zoomed.span - T / 2.25) < 1e-9, JSON.stringify(zoomed));
  await page.mouse.move(box.x + 200, box.y + 100);
  await page.mouse.down();
  await page.mouse.move(box.x + 150, box.y + 100, { steps: 5 });
  await page.mouse.move(box.x + 136, box.y + 100, { steps: 2 });
  await page.mouse.up();
  await page.waitForFunction((v) => document.querySelector('canvas[data-role="heatmap"]')!.getAttribute('data-view') !== v, `${zoomed.q0} ${zoomed.k0} ${zoomed.span}`, { timeout: 5_000 });
  const dragged = await viewOf(page);
  assert.ok(Math.abs(dragged.k0 - (zoomed.k0 + (64 / px) * zoomed.span)) < 1e-6 && dragged.q0 === zoomed.q0, `${JSON.stringify(zoomed)} → ${JSON.stringify(dragged)}`);
  await page.click('[data-role="heatmap-reset"]');
  assert.deepEqual(await viewOf(page), fitAll(T));
  await page.close();
  assert.deepEqual(errors, []);
});

test('zoomed out past one cell per pixel: a bright key-0 column stays visible (max pooling) and the note says so', async () => {
  const T = 2000;
  const px = 200; // 10 cells per pixel
  const { page, errors } = await open(`kind=sink&T=${T}&px=${px}`);
  const bright = colourOf('sink', 500, 0);
  const column = await page.$eval('canvas[data-role="heatmap"]', (c) => {
    const d = (c as HTMLCanvasElement).getContext('2d')!.getImageData(0, 0, 2, (c as HTMLCanvasElement).height).data;
    const col0: number[][] = [];
    const col1: number[][] = [];
    for (let y = 0; y < d.length / 8; y++) {
      col0.push(Array.from(d.slice(y * 8, y * 8 + 3)));
      col1.push(Array.from(d.slice(y * 8 + 4, y * 8 + 7)));
    }
    return { col0, col1 };
  });
  assert.equal(column.col0.length, px);
  column.col0.forEach((rgb, y) => assert.deepEqual(rgb, bright, `pixel (0, ${y})`));
  // Next pixel column: the small weights' colour (max of 0.001…0.005), or masked in the first row.
  assert.notDeepEqual(column.col1[100], bright);
  assert.deepEqual(column.col1[100], sampleColormap('viridis', scale.norm(Math.fround(0.005))));
  assert.deepEqual(column.col1[0], [...MASK_RGB]);
  assert.equal(await page.locator('[data-role="heatmap-pooled-note"]').count(), 1);
  assert.match((await page.textContent('[data-role="heatmap-pooled-note"]')) ?? '', /largest weight of the cells it covers/);
  // Zoomed in to cells ≥ 1 px the note goes away.
  await page.focus('[data-role="heatmap-region"]');
  for (let i = 0; i < 8; i++) await page.keyboard.press('+');
  assert.ok((await viewOf(page)).span <= px, JSON.stringify(await viewOf(page)));
  assert.equal(await page.locator('[data-role="heatmap-pooled-note"]').count(), 0);
  await page.close();
  assert.deepEqual(errors, []);
});

test('segment bands follow the zoom and name the message under the pointer; strings in Chinese', async () => {
  const T = 64;
  const px = 256;
  const spans = makeSpans(T);
  const { page, errors } = await open(`kind=ramp&T=${T}&px=${px}&spans=1`);
  const hex = (rgb: number[]) => '#' + rgb.map((v) => v.toString(16).padStart(2, '0')).join('').toUpperCase();
  // Key band at token 30 (user message body), query band at token 60 (answer).
  assert.equal(hex(await pixel(page, 30 * 4 + 2, 5, 'canvas[data-role="heatmap-band-keys"]')), SEGMENT_COLORS.user);
  assert.equal(hex(await pixel(page, 5, 60 * 4 + 2, 'canvas[data-role="heatmap-band-queries"]')), SEGMENT_COLORS.answer);
  // The message boundary at token 16 is a dark tick.
  const tick = await pixel(page, 16 * 4, 5, 'canvas[data-role="heatmap-band-keys"]');
  assert.ok(tick.every((v) => v < 60), `tick colour ${tick}`);
  const band = (await (await page.$('canvas[data-role="heatmap-band-keys"]'))!.boundingBox())!;
  await page.mouse.move(band.x + 30 * 4 + 2, band.y + 5);
  await page.waitForSelector('[data-role="heatmap-band-tooltip"]', { timeout: 5_000 });
  const userSpan = spans.find((s) => s.segment === 'user')!;
  assert.match((await page.textContent('[data-role="heatmap-band-tooltip"]')) ?? '', new RegExp(`message 1 \\(user\\), tokens 16–${spans.filter((s) => s.message === 1).at(-1)!.end - 1}\\nsegment: user, tokens ${userSpan.start}–${userSpan.end - 1}`));
  // Zoom ×1.5 ×1.5 at the centre: the band follows the viewport. Token 43 (thinking) moves from x = 174
  // to where the unzoomed band shows the answer.
  await page.focus('[data-role="heatmap-region"]');
  const n = await painted(page);
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  await page.waitForFunction((n) => Number((document.querySelector('canvas[data-role="heatmap"]') as HTMLCanvasElement).dataset.painted) >= n + 2, n);
  const vp = await viewOf(page);
  const segAt = (tok: number) => spans.find((s) => s.start <= tok && tok < s.end)!.segment;
  const x = ((43 + 0.5 - vp.k0) / vp.span) * px;
  assert.equal(segAt(43), 'think');
  assert.equal(segAt(Math.floor(x / 4)), 'answer');
  assert.equal(hex(await pixel(page, x, 5, 'canvas[data-role="heatmap-band-keys"]')), SEGMENT_COLORS.think);
  const y = ((20 + 0.5 - vp.q0) / vp.span) * px;
  assert.equal(hex(await pixel(page, 5, y, 'canvas[data-role="heatmap-band-queries"]')), SEGMENT_COLORS[segAt(20)]);
  await page.close();
  assert.deepEqual(errors, []);

  const zh = await open(`kind=ramp&T=${T}&px=${px}&lang=zh`);
  await zh.page.mouse.move(zh.box.x + 9 * 4 + 2, zh.box.y + 40 * 4 + 2);
  await zh.page.waitForSelector('[data-role="heatmap-tooltip"]', { timeout: 5_000 });
  assert.match((await zh.page.textContent('[data-role="heatmap-tooltip"]')) ?? '', /查询 40 t40\n键\s+9 t9\n权重 0\.\d+/);
  assert.match((await zh.page.textContent('[data-role="heatmap-view"]')) ?? '', /键词元 →/);
  await zh.page.close();
  assert.deepEqual(zh.errors, []);
});

test('devicePixelRatio 2: the backing store has twice the CSS pixels and cells keep their colours', async () => {
  const T = 64;
  const px = 256;
  const { page, errors } = await open(`kind=ramp&T=${T}&px=${px}`, 2);
  assert.equal(await page.evaluate(() => devicePixelRatio), 2);
  assert.equal(await page.$eval('canvas[data-role="heatmap"]', (c) => (c as HTMLCanvasElement).width), 2 * px);
  for (const [q, k] of [[40, 9], [63, 62], [7, 0], [3, 20]] as const) assert.deepEqual(await pixel(page, k * 8 + 4, q * 8 + 4), colourOf('ramp', q, k), `cell (${q}, ${k})`);
  await page.close();
  assert.deepEqual(errors, []);
});

// ---- the heatmap as a figure: axis labels, selection, pinned strips, the tooltip's places -------------

const windowState = (page: Page) => page.evaluate(() => window.__heatmap);
const count = (page: Page, selector: string) => page.locator(selector).count();


test('axis labels: every token of a 17-token matrix on both axes, at its row and column; cut to the gutter', async () => {
  const T = 17;
  const px = 560;
  const words = wordLabels(T);
  const { page, errors, box } = await open(`kind=ramp&T=${T}&px=${px}&spans=1&labels=words`);
  assert.equal(await page.getAttribute('[data-role="heatmap-axis-queries"]', 'data-mode'), 'labels');
  const queries = await page.$$eval('[data-role="heatmap-axis-queries"] [data-query-label]', (els) => els.map((e) => ({ i: Number(e.getAttribute('data-query-label')), text: e.textContent ?? '', box: e.getBoundingClientRect().toJSON() as DOMRect })));
  const keys = await page.$$eval('[data-role="heatmap-axis-keys"] [data-key-label]', (els) => els.map((e) => ({ i: Number(e.getAttribute('data-key-label')), text: e.textContent ?? '', box: e.getBoundingClientRect().toJSON() as DOMRect })));
  assert.deepEqual(queries.map((q) => q.i), Array.from({ length: T }, (_, i) => i));
  assert.deepEqual(keys.map((k) => k.i), Array.from({ length: T }, (_, i) => i));
  const cell = px / T;
  for (const q of queries) {
    assert.ok(words[q.i]!.startsWith(q.text.replace(/…$/, '')) && q.text.length > 0, `query label ${q.i}: ${q.text}`);
    // Centred on its row, left of the matrix.
    assert.ok(Math.abs(q.box.y + q.box.height / 2 - (box.y + (q.i + 0.5) * cell)) < 3, `query label ${q.i} at y ${q.box.y}`);
    assert.ok(q.box.x + q.box.width <= box.x, `query label ${q.i} left of the matrix`);
  }
  for (const k of keys) {
    assert.ok(words[k.i]!.startsWith(k.text.replace(/…$/, '')) && k.text.length > 0, `key label ${k.i}: ${k.text}`);
    // Rotated over its column: centred on it, taller than wide once it has a few characters, above the matrix.
    assert.ok(Math.abs(k.box.x + k.box.width / 2 - (box.x + (k.i + 0.5) * cell)) < 3, `key label ${k.i} at x ${k.box.x}`);
    if (k.text.length >= 3) assert.ok(k.box.height > k.box.width, `key label ${k.i} is rotated: ${k.box.width}×${k.box.height}`);
    assert.ok(k.box.y + k.box.height <= box.y, `key label ${k.i} above the matrix`);
  }
  // Long tokens are cut with an ellipsis (lib/view/heatmapAxis truncateLabel), short ones shown whole.
  const im = queries.find((q) => words[q.i] === '<|im_start|>')!;
  assert.match(im.text, /^<\|im_st?a?r?t?…$/);
  assert.equal(queries[3]!.text, 'You');
  assert.equal(keys[16]!.text, truncateLabel('␣Vancouver', [...keys[16]!.text].length));
  await page.close();
  assert.deepEqual(errors, []);
});

test('axis labels: 478 tokens at full view show index ticks, never blank; zooming in brings labels for the visible cells only', async () => {
  const T = 478;
  const px = 560;
  const { page, errors } = await open(`kind=sink&T=${T}&px=${px}&spans=1&labels=words`);
  for (const axis of ['queries', 'keys']) {
    assert.equal(await page.getAttribute(`[data-role="heatmap-axis-${axis}"]`, 'data-mode'), 'ticks');
    const ticks = await page.$$eval(`[data-role="heatmap-axis-${axis}"] [data-tick]`, (els) => els.map((e) => Number(e.getAttribute('data-tick'))));
    assert.ok(ticks.length >= 4 && ticks.length <= px / 40, `${axis}: ${ticks.length} ticks ${ticks}`);
    assert.equal(ticks[0], 0);
    assert.ok(ticks.every((v, i) => i === 0 || v - ticks[i - 1]! === ticks[1]! - ticks[0]!), `even steps ${ticks}`);
  }
  assert.equal(await count(page, '[data-query-label]'), 0);
  assert.equal(await count(page, '[data-key-label]'), 0);
  // Zoom in at the centre until cells are a label tall (12 px): 478 / 1.5^6 = 42 cells on 560 px.
  await page.focus('[data-role="heatmap-region"]');
  for (let i = 0; i < 6; i++) {
    const n = await painted(page);
    await page.keyboard.press('+');
    await waitRepaint(page, n);
  }
  const vp = await viewOf(page);
  assert.ok(px / vp.span >= 12, `cells ${px / vp.span} px`);
  assert.equal(await page.getAttribute('[data-role="heatmap-axis-queries"]', 'data-mode'), 'labels');
  const w = visibleCells(vp, T);
  const rows = await page.$$eval('[data-query-label]', (els) => els.map((e) => Number(e.getAttribute('data-query-label'))));
  const cols = await page.$$eval('[data-key-label]', (els) => els.map((e) => Number(e.getAttribute('data-key-label'))));
  for (const list of [rows, cols]) {
    assert.ok(list.length >= vp.span - 1 && list.length <= px / 12 + 1, `${list.length} labels for a ${vp.span}-cell window`);
  }
  assert.ok(rows.every((q) => q >= w.q0 && q <= w.q1) && cols.every((k) => k >= w.k0 && k <= w.k1), 'only visible rows and columns are labelled');
  await page.close();
  assert.deepEqual(errors, []);
});

test('a click selects the query row: outlined in MARK_COLORS.select on the row, its pinned strip and its axis label; a drag does not select', async () => {
  const T = 17;
  const px = 340; // 20 px cells
  const { page, errors, box } = await open(`kind=ramp&T=${T}&px=${px}&spans=1&labels=words`);
  assert.equal(await count(page, '[data-role="heatmap-row-outline"]'), 0);
  await page.mouse.click(box.x + 3.5 * 20, box.y + 9.5 * 20);
  await page.waitForFunction(() => window.__heatmap.selected === 9);
  const outline = (await page.locator('[data-role="heatmap-row-outline"][data-row="9"]').boundingBox())!;
  // 3 px outside the row on every side: rows 9 (y 180–200), keys 0–9 (x 0–200).
  assert.ok(Math.abs(outline.y + 3 - (box.y + 180)) < 0.6 && Math.abs(outline.height - 6 - 20) < 0.6, `outline y ${outline.y} h ${outline.height}`);
  assert.ok(Math.abs(outline.x + 3 - box.x) < 0.6 && Math.abs(outline.width - 6 - 200) < 0.6, `outline x ${outline.x} w ${outline.width}`);
  // Painted: the selection colour shows in a screenshot of the page around the row, on every colour map.
  const png = await page.screenshot({ clip: { x: outline.x - 2, y: outline.y - 2, width: outline.width + 4, height: outline.height + 4 } });
  const hits = await countColour(page, png, MARK_COLORS.select);
  assert.ok(hits > 2 * 2 * outline.width, `${hits} selection-coloured pixels`);
  // The pinned strip's part of the row, and the label in the selection colour.
  assert.equal(await count(page, '[data-role="heatmap-row-outline-pinned"][data-row="9"]'), 1);
  assert.equal(await page.getAttribute('[data-query-label="9"]', 'fill'), MARK_COLORS.select);
  // Keyboard and drag still work: a drag pans (once zoomed) and does not change the selection.
  await page.focus('[data-role="heatmap-region"]');
  await page.keyboard.press('+');
  await page.mouse.move(box.x + 200, box.y + 100);
  await page.mouse.down();
  await page.mouse.move(box.x + 150, box.y + 100, { steps: 5 });
  await page.mouse.up();
  assert.equal((await windowState(page)).selected, 9);
  // Clicking a pinned strip selects the row under the pointer too.
  await page.keyboard.press('0');
  const strip = (await page.locator('canvas[data-role="heatmap-pinned"]').boundingBox())!;
  await page.mouse.click(strip.x + strip.width / 2, strip.y + 12.5 * 20);
  await page.waitForFunction(() => window.__heatmap.selected === 12);
  await page.close();
  assert.deepEqual(errors, []);
});

test('the selection outline shows on every colour map: magenta stays distinct from magma', async () => {
  // Rows of a magma-coloured matrix around the outline: the selection colour is not one of magma's colours.
  const { colormap } = await import('../lib/view/colormap');
  const sel = [1, 3, 5].map((i) => parseInt(MARK_COLORS.select.slice(i, i + 2), 16));
  for (const name of ['viridis', 'magma', 'cividis'] as const) {
    const lut = colormap(name).lut;
    let nearest = Infinity;
    for (let i = 0; i < lut.length; i += 3) nearest = Math.min(nearest, Math.max(Math.abs(lut[i]! - sel[0]!), Math.abs(lut[i + 1]! - sel[1]!), Math.abs(lut[i + 2]! - sel[2]!)));
    assert.ok(nearest > 24, `${name} comes within ${nearest} of the selection colour`);
  }
});

test('pinned strips: key 0 at 478 tokens is a wide strip (pixels), kept after zooming into a corner away from key 0; P pins, × unpins', async () => {
  const T = 478;
  const px = 560;
  const { page, errors, box } = await open(`kind=sink&T=${T}&px=${px}&spans=1&labels=words`);
  const sel = 'canvas[data-role="heatmap-pinned"]';
  assert.equal(await page.getAttribute(sel, 'data-columns'), '0');
  /** Runs of painted (opaque) pixels along the strips canvas's middle row, in CSS px: one per strip. */
  const runs = () =>
    page.$eval(sel, (c) => {
      const cv = c as HTMLCanvasElement;
      const d = cv.getContext('2d')!.getImageData(0, Math.floor(cv.height / 2), cv.width, 1).data;
      const scale = cv.width / cv.getBoundingClientRect().width;
      const out: { x: number; width: number; rgb: number[] }[] = [];
      for (let x = 0; x < cv.width; x++) {
        if (d[x * 4 + 3] === 0) continue;
        const last = out.at(-1);
        if (last && last.x + last.width === x) last.width++;
        else out.push({ x, width: 1, rgb: Array.from(d.slice(x * 4, x * 4 + 3)) });
      }
      return out.map((r) => ({ x: r.x / scale, width: r.width / scale, rgb: r.rgb }));
    });
  let strips = await runs();
  assert.equal(strips.length, 1);
  assert.ok(strips[0]!.width >= 10, `key-0 strip ${strips[0]!.width} CSS px`);
  assert.deepEqual(strips[0]!.rgb, colourOf('sink', 300, 0), 'the strip shows key 0 in the matrix colours');
  const stripBox = (await page.locator(sel).boundingBox())!;
  assert.ok(Math.abs(stripBox.y - box.y) < 0.5 && Math.abs(stripBox.height - box.height) < 0.5, 'same rows as the matrix');
  assert.ok(stripBox.x + stripBox.width < box.x, 'beside the matrix');
  assert.equal(await count(page, '[data-role="heatmap-axis-break"]'), 1);
  assert.match((await page.textContent('[data-role="heatmap-pinned-label"][data-key="0"]')) ?? '', /^0 /);
  // Zoom into the bottom-right corner (rows and keys 436–477, labelled): key 0 leaves the matrix, not the strips.
  await page.focus('[data-role="heatmap-region"]');
  for (let i = 0; i < 6; i++) await page.keyboard.press('+');
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowRight');
  }
  const vp = await viewOf(page);
  assert.ok(vp.k0 > 300 && vp.q0 > 300, JSON.stringify(vp));
  strips = await runs();
  assert.equal(strips.length, 1);
  assert.ok(strips[0]!.width >= 4, `strip ${strips[0]!.width} CSS px after zoom`);
  // Its middle pixel is key 0 of the row drawn in the middle of the matrix.
  const midRow = Math.floor(vp.q0 + vp.span / 2);
  assert.deepEqual(strips[0]!.rgb, colourOf('sink', midRow, 0));
  // P over a matrix column pins it (a second strip), the list's × unpins it.
  const k = Math.floor(vp.k0 + vp.span / 4);
  await page.mouse.move(box.x + ((k + 0.5 - vp.k0) / vp.span) * px, box.y + px * 0.9);
  await tooltipCell(page, { q: Math.floor(vp.q0 + 0.9 * vp.span), k });
  await page.keyboard.press('p');
  await page.waitForFunction((k) => window.__heatmap.pinned.join() === `0,${k}`, k);
  assert.equal(await page.getAttribute(sel, 'data-columns'), `0 ${k}`);
  strips = await runs();
  assert.equal(strips.length, 2);
  assert.ok(strips.every((s) => s.width >= 4), JSON.stringify(strips));
  await page.click(`[data-pinned-key="${k}"] button`);
  await page.waitForFunction(() => window.__heatmap.pinned.join() === '0');
  // Unpinning key 0 too leaves no strip and no break; clicking a key label pins it again.
  await page.click('[data-pinned-key="0"] button');
  await page.waitForFunction(() => window.__heatmap.pinned.length === 0);
  assert.equal(await count(page, sel), 0);
  assert.equal(await count(page, '[data-role="heatmap-axis-break"]'), 0);
  await page.locator(`[data-key-label="${k}"]`).click();
  await page.waitForFunction((k) => window.__heatmap.pinned.join() === String(k), k);
  await page.close();
  assert.deepEqual(errors, []);
});

test('four pinned columns share the budget, each at least 4 CSS px; a fifth is refused with a note', async () => {
  const { page, errors, box } = await open(`kind=sink&T=478&px=460&pinned=0,5,100,300`);
  assert.equal(await page.getAttribute('canvas[data-role="heatmap-pinned"]', 'data-columns'), '0 5 100 300');
  const w = Number(await page.getAttribute('canvas[data-role="heatmap-pinned"]', 'data-strip-width'));
  assert.ok(w >= 10, `strip width ${w}`);
  // A fifth: P over key 200.
  await page.focus('[data-role="heatmap-region"]');
  await page.mouse.move(box.x + (200.5 / 478) * 460, box.y + 440);
  await tooltipCell(page, { q: Math.floor((440 / 460) * 478), k: 200 });
  await page.keyboard.press('P');
  await page.waitForSelector('[data-role="heatmap-pinned-list"] >> text=at most 4 pinned columns');
  assert.deepEqual((await windowState(page)).pinned, [0, 5, 100, 300]);
  await page.close();
  assert.deepEqual(errors, []);
});

test('the tooltip names each token\'s message and segment: tools block, messages, the generation prompt; in Chinese too', async () => {
  const T = 40; // tools 0–9, user 10–19, tool call 20–36, generation prompt 37–39
  const px = 400;
  const { page, errors, box } = await open(`kind=ramp&T=${T}&px=${px}&spans=agent`);
  const at = async (q: number, k: number) => {
    await page.mouse.move(box.x + (k + 0.5) * 10, box.y + (q + 0.5) * 10);
    return (await tooltipCell(page, { q, k })).text;
  };
  const a = await at(38, 5);
  assert.match(a, /^query 38 t38\n\s+generation prompt · template\nkey\s+5 t5\n\s+tools block · tools\n/);
  assert.match(a, /weight 0\.\d+$/);
  const b = await at(25, 12);
  assert.match(b, /^query 25 t25\n\s+message 1 \(assistant\) · tool_call\nkey\s+12 t12\n\s+message 0 \(user\) · user\nweight/);
  // The key band names the generation prompt as such too.
  const band = (await page.locator('canvas[data-role="heatmap-band-keys"]').boundingBox())!;
  await page.mouse.move(band.x + 38.5 * 10, band.y + 5);
  await page.waitForSelector('[data-role="heatmap-band-tooltip"]');
  assert.match((await page.textContent('[data-role="heatmap-band-tooltip"]')) ?? '', /^generation prompt, tokens 37–39\nsegment: template, tokens 37–39$/);
  await page.close();
  assert.deepEqual(errors, []);
  const zh = await open(`kind=ramp&T=${T}&px=${px}&spans=agent&lang=zh`);
  await zh.page.mouse.move(zh.box.x + 12.5 * 10, zh.box.y + 25.5 * 10);
  await zh.page.waitForSelector('[data-role="heatmap-tooltip"]');
  const text = (await zh.page.textContent('[data-role="heatmap-tooltip"]')) ?? '';
  assert.match(text, /查询 25 t25\n\s+消息 1（助手）· 工具调用\n键\s+12 t12\n\s+消息 0（用户）· 用户\n权重 0\.\d+/);
  assert.doesNotMatch(text, /message|segment|weight/);
  await zh.page.close();
  assert.deepEqual(zh.errors, []);
});

test('the heatmap panel: fits px + 190 wide; hiding key 0 says how much the range narrowed; tokens tinted by the selected row', async () => {
  const T = 100;
  const px = 460;
  const q = 60;
  const { page, errors } = await trackedPage(browser.context);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${server.url}/index.html?mode=section&T=${T}&px=${px}&selected=${q}`);
  // The app's stylesheet, so that controls and panels have their real sizes.
  await page.addStyleTag({ content: readFileSync('app/globals.css', 'utf8') + paletteCss() });
  await page.waitForSelector('canvas[data-role="heatmap"][data-painted]', { timeout: 20_000 });
  const section = (await page.locator('[data-role="heatmap-section"]').boundingBox())!;
  const canvas = (await page.locator('canvas[data-role="heatmap"]').boundingBox())!;
  assert.ok(section.width <= px + 190, `panel ${section.width} CSS px wide for a ${px} px matrix`);
  // The tab's view controls sit above the panel; inside it, only the export buttons, the zoom row and the axis labels.
  assert.ok(canvas.y - section.y <= 130, `matrix starts ${canvas.y - section.y} px below the panel's top`);
  const png = (await page.locator('[data-role="heatmap-section"] [data-export="png"]').boundingBox())!;
  assert.equal(await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.getAttribute('data-export'), [png.x + png.width / 2, png.y + png.height / 2]), 'png');

  // The same numbers in Node: layer 0 of the made-up run, head mean.
  const mean = reduceHeads({ data: sinkAttention(T, 4, 0.85), dims: [4, T, T] }, 'mean').data;
  const r = colourRanges(mean, T, T, DEFAULT_MIN_QUERY, 0);
  assert.equal(await count(page, '[data-role="hide-sink-range"]'), 0);
  // Tint from the full matrix: keys 0…q carry row q's weights, later keys are faded.
  const chip = (k: number) => page.locator(`[data-role="token-view"] [data-token-index="${k}"]`);
  assert.equal(await chip(0).getAttribute('data-weight'), String(mean[q * T]));
  assert.equal(await chip(q).getAttribute('data-weight'), String(mean[q * T + q]));
  assert.equal(await chip(q + 1).getAttribute('data-weight'), null);
  assert.equal(await chip(q + 1).evaluate((e) => getComputedStyle(e).opacity), '0.35');
  assert.equal(await page.locator('[data-role="token-view"] [data-weight]').count(), q + 1);
  const rowMax = Math.max(...mean.subarray(q * T, q * T + q + 1));
  assert.ok((await page.textContent('[data-role="token-tint-legend"]'))?.startsWith(`tint: attention from query ${q}, 0 → ${formatWeight(rowMax)}`));
  assert.match((await page.textContent('#selection')) ?? '', new RegExp(`^query ${q} `));

  await page.click('[data-control="hide-sink"]');
  await page.waitForSelector('[data-role="hide-sink-range"]');
  assert.ok(r.ratio > 2, `hiding the sink narrows the range ${r.ratio}×`);
  assert.equal(
    await page.textContent('[data-role="hide-sink-range"]'),
    `colour range 0–${formatWeight(r.full)} → 0–${formatWeight(r.hidden)} with key 0 hidden (${formatSig2(r.ratio)}× narrower)`,
  );
  // The tint follows the matrix the heatmap shows: renormalised without key 0.
  const hidden = hideSinkColumn(mean, T, T, 0);
  await page.waitForFunction(([k, w]) => document.querySelector(`[data-role="token-view"] [data-token-index="${k}"]`)?.getAttribute('data-weight') === w, [5, String(hidden[q * T + 5])] as const);
  assert.equal(await chip(0).getAttribute('data-weight'), '0');
  await page.close();
  assert.deepEqual(errors, []);
});
