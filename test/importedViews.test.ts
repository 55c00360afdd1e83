// lib/analysis/importedViews.ts: the square matrix, sink scores, attention received, position bias and uniform
// baseline of imported attention, checked (1) against a straightforward independent implementation written
// here with loops over plain number arrays, on random ragged layers (random subsets of query rows, random
// heads, 'mean' layers), tolerance 1e-6 absolute (the views reduce float32 data; the reference works in float64
// on the same float32 values); and (2) for complete (non-ragged) layers, equal to lib/analysis on the same data.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reduceHeads, hideSinkColumn } from '../lib/analysis/attentionView';
import { positionBias, uniformPositionBias, type PositionBias } from '../lib/analysis/positionBias';
import { attentionReceived, DEFAULT_MIN_QUERY, layerAttention, sinkScore, topReceivers } from '../lib/analysis/sink';
import { parseAttentionTrajectory, parseKvscopeAttention, writeKvscopeAttention, type ImportedAttention, type ImportedLayer } from '../lib/io/attention/index';
import {
  attentionOfCall,
  colourMax,
  hasOwnAttention,
  headChoices,
  hideSinkColumnPresent,
  importedMinQuery,
  importedSummary,
  positionBiasPresent,
  receivedPresent,
  squareMatrix,
  uniformPresent,
  type HeadReduction,
} from '../lib/analysis/importedViews';

const TOL = 1e-6;

// ---- random inputs --------------------------------------------------------------------------------------

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A layer with random causal rows at `positions` (NaN after each row's position), heads H or 'mean'. */
function randomLayer(r: () => number, K: number, positions: number[], heads: number | 'mean', sinkBias = 3): ImportedLayer {
  const H = heads === 'mean' ? 1 : heads;
  const Q = positions.length;
  const data = new Float32Array(H * Q * K).fill(NaN);
  for (let h = 0; h < H; h++)
    positions.forEach((q, i) => {
      const w = Array.from({ length: q + 1 }, (_, k) => (k === 0 ? sinkBias * r() * (h + 1) : r() ** 3));
      const s = w.reduce((a, b) => a + b, 0);
      w.forEach((x, k) => (data[(h * Q + i) * K + k] = x / s));
    });
  return { layer: null, label: 'layer ?', heads, queries: Q, keys: K, data, queryPositions: positions };
}

function randomPositions(r: () => number, K: number): number[] {
  const kind = r();
  if (kind < 0.25) return Array.from({ length: K }, (_, i) => i); // complete
  if (kind < 0.5) {
    const ctx = Math.floor(r() * K);
    return Array.from({ length: K - ctx }, (_, i) => ctx + i); // output_only: a tail
  }
  const out = Array.from({ length: K }, (_, i) => i).filter(() => r() < 0.5);
  return out.length > 0 ? out : [K - 1];
}

// ---- the reference: plain arrays, one loop per definition -----------------------------------------------

type Grid = number[][][]; // [head][row index][key]

function toGrid(l: ImportedLayer): Grid {
  const H = l.heads === 'mean' ? 1 : l.heads;
  const g: Grid = [];
  for (let h = 0; h < H; h++) {
    g.push([]);
    for (let i = 0; i < l.queries; i++) {
      const row: number[] = [];
      for (let k = 0; k < l.keys; k++) row.push(l.data[(h * l.queries + i) * l.keys + k]!);
      g[h]!.push(row);
    }
  }
  return g;
}

function refSquare(l: ImportedLayer, how: HeadReduction, hideSink: boolean): number[][] {
  const g = toGrid(l);
  const K = l.keys;
  const out: number[][] = Array.from({ length: K }, () => Array(K).fill(NaN));
  l.queryPositions.forEach((q, i) => {
    const row: number[] = [];
    for (let k = 0; k < K; k++) {
      const vs = g.map((head) => head[i]![k]!);
      if (Number.isNaN(vs[0]!)) row.push(NaN);
      else if (l.heads === 'mean') row.push(vs[0]!);
      else if (how === 'mean') row.push(vs.reduce((a, b) => a + b, 0) / vs.length);
      else if (how === 'max') row.push(Math.max(...vs));
      else row.push(vs[how]!);
    }
    if (hideSink) {
      let rest = 0;
      for (let k = 1; k < K; k++) if (!Number.isNaN(row[k]!)) rest += row[k]!;
      for (let k = 0; k < K; k++) {
        if (Number.isNaN(row[k]!)) continue;
        row[k] = k === 0 || rest <= 0 ? 0 : row[k]! / rest;
      }
    }
    out[q] = row;
  });
  return out;
}

function refMinQuery(layers: ImportedLayer[]): number {
  const last = Math.max(...layers.flatMap((l) => l.queryPositions));
  return last < 16 ? Math.max(1, last) : 16;
}

function refSink(l: ImportedLayer, minQuery: number): { perHead: (number | null)[]; uniform: number | null; n: number } {
  const g = toGrid(l);
  const rows = l.queryPositions.map((q, i) => [q, i] as const).filter(([q]) => q >= Math.max(1, minQuery));
  if (rows.length === 0) return { perHead: g.map(() => null), uniform: null, n: 0 };
  const perHead = g.map((head) => rows.reduce((s, [, i]) => s + head[i]![0]!, 0) / rows.length);
  const uniform = rows.reduce((s, [q]) => s + 1 / (q + 1), 0) / rows.length;
  return { perHead, uniform, n: rows.length };
}

function refReceived(l: ImportedLayer, minQuery: number): number[] | null {
  const g = toGrid(l);
  const out: number[] = [];
  for (let k = 0; k < l.keys; k++) {
    let s = 0;
    let n = 0;
    for (const head of g)
      l.queryPositions.forEach((q, i) => {
        if (q < minQuery) return;
        n++;
        const v = head[i]![k]!;
        s += Number.isNaN(v) ? 0 : v;
      });
    if (n === 0) return null;
    out.push(s / n);
  }
  return out;
}

function refUniformReceived(l: ImportedLayer, minQuery: number): number[] | null {
  const qs = l.queryPositions.filter((q) => q >= minQuery);
  if (qs.length === 0) return null;
  return Array.from({ length: l.keys }, (_, k) => qs.reduce((s, q) => s + (k <= q ? 1 / (q + 1) : 0), 0) / qs.length);
}

/** first: 3k < T, middle: T ≤ 3k < 2T, last: 3k ≥ 2T; mean over the keys of each third (null when empty). */
function refThirds(received: number[] | null, T: number): (number | null)[] {
  return [0, 1, 2].map((third) => {
    const ks = Array.from({ length: T }, (_, k) => k).filter((k) => (3 * k < T ? 0 : 3 * k < 2 * T ? 1 : 2) === third);
    if (!received || ks.length === 0) return null;
    return ks.reduce((s, k) => s + received[k]!, 0) / ks.length;
  });
}

// ---- comparison helpers ---------------------------------------------------------------------------------

function close(a: number | null | undefined, b: number | null | undefined, what: string, tol = TOL): void {
  if (a === null || a === undefined || b === null || b === undefined) return assert.equal(a ?? null, b ?? null, what);
  if (Number.isNaN(a) || Number.isNaN(b)) return assert.ok(Number.isNaN(a) && Number.isNaN(b), `${what}: ${a} vs ${b}`);
  assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b} (|Δ| ${Math.abs(a - b)} > ${tol})`);
}

function closeArr(a: ArrayLike<number>, b: ArrayLike<number>, what: string, tol = TOL): void {
  assert.equal(a.length, b.length, `${what}: length`);
  for (let i = 0; i < a.length; i++) close(a[i], b[i], `${what}[${i}]`, tol);
}

const thirdsMeans = (b: PositionBias) => [b.first.mean, b.middle.mean, b.last.mean];

// ---- tests ----------------------------------------------------------------------------------------------

test('random ragged layers: square matrix (each head, mean, max, hidden sink column) equals the reference', () => {
  const r = rng(7);
  for (let trial = 0; trial < 60; trial++) {
    const K = 1 + Math.floor(r() * 40);
    const heads = r() < 0.3 ? 'mean' : 1 + Math.floor(r() * 4);
    const l = randomLayer(r, K, randomPositions(r, K), heads);
    const choices = headChoices(l);
    assert.deepEqual(choices.slice(0, heads === 'mean' ? 1 : 2), heads === 'mean' ? ['mean'] : ['mean', 'max']);
    if (heads !== 'mean') assert.equal(choices.length, heads + 2);
    for (const how of choices)
      for (const hide of [false, true]) {
        const got = squareMatrix(l, how, hide);
        const want = refSquare(l, how, hide);
        assert.equal(got.length, K * K);
        closeArr(got, want.flat(), `trial ${trial} K ${K} heads ${heads} ${how} hide ${hide}`);
      }
    // Rows the file lacks are NaN throughout.
    const sq = squareMatrix(l, 'mean');
    for (let q = 0; q < K; q++)
      if (!l.queryPositions.includes(q)) for (let k = 0; k < K; k++) assert.ok(Number.isNaN(sq[q * K + k]!), `absent row ${q}`);
  }
});

test('random ragged layers: sink scores, received, position bias and uniform baseline equal the reference', () => {
  const r = rng(11);
  for (let trial = 0; trial < 80; trial++) {
    const K = 2 + Math.floor(r() * 60);
    const heads = r() < 0.3 ? 'mean' : 1 + Math.floor(r() * 5);
    const nLayers = 1 + Math.floor(r() * 3);
    const positions = randomPositions(r, K);
    const layers = Array.from({ length: nLayers }, () => randomLayer(r, K, r() < 0.2 ? randomPositions(r, K) : positions, heads));
    const a: ImportedAttention = { source: 'kvscope-attention', tokens: Array.from({ length: K }, (_, i) => `t${i}`), layers, meta: {}, notes: [], calls: [] };
    const s = importedSummary(a, 5);
    const mq = refMinQuery(layers);
    assert.equal(s.minQuery, mq, `trial ${trial}`);
    assert.equal(importedMinQuery(layers).minQuery, mq);
    assert.equal(s.lowered, mq < DEFAULT_MIN_QUERY || Math.max(...layers.flatMap((l) => l.queryPositions)) < DEFAULT_MIN_QUERY);
    assert.equal(s.meanOnly, heads === 'mean');
    const receivedAll: number[][] = [];
    layers.forEach((l, li) => {
      const ls = s.layers[li]!;
      const ref = refSink(l, mq);
      assert.equal(ls.sink.qualifyingQueries, ref.n);
      assert.equal(ls.sink.perHead.length, ref.perHead.length);
      ref.perHead.forEach((v, h) => close(ls.sink.perHead[h], v, `trial ${trial} layer ${li} head ${h} sink`));
      close(ls.sink.uniformBaseline, ref.uniform, `trial ${trial} layer ${li} sink baseline`);
      const mean = ref.n === 0 ? null : ref.perHead.reduce((x, y) => x! + y!, 0)! / ref.perHead.length;
      close(ls.firstTokenShare, mean, `trial ${trial} layer ${li} first-token share`);
      assert.equal(ls.sink.sinkHeads, ref.perHead.filter((v) => v !== null && v > 0.3).length);

      const rec = refReceived(l, mq);
      const got = receivedPresent(l, mq);
      if (rec === null) assert.equal(got, null);
      else {
        closeArr(got!, rec, `trial ${trial} layer ${li} received`);
        receivedAll.push(rec);
      }
      const bias = positionBiasPresent(l, mq);
      const want = refThirds(rec, K);
      thirdsMeans(bias).forEach((v, i) => close(v, want[i], `trial ${trial} layer ${li} third ${i}`));
      assert.equal(bias.qualifyingQueries, rec ? l.queryPositions.filter((q) => q >= mq).length : 0);
      thirdsMeans(ls.bias).forEach((v, i) => close(v, want[i], `summary bias ${i}`));
      const uni = refThirds(refUniformReceived(l, mq), K);
      thirdsMeans(uniformPresent(l, mq)).forEach((v, i) => close(v, uni[i], `trial ${trial} layer ${li} uniform third ${i}`));
      thirdsMeans(ls.uniform).forEach((v, i) => close(v, uni[i], `summary uniform ${i}`));
    });
    // Top receivers: received averaged over layers with a qualifying row, highest first, ties by key.
    if (receivedAll.length === 0) assert.deepEqual(s.top, []);
    else {
      const mean = Array.from({ length: K }, (_, k) => receivedAll.reduce((x, rr) => x + rr[k]!, 0) / receivedAll.length);
      const order = mean.map((w, k) => ({ k, w })).sort((x, y) => y.w - x.w || x.k - y.k);
      assert.equal(s.top.length, Math.min(5, K));
      s.top.forEach((t, i) => close(t.weight, order[i]!.w, `trial ${trial} top ${i} weight`));
      // Keys may swap only where the weights tie within the tolerance.
      s.top.forEach((t, i) => assert.ok(t.key === order[i]!.k || Math.abs(mean[t.key]! - order[i]!.w) <= TOL, `top ${i}: ${t.key} vs ${order[i]!.k}`));
    }
    assert.equal(s.sameRows, layers.every((l) => l.queryPositions.join() === layers[0]!.queryPositions.join()));
  }
});

test('complete layers: the views equal lib/analysis on the same data', () => {
  const r = rng(23);
  for (const [K, H] of [[24, 3], [17, 1], [40, 2], [8, 4], [5, 2]] as const) {
    const l = randomLayer(r, K, Array.from({ length: K }, (_, i) => i), H);
    // The engine's tensors hold 0 (not NaN) after the causal position: the same data as lib/analysis sees it.
    const zeroed = l.data.map((v) => (Number.isNaN(v) ? 0 : v));
    const t = { data: zeroed, dims: [H, K, K] };
    const mq = importedMinQuery([l]).minQuery;
    assert.equal(mq, K <= DEFAULT_MIN_QUERY ? Math.max(1, K - 1) : DEFAULT_MIN_QUERY, 'the sink panel rule');
    const la = layerAttention(t);
    for (const how of ['mean', 'max', ...Array.from({ length: H }, (_, h) => h)] as HeadReduction[]) {
      const want = reduceHeads(t, how).data;
      const got = squareMatrix(l, how);
      const wantHidden = hideSinkColumn(want, K, K, 0);
      const gotHidden = squareMatrix(l, how, true);
      for (let q = 0; q < K; q++)
        for (let k = 0; k < K; k++) {
          if (k > q) {
            assert.ok(Number.isNaN(got[q * K + k]!) && Number.isNaN(gotHidden[q * K + k]!), 'future cells stay absent');
            continue;
          }
          assert.equal(got[q * K + k], want[q * K + k], `${how} (${q}, ${k})`);
          assert.equal(gotHidden[q * K + k], wantHidden[q * K + k], `${how} hidden (${q}, ${k})`);
        }
    }
    const s = importedSummary({ source: 'kvscope-attention', tokens: Array(K).fill('x'), layers: [l], meta: {}, notes: [], calls: [] }, 6);
    const ls = s.layers[0]!;
    assert.deepEqual(ls.sink, sinkScore(la, 0, mq));
    assert.deepEqual([...receivedPresent(l, mq)!], [...attentionReceived(la, mq)!]);
    assert.deepEqual(ls.bias, positionBias(la, mq));
    assert.deepEqual(ls.uniform, uniformPositionBias(la, mq));
    assert.deepEqual(s.top, topReceivers(attentionReceived(la, mq)!, 6));
    // Colour range: colourDomainMax from row DEFAULT_MIN_QUERY, as the Lab does.
    const sq = squareMatrix(l, 'mean');
    let m = 0;
    const from = K > DEFAULT_MIN_QUERY ? DEFAULT_MIN_QUERY : 0;
    for (let i = from * K; i < K * K; i++) if (sq[i]! > m) m = sq[i]!;
    assert.equal(colourMax(sq, K), m);
  }
});

test('hideSinkColumnPresent: NaN cells stay NaN and count as 0; a row without NaN is hideSinkColumn', () => {
  const m = Float32Array.from([1, NaN, NaN, 0.5, 0.5, NaN, 0.2, 0.3, 0.5]);
  const out = hideSinkColumnPresent(m, 3, 3, 0);
  assert.deepEqual([...out].map((v) => (Number.isNaN(v) ? 'NaN' : Number(v.toFixed(6)))), [0, 'NaN', 'NaN', 0, 1, 'NaN', 0, 0.375, 0.625]);
  const full = Float32Array.from([0.2, 0.3, 0.5, 0.1, 0.1, 0.8]);
  assert.deepEqual([...hideSinkColumnPresent(full, 2, 3, 0)], [...hideSinkColumn(full, 2, 3, 0)]);
});

test('colourMax: falls back to all rows when the file holds no row ≥ fromRow; absent rows are ignored', () => {
  const r = rng(3);
  const l = randomLayer(r, 30, [0, 1, 2, 3], 2);
  const sq = squareMatrix(l, 'mean');
  let m = 0;
  for (const v of sq) if (v > m) m = v;
  assert.equal(colourMax(sq, 30), m);
  assert.ok(m > 0 && m <= 1);
});

/** Causal rows with a little weight on key 0 (as test/attentionTrajectory.test.ts builds them). */
function causalRow(q: number): number[] {
  const w = Array.from({ length: q + 1 }, (_, k) => (k === 0 ? 2 : 1 + (k % 3)));
  const s = w.reduce((a, b) => a + b, 0);
  return w.map((x) => x / s);
}

test('an output_only trajectory: only its generated rows are drawn and counted', () => {
  const T = 30;
  const ctx = 20;
  const rows = Array.from({ length: T - ctx }, (_, i) => causalRow(ctx + i));
  const a = parseAttentionTrajectory({ tokens: Array.from({ length: T }, (_, i) => `t${i}`), attention_data: { attention_matrix: rows, output_only: true, context_length: ctx } });
  const l = a.layers[0]!;
  assert.deepEqual(headChoices(l), ['mean']);
  const sq = squareMatrix(l, 'max');
  for (let q = 0; q < T; q++) {
    const present = q >= ctx;
    for (let k = 0; k < T; k++) {
      const v = sq[q * T + k]!;
      if (!present || k > q) assert.ok(Number.isNaN(v), `(${q}, ${k}) absent`);
      else close(v, causalRow(q)[k]!, `(${q}, ${k})`);
    }
  }
  const s = importedSummary(a);
  assert.equal(s.minQuery, 16);
  assert.equal(s.layers[0]!.sink.qualifyingQueries, T - ctx);
  const qs = Array.from({ length: T - ctx }, (_, i) => ctx + i);
  close(s.layers[0]!.firstTokenShare, qs.reduce((x, q) => x + causalRow(q)[0]!, 0) / qs.length, 'first-token share');
  close(s.layers[0]!.sink.uniformBaseline, qs.reduce((x, q) => x + 1 / (q + 1), 0) / qs.length, 'baseline over the generated rows only');
  // The uniform position bias is the one of rows 20…29, not of a full prefill.
  const full = uniformPositionBias({ queries: T, keys: T }, 16);
  const mine = s.uniform!;
  assert.notDeepEqual(thirdsMeans(mine), thirdsMeans(full));
  const want = refThirds(refUniformReceived(l, 16), T);
  thirdsMeans(mine).forEach((v, i) => close(v, want[i], `uniform third ${i}`));
});

test('a short file lowers minQuery as the sink panel does; a kvscope-format round trip gives the same summary', () => {
  const r = rng(5);
  const K = 10;
  const layers = [randomLayer(r, K, Array.from({ length: K }, (_, i) => i), 2), randomLayer(r, K, Array.from({ length: K }, (_, i) => i), 2)];
  layers[0]!.layer = 0;
  layers[1]!.layer = 5;
  const a: ImportedAttention = { source: 'kvscope-attention', tokens: Array.from({ length: K }, (_, i) => `t${i}`), layers, meta: { model: 'm' }, notes: [], calls: [] };
  const s = importedSummary(a);
  assert.deepEqual([s.minQuery, s.lowered], [9, true]);
  const back = parseKvscopeAttention(writeKvscopeAttention(a, 'json'));
  const s2 = importedSummary(back);
  assert.deepEqual(s2.layers.map((l) => l.sink), s.layers.map((l) => l.sink));
  assert.deepEqual(s2.top, s.top);
});

test('calls: attentionOfCall and hasOwnAttention', () => {
  const t = (T: number) => ({ tokens: Array.from({ length: T }, (_, i) => `t${i}`), attention_matrix: Array.from({ length: T }, (_, q) => causalRow(q)) });
  const withTop = parseAttentionTrajectory({ attention_data: t(5), llm_calls: [{ step_num: 1, step_type: 'thought', attention_data: t(6) }] });
  assert.equal(hasOwnAttention(withTop), true);
  assert.equal(attentionOfCall(withTop, 0).tokens.length, 6);
  assert.equal(attentionOfCall(withTop, -1).tokens.length, 5);
  const callsOnly = parseAttentionTrajectory({ llm_calls: [{ step_num: 1, attention_data: t(6) }, { step_num: 2, attention_data: t(7) }] });
  assert.equal(hasOwnAttention(callsOnly), false);
  assert.equal(attentionOfCall(callsOnly, 1).tokens.length, 7);
});
