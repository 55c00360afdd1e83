// Exported pictures hold the figure, not the interface around it: the heatmap's "rows 0–11, cols 0–11 ·
// zoom 1×" readout and its "wheel or + / − to zoom…" help line are on the page but in neither the SVG nor
// the PNG (components/common/exportPicture leftOutOfExport; data-ui-hint marks such hints). The rule on
// stand-in elements, then the export harness (test/browser/exportHarness.ts) in headless Chromium.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { leftOutOfExport, UI_HINT_ATTR, type ElementLike } from '../components/common/exportPicture';
import { launchChromium, trackedPage } from './helpers/browser';
import { serveHarness } from './helpers/harness';
import { countColour } from './helpers/pixels';
import { STRINGS } from '../lib/i18n';

function el(tagName: string, attrs: Record<string, string> = {}): ElementLike {
  return { tagName, hasAttribute: (n) => n in attrs, getAttribute: (n) => attrs[n] ?? null };
}

test('left out: controls, tooltips, data-export-skip and interface hints; kept: the figure and its labels', () => {
  for (const e of [el('BUTTON'), el('select'), el('DIV', { 'data-export-skip': '' }), el('SPAN', { [UI_HINT_ATTR]: '' }), el('DIV', { role: 'tooltip' }), el('DIV', { 'data-role': 'cell-tooltip' }), el('SPAN', { 'data-role': 'heatmap-window' }), el('DIV', { 'data-role': 'view-secondary' })]) {
    assert.equal(leftOutOfExport(e), true, JSON.stringify(e));
  }
  for (const e of [el('DIV'), el('SPAN', { 'data-role': 'heatmap-pooled-note' }), el('CANVAS', { 'data-role': 'heatmap' }), el('svg', { role: 'img' })]) assert.equal(leftOutOfExport(e), false);
});

const HEAT = '[data-export-name="heat-test-L1-mean"]';
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

async function download(page: Page, ext: 'png' | 'svg'): Promise<Buffer> {
  const [d] = await Promise.all([page.waitForEvent('download', { timeout: 15_000 }), page.click(`${HEAT} [data-role="export-toolbar"] [data-export="${ext}"]`)]);
  return readFileSync((await d.path())!);
}

test('the heatmap export has its axis labels and legend but not the zoom readout or the help line', async () => {
  const { page, errors } = await trackedPage(browser.context);
  await page.setViewportSize({ width: 1200, height: 1100 });
  await page.goto(`${server.url}/index.html`);
  await page.waitForSelector('canvas[data-role="heatmap"][data-painted]', { timeout: 20_000 });
  // On the page: both hints are visible.
  const readout = (await page.textContent(`${HEAT} [data-role="heatmap-window"]`)) ?? '';
  assert.match(readout, /zoom 1×/);
  assert.equal((await page.textContent(`${HEAT} [data-role="view-secondary"]`))?.trim(), STRINGS['heatmap.help'].en);

  const svg = (await download(page, 'svg')).toString('utf8');
  const texts = await page.evaluate((text) => Array.from(new DOMParser().parseFromString(text, 'image/svg+xml').getElementsByTagName('text'), (t) => t.textContent ?? ''), svg);
  const all = texts.join(' ');
  assert.ok(texts.includes('key tokens →'), 'the axis title is kept');
  assert.ok(texts.includes('0.5'), 'a legend tick is kept');
  assert.doesNotMatch(all, /zoom|rows \d+–\d+|cols \d+–\d+/, `no zoom readout in: ${all.slice(0, 400)}`);
  assert.ok(!all.includes('wheel'), 'no help line');

  // The PNG: the readout painted pure red on the page and the axis title pure green (a control: kept text
  // does reach the PNG). Green pixels in the export, no red ones.
  await page.evaluate((sel) => {
    (document.querySelector(`${sel} [data-role="heatmap-window"]`) as HTMLElement).style.color = 'rgb(255, 0, 0)';
    const title = [...document.querySelectorAll(`${sel} div`)].find((d) => d.textContent === 'key tokens →') as HTMLElement;
    title.style.color = 'rgb(0, 255, 0)';
  }, HEAT);
  // Clearly pure red or green (text antialiasing keeps the hue): within 75 of each channel.
  const png = await download(page, 'png');
  const green = await countColour(page, png, '#00ff00', 75);
  assert.ok(green > 20, `the kept axis title is drawn (${green} green pixels)`);
  assert.equal(await countColour(page, png, '#ff0000', 75), 0, 'the zoom readout is not drawn');
  assert.deepEqual(errors, []);
  await page.close();
});
