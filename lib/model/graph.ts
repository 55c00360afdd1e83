// Builds an ONNX decoder graph from a checkpoint with explicit attention ops, so the probabilities and
// the K/V cache are real graph outputs. Emits bytes only; running the graph belongs to lib/engine.

import { CodedError } from '../i18n/message';
import type { Checkpoint } from './checkpoint';
import { ropeInvFreq, type ModelConfig } from './config';
import { DataType, encodeModel, type AttributeValue, type DataTypeId, type NodeValue, type TensorValue, type ValueInfo } from './onnxProto';
import { bf16ToF16Bits, f16Overflows, f32ToBf16Bits, f32ToF16Bits, f32View, u16View } from './halfFloat';

export const OPSET = 17;

/**
 * What the graph returns besides the K/V cache.
 * - attention `full`: per layer [heads, rows, keys]; `mean` / `max`: over heads → [rows, keys]; `head`: one head → [rows, keys].
 * - attentionRows `all`: every query row of this call; `input`: the rows listed in the `attn_rows` input (indices into this call's tokens).
 */
export interface GraphOptions {
  logits: 'all' | 'last' | 'none';
  attention: 'none' | 'full' | 'mean' | 'max' | 'head';
  head?: number;
  attentionRows: 'all' | 'input';
  /** Emit present K/V outputs (the cache); without them the graph can still take past K/V. */
  presentKv: boolean;
  /**
   * Weight storage in the graph. `bfloat16` keeps a BF16 checkpoint's bytes as they are (exact, no conversion)
   * and casts them to float32 where used, like `float16`. `auto`: float32 up to LARGE_MODEL_FP32_BYTES, above
   * that bfloat16 when every tensor is stored BF16, else float16 (docs/MODELS.md, "Memory plan").
   */
  weights: 'float32' | 'float16' | 'bfloat16' | 'auto';
  /**
   * float16 weights only (no effect on float32): cast each weight to float32 where it is used. Without it ORT
   * runs every weight-only Cast at the start of a run, so an fp32 copy of most weights is alive at once. Each
   * layer's matrix Casts read `Reshape(W, shape + 0)`, the 0 derived from the layer's input; the embedding is
   * gathered in float16 and only the gathered rows are cast.
   */
  castOnDemand: boolean;
  /**
   * float16 weights only: the LM head as Slice + Cast + Gemm over this many vocabulary chunks (1 = one Gemm),
   * so no fp32 copy of the whole table exists. Pays off with `castOnDemand`; otherwise every chunk's Cast
   * still runs at the start.
   */
  lmHeadChunks: number;
  /**
   * Compute each layer's attention output inside that layer: the layer's MLP waits on `attn_l` (through
   * Shape → 0 → Reshape). ORT otherwise schedules outputs that nothing consumes at the end of the run, which
   * keeps every layer's [heads, T, S] probabilities alive until then. No effect with attention 'none'.
   */
  attentionInLayer: boolean;
  /**
   * Weights as ONNX external data: the graph bytes reference file `weights.bin`, described by
   * `BuiltGraph.external` and handed to onnxruntime-web as `externalData`. ORT then copies each weight once,
   * instead of holding the graph bytes, its copy of them and the parsed tensors at the same time.
   */
  externalData: boolean;
  /**
   * Per-head maps of one layer on request: an int64 input `attn_layer` ([1]) names the layer, and each layer
   * returns `attn_heads_l` = its [heads, rows, keys] probabilities when l is that layer, else an empty
   * [0, rows, keys] tensor. With a reduced `attention` ('mean' / 'max') every view gets all layers reduced
   * and the layer being looked at in full, without the full tensor of every layer (7.5 GB at 28 × 16 × 2,048²).
   */
  headLayerInput: boolean;
  /**
   * How past K/V come in and go out. `head`: inputs `past_*` [kvHeads, P, headDim], outputs `present_*`
   * [kvHeads, P+T, headDim] (the whole cache, every call). `position`: inputs `past_*` [P, kvHeads, headDim] and
   * outputs `new_*` [T, kvHeads, headDim], only this call's entries, so the engine appends them to a cache it
   * keeps position-major (a prefix of it is the next past, without a copy) instead of receiving the whole cache
   * back each step (docs/BENCHMARKS.md, "Appending to the cache").
   */
  kvLayout: 'head' | 'position';
}

export const DEFAULT_GRAPH_OPTIONS: GraphOptions = {
  logits: 'all',
  attention: 'full',
  attentionRows: 'all',
  presentKv: true,
  weights: 'auto',
  castOnDemand: false,
  lmHeadChunks: 1,
  attentionInLayer: false,
  externalData: false,
  headLayerInput: false,
  kvLayout: 'head',
};

/** Above this many bytes of float32 weights `weights: 'auto'` stores 16-bit weights (Qwen2.5-0.5B and up). */
export const LARGE_MODEL_FP32_BYTES = 1.2e9;

/** Where the external-data file of a graph built with `externalData` is named in the graph. */
export const EXTERNAL_DATA_LOCATION = 'weights.bin';

/** One weight's bytes in the external-data file, produced on demand (a loader may stream them one at a time). */
export interface ExternalSegment {
  name: string;
  offset: number;
  length: number;
  bytes: () => Uint8Array;
}

/** The external-data file: segments in offset order, each 64-byte aligned; `total` is the file's length. */
export interface ExternalData {
  location: string;
  segments: ExternalSegment[];
  total: number;
}

/** The whole external-data file in one buffer (simple, but holds every weight in JS at once). */
export function externalDataBytes(e: ExternalData): Uint8Array {
  const out = new Uint8Array(e.total);
  for (const s of e.segments) out.set(s.bytes(), s.offset);
  return out;
}

/** Names of the graph's inputs and outputs, shared by the builder and the session. */
export const io = {
  inputIds: 'input_ids', // int64 [T]
  positionIds: 'position_ids', // int64 [T]: past length + index
  attnRows: 'attn_rows', // int64 [R]
  pastKey: (l: number) => `past_key_${l}`, // float32 [kvHeads, P, headDim]
  pastValue: (l: number) => `past_value_${l}`,
  logits: 'logits', // float32 [T or 1, vocab]
  presentKey: (l: number) => `present_key_${l}`, // float32 [kvHeads, P+T, headDim] (post norm, post RoPE)
  presentValue: (l: number) => `present_value_${l}`,
  newKey: (l: number) => `new_key_${l}`, // float32 [T, kvHeads, headDim] (kvLayout 'position')
  newValue: (l: number) => `new_value_${l}`,
  attn: (l: number) => `attn_${l}`,
  attnLayer: 'attn_layer', // int64 [1]: the layer whose per-head maps `attn_heads_l` carry (headLayerInput)
  attnHeads: (l: number) => `attn_heads_${l}`,
};

export interface BuiltGraph {
  bytes: Uint8Array;
  /** With `externalData`: the weights' file, to pass as onnxruntime-web's `externalData`. */
  external?: ExternalData;
  options: GraphOptions;
  weightType: WeightType;
  inputNames: string[];
  outputNames: string[];
}

class Builder {
  nodes: NodeValue[] = [];
  inits: TensorValue[] = [];
  private n = 0;
  private consts = new Map<string, string>();

  node(opType: string, inputs: string[], attributes: Record<string, AttributeValue> = {}, nOut = 1, outName?: string): string[] {
    const id = `${opType}_${this.n++}`;
    const outputs = Array.from({ length: nOut }, (_, i) => (outName && i === 0 ? outName : `${id}_o${i}`));
    this.nodes.push({ opType, inputs, outputs, name: id, attributes });
    return outputs;
  }
  op(opType: string, inputs: string[], attributes: Record<string, AttributeValue> = {}, outName?: string): string {
    return this.node(opType, inputs, attributes, 1, outName)[0]!;
  }
  init(name: string, dataType: DataTypeId, dims: number[], raw: Uint8Array): string {
    this.inits.push({ name, dataType, dims, raw });
    return name;
  }
  i64(values: number[], dims: number[] = [values.length]): string {
    const key = `i64:${dims}:${values}`;
    const hit = this.consts.get(key);
    if (hit) return hit;
    const name = `const_i64_${this.consts.size}`;
    this.init(name, DataType.INT64, dims, new Uint8Array(BigInt64Array.from(values.map(BigInt)).buffer));
    this.consts.set(key, name);
    return name;
  }
  f32(values: number[], dims: number[] = [values.length]): string {
    const key = `f32:${dims}:${values}`;
    const hit = this.consts.get(key);
    if (hit) return hit;
    const name = `const_f32_${this.consts.size}`;
    this.init(name, DataType.FLOAT, dims, new Uint8Array(Float32Array.from(values).buffer));
    this.consts.set(key, name);
    return name;
  }
}

const ints = (value: number[]): AttributeValue => ({ kind: 'ints', value });
const int = (value: number): AttributeValue => ({ kind: 'int', value });

/** Bytes of the graph's float32 weights, to decide on fp16 storage. */
export function float32WeightBytes(c: ModelConfig): number {
  const qd = c.numHeads * c.headDim;
  const kvd = c.numKvHeads * c.headDim;
  const perLayer = c.hiddenSize * (qd + 2 * kvd) + qd * c.hiddenSize + 3 * c.hiddenSize * c.intermediateSize;
  return 4 * (c.vocabSize * c.hiddenSize * (c.tieWordEmbeddings ? 1 : 2) + c.numLayers * perLayer);
}

export type WeightType = 'float32' | 'float16' | 'bfloat16';

/** What `weights: 'auto'` picks for a config whose tensors are stored in `dtypes` (see GraphOptions.weights). */
export function weightTypeFor(config: ModelConfig, dtypes: readonly string[]): WeightType {
  if (float32WeightBytes(config) <= LARGE_MODEL_FP32_BYTES) return 'float32';
  return dtypes.length > 0 && dtypes.every((d) => d === 'BF16') ? 'bfloat16' : 'float16';
}

/** What `weights: 'auto'` picks for a checkpoint. */
export function autoWeightType(ckpt: Checkpoint): WeightType {
  return weightTypeFor(ckpt.config, [...ckpt.tensors.values()].map((t) => t.dtype));
}

export function buildGraph(ckpt: Checkpoint, options: Partial<GraphOptions> = {}): BuiltGraph {
  const o: GraphOptions = { ...DEFAULT_GRAPH_OPTIONS, ...options };
  const c = ckpt.config;
  const weightType = o.weights === 'auto' ? autoWeightType(ckpt) : o.weights;
  if (o.attention === 'head' && (o.head === undefined || o.head < 0 || o.head >= c.numHeads)) {
    throw new Error(`graph: attention 'head' needs a head index in [0, ${c.numHeads})`);
  }
  if (o.headLayerInput && o.attention === 'none') throw new Error("graph: headLayerInput needs an attention output (not 'none')");
  if (!Number.isInteger(o.lmHeadChunks) || o.lmHeadChunks < 1) throw new Error(`graph: lmHeadChunks must be a positive integer, got ${o.lmHeadChunks}`);
  // `fp16`: weights stored 16-bit (float16 or bfloat16) and cast to float32 where used.
  const fp16 = weightType !== 'float32';
  const bf16 = weightType === 'bfloat16';
  const b = new Builder();
  const segments: ExternalSegment[] = [];
  let extOffset = 0;
  const storedNames = new Set<string>();

  // A weight's initializer as stored (float32 or float16), in the graph bytes or as external data.
  const stored = (name: string): string => {
    if (storedNames.has(name)) return name;
    const t = ckpt.tensors.get(name);
    if (!t) throw new Error(`graph: checkpoint has no ${name}`);
    storedNames.add(name);
    const bytes = (): Uint8Array => {
      if (!fp16) {
        const v = ckpt.get(name);
        return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
      }
      const info = t.file.tensors.get(name)!;
      const raw = t.file.data.subarray(info.begin, info.end);
      // Stored as is when the dtypes agree (BF16 → bfloat16 is exact and copies nothing).
      if ((bf16 && t.dtype === 'BF16') || (!bf16 && t.dtype === 'F16')) return raw;
      const src = t.dtype === 'F32' ? f32View(raw) : u16View(raw);
      const bits =
        t.dtype === 'F32' ? (bf16 ? f32ToBf16Bits(src as Float32Array) : f32ToF16Bits(src as Float32Array)) : bf16 ? f32ToBf16Bits(ckpt.get(name)) : bf16ToF16Bits(src as Uint16Array);
      if (!bf16) {
        // float16 tops out at 65504: a weight beyond it would silently become ±Inf, so the load is refused instead.
        const finite = t.dtype === 'F32' ? (i: number) => Number.isFinite((src as Float32Array)[i]!) : (i: number) => (((src as Uint16Array)[i]! >> 7) & 0xff) !== 0xff;
        const over = f16Overflows(bits, finite);
        if (over) throw new CodedError('msg.model.graph.fp16Overflow', { tensor: name, count: over }, 'graph');
      }
      return new Uint8Array(bits.buffer, bits.byteOffset, bits.byteLength);
    };
    const dataType = bf16 ? DataType.BFLOAT16 : fp16 ? DataType.FLOAT16 : DataType.FLOAT;
    if (!o.externalData) {
      b.init(name, dataType, t.shape, bytes());
      return name;
    }
    // Bytes are produced only when the loader reads this segment, so the builder never holds the weights.
    const length = t.shape.reduce((a, d) => a * d, 1) * (fp16 ? 2 : 4);
    b.inits.push({ name, dataType, dims: t.shape, raw: new Uint8Array(0), external: { location: EXTERNAL_DATA_LOCATION, offset: extOffset, length } });
    segments.push({ name, offset: extOffset, length, bytes });
    extOffset += Math.ceil(length / 64) * 64;
    return name;
  };
  // castOnDemand: an int64 scalar 0 computed from a value of the current layer (set per layer below).
  let dep: string | undefined;
  const zeroFrom = (v: string) => b.op('Mul', [b.op('Gather', [b.op('Shape', [v]), b.i64([0], [])], { axis: int(0) }), b.i64([0], [])]);
  // A weight as a float32 value: stored as float32, or as float16 followed by a Cast.
  const weight = (name: string): string => {
    const s = stored(name);
    if (!fp16) return s;
    const dims = ckpt.tensors.get(name)!.shape;
    // Reshape to its own shape (+ 0): an alias that cannot run before `dep` exists, so neither can the Cast.
    const input = o.castOnDemand && dep && dims.length > 1 ? b.op('Reshape', [s, b.op('Add', [b.i64(dims), dep])]) : s;
    return b.op('Cast', [input], { to: int(DataType.FLOAT) });
  };

  const hd = c.headDim;
  const nH = c.numHeads;
  const nKV = c.numKvHeads;
  const rmsNorm = (x: string, w: string): string => {
    const sq = b.op('Mul', [x, x]);
    const ms = b.op('ReduceMean', [sq], { axes: ints([-1]), keepdims: int(1) });
    const rs = b.op('Reciprocal', [b.op('Sqrt', [b.op('Add', [ms, b.f32([c.rmsNormEps], [])])])]);
    return b.op('Mul', [b.op('Mul', [x, rs]), w]);
  };
  const linear = (x: string, prefix: string, bias: boolean): string => {
    const inputs = [x, weight(prefix + '.weight')];
    if (bias) inputs.push(weight(prefix + '.bias'));
    return b.op('Gemm', inputs, { transB: int(1) });
  };

  // RoPE tables indexed by position: [maxPositions, headDim] with halves repeated. Computed in float32
  // step by step as Hugging Face's rotary embedding does (float32 inv_freq, angle, cos/sin), so keys
  // match the PyTorch model's bit for bit in the angle rather than being "more exact" than it.
  const f32 = Math.fround;
  const exact = ropeInvFreq(c);
  const unscaled = ropeInvFreq({ ...c, ropeScaling: { type: 'default', factor: 1 } });
  const inv = exact.map((x, i) => {
    const base = f32(1 / f32(f32(c.ropeTheta) ** f32((2 * i) / hd)));
    return c.ropeScaling.type === 'default' ? base : f32(base * (x / unscaled[i]!));
  });
  const P = c.maxPositions;
  const cosT = new Float32Array(P * hd);
  const sinT = new Float32Array(P * hd);
  for (let p = 0; p < P; p++) {
    for (let i = 0; i < hd / 2; i++) {
      const a = f32(p * inv[i]!);
      cosT[p * hd + i] = cosT[p * hd + i + hd / 2] = Math.cos(a);
      sinT[p * hd + i] = sinT[p * hd + i + hd / 2] = Math.sin(a);
    }
  }
  b.init('rope_cos', DataType.FLOAT, [P, hd], new Uint8Array(cosT.buffer));
  b.init('rope_sin', DataType.FLOAT, [P, hd], new Uint8Array(sinT.buffer));
  const cos = b.op('Gather', ['rope_cos', io.positionIds], { axis: int(0) }); // [T, hd]
  const sin = b.op('Gather', ['rope_sin', io.positionIds], { axis: int(0) });
  const half = hd / 2;
  const rope = (x: string): string => {
    // rotate_half with Slice (the Split form fails in onnxruntime-web's WebGPU kernel).
    const x1 = b.op('Slice', [x, b.i64([0]), b.i64([half]), b.i64([2])]);
    const x2 = b.op('Slice', [x, b.i64([half]), b.i64([hd]), b.i64([2])]);
    const rot = b.op('Concat', [b.op('Neg', [x2]), x1], { axis: int(2) });
    return b.op('Add', [b.op('Mul', [x, cos]), b.op('Mul', [rot, sin])]);
  };

  // Causal mask from positions: key j is visible to a query at position p when j ≤ p.
  const byPosition = o.kvLayout === 'position';
  const pastLen0 = b.op('Gather', [b.op('Shape', [io.pastKey(0)]), b.i64([byPosition ? 0 : 1], [])], { axis: int(0) });
  const T = b.op('Gather', [b.op('Shape', [io.inputIds]), b.i64([0], [])], { axis: int(0) });
  const S = b.op('Add', [pastLen0, T]);
  const keyPos = b.op('Range', [b.i64([0], []), S, b.i64([1], [])]);
  const hidden = b.op('Greater', [b.op('Unsqueeze', [keyPos, b.i64([0])]), b.op('Unsqueeze', [io.positionIds, b.i64([1])])]);
  const mask = b.op('Where', [hidden, b.f32([-1e30], []), b.f32([0], [])]); // [T, S]
  const scale = b.f32([1 / Math.sqrt(hd)], []);

  // castOnDemand: gather float16 rows, then cast only those (no fp32 copy of the table at the start of the run).
  const embedName = 'model.embed_tokens.weight';
  let embedF32: string | undefined;
  const embed = (): string => (embedF32 ??= weight(embedName));
  let x =
    fp16 && o.castOnDemand
      ? b.op('Cast', [b.op('Gather', [stored(embedName), io.inputIds], { axis: int(0) })], { to: int(DataType.FLOAT) })
      : b.op('Gather', [embed(), io.inputIds], { axis: int(0) }); // [T, H]
  const outputs: ValueInfo[] = [];
  const f = DataType.FLOAT;

  for (let l = 0; l < c.numLayers; l++) {
    const p = `model.layers.${l}.`;
    if (fp16 && o.castOnDemand) dep = zeroFrom(x);
    const h = rmsNorm(x, weight(p + 'input_layernorm.weight'));
    const heads = (y: string, n: number) => b.op('Transpose', [b.op('Reshape', [y, b.i64([0, n, hd])])], { perm: ints([1, 0, 2]) });
    let q = heads(linear(h, p + 'self_attn.q_proj', c.qkvBias), nH); // [nH, T, hd]
    let k = heads(linear(h, p + 'self_attn.k_proj', c.qkvBias), nKV); // [nKV, T, hd]
    const v = heads(linear(h, p + 'self_attn.v_proj', c.qkvBias), nKV);
    if (c.qkNorm) {
      q = rmsNorm(q, weight(p + 'self_attn.q_norm.weight'));
      k = rmsNorm(k, weight(p + 'self_attn.k_norm.weight'));
    }
    q = rope(q);
    k = rope(k);
    let kT: string; // [nKV, hd, S]
    let presentV: string; // [nKV, S, hd]
    if (byPosition) {
      // Concatenate position-major ([S, nKV, hd]); K's transpose below was needed anyway, V's is the one extra.
      const toPos = (x: string, name?: string) => b.op('Transpose', [x], { perm: ints([1, 0, 2]) }, name);
      const kNew = toPos(k, o.presentKv ? io.newKey(l) : undefined);
      const vNew = toPos(v, o.presentKv ? io.newValue(l) : undefined);
      if (o.presentKv) {
        outputs.push({ name: io.newKey(l), elemType: f, shape: ['tokens', nKV, hd] });
        outputs.push({ name: io.newValue(l), elemType: f, shape: ['tokens', nKV, hd] });
      }
      kT = b.op('Transpose', [b.op('Concat', [io.pastKey(l), kNew], { axis: int(0) })], { perm: ints([1, 2, 0]) });
      presentV = toPos(b.op('Concat', [io.pastValue(l), vNew], { axis: int(0) }));
    } else {
      const presentK = b.op('Concat', [io.pastKey(l), k], { axis: int(1) }, o.presentKv ? io.presentKey(l) : undefined);
      presentV = b.op('Concat', [io.pastValue(l), v], { axis: int(1) }, o.presentKv ? io.presentValue(l) : undefined);
      if (o.presentKv) {
        outputs.push({ name: io.presentKey(l), elemType: f, shape: [nKV, 'total', hd] });
        outputs.push({ name: io.presentValue(l), elemType: f, shape: [nKV, 'total', hd] });
      }
      kT = b.op('Transpose', [presentK], { perm: ints([0, 2, 1]) });
    }
    // Grouped-query attention without copying K/V: query heads h = kv·g + j share kv head kv (HF repeat_kv order).
    const qg = b.op('Reshape', [q, b.i64([nKV, -1, hd])]); // [nKV, g·T, hd]
    const scores = b.op('Mul', [b.op('MatMul', [qg, kT]), scale]); // [nKV, g·T, S]
    const masked = b.op('Add', [b.op('Reshape', [scores, b.i64([nH, -1, 0])]), mask]); // [nH, T, S]
    const probs = b.op('Softmax', [masked], { axis: int(-1) });
    const ctx = b.op('MatMul', [b.op('Reshape', [probs, b.i64([nKV, -1, 0])]), presentV]); // [nKV, g·T, hd]
    const merged = b.op('Reshape', [b.op('Transpose', [b.op('Reshape', [ctx, b.i64([nH, -1, hd])])], { perm: ints([1, 0, 2]) }), b.i64([0, nH * hd])]);
    x = b.op('Add', [x, linear(merged, p + 'self_attn.o_proj', c.oBias)]);
    if (o.attention !== 'none') {
      const rows = o.attentionRows === 'input' ? b.op('Gather', [probs, io.attnRows], { axis: int(1) }) : probs;
      const name = io.attn(l);
      if (o.attention === 'full') b.op('Identity', [rows], {}, name);
      else if (o.attention === 'mean') b.op('ReduceMean', [rows], { axes: ints([0]), keepdims: int(0) }, name);
      else if (o.attention === 'max') b.op('ReduceMax', [rows], { axes: ints([0]), keepdims: int(0) }, name);
      else b.op('Gather', [rows, b.i64([o.head!], [])], { axis: int(0) }, name);
      outputs.push({ name, elemType: f, shape: o.attention === 'full' ? [nH, 'rows', 'total'] : ['rows', 'total'] });
      const needed = [name];
      if (o.headLayerInput) {
        // Slice(rows, 0, nH·[l = attn_layer]): the layer asked for in full, every other layer an empty tensor.
        const isL = b.op('Cast', [b.op('Equal', [io.attnLayer, b.i64([l])])], { to: int(DataType.INT64) });
        b.op('Slice', [rows, b.i64([0]), b.op('Mul', [isL, b.i64([nH])]), b.i64([0])], {}, io.attnHeads(l));
        outputs.push({ name: io.attnHeads(l), elemType: f, shape: ['heads', 'rows', 'total'] });
        needed.push(io.attnHeads(l));
      }
      if (o.attentionInLayer) {
        // Reshape(x, [0, H] + 0) with the 0 from Shape(attn_l): the MLP below now needs attn_l first.
        for (const out of needed) {
          const z = b.op('Mul', [b.op('Gather', [b.op('Shape', [out]), b.i64([0], [])], { axis: int(0) }), b.i64([0], [])]);
          x = b.op('Reshape', [x, b.op('Add', [b.i64([0, c.hiddenSize]), z])]);
        }
      }
    }
    const h2 = rmsNorm(x, weight(p + 'post_attention_layernorm.weight'));
    const gate = linear(h2, p + 'mlp.gate_proj', false);
    const up = linear(h2, p + 'mlp.up_proj', false);
    const act = b.op('Mul', [b.op('Mul', [gate, b.op('Sigmoid', [gate])]), up]);
    x = b.op('Add', [x, linear(act, p + 'mlp.down_proj', false)]);
  }
  // Our past-length probe reads layer 0's past; the other layers' pasts must agree (the session ensures it).
  if (o.logits !== 'none') {
    let last = x;
    if (o.logits === 'last') last = b.op('Slice', [x, b.i64([-1]), b.i64([Number.MAX_SAFE_INTEGER]), b.i64([0])]);
    const normed = rmsNorm(last, weight('model.norm.weight'));
    if (fp16 && o.castOnDemand) dep = zeroFrom(normed);
    const headName = c.tieWordEmbeddings ? embedName : 'lm_head.weight';
    if (fp16 && o.lmHeadChunks > 1) {
      // Each chunk: Slice the float16 rows, Cast, Gemm; the starts depend on `dep` when casting on demand.
      const table = stored(headName);
      const V = c.vocabSize;
      const step = Math.ceil(V / o.lmHeadChunks);
      const parts: string[] = [];
      for (let s0 = 0; s0 < V; s0 += step) {
        const start = dep ? b.op('Add', [b.i64([s0]), dep]) : b.i64([s0]);
        const rows = b.op('Slice', [table, start, b.i64([Math.min(V, s0 + step)]), b.i64([0])]);
        parts.push(b.op('Gemm', [normed, b.op('Cast', [rows], { to: int(DataType.FLOAT) })], { transB: int(1) }));
      }
      b.op('Concat', parts, { axis: int(1) }, io.logits);
    } else {
      const head = c.tieWordEmbeddings ? embed() : weight(headName);
      b.op('Gemm', [normed, head], { transB: int(1) }, io.logits);
    }
    outputs.unshift({ name: io.logits, elemType: f, shape: [o.logits === 'last' ? 1 : 'tokens', c.vocabSize] });
  }

  const inputs: ValueInfo[] = [
    { name: io.inputIds, elemType: DataType.INT64, shape: ['tokens'] },
    { name: io.positionIds, elemType: DataType.INT64, shape: ['tokens'] },
  ];
  if (o.attention !== 'none' && o.attentionRows === 'input') inputs.push({ name: io.attnRows, elemType: DataType.INT64, shape: ['rows'] });
  if (o.headLayerInput) inputs.push({ name: io.attnLayer, elemType: DataType.INT64, shape: [1] });
  for (let l = 0; l < c.numLayers; l++) {
    const pastShape = byPosition ? ['past', nKV, hd] : [nKV, 'past', hd];
    inputs.push({ name: io.pastKey(l), elemType: f, shape: pastShape });
    inputs.push({ name: io.pastValue(l), elemType: f, shape: pastShape });
  }
  const bytes = encodeModel({ name: `kvscope_${c.modelType}`, nodes: b.nodes, initializers: b.inits, inputs, outputs }, OPSET);
  const external = o.externalData ? { location: EXTERNAL_DATA_LOCATION, segments, total: extOffset } : undefined;
  return { bytes, external, options: o, weightType, inputNames: inputs.map((i) => i.name), outputNames: outputs.map((x) => x.name) };
}
