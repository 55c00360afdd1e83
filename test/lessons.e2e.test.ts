// The lessons pages in the static export (out/, built first when stale), in headless Chromium at 1280×800:
// the index lists every lesson in both languages; every step of every lesson opens (← / → and ?step=N),
// and the numbers its callouts show are the numbers the same lesson functions compute in Node from the
// same models and prompts (lib/lessons on EngineSession, onnxruntime-web WASM: the page runs the same
// graph in its worker). Tolerance: |shown raw − Node| ≤ 1e-5 (float32 sums over a few hundred rows in a
// different thread count), and the shown text equal to Node's formatting. Each step is screenshotted to
// test-results/figures/lessons/<slug>-<step>-<lang>.png; presentation mode hides the chrome.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { readModelDir } from '../lib/cli/modelDir';
import { nodeOrt } from '../lib/cli/ort';
import { EngineSession } from '../lib/engine/session';
import { LESSONS, type Callout, type LessonExtra, type LessonStep } from '../lib/lessons';
import { kvLessonRun } from '../lib/lessons/kvPrefix';
import { patternLessonRun } from '../lib/lessons/harmfulPatterns';
import { statusArmA, statusSeeds } from '../lib/lessons/statusBar';
import { parseGenerationConfig } from '../lib/generate/sampling';
import { decodeTokens, specialTokenIds, tokenStrings } from '../lib/generate/decodeTokens';
import { readVocab, type Vocab } from '../lib/prompt/vocab';
import { SINK_MODELS } from '../lib/lessons/attentionSink';
import { buildPrompt } from '../lib/prompt/prompt';
import { createTokenizer, encodeText } from '../lib/prompt/tokenizer';
import { streamingExperiment } from '../lib/analysis/streaming';
import { STREAMING_TEXT } from '../lib/lessons/streamingText';
import { parseScenarioRef, scenarioRequest } from '../lib/scenarios';
import type { Analysed } from '../lib/state/analysed';
import { analyseRequest } from '../lib/state/analyse';
import { launchChromium, trackedPage } from './helpers/browser';
import { serveStatic } from './helpers/staticServer';
import { ensureBuiltOut } from './helpers/staticBuild';

const FIG = 'test-results/figures/lessons';
const TOL = 1e-5;

let browser: Awaited<ReturnType<typeof launchChromium>>;
let server: Awaited<ReturnType<typeof serveStatic>>;
const models = new Map<string, { tok: ReturnType<typeof createTokenizer>; engine: EngineSession }>();
/** K/V-keeping engines for 'kv' steps (what the page's useStepExtra runs in its worker). */
const kvEngines = new Map<string, { engine: EngineSession; vocab: Vocab }>();

before(async () => {
  ensureBuiltOut((l) => console.log(l));
  server = await serveStatic({ '/': 'out' }, { isolated: true });
  browser = await launchChromium();
  mkdirSync(FIG, { recursive: true });
  for (const id of SINK_MODELS) {
    const m = readModelDir(`public/models/${id}`);
    models.set(id, { tok: createTokenizer(m.tokenizerJson, m.tokenizerConfig), engine: await EngineSession.create(nodeOrt(1), m.checkpoint, { graph: { logits: 'none', attention: 'full' } }) });
    kvEngines.set(id, { engine: await EngineSession.create(nodeOrt(1), m.checkpoint, { graph: { logits: 'none', attention: 'none', presentKv: true } }), vocab: readVocab(m.tokenizerJson) });
  }
});
after(async () => {
  models.forEach((m) => m.engine.dispose());
  kvEngines.forEach((m) => m.engine.dispose());
  await browser?.close();
  await server?.close();
});

/** The step's callouts computed in Node, as the page computes them from its worker's run. */
async function nodeCallouts(step: LessonStep): Promise<Callout[]> {
  const runs: Analysed[] = [];
  for (const model of step.view.models) {
    const { tok, engine } = models.get(model)!;
    const { id, variant } = parseScenarioRef(step.view.scenario);
    runs.push(await analyseRequest(scenarioRequest(id, variant), step.view.context, async (req) => buildPrompt(tok, req, { addGenerationPrompt: true }), async (ids) => (await engine.prefill(ids)).attention));
  }
  const extra: LessonExtra = {};
  if (step.view.kind === 'ab') {
    const { tok, engine } = models.get(step.view.models[0]!)!;
    extra.statusArm = await statusArmA(async (req) => buildPrompt(tok, req, { addGenerationPrompt: true }), async (ids) => (await engine.prefill(ids)).attention);
  }
  if (step.view.kind === 'seeds') {
    // What the page's useStepExtra runs in its worker for a 'seeds' step: both arms sampled over the lesson's
    // seeds on a session with last-row logits, attention and K/V, decoded with the vocabulary.
    const model = step.view.models[0]!;
    const m = readModelDir(`public/models/${model}`);
    const vocab = readVocab(m.tokenizerJson);
    const strings = tokenStrings(vocab);
    const special = specialTokenIds(vocab);
    const e = await EngineSession.create(nodeOrt(1), m.checkpoint, { graph: { logits: 'last', attention: 'full', presentKv: true } });
    try {
      extra.seeds = await statusSeeds(async (req) => buildPrompt(models.get(model)!.tok, req, { addGenerationPrompt: true }), e, parseGenerationConfig(m.generationConfig), (ids) => decodeTokens(strings, ids, special).text);
    } finally {
      await e.dispose();
    }
  }
  if (step.view.kind === 'kv') {
    const k = kvEngines.get(step.view.models[0]!)!;
    extra.kv = await kvLessonRun(k.engine, runs[0]!.prompt, k.vocab);
  }
  if (step.view.kind === 'patterns') {
    const { tok } = models.get(step.view.models[0]!)!;
    extra.patterns = await patternLessonRun(async (req) => buildPrompt(tok, req, { addGenerationPrompt: true }));
  }
  if (step.view.kind === 'streaming') {
    // What the page's worker runs for a 'streaming' step (lib/engine/host `streaming`): the lesson text
    // tokenized with the model's tokenizer, on a session with every logit and no attention.
    const v = step.view;
    extra.streaming = [];
    for (const model of v.models) {
      const m = readModelDir(`public/models/${model}`);
      const ids = encodeText(models.get(model)!.tok, STREAMING_TEXT).slice(0, v.tokens);
      const e = await EngineSession.create(nodeOrt(1), m.checkpoint, { graph: { logits: 'all', attention: 'none', presentKv: true } });
      extra.streaming.push(await streamingExperiment(e, ids, { window: v.window, sink: v.sink }));
      await e.dispose();
    }
  }
  return step.callouts(runs, extra);
}

interface Shown {
  id: string;
  missing: boolean;
  values: { key: string; raw: number; text: string }[];
}

async function shownCallouts(page: Page, stepNo: number): Promise<Shown[]> {
  await page.waitForSelector(`[data-role="lesson"][data-step="${stepNo}"] [data-role="lesson-callouts"][data-ready="true"]`, { timeout: 120_000 });
  return page.$$eval('[data-role="lesson-callouts"] li[data-callout]', (lis) =>
    lis.map((li) => ({
      id: li.getAttribute('data-callout')!,
      missing: li.getAttribute('data-missing') === 'true',
      values: Array.from(li.querySelectorAll('[data-value]')).map((b) => ({ key: b.getAttribute('data-value')!, raw: Number(b.getAttribute('data-raw')), text: b.textContent ?? '' })),
    })),
  );
}

function compare(where: string, shown: Shown[], want: Callout[]) {
  assert.deepEqual(
    shown.map((s) => s.id),
    want.map((c) => c.id),
    `${where}: callouts`,
  );
  shown.forEach((s, i) => {
    const c = want[i]!;
    assert.equal(s.missing, Boolean(c.missing), `${where}/${c.id}: missing flag`);
    assert.ok(s.values.length > 0 || c.missing, `${where}/${c.id}: shows a computed number`);
    for (const v of s.values) {
      const w = c.values[v.key];
      assert.ok(w, `${where}/${c.id}: unexpected value ${v.key}`);
      assert.ok(Math.abs(v.raw - w.value) <= TOL, `${where}/${c.id}.${v.key}: page ${v.raw} vs Node ${w.value}`);
      assert.equal(v.text, w.text, `${where}/${c.id}.${v.key}: shown text`);
    }
  });
}

test('lessons: index and every step in English and Chinese; callouts equal Node; ← / → and ?step=N; screenshots', { timeout: 20 * 60_000 }, async () => {
  const { page, errors } = await trackedPage(browser.context);
  await page.setViewportSize({ width: 1280, height: 800 });
  const expected = new Map<string, Callout[]>();
  for (const lesson of LESSONS) for (const step of lesson.steps) expected.set(`${lesson.slug}/${step.id}`, await nodeCallouts(step));

  for (const lang of ['en', 'zh'] as const) {
    await page.goto(`${server.url}/lessons/`);
    await page.click(`button[data-lang="${lang}"]`);
    const cards = await page.$$eval('[data-lesson]', (as) => as.map((a) => ({ slug: a.getAttribute('data-lesson'), text: a.textContent ?? '', href: a.getAttribute('href') })));
    assert.deepEqual(
      cards.map((c) => c.slug),
      LESSONS.map((l) => l.slug),
    );
    LESSONS.forEach((l, i) => {
      assert.ok(cards[i]!.text.includes(l.title[lang]), `index card ${l.slug} (${lang})`);
      assert.equal(cards[i]!.href, `/lessons/${l.slug}/`);
    });
    assert.equal(await page.getAttribute('html', 'lang'), lang === 'zh' ? 'zh-CN' : 'en');
    await page.screenshot({ path: `${FIG}/index-${lang}.png` });

    for (const lesson of LESSONS) {
      await page.goto(`${server.url}/lessons/${lesson.slug}/?step=1`);
      // The saved language (the lab's persisted store) is read back after the first render.
      await page.waitForSelector(`html[lang="${lang === 'zh' ? 'zh-CN' : 'en'}"]`);
      for (let i = 0; i < lesson.steps.length; i++) {
        const step = lesson.steps[i]!;
        const where = `${lesson.slug} step ${i + 1} (${lang})`;
        const shown = await shownCallouts(page, i + 1);
        compare(where, shown, expected.get(`${lesson.slug}/${step.id}`)!);
        assert.equal((await page.textContent('[data-role="step-title"]'))?.trim(), step.title[lang], `${where}: title`);
        assert.equal(new URL(page.url()).searchParams.get('step'), i === 0 ? '1' : String(i + 1), `${where}: URL`);
        // Let the view draw (canvases) before the picture.
        await page.waitForTimeout(300);
        await page.screenshot({ path: `${FIG}/${lesson.slug}-${i + 1}-${lang}.png` });
        if (i + 1 < lesson.steps.length) await page.keyboard.press('ArrowRight');
      }
      // → at the last step stays; ← goes back one (a one-step lesson stays on its step).
      await page.keyboard.press('ArrowRight');
      assert.equal(await page.getAttribute('[data-role="lesson"]', 'data-step'), String(lesson.steps.length));
      await page.keyboard.press('ArrowLeft');
      assert.equal(await page.getAttribute('[data-role="lesson"]', 'data-step'), String(Math.max(1, lesson.steps.length - 1)));
    }
  }

  // A step's link opens that step; presentation mode hides the chrome and keeps the callouts.
  const sink = LESSONS.find((l) => l.slug === 'attention-sink')!;
  await page.goto(`${server.url}/lessons/attention-sink/?step=3&present=1`);
  compare('attention-sink step 3 (link, presenting)', await shownCallouts(page, 3), expected.get(`attention-sink/${sink.steps[2]!.id}`)!);
  assert.equal(await page.getAttribute('html', 'data-present'), 'true');
  assert.equal(await page.isVisible('[data-role="step-list"]'), false, 'chrome hidden');
  assert.equal(await page.isVisible('[data-role="step-next"]'), true, 'step buttons stay');
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${FIG}/attention-sink-3-present.png` });
  assert.deepEqual(errors, []);
  await page.close();
});
