// Generation numerics on the embedded model (kvscope-tiny, fp32 on onnxruntime-web WASM in Node):
// - stepping N tokens (prefill of a prefix, then extend by 1, N times) gives the same attention rows and
//   logits as one prefill of the whole sequence;
// - a jump (one chunked extend of k tokens) equals stepping k times;
// - generation with a fixed seed is reproducible across fresh sessions;
// - greedy generation equals the argmax of the float64 reference (lib/model/reference.ts) token by token.
//
// Tolerances: attention probabilities TOL = 1e-5 (max absolute difference); logits 16 float32 ulps of the
// largest |logit| compared (logitTol), since their noise scales with their size. Measured on the development
// machine (WASM; identical with 1, 2 and 4 threads), xfinity-with-status prompt, prefix 635, 32 tokens: run 4's
// model, stepping vs prefill max |Δ logits| = 5.96e-6 (logits reach |21|, ≈ 3 ulps) and max |Δ attention| =
// 8.3e-7, a jump of 32 (or 7) vs stepping 5.72e-6 and 6.9e-7 (2.7e-7); run 8's model (logits within |16…32|,
// ulp 1.9e-6) 1.05e-5 (≈ 5.5 ulps) and 1.04e-6, a jump 1.14e-5 and 8.5e-7. A wrong cache entry moves logits by
// far more than 16 ulps. The tests print their own figures as diagnostics. Different query counts change
// matmul shapes and summation order, so bit-identity is not expected, only float32 noise. Masked (future) keys
// in the prefill rows are exactly 0.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { readModelDir } from '../lib/cli/modelDir';
import { nodeOrt } from '../lib/cli/ort';
import { EngineSession, type RunResult } from '../lib/engine/session';
import { generate, lastRow } from '../lib/generate/generate';
import { argmax, greedySettings, parseGenerationConfig } from '../lib/generate/sampling';
import { referenceForward, type ReferenceCache } from '../lib/model/reference';
import { buildPrompt } from '../lib/prompt/prompt';
import { validateRequest } from '../lib/prompt/request';
import { createTokenizer } from '../lib/prompt/tokenizer';

const TOL = 1e-5;
/** 16 float32 ulps (relative 2e-6) of the largest |x| in the given logits: the float32 noise a different summation order leaves. */
function logitTol(...rows: Float32Array[]): number {
  let m = 0;
  for (const r of rows) for (const x of r) m = Math.max(m, Math.abs(x));
  return 16 * 2 ** (Math.floor(Math.log2(m)) - 23);
}
const GRAPH = { logits: 'all', attention: 'full', attentionRows: 'all', presentKv: true } as const;

const model = readModelDir('public/models/kvscope-tiny');
const tok = createTokenizer(model.tokenizerJson, model.tokenizerConfig);
const c = model.checkpoint.config;
const V = c.vocabSize;
const ort = nodeOrt();
const engine = await EngineSession.create(ort, model.checkpoint, { graph: GRAPH });
after(() => engine.dispose());

function promptIds(file: string): number[] {
  const v = validateRequest(readFileSync(`examples/requests/${file}.json`, 'utf8'));
  if (!v.ok) throw new Error(`${file}: invalid request`);
  return buildPrompt(tok, v.request, { addGenerationPrompt: true }).ids;
}

/** Row `r` of layer attention [H, R, K] for head h, first `keys` keys. */
function attnRow(a: { data: Float32Array; dims: number[] }, h: number, r: number, keys: number): Float32Array {
  const [, R, K] = a.dims as [number, number, number];
  const at = (h * R + r) * K;
  return a.data.subarray(at, at + keys);
}

function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  assert.equal(a.length, b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

/** Logits row r of a [T, V] result. */
const logitsRow = (res: RunResult, r: number) => res.logits!.data.subarray(r * V, (r + 1) * V);

const seq = promptIds('xfinity-with-status');
const N = 32;
const P = seq.length - N;

/** Prefill the prefix, then extend one token at a time: the N step results. */
async function stepFrom(p: number, n: number): Promise<RunResult[]> {
  await engine.prefill(seq.slice(0, p));
  const out: RunResult[] = [];
  for (let i = 0; i < n; i++) out.push(await engine.extend([seq[p + i]!]));
  return out;
}

test(`stepping ${N} tokens after a prefix equals one prefill of the whole sequence (attention ≤ ${TOL}, logits ≤ 16 ulps)`, async (t) => {
  assert.ok(P > 100, `prompt of ${seq.length} tokens`);
  const full = await engine.prefill(seq);
  assert.deepEqual(full.logits!.dims, [seq.length, V]);
  const steps = await stepFrom(P, N);
  let dLogits = 0;
  let dAttn = 0;
  let masked = 0;
  steps.forEach((s, i) => {
    const pos = P + i;
    assert.deepEqual(s.rows, [pos]);
    assert.deepEqual(s.logits!.dims, [1, V]);
    dLogits = Math.max(dLogits, maxDiff(s.logits!.data, logitsRow(full, pos)));
    for (let l = 0; l < c.numLayers; l++) {
      const a = s.attention[l]!;
      assert.deepEqual(a.dims, [c.numHeads, 1, pos + 1]);
      for (let h = 0; h < c.numHeads; h++) {
        dAttn = Math.max(dAttn, maxDiff(attnRow(a, h, 0, pos + 1), attnRow(full.attention[l]!, h, pos, pos + 1)));
        const fut = attnRow(full.attention[l]!, h, pos, seq.length).subarray(pos + 1);
        for (const x of fut) masked = Math.max(masked, Math.abs(x));
      }
    }
  });
  const lTol = logitTol(full.logits!.data.subarray(P * V));
  t.diagnostic(`prefix ${P}, ${N} steps: max |Δ logits| = ${dLogits.toExponential(2)} (tolerance ${lTol.toExponential(2)}), max |Δ attention| = ${dAttn.toExponential(2)}`);
  assert.equal(masked, 0, 'future keys are exactly 0 in the prefill rows');
  assert.ok(dLogits <= lTol, `logits differ by ${dLogits}`);
  assert.ok(dAttn <= TOL, `attention differs by ${dAttn}`);
});

test(`a jump (one extend of k tokens) equals stepping k times (attention ≤ ${TOL}, logits ≤ 16 ulps)`, async (t) => {
  const steps = await stepFrom(P, N);
  for (const k of [N, 7]) {
    engine.fork(P);
    const jump = await engine.extend(seq.slice(P, P + k));
    assert.deepEqual(jump.rows, Array.from({ length: k }, (_, i) => P + i));
    let dLogits = 0;
    let dAttn = 0;
    for (let i = 0; i < k; i++) {
      const pos = P + i;
      dLogits = Math.max(dLogits, maxDiff(steps[i]!.logits!.data, logitsRow(jump, i)));
      for (let l = 0; l < c.numLayers; l++) {
        assert.deepEqual(jump.attention[l]!.dims, [c.numHeads, k, P + k]);
        for (let h = 0; h < c.numHeads; h++) dAttn = Math.max(dAttn, maxDiff(attnRow(steps[i]!.attention[l]!, h, 0, pos + 1), attnRow(jump.attention[l]!, h, i, pos + 1)));
      }
    }
    const lTol = logitTol(...steps.slice(0, k).map((x) => x.logits!.data));
    t.diagnostic(`jump of ${k} from ${P}: max |Δ logits| = ${dLogits.toExponential(2)} (tolerance ${lTol.toExponential(2)}), max |Δ attention| = ${dAttn.toExponential(2)}`);
    assert.ok(dLogits <= lTol, `k=${k}: logits differ by ${dLogits}`);
    assert.ok(dAttn <= TOL, `k=${k}: attention differs by ${dAttn}`);
  }
});

test('sampled generation with a fixed seed is reproducible across fresh sessions (embedded generation_config)', async (t) => {
  const sampling = parseGenerationConfig(model.generationConfig);
  assert.equal(sampling.doSample, true);
  const prompt = promptIds('xfinity-without-status');
  const run = async (seed: number) => {
    const e = await EngineSession.create(ort, model.checkpoint, { graph: { ...GRAPH, logits: 'last' } });
    try {
      const pre = await e.prefill(prompt);
      const r = await generate(e, lastRow(pre.logits!), prompt.length, { maxNewTokens: 40, sampling, seed, keepAttention: true });
      assert.equal(e.length, prompt.length + r.ids.length, 'the cache holds prompt + generated ids');
      r.steps.forEach((s, i) => assert.deepEqual(s.attention![0]!.dims, [c.numHeads, 1, prompt.length + i + 1]));
      return r;
    } finally {
      await e.dispose();
    }
  };
  const a = await run(1234);
  const b = await run(1234);
  assert.deepEqual(b.ids, a.ids);
  assert.deepEqual(
    b.steps.map((s) => s.p),
    a.steps.map((s) => s.p),
  );
  t.diagnostic(`seed 1234: ${a.ids.length} tokens, stopped ${a.stopped}: ${JSON.stringify(tok.decode(a.ids, { skip_special_tokens: false }))}`);
});

test('greedy generation equals repeatedly taking the argmax of the float64 reference', async (t) => {
  const prompt = promptIds('vancouver');
  const M = 12;
  const pre = await engine.prefill(prompt);
  const eos = parseGenerationConfig(model.generationConfig).eosIds;
  const r = await generate(engine, lastRow(pre.logits!), prompt.length, { maxNewTokens: M, sampling: greedySettings(eos), seed: 0 });
  assert.ok(r.ids.length >= 4, `only ${r.ids.length} tokens generated`);

  let ref = referenceForward(model.checkpoint, prompt);
  let cache: ReferenceCache = ref.cache;
  let minMargin = Infinity;
  for (let i = 0; i < r.ids.length; i++) {
    const row = ref.logits.subarray(ref.logits.length - V);
    const want = argmax(row);
    const sorted = Float64Array.from(row).sort();
    minMargin = Math.min(minMargin, sorted[V - 1]! - sorted[V - 2]!);
    assert.equal(r.ids[i], want, `token ${i}: engine ${r.ids[i]}, reference ${want}`);
    ref = referenceForward(model.checkpoint, [want], { past: cache });
    cache = ref.cache;
  }
  t.diagnostic(`${r.ids.length} greedy tokens (${r.stopped}) match the reference; smallest top-1/top-2 logit margin ${minMargin.toExponential(2)}`);
  assert.ok(minMargin > 100 * TOL, 'margins far above float32 noise, so the comparison is meaningful');
});
