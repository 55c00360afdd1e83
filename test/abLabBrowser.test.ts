// The A/B tab (components/ab/AbLab.tsx) in headless Chromium on the real engine worker and the embedded model
// (harness test/browser/abHarness.ts): what the page shows is what lib/ computes from the same model in
// Node — the shared prefix, the shared-row identity, the painted pixels of A, B and B − A over the aligned
// keys (and the difference view's range, recomputed here from the tensors), the region masses at the
// decision position (also for a region the user marks), the decisions and generated-token masses per
// seed — and the stop button stops generation. Also the layout a teacher sees first at 1280×800: the
// region bars above the fold and before the maps, no horizontal overflow at 1280 or 1024 px (screenshots
// in /tmp/helperB-*.png, or $KVSCOPE_SHOTS when set).
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { launchChromium, trackedPage } from './helpers/browser';
import { serveStatic } from './helpers/staticServer';
import { alignArms, rangeRegion, regionMasses, regionMassesOverRows, sharedRowsDiff } from '../lib/analysis/abCompare';
import { generatedTargets, regionsForRef, withUserRanges } from '../lib/analysis/abArms';
import { reduceHeads } from '../lib/analysis/attentionView';
import { readModelDir } from '../lib/cli/modelDir';
import { nodeOrt } from '../lib/cli/ort';
import { EngineSession } from '../lib/engine/session';
import type { Tensor } from '../lib/tensor';
import { runSeeds } from '../lib/generate/abSeeds';
import { decodeIds } from '../lib/prompt/assistantOutput';
import { parseGenerationConfig } from '../lib/generate/sampling';
import { STRINGS } from '../lib/i18n';
import { abStrings } from '../lib/i18n/ab';
import { buildPrompt, type Prompt } from '../lib/prompt/prompt';
import { createTokenizer } from '../lib/prompt/tokenizer';
import { scenarioRequest } from '../lib/scenarios/index';
import { alignAxis, alignedBlock, diffBlock, finiteMax, HATCH_INK_RGB, HATCH_RGB, onHatch } from '../lib/view/abRaster';
import { lutIndex, makeScale, MASK_RGB, sampleColormap } from '../lib/view/colormap';
import { divergingRgb, makeDivergingScale } from '../lib/view/diverging';
import { paletteCss } from '../lib/view/palette';
import { poolSpan } from '../lib/view/raster';
import { CUSTOM } from './browser/abCustom';

const dir = mkdtempSync(join(tmpdir(), 'kvscope-ab-'));
let browser: Awaited<ReturnType<typeof launchChromium>>;
let server: Awaited<ReturnType<typeof serveStatic>>;

interface ArmRef {
  prompt: Prompt;
  attention: Tensor[];
}
let arms: { A: ArmRef; B: ArmRef };
const model = readModelDir('public/models/kvscope-tiny');
const tok = createTokenizer(model.tokenizerJson!, model.tokenizerConfig!);

before(async () => {
  await build({
    entryPoints: ['test/browser/abHarness.ts'],
    bundle: true,
    format: 'esm',
    outfile: join(dir, 'harness.js'),
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
  await build({ entryPoints: ['workers/engine.worker.ts'], bundle: true, format: 'esm', outfile: join(dir, 'engine.worker.js'), logLevel: 'error' });
  // The page's stylesheet and palette, so that the harness lays out (and screenshots) as the app does.
  copyFileSync('app/globals.css', join(dir, 'globals.css'));
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><link rel="stylesheet" href="globals.css"><style>${paletteCss()}</style><body style="margin:12px 20px"><script type="module" src="harness.js"></script>`,
  );
  server = await serveStatic({ '/ort/': 'node_modules/onnxruntime-web/dist', '/models/': 'public/models', '/': dir }, { isolated: false });
  browser = await launchChromium();
  // The same two prefills in Node, from the same model files, through the same WASM backend.
  const engine = await EngineSession.create(nodeOrt(1), model.checkpoint, { graph: { logits: 'last', attention: 'full', presentKv: true } });
  const one = async (variant: string): Promise<ArmRef> => {
    const prompt = buildPrompt(tok, scenarioRequest('xfinity', variant), { addGenerationPrompt: true });
    const r = await engine.prefill(prompt.ids);
    return { prompt, attention: r.attention.map((t) => ({ data: t.data.slice(), dims: [...t.dims] })) };
  };
  arms = { A: await one('without-status'), B: await one('with-status') };
  await engine.dispose();
});
after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(lang = 'en', viewport = { width: 1400, height: 1000 }, chrome = 0): Promise<{ page: Page; errors: string[] }> {
  const { page, errors } = await trackedPage(browser.context);
  await page.setViewportSize(viewport);
  await page.goto(`${server.url}/index.html?lang=${lang}&chrome=${chrome}`);
  await page.waitForSelector('[data-role="ab-lab"][data-ready="true"]', { timeout: 60_000 });
  return { page, errors };
}

const attr = (page: Page, sel: string, name: string) => page.$eval(sel, (e, n) => e.getAttribute(n as string) ?? '', name);

/** RGB of backing-store pixel (x, y) of a canvas. */
function pixel(page: Page, selector: string, x: number, y: number): Promise<number[]> {
  return page.$eval(selector, (c, [x, y]) => Array.from((c as HTMLCanvasElement).getContext('2d')!.getImageData(x!, y!, 1, 1).data.slice(0, 3)), [x, y]);
}
const near = (a: number[], b: readonly number[], tol: number) => a.every((v, i) => Math.abs(v - b[i]!) <= tol);

/** Region masses the page shows in one bars panel: id → [A, B] (NaN where absent). */
async function bars(page: Page, role: string): Promise<Map<string, [number, number]>> {
  const rows = await page.$$eval(`[data-role="${role}"] g[data-region]`, (gs) => gs.map((g) => [g.getAttribute('data-region')!, g.getAttribute('data-a')!, g.getAttribute('data-b')!] as const));
  return new Map(rows.map(([id, a, b]) => [id, [a === '' ? NaN : Number(a), b === '' ? NaN : Number(b)]]));
}

test('built-in pair: alignment, shared rows, painted rows and difference, masses and a user region as lib/ computes them', async () => {
  const { page, errors } = await open();
  const al = alignArms(arms.A.prompt, arms.B.prompt);
  const P = al.sharedPrefix;
  assert.equal(Number(await attr(page, '[data-role="ab-alignment"]', 'data-shared-prefix')), P);
  assert.ok(await page.$('[data-role="ab-imstart-note"]'), 'the <|im_start|> note: token P − 1 opens A’s generation prompt and B’s status message');
  // Shared rows: the page's measurement agrees with the same measurement in Node.
  const shared = sharedRowsDiff(arms.A.attention, arms.B.attention, P);
  assert.equal(await attr(page, '[data-role="ab-shared"]', 'data-bit-identical'), String(shared.bitIdentical));
  const pageMax = Number(await attr(page, '[data-role="ab-shared"]', 'data-max'));
  assert.ok(Math.abs(pageMax - shared.max) < 1e-6, `page ${pageMax}, node ${shared.max}`);
  assert.equal(await page.locator('[data-role="ab-shared-table"] tbody tr[data-layer]').count(), arms.A.attention.length);

  // The maps: A, B and B − A over one aligned axis. Recomputed here from the ids: the shared prefix, then
  // the tokens only one arm has, then the common suffix of the two tails (the generation prompt).
  const Ta = arms.A.prompt.ids.length;
  const Tb = arms.B.prompt.ids.length;
  let S = 0;
  while (S < Ta - P && S < Tb - P && arms.A.prompt.ids[Ta - 1 - S] === arms.B.prompt.ids[Tb - 1 - S]) S++;
  assert.equal(S, 2, 'A’s tail (assistant ↵) is the end of B’s');
  const K = P + (Ta - P - S) + (Tb - P - S) + S;
  for (const role of ['ab-map-A', 'ab-map-B', 'ab-map-diff']) assert.equal(Number(await attr(page, `canvas[data-role="${role}"]`, 'data-keys')), K, role);
  // Default rows: every row after the shared prefix (B's status message, both decision rows) and 8 shared rows.
  const rows = K - P + 8;
  assert.equal(Number(await attr(page, 'canvas[data-role="ab-map-A"]', 'data-rows')), rows);
  assert.equal(Number(await attr(page, 'canvas[data-role="ab-map-B"]', 'data-rows')), rows);
  const ax = alignAxis(arms.A.prompt.ids, arms.B.prompt.ids, P);
  assert.equal(ax.length, K);
  const from = K - rows;
  const L = arms.A.attention.length;
  const redA = reduceHeads(arms.A.attention[L - 1]!, 'mean').data;
  const redB = reduceHeads(arms.B.attention[L - 1]!, 'mean').data;
  const cellsA = alignedBlock(redA, Ta, ax, 'a', from, rows);
  const cellsB = alignedBlock(redB, Tb, ax, 'b', from, rows);
  const scale = makeScale({ kind: 'power', min: 0, max: Math.max(finiteMax(cellsA), finiteMax(cellsB)), gamma: 0.5 });
  const size = await page.$eval('canvas[data-role="ab-map-B"]', (c) => [(c as HTMLCanvasElement).width, (c as HTMLCanvasElement).height]);
  const [W, Hpx] = size as [number, number];
  /** The cells pixel (x, y) covers: rows and keys by lib/view/raster poolSpan. */
  const cover = (x: number, y: number) => ({ r: poolSpan(y, rows, Hpx), k: poolSpan(x, K, W) });
  const xOfKey = (k: number) => Math.floor(((k + 0.5) / K) * W);
  const yOfRow = (r: number) => Math.floor(((r + 0.5) / rows) * Hpx);
  /** Largest finite value under pixel (x, y) of a block. */
  const pooled = (block: Float32Array, x: number, y: number, abs = false) => {
    const { r, k } = cover(x, y);
    let best = NaN;
    for (let i = r[0]; i < r[1]; i++)
      for (let j = k[0]; j < k[1]; j++) {
        const v = block[i * K + j]!;
        if (Number.isNaN(v)) continue;
        if (Number.isNaN(best) || (abs ? Math.abs(v) > Math.abs(best) : v > best)) best = v;
      }
    return best;
  };
  const lutNear = (got: number[], v: number) => {
    // One LUT step of slack: the two engines' weights may differ in the last float bits.
    const idx = lutIndex(scale.norm(v));
    return [idx - 1, idx, idx + 1].some((i) => near(got, sampleColormap('viridis', (Math.max(0, Math.min(255, i)) + 0.5) / 256), 0));
  };
  const onlyB = ax.zones.find((z) => z.kind === 'onlyB')!;
  const status = arms.B.prompt.spans.find((sp) => sp.segment === 'status_bar')!;
  const statusCol = [...ax.b].indexOf(status.start + 3);
  // B's decision row (the last) on the sink, on a status-bar key, on a shared key; a status-bar row; a shared row.
  for (const [r, k] of [[rows - 1, 0], [rows - 1, statusCol], [rows - 1, 300], [20, statusCol - 2], [2, 100]] as const) {
    const x = xOfKey(k);
    const y = yOfRow(r);
    const got = await pixel(page, 'canvas[data-role="ab-map-B"]', x, y);
    const v = pooled(cellsB, x, y);
    if (Number.isNaN(v)) assert.deepEqual(got, [...MASK_RGB], `B row ${r} key ${k} masked`);
    else assert.ok(lutNear(got, v), `B row ${r} key ${k}: ${got} vs ${v}`);
  }
  // A lacks B's status message: its columns and rows are hatched in A's map (absent, not 0 and not masked).
  for (const [x, y] of [[xOfKey(statusCol), yOfRow(rows - 1)], [xOfKey(statusCol) + 1, yOfRow(rows - 1)], [xOfKey(50), yOfRow(20)], [xOfKey(50) + 1, yOfRow(20)]] as const) {
    const got = await pixel(page, 'canvas[data-role="ab-map-A"]', x, y);
    assert.deepEqual(got, [...(onHatch(x, y) ? HATCH_INK_RGB : HATCH_RGB)], `A (${x}, ${y}) hatched`);
  }
  // A's decision row over shared keys carries A's weights.
  {
    const x = xOfKey(300);
    const y = yOfRow(rows - 1);
    assert.ok(lutNear(await pixel(page, 'canvas[data-role="ab-map-A"]', x, y), pooled(cellsA, x, y)), 'A decision row');
  }
  assert.ok(onlyB.end - onlyB.start === Tb - P - S);

  // B − A: its range is the largest |B − A| over the rows that can differ and exist in both arms (the two
  // generation-prompt rows after the prefix), over the keys both have — computed here from the tensors.
  let maxDiff = 0;
  for (let i = 0; i < S; i++) {
    const qa = Ta - S + i;
    const qb = Tb - S + i;
    const pairs: [number, number][] = [];
    for (let k = 0; k < P; k++) pairs.push([k, k]);
    for (let j = 0; j <= i; j++) pairs.push([Ta - S + j, Tb - S + j]);
    for (const [ka, kb] of pairs) maxDiff = Math.max(maxDiff, Math.abs(redB[qb * Tb + kb]! - redA[qa * Ta + ka]!));
  }
  assert.ok(maxDiff > 0.01, `the decision rows differ: ${maxDiff}`);
  const legendMax = Number(await attr(page, '[data-role="ab-diff-legend"]', 'data-max'));
  const legendMin = Number(await attr(page, '[data-role="ab-diff-legend"]', 'data-min'));
  assert.ok(Math.abs(legendMax - maxDiff) < 1e-6, `legend ±${legendMax}, tensors ${maxDiff}`);
  assert.equal(legendMin, -legendMax, 'symmetric about 0');
  const ticks = await page.$$eval('[data-role="ab-diff-legend"] [data-role="diverging-legend"] span', (xs) => xs.map((x) => x.textContent ?? ''));
  const tickValues = ticks.map((x) => Number(x.replace('−', '-').replace('+', '')));
  assert.ok(tickValues.includes(0) && tickValues.length >= 3, ticks.join(' '));
  assert.deepEqual([...tickValues].map((v) => (v === 0 ? 0 : -v)).sort((x, y) => x - y), [...tickValues].sort((x, y) => x - y), `ticks symmetric: ${ticks.join(' ')}`);
  // Its pixels: the decision row's B − A on shared keys on that diverging scale; B's status columns hatched.
  const ds = makeDivergingScale(maxDiff);
  const cellsD = diffBlock(cellsA, cellsB);
  for (const k of [0, 300, P - 1]) {
    const x = xOfKey(k);
    const y = yOfRow(rows - 1);
    const got = await pixel(page, 'canvas[data-role="ab-map-diff"]', x, y);
    assert.ok(near(got, divergingRgb(ds.norm(pooled(cellsD, x, y, true))), 2), `diff key ${k}: ${got}`);
  }
  {
    const x = xOfKey(statusCol);
    const y = yOfRow(rows - 1);
    assert.deepEqual(await pixel(page, 'canvas[data-role="ab-map-diff"]', x, y), [...(onHatch(x, y) ? HATCH_INK_RGB : HATCH_RGB)], 'no counterpart: hatched');
  }
  // Row labels: the decision row is labelled with its token.
  const lastLabel = await page.textContent(`[data-role="ab-row-labels"] [data-row="${rows - 1}"]`);
  assert.ok(lastLabel?.includes(arms.B.prompt.tokens[Tb - 1]!.text.replace('\n', '↵')), `decision row label: ${lastLabel}`);
  // The N control: 10 rows, then back to the default.
  await page.fill('input[data-control="ab-rows"]', '10');
  await page.waitForFunction(() => document.querySelector('canvas[data-role="ab-map-B"]')?.getAttribute('data-rows') === '10');
  assert.equal(Number(await attr(page, 'canvas[data-role="ab-map-A"]', 'data-from')), K - 10);
  assert.equal(Number(await attr(page, 'canvas[data-role="ab-map-diff"]', 'data-rows')), 10);
  assert.ok(Math.abs(Number(await attr(page, '[data-role="ab-diff-legend"]', 'data-max')) - maxDiff) < 1e-6, 'the range does not depend on N');
  await page.click('button[data-control="ab-rows-default"]');
  await page.waitForFunction((n) => document.querySelector('canvas[data-role="ab-map-B"]')?.getAttribute('data-rows') === String(n), rows);
  // The key window: from the split, every map shows the same last keys; then all keys again.
  await page.click('button[data-control="ab-keys-split"]');
  await page.waitForFunction((n) => document.querySelector('canvas[data-role="ab-map-A"]')?.getAttribute('data-keys') === String(n), rows);
  for (const role of ['ab-map-A', 'ab-map-B', 'ab-map-diff']) assert.equal(Number(await attr(page, `canvas[data-role="${role}"]`, 'data-key-from')), K - rows, role);
  await page.click('button[data-control="ab-keys-all"]');
  await page.waitForFunction((n) => document.querySelector('canvas[data-role="ab-map-A"]')?.getAttribute('data-keys') === String(n), K);

  // Masses at the decision position, every region, mean over layers.
  const regA = regionsForRef('xfinity:without-status', arms.A.prompt);
  const regB = regionsForRef('xfinity:with-status', arms.B.prompt);
  const ma = regionMasses(arms.A.attention, arms.A.prompt, regA, Ta - 1);
  const mb = regionMasses(arms.B.attention, arms.B.prompt, regB, Tb - 1);
  const shown = await bars(page, 'ab-bars-decision');
  for (const e of mb.regions) {
    const [pa, pb] = shown.get(e.id)!;
    const ea = ma.regions.find((x) => x.id === e.id);
    assert.ok(Math.abs(pb - e.mean) < 1e-5, `${e.id} B: ${pb} vs ${e.mean}`);
    if (ea) assert.ok(Math.abs(pa - ea.mean) < 1e-5, `${e.id} A: ${pa} vs ${ea.mean}`);
    else assert.ok(Number.isNaN(pa), `${e.id} is not in A`);
  }
  // Per layer too.
  await page.selectOption('select[data-control="ab-bars-layer"]', '2');
  const l2 = await bars(page, 'ab-bars-decision');
  assert.ok(Math.abs(l2.get('status_bar')![1] - mb.regions.find((x) => x.id === 'status_bar')!.perLayer[2]!) < 1e-5);
  await page.selectOption('select[data-control="ab-bars-layer"]', 'mean');

  // A user region on B's status message (past the shared prefix: B only), taken before the status-bar region.
  await page.click('[data-role="ab-region-picker"] [data-token-index="615"]');
  await page.click('[data-role="ab-region-picker"] [data-token-index="624"]');
  await page.fill('input[data-control="ab-pick-name"]', 'status head');
  await page.click('button[data-control="ab-pick-add"]');
  await page.waitForSelector('[data-role="ab-bars-decision"] g[data-region="user-1"]');
  const user = { id: 'user-1', name: 'status head', arm: 'B' as const, start: 615, end: 625 };
  const mbU = regionMasses(arms.B.attention, arms.B.prompt, withUserRanges('B', regB, [user], P, arms.B.prompt), Tb - 1);
  const withUser = await bars(page, 'ab-bars-decision');
  assert.ok(Number.isNaN(withUser.get('user-1')![0]), 'not in A');
  assert.ok(Math.abs(withUser.get('user-1')![1] - mbU.regions[0]!.mean) < 1e-5);
  assert.ok(Math.abs(withUser.get('status_bar')![1] - mbU.regions.find((r) => r.id === 'status_bar')!.mean) < 1e-5, 'the status-bar region lost those tokens');
  assert.ok(rangeRegion(arms.B.prompt, 615, 625, 'x'));
  await page.click('button[data-control="ab-pick-remove"]');
  await page.waitForFunction(() => !document.querySelector('[data-role="ab-bars-decision"] g[data-region="user-1"]'));

  assert.deepEqual(errors, []);
  await page.close();
});

const SHOTS = process.env.KVSCOPE_SHOTS ?? tmpdir();
/** Page chrome above the tab in the app (header, model and scenario pickers, tab bar): about 150 px with the body margin. */
const CHROME_PX = 138;

test('layout at 1280×800: header, then the region bars above the fold, then the maps; no horizontal overflow at 1280 or 1024 px', async () => {
  mkdirSync(SHOTS, { recursive: true });
  for (const lang of ['en', 'zh']) {
    const { page, errors } = await open(lang, { width: 1280, height: 800 }, CHROME_PX);
    await page.waitForSelector('canvas[data-role="ab-map-diff"]');
    // The header names the pair, both arms with their sizes, the model, layer and head.
    const facts = await page.$$eval('[data-role="ab-lab"] [data-role="view-header"] [data-fact]', (xs) => Object.fromEntries(xs.map((x) => [x.getAttribute('data-fact'), x.textContent ?? ''])));
    assert.deepEqual(Object.keys(facts), ['scenario', 'armA', 'armB', 'model', 'layer', 'head']);
    assert.match(facts.armA!, new RegExp(String(arms.A.prompt.ids.length)));
    assert.match(facts.armB!, new RegExp(String(arms.B.prompt.ids.length)));
    assert.match(facts.model!, /kvscope-tiny/);
    // Bars first (in DOM order and on screen), their top above the fold.
    const order = await page.evaluate(() => {
      const bars = document.querySelector('[data-role="ab-bars-decision"]')!;
      const map = document.querySelector('canvas[data-role="ab-map-A"]')!;
      return Boolean(bars.compareDocumentPosition(map) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    assert.ok(order, 'region bars before the heatmaps');
    const box = (await page.locator('[data-role="ab-bars-decision"]').boundingBox())!;
    assert.ok(box.y < 800, `bars top ${box.y}`);
    assert.ok(box.y + box.height <= 800, `bars bottom ${box.y + box.height}: the whole chart above the fold`);
    const over = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.equal(await over(), 0, `${lang} 1280: horizontal overflow`);
    await page.screenshot({ path: join(SHOTS, `helperB-${lang}-1280x800.png`) });
    await page.screenshot({ path: join(SHOTS, `helperB-${lang}-1280-full.png`), fullPage: true });
    await page.locator('[data-role="ab-heatmaps"]').screenshot({ path: join(SHOTS, `helperB-${lang}-1280-maps.png`) });
    // Zoomed to the keys from the split, hovering B's magnified decision row on a status-bar key.
    await page.click('button[data-control="ab-keys-split"]');
    const strip = page.locator('canvas[data-role="ab-map-B-decision"]');
    const sb = (await strip.boundingBox())!;
    await strip.hover({ position: { x: sb.width * 0.6, y: sb.height / 2 } });
    await page.waitForSelector('[data-role="ab-maps-tip"]');
    await page.locator('[data-role="ab-heatmaps"]').screenshot({ path: join(SHOTS, `helperB-${lang}-1280-maps-split.png`) });
    await page.click('button[data-control="ab-keys-all"]');
    // Both arms' maps are as wide as each other and fit; then 1024 px.
    await page.setViewportSize({ width: 1024, height: 800 });
    await page.waitForFunction(() => (document.querySelector('canvas[data-role="ab-map-A"]') as HTMLCanvasElement).getBoundingClientRect().right < 1024);
    // Every figure re-measures its box in a ResizeObserver callback after the resize: give them a moment to
    // settle (a real overflow is still there after it, and fails below).
    await page.waitForFunction(() => document.documentElement.scrollWidth - window.innerWidth <= 0, null, { timeout: 5_000 }).catch(() => {});
    assert.equal(await over(), 0, `${lang} 1024: horizontal overflow`);
    const widths = await page.$$eval('canvas[data-role="ab-map-A"], canvas[data-role="ab-map-B"], canvas[data-role="ab-map-diff"]', (cs) => cs.map((c) => c.getBoundingClientRect().width));
    assert.equal(widths.length, 3);
    assert.ok(widths.every((w) => w === widths[0] && w >= 200), widths.join(', '));
    if (lang === 'en') await page.screenshot({ path: join(SHOTS, `helperB-${lang}-1024-full.png`), fullPage: true });
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('decisions over seeds and generated-token masses are lib/generate’s on the same model; stop stops', async () => {
  const { page, errors } = await open();
  const seeds = [1, 2, 3];
  await page.fill('input[data-control="ab-seeds"]', '3');
  await page.fill('input[data-control="ab-maxNewTokens"]', '32');
  await page.click('button[data-control="ab-generate"]');
  await page.waitForSelector('[data-role="ab-gen-progress"]', { timeout: 10_000 }).catch(() => undefined); // may be too quick to see
  await page.waitForFunction(() => document.querySelectorAll('[data-role="ab-seeds"] tbody tr').length === 6 && !document.querySelector('[data-role="ab-gen-progress"]'), undefined, { timeout: 120_000 });
  // The same continuations in Node.
  const engine = await EngineSession.create(nodeOrt(1), model.checkpoint, { graph: { logits: 'last', attention: 'full', presentKv: true } });
  const sampling = parseGenerationConfig(JSON.parse(readFileSync('public/models/kvscope-tiny/generation_config.json', 'utf8')));
  try {
    for (const [arm, ref] of [['A', 'xfinity:without-status'], ['B', 'xfinity:with-status']] as const) {
      const a = arms[arm];
      const r = await runSeeds(engine, a.prompt.ids, seeds, { maxNewTokens: 32, sampling, decode: (ids) => decodeIds(tok, ids) });
      const rows = await page.$$eval(`[data-role="ab-seeds"] tbody tr[data-arm="${arm}"]`, (trs) => trs.map((tr) => [Number(tr.getAttribute('data-seed')), tr.getAttribute('data-decision')]));
      assert.deepEqual(rows, r.runs.map((x) => [x.seed, x.decision]), `arm ${arm}`);
      const call = r.runs.filter((x) => x.decision === 'call').length;
      assert.equal(Number(await attr(page, `[data-role="ab-tally"] tr[data-arm="${arm}"]`, 'data-call')), call);
      assert.equal(Number(await attr(page, `[data-role="ab-tally"] tr[data-arm="${arm}"]`, 'data-refuse')), seeds.length - call);
      const invented = generatedTargets(r.runs.map((x) => x.parsed), ['Xfinity']).filter((x) => !x.inConversation).length;
      assert.equal(Number(await attr(page, `[data-role="ab-names"] li[data-arm="${arm}"]`, 'data-invented')), invented);
      // Generated-token masses: the same rows' masses.
      const m = regionMassesOverRows(r.runs.flatMap((x) => x.rows), a.prompt, regionsForRef(ref, a.prompt));
      const shown = await bars(page, 'ab-bars-generated');
      for (const e of m.regions) {
        const v = shown.get(e.id)![arm === 'A' ? 0 : 1];
        assert.ok(Math.abs(v - e.mean) < 1e-5, `${arm} generated ${e.id}: ${v} vs ${e.mean}`);
      }
      assert.ok(shown.has('generated'), 'the generated-keys bucket is shown');
    }
  } finally {
    await engine.dispose();
  }
  // A parsed output opens.
  await page.click('[data-role="ab-seeds"] tbody tr[data-arm="A"] summary');
  assert.match((await page.textContent('[data-role="ab-seeds"] tbody tr[data-arm="A"] details')) ?? '', /raw text/);

  // Stop: a long run stops at the next token; finished seeds stay, the cut one is dropped.
  await page.fill('input[data-control="ab-seeds"]', '40');
  await page.fill('input[data-control="ab-maxNewTokens"]', '200');
  await page.click('button[data-control="ab-generate"]');
  await page.waitForSelector('[data-role="ab-gen-progress"]', { timeout: 20_000 });
  await page.click('button[data-control="ab-stop"]');
  await page.waitForSelector('[data-role="ab-gen-stopped"]', { timeout: 30_000 });
  assert.equal(await page.locator('[data-role="ab-gen-progress"]').count(), 0);
  assert.ok((await page.locator('[data-role="ab-seeds"] tbody tr').count()) < 80);
  assert.equal(await page.isDisabled('button[data-control="ab-stop"]'), true);
  assert.deepEqual(errors, []);
  await page.close();
});

test('your own pair: a custom scenario against a built-in, regions following the spans; Chinese interface', async () => {
  const { page, errors } = await open('zh');
  assert.equal((await page.textContent('[data-role="ab-lab"] h2'))?.trim(), STRINGS['ab.title'].zh);
  await page.check('input[data-control="ab-mode-own"]');
  await page.selectOption('select[data-control="ab-arm-a"]', 'vancouver');
  await page.selectOption('select[data-control="ab-arm-b"]', 'custom:c1');
  const pa = buildPrompt(tok, scenarioRequest('vancouver'), { addGenerationPrompt: true });
  const pb = buildPrompt(tok, CUSTOM.lastGood!, { addGenerationPrompt: true });
  const P = alignArms(pa, pb).sharedPrefix;
  await page.waitForFunction((p) => document.querySelector('[data-role="ab-alignment"]')?.getAttribute('data-shared-prefix') === String(p) && document.querySelector('[data-role="ab-lab"]')?.getAttribute('data-ready') === 'true', P, { timeout: 60_000 });
  const shown = await bars(page, 'ab-bars-decision');
  assert.ok(shown.has('first_token') && shown.has('tools') && shown.has('message-0') && shown.has('generation'), [...shown.keys()].join(', '));
  assert.ok(Number.isNaN(shown.get(`message-${pb.messageCount - 1}`)![0]), 'the follow-up message is only in B');
  // The maps: one aligned axis for both arms — the shared prefix, what only A has (the template's own
  // rendering of the last turn), B's follow-up, the common generation prompt.
  const ax = alignAxis(pa.ids, pb.ids, P);
  await page.waitForFunction((k) => document.querySelector('canvas[data-role="ab-map-A"]')?.getAttribute('data-keys') === String(k), ax.length);
  assert.equal(await attr(page, 'canvas[data-role="ab-map-B"]', 'data-keys'), String(ax.length));
  assert.deepEqual(ax.zones.map((z) => z.kind), ['shared', 'onlyA', 'onlyB', 'suffix']);
  mkdirSync(SHOTS, { recursive: true });
  await page.locator('[data-role="ab-heatmaps"]').screenshot({ path: join(SHOTS, 'helperB-zh-own-maps.png') });
  // No English sentence of this tab's table is left on the Chinese page.
  const text = (await page.textContent('[data-role="ab-lab"]')) ?? '';
  const left = Object.values(abStrings)
    .map((e) => e.en)
    .filter((en) => !/\{\w+\}/.test(en) && /[a-z]{3,} [a-z]{3,}/i.test(en) && text.includes(en));
  assert.deepEqual(left, []);
  assert.deepEqual(errors, []);
  await page.close();
});
