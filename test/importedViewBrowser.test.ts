// <ImportedAttentionView> in headless Chromium (harness test/browser/importedHarness.ts, files from
// test/browser/importedFixtures.ts): the banner says the attention is imported; heatmap pixels carry the colour
// the scale and colour map give the file's value; rows the file lacks are drawn masked; switching layer, head
// and LLM call changes the picture; the sink numbers shown are lib/analysis/importedViews.ts's; a token string holding
// markup is rendered as text. Set KVSCOPE_SHOTS=<dir> to also write a full-page screenshot of each case.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { launchChromium, trackedPage } from './helpers/browser';
import { serveHarness } from './helpers/harness';
import { makeScale, MASK_RGB, sampleColormap } from '../lib/view/colormap';
import { cellAt, fitAll } from '../lib/view/viewport';
import { DEFAULT_MIN_QUERY } from '../lib/analysis/sink';
import { attentionOfCall, colourMax, importedSummary, squareMatrix, type HeadReduction } from '../lib/analysis/importedViews';
import type { ImportedAttention } from '../lib/io/attention/types';
import { fixture, TRAJ_CTX, TRAJ_T, XSS, type FixtureCase } from './browser/importedFixtures';

const PX = 640;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let server: Awaited<ReturnType<typeof serveHarness>>;

before(async () => {
  server = await serveHarness('test/browser/importedHarness.ts');
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

interface Opened {
  page: Page;
  errors: string[];
  dialogs: string[];
}

async function open(c: FixtureCase): Promise<Opened> {
  const { page, errors, dialogs } = await trackedPage(browser.context);
  await page.setViewportSize({ width: 1360, height: 1000 });
  await page.goto(`${server.url}/index.html?case=${c}&lang=en`);
  await page.waitForSelector('canvas[data-role="heatmap"][data-painted]', { timeout: 20_000 });
  return { page, errors, dialogs };
}

async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.KVSCOPE_SHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}

const painted = (page: Page) => page.$eval('canvas[data-role="heatmap"]', (c) => Number((c as HTMLCanvasElement).dataset.painted));
async function waitRepaint(page: Page, n: number): Promise<void> {
  await page.waitForFunction((n) => Number((document.querySelector('canvas[data-role="heatmap"]') as HTMLCanvasElement).dataset.painted) > n, n, { timeout: 5_000 });
}
async function choose(page: Page, control: string, value: string): Promise<void> {
  const n = await painted(page);
  await page.selectOption(`select[data-control="${control}"]`, value);
  await waitRepaint(page, n);
}
/** RGB of the heatmap canvas's backing-store pixel (x, y). */
async function pixel(page: Page, x: number, y: number): Promise<number[]> {
  return page.$eval('canvas[data-role="heatmap"]', (c, [x, y]) => Array.from((c as HTMLCanvasElement).getContext('2d')!.getImageData(x!, y!, 1, 1).data.slice(0, 3)), [x, y]);
}
/** The canvas pixel at the centre of cell (q, k) of a K×K full view drawn PX wide (devicePixelRatio 1). */
function pixelOf(K: number, q: number, k: number): { x: number; y: number } {
  const x = Math.floor(((k + 0.5) / K) * PX);
  const y = Math.floor(((q + 0.5) / K) * PX);
  assert.deepEqual(cellAt(fitAll(K), PX, x + 0.5, y + 0.5, K), { q, k }, 'the sampled pixel shows that cell');
  return { x, y };
}
/** The colour the view must paint for cell (q, k) of the square matrix, given the file's values. */
function expectedColour(a: ImportedAttention, layer: number, head: HeadReduction, q: number, k: number): number[] {
  const l = a.layers[layer]!;
  const sq = squareMatrix(l, head);
  const K = l.keys;
  const v = sq[q * K + k]!;
  if (k > q || Number.isNaN(v)) return [...MASK_RGB];
  const scale = makeScale({ kind: 'linear', min: 0, max: colourMax(sq, K, DEFAULT_MIN_QUERY) });
  return sampleColormap('viridis', scale.norm(v));
}
async function checkCells(page: Page, a: ImportedAttention, layer: number, head: HeadReduction, cells: [number, number][], what: string): Promise<Set<string>> {
  const K = a.layers[layer]!.keys;
  const seen = new Set<string>();
  for (const [q, k] of cells) {
    const { x, y } = pixelOf(K, q, k);
    const got = await pixel(page, x, y);
    assert.deepEqual(got, expectedColour(a, layer, head, q, k), `${what}: cell (${q}, ${k})`);
    seen.add(got.join());
  }
  return seen;
}
/** The heatmap canvas scrolled into view, its box in viewport coordinates (what page.mouse uses). */
async function canvasBox(page: Page): Promise<{ x: number; y: number; width: number; height: number }> {
  const c = page.locator('canvas[data-role="heatmap"]');
  await c.scrollIntoViewIfNeeded();
  return (await c.boundingBox())!;
}
/** Sampled pixels of the whole canvas, as a fingerprint of the picture. */
async function fingerprint(page: Page): Promise<string> {
  return page.$eval('canvas[data-role="heatmap"]', (c) => {
    const cv = c as HTMLCanvasElement;
    const d = cv.getContext('2d')!.getImageData(0, 0, cv.width, cv.height).data;
    let h = 0;
    for (let i = 0; i < d.length; i += 4 * 7) h = (Math.imul(h, 31) + d[i]! + 3 * d[i + 1]! + 7 * d[i + 2]!) | 0;
    return String(h);
  });
}

/** The sink numbers the page shows (data-value carries the full number, the text its rounding). */
async function shownSink(page: Page): Promise<{ layer: number; head: string; value: number; text: string }[]> {
  return page.$$eval('[data-role="imported-sink-grid"] tr[data-layer] td[data-role="imported-sink-cell"]', (tds) =>
    tds.map((td) => ({ layer: Number(td.closest('tr')!.getAttribute('data-layer')), head: td.getAttribute('data-head')!, value: Number(td.getAttribute('data-value')), text: td.textContent ?? '' })),
  );
}
async function checkSink(page: Page, a: ImportedAttention, what: string): Promise<void> {
  const s = importedSummary(a, 8);
  const want = s.layers.flatMap((l) => l.sink.perHead.map((v, h) => ({ layer: l.index, head: l.heads === null ? 'mean' : String(h), value: v! })));
  const shown = await shownSink(page);
  assert.deepEqual(shown.map(({ text: _, ...rest }) => rest), want, `${what}: sink grid`);
  for (const c of shown) assert.ok(Math.abs(Number(c.text) - c.value) <= 0.005, `${what}: cell text ${c.text} shows ${c.value}`);
  const uniform = await page.$$eval('[data-role="imported-uniform"]', (tds) => tds.map((td) => Number(td.getAttribute('data-value'))));
  assert.deepEqual(uniform, s.layers.map((l) => l.sink.uniformBaseline), `${what}: uniform baselines`);
  const qualifying = await page.$$eval('[data-role="imported-qualifying"]', (tds) => tds.map((td) => Number(td.textContent)));
  assert.deepEqual(qualifying, s.layers.map((l) => l.sink.qualifyingQueries), `${what}: qualifying rows`);
  if (!s.meanOnly) {
    const share = await page.$$eval('[data-role="imported-first-share"]', (tds) => tds.map((td) => Number(td.getAttribute('data-value'))));
    assert.deepEqual(share, s.layers.map((l) => l.firstTokenShare), `${what}: first-token share`);
  }
  const top = await page.$$eval('[data-role="imported-top"] tbody tr', (trs) => trs.map((tr) => ({ key: Number(tr.children[0]!.textContent), weight: Number(tr.children[1]!.getAttribute('data-value')) })));
  assert.deepEqual(top, s.top, `${what}: where attention rests`);
}

/** Markup in a token string is text: no alert, no extra script element, the exact string visible. */
async function checkXss(o: Opened): Promise<void> {
  const { page } = o;
  const texts = await page.$$eval('[data-role="imported-tokens"] [data-token]', (els) => els.map((e) => e.textContent));
  assert.ok(texts.includes(XSS), 'the token string is shown as written');
  assert.equal(await page.$$eval('script', (s) => s.length), 1, 'only the harness script');
  assert.equal(await page.$$eval('[data-role="imported-attention-view"] script', (s) => s.length), 0);
  assert.deepEqual(o.dialogs, []);
}

test('kvscope format, 2 layers × 2 heads: banner, exact cell colours, layer and head switch the picture, sink numbers, markup as text', async () => {
  const a = fixture('kvscope');
  const o = await open('kvscope');
  const { page } = o;
  const banner = (await page.textContent('[data-role="imported-banner"]')) ?? '';
  assert.match(banner, /Imported attention/);
  assert.match(banner, /computed elsewhere/);
  assert.match(banner, /not compute them and has not re-checked them against any model/);
  assert.match(banner, /kvscope attention format/);
  assert.match(banner, /model: Qwen\/Qwen3-8B · device: cuda/);
  assert.match(banner, /layers in the file \(2\): layer 3 · layer 27/);
  assert.match(banner, /heads: 2 per layer, stored separately/);
  assert.match(banner, /query rows: all 24 present/);
  assert.match(banner, /exporter/);
  assert.equal(await page.$eval('canvas[data-role="heatmap"]', (c) => (c as HTMLCanvasElement).width), PX);
  // Layer 3 (index 0), mean of heads.
  const cells: [number, number][] = [[0, 0], [5, 0], [5, 4], [20, 0], [20, 3], [20, 19], [23, 23], [17, 9], [12, 12], [3, 10]];
  const seen = await checkCells(page, a, 0, 'mean', cells, 'layer 3 mean');
  assert.ok(seen.size >= 5, 'cells differ in colour: a flat canvas cannot pass');
  const f0 = await fingerprint(page);
  // Head 1 of layer 3.
  await choose(page, 'head', '1');
  await checkCells(page, a, 0, 1, cells, 'layer 3 head 1');
  const f1 = await fingerprint(page);
  assert.notEqual(f1, f0, 'head switch changes the picture');
  // Layer 27, head 1 (kept), then max.
  await choose(page, 'layer', '1');
  await checkCells(page, a, 1, 1, cells, 'layer 27 head 1');
  const f2 = await fingerprint(page);
  assert.notEqual(f2, f1, 'layer switch changes the picture');
  await choose(page, 'head', 'max');
  await checkCells(page, a, 1, 'max', cells, 'layer 27 max');
  assert.match((await page.textContent('[data-role="imported-heatmap-caption"]')) ?? '', /Imported: layer 27 · max over heads/);
  // Sink numbers equal lib/analysis/importedViews.ts; layer 27 head 0 is a sink head (> 0.3), outlined.
  await checkSink(page, a, 'kvscope');
  assert.equal(await page.locator('[data-role="imported-sink-grid"] tr[data-layer="1"] td[data-head="0"][data-sink="true"]').count(), 1);
  assert.equal(await page.locator('[data-role="imported-share-bars"]').count(), 1);
  assert.match((await page.textContent('[data-role="imported-bias-map"]')) ?? '', /0 = layer 3 · 1 = layer 27/);
  assert.equal(await page.locator('[data-role="position-bias-chart"] svg[role="img"]').count(), 1);
  await checkXss(o);
  // The heatmap's tooltip names the token as text as well.
  const box = await canvasBox(page);
  const at = pixelOf(24, 20, 3);
  await page.mouse.move(box.x + at.x + 0.5, box.y + at.y + 0.5);
  await page.waitForSelector('[data-role="heatmap-tooltip"]');
  assert.match((await page.textContent('[data-role="heatmap-tooltip"]')) ?? '', /key\s+3 <script>alert\(1\)<\/script>/);
  await page.mouse.move(0, 0);
  await shot(page, 'imported-kvscope');
  await page.close();
  assert.deepEqual(o.errors, []);
});

test('output_only trajectory: rows the file lacks are drawn masked, one exported mean, one layer said so', async () => {
  const a = fixture('trajectory');
  const o = await open('trajectory');
  const { page } = o;
  const banner = (await page.textContent('[data-role="imported-banner"]')) ?? '';
  assert.match(banner, /Imported attention/);
  assert.match(banner, /attention_visualization trajectory JSON/);
  assert.match(banner, /averaged over heads before export/);
  assert.match(banner, new RegExp(`the file holds ${TRAJ_T - TRAJ_CTX} of ${TRAJ_T} \\(positions ${TRAJ_CTX}–${TRAJ_T - 1}\\)`));
  assert.match(banner, /last layer \(assumed; the model has 36, so layer 35\)/);
  assert.match(banner, /import notes/);
  // Absent rows (q < context_length) are masked everywhere, present rows carry the file's values.
  const cells: [number, number][] = [[0, 0], [10, 5], [27, 0], [27, 27], [28, 0], [28, 14], [33, 0], [33, 30], [39, 39], [39, 1], [35, 20]];
  const seen = await checkCells(page, a, 0, 'mean', cells, 'output_only');
  assert.ok(seen.has([...MASK_RGB].join()) && seen.size >= 4);
  for (const q of [0, 13, 27]) assert.deepEqual(await pixel(page, pixelOf(TRAJ_T, q, 0).x, pixelOf(TRAJ_T, q, 0).y), [...MASK_RGB], `row ${q} absent`);
  assert.notDeepEqual(await pixel(page, pixelOf(TRAJ_T, 28, 0).x, pixelOf(TRAJ_T, 28, 0).y), [...MASK_RGB], 'row 28 present');
  // Hover on an absent cell says so.
  const box = await canvasBox(page);
  const at = pixelOf(TRAJ_T, 10, 5);
  await page.mouse.move(box.x + at.x + 0.5, box.y + at.y + 0.5);
  await page.waitForSelector('[data-role="heatmap-tooltip"]');
  assert.match((await page.textContent('[data-role="heatmap-tooltip"]')) ?? '', /not in the file/);
  await page.mouse.move(0, 0);
  // Only the exported mean: one head choice, labelled so; one layer, said so.
  assert.deepEqual(await page.$$eval('select[data-control="head"] option', (os) => os.map((o) => o.textContent)), ['mean (as exported)']);
  assert.equal(await page.locator('[data-role="imported-one-layer"]').count(), 1);
  assert.equal(await page.locator('[data-role="imported-sink-mean-only"]').count(), 1);
  assert.equal(await page.locator('[data-role="imported-bars-one"]').count(), 1);
  assert.equal(await page.locator('[data-role="imported-bias-one"]').count(), 1);
  assert.match((await page.textContent('[data-role="imported-sink-heads"]')) ?? '', /n\/a \(averaged\)/);
  await checkSink(page, a, 'trajectory');
  const s = importedSummary(a);
  assert.equal(s.layers[0]!.sink.qualifyingQueries, TRAJ_T - TRAJ_CTX, 'only the generated rows count');
  // Hide the sink column: absent rows stay masked, present rows change.
  const n = await painted(page);
  await page.check('input[data-control="hide-sink"]');
  await waitRepaint(page, n);
  assert.deepEqual(await pixel(page, pixelOf(TRAJ_T, 10, 5).x, pixelOf(TRAJ_T, 10, 5).y), [...MASK_RGB]);
  await checkXss(o);
  await shot(page, 'imported-trajectory');
  await page.close();
  assert.deepEqual(o.errors, []);
});

test('ReAct run with 2 calls: the call picker switches tokens, picture and sink numbers', async () => {
  const a = fixture('react');
  assert.equal(a.calls.length, 2);
  const o = await open('react');
  const { page } = o;
  const banner = (await page.textContent('[data-role="imported-banner"]')) ?? '';
  assert.match(banner, /Imported attention/);
  assert.match(banner, /ReAct run: 2 LLM calls carry attention\. Showing: call 0 · step 1 · thought/);
  assert.deepEqual(await page.$$eval('select[data-control="call"] option', (os) => os.map((o) => o.textContent)), ['call 0 · step 1 · thought', 'call 2 · step 3 · answer']);
  const c0 = attentionOfCall(a, 0);
  const c1 = attentionOfCall(a, 1);
  const cells0: [number, number][] = [[0, 0], [19, 0], [19, 18], [10, 3], [15, 15], [4, 9]];
  await checkCells(page, c0, 0, 'mean', cells0, 'call 0');
  await checkSink(page, c0, 'call 0');
  assert.equal(await page.locator('[data-role="imported-tokens"] [data-token]').count(), 20);
  const f0 = await fingerprint(page);
  await choose(page, 'call', '1');
  assert.match((await page.textContent('[data-role="imported-banner"]')) ?? '', /Showing: call 2 · step 3 · answer/);
  const cells1: [number, number][] = [[0, 0], [29, 0], [29, 28], [20, 18], [25, 3], [4, 9]];
  await checkCells(page, c1, 0, 'mean', cells1, 'call 2');
  assert.notEqual(await fingerprint(page), f0, 'call switch changes the picture');
  assert.equal(await page.locator('[data-role="imported-tokens"] [data-token]').count(), 30);
  await checkSink(page, c1, 'call 2');
  assert.notDeepEqual(importedSummary(c0).layers[0]!.sink.perHead, importedSummary(c1).layers[0]!.sink.perHead);
  await checkXss(o);
  await shot(page, 'imported-react');
  await page.close();
  assert.deepEqual(o.errors, []);
});
