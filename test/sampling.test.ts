// lib/generate/sampling.ts: generation_config.json parsing, the warped distribution against an independent
// transcription of Hugging Face's warpers, seeded draws (statistics with fixed seeds), top tokens.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { argmax, distribution, greedySettings, HF_DEFAULT_SAMPLING, parseGenerationConfig, sampleToken, SamplingError, softmax, topTokens, topTokensFromLogits, type SamplingSettings } from '../lib/generate/sampling';
import { Rng } from '../lib/util/rng';
import { tinySpecialId } from './helpers/embeddedIds';

const sampling = (over: Partial<SamplingSettings>): SamplingSettings => ({ doSample: true, temperature: 1, topK: 0, topP: 1, eosIds: [], ...over });

/** Random logits in [-4, 4) with a seeded generator. */
function randomLogits(n: number, seed: number): Float32Array {
  const r = new Rng(seed);
  return Float32Array.from({ length: n }, () => 8 * r.next() - 4);
}

/**
 * Hugging Face's TemperatureLogitsWarper → TopKLogitsWarper → TopPLogitsWarper → softmax, transcribed
 * step by step (filter value -Infinity, min_tokens_to_keep 1), in float64.
 */
function hfReference(logits: ArrayLike<number>, s: SamplingSettings): Float64Array {
  let scores = Array.from(logits, (x) => x / s.temperature);
  if (s.topK > 0) {
    const k = Math.min(s.topK, scores.length);
    const kth = [...scores].sort((a, b) => b - a)[k - 1]!;
    scores = scores.map((x) => (x < kth ? -Infinity : x));
  }
  if (s.topP < 1) {
    const order = scores.map((x, i) => ({ x, i })).sort((a, b) => a.x - b.x || b.i - a.i); // ascending
    const max = Math.max(...scores);
    const e = order.map((o) => Math.exp(o.x - max));
    const z = e.reduce((a, b) => a + b, 0);
    let cum = 0;
    const remove = e.map((v) => (cum += v / z) <= 1 - s.topP);
    remove[remove.length - 1] = false;
    order.forEach((o, j) => {
      if (remove[j]) scores[o.i] = -Infinity;
    });
  }
  return softmax(scores);
}

test('parseGenerationConfig: the embedded model, defaults, text input, and clear errors', () => {
  const text = readFileSync('public/models/kvscope-tiny/generation_config.json', 'utf8');
  const tiny = parseGenerationConfig(JSON.parse(text));
  assert.deepEqual(tiny, { doSample: true, temperature: 0.6, topK: 20, topP: 0.95, eosIds: [tinySpecialId('<|im_end|>'), tinySpecialId('<|endoftext|>')] });
  assert.deepEqual(parseGenerationConfig(text), tiny);
  assert.deepEqual(parseGenerationConfig(undefined), { ...HF_DEFAULT_SAMPLING });
  assert.deepEqual(parseGenerationConfig({}), { doSample: false, temperature: 1, topK: 50, topP: 1, eosIds: [] });
  assert.deepEqual(parseGenerationConfig({ eos_token_id: 7, top_k: 0, temperature: null }), { doSample: false, temperature: 1, topK: 0, topP: 1, eosIds: [7] });
  assert.deepEqual(parseGenerationConfig({ eos_token_id: [3, 3, 4] }).eosIds, [3, 4]);
  const bad: [unknown, RegExp][] = [
    ['{', /not valid JSON/],
    [[1], /expected an object/],
    [{ do_sample: 'yes' }, /do_sample must be true or false/],
    [{ temperature: 0 }, /temperature must be a number > 0 \(got 0\)/],
    [{ temperature: '0.6' }, /temperature/],
    [{ top_k: 2.5 }, /top_k must be an integer ≥ 0/],
    [{ top_k: -1 }, /top_k/],
    [{ top_p: 0 }, /top_p must be a number in \(0, 1\]/],
    [{ top_p: 1.5 }, /top_p/],
    [{ eos_token_id: [1, -2] }, /eos_token_id must be a token id or a list of token ids/],
    [{ eos_token_id: 'x' }, /eos_token_id/],
  ];
  for (const [json, re] of bad) assert.throws(() => parseGenerationConfig(json), (e: Error) => e instanceof SamplingError && re.test(e.message), JSON.stringify(json));
});

test('argmax and greedy distribution: ties go to the lowest id', () => {
  assert.equal(argmax([1, 3, 3, 2]), 1);
  assert.equal(argmax([-Infinity, -5]), 1);
  assert.deepEqual(Array.from(distribution([0, 2, 2, 1], greedySettings())), [0, 1, 0, 0]);
  assert.throws(() => argmax([1, NaN]), /logit of token 1 is NaN/);
  assert.throws(() => argmax([]), /no logits/);
});

test('softmax is the plain distribution; temperature 1 with no filters equals it', () => {
  const l = randomLogits(300, 1);
  const p = softmax(l);
  assert.ok(Math.abs(p.reduce((a, b) => a + b, 0) - 1) < 1e-12);
  const d = distribution(l, sampling({}));
  for (let i = 0; i < l.length; i++) assert.ok(Math.abs(d[i]! - p[i]!) < 1e-15);
  assert.deepEqual(Array.from(softmax([0, -Infinity])), [1, 0]);
});

test('distribution matches a transcription of HF warpers (temperature → top-k → top-p) on random logits', () => {
  let cases = 0;
  for (let seed = 0; seed < 40; seed++) {
    const l = randomLogits(200 + seed, 100 + seed);
    for (const s of [
      sampling({ temperature: 0.6, topK: 20, topP: 0.95 }),
      sampling({ temperature: 1.3, topK: 0, topP: 0.5 }),
      sampling({ temperature: 0.2, topK: 5, topP: 1 }),
      sampling({ temperature: 1, topK: 1000, topP: 0.9 }),
      sampling({ temperature: 0.05, topK: 3, topP: 0.01 }),
    ]) {
      const got = distribution(l, s);
      const want = hfReference(l, s);
      for (let i = 0; i < l.length; i++) assert.ok(Math.abs(got[i]! - want[i]!) < 1e-12, `seed ${seed} ${JSON.stringify(s)} id ${i}: ${got[i]} vs ${want[i]}`);
      cases++;
    }
  }
  assert.equal(cases, 200);
});

test('top-k keeps ties with the k-th logit; top-p keeps the smallest head reaching p; the top token always stays', () => {
  const l = [5, 4, 4, 4, 1, 0];
  const k2 = distribution(l, sampling({ topK: 2 }));
  assert.deepEqual(Array.from(k2, (x) => x > 0), [true, true, true, true, false, false]);
  // -Infinity (masked) logits are never kept, even when top-k would reach them.
  assert.deepEqual(Array.from(distribution([-Infinity, 0, -Infinity, 0], sampling({ topK: 3 }))), [0, 0.5, 0, 0.5]);
  // probabilities 0.5, 0.25, 0.125, 0.125: ascending cumulative 0.125, 0.25, 0.5, 1; top_p 0.7 drops the
  // tokens at ≤ 0.3, so the first two stay, renormalised.
  const l2 = [Math.log(0.5), Math.log(0.25), Math.log(0.125), Math.log(0.125)];
  const p75 = distribution(l2, sampling({ topP: 0.7 }));
  assert.deepEqual(Array.from(p75, (x) => Number(x.toFixed(12))), [0.666666666667, 0.333333333333, 0, 0]);
  const p60 = distribution(l2, sampling({ topP: 0.6 }));
  assert.deepEqual(Array.from(p60, (x) => x > 0), [true, true, false, false]);
  const tiny = distribution(l2, sampling({ topP: 1e-9 }));
  assert.deepEqual(Array.from(tiny), [1, 0, 0, 0]);
  // Tiny temperatures do not overflow.
  assert.deepEqual(Array.from(distribution([1, 2, 3], sampling({ temperature: 1e-300 }))), [0, 0, 1]);
});

test('sampleToken: one draw per call, never outside the top-k / top-p set (the embedded settings, 20,000 draws)', () => {
  const s = sampling({ temperature: 0.6, topK: 20, topP: 0.95 });
  const l = randomLogits(8911, 7);
  const probs = distribution(l, s);
  const allowed = new Set(Array.from(probs).flatMap((p, i) => (p > 0 ? [i] : [])));
  assert.ok(allowed.size <= 20 && allowed.size >= 1);
  const top20 = new Set(topTokens(softmax(l), 20).map((t) => t.id));
  for (const id of allowed) assert.ok(top20.has(id));
  const rng = new Rng(42);
  const twin = new Rng(42);
  for (let i = 0; i < 20000; i++) {
    const id = sampleToken(probs, rng);
    assert.ok(allowed.has(id), `drew ${id}, outside the kept set`);
    twin.next();
  }
  assert.equal(rng.next(), twin.next(), 'exactly one rng.next() per draw');
});

test('sampleToken frequencies match the distribution within 5 standard errors (200,000 draws, seed 2024)', () => {
  const probs = [0.4, 0.25, 0.15, 0.1, 0.05, 0.03, 0.015, 0.005, 0, 0];
  const N = 200_000;
  const counts = new Array(probs.length).fill(0) as number[];
  const rng = new Rng(2024);
  for (let i = 0; i < N; i++) counts[sampleToken(probs, rng)]!++;
  let worst = 0;
  probs.forEach((p, i) => {
    const f = counts[i]! / N;
    if (p === 0) return assert.equal(counts[i], 0);
    const se = Math.sqrt((p * (1 - p)) / N);
    worst = Math.max(worst, Math.abs(f - p) / se);
    assert.ok(Math.abs(f - p) <= 5 * se, `id ${i}: frequency ${f} vs p ${p} (bound ${5 * se})`);
  });
  assert.ok(worst < 5);
  // Unnormalised weights work the same; bad input throws.
  assert.equal(sampleToken([0, 0, 3], new Rng(1)), 2);
  assert.throws(() => sampleToken([0, 0], new Rng(1)), /sum to 0/);
  assert.throws(() => sampleToken([0.5, -0.1], new Rng(1)), /probability of token 1/);
});

test('top tokens: descending, ties to the lower id; from logits = from the plain softmax, not the warped one', () => {
  assert.deepEqual(topTokens([0.1, 0.3, 0.3, 0.2, 0.1], 3), [
    { id: 1, p: 0.3 },
    { id: 2, p: 0.3 },
    { id: 3, p: 0.2 },
  ]);
  assert.deepEqual(topTokens([0.5], 5), [{ id: 0, p: 0.5 }]);
  assert.deepEqual(topTokens([0.5, 0.5], 0), []);
  const l = randomLogits(1000, 9);
  const plain = softmax(l);
  const fromLogits = topTokensFromLogits(l, 5);
  assert.deepEqual(fromLogits, topTokens(plain, 5));
  const warped = topTokens(distribution(l, sampling({ temperature: 0.6, topK: 20, topP: 0.95 })), 5);
  assert.deepEqual(
    fromLogits.map((t) => t.id),
    warped.map((t) => t.id),
  );
  assert.ok(warped[0]!.p > fromLogits[0]!.p, 'the warped distribution is sharper');
});
