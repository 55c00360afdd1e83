// A minimal protobuf encoder for the parts of onnx.proto (ModelProto and below) the graph builder emits.
// Encodes only; field numbers follow onnx/onnx.proto (IR version 8). Knows nothing about models.

export const DataType = { FLOAT: 1, INT32: 6, INT64: 7, BOOL: 9, FLOAT16: 10, BFLOAT16: 16 } as const;
export type DataTypeId = (typeof DataType)[keyof typeof DataType];

export interface TensorValue {
  name: string;
  dataType: DataTypeId;
  dims: number[];
  /** Little-endian raw bytes (raw_data); ignored when `external` is set. */
  raw: Uint8Array;
  /** The data lives in an external file (ONNX external data; onnxruntime-web's `externalData` option), not in raw_data. */
  external?: { location: string; offset: number; length: number };
}

export type AttributeValue =
  | { kind: 'int'; value: number }
  | { kind: 'float'; value: number }
  | { kind: 'ints'; value: number[] }
  | { kind: 'floats'; value: number[] }
  | { kind: 'string'; value: string }
  | { kind: 'tensor'; value: TensorValue };

export interface NodeValue {
  opType: string;
  inputs: string[];
  outputs: string[];
  name: string;
  attributes: Record<string, AttributeValue>;
  domain?: string;
}

export interface ValueInfo {
  name: string;
  elemType: DataTypeId;
  /** A number is a fixed dimension, a string a symbolic one. */
  shape: (number | string)[];
}

export interface GraphValue {
  name: string;
  nodes: NodeValue[];
  initializers: TensorValue[];
  inputs: ValueInfo[];
  outputs: ValueInfo[];
}

/** Growable byte sink; chunks are joined once at the end so multi-hundred-MB initializers are copied once. */
class Writer {
  private chunks: Uint8Array[] = [];
  private buf = new Uint8Array(1 << 16);
  private pos = 0;
  length = 0;

  private ensure(n: number) {
    if (this.pos + n <= this.buf.length) return;
    this.flush();
    if (n > this.buf.length) this.buf = new Uint8Array(n);
  }
  private flush() {
    if (this.pos) this.chunks.push(this.buf.slice(0, this.pos));
    this.pos = 0;
  }
  byte(b: number) {
    this.ensure(1);
    this.buf[this.pos++] = b;
    this.length++;
  }
  varint(v: number | bigint) {
    let x = BigInt.asUintN(64, BigInt(v));
    if (x < 128n) return this.byte(Number(x));
    while (x >= 128n) {
      this.byte(Number((x & 127n) | 128n));
      x >>= 7n;
    }
    this.byte(Number(x));
  }
  bytes(b: Uint8Array) {
    if (b.length > 4096) {
      this.flush();
      this.chunks.push(b);
    } else {
      this.ensure(b.length);
      this.buf.set(b, this.pos);
      this.pos += b.length;
    }
    this.length += b.length;
  }
  tag(field: number, wire: number) {
    this.varint((field << 3) | wire);
  }
  finish(): Uint8Array {
    this.flush();
    if (this.chunks.length === 1) return this.chunks[0]!;
    const out = new Uint8Array(this.length);
    let p = 0;
    for (const c of this.chunks) {
      out.set(c, p);
      p += c.length;
    }
    return out;
  }
  /** Bytes of this writer as one list of chunks, to embed as a length-delimited field without copying. */
  parts(): Uint8Array[] {
    this.flush();
    return this.chunks;
  }
}

const utf8 = new TextEncoder();

function lenField(w: Writer, field: number, sub: Writer) {
  w.tag(field, 2);
  const parts = sub.parts();
  w.varint(sub.length);
  for (const p of parts) w.bytes(p);
}
function strField(w: Writer, field: number, s: string) {
  const b = utf8.encode(s);
  w.tag(field, 2);
  w.varint(b.length);
  w.bytes(b);
}
function intField(w: Writer, field: number, v: number) {
  w.tag(field, 0);
  w.varint(v);
}

function encodeTensor(t: TensorValue): Writer {
  const w = new Writer();
  for (const d of t.dims) intField(w, 1, d);
  intField(w, 2, t.dataType);
  strField(w, 8, t.name);
  if (t.external) {
    // external_data (13): StringStringEntryProto {key 1, value 2}; data_location (14) = EXTERNAL (1).
    const { location, offset, length } = t.external;
    for (const [k, v] of [['location', location], ['offset', String(offset)], ['length', String(length)]] as const) {
      const e = new Writer();
      strField(e, 1, k);
      strField(e, 2, v);
      lenField(w, 13, e);
    }
    intField(w, 14, 1);
    return w;
  }
  w.tag(9, 2);
  w.varint(t.raw.length);
  w.bytes(t.raw);
  return w;
}

function encodeAttribute(name: string, a: AttributeValue): Writer {
  const w = new Writer();
  strField(w, 1, name);
  switch (a.kind) {
    case 'float': {
      w.tag(2, 5);
      const b = new Uint8Array(4);
      new DataView(b.buffer).setFloat32(0, a.value, true);
      w.bytes(b);
      intField(w, 20, 1);
      break;
    }
    case 'int':
      intField(w, 3, a.value);
      intField(w, 20, 2);
      break;
    case 'string':
      strField(w, 4, a.value);
      intField(w, 20, 3);
      break;
    case 'tensor':
      lenField(w, 5, encodeTensor(a.value));
      intField(w, 20, 4);
      break;
    case 'floats': {
      const b = new Uint8Array(4 * a.value.length);
      const dv = new DataView(b.buffer);
      a.value.forEach((v, i) => dv.setFloat32(4 * i, v, true));
      w.tag(7, 2);
      w.varint(b.length);
      w.bytes(b);
      intField(w, 20, 6);
      break;
    }
    case 'ints': {
      const sub = new Writer();
      for (const v of a.value) sub.varint(v);
      lenField(w, 8, sub);
      intField(w, 20, 7);
      break;
    }
  }
  return w;
}

function encodeNode(n: NodeValue): Writer {
  const w = new Writer();
  for (const i of n.inputs) strField(w, 1, i);
  for (const o of n.outputs) strField(w, 2, o);
  strField(w, 3, n.name);
  strField(w, 4, n.opType);
  for (const [k, a] of Object.entries(n.attributes)) lenField(w, 5, encodeAttribute(k, a));
  if (n.domain) strField(w, 7, n.domain);
  return w;
}

function encodeValueInfo(v: ValueInfo): Writer {
  const shape = new Writer();
  for (const d of v.shape) {
    const dim = new Writer();
    if (typeof d === 'number') intField(dim, 1, d);
    else strField(dim, 2, d);
    lenField(shape, 1, dim);
  }
  const tensorType = new Writer();
  intField(tensorType, 1, v.elemType);
  lenField(tensorType, 2, shape);
  const type = new Writer();
  lenField(type, 1, tensorType);
  const w = new Writer();
  strField(w, 1, v.name);
  lenField(w, 2, type);
  return w;
}

/** Serialises a ModelProto (IR version 8) with the given default-domain opset. */
export function encodeModel(graph: GraphValue, opset: number, producer = 'kvscope'): Uint8Array {
  const g = new Writer();
  for (const n of graph.nodes) lenField(g, 1, encodeNode(n));
  strField(g, 2, graph.name);
  for (const t of graph.initializers) lenField(g, 5, encodeTensor(t));
  for (const i of graph.inputs) lenField(g, 11, encodeValueInfo(i));
  for (const o of graph.outputs) lenField(g, 12, encodeValueInfo(o));
  const m = new Writer();
  intField(m, 1, 8);
  strField(m, 2, producer);
  lenField(m, 7, g);
  const op = new Writer();
  strField(op, 1, '');
  intField(op, 2, opset);
  lenField(m, 8, op);
  return m.finish();
}
