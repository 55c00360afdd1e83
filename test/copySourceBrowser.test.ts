// The "copied from" line in headless Chromium (harness test/browser/copySourceHarness.ts: the real engine worker
// and the embedded kvscope-tiny model on the Vancouver conversation). Expected figures come from an independent
// run in Node (EngineSession, WASM): lib/analysis/copySource over that prefill's rows. The Step tab, with the
// cursor's row predicting a name token that occurs earlier, names the source position, layer, head and weight,
// outlines the source in the strip and the tokens, and its button moves the cursor there; a row whose next
// token does not occur earlier says so; after a greedy generation, the rows predicting generated tokens match a
// Node prefill of prompt + generated tokens. The Attention tab's heatmap does the same for a selected row and
// rings the source cell on the canvas. Screenshots (1280 × 800) go to test-results/.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { launchChromium, trackedPage } from './helpers/browser';
import { countColour } from './helpers/pixels';
import { serveStatic } from './helpers/staticServer';
import { readModelDir } from '../lib/cli/modelDir';
import { nodeOrt } from '../lib/cli/ort';
import { EngineSession } from '../lib/engine/session';
import { copySource, copySourceOfRun, type CopySource } from '../lib/analysis/copySource';
import { attentionRow } from '../lib/generate/stepper';
import { buildPrompt } from '../lib/prompt/prompt';
import { displayToken } from '../lib/prompt/label';
import { createTokenizer } from '../lib/prompt/tokenizer';
import { scenarioRequest } from '../lib/scenarios';
import { COPY_MARK, offsetFigures, type OffsetFigures } from '../lib/view/copySource';
import type { Tensor } from '../lib/tensor';

const SHOTS = 'test-results';
const dir = mkdtempSync(join(tmpdir(), 'kvscope-copysource-'));
let browser: Awaited<ReturnType<typeof launchChromium>>;
let server: Awaited<ReturnType<typeof serveStatic>>;

// The independent run: the same prompt built in Node, prefilled by the Node engine.
const model = readModelDir('public/models/kvscope-tiny');
const tok = createTokenizer(model.tokenizerJson, model.tokenizerConfig);
const engine = await EngineSession.create(nodeOrt(), model.checkpoint, { graph: { logits: 'all', attention: 'full', attentionRows: 'all', presentKv: true } as const });
const prompt = buildPrompt(tok, scenarioRequest('vancouver'), { addGenerationPrompt: true });
const ids = prompt.ids;
const T = ids.length;
const labels = prompt.tokens.map(displayToken);
const full = await engine.prefill(ids);
const H = full.attention[0]!.dims[0]!;

/** copySource of row q of a full prefill, and the gap between the best weight and the next (layer, head, occurrence). */
function expectAt(attention: Tensor[], seq: readonly number[], q: number): { c: CopySource; margin: number } {
  const rows = attention.map((a) => attentionRow(a, q, q + 1));
  const c = copySource(rows, H, q, seq, seq[q + 1]!);
  const ws = rows.flatMap((r) => Array.from({ length: H }, (_, h) => c.occurrences.map((j) => r[h * (q + 1) + j]!)).flat()).sort((a, b) => b - a);
  return { c, margin: ws.length > 1 ? ws[0]! - ws[1]! : Infinity };
}

const word = (l: string) => /^␣?[A-Za-z]{3,}$/.test(l);
// A row predicting a word that occurs earlier, where a head attends to the occurrence most, far above uniform
// and clear of the runner-up: the strongest such.
let found: { q: number; c: CopySource } | null = null;
// A row (past the first message) predicting a word that does not occur earlier.
let none: number | null = null;
for (let q = 1; q < T - 1; q++) {
  if (!word(labels[q + 1]!)) continue;
  const { c, margin } = expectAt(full.attention, ids, q);
  if (!c.best) {
    if (none === null && q > 20) none = q;
    continue;
  }
  if (c.bestIsHeadArgmax && margin > 1e-3 && (!found || c.best.weight / c.uniform > found.c.best!.weight / found.c.uniform)) found = { q, c };
}

// A row whose line adds an offset reading (a head attending most a few positions after the occurrence, as the
// copy heads of training run 7's models do: docs/CONCEPTS.md#copy-source) in the Attention tab, which searches every
// layer: the strongest such, with its carrier from the layers below.
let offsetRow: { q: number; f: OffsetFigures; weight: number } | null = null;
for (let q = 1; q < T - 1; q++) {
  const rc = copySourceOfRun(full.attention, full.attention.map((_, l) => l), q, ids);
  const f = rc && offsetFigures(rc, rc.carrier);
  if (f && (!offsetRow || rc.offsetReading!.weight > offsetRow.weight)) offsetRow = { q, f, weight: rc.offsetReading!.weight };
}

before(async () => {
  await build({ entryPoints: ['test/browser/copySourceHarness.ts'], bundle: true, format: 'esm', outfile: join(dir, 'harness.js'), logLevel: 'error', define: { 'process.env.NODE_ENV': '"production"' } });
  await build({ entryPoints: ['workers/engine.worker.ts'], bundle: true, format: 'esm', outfile: join(dir, 'engine.worker.js'), logLevel: 'error' });
  copyFileSync('app/globals.css', join(dir, 'globals.css'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><link rel="stylesheet" href="globals.css"><body style="margin:12px 20px"><script type="module" src="harness.js"></script>',
  );
  server = await serveStatic({ '/ort/': 'node_modules/onnxruntime-web/dist', '/models/': 'public/models', '/': dir }, { isolated: true });
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await server?.close();
  engine.dispose();
  rmSync(dir, { recursive: true, force: true });
});

async function open(mode: 'step' | 'heatmap', lang = 'en', size = { width: 1280, height: 800 }): Promise<{ page: Page; errors: string[] }> {
  const { page, errors } = await trackedPage(browser.context);
  await page.setViewportSize(size);
  await page.goto(`${server.url}/index.html?mode=${mode}&lang=${lang}&scenario=vancouver`);
  await page.waitForFunction(() => (self as unknown as { __ids?: unknown; __harnessError?: string }).__ids || (self as unknown as { __harnessError?: string }).__harnessError, null, { timeout: 60_000 });
  const err = await page.evaluate(() => (self as unknown as { __harnessError?: string }).__harnessError);
  assert.equal(err, undefined, err);
  assert.deepEqual(await page.evaluate(() => (self as unknown as { __ids: number[] }).__ids), ids, 'the page renders the prompt Node built');
  return { page, errors };
}

const lab = '[data-role="step-lab"]';
const panel = '[data-role="copy-source"]';
const attr = (page: Page, sel: string, name: string) => page.$eval(sel, (e, n) => e.getAttribute(n) ?? '', name);

/** Waits until the Step tab is idle with `cursor` tokens cached. */
async function idleAt(page: Page, cursor: number): Promise<void> {
  await page.waitForFunction(
    ([sel, c]) => {
      const e = document.querySelector(sel!);
      return !!e && e.getAttribute('data-cursor') === c && e.getAttribute('data-idle') === 'true';
    },
    [lab, String(cursor)],
    { timeout: 30_000 },
  );
}

/** Moves the Step tab's cursor with its slider (one chunked extend or one fork). */
async function moveTo(page: Page, cursor: number): Promise<void> {
  await page.$eval(
    '[data-control="cursor"]',
    (e, v) => {
      const input = e as HTMLInputElement;
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, String(v));
      input.dispatchEvent(new Event('input', { bubbles: true }));
    },
    cursor,
  );
  await idleAt(page, cursor);
}

/** The panel names what `c` says (source, layer, head; the weight within 1e-4 of the Node run's). */
async function checkFound(page: Page, c: CopySource, what: string): Promise<void> {
  assert.equal(await attr(page, panel, 'data-state'), 'found', what);
  assert.equal(Number(await attr(page, panel, 'data-row')), c.row, what);
  assert.equal(Number(await attr(page, panel, 'data-source')), c.best!.position, `${what}: source position`);
  assert.equal(Number(await attr(page, panel, 'data-layer')), c.best!.layer, `${what}: layer`);
  assert.equal(Number(await attr(page, panel, 'data-head')), c.best!.head, `${what}: head`);
  const w = Number(await attr(page, panel, 'data-weight'));
  assert.ok(Math.abs(w - c.best!.weight) < 1e-4, `${what}: weight ${w} vs ${c.best!.weight}`);
  assert.equal(await attr(page, panel, 'data-argmax'), String(c.bestIsHeadArgmax), what);
}

test('the Node run has a copied name and a token that does not occur earlier to show', () => {
  assert.ok(found, 'a row predicting an earlier word with a head attending there most');
  assert.ok(none !== null, 'a row predicting a word that does not occur earlier');
});

test('Step tab: the panel names the source Node computes, outlines it in the strip and the tokens, goes there; "does not occur" otherwise', async () => {
  const { page, errors } = await open('step');
  await idleAt(page, 1);
  // Row 0 predicts token 1: nothing before it.
  await page.waitForSelector(panel);
  assert.equal(await attr(page, panel, 'data-state'), 'none');

  const { q, c } = found!;
  await moveTo(page, q + 1);
  await checkFound(page, c, `row ${q} predicting ${labels[q + 1]}`);
  const src = c.best!.position;
  const text = (await page.textContent(panel)) ?? '';
  assert.ok(text.includes(`«${labels[q + 1]}» (position ${q + 1}) → position ${src}`), text);
  assert.match(text, new RegExp(`layer ${c.best!.layer} · head ${c.best!.head} · weight 0\\.\\d+`));
  assert.match(text, /×\d+(\.\d+)? above uniform/);
  assert.match(text, /this head attends here most/);
  assert.match(text, /searched: all 4 layers × 4 heads/);
  // The source in its context (its own chip outlined), in the strip (canvas attribute, its label bold red) and the tokens.
  assert.equal(await page.$eval(`[data-copy-context="${src}"]`, (e) => e.textContent), labels[src]);
  assert.equal(await attr(page, '[data-role="attention-strip"]', 'data-copy-source'), String(src));
  assert.equal(await page.$eval(`[data-role="step-tokens"] [data-step-index="${src}"]`, (e) => e.getAttribute('data-copy-source')), 'true');
  assert.equal(await page.locator('[data-role="step-tokens"] [data-copy-source="true"]').count(), 1);
  const fill = await page.$eval(`[data-role="strip-labels"] [data-key="${src}"]`, (e) => e.getAttribute('fill')).catch(() => null);
  if (fill !== null) assert.equal(fill.toLowerCase(), COPY_MARK.toLowerCase());
  await page.waitForTimeout(200);
  await page.screenshot({ path: join(SHOTS, 'copy-source-step-1280.png') });
  const png = await page.screenshot({ clip: (await (await page.$('[data-role="attention-strip"]'))!.boundingBox())! });
  assert.ok((await countColour(page, png, COPY_MARK, 30)) > 20, 'the source column is outlined in the strip');

  // The button moves the cursor so that the query is the source token.
  await page.click('[data-role="copy-goto"]');
  await idleAt(page, src + 1);

  // A word that does not occur earlier.
  await moveTo(page, none! + 1);
  assert.equal(await attr(page, panel, 'data-state'), 'none');
  assert.ok(((await page.textContent(panel)) ?? '').includes(`«${labels[none! + 1]}» (position ${none! + 1}) does not occur earlier in the context (positions 1–${none})`));
  assert.equal(await attr(page, '[data-role="attention-strip"]', 'data-copy-source'), '');
  assert.equal(await page.locator('[data-role="step-tokens"] [data-copy-source="true"]').count(), 0);
  await page.screenshot({ path: join(SHOTS, 'copy-source-step-none-1280.png') });

  // The end of the sequence: the query predicts nothing of it.
  await page.focus('[data-role="stepper"]');
  await page.keyboard.press('End');
  await idleAt(page, T);
  assert.equal(await attr(page, panel, 'data-state'), 'end');
  await page.close();
  assert.deepEqual(errors, []);
});

test('Step tab: rows predicting generated tokens show the copy source of a Node prefill of prompt + generated tokens', async () => {
  const { page, errors } = await open('step');
  await idleAt(page, 1);
  await page.focus('[data-role="stepper"]');
  await page.keyboard.press('End');
  await idleAt(page, T);
  await page.click('[data-gen-mode="greedy"]');
  await page.fill('[data-gen-field="maxNewTokens"]', '16');
  await page.click('[data-role="gen-start"]');
  await page.waitForSelector('[data-role="gen-status"]', { timeout: 60_000 });
  const N = Number(await attr(page, lab, 'data-length'));
  assert.ok(N > T + 3, `${N - T} tokens generated`);
  const seq = await page.evaluate(() => (self as unknown as { __client: { ids: number[] } }).__client.ids);
  assert.equal(seq.length, N);
  await idleAt(page, N);
  const gen = await engine.prefill(seq);
  let shown = 0;
  for (let cursor = N - 1; cursor >= T; cursor--) {
    await page.focus('[data-role="stepper"]');
    await page.keyboard.press('ArrowLeft');
    await idleAt(page, cursor);
    // Row cursor − 1 predicts the generated token at the cursor.
    const { c, margin } = expectAt(gen.attention, seq, cursor - 1);
    const what = `generated token at ${cursor}`;
    if (!c.best) {
      assert.equal(await attr(page, panel, 'data-state'), 'none', what);
      continue;
    }
    if (margin < 1e-4) continue; // a near tie: the stepped rows may order it either way
    await checkFound(page, c, what);
    if (shown === 0) await page.screenshot({ path: join(SHOTS, 'copy-source-step-generated-1280.png') });
    shown++;
  }
  assert.ok(shown > 0, 'at least one generated token occurs earlier (JSON punctuation, the tool name)');
  await page.close();
  assert.deepEqual(errors, []);
});

test('Attention tab: the selected row’s line matches Node, the source cell is ringed on the canvas; hint, none and last-row states', async () => {
  const { page, errors } = await open('heatmap', 'en', { width: 1280, height: 900 });
  await page.waitForSelector('canvas[data-role="heatmap"][data-painted]');
  assert.equal(await attr(page, panel, 'data-state'), 'select');
  const { q, c } = found!;
  await page.evaluate((r) => (self as unknown as { __select: (q: number) => void }).__select(r), q);
  await page.waitForSelector(`${panel}[data-state="found"]`);
  await checkFound(page, c, `selected row ${q}`);
  assert.match((await page.textContent(panel)) ?? '', new RegExp(`ringed in the heatmap \\(row ${q}, key ${c.best!.position}\\)`));
  assert.equal(await attr(page, 'canvas[data-role="heatmap"]', 'data-copy-mark'), `${q} ${c.best!.position}`);
  // The ring: COPY_MARK pixels within a few px of the cell (the matrix fills the canvas at the full view).
  const box = (await (await page.$('canvas[data-role="heatmap"]'))!.boundingBox())!;
  const cell = box.width / T;
  const cx = box.x + (c.best!.position + 0.5) * cell;
  const cy = box.y + (q + 0.5) * cell;
  const near = await page.screenshot({ clip: { x: cx - 12, y: cy - 12, width: 24, height: 24 } });
  assert.ok((await countColour(page, near, COPY_MARK, 30)) > 15, 'a ring around the source cell');
  await page.screenshot({ path: join(SHOTS, 'copy-source-heatmap.png') });

  // The offset reading and its carrier, as Node computes them.
  assert.ok(offsetRow, 'a row of the Vancouver prompt is read at an offset');
  const o = offsetRow!;
  await page.evaluate((r) => (self as unknown as { __select: (q: number) => void }).__select(r), o.q);
  await page.waitForSelector(`${panel}[data-row="${o.q}"] [data-role="copy-offset"]`);
  const off = '[data-role="copy-offset"]';
  assert.deepEqual(
    [await attr(page, off, 'data-layer'), await attr(page, off, 'data-head'), await attr(page, off, 'data-position'), await attr(page, off, 'data-offset')].map(Number),
    [o.f.layer, o.f.head, o.f.position, o.f.offset],
    `row ${o.q}: the offset reading`,
  );
  assert.match((await page.textContent(off)) ?? '', new RegExp(`${o.f.offset} after the occurrence at ${o.f.occurrence}: layer ${o.f.layer} · head ${o.f.head} attends most to position ${o.f.position}`));
  if (o.f.carrier) {
    const car = '[data-role="copy-carrier"]';
    assert.deepEqual([await attr(page, car, 'data-layer'), await attr(page, car, 'data-head'), await attr(page, car, 'data-top')], [String(o.f.carrier.layer), String(o.f.carrier.head), String(o.f.carrier.top)]);
  }
  await page.screenshot({ path: join(SHOTS, 'copy-source-heatmap-offset.png') });

  await page.evaluate((r) => (self as unknown as { __select: (q: number) => void }).__select(r), none!);
  await page.waitForSelector(`${panel}[data-state="none"]`);
  assert.match((await page.textContent(panel)) ?? '', /does not occur earlier in the context/);
  assert.equal(await attr(page, 'canvas[data-role="heatmap"]', 'data-copy-mark'), '');
  await page.evaluate((r) => (self as unknown as { __select: (q: number) => void }).__select(r), T - 1);
  await page.waitForSelector(`${panel}[data-state="lastRow"]`);
  await page.close();
  assert.deepEqual(errors, []);
});

test('the Chinese interface', async () => {
  const { page, errors } = await open('step', 'zh');
  await idleAt(page, 1);
  await moveTo(page, found!.q + 1);
  const text = (await page.textContent(panel)) ?? '';
  assert.ok(text.includes('从哪里复制？'), text);
  assert.ok(text.includes(`→ 位置 ${found!.c.best!.position}`), text);
  await page.screenshot({ path: join(SHOTS, 'copy-source-step-zh-1280.png') });
  await page.close();
  assert.deepEqual(errors, []);
});
