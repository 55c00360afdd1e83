// <Heatmap> in headless Chromium (React 19 createRoot, harness test/browser/heatmapHarness.ts): canvas
// pixels carry the colour scale + colour map give each cell, masked cells are MASK_RGB, wheel zoom keeps
// the cell under the pointer and the tooltip follows the viewport maths, the keyboard zooms, pans and
// resets, a bright key-0 column survives zooming out (max pooling), bands show segments, and the canvas
// is drawn at devicePixelRatio resolution.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { launchChromium, trackedPage } from './helpers/browser';
import { serveHarness } from './helpers/harness';
import { makeScale, MASK_RGB, sampleColormap } from '../lib/view/colormap';
import { cellAt, fitAll, pointAt, visibleCells, zoomCentre, pan, type Viewport } from '../lib/view/viewport';
import { cellValue, makeSpans, type MatrixKind } from './browser/heatmapMatrices';
import { SEGMENT_COLORS } from '../lib/view/palette';

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
        ([q, k]) => new RegExp(`query\\s+${q}\\b[^\\n]*\\n\\S+\\s+${k}\\b`).test(document.querySelector('[data-role="heatmap-tooltip"]')?.textContent ?? ''),
        [expect.q, expect.k],
        { timeout: 5_000 },
      )
      .catch(() => undefined);
  }
  const text = (await page.textContent('[data-role="heatmap-tooltip"]')) ?? '';
  const m = /query\s+(\d+)[^\n]*\nkey\s+(\d+)/.exec(text);
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
  assert.equal(await page.evaluate(() => performance.getEntriesByName('kvscope:heatmap-painted').length > 0), true);
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
