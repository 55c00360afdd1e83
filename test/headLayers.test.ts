// A large model's run returns every layer's head mean ([T, T]) and one layer per head ([H, T, T]); the small
// models every layer per head. Which layers hold heads, the head a view can show on each, the re-run estimate,
// and analyseRequest recording `headLayers` (and passing `headLayer` to prefill) with a stub engine.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reduceHeads } from '../lib/analysis/attentionView';
import { AttentionShapeError, headCount, headLayersOf, headShown, layersWithHeads, rerunSeconds } from '../lib/analysis/headLayers';
import { layerAttention, sinkScore } from '../lib/analysis/sink';
import type { Prompt, TokenInfo } from '../lib/prompt/prompt';
import type { ChatRequest } from '../lib/scenarios/types';
import { analyseRequest } from '../lib/state/analyse';
import type { Tensor } from '../lib/tensor';

const T = 3;
const H = 2;

/** Causal rows of [H, T, T]: head h puts weight (h + 1) / (h + 2) on key 0 of each row after row 0. */
function perHead(): Tensor {
  const data = new Float32Array(H * T * T);
  for (let h = 0; h < H; h++)
    for (let q = 0; q < T; q++) {
      const row = (h * T + q) * T;
      if (q === 0) {
        data[row] = 1;
        continue;
      }
      const sink = (h + 1) / (h + 2);
      data[row] = sink;
      for (let k = 1; k <= q; k++) data[row + k] = (1 - sink) / q;
    }
  return { data, dims: [H, T, T] };
}
const mean = (): Tensor => reduceHeads(perHead(), 'mean');

test('layersWithHeads: the [H, T, T] layers, ascending; headCount reads H off them', () => {
  assert.deepEqual(layersWithHeads([mean(), mean(), perHead(), mean()]), [2]);
  assert.deepEqual(layersWithHeads([perHead(), perHead()]), [0, 1]); // a small model: every layer
  assert.deepEqual(layersWithHeads([mean(), mean()]), []);
  assert.deepEqual(layersWithHeads([]), []);
  assert.equal(headCount([mean(), perHead()]), H);
  assert.equal(headCount([mean(), mean()]), 0);
  assert.equal(headCount([]), 0);
});

test('layersWithHeads refuses tensors that do not fit together, naming the layer', () => {
  const other: Tensor = { data: new Float32Array(3 * T * T), dims: [3, T, T] };
  assert.throws(() => layersWithHeads([perHead(), mean(), other]), (e: unknown) => e instanceof AttentionShapeError && /layer 2 has 3 heads, layer 0's has 2/.test(e.message));
  const short: Tensor = { data: new Float32Array(4), dims: [2, 2] };
  assert.throws(() => layersWithHeads([mean(), short]), (e: unknown) => e instanceof AttentionShapeError && /layer 1 is 2×2, layer 0's is 3×3/.test(e.message));
  assert.throws(() => layersWithHeads([{ data: new Float32Array(T), dims: [T] }]), (e: unknown) => e instanceof AttentionShapeError && /layer 0 must be/.test(e.message));
});

test('headLayersOf: the recorded layers, else read off the tensors', () => {
  const attention = [mean(), perHead()];
  assert.deepEqual(headLayersOf({ attention }), [1]);
  assert.deepEqual(headLayersOf({ attention, headLayers: [1] }), [1]);
});

test('headShown: any choice on a per-head layer; the mean, and what was not shown, on a mean-only layer', () => {
  const attention = [mean(), perHead()];
  assert.deepEqual(headShown(attention, 1, 1), { head: 1, perHead: true, unavailable: null });
  assert.deepEqual(headShown(attention, 1, 'max'), { head: 'max', perHead: true, unavailable: null });
  assert.deepEqual(headShown(attention, 1, 'mean'), { head: 'mean', perHead: true, unavailable: null });
  // a head past the model's falls back to the mean silently, as before
  assert.deepEqual(headShown(attention, 1, H), { head: 'mean', perHead: true, unavailable: null });
  assert.deepEqual(headShown(attention, 0, 'mean'), { head: 'mean', perHead: false, unavailable: null });
  assert.deepEqual(headShown(attention, 0, 1), { head: 'mean', perHead: false, unavailable: 'head' });
  assert.deepEqual(headShown(attention, 0, 'max'), { head: 'mean', perHead: false, unavailable: 'max' });
  // no such layer (no run yet): nothing to show per head
  assert.deepEqual(headShown([], 0, 1), { head: 'mean', perHead: false, unavailable: null });
  // what a view then draws of the mean-only layer is the head mean itself
  const shown = headShown(attention, 0, 1);
  assert.deepEqual([...reduceHeads(attention[0]!, shown.head).data], [...reduceHeads(perHead(), 'mean').data]);
});

test('the sink score of a layer is exact from its head mean (linear in the weights)', () => {
  const full = sinkScore(layerAttention(perHead()), 0, 1);
  const fromMean = sinkScore(layerAttention(mean()), 0, 1);
  // heads score (1/2, 2/3) over queries 1 and 2: mean 7/12
  assert.ok(Math.abs(full.headMean! - 7 / 12) < 1e-6);
  assert.ok(Math.abs(fromMean.headMean! - full.headMean!) < 1e-6);
  assert.ok(Math.abs(fromMean.uniformBaseline! - full.uniformBaseline!) < 1e-12);
});

test('rerunSeconds: whole seconds, at least 1', () => {
  assert.equal(rerunSeconds(23_400), 23);
  assert.equal(rerunSeconds(23_600), 24);
  assert.equal(rerunSeconds(300), 1);
  assert.equal(rerunSeconds(0), 1);
  assert.equal(rerunSeconds(Number.NaN), 1);
});

/** A Prompt of `n` one-character tokens (render stub: no tokenizer needed). */
function fakePrompt(n: number, messages: number): Prompt {
  const enc = new TextEncoder();
  const tokens: TokenInfo[] = Array.from({ length: n }, (_, i) => ({ id: 100 + i, text: 'abcdefgh'[i]!, bytes: enc.encode('abcdefgh'[i]!), start: i, end: i + 1, partial: false, special: false }));
  return { text: tokens.map((t) => t.text).join(''), ids: tokens.map((t) => t.id), tokens, spans: [], messageCount: messages, notes: [] };
}

test('analyseRequest: passes headLayer to prefill and records which layers came back per head', async () => {
  const request: ChatRequest = { messages: [{ role: 'user', content: 'hi' }] };
  const asked: (number | undefined)[] = [];
  // A stub large-model engine: 4 layers, the asked layer (default: the last) per head, the others as the mean.
  const prefill = async (ids: number[], headLayer?: number): Promise<Tensor[]> => {
    asked.push(headLayer);
    assert.equal(ids.length, T);
    const hl = headLayer ?? 3;
    return Array.from({ length: 4 }, (_, l) => (l === hl ? perHead() : mean()));
  };
  const render = async (r: ChatRequest) => fakePrompt(T, r.messages.length);
  const a = await analyseRequest(request, 'last', render, prefill, 1);
  assert.deepEqual(a.headLayers, [1]);
  assert.deepEqual(a.attention.map((t) => t.dims), [[T, T], [H, T, T], [T, T], [T, T]]);
  assert.equal(a.tokens, T);
  const b = await analyseRequest(request, 'last', render, prefill);
  assert.deepEqual(b.headLayers, [3]);
  assert.deepEqual(asked, [1, undefined]);
  // A small model's prefill takes no layer and returns every layer per head.
  const small = await analyseRequest(request, 'last', render, async () => [perHead(), perHead()]);
  assert.deepEqual(small.headLayers, [0, 1]);
  // Tensors that do not fit together fail the run with the layer named.
  await assert.rejects(analyseRequest(request, 'last', render, async () => [perHead(), { data: new Float32Array(3 * T * T), dims: [3, T, T] }]), /layer 1 has 3 heads/);
});
