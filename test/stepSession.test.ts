// lib/generate/stepSession.ts on the embedded model (EngineSession, WASM in Node): every step forward is one
// extend of one token, a jump one extend of several, a step back one fork, and the rows the stepper keeps
// equal those of one prefill of the whole sequence (≤ 1e-5, the tolerance of test/stepping.test.ts); a cache
// changed behind its back is re-established by one prefill; generation continues the same cache and
// stepping back through it forks; a graph that keeps only the last logits row re-decodes one token.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { readModelDir } from '../lib/cli/modelDir';
import { nodeOrt } from '../lib/cli/ort';
import { EngineSession } from '../lib/engine/session';
import { generate, lastRow } from '../lib/generate/generate';
import { greedySettings, parseGenerationConfig } from '../lib/generate/sampling';
import { StepSession } from '../lib/generate/stepSession';
import { attentionRow } from '../lib/generate/stepper';
import { buildPrompt } from '../lib/prompt/prompt';
import { validateRequest } from '../lib/prompt/request';
import { createTokenizer } from '../lib/prompt/tokenizer';

const TOL = 1e-5;
const GRAPH = { logits: 'all', attention: 'full', attentionRows: 'all', presentKv: true } as const;
const model = readModelDir('public/models/kvscope-tiny');
const tok = createTokenizer(model.tokenizerJson, model.tokenizerConfig);
const ort = nodeOrt();
const engine = await EngineSession.create(ort, model.checkpoint, { graph: GRAPH });
after(() => engine.dispose());
const V = model.checkpoint.config.vocabSize;
const L = model.checkpoint.config.numLayers;

function promptIds(file: string): number[] {
  const v = validateRequest(readFileSync(`examples/requests/${file}.json`, 'utf8'));
  if (!v.ok) throw new Error(`${file}: invalid request`);
  return buildPrompt(tok, v.request, { addGenerationPrompt: true }).ids;
}
const seq = promptIds('vancouver');
const T = seq.length;

function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  assert.equal(a.length, b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

test('steps, jumps and steps back: one extend or one fork each, rows equal one full prefill', async (t) => {
  const full = await engine.prefill(seq);
  const want = (q: number) => ({ attention: full.attention.map((a) => attentionRow(a, q, q + 1)), logits: full.logits!.data.subarray(q * V, (q + 1) * V) });
  const s = new StepSession(engine, seq);
  const P = T - 40;
  await s.establish(P);
  assert.equal(s.cursor, P);
  assert.equal(engine.length, P);
  assert.deepEqual(s.ops.map((o) => [o.kind, o.from, o.to, o.via]), [['prefill', T, P, 'prefill']]);
  await s.moveTo(P + 1);
  await s.moveTo(P + 2);
  await s.moveTo(P + 30); // a jump of 28
  await s.moveTo(P + 25); // back
  await s.moveTo(P + 26);
  assert.deepEqual(
    s.ops.slice(1).map((o) => [o.kind, o.from, o.to, o.via]),
    [
      ['extend', P, P + 1, 'step'],
      ['extend', P + 1, P + 2, 'step'],
      ['extend', P + 2, P + 30, 'jump'],
      ['fork', P + 30, P + 25, 'back'],
      ['extend', P + 25, P + 26, 'step'],
    ],
  );
  assert.equal(s.cursor, P + 26);
  assert.equal(engine.length, P + 26);
  assert.deepEqual([...engine.ids], seq.slice(0, P + 26));
  assert.equal(s.rows.length, P + 26);
  assert.equal(s.rows[P + 25]!.via, 'step');
  assert.equal(s.rows[P + 10]!.via, 'jump');
  assert.equal(s.rows[P + 10]!.runTokens, 28);
  assert.equal(s.rows[5]!.via, 'prefill');
  let dA = 0;
  let dL = 0;
  for (const q of [0, 5, P - 1, P, P + 1, P + 10, P + 24, P + 25]) {
    const r = s.rows[q]!;
    const w = want(q);
    assert.equal(r.position, q);
    assert.equal(r.attention.length, L);
    for (let l = 0; l < L; l++) dA = Math.max(dA, maxDiff(r.attention[l]!, w.attention[l]!));
    dL = Math.max(dL, maxDiff(r.logits!, w.logits));
  }
  t.diagnostic(`max |Δ attention| = ${dA.toExponential(2)}, max |Δ logits| = ${dL.toExponential(2)}`);
  assert.ok(dA <= TOL && dL <= TOL, `attention ${dA}, logits ${dL}`);
  // Clamped: nothing below 1 or beyond the end.
  await s.moveTo(0);
  assert.equal(s.cursor, 1);
  await s.moveTo(T + 100);
  assert.equal(s.cursor, T);
  assert.equal(s.ops.at(-1)!.to - s.ops.at(-1)!.from, T - 1, 'one extend from 1 to the end');
});

test('a cache changed by someone else is re-established by one prefill up to the cursor', async () => {
  const s = new StepSession(engine, seq);
  await s.establish(100);
  await engine.prefill(promptIds('beijing').slice(0, 50)); // another view uses the same engine
  assert.equal(s.inSync(), false);
  await s.moveTo(101);
  assert.deepEqual(
    s.ops.map((o) => [o.kind, o.to, o.via, o.resync ?? false]),
    [
      ['prefill', 100, 'prefill', false],
      ['prefill', 100, 'prefill', true],
      ['extend', 101, 'step', false],
    ],
  );
  assert.deepEqual([...engine.ids], seq.slice(0, 101));
  assert.equal(s.inSync(), true);
});

test('generation continues the cache: greedy ids equal lib generate, stepping back forks, back to the prompt restores it', async () => {
  const eos = parseGenerationConfig(model.generationConfig).eosIds;
  const sampling = greedySettings(eos);
  const pre = await engine.prefill(seq);
  const ref = await generate(engine, lastRow(pre.logits!), T, { maxNewTokens: 10, sampling, seed: 0 });

  const s = new StepSession(engine, seq);
  await s.establish(T);
  const seen: number[] = [];
  const r = await s.generate({ maxNewTokens: 10, sampling, seed: 0, onToken: (id) => seen.push(id) });
  assert.deepEqual(r.ids, ref.ids);
  assert.deepEqual(seen, ref.ids);
  assert.equal(s.genStart, T);
  assert.equal(s.revision, 1 + ref.ids.length, 'one revision for the cut, one per generated token');
  assert.deepEqual(s.seq, [...seq, ...ref.ids]);
  assert.equal(s.cursor, T + r.ids.length);
  assert.deepEqual([...engine.ids], s.seq);
  assert.equal(s.rows[T]!.via, 'generate');
  assert.equal(s.rows[T]!.attention[0]!.length, 4 * (T + 1));
  // Step back into the generated part, then forward again: fork, then one extend of the generated token.
  await s.moveTo(T + 2);
  assert.equal(engine.length, T + 2);
  await s.moveTo(T + 3);
  assert.deepEqual([...engine.ids], s.seq.slice(0, T + 3));
  await s.backToPrompt();
  assert.equal(s.genStart, null);
  assert.deepEqual(s.seq, seq);
  assert.equal(s.cursor, T);
  assert.equal(engine.length, T);
  assert.deepEqual([...engine.ids], seq);
});

test('sampled generation from the middle of the prompt is reproducible from the seed and drops the prompt tail from the timeline', async () => {
  const sampling = parseGenerationConfig(model.generationConfig);
  const run = async () => {
    const s = new StepSession(engine, seq);
    await s.establish(200);
    const r = await s.generate({ maxNewTokens: 12, sampling, seed: 7 });
    assert.equal(s.seq.length, 200 + r.ids.length);
    assert.deepEqual(s.seq.slice(0, 200), seq.slice(0, 200));
    return r.ids;
  };
  assert.deepEqual(await run(), await run());
});

test('an aborted generation stops before the next token and keeps what it made', async () => {
  const s = new StepSession(engine, seq);
  await s.establish(T);
  const ac = new AbortController();
  const r = await s.generate({ maxNewTokens: 50, sampling: greedySettings([]), seed: 0, signal: ac.signal, onToken: () => (s.seq.length - T === 3 ? ac.abort() : undefined) });
  assert.equal(r.stopped, 'aborted');
  assert.equal(r.ids.length, 3);
  assert.equal(s.cursor, T + 3);
});

test('with a logits-last graph, generation after stepping back re-decodes one token for its logits', async () => {
  const e2 = await EngineSession.create(ort, model.checkpoint, { graph: { ...GRAPH, logits: 'last' } });
  try {
    const s = new StepSession(e2, seq);
    await s.establish(T);
    assert.equal(s.rows[T - 2]!.logits, null);
    assert.ok(s.rows[T - 1]!.logits);
    await s.moveTo(T - 5);
    const r = await s.generate({ maxNewTokens: 3, sampling: greedySettings([]), seed: 0 });
    const kinds = s.ops.map((o) => `${o.kind}:${o.via}:${o.from}→${o.to}`);
    assert.deepEqual(kinds.slice(0, 4), [`prefill:prefill:0→${T}`, `fork:back:${T}→${T - 5}`, `fork:redo:${T - 5}→${T - 6}`, `extend:redo:${T - 6}→${T - 5}`]);
    // The same tokens as from the full-logits engine.
    const pre = await engine.prefill(seq.slice(0, T - 5));
    const ref = await generate(engine, lastRow(pre.logits!), T - 5, { maxNewTokens: 3, sampling: greedySettings([]), seed: 0 });
    assert.deepEqual(r.ids, ref.ids);
  } finally {
    await e2.dispose();
  }
});

test('counts: operations by kind since the session began', async () => {
  const s = new StepSession(engine, seq);
  await s.establish(50);
  await s.moveTo(51);
  await s.moveTo(52);
  await s.moveTo(60);
  await s.moveTo(55);
  await s.generate({ maxNewTokens: 2, sampling: greedySettings([]), seed: 0 });
  assert.deepEqual(s.counts, { prefill: 1, resync: 0, step: 2, jump: 1, generate: 2, fork: 1, redo: 0 });
});
