// End-to-end: the exported app (npm run build → out/) in headless Chromium, served cross-origin
// isolated: the embedded model loads in the worker and the first heatmap is painted from its tensors.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeKvscopeAttention } from '../lib/io/attention/index';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { launchChromium } from './helpers/browser';
import { kvscope } from './helpers/cli';
import { serveStatic } from './helpers/staticServer';
import { resetAppStorage, savedStateText } from './helpers/appStorage';
import { STRINGS } from '../lib/i18n';
import { CATALOG } from '../lib/scenarios/catalog';
import { scenarioRequest } from '../lib/scenarios';
import { readModelDir } from '../lib/cli/modelDir';
import { nodeOrt } from '../lib/cli/ort';
import { createTokenizer } from '../lib/prompt/tokenizer';
import { buildPrompt } from '../lib/prompt/prompt';
import { runOf } from '../lib/agent/run';
import { ensureBuiltOut } from './helpers/staticBuild';
import { EngineSession } from '../lib/engine/session';
import { colourDomainMax, reduceHeads } from '../lib/analysis/attentionView';
import { DEFAULT_MIN_QUERY } from '../lib/analysis/sink';
import { makeScale, paintRgba, MASK_RGB, DEFAULT_GAMMA, type ColormapName } from '../lib/view/colormap';

let browser: Awaited<ReturnType<typeof launchChromium>>;
let server: Awaited<ReturnType<typeof serveStatic>>;

before(async () => {
  ensureBuiltOut();
  // test/fixtures is served beside the app for ?url= imports (loopback only).
  server = await serveStatic({ '/': 'out', '/fixtures/': 'test/fixtures' }, { isolated: true });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test('the app loads the embedded model in the worker and paints the Vancouver heatmap', async () => {
  const { page, errors } = await trackedPage();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(server.url + '/');
  await page.waitForSelector('[data-ready="true"]', { timeout: 60_000 });
  // The shown prompt is the last call as sent (411 tokens), as the inspector counts it; the whole
  // conversation (478, with the final answer) is one click away.
  assert.match((await page.textContent('#status')) ?? '', /411 tokens · call 2 of 2/);
  assert.equal(await page.textContent('[data-role="view-header"] [data-fact="tokens"] b'), '411');
  assert.equal(await page.getAttribute('[data-call="2"]', 'data-shown'), 'true');
  assert.match((await page.textContent('[data-call="2"]')) ?? '', /call 2: 411 tokens/);
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
  await page.click('[data-role="context-picker"] [data-context="all"]');
  await page.waitForSelector('#status[data-ready="true"][data-tokens="478"]');
  assert.match((await page.textContent('[data-role="view-header"] [data-fact="context"]')) ?? '', /whole conversation/);
  await page.click('[data-call="1"] [data-role="inspector-show"]');
  await page.waitForSelector('#status[data-ready="true"][data-tokens="268"]');
  assert.equal(await page.getAttribute('[data-call="1"]', 'data-shown'), 'true');
  await page.click('[data-role="context-picker"] [data-context="all"]');
  await page.waitForSelector('#status[data-ready="true"][data-tokens="478"]');
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

// ---- every scenario: the painted pixels are the engine's tensors --------------------------------------

/** The attention the page should show, computed here in Node by the same lib/ code path from the model folder. */
async function expectedAttention(request: ReturnType<typeof scenarioRequest>) {
  const model = readModelDir('public/models/kvscope-tiny');
  const tok = createTokenizer(model.tokenizerJson!, model.tokenizerConfig!);
  const prompt = buildPrompt(tok, request, { addGenerationPrompt: true });
  const engine = await EngineSession.create(nodeOrt(1), model.checkpoint, { graph: { logits: 'last', attention: 'full', presentKv: true } });
  const r = await engine.prefill(prompt.ids);
  await engine.dispose();
  return { T: prompt.ids.length, attention: r.attention };
}

/** The request the agent loop's last call sends (what the Attention tab shows by default). */
function lastCall(request: ReturnType<typeof scenarioRequest>) {
  return runOf(request).calls.at(-1)?.request ?? request;
}

/** Colour paintRgba gives one value (an independent route from the canvas: lib's painter on a 1×1 image). */
function colourOf(v: number, scale: ReturnType<typeof makeScale>, map: ColormapName): number[] {
  return [...paintRgba(Float32Array.of(v), 1, 1, scale, map, new Uint8ClampedArray(4)).subarray(0, 3)];
}

interface View {
  q0: number;
  k0: number;
  span: number;
}
const fitAllView = (T: number): View => ({ q0: 0, k0: 0, span: T });

/** The heatmap's window (rows q0…, columns k0…, span cells), as its canvas reports it. */
async function readView(page: Page): Promise<View> {
  const [q0, k0, span] = ((await page.getAttribute('canvas[data-role="heatmap"]', 'data-view')) ?? '').split(' ').map(Number);
  return { q0: q0!, k0: k0!, span: span! };
}

/** The canvas pixel at the centre of cell (q, k) for a window with at most one cell per pixel. */
async function cellPixel(page: Page, view: View, q: number, k: number): Promise<number[]> {
  return page.evaluate(
    ({ view, q, k }) => {
      const c = document.querySelector('canvas[data-role="heatmap"]') as HTMLCanvasElement;
      const x = Math.floor(((k + 0.5 - view.k0) * c.width) / view.span);
      const y = Math.floor(((q + 0.5 - view.q0) * c.height) / view.span);
      return [...c.getContext('2d')!.getImageData(x, y, 1, 1).data.subarray(0, 3)];
    },
    { view, q, k },
  );
}

/** A new page of the shared profile, collecting uncaught page errors (each test asserts there are none). */
async function trackedPage(): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, errors };
}

/** Opens the 北京 prompt (17 tokens) and makes an editable copy of it: the editor is then open. */
async function copyBeijing(page: Page) {
  await page.selectOption('[data-role="scenario-picker"] select', 'beijing');
  await page.waitForSelector('#status[data-ready="true"][data-tokens="17"]');
  await page.click('[data-role="scenario-copy"]');
  await page.waitForSelector('[data-role="request-editor"] textarea');
}

/** Opens the app with empty storage (the browser profile is shared by the tests in this file). */
async function openApp(page: Page) {
  await page.setViewportSize({ width: 1400, height: 1000 });
  await resetAppStorage(page, server.url);
  await page.goto(server.url + '/');
  await waitReady(page);
}

async function waitReady(page: Page) {
  await page.waitForSelector('#status[data-ready="true"]', { timeout: 90_000 });
}

test('every built-in scenario: token count and heatmap pixels match the attention computed in Node', async () => {
  const { page, errors } = await trackedPage();
  await openApp(page);
  for (const entry of CATALOG) {
    await page.selectOption('[data-role="scenario-picker"] select', entry.ref);
    // The page shows the last call of the scenario's agent loop, as that call sent it.
    const expected = await expectedAttention(lastCall(scenarioRequest(entry.id, entry.variant)));
    await page.waitForSelector(`#status[data-ready="true"][data-tokens="${expected.T}"]`, { timeout: 90_000 });
    const layer = 1;
    await page.selectOption('[data-control="layer"]', String(layer));
    await page.selectOption('[data-control="scale"]', 'linear');
    await page.waitForSelector(`#status[data-layer="${layer}"]`);
    const T = expected.T;
    const m = reduceHeads(expected.attention[layer]!, 'mean').data;
    const scale = makeScale({ kind: 'linear', gamma: DEFAULT_GAMMA, min: 0, max: colourDomainMax(m, T, T, DEFAULT_MIN_QUERY) });
    const width = await page.evaluate(() => (document.querySelector('canvas[data-role="heatmap"]') as HTMLCanvasElement).width);
    // Zoom in (keyboard, around the centre) until every cell is at least one pixel: then each pixel shows
    // exactly one cell, the one under its centre, and can be compared with the tensor.
    let view = fitAllView(T);
    for (let i = 0; i < 8 && view.span > width; i++) {
      await page.focus('[data-role="heatmap-region"]');
      await page.keyboard.press('+');
      await page.waitForFunction((v) => document.querySelector('canvas[data-role="heatmap"]')?.getAttribute('data-view') !== v, `${view.q0} ${view.k0} ${view.span}`);
      view = await readView(page);
    }
    assert.ok(view.span <= width, `${entry.ref}: zoomed to ${view.span} cells on ${width} px`);
    {
      const inView = (q: number, k: number): [number, number] => [Math.min(T - 1, Math.max(Math.ceil(view.q0), q)), Math.min(T - 1, Math.max(Math.ceil(view.k0), k))];
      const qs = [Math.ceil(view.q0), Math.floor(view.q0 + view.span / 2), Math.floor(view.q0 + view.span - 1)];
      const candidates: [number, number][] = [inView(qs[2]!, 0), inView(qs[1]!, qs[1]!), inView(qs[2]!, Math.floor(view.k0 + view.span / 3)), inView(qs[0]!, qs[0]!), [T - 1, T - 1]];
      const cells = candidates.filter(
        ([q, k]) => q >= view.q0 && q < view.q0 + view.span && k >= view.k0 && k < view.k0 + view.span && k <= q,
      );
      assert.ok(cells.length >= 3, `${entry.ref}: ${cells.length} unmasked cells in view`);
      for (const [q, k] of cells) {
        const got = await cellPixel(page, view, q, k);
        const want = colourOf(m[q * T + k]!, scale, 'viridis');
        const diff = Math.max(...got.map((g, i) => Math.abs(g - want[i]!)));
        // Tolerance: 3 of 255 per channel, i.e. about one colour-table step; WASM in Chromium and ORT in Node
        // agree to ~1e-6 in weight, which can still land in the neighbouring table entry.
        assert.ok(diff <= 3, `${entry.ref} cell (${q},${k}) weight ${m[q * T + k]}: pixel ${got} vs expected ${want}`);
      }
      const qm = Math.ceil(view.q0);
      const km = Math.floor(view.k0 + view.span - 1);
      if (km > qm) assert.deepEqual(await cellPixel(page, view, qm, km), [...MASK_RGB], `${entry.ref}: the future half is masked`);
    }
    await page.focus('[data-role="heatmap-region"]');
    await page.keyboard.press('0');
  }
  assert.deepEqual(errors, []);
  await page.close();
});

// ---- the JSON editor: inline errors, last good state kept ----------------------------------------------

test('custom scenario: an invalid edit shows the error at its line and keeps the last good views', async () => {
  const page = await browser.context.newPage();
  await openApp(page);
  await copyBeijing(page);
  await waitReady(page);
  assert.equal(await page.getAttribute('#status', 'data-tokens'), '17');
  // A role the validator does not know: the error names the field and sits on that line.
  const text = (await page.inputValue('[data-role="request-editor"] textarea')).replace('"user"', '"wizard"');
  await page.fill('[data-role="request-editor"] textarea', text);
  const err = page.locator('[data-role="editor-error"]').first();
  await err.waitFor();
  assert.match((await err.textContent()) ?? '', /messages\[0\]\.role/);
  const roleLine = text.split('\n').findIndex((l) => l.includes('"wizard"')) + 1;
  assert.equal(await err.getAttribute('data-line'), String(roleLine));
  assert.equal(await page.getAttribute('[data-role="editor-status"]', 'data-valid'), 'false');
  assert.match((await page.textContent('[data-role="editor-status"]')) ?? '', /last valid version/);
  // The views still show the last good version.
  assert.equal(await page.getAttribute('#status', 'data-ready'), 'true');
  assert.equal(await page.getAttribute('#status', 'data-tokens'), '17');
  // Broken JSON syntax: same, with a line and column.
  await page.fill('[data-role="request-editor"] textarea', text.replace('"wizard"', '"user",,'));
  await page.waitForFunction(() => /line \d+/.test(document.querySelector('[data-role="editor-error"]')?.textContent ?? ''));
  assert.equal(await page.getAttribute('#status', 'data-tokens'), '17');
  // A valid edit replaces the view: one more user message, more tokens.
  const edited = JSON.stringify({ messages: [{ role: 'user', content: '北京 的 天气 怎么样' }, { role: 'assistant', content: '晴。' }, { role: 'user', content: '明天呢？' }] }, null, 2);
  await page.fill('[data-role="request-editor"] textarea', edited);
  await page.waitForFunction(() => Number(document.querySelector('#status')?.getAttribute('data-tokens')) > 17 && document.querySelector('#status')?.getAttribute('data-ready') === 'true', null, { timeout: 60_000 });
  await page.close();
});

// ---- persistence across reloads and worker crashes -----------------------------------------------------

test('language, model, view settings and custom scenarios survive a reload and a worker crash', async () => {
  const { page, errors } = await trackedPage();
  await openApp(page);
  await page.click('button[data-lang="zh"]');
  await page.selectOption('[data-control="layer"]', '2');
  await page.selectOption('[data-control="colormap"]', 'magma');
  await page.selectOption('[data-role="scenario-picker"] select', 'xfinity:with-status');
  await page.waitForSelector('#status[data-ready="true"][data-tokens="667"]', { timeout: 60_000 });
  await page.click('[data-role="scenario-copy"]');
  await page.fill('[data-role="scenario-name"]', 'my xfinity');
  await page.selectOption('[data-role="model-picker"] select', 'kvscope-tiny-sink');
  await waitReady(page);

  await page.reload();
  await waitReady(page);
  assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
  assert.equal(await page.inputValue('[data-control="layer"]'), '2');
  assert.equal(await page.inputValue('[data-control="colormap"]'), 'magma');
  assert.equal(await page.inputValue('[data-role="model-picker"] select'), 'kvscope-tiny-sink');
  assert.equal(await page.inputValue('[data-role="scenario-name"]'), 'my xfinity');
  assert.equal(await page.getAttribute('#status', 'data-tokens'), '667');

  // Crash the engine worker: the client restarts it, the page re-runs, and nothing the user set is lost.
  const workers = page.workers();
  assert.ok(workers.length >= 1, 'the engine runs in a worker');
  for (const w of workers) await w.evaluate(() => setTimeout(() => { throw new Error('simulated crash'); }, 0)).catch(() => {});
  await page.waitForSelector('[data-role="worker-note"]', { timeout: 30_000 });
  await waitReady(page);
  assert.equal(await page.getAttribute('#status', 'data-tokens'), '667');
  assert.equal(await page.inputValue('[data-control="layer"]'), '2');
  assert.equal(await page.inputValue('[data-role="scenario-name"]'), 'my xfinity');
  assert.deepEqual(errors.filter((e) => !/simulated crash/.test(e)), []);
  await page.close();
});

// ---- the whole interface in 简体中文 --------------------------------------------------------------------

/**
 * English label text that cannot be mistaken for data: each entry's fixed parts between `{param}`s, when
 * they hold at least two words (single words such as "assistant" also occur in the scenarios' own text).
 */
function englishFragments(): string[] {
  const out = new Set<string>();
  for (const e of Object.values(STRINGS)) {
    if (e.en === e.zh) continue;
    for (const part of e.en.split(/\{\w+\}/)) {
      const p = part.trim();
      if (/[a-z]{2,} +[a-z]{2,}/i.test(p) && !e.zh.includes(p)) out.add(p);
    }
  }
  return [...out];
}

/** Visible text plus accessible names and titles, without the data itself (tokens, message contents). */
async function visibleLabels(page: Page): Promise<string> {
  return page.evaluate(() => {
    const clone = document.body.cloneNode(true) as HTMLElement;
    clone.querySelectorAll('[data-token-index], [data-role="message-text"], option').forEach((n) => n.remove());
    const attrs = [...clone.querySelectorAll('[aria-label], [title], [placeholder]')].map((n) => [n.getAttribute('aria-label'), n.getAttribute('title'), n.getAttribute('placeholder')].join(' '));
    return clone.innerText + '\n' + attrs.join('\n');
  });
}

test('switching to 简体中文 leaves no English label on the page', async () => {
  const page = await browser.context.newPage();
  await openApp(page);
  await page.click('button[data-lang="zh"]');
  await page.click('[data-token-index="3"]');
  const canvas = (await page.$('canvas[data-role="heatmap"]'))!;
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.7);
  const text = await visibleLabels(page);
  const left = englishFragments().filter((f) => text.includes(f));
  assert.deepEqual(left, [], 'English labels still visible in the Chinese interface');
  // The KV-cache tab too, once its panels have rendered.
  await page.click('button[data-tab="kv"]');
  await page.waitForSelector('[data-role="kv-result"]', { timeout: 60_000 });
  await page.waitForSelector('[data-role="think-summary"]', { timeout: 60_000 });
  const kvText = await visibleLabels(page);
  const kvLeft = englishFragments().filter((f) => kvText.includes(f));
  assert.deepEqual(kvLeft, [], 'English labels still visible in the Chinese KV tab');
  // The data tab (import box and the empty list).
  await page.click('button[data-tab="data"]');
  await page.waitForSelector('[data-role="data-lab"]');
  const dataText = await visibleLabels(page);
  const dataLeft = englishFragments().filter((f) => dataText.includes(f));
  assert.deepEqual(dataLeft, [], 'English labels still visible in the Chinese data tab');
  await page.click('button[data-tab="attention"]');
  assert.match(text, /注意力/);
  // Single-word labels too: the role chips and the layer control's label.
  for (const chip of await page.locator('[data-message-role]').allTextContents()) assert.match(chip, /[\u4e00-\u9fff]/, `role chip "${chip}"`);
  assert.match((await page.textContent('[data-role="attention-controls"]')) ?? '', /层/);
  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: 'test-results/app-zh.png', fullPage: true });
  await page.close();
});

// ---- a static copy on a server without COOP/COEP ------------------------------------------------------

test('without cross-origin isolation (a plain static host) the app still runs, on one thread', async () => {
  const plain = await serveStatic({ '/': 'out' }, { isolated: false });
  const { page, errors } = await trackedPage();
  try {
    await resetAppStorage(page, plain.url);
    await page.goto(plain.url + '/');
    assert.equal(await page.evaluate(() => crossOriginIsolated), false);
    await waitReady(page);
    assert.equal(await page.getAttribute('#status', 'data-tokens'), '411');
    assert.match((await page.textContent('[data-role="model-runtime"]')) ?? '', /wasm, 1 thread/);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    await plain.close();
  }
});

// ---- the KV-cache lab --------------------------------------------------------------------------------

test('KV lab: by default a one-token edit of the system prompt changes layer 0 only at that position (marked, not covered); consecutive calls share their prefix', async () => {
  const { page, errors } = await trackedPage();
  await openApp(page);
  await page.click('button[data-tab="kv"]');
  // Default: one word token of the system prompt (Vancouver's tokens 3…20) replaced in place, in the prompt
  // the Attention tab shows (the last call as sent).
  await page.waitForSelector('[data-role="kv-result"][data-source="edit"]', { timeout: 60_000 });
  const p = Number(await page.getAttribute('[data-role="kv-result"]', 'data-prefix'));
  const T = Number(await page.getAttribute('[data-role="kv-result"]', 'data-b-tokens'));
  assert.ok(p >= 3 && p < 21, `the default edit is in the system prompt (position ${p})`);
  assert.equal(await page.getAttribute('[data-role="kv-result"]', 'data-a-tokens'), String(T));
  // Layer 0 changes there only; every later layer changes at all T − p positions from p on.
  const facts = (await page.textContent('[data-role="kv-facts"]')) ?? '';
  assert.match(facts, new RegExp(`Layer 0: only position\\(s\\) ${p} changed \\(1\\)`));
  for (const l of [1, 2, 3]) assert.match(facts, new RegExp(`Layer ${l}: ${T - p} of ${T - p} positions`));
  assert.match(facts, new RegExp(`Positions 0…${p} − 1 are bit-identical`));
  // The changed layer-0 cell is visible: its marker is at p, at least 4 CSS px wide, and on top at its centre
  // (the end-of-prefix line runs under it). No helper functions in evaluate (tsx would wrap them in __name).
  const marker = await page.$eval('[data-role="kv-changed-marker"][data-map="k"][data-layer="0"]', (m) => {
    m.scrollIntoView({ block: 'center' });
    const r = m.getBoundingClientRect();
    return { position: m.getAttribute('data-position'), width: r.width, onTop: document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === m };
  });
  assert.equal(marker.position, String(p));
  assert.ok(marker.width >= 4, `marker ${marker.width} px wide`);
  assert.ok(marker.onTop, 'the marker is not covered');
  // The ΔK map is painted: the reused prefix (identical) and changed cells have different colours.
  const colours = await page.evaluate(() => {
    const c = document.querySelector('canvas[data-role="kv-diff-map"]') as HTMLCanvasElement;
    const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    // Row 2 = layer 2 (one canvas row per layer); column 0 = position 0 (reused), the last column changed.
    const p = (2 * c.width + 0) * 4;
    const q = (2 * c.width + c.width - 1) * 4;
    return { prefix: [d[p], d[p + 1], d[p + 2]].join(','), after: [d[q], d[q + 1], d[q + 2]].join(',') };
  });
  assert.equal(colours.prefix, '166,219,160');
  assert.notEqual(colours.after, colours.prefix);
  // A token that is not one vocabulary entry is refused at the field, and the last result stays.
  await page.fill('[data-control="kv-token"]', 'antidisestablishmentarianism');
  await page.waitForSelector('[role="alert"]:has-text("not a single token")');
  assert.equal(await page.getAttribute('[data-role="kv-result"]', 'data-prefix'), String(p));
  // One click to consecutive calls: call 2 continues call 1 (268 tokens), so all 268 positions are reused.
  await page.click('[data-control="kv-source"][data-source="calls"]');
  await page.waitForSelector('[data-role="kv-result"][data-source="calls"][data-prefix="268"]', { timeout: 60_000 });
  assert.match((await page.textContent('[data-role="kv-facts"]')) ?? '', /B continues A \(268 → 411 tokens\)/);
  assert.equal(await page.locator('[data-role="kv-changed-marker"]').count(), 0);
  // A pattern of experiment 2-3 on real tensors: dynamic_system's call 2 parts from call 1 inside the timestamp
  // (token 57, as `kvscope patterns` reports), so only the first 57 positions are reused.
  await page.click('[data-control="kv-source"][data-source="pattern"]');
  await page.waitForSelector('[data-role="kv-result"][data-prefix="57"]', { timeout: 60_000 });
  // The economics panels below are rendered by the worker's tokenizer: the correct mode's first call sends
  // the same 460 tokens that `kvscope patterns` counts, and the think drop breaks call 3.
  await page.waitForSelector('[data-role="pattern-calls-table"]', { timeout: 60_000 });
  assert.match((await page.textContent('[data-role="pattern-calls-table"]')) ?? '', /\b460\b/);
  await page.waitForSelector('[data-role="think-summary"]', { timeout: 60_000 });
  assert.match((await page.textContent('[data-role="think-summary"]')) ?? '', /188/);
  // Nothing on the tab scrolls sideways at the test's viewport.
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

// ---- stepping and generation ---------------------------------------------------------------------------

test('Step tab: opens at the start, steps forward (one extend) and back (fork) on the worker cache, End is ONE chunked extend, and greedy generation streams', async () => {
  const { page, errors } = await trackedPage();
  await openApp(page);
  await page.click('button[data-tab="step"]');
  // The tab opens at the start of the shown prompt: one token in the cache.
  await page.waitForSelector('[data-role="step-lab"][data-cursor="1"][data-idle="true"]', { timeout: 60_000 });
  const N = Number(await page.getAttribute('[data-role="step-lab"]', 'data-length'));
  assert.ok(N > 100, `${N} tokens`);
  const fact = (key: string) => page.textContent(`[data-role="step-lab"] [data-role="view-header"] [data-fact="${key}"] b`);
  assert.equal(await fact('tokens'), String(N));
  assert.equal(await fact('cache'), `1 / ${N}`);
  // The strip's axis is the cached part rounded up (at least 32 keys), not the whole prompt.
  assert.equal(await page.getAttribute('[data-role="attention-strip"]', 'data-domain'), '32');
  const op = async () => (await page.textContent('[data-role="step-op"]')) ?? '';
  await page.focus('[data-role="stepper"]');
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('[data-role="step-lab"][data-cursor="2"][data-idle="true"]');
  assert.match(await op(), /extend by 1 token/);
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector('[data-role="step-lab"][data-cursor="1"][data-idle="true"]');
  assert.match(await op(), /fork/);
  await page.keyboard.press('End');
  await page.waitForSelector(`[data-role="step-lab"][data-cursor="${N}"][data-idle="true"]`, { timeout: 60_000 });
  assert.match(await op(), new RegExp(`ONE chunked extend of ${N - 1} tokens`));
  assert.equal(await page.getAttribute('[data-role="attention-strip"]', 'data-domain'), String(N));
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector(`[data-role="step-lab"][data-cursor="${N - 1}"][data-idle="true"]`);
  assert.match(await op(), /fork/);
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector(`[data-role="step-lab"][data-cursor="${N}"][data-idle="true"]`);
  assert.match(await op(), /extend/);
  // The actual next token of position N − 1 is the last prompt token; top 5 are listed.
  assert.equal(await page.locator('[data-role="top-predictions"] tbody tr').count(), 5);
  await page.check('[data-gen-mode="greedy"]');
  await page.click('[data-role="gen-start"]');
  await page.waitForSelector('[data-role="gen-status"]', { timeout: 90_000 });
  await page.waitForFunction((n) => Number(document.querySelector('[data-role="step-lab"]')?.getAttribute('data-cursor')) > n, N, { timeout: 90_000 });
  assert.deepEqual(errors, []);
  await page.close();
});

// ---- the status-bar A/B ----------------------------------------------------------------------------------

test('A/B tab: shared-prefix rows are identical on the tensors, and the decisions over 5 seeds equal kvscope ab', async () => {
  const cli = await kvscope('ab', '--scenario', 'xfinity', '--seeds', '5', '--json');
  assert.equal(cli.code, 0, cli.stderr);
  const want = (JSON.parse(cli.stdout) as { arms: { arm: string; decisions: { call: number; refuse: number } }[] }).arms;
  const { page, errors } = await trackedPage();
  await openApp(page);
  await page.click('button[data-tab="ab"]');
  await page.waitForSelector('[data-role="ab-alignment"][data-shared-prefix="611"]', { timeout: 60_000 });
  await page.waitForSelector('[data-role="ab-shared"]', { timeout: 60_000 });
  assert.equal(await page.getAttribute('[data-role="ab-shared"]', 'data-bit-identical'), 'true');
  assert.equal(Number(await page.getAttribute('[data-role="ab-shared"]', 'data-max')), 0);
  // The region bars at the decision position come first; then A and B side by side over the same aligned keys.
  await page.waitForSelector('canvas[data-role="ab-map-B"]');
  assert.ok(await page.evaluate(() => Boolean(document.querySelector('[data-role="ab-bars-decision"]')!.compareDocumentPosition(document.querySelector('canvas[data-role="ab-map-A"]')!) & Node.DOCUMENT_POSITION_FOLLOWING)));
  assert.equal(await page.getAttribute('canvas[data-role="ab-map-A"]', 'data-keys'), await page.getAttribute('canvas[data-role="ab-map-B"]', 'data-keys'));
  await page.click('[data-control="ab-generate"]');
  await page.waitForSelector('[data-role="ab-tally"] tr[data-arm="B"]', { timeout: 180_000 });
  // Finished: the stop button is disabled again and each arm has all 5 seeds.
  await page.waitForFunction(
    () =>
      (document.querySelector('[data-control="ab-stop"]') as HTMLButtonElement | null)?.disabled === true &&
      [...document.querySelectorAll('[data-role="ab-tally"] tr[data-arm]')].every((r) => Number(r.getAttribute('data-call')) + Number(r.getAttribute('data-refuse')) === 5),
    null,
    { timeout: 180_000 },
  );
  for (const w of want) {
    const row = page.locator(`[data-role="ab-tally"] tr[data-arm="${w.arm}"]`);
    assert.deepEqual({ call: Number(await row.getAttribute('data-call')), refuse: Number(await row.getAttribute('data-refuse')) }, w.decisions, `arm ${w.arm}`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

// ---- share links ---------------------------------------------------------------------------------------------

test('a share link opens the same custom scenario and view as a new scenario in a fresh browser profile', async () => {
  const page = await browser.context.newPage();
  await openApp(page);
  await copyBeijing(page);
  const edited = JSON.stringify({ messages: [{ role: 'user', content: '上海 的 天气 怎么样' }] }, null, 2);
  await page.fill('[data-role="request-editor"] textarea', edited);
  // Accepted as the last good version (the text and the request both hold it in the saved state).
  for (let i = 0; (await savedStateText(page)).split('上海').length - 1 < 2; i++) {
    assert.ok(i < 100, 'the edited request reaches the saved state');
    await page.waitForTimeout(100);
  }
  await page.waitForSelector('#status[data-ready="true"]');
  await page.selectOption('[data-control="layer"]', '2');
  await page.click('[data-role="share-link"]');
  const note = (await page.locator('[data-role="share-note"]').textContent()) ?? '';
  const url = /https?:\/\/\S+#s=[\w-]+/.exec(note)?.[0];
  assert.ok(url, `a link in: ${note}`);
  const tokens = await page.getAttribute('#status', 'data-tokens');
  await page.close();

  // Another profile: nothing of the first one's storage.
  const other = await launchChromium();
  try {
    const p2 = await other.context.newPage();
    await p2.setViewportSize({ width: 1400, height: 1000 });
    await p2.goto(url!);
    await p2.waitForSelector('#status[data-ready="true"]', { timeout: 90_000 });
    assert.equal(await p2.getAttribute('#status', 'data-tokens'), tokens);
    assert.equal(await p2.inputValue('[data-control="layer"]'), '2');
    assert.match(await p2.inputValue('[data-role="scenario-name"]'), /\(shared\)|（/);
    assert.equal(JSON.parse(await p2.inputValue('[data-role="request-editor"] textarea')).messages[0].content, '上海 的 天气 怎么样');
    // The fragment is cleared, so a reload does not open the link again.
    assert.equal(new URL(p2.url()).hash, '');
  } finally {
    await other.close();
  }
});

// ---- bringing your own data: request bodies, run logs, attention files -----------------------------------

test('import: a pasted request body becomes a new scenario; invalid and hostile input changes nothing', async () => {
  const { page, errors } = await trackedPage();
  await openApp(page);
  const before = await page.inputValue('[data-role="scenario-picker"] select');
  await page.click('button[data-tab="data"]');
  // An invalid body: the error names the path; the current scenario stays.
  const bad = { messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"x": ' } }] }] };
  await page.fill('[data-role="paste-box"]', JSON.stringify(bad, null, 2));
  await page.click('[data-role="paste-import"]');
  await page.waitForSelector('[data-role="import-note"][data-kind="error"]');
  assert.match((await page.textContent('[data-role="import-note"]')) ?? '', /messages\[1\]\.tool_calls\[0\]\.function\.arguments: not valid JSON/);
  assert.equal(await page.inputValue('[data-role="scenario-picker"] select'), before);
  // The user may still open it in the editor, as a new scenario, to fix it there.
  await page.click('[data-role="open-anyway"]');
  await page.waitForSelector('[data-role="no-valid-note"]');
  assert.equal(await page.inputValue('[data-role="scenario-name"]'), 'pasted (imported)');
  assert.match((await page.textContent('[data-role="request-editor"]')) ?? '', /messages\[1\]\.tool_calls\[0\]\.function\.arguments/);
  await page.click('button[data-tab="data"]');
  // A valid body with fields the template ignores, and HTML in a message: a new scenario, rendered as text.
  const content = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> Weather in 北京?';
  const body = { model: 'gpt-4o', temperature: 0, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content }] };
  await page.fill('[data-role="paste-box"]', JSON.stringify(body));
  await page.fill('[data-role="paste-name"]', 'my agent');
  await page.click('[data-role="paste-import"]');
  await page.waitForSelector('[data-role="import-note"][data-kind="ok"]');
  await page.waitForSelector('#status[data-ready="true"]');
  const note = (await page.textContent('[data-role="import-note"]')) ?? '';
  assert.match(note, /my agent \(imported\)/);
  assert.match(note, /ignored top-level fields.*model, temperature/);
  assert.equal(await page.inputValue('[data-role="scenario-name"]'), 'my agent (imported)');
  assert.notEqual(await page.inputValue('[data-role="scenario-picker"] select'), before);
  // The same token count as the chat template gives in Node.
  const model = readModelDir('public/models/kvscope-tiny');
  const tok = createTokenizer(model.tokenizerJson!, model.tokenizerConfig!);
  const expected = buildPrompt(tok, { messages: body.messages as never }, { addGenerationPrompt: true }).ids.length;
  assert.equal(Number(await page.getAttribute('#status', 'data-tokens')), expected);
  assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  assert.equal(await page.locator('img[src="x"]').count(), 0);
  assert.match((await page.textContent('[data-role="message-inspector"]')) ?? '', /<img src=x/);
  // Importing the same body again selects the saved one instead of piling up copies.
  await page.click('button[data-tab="data"]');
  // The pasted text is still there after visiting another tab.
  assert.equal(await page.inputValue('[data-role="paste-box"]'), JSON.stringify(body));
  await page.click('[data-role="paste-import"]');
  await page.waitForFunction(() => /already saved/.test(document.querySelector('[data-role="import-note"]')?.textContent ?? ''));
  assert.equal(await page.locator('[data-role="scenario-picker"] option', { hasText: 'my agent' }).count(), 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('import: a run log by ?url= and an attention file by file picker; both survive a reload', async () => {
  const { page, errors } = await trackedPage();
  await openApp(page);
  await page.goto(server.url + '/?url=/fixtures/runlog/translation-single-agent.page.txt');
  await page.waitForSelector('[data-role="import-note"][data-kind="ok"]', { timeout: 60_000 });
  assert.match((await page.textContent('[data-role="import-note"]')) ?? '', /26 calls/);
  assert.equal(new URL(page.url()).search, '', 'the ?url= parameter is removed once imported');
  await page.waitForSelector('[data-role="runlog-view"]');
  assert.match((await page.textContent('[data-role="runlog-view"]')) ?? '', /94,355/);
  // A kvscope-attention .safetensors file (2 layers × 2 heads), chosen with the file picker.
  const T = 6;
  const layer = (l: number) => {
    const data = new Float32Array(2 * T * T).fill(NaN);
    for (let h = 0; h < 2; h++) for (let q = 0; q < T; q++) for (let k = 0; k <= q; k++) data[(h * T + q) * T + k] = 1 / (q + 1);
    return { layer: l, label: `layer ${l}`, heads: 2, queries: T, keys: T, data, queryPositions: [...Array(T).keys()] };
  };
  const bytes = writeKvscopeAttention({ source: 'kvscope-attention', tokens: ['<s>', 'a', ' b', '<script>x</script>', 'd', 'e'], layers: [layer(0), layer(5)], meta: { model: 'Big/Model-8B' }, notes: [], calls: [] }, 'safetensors');
  const dir = mkdtempSync(join(tmpdir(), 'kvscope-import-'));
  writeFileSync(join(dir, 'big model.safetensors'), bytes);
  await page.setInputFiles('[data-role="file-input"]', join(dir, 'big model.safetensors'));
  await page.waitForSelector('[data-role="imported-attention-view"]');
  assert.match((await page.textContent('[data-role="import-note"]')) ?? '', /6 tokens, 2 layer/);
  assert.equal(await page.locator('[data-role="import-list"] tr').count(), 2);
  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: 'test-results/app-data-attention.png', fullPage: true });
  // Reload: both imports are still listed (IndexedDB) and the selected one is shown again.
  await page.reload();
  await page.waitForSelector('[data-role="imported-attention-view"]', { timeout: 60_000 });
  assert.equal(await page.locator('[data-role="import-list"] tr').count(), 2);
  assert.deepEqual(await page.locator('[data-role="import-name"]').evaluateAll((xs) => xs.map((x) => (x as HTMLInputElement).value)), ['translation-single-agent.page', 'big model']);
  await page.click('[data-import-id] >> nth=0 >> [data-role="import-show"]');
  await page.waitForSelector('[data-role="runlog-view"]');
  await page.screenshot({ path: 'test-results/app-data-runlog.png', fullPage: true });
  // Deleting asks first, then removes it from storage.
  page.once('dialog', (d) => void d.accept());
  await page.click('[data-import-id] >> nth=1 >> [data-role="import-delete"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-role="import-list"] tr').length === 1);
  await page.reload();
  await page.waitForSelector('[data-role="import-list"] tr', { timeout: 60_000 });
  assert.equal(await page.locator('[data-role="import-list"] tr').count(), 1);
  // A rename is kept too (written on Enter), and the renamed log still opens.
  await page.fill('[data-role="import-name"]', 'translation run');
  await page.press('[data-role="import-name"]', 'Enter');
  // The write is asynchronous: wait until IndexedDB holds the new name before reloading.
  await page.waitForFunction(
    () =>
      new Promise<boolean>((resolve) => {
        const req = indexedDB.open('kvscope');
        req.onsuccess = () => {
          const get = req.result.transaction('importMeta').objectStore('importMeta').getAll();
          get.onsuccess = () => {
            resolve((get.result as { name: string }[]).some((m) => m.name === 'translation run'));
            req.result.close();
          };
        };
      }),
  );
  await page.reload();
  await page.waitForSelector('[data-role="import-list"] tr', { timeout: 60_000 });
  assert.equal(await page.inputValue('[data-role="import-name"]'), 'translation run');
  await page.click('[data-role="import-show"]');
  await page.waitForSelector('[data-role="runlog-view"]');
  // A URL that does not exist: a clear message, nothing changed.
  await page.goto(server.url + '/?url=/fixtures/nope.json');
  await page.waitForSelector('[data-role="import-note"][data-kind="error"]', { timeout: 60_000 });
  assert.match((await page.textContent('[data-role="import-note"]')) ?? '', /HTTP 404/);
  assert.equal(await page.locator('[data-role="import-list"] tr').count(), 1);
  assert.deepEqual(errors, []);
  rmSync(dir, { recursive: true, force: true });
  await page.close();
});
