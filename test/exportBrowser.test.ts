// <ExportFrame> in headless Chromium (harness test/browser/exportHarness.ts): around <Heatmap> + <Legend>
// and inside the position-bias chart. The PNG decodes at 2× with a white background, is not blank and
// holds the heatmap's cell colours; the SVG parses as image/svg+xml, embeds the canvases as <image>,
// keeps the caption's <script> as text, loads in an <img> and draws the same colours; the JSON envelope
// holds the matrix (within 1e-6, NaN as null) and the chart's numbers. A tainted canvas shows a message
// instead of throwing; the buttons work from the keyboard; labels follow the language; the toolbar is small
// and sits above the chart, not on it.
//
// KVSCOPE_EXPORT_ARTIFACTS=/some/dir keeps a screenshot of the page and the exported files there.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { launchChromium, trackedPage } from './helpers/browser';
import { serveHarness } from './helpers/harness';
import { CAPTION_WRAP, decodeMatrixJson } from '../lib/io/export';
import { STRINGS } from '../lib/i18n';
import { makeScale, sampleColormap } from '../lib/view/colormap';
import { EVIL_CAPTION, EXPORT_PX, EXPORT_T, exportBias, exportMatrix } from './browser/exportFixtures';

const ARTIFACTS = process.env.KVSCOPE_EXPORT_ARTIFACTS;
if (ARTIFACTS) mkdirSync(ARTIFACTS, { recursive: true });

const HEAT = '[data-export-name="heat-test-L1-mean"]';
const BIAS = '[data-export-name="bias-test"]';

let browser: Awaited<ReturnType<typeof launchChromium>>;
let server: Awaited<ReturnType<typeof serveHarness>>;

before(async () => {
  server = await serveHarness('test/browser/exportHarness.ts');
  browser = await launchChromium([], { acceptDownloads: true });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(query = ''): Promise<{ page: Page; errors: string[] }> {
  const { page, errors } = await trackedPage(browser.context);
  await page.setViewportSize({ width: 1200, height: 1100 });
  await page.goto(`${server.url}/index.html?${query}`);
  await page.waitForSelector('canvas[data-role="heatmap"][data-painted]', { timeout: 20_000 });
  await page.waitForSelector('[data-role="position-bias-chart"] svg[role="img"]');
  return { page, errors };
}

/** Clicks (or presses Enter on) a frame's button and returns the downloaded file. */
async function exported(page: Page, frame: string, ext: 'png' | 'svg' | 'json', how: 'click' | 'enter' = 'click'): Promise<{ name: string; bytes: Buffer }> {
  const button = `${frame} [data-role="export-toolbar"] [data-export="${ext}"]`;
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 15_000 }),
    how === 'click'
      ? page.click(button)
      : (async () => {
          await page.focus(button);
          await page.keyboard.press('Enter');
        })(),
  ]);
  const path = await download.path();
  assert.ok(path, 'the download was saved');
  const bytes = readFileSync(path);
  const name = download.suggestedFilename();
  if (ARTIFACTS) writeFileSync(join(ARTIFACTS, name), bytes);
  return { name, bytes };
}

interface Pixels {
  width: number;
  height: number;
  /** Distinct RGB colours (r,g,b strings), alpha ignored. */
  colours: string[];
  topLeft: number[];
  /** Dark pixels (all channels < 100) in the top 36 rows: the caption's glyphs. */
  darkTop: number;
}

/** Decodes a PNG (as base64) in the page and reads its pixels. */
async function pngPixels(page: Page, bytes: Buffer): Promise<Pixels> {
  return page.evaluate(async (b64) => {
    const bin = atob(b64);
    const u8 = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) u8[i] = bin.charCodeAt(i);
    const bmp = await createImageBitmap(new Blob([u8], { type: 'image/png' }));
    const c = document.createElement('canvas');
    c.width = bmp.width;
    c.height = bmp.height;
    const ctx = c.getContext('2d')!;
    ctx.drawImage(bmp, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    const colours = new Set<string>();
    let darkTop = 0;
    for (let i = 0; i < d.length; i += 4) {
      colours.add(`${d[i]},${d[i + 1]},${d[i + 2]}`);
      if (i / 4 < c.width * 36 && d[i]! < 100 && d[i + 1]! < 100 && d[i + 2]! < 100) darkTop++;
    }
    return { width: bmp.width, height: bmp.height, colours: [...colours], topLeft: Array.from(d.slice(0, 4)), darkTop };
  }, bytes.toString('base64'));
}

interface SvgCheck {
  parseErrors: number;
  root: string;
  width: number;
  height: number;
  images: { href: string; width: string | null; height: string | null }[];
  nestedSvgs: number;
  scripts: number;
  caption: string | null;
  texts: string[];
  naturalWidth: number;
  naturalHeight: number;
  colours: string[];
}

/** Parses an exported SVG with DOMParser and draws it through an <img> in the page. */
async function svgCheck(page: Page, text: string): Promise<SvgCheck> {
  return page.evaluate(async (text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const root = doc.documentElement;
    const images = Array.from(doc.getElementsByTagName('image'), (i) => ({ href: (i.getAttribute('href') ?? '').slice(0, 22), width: i.getAttribute('width'), height: i.getAttribute('height') }));
    const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
    const img = new Image();
    img.src = url;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.naturalWidth;
    c.height = img.naturalHeight;
    const ctx = c.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    URL.revokeObjectURL(url);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    const colours = new Set<string>();
    for (let i = 0; i < d.length; i += 4) colours.add(`${d[i]},${d[i + 1]},${d[i + 2]}`);
    return {
      parseErrors: doc.getElementsByTagName('parsererror').length,
      root: root.localName + ' ' + root.namespaceURI,
      width: Number(root.getAttribute('width')),
      height: Number(root.getAttribute('height')),
      images,
      nestedSvgs: root.querySelectorAll(':scope > svg').length,
      scripts: doc.getElementsByTagName('script').length + doc.getElementsByTagNameNS('http://www.w3.org/1999/xhtml', 'script').length,
      caption: doc.querySelector('[data-role="caption"]')?.textContent ?? null,
      texts: Array.from(doc.getElementsByTagName('text'), (t) => t.textContent ?? ''),
      naturalWidth: img.naturalWidth,
      naturalHeight: img.naturalHeight,
      colours: [...colours],
    };
  }, text);
}

/** The viridis colours of the harness matrix's cells (the heatmap draws them exactly, pixelated). */
function cellColours(): Set<string> {
  const scale = makeScale({ kind: 'linear', min: 0, max: 1 });
  const m = exportMatrix();
  const out = new Set<string>();
  for (let q = 0; q < EXPORT_T; q++) for (let k = 0; k <= q; k++) if (Number.isFinite(m[q * EXPORT_T + k]!)) out.add(sampleColormap('viridis', scale.norm(m[q * EXPORT_T + k]!)).join(','));
  return out;
}

const overlap = (a: string[], b: Set<string>) => a.filter((c) => b.has(c)).length;

test('the toolbar is small, labelled, above the chart and out of the way', async () => {
  const { page, errors } = await open();
  if (ARTIFACTS) await page.screenshot({ path: join(ARTIFACTS, 'harness.png'), fullPage: true });
  for (const frame of [HEAT, BIAS]) {
    const bar = (await page.locator(`${frame} [data-role="export-toolbar"]`).boundingBox())!;
    const body = (await page.locator(`${frame} [data-role="export-body"]`).boundingBox())!;
    assert.ok(bar.height <= 22, `toolbar height ${bar.height}`);
    assert.ok(bar.y + bar.height <= body.y + 0.5, 'the toolbar sits above the chart');
    const buttons = page.locator(`${frame} [data-role="export-toolbar"] button[data-export]`);
    assert.equal(await buttons.count(), 3);
    let width = 0;
    for (let i = 0; i < 3; i++) {
      const b = (await buttons.nth(i).boundingBox())!;
      assert.ok(b.height <= 20, `button height ${b.height}`);
      width += b.width;
    }
    assert.ok(width <= 130, `buttons take ${width} px`);
    assert.deepEqual(await buttons.evaluateAll((bs) => bs.map((b) => [b.getAttribute('data-export'), b.textContent, b.getAttribute('title')])), [
      ['png', 'PNG', STRINGS['export.pngTitle'].en],
      ['svg', 'SVG', STRINGS['export.svgTitle'].en],
      ['json', 'JSON', STRINGS['export.jsonTitle'].en],
    ]);
  }
  // Right-aligned over the heatmap frame, which is as wide as its content.
  const frame = (await page.locator(HEAT).boundingBox())!;
  const png = (await page.locator(`${HEAT} [data-export="json"]`).boundingBox())!;
  assert.ok(Math.abs(frame.x + frame.width - (png.x + png.width)) < 2, 'toolbar at the right edge');
  assert.ok(frame.width < 700, `frame width ${frame.width}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('PNG of heatmap + legend: 2×, white background, caption drawn, the cells\' colours present', async () => {
  const { page, errors } = await open();
  const file = await exported(page, HEAT, 'png');
  assert.equal(file.name, 'heat-test-L1-mean.png');
  assert.deepEqual([...file.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const px = await pngPixels(page, file.bytes);
  const body = (await page.locator(`${HEAT} [data-role="export-body"]`).boundingBox())!;
  // Width: twice the content (heatmap with gutter and band) or the caption (wrapped at CAPTION_WRAP) plus
  // padding; height adds the caption.
  assert.ok(px.width >= 2 * EXPORT_PX && px.width <= 2 * (Math.max(body.width, CAPTION_WRAP) + 40), `width ${px.width} for content ${body.width}`);
  assert.ok(px.height >= 2 * (EXPORT_PX + 30) && px.height <= 2 * (body.height + 80), `height ${px.height} for content ${body.height}`);
  assert.deepEqual(px.topLeft, [255, 255, 255, 255]);
  assert.ok(px.colours.length > 40, `${px.colours.length} colours`);
  const cells = cellColours();
  assert.ok(overlap(px.colours, cells) >= 40, `${overlap(px.colours, cells)} of ${cells.size} cell colours`);
  assert.ok(px.darkTop > 200, `caption glyph pixels: ${px.darkTop}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('SVG of heatmap + legend: well-formed, canvases as <image>, caption escaped, loads in an <img> and draws', async () => {
  const { page, errors } = await open();
  const file = await exported(page, HEAT, 'svg');
  assert.equal(file.name, 'heat-test-L1-mean.svg');
  const text = file.bytes.toString('utf8');
  assert.ok(!text.includes('<script'), 'no <script> tag in the text');
  const s = await svgCheck(page, text);
  assert.equal(s.parseErrors, 0);
  assert.equal(s.root, 'svg http://www.w3.org/2000/svg');
  assert.equal(s.scripts, 0);
  assert.equal(s.caption, EVIL_CAPTION);
  // Heatmap, its two segment bands, the pinned key-0 strip and the legend ramp: five canvases, each an
  // embedded PNG at its CSS size.
  assert.equal(s.images.length, 5, JSON.stringify(s.images));
  for (const i of s.images) assert.equal(i.href, 'data:image/png;base64,');
  assert.ok(s.images.some((i) => i.width === String(EXPORT_PX) && i.height === String(EXPORT_PX)), 'the heatmap at 240 × 240');
  // Page text came along: the axis labels and the legend ticks.
  assert.ok(s.texts.includes('key tokens →'), JSON.stringify(s.texts.slice(0, 12)));
  assert.ok(s.texts.includes('0.5'), 'a legend tick');
  assert.ok(!s.texts.some((t) => /^(−|\+|reset zoom)$/.test(t)), 'no button labels');
  assert.ok(s.naturalWidth > 0 && s.naturalHeight > 0);
  assert.equal(s.naturalWidth, s.width);
  assert.ok(s.colours.length > 40, `${s.colours.length} colours`);
  const cells = cellColours();
  assert.ok(overlap(s.colours, cells) >= 40, `${overlap(s.colours, cells)} of ${cells.size} cell colours`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('JSON of the heatmap: the envelope and the matrix as drawn (NaN as null), tokens verbatim', async () => {
  const { page, errors } = await open();
  const file = await exported(page, HEAT, 'json');
  assert.equal(file.name, 'heat-test-L1-mean.json');
  const doc = JSON.parse(file.bytes.toString('utf8'));
  assert.equal(doc.kvscope, 'view-export');
  assert.equal(doc.version, 1);
  assert.equal(doc.name, 'heat-test-L1-mean');
  assert.equal(doc.title, EVIL_CAPTION);
  assert.equal(doc.data.kind, 'attention-heatmap');
  assert.equal(doc.data.layer, 1);
  assert.equal(doc.data.head, 'mean');
  assert.equal(doc.data.tokens.length, EXPORT_T);
  assert.equal(doc.data.tokens[3], '<script>alert(2)</script>');
  assert.equal(doc.data.spans.length, 7);
  const m = decodeMatrixJson(doc.data.matrix);
  assert.deepEqual([m.rows, m.cols], [EXPORT_T, EXPORT_T]);
  const want = exportMatrix();
  assert.equal(doc.data.matrix[5][2], null);
  let checked = 0;
  for (let i = 0; i < want.length; i++) {
    if (Number.isNaN(want[i]!)) assert.ok(Number.isNaN(m.data[i]!), `cell ${i}`);
    else {
      assert.ok(Math.abs(m.data[i]! - want[i]!) <= 1e-6, `cell ${i}: ${m.data[i]} vs ${want[i]}`);
      checked++;
    }
  }
  assert.equal(checked, EXPORT_T * EXPORT_T - 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the position-bias chart: PNG and SVG not blank, JSON holds the numbers drawn; Enter works', async () => {
  const { page, errors } = await open();
  const png = await exported(page, BIAS, 'png');
  assert.equal(png.name, 'bias-test.png');
  const px = await pngPixels(page, png.bytes);
  const svgBox = (await page.locator(`${BIAS} svg[role="img"]`).boundingBox())!;
  assert.ok(px.width >= 2 * svgBox.width && px.width <= 2 * (svgBox.width + 300), `width ${px.width} for a ${svgBox.width} px chart`);
  assert.ok(px.height >= 2 * svgBox.height, `height ${px.height}`);
  assert.deepEqual(px.topLeft, [255, 255, 255, 255]);
  assert.ok(px.colours.length > 30, `${px.colours.length} colours`);
  // The thirds' colours (Paul Tol's blue, red, green) are drawn.
  for (const c of ['68,119,170', '238,102,119', '34,136,51']) assert.ok(px.colours.includes(c), c);

  const svg = await exported(page, BIAS, 'svg');
  const s = await svgCheck(page, svg.bytes.toString('utf8'));
  assert.equal(s.parseErrors, 0);
  assert.equal(s.images.length, 0);
  assert.ok(s.nestedSvgs >= 2, `${s.nestedSvgs} nested svgs (legend marks and the chart)`);
  assert.ok(s.naturalWidth > 0);
  for (const c of ['68,119,170', '238,102,119', '34,136,51']) assert.ok(s.colours.includes(c), c);

  const json = await exported(page, BIAS, 'json', 'enter');
  const doc = JSON.parse(json.bytes.toString('utf8'));
  assert.equal(doc.kvscope, 'view-export');
  assert.equal(doc.data.kind, 'position-bias');
  const { bias, uniform } = exportBias();
  assert.deepEqual(doc.data.layers.map((l: { first: { mean: number | null } }) => l.first.mean), bias.map((b) => b.first.mean));
  assert.deepEqual(doc.data.layers[2].middle, bias[2]!.middle);
  assert.ok(Math.abs(doc.data.meanOverLayers.first - (0.071 + 0.052 + 0.09) / 3) < 1e-12);
  assert.equal(doc.data.meanOverLayers.layers, 3);
  assert.deepEqual(doc.data.uniform, { first: uniform.first.mean, middle: uniform.middle.mean, last: uniform.last.mean });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a canvas the page may not read: a short message by the toolbar, no exception; the next export works', async () => {
  const { page, errors } = await open();
  await page.evaluate(() => {
    const w = window as unknown as { __toBlob: unknown; __toDataURL: unknown };
    w.__toBlob = HTMLCanvasElement.prototype.toBlob;
    w.__toDataURL = HTMLCanvasElement.prototype.toDataURL;
    HTMLCanvasElement.prototype.toBlob = () => {
      throw new DOMException('The canvas has been tainted by cross-origin data.', 'SecurityError');
    };
    HTMLCanvasElement.prototype.toDataURL = () => {
      throw new DOMException('The canvas has been tainted by cross-origin data.', 'SecurityError');
    };
  });
  let downloads = 0;
  page.on('download', () => downloads++);
  await page.click(`${HEAT} [data-export="png"]`);
  await page.waitForSelector(`${HEAT} [data-role="export-error"]`, { timeout: 5_000 });
  assert.equal((await page.textContent(`${HEAT} [data-role="export-error"]`))?.replace(/\s*×$/, ''), STRINGS['export.tainted'].en);
  await page.click(`${HEAT} [data-export="svg"]`);
  await page.waitForFunction((sel) => document.querySelector(`${sel} [data-role="export-error"]`)?.textContent?.includes('will not let'), HEAT);
  assert.equal(downloads, 0);
  await page.evaluate(() => {
    const w = window as unknown as { __toBlob: typeof HTMLCanvasElement.prototype.toBlob; __toDataURL: typeof HTMLCanvasElement.prototype.toDataURL };
    HTMLCanvasElement.prototype.toBlob = w.__toBlob;
    HTMLCanvasElement.prototype.toDataURL = w.__toDataURL;
  });
  const file = await exported(page, HEAT, 'png');
  assert.ok(file.bytes.length > 1000);
  assert.equal(await page.locator(`${HEAT} [data-role="export-error"]`).count(), 0);
  // The other frame never showed an error.
  assert.equal(await page.locator(`${BIAS} [data-role="export-error"]`).count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('labels in Chinese', async () => {
  const { page, errors } = await open('lang=zh');
  const titles = await page.locator(`${HEAT} [data-role="export-toolbar"] button[data-export]`).evaluateAll((bs) => bs.map((b) => [b.textContent, b.getAttribute('title'), b.getAttribute('aria-label')]));
  assert.deepEqual(titles, [
    ['PNG', STRINGS['export.pngTitle'].zh, STRINGS['export.pngTitle'].zh],
    ['SVG', STRINGS['export.svgTitle'].zh, STRINGS['export.svgTitle'].zh],
    ['JSON', STRINGS['export.jsonTitle'].zh, STRINGS['export.jsonTitle'].zh],
  ]);
  assert.equal(await page.getAttribute(`${HEAT} [data-role="export-toolbar"]`, 'aria-label'), STRINGS['export.toolbar'].zh);
  // The bias chart's default caption is translated too.
  const json = await exported(page, BIAS, 'json');
  assert.equal(JSON.parse(json.bytes.toString('utf8')).title, STRINGS['export.caption.positionBias'].zh.replace('{minQuery}', '4'));
  assert.deepEqual(errors, []);
  await page.close();
});
