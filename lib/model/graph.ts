// Builds an ONNX decoder graph from a checkpoint with explicit attention ops, so the probabilities and
// the K/V cache are real graph outputs. Emits bytes only; running the graph belongs to lib/engine.

import type { Checkpoint } from './checkpoint';
import { ropeInvFreq, type ModelConfig } from './config';
import { DataType, encodeModel, type AttributeValue, type DataTypeId, type NodeValue, type TensorValue, type ValueInfo } from './onnxProto';
import { toFloat16Bits } from './safetensors';

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
  /** Weight storage in the graph. `auto`: float32 unless that would pass ~1.8 GB (protobuf's 2 GB limit). */
  weights: 'float32' | 'float16' | 'auto';
}

export const DEFAULT_GRAPH_OPTIONS: GraphOptions = {
  logits: 'all',
  attention: 'full',
  attentionRows: 'all',
  presentKv: true,
  weights: 'auto',
};

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
  attn: (l: number) => `attn_${l}`,
};

export interface BuiltGraph {
  bytes: Uint8Array;
  options: GraphOptions;
  weightType: 'float32' | 'float16';
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

export function buildGraph(ckpt: Checkpoint, options: Partial<GraphOptions> = {}): BuiltGraph {
  const o: GraphOptions = { ...DEFAULT_GRAPH_OPTIONS, ...options };
  const c = ckpt.config;
  const weightType = o.weights === 'auto' ? (float32WeightBytes(c) > 1.8e9 ? 'float16' : 'float32') : o.weights;
  if (o.attention === 'head' && (o.head === undefined || o.head < 0 || o.head >= c.numHeads)) {
    throw new Error(`graph: attention 'head' needs a head index in [0, ${c.numHeads})`);
  }
  const b = new Builder();

  // A weight as a float32 value: stored as float32, or as float16 followed by a Cast.
  const weight = (name: string, shape?: number[]): string => {
    const t = ckpt.tensors.get(name);
    if (!t) throw new Error(`graph: checkpoint has no ${name}`);
    const dims = shape ?? t.shape;
    if (weightType === 'float32') {
      const v = ckpt.get(name);
      b.init(name, DataType.FLOAT, dims, new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
      return name;
    }
    const info = t.file.tensors.get(name)!;
    const raw = t.dtype === 'F16' ? t.file.data.subarray(info.begin, info.end) : new Uint8Array(toFloat16Bits(ckpt.get(name)).buffer);
    b.init(name, DataType.FLOAT16, dims, raw);
    return b.op('Cast', [name], { to: int(DataType.FLOAT) });
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
  const pastLen0 = b.op('Gather', [b.op('Shape', [io.pastKey(0)]), b.i64([1], [])], { axis: int(0) });
  const T = b.op('Gather', [b.op('Shape', [io.inputIds]), b.i64([0], [])], { axis: int(0) });
  const S = b.op('Add', [pastLen0, T]);
  const keyPos = b.op('Range', [b.i64([0], []), S, b.i64([1], [])]);
  const hidden = b.op('Greater', [b.op('Unsqueeze', [keyPos, b.i64([0])]), b.op('Unsqueeze', [io.positionIds, b.i64([1])])]);
  const mask = b.op('Where', [hidden, b.f32([-1e30], []), b.f32([0], [])]); // [T, S]
  const scale = b.f32([1 / Math.sqrt(hd)], []);

  const embed = weight('model.embed_tokens.weight');
  let x = b.op('Gather', [embed, io.inputIds], { axis: int(0) }); // [T, H]
  const outputs: ValueInfo[] = [];
  const f = DataType.FLOAT;

  for (let l = 0; l < c.numLayers; l++) {
    const p = `model.layers.${l}.`;
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
    const presentK = b.op('Concat', [io.pastKey(l), k], { axis: int(1) }, o.presentKv ? io.presentKey(l) : undefined);
    const presentV = b.op('Concat', [io.pastValue(l), v], { axis: int(1) }, o.presentKv ? io.presentValue(l) : undefined);
    if (o.presentKv) {
      outputs.push({ name: io.presentKey(l), elemType: f, shape: [nKV, 'total', hd] });
      outputs.push({ name: io.presentValue(l), elemType: f, shape: [nKV, 'total', hd] });
    }
    // Grouped-query attention without copying K/V: query heads h = kv·g + j share kv head kv (HF repeat_kv order).
    const qg = b.op('Reshape', [q, b.i64([nKV, -1, hd])]); // [nKV, g·T, hd]
    const kT = b.op('Transpose', [presentK], { perm: ints([0, 2, 1]) });
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
    const head = c.tieWordEmbeddings ? embed : weight('lm_head.weight');
    b.op('Gemm', [normed, head], { transB: int(1) }, io.logits);
    outputs.unshift({ name: io.logits, elemType: f, shape: [o.logits === 'last' ? 1 : 'tokens', c.vocabSize] });
  }

  const inputs: ValueInfo[] = [
    { name: io.inputIds, elemType: DataType.INT64, shape: ['tokens'] },
    { name: io.positionIds, elemType: DataType.INT64, shape: ['tokens'] },
  ];
  if (o.attention !== 'none' && o.attentionRows === 'input') inputs.push({ name: io.attnRows, elemType: DataType.INT64, shape: ['rows'] });
  for (let l = 0; l < c.numLayers; l++) {
    inputs.push({ name: io.pastKey(l), elemType: f, shape: [nKV, 'past', hd] });
    inputs.push({ name: io.pastValue(l), elemType: f, shape: [nKV, 'past', hd] });
  }
  const bytes = encodeModel({ name: `kvscope_${c.modelType}`, nodes: b.nodes, initializers: b.inits, inputs, outputs }, OPSET);
  return { bytes, options: o, weightType, inputNames: inputs.map((i) => i.name), outputNames: outputs.map((x) => x.name) };
}
