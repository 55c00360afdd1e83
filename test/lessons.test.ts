// The lessons' "what to notice" callouts (lib/lessons), computed in Node from the embedded models' real
// tensors (EngineSession on onnxruntime-web WASM, the same graph the page's worker builds) and checked
// against independent restatements: brute-force loops over the attention tensors and the rendered prompts,
// not the lib functions the callouts use. Tolerances: shares are float32 means, compared at 1e-6 absolute;
// token counts exactly. Also: every template slot is filled in both languages, ?step=N parsing, the registry.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { runOf } from '../lib/agent/run';
import { readModelDir } from '../lib/cli/modelDir';
import { nodeOrt } from '../lib/cli/ort';
import { EngineSession } from '../lib/engine/session';
import { calloutParts, calloutText, LESSONS, lessonBySlug, stepFromQuery, type Callout, type LessonStep } from '../lib/lessons';
import { SINK_HEAD, SINK_LAYER, SINK_MODELS } from '../lib/lessons/attentionSink';
import { displayToken } from '../lib/prompt/label';
import { buildPrompt, type Prompt } from '../lib/prompt/prompt';
import { createTokenizer } from '../lib/prompt/tokenizer';
import { parseScenarioRef, scenarioRequest } from '../lib/scenarios';
import type { Analysed } from '../lib/state/analysed';
import { conversationDiffers, resolveContext } from '../lib/state/context';

const EPS = 1e-6;

const models = new Map<string, { tok: ReturnType<typeof createTokenizer>; engine: EngineSession }>();
for (const id of SINK_MODELS) {
  const m = readModelDir(`public/models/${id}`);
  models.set(id, { tok: createTokenizer(m.tokenizerJson, m.tokenizerConfig), engine: await EngineSession.create(nodeOrt(1), m.checkpoint, { graph: { logits: 'none', attention: 'full' } }) });
}
after(() => models.forEach((m) => m.engine.dispose()));

/** What useAttentionRun gives the page for a step's model, rebuilt in Node. */
async function analyse(model: string, step: LessonStep): Promise<Analysed> {
  const { tok, engine } = models.get(model)!;
  const { id, variant } = parseScenarioRef(step.view.scenario);
  const req = scenarioRequest(id, variant);
  const run = runOf(req);
  const context = resolveContext(run, step.view.context);
  const callPrompts = run.calls.map((c) => buildPrompt(tok, c.request, { addGenerationPrompt: true }));
  const conv = buildPrompt(tok, req, { addGenerationPrompt: true });
  const prompt = context.kind === 'conversation' ? conv : callPrompts[context.index]!;
  const r = await engine.prefill(prompt.ids);
  return { run, callPrompts, context, conversationTokens: conv.ids.length, conversationDiffers: conversationDiffers(run), prompt, labels: prompt.tokens.map(displayToken), attention: r.attention, tokens: prompt.ids.length };
}

async function stepRuns(slug: string, stepId: string): Promise<{ step: LessonStep; runs: Analysed[]; callouts: Map<string, Callout> }> {
  const step = lessonBySlug(slug)!.steps.find((s) => s.id === stepId)!;
  const runs: Analysed[] = [];
  for (const m of step.view.models) runs.push(await analyse(m, step));
  return { step, runs, callouts: new Map(step.callouts(runs).map((c) => [c.id, c])) };
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

// ---- pure parts ----------------------------------------------------------------------------------------

test('every callout fills all its slots in both languages; ?step=N; the registry', async () => {
  for (const lesson of LESSONS) {
    assert.ok(lesson.steps.length > 0);
    for (const step of lesson.steps) {
      assert.notEqual(step.body.en, step.body.zh);
      const runs: Analysed[] = [];
      for (const m of step.view.models) runs.push(await analyse(m, step));
      const cs = step.callouts(runs);
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
