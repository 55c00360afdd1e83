// The messages between the page and the engine worker: typed requests, responses that carry errors as
// values, load progress, request checking and the transfer lists for tensors. Types and pure helpers only: no ORT, no DOM.

import type { WeightType } from '../model/graph';
import type { FileProgress } from '../model/source/types';
import type { StreamingResult } from '../analysis/streaming';
import type { ModelConfig } from '../model/config';
import type { GraphOptions } from '../model/graph';
import type { ExecutionProvider, RunResult as SessionRunResult, Tensor } from './session';
import type { Params as MessageParams, StringKey } from '../i18n';
import { message, messageText, type Message } from '../i18n/message';

export type { ExecutionProvider, Tensor };

/** Bytes as either side may hold them; both survive structured clone. */
export type Bytes = ArrayBuffer | Uint8Array;

/** One run of the cache's history: the ids run together in one call, of which the first `keep` stay cached. */
export interface Chunk {
  ids: number[];
  keep: number;
}

/**
 * A checkpoint the worker reads itself (lib/model/source), so that large weights never cross postMessage:
 * a Hub repo through the browser's model cache, or files the user picked or dropped (File objects clone cheaply).
 */
export type ModelSourceSpec =
  | { kind: 'hub'; endpoint: string; repo: string; revision: string }
  | { kind: 'files'; label: string; files: unknown[] };

export interface LoadParams {
  /** config.json text ('' with `source`). */
  config: string;
  /** Every *.safetensors shard ([] with `source`). Cloned, not transferred: the client keeps them to reload after a crash. */
  shards: Bytes[];
  /** Read config, shards and tokenizer from here instead (the worker's host needs an `openSource`). */
  source?: ModelSourceSpec;
  /** tokenizer.json and tokenizer_config.json, parsed; only the `prompt` request uses them. */
  tokenizer?: object;
  tokenizerConfig?: object;
  graph?: Partial<GraphOptions>;
  /** Preferred provider; the result says which one the session got (webgpu falls back to wasm). */
  provider?: ExecutionProvider;
  /** WASM threads; the browser worker uses 1 unless the page is cross-origin isolated. Applies at the runtime's first load only. */
  numThreads?: number;
  /** Where the browser worker fetches ORT's .wasm files (default '/ort/'); ignored in Node. */
  wasmPaths?: string;
}

export interface LoadResult {
  provider: ExecutionProvider;
  config: ModelConfig;
  graph: GraphOptions;
  weightType: WeightType;
  buildMs: number;
  /** ort.env.wasm.numThreads after the load (0 means ORT's own default). */
  numThreads: number;
  hasTokenizer: boolean;
  /** Why the session is not on the provider asked for (e.g. no WebGPU adapter), if it is not. */
  providerNote?: string;
  /** `providerNote` as a coded message (lib/i18n/message), for the page's language. */
  providerMessage?: Message;
  /** With a `source`: the tokenizer files read there, for the page's token labels (small next to the weights). */
  tokenizer?: object;
  tokenizerConfig?: object;
}

export interface RunParams {
  ids: number[];
  /** Absolute query positions, for graphs built with attentionRows 'input'. */
  attnRows?: number[];
  /** 'return' (default): attention travels with the result; 'keep': it stays in the worker for `readAttention`. */
  attention?: 'return' | 'keep';
  /** Graphs with headLayerInput (the large-model plan): the layer returned per head (default: the last). */
  headLayer?: number;
}

/** The session's result as it crosses the worker boundary; `attention` is empty when it was kept in the worker. */
export interface RunResult extends SessionRunResult {
  attentionKept: boolean;
}

/** The StreamingLLM experiment (lib/analysis/streaming) on the loaded model, over `ids`. */
export interface StreamingParams {
  ids: number[];
  /** Keys per query, the query included (W ≥ 1). */
  window: number;
  /** First tokens kept by the `sink` strategy (0 ≤ k ≤ W − 1). */
  sink: number;
}

/**
 * The experiment's result, as lib/analysis/streaming returns it. It runs on a second session of the same
 * checkpoint (logits 'all', no attention), so the cache of prefill / extend / fork is left as it was;
 * `buildMs` is that session's build time on its first use (0 afterwards).
 */
export interface StreamingRunResult extends StreamingResult {
  provider: ExecutionProvider;
  buildMs: number;
}

export type CancelOutcome = 'queued' | 'running' | 'unknown';

/** Every request: its params and its result. The wire form of a request is `{id, type, ...params}`. */
export interface EngineCalls {
  load: { params: LoadParams; result: LoadResult };
  /** Runs ids from an empty cache. */
  prefill: { params: RunParams; result: RunResult };
  /** Appends ids after the cached tokens. */
  extend: { params: RunParams; result: RunResult };
  /** Rewinds the cache to its first `length` tokens. */
  fork: { params: { length: number }; result: { length: number } };
  /** Rebuilds the cache from its history, chunk by chunk as first run, so the entries come out bit-identical. */
  replay: { params: { chunks: Chunk[] }; result: { length: number } };
  /** K and V of one layer, [kvHeads, length, headDim] each. */
  readKv: { params: { layer: number }; result: { layer: number; k: Tensor; v: Tensor } };
  /** Attention of one layer from the last run made with attention 'keep'; with `head`, that head only ([rows, keys]). */
  readAttention: { params: { layer: number; head?: number }; result: { layer: number; attention: Tensor; rows: number[] } };
  /** Renders and tokenizes a request through the host's injected prompt builder (lib/prompt). */
  prompt: { params: { request: unknown; options?: unknown }; result: unknown };
  /**
   * Per-token NLL of `ids` under a sliding window, the window plus sink tokens, and full attention; progress
   * events name the strategy ('window' | 'sink' | 'full'); cancellable between tokens. Leaves the main cache alone.
   */
  streaming: { params: StreamingParams; result: StreamingRunResult };
  /** Releases the session and the tokenizer. */
  dispose: { params: Record<never, never>; result: { disposed: boolean } };
  /** Cancels request `target`; answered at once, ahead of the queue. */
  cancel: { params: { target: number }; result: { target: number; was: CancelOutcome } };
}

export type RequestType = keyof EngineCalls;
export const REQUEST_TYPES: readonly RequestType[] = ['load', 'prefill', 'extend', 'fork', 'replay', 'readKv', 'readAttention', 'prompt', 'streaming', 'dispose', 'cancel'];
/** Requests that may change the cache; their responses carry `cache`. */
export const CACHE_REQUESTS: readonly RequestType[] = ['load', 'prefill', 'extend', 'fork', 'replay', 'dispose'];

export type Params<K extends RequestType> = EngineCalls[K]['params'];
export type Result<K extends RequestType> = EngineCalls[K]['result'];
/** The union of all requests (distributes over K). */
export type EngineRequest<K extends RequestType = RequestType> = K extends RequestType ? { id: number; type: K } & Params<K> : never;

export type ErrorCode =
  | 'bad_request' // malformed message or unknown type
  | 'not_loaded' // no model (or no tokenizer) loaded
  | 'load_failed' // config, shards or session creation refused
  | 'engine' // the engine refused the call (token id outside the vocabulary, context overflow, bad fork)
  | 'runtime' // anything else thrown while running
  | 'not_available' // nothing kept to read (readAttention)
  | 'unsupported' // no prompt builder wired into this host
  | 'cancelled'
  | 'worker_crashed' // client side: the worker died with the request in flight
  | 'terminated'; // client side: the client was shut down

export interface EngineFailure {
  code: ErrorCode;
  /** The English text. */
  message: string;
  /** The same message as a code and parameters (lib/i18n/message), when it has one: what the page shows, in its language. */
  coded?: Message;
}

/** The cache after a request: its length, and whether the request's own change was applied. */
export interface CacheState {
  length: number;
  applied: boolean;
}

export type EngineResponse<K extends RequestType = RequestType> =
  | { kind: 'response'; id: number; ok: true; result: Result<K>; cache?: CacheState }
  | { kind: 'response'; id: number; ok: false; error: EngineFailure; cache?: CacheState };

export interface ProgressEvent {
  kind: 'progress';
  id: number;
  stage: string;
  fraction: number;
  /** While a load reads a source: the file being read, its bytes, rate and time left. */
  file?: FileProgress;
}

export type WorkerMessage = EngineResponse | ProgressEvent;

/**
 * Every ArrayBuffer behind a Float32Array in `value` (objects and arrays, walked), once each.
 * The host makes sure each such array owns its whole buffer before sending, so transferring it detaches nothing else.
 */
export function collectTransfers(value: unknown, out: Set<ArrayBuffer> = new Set()): ArrayBuffer[] {
  const walk = (v: unknown, depth: number): void => {
    if (depth > 8 || v === null || typeof v !== 'object') return;
    if (v instanceof Float32Array) {
      if (v.buffer instanceof ArrayBuffer) out.add(v.buffer); // a SharedArrayBuffer is shared, never transferred
      return;
    }
    if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return;
    for (const x of Array.isArray(v) ? v : Object.values(v)) walk(x, depth + 1);
  };
  walk(value, 0);
  return [...out];
}

/** A Float32Array that owns its whole, unshared buffer (copied if it was a view), safe to transfer. */
export function owned(t: Tensor): Tensor {
  const d = t.data;
  const whole = d.byteOffset === 0 && d.byteLength === d.buffer.byteLength && d.buffer instanceof ArrayBuffer;
  return whole ? t : { data: d.slice(), dims: t.dims };
}

type Checked = { ok: true; request: EngineRequest } | { ok: false; id: number; error: EngineFailure };

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const isIntArray = (v: unknown): v is number[] => Array.isArray(v) && v.every(isInt);
const isBytes = (v: unknown): v is Bytes => v instanceof ArrayBuffer || v instanceof Uint8Array;

/** Checks a message's shape before the host acts on it; the engine still checks values (vocabulary, lengths). */
export function checkRequest(raw: unknown): Checked {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const id = isInt(r.id) ? r.id : -1; // no usable id: answered as -1 so the failure is still seen
  const bad = (key: StringKey, params?: MessageParams): Checked => {
    const m = message(key, params);
    return { ok: false, id, error: { code: 'bad_request', message: messageText('en', m), coded: m } };
  };
  if (id < 0) return bad('msg.engine.request.noId');
  const type = r.type;
  if (typeof type !== 'string' || !(REQUEST_TYPES as readonly string[]).includes(type)) return bad('msg.engine.request.unknownType', { type: String(JSON.stringify(type)) });
  switch (type as RequestType) {
    case 'load':
      if (r.source !== undefined) {
        const src = r.source as Record<string, unknown> | null;
        const hub = src?.kind === 'hub' && typeof src.endpoint === 'string' && typeof src.repo === 'string' && typeof src.revision === 'string';
        const files = src?.kind === 'files' && typeof src.label === 'string' && Array.isArray(src.files) && src.files.length > 0;
        if (!hub && !files) return bad('msg.engine.request.loadSource');
      } else {
        if (typeof r.config !== 'string') return bad('msg.engine.request.loadConfig');
        if (!Array.isArray(r.shards) || r.shards.length === 0 || !r.shards.every(isBytes)) return bad('msg.engine.request.loadShards');
      }
      if (r.provider !== undefined && r.provider !== 'wasm' && r.provider !== 'webgpu') return bad('msg.engine.request.loadProvider', { provider: String(JSON.stringify(r.provider)) });
      if (r.numThreads !== undefined && !(isInt(r.numThreads) && r.numThreads >= 0)) return bad('msg.engine.request.loadThreads');
      break;
    case 'prefill':
    case 'extend':
      if (!isIntArray(r.ids)) return bad('msg.engine.request.ids', { type });
      if (r.attnRows !== undefined && !isIntArray(r.attnRows)) return bad('msg.engine.request.attnRows', { type });
      if (r.headLayer !== undefined && !(isInt(r.headLayer) && r.headLayer >= 0)) return bad('msg.engine.request.headLayer', { type });
      if (r.attention !== undefined && r.attention !== 'return' && r.attention !== 'keep') return bad('msg.engine.request.attention', { type });
      break;
    case 'fork':
      if (!isInt(r.length)) return bad('msg.engine.request.forkLength');
      break;
    case 'replay':
      if (!Array.isArray(r.chunks) || !r.chunks.every((c: unknown) => typeof c === 'object' && c !== null && isIntArray((c as Chunk).ids) && isInt((c as Chunk).keep))) {
        return bad('msg.engine.request.replayChunks');
      }
      break;
    case 'readKv':
      if (!isInt(r.layer)) return bad('msg.engine.request.readKvLayer');
      break;
    case 'readAttention':
      if (!isInt(r.layer) || (r.head !== undefined && !isInt(r.head))) return bad('msg.engine.request.readAttention');
      break;
    case 'streaming':
      if (!isIntArray(r.ids) || r.ids.length < 2) return bad('msg.engine.request.streamingIds');
      if (!isInt(r.window) || r.window < 1) return bad('msg.engine.request.streamingWindow');
      if (!isInt(r.sink) || r.sink < 0 || r.sink > r.window - 1) return bad('msg.engine.request.streamingSink');
      break;
    case 'cancel':
      if (!isInt(r.target)) return bad('msg.engine.request.cancelTarget');
      break;
    case 'prompt':
    case 'dispose':
      break;
  }
  return { ok: true, request: r as unknown as EngineRequest };
}

/** The cached ids a chunk history describes. */
export function chunkIds(chunks: readonly Chunk[]): number[] {
  return chunks.flatMap((c) => c.ids.slice(0, c.keep));
}

/** The history cut to its first `length` cached tokens (a fork); chunks left with nothing kept are dropped. */
export function truncateChunks(chunks: readonly Chunk[], length: number): Chunk[] {
  const out: Chunk[] = [];
  let total = 0;
  for (const c of chunks) {
    if (total >= length) break;
    const keep = Math.min(c.keep, length - total);
    out.push({ ids: c.ids, keep });
    total += keep;
  }
  return out;
}
