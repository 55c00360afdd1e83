// The memory options of lib/model/graph.ts (castOnDemand, lmHeadChunks, attentionInLayer, externalData), alone
// and combined, against the float64 reference (lib/model/reference.ts) on the embedded kvscope-tiny model, plus
// structural checks that each option really changes the graph the way it claims.
//
// Tolerance: 1e-4 absolute on logits, attention and K/V, as test/graph.test.ts (float32 activations vs float64).
// That holds for float16 weights too because kvscope-tiny (and the F16 random checkpoint below) store F16
// weights: the graph's float16 initializers are those very bits and the reference reads the same values. A
// float32 checkpoint stored as float16 is rounded by up to 2⁻¹¹ relative per weight and needs a looser
// tolerance against the float32 reference: FP16_ROUNDED_TOL (the last test).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as ort from 'onnxruntime-web';
import { maxAbsDiff } from '../lib/analysis/numeric';
import { EngineSession, largeModelPlan, type RunResult } from '../lib/engine/session';
import { bf16BitsToF32, f32ToBf16Bits } from '../lib/model/halfFloat';
import { loadCheckpoint, type Checkpoint } from '../lib/model/checkpoint';
import { buildGraph, externalDataBytes, EXTERNAL_DATA_LOCATION, io, type GraphOptions } from '../lib/model/graph';
import { randomCheckpoint, type RandomSpec } from '../lib/model/randomCheckpoint';
import { referenceForward, type ReferenceResult } from '../lib/model/reference';

ort.env.logLevel = 'error';
const TOL = 1e-4;
const FP16_ROUNDED_TOL = 2e-2;
const DIR = 'public/models/kvscope-tiny';

let tinyCk: Checkpoint | undefined;
const tiny = () => (tinyCk ??= loadCheckpoint(readFileSync(`${DIR}/config.json`, 'utf8'), [new Uint8Array(readFileSync(`${DIR}/model.safetensors`))]));
const randomCk = (spec: RandomSpec) => {
  const r = randomCheckpoint(spec);
  return loadCheckpoint(r.configText, [r.weights]);
};
const ids = (n: number, vocab: number, seed = 1) => Array.from({ length: n }, (_, i) => (i * 7919 + seed * 17 + ((i * i) % 13)) % vocab);

// ---------------------------------------------------------------- a minimal ONNX reader (structure only)

interface Node {
  op: string;
  inputs: string[];
  outputs: string[];
}
interface Init {
  dataType: number;
  dims: number[];
  raw?: Uint8Array;
  external?: Record<string, string>;
  dataLocation: number;
}

/** Protobuf fields of one message: [field number, varint or bytes]. */
function fields(buf: Uint8Array): [number, number | Uint8Array][] {
  const out: [number, number | Uint8Array][] = [];
  let p = 0;
  const varint = () => {
    let x = 0;
    for (let m = 1; ; m *= 128) {
      const b = buf[p++]!;
      x += (b & 127) * m;
      if (b < 128) return x;
    }
  };
  while (p < buf.length) {
    const tag = varint();
    const wire = tag & 7;
    if (wire === 0) out.push([tag >>> 3, varint()]);
    else if (wire === 2) {
      const n = varint();
      out.push([tag >>> 3, buf.subarray(p, p + n)]);
      p += n;
    } else if (wire === 5) p += 4;
    else if (wire === 1) p += 8;
    else throw new Error(`wire type ${wire}`);
  }
  return out;
}
const text = (b: number | Uint8Array) => new TextDecoder().decode(b as Uint8Array);

function readGraph(bytes: Uint8Array): { nodes: Node[]; inits: Map<string, Init> } {
  const graph = fields(bytes).find(([f]) => f === 7)![1] as Uint8Array;
  const nodes: Node[] = [];
  const inits = new Map<string, Init>();
  for (const [f, v] of fields(graph)) {
    if (f === 1) {
      const n: Node = { op: '', inputs: [], outputs: [] };
      for (const [g, w] of fields(v as Uint8Array)) {
        if (g === 1) n.inputs.push(text(w));
        else if (g === 2) n.outputs.push(text(w));
        else if (g === 4) n.op = text(w);
      }
      nodes.push(n);
    } else if (f === 5) {
      const t: Init = { dataType: 0, dims: [], dataLocation: 0 };
      let name = '';
      for (const [g, w] of fields(v as Uint8Array)) {
        if (g === 1) t.dims.push(w as number);
        else if (g === 2) t.dataType = w as number;
        else if (g === 8) name = text(w);
        else if (g === 9) t.raw = w as Uint8Array;
        else if (g === 13) {
          const kv = fields(w as Uint8Array);
          (t.external ??= {})[text(kv.find(([k]) => k === 1)![1])] = text(kv.find(([k]) => k === 2)![1]);
        } else if (g === 14) t.dataLocation = w as number;
      }
      inits.set(name, t);
    }
  }
  return { nodes, inits };
}

/** Every value `target` depends on (node outputs and graph inputs/initializers), through the node list. */
function ancestors(nodes: Node[], target: string): Set<string> {
  const producer = new Map<string, Node>();
  for (const n of nodes) for (const o of n.outputs) producer.set(o, n);
  const seen = new Set<string>();
  const stack = [target];
  while (stack.length) {
    const v = stack.pop()!;
    for (const i of producer.get(v)?.inputs ?? []) {
      if (seen.has(i)) continue;
      seen.add(i);
      stack.push(i);
    }
  }
  return seen;
}

// ---------------------------------------------------------------- comparing a run with the reference

/** Mean over heads of rows `rows` of [H, T, S] → [rows, S]. */
function headMean(a: Float32Array, H: number, T: number, S: number, rows: number[]): Float32Array {
  const out = new Float32Array(rows.length * S);
  for (let h = 0; h < H; h++) rows.forEach((r, j) => { for (let k = 0; k < S; k++) out[j * S + k]! += a[(h * T + r) * S + k]! / H; });
  return out;
}

/**
 * The largest |graph − reference| over what the graph returned. `ref` covers the whole sequence up to this
 * call's end; `first` is the position of this call's first token (the K/V cover everything up to the end).
 */
function worstDiff(ck: Checkpoint, o: Partial<GraphOptions>, r: RunResult, s: EngineSession, ref: ReferenceResult, first: number): number {
  const c = ck.config;
  const V = c.vocabSize;
  const S = ref.cache.length;
  const T = S - first;
  let worst = 0;
  const logitsFrom = o.logits === 'last' ? S - 1 : first;
  worst = Math.max(worst, maxAbsDiff(r.logits!.data, ref.logits.subarray(logitsFrom * V, S * V)));
  for (let l = 0; l < c.numLayers; l++) {
    const a = r.attention[l]!;
    if (o.attention === 'mean') {
      const rows = r.rows.map((p) => p - first);
      assert.deepEqual(a.dims, [rows.length, S]);
      // The reference's rows of this call (positions first … S−1), per head: [H, T, S].
      const mine = new Float32Array(c.numHeads * T * S);
      for (let h = 0; h < c.numHeads; h++) mine.set(ref.attn[l]!.subarray((h * S + first) * S, (h + 1) * S * S), h * T * S);
      worst = Math.max(worst, maxAbsDiff(a.data, headMean(mine, c.numHeads, T, S, rows)));
    } else {
      assert.equal(first, 0, 'full attention is compared on prefills only');
      assert.deepEqual(a.dims, [c.numHeads, T, S]);
      worst = Math.max(worst, maxAbsDiff(a.data, ref.attn[l]!));
    }
    const kv = s.kv(l);
    worst = Math.max(worst, maxAbsDiff(kv.k.data, ref.k[l]!), maxAbsDiff(kv.v.data, ref.v[l]!));
  }
  return worst;
}

const refCache = new Map<string, ReferenceResult>();
function reference(ck: Checkpoint, x: number[]): ReferenceResult {
  const key = `${ck.config.modelType}:${ck.config.vocabSize}:${x.join(',')}`;
  let r = refCache.get(key);
  if (!r) refCache.set(key, (r = referenceForward(ck, x)));
  return r;
}

// ---------------------------------------------------------------- each option on kvscope-tiny

const T = 40;
const CASES: [string, Partial<GraphOptions>][] = [
  ['castOnDemand (float16)', { weights: 'float16', castOnDemand: true }],
  ['castOnDemand + lmHeadChunks 3 (uneven chunks)', { weights: 'float16', castOnDemand: true, lmHeadChunks: 3 }],
  ['lmHeadChunks 4 without castOnDemand', { weights: 'float16', lmHeadChunks: 4 }],
  ['attentionInLayer, full attention', { attentionInLayer: true }],
  ["attentionInLayer, 'mean' over selected rows, logits 'last'", { attentionInLayer: true, attention: 'mean', attentionRows: 'input', logits: 'last' }],
  ['externalData (float32)', { externalData: true }],
  ['externalData (float16)', { externalData: true, weights: 'float16' }],
];

for (const [name, o] of CASES) {
  test(`kvscope-tiny, ${name}: equals the reference (≤ ${TOL})`, async (t) => {
    const ck = tiny();
    assert.equal(ck.dtype, 'F16', 'the tolerance assumes F16 weights on disk (see the header)');
    const x = ids(T, ck.config.vocabSize);
    const ref = reference(ck, x);
    const s = await EngineSession.create(ort, ck, { graph: o });
    const rows = [0, 17, T - 1];
    const r = await s.prefill(x, o.attentionRows === 'input' ? rows : undefined);
    const d = worstDiff(ck, o, r, s, ref, 0);
    t.diagnostic(`max |diff| ${d.toExponential(2)}`);
    assert.ok(d <= TOL, `max |diff| ${d}`);
    // The comparison can fail: the same run against another sequence's reference is far off.
    const other = reference(ck, ids(T, ck.config.vocabSize, 2));
    assert.ok(maxAbsDiff(r.logits!.data, other.logits.subarray(o.logits === 'last' ? (T - 1) * ck.config.vocabSize : 0)) > 1e-2);
    await s.dispose();
  });
}

test('kvscope-tiny, all options together (the bench proposal): prefill, +1 token, +a chunk each equal the reference', async (t) => {
  const ck = tiny();
  const o: Partial<GraphOptions> = { weights: 'float16', attention: 'mean', logits: 'last', castOnDemand: true, lmHeadChunks: 8, attentionInLayer: true, externalData: true };
  const x = ids(T, ck.config.vocabSize, 3);
  const s = await EngineSession.create(ort, ck, { graph: o });
  assert.equal(s.weightType, 'float16');
  let at = 0;
  for (const end of [30, 31, T]) {
    const r = at === 0 ? await s.prefill(x.slice(0, end)) : await s.extend(x.slice(at, end));
    const d = worstDiff(ck, o, r, s, reference(ck, x.slice(0, end)), at);
    t.diagnostic(`tokens ${at}…${end}: max |diff| ${d.toExponential(2)}`);
    assert.ok(d <= TOL, `tokens ${at}…${end}: max |diff| ${d}`);
    at = end;
  }
  await s.dispose();
});

test('untied head with q/k/v/o biases (random llama, F16): castOnDemand + lmHeadChunks + attentionInLayer + externalData equal the reference', async (t) => {
  const ck = randomCk({ family: 'llama', seed: 11, numHeads: 4, numKvHeads: 2, hiddenSize: 64, tie: false, attentionBias: true, vocabSize: 211, dtype: 'F16' });
  const o: Partial<GraphOptions> = { weights: 'float16', castOnDemand: true, lmHeadChunks: 5, attentionInLayer: true, externalData: true };
  const x = ids(24, ck.config.vocabSize);
  const s = await EngineSession.create(ort, ck, { graph: o });
  const r = await s.prefill(x);
  const d = worstDiff(ck, o, r, s, reference(ck, x), 0);
  t.diagnostic(`max |diff| ${d.toExponential(2)}`);
  assert.ok(d <= TOL, `max |diff| ${d}`);
  await s.dispose();
});

// ---------------------------------------------------------------- structure

test('defaults: the options off build the same bytes as no options', () => {
  const ck = tiny();
  for (const weights of ['float32', 'float16'] as const) {
    const a = buildGraph(ck, { weights });
    const b = buildGraph(ck, { weights, castOnDemand: false, lmHeadChunks: 1, attentionInLayer: false, externalData: false });
    assert.deepEqual(b.bytes, a.bytes);
    assert.equal(a.external, undefined);
  }
});

test('castOnDemand: no matrix weight is cast straight from its initializer; the embedding is gathered before the cast', () => {
  const ck = tiny();
  const directMatrixCasts = (o: Partial<GraphOptions>) => {
    const g = readGraph(buildGraph(ck, o).bytes);
    return g.nodes.filter((n) => n.op === 'Cast' && (g.inits.get(n.inputs[0]!)?.dims.length ?? 0) > 1);
  };
  assert.ok(directMatrixCasts({ weights: 'float16' }).length > 4 * 7, 'without it, every matrix is cast straight away');
  assert.deepEqual(directMatrixCasts({ weights: 'float16', castOnDemand: true }), []);
  const g = readGraph(buildGraph(ck, { weights: 'float16', castOnDemand: true }).bytes);
  const gather = g.nodes.find((n) => n.op === 'Gather' && n.inputs[1] === io.inputIds)!;
  assert.equal(gather.inputs[0], 'model.embed_tokens.weight');
  // Each layer's weights wait for that layer's input: layer 3's q_proj cast depends on layer 2's down_proj.
  const q3 = g.nodes.find((n) => n.op === 'Gemm' && ancestors(g.nodes, n.outputs[0]!).has('model.layers.3.self_attn.q_proj.weight'))!;
  const castOfQ3 = g.nodes.find((n) => n.op === 'Cast' && q3.inputs.includes(n.outputs[0]!))!;
  assert.ok(ancestors(g.nodes, castOfQ3.outputs[0]!).has('model.layers.2.mlp.down_proj.weight'));
  // float32 weights have no casts to move.
  assert.deepEqual(buildGraph(ck, { castOnDemand: true }).bytes, buildGraph(ck).bytes);
});

test('lmHeadChunks: the tied head is that many Slice → Cast → Gemm over float16 rows, concatenated', () => {
  const g = readGraph(buildGraph(tiny(), { weights: 'float16', lmHeadChunks: 3 }).bytes);
  const concat = g.nodes.find((n) => n.outputs[0] === io.logits)!;
  assert.equal(concat.op, 'Concat');
  assert.equal(concat.inputs.length, 3);
  assert.equal(g.nodes.filter((n) => n.op === 'Slice' && n.inputs[0] === 'model.embed_tokens.weight').length, 3);
  assert.throws(() => buildGraph(tiny(), { lmHeadChunks: 0 }), /lmHeadChunks/);
});

test("attentionInLayer: each layer's MLP depends on that layer's attention output", () => {
  const ck = tiny();
  const check = (o: Partial<GraphOptions>) => {
    const g = readGraph(buildGraph(ck, o).bytes);
    return Array.from({ length: ck.config.numLayers }, (_, l) => {
      const gate = g.nodes.find((n) => n.op === 'Gemm' && n.inputs[1] === `model.layers.${l}.mlp.gate_proj.weight`)!;
      return ancestors(g.nodes, gate.outputs[0]!).has(io.attn(l));
    });
  };
  assert.deepEqual(check({ attention: 'mean' }), [false, false, false, false]);
  assert.deepEqual(check({ attention: 'mean', attentionInLayer: true }), [true, true, true, true]);
  assert.deepEqual(buildGraph(ck, { attention: 'none', attentionInLayer: true }).bytes, buildGraph(ck, { attention: 'none' }).bytes);
});

test('externalData: every weight is a segment of weights.bin holding exactly the bytes the inline graph holds', async () => {
  const ck = tiny();
  for (const weights of ['float32', 'float16'] as const) {
    const inline = readGraph(buildGraph(ck, { weights }).bytes);
    const built = buildGraph(ck, { weights, externalData: true });
    const ext = readGraph(built.bytes);
    const e = built.external!;
    assert.equal(e.location, EXTERNAL_DATA_LOCATION);
    assert.equal(e.segments.length, ck.tensors.size);
    const file = externalDataBytes(e);
    assert.equal(file.length, e.total);
    for (const seg of e.segments) {
      const t = ext.inits.get(seg.name)!;
      assert.equal(t.dataLocation, 1, seg.name);
      assert.equal(t.raw, undefined, seg.name);
      assert.deepEqual(t.external, { location: 'weights.bin', offset: String(seg.offset), length: String(seg.length) });
      assert.equal(seg.offset % 64, 0);
      assert.deepEqual(file.subarray(seg.offset, seg.offset + seg.length), inline.inits.get(seg.name)!.raw, seg.name);
      assert.deepEqual(t.dims, inline.inits.get(seg.name)!.dims);
    }
    assert.ok(built.bytes.length < buildGraph(ck, { weights }).bytes.length - e.total / 2);
  }
  // The graph really reads the file: without it ORT cannot create the session.
  const built = buildGraph(ck, { externalData: true });
  await assert.rejects(ort.InferenceSession.create(built.bytes, { executionProviders: ['wasm'], logSeverityLevel: 4 }));
});

test(`a float32 checkpoint stored as float16 is rounded: within ${FP16_ROUNDED_TOL} of the float32 reference, not within ${TOL}`, async (t) => {
  const ck = randomCk({ family: 'qwen3', seed: 3, numHeads: 4, numKvHeads: 2, headDim: 16, hiddenSize: 48, dtype: 'F32' });
  const x = ids(24, ck.config.vocabSize);
  const ref = reference(ck, x);
  const o: Partial<GraphOptions> = { weights: 'float16', castOnDemand: true, lmHeadChunks: 2, attentionInLayer: true, externalData: true };
  const s = await EngineSession.create(ort, ck, { graph: o });
  const d = worstDiff(ck, o, await s.prefill(x), s, ref, 0);
  t.diagnostic(`max |diff| ${d.toExponential(2)}`);
  assert.ok(d <= FP16_ROUNDED_TOL && d > TOL, `max |diff| ${d}`);
  await s.dispose();
});

// ---------------------------------------------------------------- BF16 checkpoints and per-head maps of one layer

/** The same tensors as a BF16 file and as an F32 file of exactly the BF16 values (the reference reads the F32 one). */
function bf16Pair(spec: RandomSpec): { bf16: Checkpoint; f32: Checkpoint } {
  const r = randomCheckpoint({ ...spec, dtype: 'F32' });
  const src = loadCheckpoint(r.configText, [r.weights]);
  const enc = new TextEncoder();
  const write = (dtype: 'BF16' | 'F32'): Uint8Array => {
    const header: Record<string, unknown> = {};
    const parts: Uint8Array[] = [];
    let off = 0;
    for (const name of src.tensors.keys()) {
      const t = src.tensors.get(name)!;
      const bits = f32ToBf16Bits(src.get(name));
      const bytes = dtype === 'BF16' ? new Uint8Array(bits.buffer) : new Uint8Array(bf16BitsToF32(bits).buffer);
      header[name] = { dtype, shape: t.shape, data_offsets: [off, off + bytes.length] };
      parts.push(bytes);
      off += bytes.length;
    }
    const h = enc.encode(JSON.stringify(header));
    const out = new Uint8Array(8 + h.length + off);
    new DataView(out.buffer).setBigUint64(0, BigInt(h.length), true);
    out.set(h, 8);
    let p = 8 + h.length;
    for (const b of parts) {
      out.set(b, p);
      p += b.length;
    }
    return out;
  };
  return { bf16: loadCheckpoint(r.configText, [write('BF16')]), f32: loadCheckpoint(r.configText, [write('F32')]) };
}

test("weights 'bfloat16' keep a BF16 checkpoint's bits: equal the float32 reference of the same values (≤ TOL)", async (t) => {
  const { bf16, f32 } = bf16Pair({ family: 'qwen3', seed: 5, numHeads: 4, numKvHeads: 2, headDim: 16, hiddenSize: 48 });
  assert.equal(bf16.dtype, 'BF16');
  const x = ids(24, bf16.config.vocabSize);
  const ref = referenceForward(f32, x); // not the cache: its key does not tell random checkpoints apart
  const o: Partial<GraphOptions> = { weights: 'bfloat16', castOnDemand: true, lmHeadChunks: 3, attentionInLayer: true, externalData: true };
  const s = await EngineSession.create(ort, bf16, { graph: o });
  assert.equal(s.weightType, 'bfloat16');
  const d = worstDiff(f32, o, await s.prefill(x), s, ref, 0);
  t.diagnostic(`max |diff| ${d.toExponential(2)}`);
  assert.ok(d <= TOL, `max |diff| ${d}`);
  await s.dispose();
  // The initializers are the checkpoint's BF16 bytes, untouched (ONNX data type 16), not a converted copy.
  const built = buildGraph(bf16, { ...o, externalData: false });
  const { inits } = readGraph(built.bytes);
  const name = 'model.layers.0.mlp.up_proj.weight';
  const info = bf16.tensors.get(name)!;
  const init = inits.get(name)!;
  assert.equal(init.dataType, 16);
  assert.deepEqual(init.raw, info.file.data.subarray(info.file.tensors.get(name)!.begin, info.file.tensors.get(name)!.end));
});

test('headLayerInput: the layer asked for comes back per head, every other layer as the head mean; the large-model plan uses it', async (t) => {
  const ck = tiny();
  const c = ck.config;
  const x = ids(T, c.vocabSize, 4);
  const ref = reference(ck, x);
  const o: Partial<GraphOptions> = { weights: 'float16', castOnDemand: true, attentionInLayer: true, externalData: true, attention: 'mean', headLayerInput: true, logits: 'last' };
  const s = await EngineSession.create(ort, ck, { graph: o });
  for (const layer of [1, c.numLayers - 1]) {
    const r = await s.prefill(x, undefined, layer);
    let worst = maxAbsDiff(r.logits!.data, ref.logits.subarray((T - 1) * c.vocabSize));
    for (let l = 0; l < c.numLayers; l++) {
      const a = r.attention[l]!;
      if (l === layer) {
        assert.deepEqual(a.dims, [c.numHeads, T, T]);
        worst = Math.max(worst, maxAbsDiff(a.data, ref.attn[l]!));
      } else {
        assert.deepEqual(a.dims, [T, T]);
        worst = Math.max(worst, maxAbsDiff(a.data, headMean(ref.attn[l]!, c.numHeads, T, T, x.map((_, i) => i))));
      }
    }
    t.diagnostic(`layer ${layer} per head: max |diff| ${worst.toExponential(2)}`);
    assert.ok(worst <= TOL, `max |diff| ${worst}`);
  }
  // Without a layer named, the last layer's heads come back (the default).
  const r = await s.prefill(x);
  assert.equal(r.attention[c.numLayers - 1]!.dims.length, 3);
  assert.equal(r.attention[0]!.dims.length, 2);
  await assert.rejects(s.prefill(x, undefined, c.numLayers), /no layer/);
  await s.dispose();
  // The plan is only for large models: kvscope-tiny keeps the defaults; a 0.6B-shaped config gets the plan.
  assert.deepEqual(largeModelPlan(ck, 'wasm'), {});
});
