// The lessons' "what to notice" callouts (lib/lessons), computed in Node from the embedded models' real
// tensors (EngineSession on onnxruntime-web WASM, the same graph the page's worker builds) and checked
// against independent restatements: brute-force loops over the attention tensors and the rendered prompts,
// not the lib functions the callouts use. Tolerances: shares are float32 means, compared at 1e-6 absolute;
// token counts exactly. Also: every template slot is filled in both languages, ?step=N parsing, the registry.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { readModelDir } from '../lib/cli/modelDir';
import { nodeOrt } from '../lib/cli/ort';
import { EngineSession } from '../lib/engine/session';
import { calloutParts, calloutText, LESSONS, lessonBySlug, stepFromQuery, type Callout, type LessonExtra, type LessonStep } from '../lib/lessons';
import { KV_TOL, kvLessonRun } from '../lib/lessons/kvPrefix';
import { PATTERN_SEED, patternLessonRun } from '../lib/lessons/harmfulPatterns';
import { STATUS_ALPHA, STATUS_INTERVAL, STATUS_MESSAGE, STATUS_N } from '../lib/lessons/statusBarCost';
import { STATUS_ARM_A, STATUS_ARM_B, STATUS_MAX_NEW_TOKENS, STATUS_SEEDS, statusArmA, statusSeeds, type StatusSeedsRun } from '../lib/lessons/statusBar';
import { ab } from '../lib/cli/ab';
import { parseArgs } from '../lib/cli/args';
import { parseGenerationConfig } from '../lib/generate/sampling';
import { decodeTokens, specialTokenIds, tokenStrings } from '../lib/generate/decodeTokens';
import { GROWTH_ALPHA, seedGrowth } from '../lib/lessons/contextGrowth';
import { SEED_RUN_LOG_FILE } from '../lib/lessons/seedRunLog';
import { parseRunLog } from '../lib/io/runlog';
import { patternRun, PATTERN_MODES } from '../lib/agent/patterns';
import { readVocab, type Vocab } from '../lib/prompt/vocab';
import { COLLAPSE_RATIO, SINK_HEAD, SINK_LAYER, SINK_MODELS } from '../lib/lessons/attentionSink';
import { STREAMING_TEXT, STREAMING_TEXT_FILE } from '../lib/lessons/streamingText';
import { streamingExperiment, type StreamingResult } from '../lib/analysis/streaming';
import { readFileSync } from 'node:fs';
import { buildPrompt, type Prompt } from '../lib/prompt/prompt';
import { createTokenizer, encodeText } from '../lib/prompt/tokenizer';
import { parseScenarioRef, scenarioRequest } from '../lib/scenarios';
import type { Analysed } from '../lib/state/analysed';
import { analyseRequest } from '../lib/state/analyse';

const EPS = 1e-6;

const models = new Map<string, { tok: ReturnType<typeof createTokenizer>; engine: EngineSession }>();
for (const id of SINK_MODELS) {
  const m = readModelDir(`public/models/${id}`);
  models.set(id, { tok: createTokenizer(m.tokenizerJson, m.tokenizerConfig), engine: await EngineSession.create(nodeOrt(1), m.checkpoint, { graph: { logits: 'none', attention: 'full' } }) });
}
// A K/V-keeping engine per model for 'kv' steps (the page's worker keeps its cache), and one more for the brute-force check.
const kvEngines = new Map<string, { engine: EngineSession; check: EngineSession; vocab: Vocab }>();
for (const id of SINK_MODELS) {
  const m = readModelDir(`public/models/${id}`);
  const opts = { graph: { logits: 'none', attention: 'none', presentKv: true } } as const;
  kvEngines.set(id, { engine: await EngineSession.create(nodeOrt(1), m.checkpoint, opts), check: await EngineSession.create(nodeOrt(1), m.checkpoint, opts), vocab: readVocab(m.tokenizerJson) });
}
after(() => models.forEach((m) => m.engine.dispose()));
after(() => kvEngines.forEach((m) => (m.engine.dispose(), m.check.dispose())));

// 'streaming' steps: the StreamingLLM experiment as the page's worker runs it (lib/engine/host: a session with
// logits 'all', no attention), on the lesson text tokenized as components/lessons/useStreamingRun does. Once per model.
const streamingRuns = new Map<string, Promise<StreamingResult>>();
function streamingOf(model: string, step: LessonStep): Promise<StreamingResult> {
  const v = step.view;
  if (v.kind !== 'streaming') throw new Error('not a streaming step');
  const key = `${model}|${v.window}|${v.sink}|${v.tokens}`;
  let r = streamingRuns.get(key);
  if (!r) {
    r = (async () => {
      const m = readModelDir(`public/models/${model}`);
      const ids = encodeText(createTokenizer(m.tokenizerJson, m.tokenizerConfig), STREAMING_TEXT).slice(0, v.tokens);
      const e = await EngineSession.create(nodeOrt(1), m.checkpoint, { graph: { logits: 'all', attention: 'none', presentKv: true } });
      try {
        return await streamingExperiment(e, ids, { window: v.window, sink: v.sink });
      } finally {
        await e.dispose();
      }
    })();
    streamingRuns.set(key, r);
  }
  return r;
}

// 'seeds' steps: both status-bar arms sampled as the page's useStepExtra does (a session with last-row logits,
// attention and K/V, as the page's worker; decoded with the vocabulary as the page decodes). Once per model.
const seedRuns = new Map<string, Promise<StatusSeedsRun>>();
function seedsOf(model: string): Promise<StatusSeedsRun> {
  let r = seedRuns.get(model);
  if (!r) {
    r = (async () => {
      const m = readModelDir(`public/models/${model}`);
      const tok = createTokenizer(m.tokenizerJson, m.tokenizerConfig);
      const vocab = readVocab(m.tokenizerJson);
      const strings = tokenStrings(vocab);
      const special = specialTokenIds(vocab);
      const e = await EngineSession.create(nodeOrt(1), m.checkpoint, { graph: { logits: 'last', attention: 'full', presentKv: true } });
      try {
        return await statusSeeds(async (req) => buildPrompt(tok, req, { addGenerationPrompt: true }), e, parseGenerationConfig(m.generationConfig), (ids) => decodeTokens(strings, ids, special).text);
      } finally {
        await e.dispose();
      }
    })();
    seedRuns.set(model, r);
  }
  return r;
}

/** What the page's view computes besides the runs (useStepExtra), rebuilt in Node. */
async function extraOf(step: LessonStep, runs: readonly Analysed[]): Promise<LessonExtra> {
  if (step.view.kind === 'streaming') return { streaming: await Promise.all(step.view.models.map((m) => streamingOf(m, step))) };
  if (step.view.kind === 'patterns') {
    const { tok } = models.get(step.view.models[0]!)!;
    return { patterns: await patternLessonRun(async (req) => buildPrompt(tok, req, { addGenerationPrompt: true })) };
  }
  if (step.view.kind === 'ab') {
    const { tok, engine } = models.get(step.view.models[0]!)!;
    return { statusArm: await statusArmA(async (req) => buildPrompt(tok, req, { addGenerationPrompt: true }), async (ids) => (await engine.prefill(ids)).attention) };
  }
  if (step.view.kind === 'seeds') return { seeds: await seedsOf(step.view.models[0]!) };
  if (step.view.kind !== 'kv') return {};
  const k = kvEngines.get(step.view.models[0]!)!;
  return { kv: await kvLessonRun(k.engine, runs[0]!.prompt, k.vocab) };
}

/** What useAttentionRun gives the page for a step's model, rebuilt in Node. */
async function analyse(model: string, step: LessonStep): Promise<Analysed> {
  const { tok, engine } = models.get(model)!;
  const { id, variant } = parseScenarioRef(step.view.scenario);
  return analyseRequest(scenarioRequest(id, variant), step.view.context, async (req) => buildPrompt(tok, req, { addGenerationPrompt: true }), async (ids) => (await engine.prefill(ids)).attention);
}

async function stepRuns(slug: string, stepId: string): Promise<{ step: LessonStep; runs: Analysed[]; extra: LessonExtra; callouts: Map<string, Callout> }> {
  const step = lessonBySlug(slug)!.steps.find((s) => s.id === stepId)!;
  const runs: Analysed[] = [];
  for (const m of step.view.models) runs.push(await analyse(m, step));
  const extra = await extraOf(step, runs);
  return { step, runs, extra, callouts: new Map(step.callouts(runs, extra).map((c) => [c.id, c])) };
}

const val = (c: Map<string, Callout>, id: string, key: string) => {
  const v = c.get(id)?.values[key];
  assert.ok(v, `callout ${id} has no value ${key}`);
  return v.value;
};
const close = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) <= EPS, `${what}: ${a} vs ${b}`);

// ---- independent restatements --------------------------------------------------------------------------

/** Mean over heads and over queries q ≥ 16 of A[h, q, 0] (brute force), per head too. */
function bruteSink(a: Analysed, layer: number): { mean: number; perHead: number[]; uniform: number } {
  const t = a.attention[layer]!;
  const [H, Q, K] = t.dims as [number, number, number];
  const perHead = Array.from({ length: H }, (_, h) => {
    let s = 0;
    let n = 0;
    for (let q = 16; q < Q; q++, n++) s += t.data[(h * Q + q) * K]!;
    return s / n;
  });
  let u = 0;
  for (let q = 16; q < Q; q++) u += 1 / (q + 1);
  return { mean: perHead.reduce((x, y) => x + y, 0) / H, perHead, uniform: u / (Q - 16) };
}

function prefixLen(a: readonly number[], b: readonly number[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

const tokensOf = (p: Prompt, pred: (s: Prompt['spans'][number]) => boolean) => p.spans.filter(pred).reduce((n, s) => n + s.end - s.start, 0);

// ---- attention-sink ------------------------------------------------------------------------------------

test('attention-sink: layer shares, ratio, per-layer sink heads, one head, hidden sink — against brute force', async () => {
  const rests = await stepRuns('attention-sink', 'rests');
  assert.equal(rests.runs.length, 2, 'side by side: one run per model');
  assert.deepEqual(rests.runs[0]!.prompt.ids, rests.runs[1]!.prompt.ids, 'the same prompt on both models');
  const b = rests.runs.map((r) => bruteSink(r, SINK_LAYER));
  close(val(rests.callouts, 'share-0', 'share'), b[0]!.mean, 'default share');
  close(val(rests.callouts, 'share-1', 'share'), b[1]!.mean, 'sink share');
  close(val(rests.callouts, 'share-1', 'uniform'), b[1]!.uniform, 'uniform');
  close(val(rests.callouts, 'ratio', 'ratio'), b[1]!.mean / b[0]!.mean, 'ratio');
  // What the models do (measured; the lesson's point): the sink model's last layer is far above uniform, the default's is not.
  assert.ok(b[1]!.mean > 10 * b[1]!.uniform, `sink model: ${b[1]!.mean} vs uniform ${b[1]!.uniform}`);
  assert.ok(b[0]!.mean < 2 * b[0]!.uniform, `default model: ${b[0]!.mean} vs uniform ${b[0]!.uniform}`);

  const layers = await stepRuns('attention-sink', 'per-layer');
  layers.runs.forEach((r, i) => {
    const all = r.attention.map((_, l) => bruteSink(r, l));
    const heads = all.reduce((n, s) => n + s.perHead.filter((v) => v > 0.3).length, 0);
    const c = layers.callouts.get(`layers-${i}`)!;
    if (heads === 0) {
      assert.equal(c.missing, true, 'no sink head: the callout says the model does not show it');
      const best = Math.max(...all.flatMap((s) => s.perHead));
      close(c.values.best!.value, best, 'strongest head');
    } else {
      assert.equal(c.values.sinkHeads!.value, heads);
      const top = all.reduce((bi, s, l) => (s.mean > all[bi]!.mean ? l : bi), 0);
      assert.equal(c.values.layer!.value, top);
      close(c.values.score!.value, all[top]!.mean, 'top layer score');
    }
  });

  const head = await stepRuns('attention-sink', 'one-head');
  head.runs.forEach((r, i) => close(val(head.callouts, `head-${i}`, 'share'), bruteSink(r, SINK_LAYER).perHead[SINK_HEAD]!, `head ${SINK_HEAD}`));
  const best = Math.max(...head.runs.flatMap((r) => r.attention.flatMap((_, l) => bruteSink(r, l).perHead)));
  close(val(head.callouts, 'chapter', 'best'), best, 'strongest head overall');
  assert.equal(head.callouts.get('chapter')!.missing, best < 0.7);

  const hidden = await stepRuns('attention-sink', 'hide-sink');
  assert.equal(hidden.step.view.kind === 'attention' && hidden.step.view.hideSink, true);
  hidden.runs.forEach((r, i) => {
    // Received attention: mean over heads and queries q ≥ 16 of A[h, q, k]; the largest over k ≥ 1.
    const t = r.attention[SINK_LAYER]!;
    const [H, Q, K] = t.dims as [number, number, number];
    let bestK = -1;
    let bestW = -1;
    for (let k = 1; k < K; k++) {
      let s = 0;
      for (let h = 0; h < H; h++) for (let q = 16; q < Q; q++) s += t.data[(h * Q + q) * K + k]!;
      const w = s / (H * (Q - 16));
      if (w > bestW + 1e-12) [bestK, bestW] = [k, w];
    }
    const c = hidden.callouts.get(`hidden-${i}`)!;
    assert.equal(c.values.key!.value, bestK);
    close(c.values.weight!.value, bestW, 'top receiver after hiding');
    assert.equal(c.words!.label, r.labels[bestK]);
  });
});

test('attention-sink, evict: perplexities, window cost, sinks won back and the no-collapse verdict — against the NLL arrays by plain loops', async () => {
  assert.equal(STREAMING_TEXT, readFileSync(STREAMING_TEXT_FILE, 'utf8'), 'the lesson text is the examples file');
  const ev = await stepRuns('attention-sink', 'evict');
  const v = ev.step.view;
  assert.ok(v.kind === 'streaming');
  const results = ev.extra.streaming!;
  assert.equal(results.length, 2, 'side by side: one experiment per model');
  // exp(mean nll[from …]) by a plain loop over the predictions made after the window filled (queries ≥ W).
  const after = (nll: number[]) => {
    let s = 0;
    for (let i = v.window; i < nll.length; i++) s += nll[i]!;
    return Math.exp(s / (nll.length - v.window));
  };
  let worst = 0;
  results.forEach((r, i) => {
    assert.equal(r.tokens, v.tokens);
    assert.equal(r.runs.full.nll.length, v.tokens - 1);
    const full = after(r.runs.full.nll);
    const win = after(r.runs.window.nll);
    const sink = after(r.runs.sink.nll);
    // Before the window fills nothing is evicted: token-by-token decoding equals the chunked prefill (float32, 1e-4 nats).
    for (let j = 0; j < v.window; j++) assert.ok(Math.abs(r.runs.window.nll[j]! - r.runs.full.nll[j]!) < 1e-4, `prediction ${j} before the fill`);
    close(val(ev.callouts, `evict-${i}`, 'full'), full, 'full after fill');
    close(val(ev.callouts, `evict-${i}`, 'window'), win, 'window after fill');
    close(val(ev.callouts, `evict-${i}`, 'cost'), win / full, 'window cost');
    assert.equal(val(ev.callouts, `evict-${i}`, 'from'), v.window + 1);
    const c = ev.callouts.get(`sinks-${i}`)!;
    close(c.values.sink!.value, sink, 'sink after fill');
    if (sink < win) {
      assert.notEqual(c.missing, true);
      close(c.values.recovered!.value, (win - sink) / (win - full), 'share won back');
    } else {
      assert.equal(c.missing, true, 'sinks do not help: the callout says so');
      close(c.values.window!.value, win, 'window in the no-help callout');
    }
    worst = Math.max(worst, win / full);
  });
  close(val(ev.callouts, 'paper', 'worst'), worst, 'worst window cost');
  assert.equal(ev.callouts.get('paper')!.missing, worst < COLLAPSE_RATIO);
  // What the models do (measured; docs/CONCEPTS.md#streamingllm-experiment): evicting costs, but neither collapses.
  assert.ok(worst > 1.2 && worst < COLLAPSE_RATIO, `window cost ${worst}`);
});

// ---- agent-loop ----------------------------------------------------------------------------------------

test('agent-loop: re-sent prefix, growth and static prefix — against the rendered prompts', async () => {
  const st = await stepRuns('agent-loop', 'stateless');
  const [p1, p2] = st.runs[0]!.callPrompts as [Prompt, Prompt];
  const shared = prefixLen(p1.ids, p2.ids);
  assert.equal(val(st.callouts, 'resend', 'shared'), shared);
  assert.equal(val(st.callouts, 'resend', 't1'), p1.ids.length);
  assert.equal(val(st.callouts, 'resend', 't2'), p2.ids.length);
  assert.equal(val(st.callouts, 'added', 'added'), p2.ids.length - shared);
  assert.equal(shared, p1.ids.length, 'append-only: call 2 holds all of call 1');

  const gr = await stepRuns('agent-loop', 'grows');
  const lens = gr.runs[0]!.callPrompts.map((p) => p.ids.length);
  assert.equal(val(gr.callouts, 'growth', 'first'), lens[0]);
  assert.equal(val(gr.callouts, 'growth', 'last'), lens.at(-1));
  assert.equal(val(gr.callouts, 'growth', 'n'), lens.length);
  assert.equal(val(gr.callouts, 'sum', 'sum'), lens.reduce((a, b) => a + b, 0));
  for (let i = 1; i < lens.length; i++) assert.ok(lens[i]! > lens[i - 1]!, 'the list only grows');

  const sp = await stepRuns('agent-loop', 'static-prefix');
  const prompts = sp.runs[0]!.callPrompts;
  const stat = tokensOf(prompts[0]!, (s) => s.message === -1 || s.role === 'system');
  assert.equal(val(sp.callouts, 'static', 'static'), stat);
  close(val(sp.callouts, 'static', 'shareLast'), stat / prompts.at(-1)!.ids.length, 'static share of the last call');
  for (const p of prompts) assert.equal(tokensOf(p, (s) => s.message === -1 || s.role === 'system'), stat, 'the static prefix is the same in every call');
});

// ---- chat-template -------------------------------------------------------------------------------------

test('chat-template: stream, tool turns and the think-block drop — against the rendered text', async () => {
  const os = await stepRuns('chat-template', 'one-stream');
  const p = os.runs[0]!.prompt;
  assert.equal(val(os.callouts, 'stream', 'tokens'), p.ids.length);
  const specialText = /^(<\|[a-z_]+\|>|<\/?(tool_call|tool_response|think|tools)>)$/;
  assert.equal(val(os.callouts, 'stream', 'special'), p.tokens.filter((t) => specialText.test(t.text)).length);
  assert.equal(val(os.callouts, 'envelope', 'toolTokens'), tokensOf(p, (s) => s.message === -1));

  const tt = await stepRuns('chat-template', 'tool-turns');
  const q = tt.runs[0]!.prompt;
  const at = q.text.indexOf('<tool_response>');
  const open = q.text.lastIndexOf('<|im_start|>', at);
  const role = q.text.slice(open + '<|im_start|>'.length, q.text.indexOf('\n', open));
  assert.equal(tt.callouts.get('results')!.words!.role, role);
  // The request's tool calls, and the <tool_call> tags after the tools block (whose preamble shows the format once).
  const req = tt.runs[0]!.run.calls.at(-1)!.request;
  const nCalls = req.messages.reduce((n, m) => n + ('tool_calls' in m && m.tool_calls ? m.tool_calls.length : 0), 0);
  assert.equal(val(tt.callouts, 'calls', 'nCalls'), nCalls);
  const afterTools = q.text.slice(q.tokens[q.spans.filter((s) => s.message === -1).at(-1)!.end]!.start);
  assert.equal((afterTools.match(/<tool_call>/g) ?? []).length, nCalls);

  const td = await stepRuns('chat-template', 'think-drop');
  const cp = td.runs[0]!.callPrompts;
  // The first call that is not an extension of the one before it, by a plain prefix check.
  const i = cp.findIndex((c, k) => k > 0 && prefixLen(cp[k - 1]!.ids, c.ids) < cp[k - 1]!.ids.length);
  assert.ok(i > 0, 'the thinking scenario has a call that does not extend the previous one');
  const c = td.callouts.get('drop')!;
  assert.notEqual(c.missing, true);
  assert.equal(c.values.call!.value, i + 1);
  assert.equal(c.values.breakAt!.value, prefixLen(cp[i - 1]!.ids, cp[i]!.ids));
  assert.equal(c.values.lost!.value, cp[i - 1]!.ids.length - prefixLen(cp[i - 1]!.ids, cp[i]!.ids));
  // The break is inside a <think> block of call i - 1 that call i no longer has.
  const brk = c.values.breakAt!.value;
  assert.ok(cp[i - 1]!.spans.some((s) => s.segment === 'think' && s.start <= brk + 2 && brk < s.end + 2), 'break at a dropped think block');
});

// ---- kv-prefix -----------------------------------------------------------------------------------------

/** Both prompts prefilled separately (not the lesson's shared cache), then max |ΔK|, |ΔV| per layer and position by plain loops. */
async function bruteKv(model: string, a: number[], b: number[]): Promise<number[][]> {
  const e = kvEngines.get(model)!.check;
  const read = async (ids: number[]) => {
    await e.prefill(ids);
    return Array.from({ length: e.config.numLayers }, (_, l) => e.kv(l));
  };
  const A = await read(a);
  const B = await read(b);
  return A.map((la, l) => {
    const lb = B[l]!;
    const [H, N, D] = la.k.dims as [number, number, number];
    return Array.from({ length: N }, (_, p) => {
      let m = 0;
      for (let h = 0; h < H; h++)
        for (let d = 0; d < D; d++) {
          const i = (h * N + p) * D + d;
          m = Math.max(m, Math.abs(la.k.data[i]! - lb.k.data[i]!), Math.abs(la.v.data[i]! - lb.v.data[i]!));
        }
      return m;
    });
  });
}

test('kv-prefix: layer 0 changes at the edited position only, every later layer from there on; reused vs recomputed — against separate prefills', async () => {
  for (const stepId of ['one-token', 'sweep']) {
    const r = await stepRuns('kv-prefix', stepId);
    const kv = r.extra.kv!;
    const p = r.runs[0]!.prompt;
    assert.deepEqual(kv.aIds, p.ids, `${stepId}: A is the step's prompt`);
    assert.equal(kv.bIds.length, kv.aIds.length);
    const differ = kv.aIds.flatMap((x, i) => (x === kv.bIds[i] ? [] : [i]));
    assert.equal(differ.length, 1, `${stepId}: one token edited`);
    const at = differ[0]!;
    assert.equal(p.spans.find((s) => s.start <= at && at < s.end)?.segment, 'system', `${stepId}: the edit is in the system prompt`);
    const diff = await bruteKv(r.step.view.models[0]!, kv.aIds, kv.bIds);
    const N = kv.aIds.length;
    const changed0 = diff[0]!.flatMap((d, i) => (d > KV_TOL ? [i] : []));
    const laterChanged = diff.slice(1).map((row) => row.filter((d, i) => i >= at && d > KV_TOL).length);
    const before = Math.max(...diff.flatMap((row) => row.slice(0, at)));
    // What this model does (measured): exactly the edited position at layer 0, all later positions above it.
    assert.deepEqual(changed0, [at], `${stepId}: layer-0 changed positions`);
    assert.deepEqual(laterChanged, diff.slice(1).map(() => N - at), `${stepId}: later layers change from the edit on`);
    assert.ok(before <= KV_TOL, `${stepId}: prefix max diff ${before}`);
    if (stepId === 'one-token') {
      const c0 = r.callouts.get('layer0')!;
      assert.notEqual(c0.missing, true);
      assert.equal(c0.values.position!.value, at);
      assert.equal(c0.values.l0!.value, changed0.length);
      const cl = r.callouts.get('later')!;
      assert.notEqual(cl.missing, true);
      assert.equal(cl.values.layers!.value, diff.length - 1);
      assert.equal(cl.values.compared!.value, N - at);
    } else {
      assert.equal(val(r.callouts, 'reuse', 'prefix'), at);
      close(val(r.callouts, 'reuse', 'share'), at / N, 'reused share');
      assert.equal(r.callouts.get('reuse')!.missing, undefined, 'shared cache: the prefix is bit-identical');
      assert.equal(val(r.callouts, 'recompute', 'recomputed'), N - at);
      assert.equal(val(r.callouts, 'recompute', 'entries'), (N - at) * diff.length);
      assert.equal(val(r.callouts, 'recompute', 'computed'), N - at, 'the engine computed only the tokens from the edit on');
    }
  }
});

// ---- harmful-patterns ----------------------------------------------------------------------------------

test('harmful-patterns: highest and lowest cached share, costs, where each pattern breaks — against brute-force prefix matching', async () => {
  const { tok } = models.get('kvscope-tiny')!;
  const BLOCK = 256;
  const ALPHA = 0.1;
  const brute = PATTERN_MODES.map((mode) => {
    const ids = patternRun(mode, { seed: PATTERN_SEED }).calls.map((c) => buildPrompt(tok, c.request, { addGenerationPrompt: true }).ids);
    let sent = 0;
    let cached = 0;
    const calls = ids.map((x, i) => {
      let best = -1;
      let match = 0;
      for (let j = 0; j < i; j++) {
        const m = prefixLen(x, ids[j]!);
        if (best < 0 || m >= match) [best, match] = [j, m];
      }
      const c = Math.floor(match / BLOCK) * BLOCK;
      sent += x.length;
      cached += c;
      return { sent: x.length, cached: c, match, best, bestSent: best < 0 ? 0 : ids[best]!.length };
    });
    return { mode, sent, cached, share: cached / sent, cost: ALPHA * cached + (sent - cached), calls };
  });
  const byShare = [...brute].sort((a, b) => b.share - a.share);
  const r = await stepRuns('harmful-patterns', 'shares');
  const bw = r.callouts.get('best-worst')!;
  assert.equal(bw.words!.best, byShare[0]!.mode);
  assert.equal(bw.words!.worst, byShare.at(-1)!.mode);
  close(bw.values.bestShare!.value, byShare[0]!.share, 'best share');
  close(bw.values.worstShare!.value, byShare.at(-1)!.share, 'worst share');
  assert.equal(bw.values.bestSent!.value, byShare[0]!.sent);
  assert.ok(byShare[0]!.share > byShare.at(-1)!.share, 'the patterns differ');
  const correct = brute.find((b) => b.mode === 'correct')!;
  close(val(r.callouts, 'cost', 'correctCost'), correct.cost, 'append-only cost');
  close(val(r.callouts, 'cost', 'worstCost'), byShare.at(-1)!.cost, 'worst cost');
  assert.equal(r.callouts.has('not-correct'), byShare[0]!.mode !== 'correct', 'the callout says so when append-only is not the best');

  const w = await stepRuns('harmful-patterns', 'where');
  for (const b of brute) {
    if (b.mode === 'correct') continue;
    const i = b.calls.findIndex((c, k) => k > 0 && c.match < c.bestSent);
    const c = w.callouts.get(`break-${b.mode}`);
    if (i < 0) {
      assert.equal(c, undefined);
      continue;
    }
    assert.ok(c, `${b.mode} has a break callout`);
    assert.equal(c.values.call!.value, i + 1);
    assert.equal(c.values.earlier!.value, b.calls[i]!.best + 1);
    assert.equal(c.values.token!.value, b.calls[i]!.match);
    assert.equal(c.values.recomputed!.value, b.calls[i]!.sent - b.calls[i]!.cached);
  }
});

// ---- status-bar-cost -----------------------------------------------------------------------------------

test('status-bar-cost: S and R from the rendered prompt, the formulas, N* and the simulation — restated', async () => {
  const r = await stepRuns('status-bar-cost', 'replace-append');
  const p = r.runs[0]!.prompt;
  const S = tokensOf(p, (s) => s.message === STATUS_MESSAGE);
  const R = tokensOf(p, (s) => STATUS_INTERVAL.includes(s.message));
  assert.equal(p.spans.filter((s) => s.message === STATUS_MESSAGE).some((s) => s.segment === 'status_bar'), true, 'the status message is the status bar');
  assert.equal(val(r.callouts, 'measured', 'S'), S);
  assert.equal(val(r.callouts, 'measured', 'R'), R);
  const [N, a] = [STATUS_N, STATUS_ALPHA];
  const replace = (N - 1) * (1 - a) * R;
  const append = (a * S * N * (N - 1)) / 2;
  close(val(r.callouts, 'formulas', 'replace'), replace, 'replace formula');
  close(val(r.callouts, 'formulas', 'append'), append, 'append formula');
  const says = calloutText(r.callouts.get('formulas')!, 'en');
  assert.match(says, append < replace ? /Appending is cheaper/ : /Replacing is cheaper/);

  const c = await stepRuns('status-bar-cost', 'crossover');
  close(val(c.callouts, 'crossover', 'star'), (2 * (1 - a) * R) / (a * S), 'N*');
  // The simulation prices the update calls exactly as the formulas (block size 1, one call between updates).
  close(val(c.callouts, 'simulation', 'simReplace'), replace, 'simulated replace');
  close(val(c.callouts, 'simulation', 'simAppend'), append, 'simulated append');
});

// ---- status-bar ----------------------------------------------------------------------------------------

/** Mean over layers of the head-mean attention of the last prompt row on the tokens of `messages` (token 0 excluded: the sink region takes it), by plain loops. */
function bruteDecisionMass(p: Prompt, attention: readonly { dims: readonly number[]; data: Float32Array }[], messages: readonly number[], firstOnly = false): number {
  const keys = firstOnly ? [0] : p.spans.filter((s) => messages.includes(s.message)).flatMap((s) => Array.from({ length: s.end - s.start }, (_, i) => s.start + i)).filter((k) => k > 0);
  let total = 0;
  for (const t of attention) {
    const [H, Q, K] = t.dims as [number, number, number];
    let l = 0;
    for (let h = 0; h < H; h++) for (const k of keys) l += t.data[(h * Q + (Q - 1)) * K + k]!;
    total += l / H;
  }
  return total / attention.length;
}

test('status-bar: status-bar share in B, the latest query A→B, the first token — against plain sums over the decision rows', async () => {
  const r = await stepRuns('status-bar', 'decision');
  assert.equal(r.step.view.scenario, STATUS_ARM_B);
  const b = r.runs[0]!;
  const a = r.extra.statusArm!;
  const reqA = scenarioRequest(parseScenarioRef(STATUS_ARM_A).id, parseScenarioRef(STATUS_ARM_A).variant);
  const reqB = scenarioRequest(parseScenarioRef(STATUS_ARM_B).id, parseScenarioRef(STATUS_ARM_B).variant);
  assert.equal(reqB.messages.length, reqA.messages.length + 1, 'B is A plus one message');
  const statusMsg = reqB.messages.length - 1;
  const queryMsg = reqA.messages.length - 1;
  assert.match(String(reqB.messages[statusMsg]!.content), /<agent_status>/);
  assert.equal(reqA.messages[queryMsg]!.role, 'user');
  // A's prompt is B's up to where they part (the shared prefix), then the generation prompt.
  const shared = prefixLen(a.prompt.ids, b.prompt.ids);
  assert.ok(shared > 0.9 * a.prompt.ids.length, `shared prefix ${shared} of ${a.prompt.ids.length}`);
  const statusTokens = tokensOf(b.prompt, (s) => s.message === statusMsg);
  const status = bruteDecisionMass(b.prompt, b.attention, [statusMsg]);
  close(val(r.callouts, 'status', 'share'), status, 'status-bar share in B');
  assert.equal(val(r.callouts, 'status', 'tokens'), statusTokens);
  close(val(r.callouts, 'status', 'even'), statusTokens / b.prompt.ids.length, 'token share');
  assert.equal(r.callouts.get('status')!.missing, status > statusTokens / b.prompt.ids.length ? undefined : true);
  const qa = bruteDecisionMass(a.prompt, a.attention, [queryMsg]);
  const qb = bruteDecisionMass(b.prompt, b.attention, [queryMsg]);
  close(val(r.callouts, 'query', 'a'), qa, 'latest query in A');
  close(val(r.callouts, 'query', 'b'), qb, 'latest query in B');
  if (qb < qa) close(val(r.callouts, 'query', 'drop'), qa - qb, 'drop');
  close(val(r.callouts, 'sink', 'a'), bruteDecisionMass(a.prompt, a.attention, [], true), 'first token in A');
  close(val(r.callouts, 'sink', 'b'), bruteDecisionMass(b.prompt, b.attention, [], true), 'first token in B');
});

test('status-bar decisions: tallies, seed-by-seed flips and the names called — against `kvscope ab --seeds 3 --json` (its own prefill, generation and decoding)', async () => {
  const r = await stepRuns('status-bar', 'decisions');
  assert.equal(r.step.view.kind, 'seeds');
  const s = r.extra.seeds!;
  assert.deepEqual(s.seeds, [...STATUS_SEEDS]);
  assert.deepEqual(STATUS_SEEDS, [1, 2, 3], 'the CLI samples seeds 1…N');
  // The CLI: both arms prefilled in 256-token chunks on their own sessions, generate() called directly, decodeIds with the tokenizer.
  const cli = await ab(parseArgs(['--model', 'public/models/kvscope-tiny', '--scenario', 'xfinity', '--seeds', String(STATUS_SEEDS.length), '--max-new-tokens', String(STATUS_MAX_NEW_TOKENS), '--json'], ['json']));
  assert.equal(cli.code, 0);
  type CliArm = { arm: 'A' | 'B'; variant: string; decisions: { call: number; refuse: number }; seeds: { seed: number; decision: 'call' | 'refuse'; text: string; parsed: { toolCalls: { name: string; arguments?: unknown }[] } }[] };
  const arms = (cli.json as { arms: CliArm[] }).arms;
  assert.deepEqual(
    arms.map((a) => a.variant),
    [parseScenarioRef(STATUS_ARM_A).variant, parseScenarioRef(STATUS_ARM_B).variant],
  );
  const [A, B] = arms as [CliArm, CliArm];
  // Seed by seed: the same continuation and decision as the lesson's (deterministic seeded sampling).
  for (const [mine, theirs] of [
    [s.a, A],
    [s.b, B],
  ] as const) {
    assert.deepEqual(
      mine.map((x) => [x.seed, x.decision, x.text]),
      theirs.seeds.map((x) => [x.seed, x.decision, x.text]),
      `arm ${theirs.arm}`,
    );
  }
  const n = STATUS_SEEDS.length;
  assert.equal(val(r.callouts, 'tally', 'callA'), A.decisions.call);
  assert.equal(val(r.callouts, 'tally', 'callB'), B.decisions.call);
  assert.equal(val(r.callouts, 'tally', 'n'), n);
  let flipped = 0;
  let worse = 0;
  for (let i = 0; i < n; i++) {
    if (A.seeds[i]!.decision === 'call' && B.seeds[i]!.decision === 'refuse') flipped++;
    if (A.seeds[i]!.decision === 'refuse' && B.seeds[i]!.decision === 'call') worse++;
  }
  assert.equal(val(r.callouts, 'effect', 'flipped'), flipped);
  assert.equal(val(r.callouts, 'effect', 'worse'), worse);
  assert.equal(r.callouts.get('effect')!.missing, B.decisions.call < A.decisions.call ? undefined : true, 'missing flag: the status bar does not lower the calls');
  // The names: every string argument of a generated phone_call, against the conversation's own (Xfinity) — by plain loops.
  const strings = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.flatMap(strings) : v && typeof v === 'object' ? Object.values(v).flatMap(strings) : []);
  const named = [...A.seeds, ...B.seeds].flatMap((x) => x.parsed.toolCalls.filter((c) => c.name === 'phone_call').flatMap((c) => strings(c.arguments)));
  if (named.length === 0) assert.equal(r.callouts.has('names'), false);
  else {
    assert.equal(val(r.callouts, 'names', 'total'), named.length);
    const known = named.filter((x) => x.toLowerCase() === 'xfinity').length;
    assert.equal(val(r.callouts, 'names', 'known'), known);
    assert.equal(val(r.callouts, 'names', 'other'), named.length - known);
    assert.equal(r.callouts.get('names')!.words!.target, 'Xfinity');
  }
});

// ---- context-growth ------------------------------------------------------------------------------------

test('context-growth: the embedded seed log is the fixture; first, peak, totals and the append-only cache — restated by plain loops', async () => {
  const parsed = parseRunLog(readFileSync(SEED_RUN_LOG_FILE, 'utf8'));
  assert.ok(parsed.ok);
  const { log } = seedGrowth();
  assert.deepEqual(log, parsed.log, 'the lesson log is the fixture as the Data tab reads it');
  const p = log.calls.map((c) => c.promptTokens);
  const o = log.calls.map((c) => c.completionTokens);
  let peak = 0;
  let peakAt = 0;
  p.forEach((x, i) => {
    if (x > peak) [peak, peakAt] = [x, i + 1];
  });
  const g = await stepRuns('context-growth', 'grows');
  assert.equal(g.runs.length, 0, 'no model runs');
  assert.equal(val(g.callouts, 'growth', 'first'), p[0]);
  assert.equal(val(g.callouts, 'growth', 'peak'), peak);
  assert.equal(val(g.callouts, 'growth', 'peakAt'), peakAt);
  assert.equal(val(g.callouts, 'growth', 'calls'), p.length);
  close(val(g.callouts, 'growth', 'ratio'), peak / p[0]!, 'peak / first');
  assert.equal(val(g.callouts, 'growth', 'grew'), p.filter((x, i) => i > 0 && x > p[i - 1]!).length);
  assert.equal(val(g.callouts, 'total', 'prompt'), p.reduce((x, y) => x + y, 0));
  assert.equal(val(g.callouts, 'total', 'completion'), o.reduce((x, y) => x + y, 0));
  // The seed's headline numbers (fixtures README): 2,024 → 94,355 over 26 calls, one agent.
  assert.deepEqual([p[0], peak, p.length, log.agents.length], [2024, 94355, 26, 1]);

  // One agent: call i can reuse call i − 1's prompt and completion, capped at its own prompt.
  let cached = 0;
  for (let i = 1; i < p.length; i++) cached += Math.min(p[i - 1]! + o[i - 1]!, p[i]!);
  const total = p.reduce((x, y) => x + y, 0);
  const costCached = total - cached + GROWTH_ALPHA * cached;
  const c = await stepRuns('context-growth', 'cache');
  assert.equal(val(c.callouts, 'cache', 'cached'), cached);
  close(val(c.callouts, 'cache', 'cachedShare'), cached / total, 'cached share');
  close(val(c.callouts, 'saved', 'costCached'), costCached, 'cost with cache');
  assert.equal(val(c.callouts, 'saved', 'costUncached'), total);
  close(val(c.callouts, 'saved', 'saved'), total - costCached, 'saved');
  close(val(c.callouts, 'saved', 'savedShare'), (total - costCached) / total, 'saved share');
  close(val(c.callouts, 'saved', 'alpha'), GROWTH_ALPHA, 'alpha');
});

// ---- pure parts ----------------------------------------------------------------------------------------

test('every callout fills all its slots in both languages; ?step=N; the registry', async () => {
  for (const lesson of LESSONS) {
    assert.ok(lesson.steps.length > 0);
    for (const step of lesson.steps) {
      assert.notEqual(step.body.en, step.body.zh);
      const runs: Analysed[] = [];
      for (const m of step.view.models) runs.push(await analyse(m, step));
      const cs = step.callouts(runs, await extraOf(step, runs));
      assert.ok(cs.length > 0, `${lesson.slug}/${step.id} has a callout`);
      for (const c of cs) {
        for (const lang of ['en', 'zh'] as const) {
          const txt = calloutText(c, lang);
          assert.doesNotMatch(txt, /\{\w+\}/, `${lesson.slug}/${step.id}/${c.id} (${lang}): ${txt}`);
          assert.ok(calloutParts(c, lang).some((p) => p.kind === 'value') || c.missing, `${c.id} shows a computed value`);
        }
        for (const v of Object.values(c.values)) assert.ok(Number.isFinite(v.value));
      }
    }
  }
  assert.equal(stepFromQuery('?step=2', 4), 1);
  assert.equal(stepFromQuery('?step=9', 4), 3);
  assert.equal(stepFromQuery('?step=0', 4), 0);
  assert.equal(stepFromQuery('?step=x', 4), 0);
  assert.equal(stepFromQuery('', 4), 0);
  assert.equal(lessonBySlug('nope'), null);
  assert.deepEqual(new Set(LESSONS.map((l) => l.slug)).size, LESSONS.length);
  const c: Callout = { id: 'x', template: { en: 'a {n} b {w} {zz}', zh: '' }, values: { n: { value: 1, text: '1.0' } }, words: { w: 'W' } };
  assert.deepEqual(
    calloutParts(c, 'en').map((p) => [p.kind, p.text]),
    [['text', 'a '], ['value', '1.0'], ['text', ' b '], ['word', 'W'], ['text', ' '], ['text', '{zz}']],
  );
});
