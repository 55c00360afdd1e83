// lib/generate/abSeeds.ts: sampled continuations per seed, as the A/B tab runs them. On the embedded model
// they match `kvscope ab` seed for seed (text, decision); on a scripted engine: one prefill then a fork per
// seed, a new prefill when someone else changed the cache, a seed rerun once when the cache changed under
// it, and a stop that keeps only the seeds that finished.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { runSeeds, type SeedEngine } from '../lib/generate/abSeeds';
import { decodeIds } from '../lib/prompt/assistantOutput';
import { parseGenerationConfig, type SamplingSettings } from '../lib/generate/sampling';
import { nodeOrt } from '../lib/cli/ort';
import { readModelDir } from '../lib/cli/modelDir';
import { EngineSession } from '../lib/engine/session';
import { buildPrompt } from '../lib/prompt/prompt';
import { createTokenizer } from '../lib/prompt/tokenizer';
import { scenarioRequest } from '../lib/scenarios/index';
import { regionMassesOverRows } from '../lib/analysis/abCompare';
import { regionsForRef } from '../lib/analysis/abArms';
import { kvscope } from './helpers/cli';

test('on the embedded model: the same continuations as kvscope ab, seed for seed', async () => {
  const cli = await kvscope('ab', '--scenario', 'xfinity', '--seeds', '3', '--max-new-tokens', '32', '--json');
  assert.equal(cli.code, 0, cli.stderr);
  const want = JSON.parse(cli.stdout) as { arms: { seeds: { seed: number; decision: string; text: string }[]; generatedMasses: { regions: { id: string; mean: number }[] } | null }[] };
  const model = readModelDir('public/models/kvscope-tiny');
  const tok = createTokenizer(model.tokenizerJson!, model.tokenizerConfig!);
  const sampling = parseGenerationConfig(JSON.parse(readFileSync('public/models/kvscope-tiny/generation_config.json', 'utf8')));
  const engine = await EngineSession.create(nodeOrt(1), model.checkpoint, { graph: { logits: 'last', attention: 'full', presentKv: true } });
  try {
    for (const [i, v] of ['without-status', 'with-status'].entries()) {
      const prompt = buildPrompt(tok, scenarioRequest('xfinity', v), { addGenerationPrompt: true });
      const seen: number[] = [];
      const r = await runSeeds(engine, prompt.ids, [1, 2, 3], { maxNewTokens: 32, sampling, decode: (ids) => decodeIds(tok, ids), onSeed: (run) => seen.push(run.seed) });
      assert.equal(r.aborted, false);
      assert.equal(r.prefills, 1, 'one prefill, then a fork per seed');
      assert.deepEqual(seen, [1, 2, 3]);
      assert.deepEqual(
        r.runs.map((x) => ({ seed: x.seed, decision: x.decision, text: x.text })),
        want.arms[i]!.seeds.map((x) => ({ seed: x.seed, decision: x.decision, text: x.text })),
        v,
      );
      // The generated-token masses over these rows are the CLI's.
      const m = regionMassesOverRows(r.runs.flatMap((x) => x.rows), prompt, regionsForRef(`xfinity:${v}`, prompt));
      for (const e of want.arms[i]!.generatedMasses!.regions) {
        const got = m.regions.find((x) => x.id === e.id)!;
        assert.ok(Math.abs(got.mean - e.mean) < 1e-5, `${v} ${e.id}: ${got.mean} vs ${e.mean}`);
      }
      for (const x of r.runs) {
        assert.equal(x.p.length, x.ids.length);
        assert.equal(x.rows.length, x.ids.length - (x.stopped === 'eos' ? 1 : 0), 'every row but the eos token’s');
      }
    }
  } finally {
    await engine.dispose();
  }
});

/** A scripted engine over a 5-token vocabulary: logits favour token (last id + 1) mod 4; id 4 is eos. */
class FakeEngine implements SeedEngine {
  cache: number[] = [];
  log: string[] = [];
  /** Called before each extend; may change the cache behind the caller's back. */
  meddle: ((e: FakeEngine, n: number) => void) | null = null;
  extends = 0;
  get ids() {
    return this.cache;
  }
  private out(last: number) {
    const data = new Float32Array(5).fill(-10);
    data[(last + 1) % 4] = 5;
    return { logits: { data, dims: [1, 5] }, attention: [{ data: new Float32Array(this.cache.length).fill(1 / this.cache.length), dims: [1, 1, this.cache.length] }] };
  }
  async prefill(ids: number[]) {
    this.log.push(`prefill ${ids.length}`);
    this.cache = [...ids];
    return this.out(ids[ids.length - 1]!);
  }
  async extend(ids: number[]) {
    this.meddle?.(this, this.extends++);
    this.cache.push(...ids);
    return this.out(ids[ids.length - 1]!);
  }
  fork(n: number) {
    this.log.push(`fork ${n}`);
    this.cache = this.cache.slice(0, n);
  }
}

const greedy: SamplingSettings = { doSample: false, temperature: 1, topK: 0, topP: 1, eosIds: [4] };
const decode = (ids: number[]) => ids.join(' ');

test('one prefill, a fork per seed; a new prefill when the cache no longer holds the prompt', async () => {
  const e = new FakeEngine();
  const r = await runSeeds(e, [0, 1, 2], [1, 2, 3], { maxNewTokens: 3, sampling: greedy, decode });
  assert.deepEqual(e.log, ['prefill 3', 'fork 3', 'fork 3']);
  assert.equal(r.prefills, 1);
  assert.deepEqual(r.runs.map((x) => x.ids), [[3, 0, 1], [3, 0, 1], [3, 0, 1]]);
  assert.equal(r.runs[0]!.stopped, 'limit');
  assert.equal(r.runs[0]!.rows.length, 3);
  assert.equal(r.runs[0]!.rows[0]!.position, 3);
  // Someone else prefilled between seeds: the prompt is established again.
  const e2 = new FakeEngine();
  const r2 = await runSeeds(e2, [0, 1, 2], [1, 2], {
    maxNewTokens: 2,
    sampling: greedy,
    decode,
    onSeed: () => void (e2.cache = [9, 9]),
  });
  assert.deepEqual(e2.log, ['prefill 3', 'prefill 3']);
  assert.equal(r2.prefills, 2);
  assert.equal(r2.runs.length, 2);
});

test('a seed whose cache changed under it runs again once; twice is an error', async () => {
  const e = new FakeEngine();
  e.meddle = (x, n) => {
    if (n === 1) x.cache = [7, 7, 7, 7];
  };
  const r = await runSeeds(e, [0, 1, 2], [5], { maxNewTokens: 3, sampling: greedy, decode });
  assert.equal(r.runs.length, 1);
  assert.deepEqual(r.runs[0]!.ids, [3, 0, 1]);
  assert.equal(r.prefills, 2);
  const e2 = new FakeEngine();
  e2.meddle = (x) => void (x.cache = [7, 7, 7, 7]);
  await assert.rejects(runSeeds(e2, [0, 1, 2], [5], { maxNewTokens: 3, sampling: greedy, decode }), /changed by another user/);
});

test('stop: the seed cut short is dropped, finished ones are kept; eos rows are left out', async () => {
  const ctrl = new AbortController();
  const e = new FakeEngine();
  const r = await runSeeds(e, [2], [1, 2, 3], {
    maxNewTokens: 10,
    sampling: greedy,
    decode,
    signal: ctrl.signal,
    onToken: (seed, _s, i) => {
      if (seed === 2 && i === 1) ctrl.abort();
    },
  });
  assert.equal(r.aborted, true);
  assert.deepEqual(r.runs.map((x) => x.seed), [1]);
  // 2 → 3 → 0 → 1 → 2 … never eos (4); a prompt ending in 3 goes 0, 1, 2, 3 …; make one that reaches eos:
  const eosFavoured: SamplingSettings = { ...greedy, eosIds: [0] };
  const r2 = await runSeeds(new FakeEngine(), [2], [1], { maxNewTokens: 10, sampling: eosFavoured, decode });
  assert.deepEqual(r2.runs[0]!.ids, [3, 0]);
  assert.equal(r2.runs[0]!.stopped, 'eos');
  assert.equal(r2.runs[0]!.rows.length, 1);
  await assert.rejects(runSeeds(new FakeEngine(), [], [1], { maxNewTokens: 1, sampling: greedy, decode }), /empty prompt/);
});
