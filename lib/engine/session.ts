// The engine: one ONNX session over a built graph plus the K/V cache it grows (prefill, extend, fork) and,
// for the StreamingLLM experiment, thins (evict).
// Takes the onnxruntime-web module as a parameter so the same code runs in Node, a worker, WASM or WebGPU.

import type * as OrtModule from 'onnxruntime-web';
import type { Checkpoint } from '../model/checkpoint';
import type { ModelConfig } from '../model/config';
import { autoWeightType, buildGraph, float32WeightBytes, io, LARGE_MODEL_FP32_BYTES, type ExternalData, type GraphOptions, type WeightType } from '../model/graph';
import type { Tensor } from '../tensor';
import type { Params, StringKey } from '../i18n';
import { CodedError, message, messageText, type Message } from '../i18n/message';

export type Ort = typeof OrtModule;
export type ExecutionProvider = 'wasm' | 'webgpu';

export type { Tensor } from '../tensor';

export interface EngineOptions {
  graph?: Partial<GraphOptions>;
  /** Preferred provider; `webgpu` falls back to `wasm` if session creation fails (see `provider`). */
  executionProvider?: ExecutionProvider;
  /** Called with a label while the graph is built and compiled. */
  onProgress?: (stage: string, fraction: number) => void;
  /** Extra onnxruntime-web session options, merged over the engine's own (benchmarks, experiments). */
  sessionOptions?: OrtModule.InferenceSession.SessionOptions;
  /**
   * Keep the K/V cache in the runtime's own tensors between calls (default: on WebGPU). On WebGPU the present
   * K/V outputs stay in GPU buffers and are fed back as the next call's past, instead of a copy to JS and back
   * per step. `fork`, `evict` and `kv` then need `await syncCache()` first (the host does this).
   */
  residentKv?: boolean;
}

/**
 * Session options for a built graph. With fp16 weights, ORT would otherwise widen every weight to fp32 while
 * loading: ConstantFolding folds each weight's Cast (up to 1 GiB of output per node) and, at level 'all',
 * FuseFp16InitializerToFp32NodeTransformer does the same. Both double the weights' memory; for a
 * Qwen3-0.6B-shaped model that ends in `std::bad_alloc` inside the 4 GiB WASM heap (bench/results.json).
 */
function sessionOptions(weightType: WeightType, ep: ExecutionProvider, extra?: OrtModule.InferenceSession.SessionOptions, gpuOutputs: string[] = []): OrtModule.InferenceSession.SessionOptions {
  const fp16 = weightType !== 'float32';
  return {
    executionProviders: [ep],
    ...(ep === 'webgpu' && gpuOutputs.length ? { preferredOutputLocation: Object.fromEntries(gpuOutputs.map((n) => [n, 'gpu-buffer' as const])) } : {}),
    graphOptimizationLevel: 'all',
    // the fold limit logs one warning per weight it leaves alone
    logSeverityLevel: fp16 ? 3 : 2,
    ...(fp16
      ? { extra: { optimization: { constant_folding_max_output_size_in_bytes: String(1 << 20), disable_specified_optimizers: 'FuseFp16InitializerToFp32NodeTransformer' } } }
      : {}),
    ...extra,
  };
}

/**
 * The graph options the engine uses for a model above LARGE_MODEL_FP32_BYTES of float32 weights, unless the
 * caller sets them (docs/MODELS.md, "Memory plan"): 16-bit weights cast to float32 layer by layer, the LM head in
 * vocabulary chunks, weights as external data, each layer's attention reduced inside that layer, every layer's
 * head-mean map plus one layer's per-head maps (`attn_layer`), and logits of the last position only. WebGPU gets
 * float16 weights: its kernels have no bfloat16 Cast.
 */
export function largeModelPlan(ckpt: Checkpoint, provider: ExecutionProvider): Partial<GraphOptions> {
  if (float32WeightBytes(ckpt.config) <= LARGE_MODEL_FP32_BYTES) return {};
  const weights = provider === 'webgpu' ? 'float16' : autoWeightType(ckpt);
  return { weights, castOnDemand: true, lmHeadChunks: 8, externalData: true, attentionInLayer: true, attention: 'mean', headLayerInput: true, logits: 'last' };
}

/**
 * The external-data "file" as onnxruntime-web reads it: it only ever asks for `subarray(offset, offset + length)`
 * of one weight at a time, so each weight's bytes are produced then (a view of the shard, or a converted copy)
 * and dropped once ORT has copied them, instead of assembling a second copy of every weight in JS
 * (docs/BENCHMARKS.md (c), memory finding 4).
 */
export class StreamedExternalData extends Uint8Array {
  /**
   * Bytes handed to ORT between two collections where a collector is exposed. Collecting after every weight
   * cost 15-18 s of the 23-28 s it took to create the Qwen3-0.6B shape (310 full collections of ~60 ms each)
   * for 40-80 MiB less peak than never collecting; every 128 MiB takes ~10 collections (docs/BENCHMARKS.md (d)).
   */
  static collectEveryBytes = 128 << 20;
  private readonly segs = new Map<number, ExternalData['segments'][number]>();
  private sinceCollect = 0;
  constructor(e: ExternalData) {
    super(0);
    for (const s of e.segments) this.segs.set(s.offset, s);
    Object.defineProperty(this, 'byteLength', { value: e.total });
    Object.defineProperty(this, 'length', { value: e.total });
  }
  override subarray(begin = 0, end?: number): Uint8Array<ArrayBuffer> {
    const s = this.segs.get(begin);
    if (!s || end !== begin + s.length) throw new EngineError('msg.engine.session.externalNoWeight', { begin, end: String(end) });
    // Earlier weights' bytes are garbage once ORT has copied them; where a collector is exposed (the CLI
    // exposes one), collect them every collectEveryBytes so that they do not pile up in the JS heap.
    const gc = (globalThis as { gc?: () => void }).gc;
    if (gc && this.sinceCollect + s.length > StreamedExternalData.collectEveryBytes) {
      gc();
      this.sinceCollect = 0;
    }
    this.sinceCollect += s.length;
    const b = s.bytes();
    if (b.length !== s.length) throw new EngineError('msg.engine.session.externalSize', { name: s.name, got: b.length, want: s.length });
    return b as Uint8Array<ArrayBuffer>;
  }
}

export interface RunResult {
  /** [T or 1, vocab] as built (absent when the graph has no logits). */
  logits?: Tensor;
  /** One per layer; shape as the graph's attention option says. */
  attention: Tensor[];
  /** Query positions (absolute) of the attention rows returned. */
  rows: number[];
  /** Cache length before and after this call (unchanged when the graph has no present K/V). */
  pastLength: number;
  length: number;
  ms: number;
}

/** The engine refused a call (bad input: token ids, lengths, context); coded, so the page shows it in its language. */
export class EngineError extends CodedError {
  constructor(key: StringKey, params?: Params) {
    super(key, params);
    this.name = 'EngineError';
  }
}

/** The K/V cache of one layer: [kvHeads, length, headDim] each. */
export interface LayerCache {
  k: Float32Array;
  v: Float32Array;
}

/** The entries `keep` (ascending cache indices) of a cache of `from` entries, as a new cache of keep.length. */
function gatherCache(c: LayerCache, kvHeads: number, from: number, keep: readonly number[], headDim: number): LayerCache {
  const n = keep.length;
  const k = new Float32Array(kvHeads * n * headDim);
  const v = new Float32Array(kvHeads * n * headDim);
  for (let h = 0; h < kvHeads; h++) {
    keep.forEach((i, j) => {
      const src = (h * from + i) * headDim;
      const dst = (h * n + j) * headDim;
      k.set(c.k.subarray(src, src + headDim), dst);
      v.set(c.v.subarray(src, src + headDim), dst);
    });
  }
  return { k, v };
}

function sliceCache(c: LayerCache, kvHeads: number, from: number, to: number, headDim: number): LayerCache {
  if (to === from) return { k: c.k, v: c.v };
  const n = to;
  const k = new Float32Array(kvHeads * n * headDim);
  const v = new Float32Array(kvHeads * n * headDim);
  for (let h = 0; h < kvHeads; h++) {
    k.set(c.k.subarray(h * from * headDim, (h * from + n) * headDim), h * n * headDim);
    v.set(c.v.subarray(h * from * headDim, (h * from + n) * headDim), h * n * headDim);
  }
  return { k, v };
}

/** Writes `k`/`v` (this call's rows) at element `at` of a position-major layer cache, growing it by half when full. */
function appendRows(c: LayerCache, at: number, k: Float32Array, v: Float32Array): LayerCache {
  const need = at + k.length;
  let out = c;
  if (need > c.k.length) {
    const cap = Math.ceil(Math.max(need * 1.25, c.k.length * 1.5)); // room for the steps that usually follow
    const nk = new Float32Array(cap);
    const nv = new Float32Array(cap);
    nk.set(c.k.subarray(0, at));
    nv.set(c.v.subarray(0, at));
    out = { k: nk, v: nv };
  }
  out.k.set(k, at);
  out.v.set(v, at);
  return out;
}

/** The first n rows of a position-major [rows, kvHeads, headDim] array, as a new head-major [kvHeads, n, headDim] array. */
function headMajor(a: Float32Array, n: number, kvHeads: number, headDim: number): Float32Array {
  const out = new Float32Array(kvHeads * n * headDim);
  for (let p = 0; p < n; p++) for (let h = 0; h < kvHeads; h++) out.set(a.subarray((p * kvHeads + h) * headDim, (p * kvHeads + h + 1) * headDim), (h * n + p) * headDim);
  return out;
}

export class EngineSession {
  readonly config: ModelConfig;
  readonly options: GraphOptions;
  readonly provider: ExecutionProvider;
  readonly weightType: WeightType;
  readonly buildMs: number;
  /** Why the preferred provider was not used (e.g. no WebGPU adapter), if it was not. */
  providerNote?: string;
  /** `providerNote` as a coded message, for the page's language. */
  providerMessage?: Message;
  private session: OrtModule.InferenceSession;
  private ort: Ort;
  private cache: LayerCache[];
  /**
   * kvLayout 'position': per layer K and V as [capacity, kvHeads, headDim]; the first `length` rows are the cache.
   * Each call's new rows are appended in place (capacity grows by half when full), so the past fed to the next call
   * is a prefix view, a rewind only shortens the length, and no call copies the whole cache back from the runtime.
   */
  private rows: LayerCache[] | null = null;
  /** With residentKv: the cache as the runtime's tensors (GPU buffers on WebGPU); null when `cache` holds it. */
  private resident: { k: OrtModule.Tensor; v: OrtModule.Tensor }[] | null = null;
  residentKv = false;
  private _ids: number[] = [];
  /** The absolute (RoPE) position of each cache entry: 0…length−1 until an evict leaves gaps. */
  private _positions: number[] = [];
  /** The position the next token gets: one past the last token run (not the cache length once evicted). */
  private _next = 0;
  private busy = false;

  private constructor(ort: Ort, session: OrtModule.InferenceSession, config: ModelConfig, options: GraphOptions, provider: ExecutionProvider, weightType: WeightType, buildMs: number) {
    this.ort = ort;
    this.session = session;
    this.config = config;
    this.options = options;
    this.provider = provider;
    this.weightType = weightType;
    this.buildMs = buildMs;
    this.cache = Array.from({ length: config.numLayers }, () => ({ k: new Float32Array(0), v: new Float32Array(0) }));
    if (options.kvLayout === 'position') this.rows = Array.from({ length: config.numLayers }, () => ({ k: new Float32Array(0), v: new Float32Array(0) }));
  }

  /**
   * Builds the graph for the provider asked for and creates its session. On WebGPU the session must also survive
   * one first run (a kernel can fail only when it runs: float16 shaders on an adapter without shader-f16); if
   * either fails, the model is built again for WASM (with WASM's plan) and `providerNote` says why.
   */
  static async create(ort: Ort, ckpt: Checkpoint, opts: EngineOptions = {}): Promise<EngineSession> {
    const t0 = performance.now();
    if ((opts.executionProvider ?? 'wasm') === 'webgpu') {
      let gpu: EngineSession | undefined;
      try {
        gpu = await EngineSession.createOn(ort, ckpt, opts, 'webgpu', t0);
        await gpu.firstRun();
        return gpu;
      } catch (e) {
        await gpu?.dispose().catch(() => undefined);
        const wasm = await EngineSession.createOn(ort, ckpt, { ...opts, residentKv: opts.residentKv === true ? true : undefined }, 'wasm', t0);
        wasm.providerMessage = message('msg.engine.session.webgpuFallback', { detail: e instanceof Error ? e.message : String(e) });
        wasm.providerNote = messageText('en', wasm.providerMessage);
        return wasm;
      }
    }
    return EngineSession.createOn(ort, ckpt, opts, 'wasm', t0);
  }

  private static async createOn(ort: Ort, ckpt: Checkpoint, opts: EngineOptions, provider: ExecutionProvider, t0: number): Promise<EngineSession> {
    opts.onProgress?.('building graph', 0.1);
    // The cache is appended to position-major (kvLayout 'position') unless it stays in the runtime (residentKv on
    // WebGPU feeds the present outputs back as they are) or the caller chose.
    const resident = opts.residentKv ?? provider === 'webgpu';
    const graph: Partial<GraphOptions> = { ...largeModelPlan(ckpt, provider), kvLayout: resident ? 'head' : 'position', ...opts.graph };
    // A plan's per-head maps of one layer go with reduced maps only ('full' has every head already; 'none' has no attention).
    if (opts.graph?.headLayerInput === undefined && graph.attention !== 'mean' && graph.attention !== 'max') graph.headLayerInput = false;
    const built = buildGraph(ckpt, graph);
    // Weights as external data, handed to ORT one weight at a time (see StreamedExternalData).
    const extra: OrtModule.InferenceSession.SessionOptions = {
      ...(built.external ? { externalData: [{ path: built.external.location, data: new StreamedExternalData(built.external) }] } : {}),
      ...opts.sessionOptions,
    };
    opts.onProgress?.('compiling graph', 0.5);
    const kvOutputs = provider === 'webgpu' && resident && built.options.presentKv ? built.outputNames.filter((n) => n.startsWith('present_')) : [];
    const session = await ort.InferenceSession.create(built.bytes, sessionOptions(built.weightType, provider, extra, kvOutputs));
    opts.onProgress?.('ready', 1);
    const engine = new EngineSession(ort, session, ckpt.config, built.options, provider, built.weightType, performance.now() - t0);
    // Resident only with the head layout (present outputs fed back); with residentKv asked for on WASM the same
    // code path runs with CPU tensors.
    engine.residentKv = built.options.presentKv && built.options.kvLayout === 'head' && resident;
    return engine;
  }

  /** One token from an empty cache, then an empty cache again: makes the runtime compile and run every kernel once. */
  private async firstRun(): Promise<void> {
    const attnRows = this.options.attention !== 'none' && this.options.attentionRows === 'input' ? [0] : undefined;
    await this.prefill([0], attnRows);
    this.fork(0);
  }

  /** Token ids currently in the cache. */
  get ids(): readonly number[] {
    return this._ids;
  }
  get length(): number {
    return this._ids.length;
  }
  /** The absolute position of each cache entry (ascending; equal to the index until an evict). */
  get positions(): readonly number[] {
    return this._positions;
  }
  /** The position id the next extended token gets. Equals `length` unless entries were evicted. */
  get nextPosition(): number {
    return this._next;
  }
  /** True while cache index and position agree for every entry and for the next token (no eviction gap). */
  get contiguous(): boolean {
    return this._next === this._ids.length;
  }

  /** Runs `ids` from an empty cache. Bad input is refused before the cache is touched. */
  async prefill(ids: number[], attnRows?: number[], headLayer?: number): Promise<RunResult> {
    return this.run(ids, attnRows, true, headLayer);
  }

  /**
   * Appends `ids` (one token or a chunk) after the cached tokens, reusing the cache.
   * `attnRows` (absolute positions, only for graphs built with attentionRows 'input') picks query rows.
   */
  async extend(ids: number[], attnRows?: number[], headLayer?: number): Promise<RunResult> {
    return this.run(ids, attnRows, false, headLayer);
  }

  /**
   * The layer whose per-head maps a graph built with `headLayerInput` returns when the caller names none: the
   * last, where pretrained models' first-token sinks are strongest (docs/CONCEPTS.md, sink score).
   */
  get defaultHeadLayer(): number {
    return this.config.numLayers - 1;
  }

  private async run(ids: number[], attnRows: number[] | undefined, fromScratch: boolean, headLayer?: number): Promise<RunResult> {
    if (this.busy) throw new EngineError('msg.engine.session.busy');
    if (ids.length === 0) throw new EngineError('msg.engine.session.noTokens');
    const c = this.config;
    const past = fromScratch ? 0 : this._ids.length;
    // The position of the first new token: its true position in the text, which after an evict is past the
    // cache length (kept keys keep the RoPE rotation of their true positions; see `evict`).
    const start = fromScratch ? 0 : this._next;
    if (start + ids.length > c.maxPositions) throw new EngineError('msg.engine.session.contextOverflow', { tokens: start + ids.length, max: c.maxPositions });
    // The graph's causal mask compares a key's cache index with the query's position id. Past entries sit at
    // indices < past ≤ start, so every kept key is visible to every new query, which is right. A new token i
    // sits at index past + i; query j (position start + j) must see it only for i ≤ j, i.e. only when
    // start = past. After an evict start > past, so a chunk's queries would see later tokens of the same
    // chunk: refused. One token at a time is always correct (it sees the kept keys and itself).
    if (!fromScratch && ids.length > 1 && start !== past)
      throw new EngineError('msg.engine.session.evictedChunk', { past, start });
    for (const id of ids) if (!Number.isInteger(id) || id < 0 || id >= c.vocabSize) throw new EngineError('msg.engine.session.tokenOutside', { id, last: c.vocabSize - 1 });
    if (attnRows && !(this.options.attention !== 'none' && this.options.attentionRows === 'input')) {
      throw new EngineError('msg.engine.session.rowsNotInput');
    }
    if (fromScratch) this.fork(0);
    const T = ids.length;
    const ort = this.ort;
    const feeds: Record<string, OrtModule.Tensor> = {
      [io.inputIds]: new ort.Tensor('int64', BigInt64Array.from(ids.map(BigInt)), [T]),
      [io.positionIds]: new ort.Tensor('int64', BigInt64Array.from(ids.map((_, i) => BigInt(start + i))), [T]),
    };
    let rows = ids.map((_, i) => start + i);
    if (this.options.attention !== 'none' && this.options.attentionRows === 'input') {
      const want = attnRows ?? rows;
      for (const r of want) if (r < start || r >= start + T) throw new EngineError('msg.engine.session.rowNotInCall', { row: r, first: start, last: start + T - 1 });
      rows = want;
      feeds[io.attnRows] = new ort.Tensor('int64', BigInt64Array.from(want.map((r) => BigInt(r - start))), [want.length]);
    }
    if (this.options.headLayerInput) {
      const hl = headLayer ?? this.defaultHeadLayer;
      if (!Number.isInteger(hl) || hl < 0 || hl >= c.numLayers) throw new EngineError('msg.engine.session.noHeadLayer', { layer: hl, layers: c.numLayers });
      feeds[io.attnLayer] = new ort.Tensor('int64', BigInt64Array.from([BigInt(hl)]), [1]);
    }
    const resident = this.resident;
    const row = c.numKvHeads * c.headDim;
    for (let l = 0; l < c.numLayers; l++) {
      if (this.rows) {
        const r = this.rows[l]!;
        feeds[io.pastKey(l)] = new ort.Tensor('float32', r.k.subarray(0, past * row), [past, c.numKvHeads, c.headDim]);
        feeds[io.pastValue(l)] = new ort.Tensor('float32', r.v.subarray(0, past * row), [past, c.numKvHeads, c.headDim]);
      } else {
        feeds[io.pastKey(l)] = resident ? resident[l]!.k : new ort.Tensor('float32', this.cache[l]!.k, [c.numKvHeads, past, c.headDim]);
        feeds[io.pastValue(l)] = resident ? resident[l]!.v : new ort.Tensor('float32', this.cache[l]!.v, [c.numKvHeads, past, c.headDim]);
      }
    }
    this.busy = true;
    const t0 = performance.now();
    let out: OrtModule.InferenceSession.OnnxValueMapType;
    try {
      out = await this.session.run(feeds);
    } finally {
      this.busy = false;
    }
    const ms = performance.now() - t0;
    const get = (name: string): Tensor => {
      const t = out[name];
      if (!t) throw new EngineError('msg.engine.session.noOutput', { name });
      return { data: t.data as Float32Array, dims: [...t.dims] };
    };
    if (this.options.presentKv) {
      if (this.residentKv) {
        // The outputs become the cache as they are (on WebGPU: GPU buffers); the previous ones are released.
        this.resident = Array.from({ length: c.numLayers }, (_, l) => ({ k: out[io.presentKey(l)]!, v: out[io.presentValue(l)]! }));
        resident?.forEach((r) => (r.k.dispose(), r.v.dispose()));
      } else if (this.rows) {
        for (let l = 0; l < c.numLayers; l++) this.rows[l] = appendRows(this.rows[l]!, past * row, get(io.newKey(l)).data, get(io.newValue(l)).data);
      } else for (let l = 0; l < c.numLayers; l++) this.cache[l] = { k: get(io.presentKey(l)).data, v: get(io.presentValue(l)).data };
      this._ids = [...this._ids, ...ids];
      this._positions = [...this._positions, ...ids.map((_, i) => start + i)];
      this._next = start + T;
    }
    // With headLayerInput, one layer comes back per head ([heads, rows, keys]) and the others reduced ([rows, keys]).
    const layerAttention = (l: number): Tensor => {
      if (this.options.headLayerInput) {
        const h = get(io.attnHeads(l));
        if (h.dims[0]) return h;
      }
      return get(io.attn(l));
    };
    const attention = this.options.attention === 'none' ? [] : Array.from({ length: c.numLayers }, (_, l) => layerAttention(l));
    return { logits: this.options.logits === 'none' ? undefined : get(io.logits), attention, rows, pastLength: past, length: this._ids.length, ms };
  }

  /** Whether the cache is in the runtime's tensors (see residentKv): `fork`, `evict`, `kv` need `syncCache` first. */
  get cacheResident(): boolean {
    return this.resident !== null;
  }

  /** Brings a resident cache into JS (one download per layer), so `fork`, `evict` and `kv` can read it. */
  async syncCache(): Promise<void> {
    const r = this.resident;
    if (!r) return;
    if (this.busy) throw new EngineError('msg.engine.session.busy');
    this.busy = true;
    try {
      const cache: LayerCache[] = [];
      for (const { k, v } of r) cache.push({ k: (await k.getData()) as Float32Array, v: (await v.getData()) as Float32Array });
      this.cache = cache;
      this.resident = null;
      r.forEach((x) => (x.k.dispose(), x.v.dispose()));
    } finally {
      this.busy = false;
    }
  }

  private needHostCache(what: string): void {
    if (this.resident) throw new EngineError('msg.engine.session.resident', { what });
  }

  /** Rewinds the cache to its first `length` tokens (the entries there are reused as they are). */
  fork(length: number): void {
    if (this.busy) throw new EngineError('msg.engine.session.busy');
    if (!Number.isInteger(length) || length < 0 || length > this._ids.length) throw new EngineError('msg.engine.session.rewind', { length, held: this._ids.length });
    if (length === this._ids.length && this.resident) return;
    if (length === 0 && this.resident) {
      // Emptying needs no download: drop the buffers.
      this.resident.forEach((x) => (x.k.dispose(), x.v.dispose()));
      this.resident = null;
      this.cache = this.cache.map(() => ({ k: new Float32Array(0), v: new Float32Array(0) }));
      this._ids = [];
      this._positions = [];
      this._next = 0;
      return;
    }
    this.needHostCache('fork');
    const c = this.config;
    const from = this._ids.length;
    // Position-major: the rows past `length` are simply overwritten by the next append.
    if (!this.rows) this.cache = this.cache.map((layer) => sliceCache(layer, c.numKvHeads, from, length, c.headDim));
    this._ids = this._ids.slice(0, length);
    this._positions = this._positions.slice(0, length);
    // The next token follows the last entry kept (its true position; `length` on an un-evicted cache).
    this._next = length === 0 ? 0 : this._positions[length - 1]! + 1;
  }

  /**
   * Drops every cache entry whose index is not in `keep` (strictly ascending cache indices), in every layer,
   * keeping the others' K and V as they are (bit for bit) and their true positions. The next token still
   * gets the position after the last token run (`nextPosition`), so a kept key keeps its true distance to
   * every later query: the cache holds post-RoPE keys, and they are not re-rotated. (StreamingLLM's paper
   * instead re-assigns positions inside the cache, 0…W−1; see docs/CONCEPTS.md, "StreamingLLM experiment".)
   * After an evict, `extend` takes one token at a time (see `run`).
   */
  evict(keep: readonly number[]): void {
    if (this.busy) throw new EngineError('msg.engine.session.busy');
    const from = this._ids.length;
    keep.forEach((i, j) => {
      if (!Number.isInteger(i) || i < 0 || i >= from) throw new EngineError('msg.engine.session.keepEntry', { index: i, held: from });
      if (j > 0 && i <= keep[j - 1]!) throw new EngineError('msg.engine.session.keepOrder');
    });
    if (keep.length === from) return;
    this.needHostCache('evict');
    const c = this.config;
    if (this.rows) {
      // Position-major: move the kept rows down in place (keep is ascending, so no row is overwritten before it moves).
      const row = c.numKvHeads * c.headDim;
      for (const r of this.rows) keep.forEach((i, j) => (i !== j ? (r.k.copyWithin(j * row, i * row, (i + 1) * row), r.v.copyWithin(j * row, i * row, (i + 1) * row)) : undefined));
    } else this.cache = this.cache.map((layer) => gatherCache(layer, c.numKvHeads, from, keep, c.headDim));
    this._ids = keep.map((i) => this._ids[i]!);
    this._positions = keep.map((i) => this._positions[i]!);
  }

  /** A copy of the cache (K and V per layer, [kvHeads, length, headDim]). */
  kv(layer: number): { k: Tensor; v: Tensor } {
    const c = this.config;
    this.needHostCache('kv');
    const l = this.rows ? this.rows[layer] : this.cache[layer];
    if (!l) throw new EngineError('msg.engine.noLayer', { layer, layers: c.numLayers });
    const n = this._ids.length;
    const dims = [c.numKvHeads, n, c.headDim];
    if (this.rows) return { k: { data: headMajor(l.k, n, c.numKvHeads, c.headDim), dims }, v: { data: headMajor(l.v, n, c.numKvHeads, c.headDim), dims: [...dims] } };
    return { k: { data: l.k.slice(), dims }, v: { data: l.v.slice(), dims: [...dims] } };
  }

  /** Bytes the cache holds now (float32 K and V, all layers). */
  cacheBytes(): number {
    return 2 * 4 * this.config.numLayers * this.config.numKvHeads * this._ids.length * this.config.headDim;
  }

  async dispose(): Promise<void> {
    this.resident?.forEach((x) => (x.k.dispose(), x.v.dispose()));
    this.resident = null;
    await this.session.release();
  }
}
