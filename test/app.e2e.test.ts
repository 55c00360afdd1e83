// End-to-end: the exported app (npm run build → out/) in headless Chromium, served cross-origin
// isolated: the embedded model loads in the worker and the first heatmap is painted from its tensors.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { launchChromium } from './helpers/browser';
import { serveStatic } from './helpers/staticServer';

let browser: Awaited<ReturnType<typeof launchChromium>>;
let server: Awaited<ReturnType<typeof serveStatic>>;

before(async () => {
  execFileSync('npm', ['run', 'build'], { stdio: 'pipe', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  server = await serveStatic({ '/': 'out' }, { isolated: true });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test('the app loads the embedded model in the worker and paints the Vancouver heatmap', async () => {
  const page = await browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(server.url + '/');
  await page.waitForSelector('[data-ready="true"]', { timeout: 60_000 });
  assert.match((await page.textContent('#status')) ?? '', /478 tokens/);
  // The canvas is painted: not one flat colour.
  const distinct = await page.evaluate(() => {
    const c = document.querySelector('canvas[data-role="heatmap"]') as HTMLCanvasElement;
    const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    const seen = new Set<number>();
    for (let i = 0; i < d.length; i += 4 * 97) seen.add((d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!);
    return seen.size;
  });
  assert.ok(distinct > 20, `heatmap has ${distinct} distinct sampled colours`);
  // The inspector: Vancouver is two calls; call 2 appends the tool call and both tool results.
  assert.equal(await page.locator('[data-role="message-inspector"] [data-call]').count(), 2);
  assert.equal(await page.locator('[data-call="2"] [data-appended="true"]').count(), 3);
  // Selecting a query token reads its row; the keyboard moves the selection.
  await page.click('[data-token-index="100"]');
  assert.match((await page.textContent('#selection')) ?? '', /^query 100 /);
  await page.keyboard.press('ArrowRight');
  assert.match((await page.textContent('#selection')) ?? '', /^query 101 /);
  // Hover over a visible cell shows the exact weight.
  const canvas = (await page.$('canvas[data-role="heatmap"]'))!;
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.8);
  assert.match((await page.textContent('[data-role="heatmap-tooltip"]')) ?? '', /weight 0\.\d+/);
  // The sink panel: 4 layers × 4 heads of scores.
  assert.equal(await page.locator('[data-role="sink-grid"] tbody tr').count(), 4);
  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: 'test-results/app-vancouver.png', fullPage: true });
  assert.deepEqual(errors, []);
});
