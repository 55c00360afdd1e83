// lib/generate/generate.ts on a synthetic engine (logits a seeded function of the tokens so far): stop
// reasons, the eos token kept, one extend per token, positions, plain-softmax top tokens, attention
// copies, greedy ties, and reproducibility from the seed. The embedded model runs in test/stepping.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generate, lastRow, TOP_N, type GenEngine, type GenStep } from '../lib/generate/generate';
import { argmax, greedySettings, softmax, topTokens, type SamplingSettings } from '../lib/generate/sampling';
import { Rng } from '../lib/util/rng';

const VOCAB = 50;
const EOS = 49;

/** Logits after `history`: deterministic, well spread, eos made unlikely unless `eosBoost`. */
function logitsAfter(history: number[], eosBoost = -6): Float32Array {
  let h = 17;
  for (const id of history) h = (Math.imul(h, 31) + id + 1) >>> 0;
  const r = new Rng(h);
  const l = Float32Array.from({ length: VOCAB }, () => 6 * r.next() - 3);
  l[EOS] = eosBoost;
  return l;
}

class FakeEngine implements GenEngine {
  history: number[];
  calls: number[][] = [];
  constructor(
    prompt: number[],
    private eosBoost = -6,
    private rows: 'last' | 'all' = 'last',
  ) {
    this.history = [...prompt];
  }
  async extend(ids: number[]) {
    this.calls.push(ids);
    this.history.push(...ids);
    const row = logitsAfter(this.history, this.eosBoost);
    // 'all': a [T, vocab] tensor whose last row is the real one (first rows garbage).
    const data = this.rows === 'all' ? Float32Array.from([...new Float32Array(VOCAB).fill(99), ...row]) : row;
    const keys = this.history.length;
    const attention = [0, 1].map((l) => ({ data: new Float32Array(2 * keys).fill(l + 1 / keys), dims: [2, 1, keys] }));
    return { logits: { data, dims: [data.length / VOCAB, VOCAB] }, attention };
  }
}

const PROMPT = [3, 1, 4, 1, 5];
const SAMPLE: SamplingSettings = { doSample: true, temperature: 0.8, topK: 10, topP: 0.9, eosIds: [EOS] };

test('greedy: argmax each step, one extend([id]) per token, positions from startPosition, limit stop', async () => {
  const engine = new FakeEngine(PROMPT);
  const r = await generate(engine, logitsAfter(PROMPT), PROMPT.length, { maxNewTokens: 8, sampling: greedySettings([EOS]), seed: 1 });
  assert.equal(r.stopped, 'limit');
  assert.equal(r.ids.length, 8);
  assert.deepEqual(engine.calls, r.ids.map((id) => [id]));
  assert.deepEqual(engine.history, [...PROMPT, ...r.ids], 'the cache holds prompt + ids');
  const hist = [...PROMPT];
  r.steps.forEach((s, i) => {
    const l = logitsAfter(hist);
    assert.equal(s.id, argmax(l));
    assert.equal(s.position, PROMPT.length + i);
    const plain = softmax(l);
    assert.equal(s.p, plain[s.id]);
    assert.deepEqual(s.top, topTokens(plain, TOP_N));
    assert.equal(s.top.length, 5);
    assert.equal(s.attention, undefined);
    hist.push(s.id);
  });
});

test('greedy ties go to the lowest id', async () => {
  const engine: GenEngine = { extend: async () => ({ logits: { data: new Float32Array([0, 2, 2, 2]), dims: [1, 4] } }) };
  const r = await generate(engine, new Float32Array([1, 5, 5, 0]), 0, { maxNewTokens: 3, sampling: greedySettings(), seed: 0 });
  assert.deepEqual(r.ids, [1, 1, 1]);
});

test('eos is included, taken into the cache, and ends generation', async () => {
  const engine = new FakeEngine(PROMPT, 4);
  const r = await generate(engine, logitsAfter(PROMPT), PROMPT.length, { maxNewTokens: 100, sampling: SAMPLE, seed: 3 });
  assert.equal(r.stopped, 'eos');
  assert.equal(r.ids.at(-1), EOS);
  assert.equal(r.ids.filter((id) => id === EOS).length, 1);
  assert.deepEqual(engine.history, [...PROMPT, ...r.ids]);
});

test('same seed → same ids; different seeds differ; every sampled id within the top-k of its step', async () => {
  const run = async (seed: number) => {
    const engine = new FakeEngine(PROMPT);
    return generate(engine, logitsAfter(PROMPT), PROMPT.length, { maxNewTokens: 40, sampling: SAMPLE, seed });
  };
  const a = await run(11);
  const b = await run(11);
  const c = await run(12);
  assert.deepEqual(a.ids, b.ids);
  assert.notDeepEqual(a.ids, c.ids);
  for (const r of [a, c]) {
    const hist = [...PROMPT];
    for (const s of r.steps) {
      const top10 = topTokens(softmax(logitsAfter(hist)), 10).map((t) => t.id);
      assert.ok(top10.includes(s.id), `${s.id} outside the top 10`);
      hist.push(s.id);
    }
  }
});

test('onStep returning false stops after that token; other return values continue', async () => {
  const seen: GenStep[] = [];
  const engine = new FakeEngine(PROMPT);
  const r = await generate(engine, logitsAfter(PROMPT), 5, {
    maxNewTokens: 20,
    sampling: SAMPLE,
    seed: 5,
    onStep: (s) => {
      seen.push(s);
      if (seen.length === 3) return false;
      return seen.length === 1 ? true : undefined;
    },
  });
  assert.equal(r.stopped, 'callback');
  assert.equal(r.ids.length, 3);
  assert.deepEqual(seen, r.steps);
  assert.equal(engine.calls.length, 3);
});

test('abort: before the start nothing runs; during an extend the token finishes and generation stops', async () => {
  const pre = new AbortController();
  pre.abort();
  const e0 = new FakeEngine(PROMPT);
  const r0 = await generate(e0, logitsAfter(PROMPT), 5, { maxNewTokens: 5, sampling: SAMPLE, seed: 1, signal: pre.signal });
  assert.deepEqual(r0, { ids: [], steps: [], stopped: 'aborted' });
  assert.equal(e0.calls.length, 0);

  const ctl = new AbortController();
  const inner = new FakeEngine(PROMPT);
  const engine: GenEngine = {
    extend: async (ids) => {
      if (inner.calls.length === 1) ctl.abort();
      return inner.extend(ids);
    },
  };
  const r = await generate(engine, logitsAfter(PROMPT), 5, { maxNewTokens: 10, sampling: SAMPLE, seed: 1, signal: ctl.signal });
  assert.equal(r.stopped, 'aborted');
  assert.equal(r.ids.length, 2);
  assert.deepEqual(inner.history, [...PROMPT, ...r.ids]);
});

test('maxNewTokens 0 runs nothing; keepAttention copies each step\'s rows; [T, vocab] logits use the last row', async () => {
  const e0 = new FakeEngine(PROMPT);
  assert.deepEqual(await generate(e0, logitsAfter(PROMPT), 5, { maxNewTokens: 0, sampling: SAMPLE, seed: 1 }), { ids: [], steps: [], stopped: 'limit' });
  assert.equal(e0.calls.length, 0);

  const engine = new FakeEngine(PROMPT, -6, 'all');
  const r = await generate(engine, logitsAfter(PROMPT), 5, { maxNewTokens: 4, sampling: greedySettings(), seed: 1, keepAttention: true });
  const plain = await generate(new FakeEngine(PROMPT), logitsAfter(PROMPT), 5, { maxNewTokens: 4, sampling: greedySettings(), seed: 1 });
  assert.deepEqual(r.ids, plain.ids);
  r.steps.forEach((s, i) => {
    assert.equal(s.attention?.length, 2);
    assert.deepEqual(s.attention![0]!.dims, [2, 1, PROMPT.length + i + 1]);
  });
  assert.deepEqual(Array.from(lastRow({ data: new Float32Array([1, 2, 3, 4, 5, 6]), dims: [2, 3] })), [4, 5, 6]);
});

test('bad options and engines without logits fail clearly', async () => {
  const e = new FakeEngine(PROMPT);
  const l = logitsAfter(PROMPT);
  await assert.rejects(generate(e, l, 5, { maxNewTokens: -1, sampling: SAMPLE, seed: 1 }), /maxNewTokens must be an integer ≥ 0/);
  await assert.rejects(generate(e, l, 5, { maxNewTokens: 2, sampling: { ...SAMPLE, temperature: 0 }, seed: 1 }), /temperature must be > 0/);
  await assert.rejects(generate(e, l, 5, { maxNewTokens: 2, sampling: SAMPLE, seed: NaN }), /seed must be a finite number/);
  const noLogits: GenEngine = { extend: async () => ({ attention: [] }) };
  await assert.rejects(generate(noLogits, l, 5, { maxNewTokens: 3, sampling: SAMPLE, seed: 1 }), /returned no logits/);
  await assert.rejects(generate(noLogits, l, 5, { maxNewTokens: 3, sampling: SAMPLE, seed: 1, keepAttention: true }), /returned no attention/);
  // One token needs no logits back.
  assert.equal((await generate(noLogits, l, 5, { maxNewTokens: 1, sampling: SAMPLE, seed: 1 })).ids.length, 1);
});
