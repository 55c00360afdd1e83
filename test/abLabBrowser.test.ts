// The A/B tab (components/ab/AbLab.tsx) in headless Chromium on the real engine worker and the embedded model
// (harness test/browser/abHarness.ts): what the page shows is what lib/ computes from the same model in
// Node — the shared prefix, the shared-row identity, the painted pixels of the rows that can differ and of
// the decision-row difference, the region masses at the decision position (also for a region the user
// marks), the decisions and generated-token masses per seed — and the stop button stops generation.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { launchChromium, trackedPage } from './helpers/browser';
import { serveStatic } from './helpers/staticServer';
import { alignArms, rangeRegion, regionMasses, regionMassesOverRows, sharedRowsDiff } from '../lib/analysis/abCompare';
import { decisionRowDiff, generatedTargets, regionsForRef, withUserRanges } from '../lib/analysis/abArms';
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
import { finiteMax, rowBlock } from '../lib/view/abRaster';
import { lutIndex, makeScale, MASK_RGB, sampleColormap } from '../lib/view/colormap';
import { divergingRgb, makeDivergingScale } from '../lib/view/diverging';
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
  writeFileSync(join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><body style="margin:20px"><script type="module" src="harness.js"></script>');
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

async function open(lang = 'en'): Promise<{ page: Page; errors: string[] }> {
  const { page, errors } = await trackedPage(browser.context);
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto(`${server.url}/index.html?lang=${lang}`);
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

  // Rows that can differ: A has 2, B 56; pixels are the colour of each weight under the shared scale (last layer, head mean, power γ 0.5).
  const Ta = arms.A.prompt.ids.length;
  const Tb = arms.B.prompt.ids.length;
  const K = Math.max(Ta, Tb);
  assert.equal(Number(await attr(page, 'canvas[data-role="ab-rows-A"]', 'data-rows')), Ta - P);
  assert.equal(Number(await attr(page, 'canvas[data-role="ab-rows-B"]', 'data-rows')), Tb - P);
  const L = arms.A.attention.length;
  const blockA = rowBlock(reduceHeads(arms.A.attention[L - 1]!, 'mean').data, Ta, P, K);
  const blockB = rowBlock(reduceHeads(arms.B.attention[L - 1]!, 'mean').data, Tb, P, K);
  const scale = makeScale({ kind: 'power', min: 0, max: Math.max(finiteMax(blockA), finiteMax(blockB)), gamma: 0.5 });
  let checked = 0;
  for (const [r, k] of [[0, 0], [3, 100], [20, 640], [55, 666], [10, 660], [1, 5]] as const) {
    const v = blockB[r * K + k]!;
    const got = await pixel(page, 'canvas[data-role="ab-rows-B"]', k, r);
    if (Number.isNaN(v)) assert.deepEqual(got, [...MASK_RGB], `B row ${r} key ${k} masked`);
    else {
      const want = sampleColormap('viridis', scale.norm(v));
      // One LUT step of slack: the two engines' weights may differ in the last float bits.
      const idx = lutIndex(scale.norm(v));
      const ok = [idx - 1, idx, idx + 1].some((i) => near(got, sampleColormap('viridis', (Math.max(0, Math.min(255, i)) + 0.5) / 256), 0));
      assert.ok(ok, `B row ${r} key ${k}: ${got} vs ${want}`);
    }
    checked++;
  }
  assert.deepEqual(await pixel(page, 'canvas[data-role="ab-rows-A"]', 650, 1), [...MASK_RGB], 'keys past A’s end are masked');
  assert.equal(checked, 6);

  // The difference view: layers × shared keys, B − A on the diverging scale.
  const d = decisionRowDiff(arms.A.attention, arms.B.attention, Ta - 1, Tb - 1, P, 'mean');
  assert.ok(Math.abs(Number(await attr(page, 'canvas[data-role="ab-diff"]', 'data-max')) - d.maxAbs) < 1e-6);
  const ds = makeDivergingScale(d.maxAbs);
  for (const [l, k] of [[d.at!.layer, d.at!.key], [0, 0], [L - 1, P - 1], [1, 300]] as const) {
    const got = await pixel(page, 'canvas[data-role="ab-diff"]', k, l);
    assert.ok(near(got, divergingRgb(ds.norm(d.diff[l * P + k]!)), 2), `diff layer ${l} key ${k}: ${got}`);
  }

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
  // No English sentence of this tab's table is left on the Chinese page.
  const text = (await page.textContent('[data-role="ab-lab"]')) ?? '';
  const left = Object.values(abStrings)
    .map((e) => e.en)
    .filter((en) => !/\{\w+\}/.test(en) && /[a-z]{3,} [a-z]{3,}/i.test(en) && text.includes(en));
  assert.deepEqual(left, []);
  assert.deepEqual(errors, []);
  await page.close();
});
