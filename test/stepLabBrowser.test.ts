// The "Step & generate" tab in headless Chromium (harness test/browser/stepLabHarness.ts): the real engine
// worker, the embedded model and <StepLab> under the app's stylesheet. The tab opens at the START (one
// token cached); there and after 20 steps and at the end, the top 5 equal an independent full prefill's and
// the strip's brightest column is that prefill's most attended key; after 20 steps the cached keys fill at
// least half of the strip (its axis is the cached part rounded up, not the prompt), each labelled with its
// token. Keys step with one extend or one fork (the worker's cache length follows), message boundaries and
// End jump with ONE chunked extend; greedy generation streams the same tokens as lib/generate on the same
// worker, decodes them to the tokenizer's text and reads the tool call; stepping back after generating
// forks; Stop aborts; the main visual is above the fold at 1280 × 800 and nothing scrolls sideways at 1280
// or 1024 px; the Chinese interface shows the Chinese strings. STEP_SHOTS=<dir> saves screenshots there.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { launchChromium, trackedPage } from './helpers/browser';
import { serveStatic } from './helpers/staticServer';
import { STRINGS } from '../lib/i18n';
import { readModelDir } from '../lib/cli/modelDir';
import { createTokenizer } from '../lib/prompt/tokenizer';
import { nextBoundary, prevBoundary } from '../lib/generate/stepper';
import { colormap } from '../lib/view/colormap';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-steplab-'));
let browser: Awaited<ReturnType<typeof launchChromium>>;
let server: Awaited<ReturnType<typeof serveStatic>>;
const model = readModelDir('public/models/kvscope-tiny');
const tok = createTokenizer(model.tokenizerJson, model.tokenizerConfig);
const SHOTS = process.env.STEP_SHOTS;

before(async () => {
  await build({ entryPoints: ['test/browser/stepLabHarness.ts'], bundle: true, format: 'esm', outfile: join(dir, 'harness.js'), logLevel: 'error', define: { 'process.env.NODE_ENV': '"production"' } });
  await build({ entryPoints: ['workers/engine.worker.ts'], bundle: true, format: 'esm', outfile: join(dir, 'engine.worker.js'), logLevel: 'error' });
  copyFileSync('app/globals.css', join(dir, 'globals.css'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><link rel="stylesheet" href="globals.css"><body style="margin:12px 20px"><script type="module" src="harness.js"></script>',
  );
  server = await serveStatic({ '/ort/': 'node_modules/onnxruntime-web/dist', '/models/': 'public/models', '/': dir }, { isolated: true });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface RowExpect {
  q: number;
  top: { id: number; p: number }[];
  meanRow: number[];
}

interface Expect {
  T: number;
  layers: number;
  top: { id: number; p: number }[];
  meanRow: number[];
  /** The full prefill's figures with the query at positions 0, 20 and T − 1. */
  rows: RowExpect[];
  ids: number[];
  starts: number[];
  greedy: number[];
  greedyStopped: string;
}

async function open(lang = 'en', size = { width: 1400, height: 1000 }, scenario = 'vancouver'): Promise<{ page: Page; errors: string[]; expect: Expect }> {
  const { page, errors } = await trackedPage(browser.context);
  await page.setViewportSize(size);
  await page.goto(`${server.url}/index.html?lang=${lang}&scenario=${scenario}`);
  await page.waitForSelector('[data-role="step-lab"][data-idle="true"]', { timeout: 60_000 });
  const expect = (await page.evaluate(() => (self as unknown as { __expect: unknown }).__expect)) as Expect;
  return { page, errors, expect };
}

const attr = (page: Page, name: string) => page.$eval('[data-role="step-lab"]', (e, n) => e.getAttribute(n) ?? '', name);
const cacheLength = (page: Page) => page.evaluate(() => (self as unknown as { __client: { length: number } }).__client.length);
const cacheIds = (page: Page) => page.evaluate(() => (self as unknown as { __client: { ids: number[] } }).__client.ids);
const opText = async (page: Page) => (await page.textContent('[data-role="step-op"]')) ?? '';
const strip = '[data-role="attention-strip"]';

/** Presses a key in the stepper and waits until the cursor is `want` and the tab is idle again. */
async function press(page: Page, key: string, want: number): Promise<void> {
  await page.focus('[data-role="stepper"]');
  await page.keyboard.press(key);
  await page.waitForFunction((c) => {
    const e = document.querySelector('[data-role="step-lab"]')!;
    return e.getAttribute('data-cursor') === String(c) && e.getAttribute('data-idle') === 'true';
  }, want, { timeout: 20_000 });
}

/** RGB of the strip's canvas at backing-store pixel (x, y). */
const pixel = (page: Page, x: number, y: number) =>
  page.$eval(strip, (c, [x, y]) => Array.from((c as HTMLCanvasElement).getContext('2d')!.getImageData(x!, y!, 1, 1).data.slice(0, 3)), [x, y]);

/**
 * With the query at row.q: the top 5 are the full prefill's (ids and the first probability), the strip's
 * brightest column is the prefill's most attended key (the top of the colour map at that column's centre),
 * and hovering it shows that key's weight within 1e-4.
 */
async function checkRow(page: Page, row: RowExpect): Promise<void> {
  assert.equal(Number(await attr(page, 'data-cursor')), row.q + 1);
  const shown = await page.$$eval('[data-role="top-predictions"] [data-top-id]', (rows) => rows.map((r) => Number(r.getAttribute('data-top-id'))));
  assert.deepEqual(shown, row.top.map((x) => x.id), `top 5 at query ${row.q}`);
  const p1 = (await page.textContent('[data-role="top-predictions"] tbody tr'))!;
  assert.ok(p1.includes(`${(100 * row.top[0]!.p).toFixed(1)}%`), p1);
  let argmax = 0;
  row.meanRow.forEach((w, k) => (w > row.meanRow[argmax]! ? (argmax = k) : 0));
  const { W, H, domain, cached } = await page.$eval(strip, (c) => ({
    W: (c as HTMLCanvasElement).width,
    H: (c as HTMLCanvasElement).height,
    domain: Number(c.getAttribute('data-domain')),
    cached: Number(c.getAttribute('data-cached')),
  }));
  assert.equal(cached, row.q + 1);
  const x = Math.floor(((argmax + 0.5) * W) / domain); // the centre of the key's column
  const lut = colormap('viridis').lut;
  assert.deepEqual(await pixel(page, x, Math.floor(H / 3)), [lut[765], lut[766], lut[767]], `key ${argmax} is the row maximum: the top of the colour map`);
  const box = (await (await page.$(strip))!.boundingBox())!;
  await page.mouse.move(box.x + ((argmax + 0.5) * box.width) / domain, box.y + 10);
  await page.waitForSelector('[data-role="strip-tooltip"]');
  const tip = (await page.textContent('[data-role="strip-tooltip"]')) ?? '';
  const m = /key (\d+)[\s\S]*?weight ([\d.e-]+)/.exec(tip);
  assert.ok(m, tip);
  assert.equal(Number(m[1]), argmax);
  assert.ok(Math.abs(Number(m[2]) - row.meanRow[argmax]!) < 1e-4, `${m[2]} vs ${row.meanRow[argmax]}`);
  await page.mouse.move(0, 0);
}

test('opens at the start; at query 0, after 20 steps and at the end the top 5 and the strip agree with an independent full prefill', async () => {
  const { page, errors, expect } = await open();
  const T = expect.T;
  assert.ok(T > 40, `${T} tokens`);
  // Opened at the start: one token cached, established by one prefill of it.
  assert.equal(await attr(page, 'data-cursor'), '1');
  assert.equal(await attr(page, 'data-length'), String(T));
  assert.equal(await cacheLength(page), 1);
  assert.deepEqual(await cacheIds(page), expect.ids.slice(0, 1), 'the tab established its own cache (the harness had generated after the prompt)');
  assert.match(await opText(page), /prefill of 1 tokens from position 0/);
  assert.equal(await page.textContent('[data-role="view-header"] [data-fact="cache"] b'), `1 / ${T}`);
  assert.match((await page.textContent('[data-role="view-header"]')) ?? '', /kvscope-tiny/);
  assert.match((await page.textContent('[data-role="actual-next"]')) ?? '', /Actual next token of the prompt:.*probability [\d.]+%, rank \d+/s);
  // The strip is one canvas (no element per key); default view is the last layer, head mean, power scale.
  assert.equal(await page.$eval(strip, (c) => c.tagName + c.childElementCount), 'CANVAS0');
  assert.equal(await page.$eval('[data-control="layer"]', (s) => (s as HTMLSelectElement).value), String(expect.layers - 1));
  assert.equal(await page.$eval(strip, (c) => c.getAttribute('data-domain')), '32');
  await checkRow(page, expect.rows[0]!);

  // 20 steps: 21 keys cached, on an axis of 32, so they span 21 / 32 of the strip's drawn width.
  for (let c = 2; c <= 21; c++) await press(page, 'ArrowRight', c);
  assert.match(await opText(page), /1 prefill\(s\), 20 one-token extends, 0 chunked extends/);
  await checkRow(page, expect.rows[1]!);
  const W = await page.$eval(strip, (c) => (c as HTMLCanvasElement).width);
  const H = await page.$eval(strip, (c) => (c as HTMLCanvasElement).height);
  const row = await page.$eval(strip, (c, y) => Array.from((c as HTMLCanvasElement).getContext('2d')!.getImageData(0, y, (c as HTMLCanvasElement).width, 1).data), Math.floor(H / 3));
  const isHeadroom = (x: number) => row[4 * x] === 244 && row[4 * x + 1] === 245 && row[4 * x + 2] === 247;
  let firstHeadroom = W;
  for (let x = 0; x < W; x++) if (isHeadroom(x)) {
    firstHeadroom = x;
    break;
  }
  assert.ok(firstHeadroom / W >= 0.5, `the cached keys span ${firstHeadroom} of ${W} px`);
  for (let x = firstHeadroom; x < W; x++) assert.ok(isHeadroom(x) || x < firstHeadroom + 4, `pixel ${x} after the cache end is headroom`);
  // Every cached key is labelled with its token under the strip; the rest of the prompt is a note, not space.
  const labelled = await page.$$eval('[data-role="strip-labels"] [data-key]', (es) => es.map((e) => [Number(e.getAttribute('data-key')), e.textContent ?? '']));
  assert.deepEqual(labelled.map(([k]) => k), Array.from({ length: 21 }, (_, k) => k));
  assert.ok(labelled.every(([, text]) => (text as string).length > 0));
  assert.equal(await page.$eval('[data-role="strip-not-cached"]', (e) => e.getAttribute('data-count')), String(T - 21));
  assert.equal(await page.textContent('[data-role="view-header"] [data-fact="cache"] b'), `21 / ${T}`);
  if (SHOTS) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SHOTS, 'helperC-step21-1280.png') });
    await page.screenshot({ path: join(SHOTS, 'helperC-step21-1280-full.png'), fullPage: true });
    await page.setViewportSize({ width: 1400, height: 1000 });
  }

  // End: ONE chunked extend to the whole prompt; the last row as the full prefill computed it.
  await press(page, 'End', T);
  assert.match(await opText(page), new RegExp(`ONE chunked extend of ${T - 21} tokens \\(positions 21…\\) → ${T} cached`));
  assert.deepEqual(await cacheIds(page), expect.ids);
  await checkRow(page, expect.rows[2]!);
  assert.match((await page.textContent('[data-role="actual-next"]')) ?? '', /End of the sequence/);
  assert.equal(await page.locator('[data-role="strip-not-cached"]').count(), 0);
  assert.match((await page.textContent('[data-role="kv-growth"]')) ?? '', new RegExp(`${T} tokens cached`));
  // The shape read at step 21 stays shown until the worker is read again at the end.
  await page.waitForSelector(`[data-role="kv-measured"]:has-text("[2 × ${T} × ")`);
  assert.match((await page.textContent('[data-role="kv-measured"]')) ?? '', new RegExp(`\\[2 × ${T} × 32\\]`));
  assert.equal(await page.$eval('[data-role="kv-growth"]', (e) => e.getAttribute('data-kv-total')), String(T * 4 * 2 * 2 * 32 * 4));
  if (SHOTS) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SHOTS, 'helperC-end-1280.png') });
  }
  await page.close();
  assert.deepEqual(errors, []);
});

test('at 1280 × 800 the header, controls and strip are above the fold (under the page’s ~150 px of header and tabs); nothing scrolls sideways at 1280 or 1024 px', async () => {
  const { page, errors } = await open('en', { width: 1280, height: 800 });
  const bottom = await page.$eval('[data-role="strip-labels"]', (e) => e.getBoundingClientRect().bottom + window.scrollY);
  assert.ok(bottom + 150 <= 800, `the strip's labels end at ${bottom} px of the tab`);
  const top = await page.$eval('[data-role="view-header"]', (e) => e.getBoundingClientRect().top + window.scrollY);
  assert.ok(top < 40, `the header starts at ${top} px`);
  // Explanations sit below the main visual, marked secondary (presentation mode hides them).
  const notes = await page.$eval('[data-role="step-lab"] [data-role="view-secondary"]', (e) => e.getBoundingClientRect().top + window.scrollY);
  assert.ok(notes > bottom, 'the notes come after the strip');
  for (const width of [1280, 1024]) {
    await page.setViewportSize({ width, height: 800 });
    // Figures re-measure their boxes in ResizeObserver callbacks: wait for them to settle (a real overflow stays).
    await page.waitForFunction(() => document.documentElement.scrollWidth - window.innerWidth <= 0, null, { timeout: 5_000 }).catch(() => {});
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 0, `horizontal overflow at ${width} px`);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, `helperC-open-${width}.png`) });
  }
  await page.close();
  assert.deepEqual(errors, []);
});

test('keys: → extends one, ← forks one back, ↑ / End / Home move with one fork or ONE chunked extend', async () => {
  const { page, errors, expect } = await open();
  const T = expect.T;
  await press(page, 'End', T);
  assert.match(await opText(page), new RegExp(`ONE chunked extend of ${T - 1} tokens \\(positions 1…\\) → ${T} cached`));
  await press(page, 'ArrowLeft', T - 1);
  assert.equal(await cacheLength(page), T - 1);
  assert.match(await opText(page), new RegExp(`fork: cache cut from ${T} to ${T - 1} tokens`));
  // The actual next token is now the prompt's last one, with its probability and rank.
  assert.match((await page.textContent('[data-role="actual-next"]')) ?? '', /Actual next token of the prompt:.*probability [\d.]+%, rank \d+/s);
  await press(page, 'ArrowRight', T);
  assert.equal(await cacheLength(page), T);
  assert.match(await opText(page), new RegExp(`extend by 1 token \\(position ${T - 1}\\) → ${T} cached`));
  assert.deepEqual(await cacheIds(page), expect.ids);
  const shown = await page.$$eval('[data-role="top-predictions"] [data-top-id]', (rows) => rows.map((r) => Number(r.getAttribute('data-top-id'))));
  assert.deepEqual(shown, expect.top.map((x) => x.id), 'the stepped row predicts what the full prefill predicted');
  const prev = prevBoundary(expect.starts, T);
  await press(page, 'ArrowUp', prev);
  assert.equal(await cacheLength(page), prev);
  assert.match(await opText(page), /fork/);
  const prev2 = prevBoundary(expect.starts, prev);
  await press(page, 'PageUp', prev2);
  const next = nextBoundary(expect.starts, prev2, T);
  assert.equal(next, prev);
  await press(page, 'ArrowDown', next);
  assert.match(await opText(page), new RegExp(`ONE chunked extend of ${next - prev2} tokens`));
  await press(page, 'End', T);
  assert.match(await opText(page), new RegExp(`ONE chunked extend of ${T - next} tokens \\(positions ${next}…\\) → ${T} cached`));
  assert.deepEqual(await cacheIds(page), expect.ids);
  const afterJump = await page.$$eval('[data-role="top-predictions"] [data-top-id]', (rows) => rows.map((r) => Number(r.getAttribute('data-top-id'))));
  assert.deepEqual(afterJump, expect.top.map((x) => x.id), 'a jump predicts what the full prefill predicted');
  await press(page, 'Home', 1);
  assert.equal(await cacheLength(page), 1);
  await press(page, 'ArrowRight', 2);
  await press(page, 'ArrowRight', 3);
  assert.equal(await cacheLength(page), 3);
  assert.match(await opText(page), /this tab so far: 1 prefill\(s\), 3 one-token extends, 3 chunked extends, 4 forks, 0 generated tokens/);
  // Buttons do the same.
  await page.click('[data-step="forward"]');
  await page.waitForFunction(() => document.querySelector('[data-role="step-lab"]')!.getAttribute('data-cursor') === '4');
  await page.close();
  assert.deepEqual(errors, []);
});

test('Space plays one-token extends from the cursor and pauses', async () => {
  const { page, errors } = await open();
  await press(page, 'Home', 1);
  await page.selectOption('[data-control="speed"]', '50');
  await page.focus('[data-role="stepper"]');
  await page.keyboard.press(' ');
  await page.waitForFunction(() => Number(document.querySelector('[data-role="step-lab"]')!.getAttribute('data-cursor')) >= 6, null, { timeout: 20_000 });
  await page.focus('[data-role="stepper"]');
  await page.keyboard.press(' ');
  await page.waitForFunction(() => document.querySelector('[data-role="step-lab"]')!.getAttribute('data-idle') === 'true' && /play/.test(document.querySelector('[data-step="play"]')!.textContent ?? ''));
  const c = Number(await attr(page, 'data-cursor'));
  assert.ok(c >= 6, `cursor ${c}`);
  assert.equal(await cacheLength(page), c);
  // Every position from 2 on came from its own one-token extend.
  const m = /(\d+) one-token extends, 0 chunked extends/.exec(await opText(page));
  assert.ok(m, await opText(page));
  assert.equal(Number(m[1]), c - 1);
  await page.close();
  assert.deepEqual(errors, []);
});

test('greedy generation streams lib/generate’s tokens, decodes them as the tokenizer does, reads the tool call; then fork back and discard', async () => {
  // Xfinity without the status bar: the embedded model's greedy turn there is a phone_call tool call (run 8's
  // metrics.json, canonical_generations). On the whole Vancouver conversation it answers in text instead.
  const { page, errors, expect } = await open('en', undefined, 'xfinity:without-status');
  const T = expect.T;
  const n = expect.greedy.length;
  assert.equal(expect.greedyStopped, 'eos', 'the embedded model ends its turn within 100 tokens here');
  await press(page, 'End', T);
  assert.match((await page.textContent('[data-role="gen-real-note"]')) ?? '', /real output of the embedded tiny model/);
  await page.click('[data-gen-mode="greedy"]');
  await page.fill('[data-gen-field="maxNewTokens"]', '100');
  await page.click('[data-role="gen-start"]');
  await page.waitForSelector('[data-role="gen-status"]', { timeout: 60_000 });
  assert.equal(await page.$eval('[data-role="gen-status"]', (e) => e.getAttribute('data-stopped')), 'eos');
  assert.equal(await attr(page, 'data-length'), String(T + n));
  assert.equal(await attr(page, 'data-gen-start'), String(T));
  assert.deepEqual(await cacheIds(page), [...expect.ids, ...expect.greedy]);
  const raw = await page.$eval('[data-role="gen-raw"]', (e) => e.textContent ?? '');
  assert.equal(raw, tok.decode(expect.greedy, { skip_special_tokens: false }));
  const names = await page.$$eval('[data-role="tool-name"]', (es) => es.map((e) => e.textContent));
  assert.ok(names.length >= 1, `tool calls shown: ${names.length} (raw ${JSON.stringify(raw)})`);
  assert.equal(names[0], JSON.parse(/<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/.exec(raw)![1]!).name);
  assert.equal(await page.locator('[data-role="tool-error"]').count(), 0);
  assert.equal(await page.locator('[data-role="gen-think"]').count(), raw.includes('</think>') ? 1 : 0);
  // The generated tokens are chips of the sequence, marked as generated and coloured by segment.
  assert.equal(await page.locator('[data-role="step-tokens"] [data-step-index]').count(), T + n);
  // Stepping back after generating is a fork; discarding returns to the prompt.
  await press(page, 'ArrowLeft', T + n - 1);
  assert.equal(await cacheLength(page), T + n - 1);
  assert.match((await page.textContent('[data-role="actual-next"]')) ?? '', /Token the model generated next/);
  await page.click('[data-role="gen-back"]');
  await page.waitForFunction((t) => document.querySelector('[data-role="step-lab"]')!.getAttribute('data-length') === String(t), T);
  assert.equal(await attr(page, 'data-cursor'), String(T));
  assert.deepEqual(await cacheIds(page), expect.ids);
  await page.close();
  assert.deepEqual(errors, []);
});

test('Stop aborts a generation; the cache holds the prompt plus exactly the tokens made', async () => {
  const { page, errors, expect } = await open();
  await press(page, 'End', expect.T);
  await page.click('[data-gen-mode="greedy"]');
  await page.fill('[data-gen-field="maxNewTokens"]', '1024');
  // Click Stop from inside the page as soon as the third token is shown (before the model's end of turn).
  await page.evaluate(() => {
    const obs = new MutationObserver(() => {
      const b = document.querySelector<HTMLButtonElement>('[data-role="gen-stop"]');
      const made = Number(/^(\d+)/.exec(document.querySelector('[data-role="generation"] progress')?.getAttribute('value') ?? '')?.[1] ?? 0);
      if (b && made >= 3) {
        b.click();
        obs.disconnect();
      }
    });
    obs.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  await page.click('[data-role="gen-start"]');
  await page.waitForSelector('[data-role="gen-status"]', { timeout: 60_000 });
  assert.equal(await page.$eval('[data-role="gen-status"]', (e) => e.getAttribute('data-stopped')), 'aborted');
  const made = Number(await attr(page, 'data-length')) - expect.T;
  assert.ok(made >= 3 && made < expect.greedy.length, `${made} tokens`);
  assert.equal(await cacheLength(page), expect.T + made);
  assert.deepEqual(await cacheIds(page), [...expect.ids, ...expect.greedy.slice(0, made)]);
  await page.close();
  assert.deepEqual(errors, []);
});

test('the Chinese interface', async () => {
  const { page, errors, expect } = await open('zh');
  assert.equal(await page.textContent('[data-role="step-lab"] h2'), STRINGS['step.title'].zh);
  assert.equal(await page.textContent('[data-role="generation"] h3'), STRINGS['step.genTitle'].zh);
  assert.ok(((await page.textContent('[data-role="actual-next"]')) ?? '').includes(STRINGS['step.actualPrompt'].zh));
  assert.equal(await page.textContent('[data-role="view-header"] [data-fact="cache"] b'), `1 / ${expect.T}`);
  assert.ok(((await page.textContent('[data-role="strip-not-cached"]')) ?? '').includes('尚未缓存'));
  if (SHOTS) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SHOTS, 'helperC-zh-1280.png') });
  }
  await press(page, 'End', expect.T);
  assert.match((await page.textContent('[data-role="actual-next"]')) ?? '', /序列结束/);
  await page.close();
  assert.deepEqual(errors, []);
});
