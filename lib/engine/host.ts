// The worker side of lib/engine/protocol: a queue that runs requests one at a time against one EngineSession
// and answers each exactly once, errors included. Sees only a port: no DOM, no Node imports, no bundle choice.

import { streamingExperiment, type StreamingEngine } from '../analysis/streaming';
import { loadCheckpoint, type Checkpoint } from '../model/checkpoint';
import {
  CACHE_REQUESTS,
  checkRequest,
  collectTransfers,
  owned,
  type CacheState,
  type EngineFailure,
  type EngineRequest,
  type EngineResponse,
  type ErrorCode,
  type ExecutionProvider,
  type LoadResult,
  type ModelSourceSpec,
  type ProgressEvent,
  type RequestType,
  type RunResult,
  type StreamingRunResult,
  type Tensor,
} from './protocol';
import { EngineError, EngineSession, type Ort } from './session';
import type { Params as MessageParams, StringKey } from '../i18n';
import { CodedError, errorData, message, messageText, type Message } from '../i18n/message';
import type { FileProgress } from '../model/source/types';

/** A file's share of the load bar: downloads fill [0, share) by bytes of the current file (the stage names it). */
function fileFraction(f: FileProgress, share: number): number {
  return f.total ? share * Math.min(1, f.loaded / f.total) : 0;
}

/** What a browser Worker's `self` and an adapted Node `parentPort` both offer. */
export interface EnginePort {
  postMessage(message: unknown, transfer: ArrayBuffer[]): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

/** What a load asks of the runtime; the loader picks the bundle and sets ort.env before the first session. */
export interface OrtWant {
  provider: ExecutionProvider;
  numThreads?: number;
  wasmPaths?: string;
}
export type OrtLoader = (want: OrtWant) => Promise<Ort>;

export interface TokenizerFiles {
  tokenizer?: object;
  tokenizerConfig?: object;
}

/**
 * The `prompt` request's implementation, injected so this module does not depend on lib/prompt.
 * The browser worker passes lib/engine/promptHook.ts; `build` should stop when `signal` aborts.
 */
export interface PromptHook<T> {
  tokenizer(files: TokenizerFiles): T | Promise<T>;
  build(tokenizer: T, request: unknown, options: unknown, ctx: { signal: AbortSignal }): unknown;
}

/** Reads a checkpoint named by a `source` (the browser worker passes lib/model/source's Hub and folder readers). */
export type SourceOpener = (
  spec: ModelSourceSpec,
  onProgress: (file: FileProgress) => void,
  signal: AbortSignal,
) => Promise<{ config: string; shards: Uint8Array[]; tokenizer?: object; tokenizerConfig?: object }>;

export interface HostOptions<T = unknown> {
  /** Loads from `source` specs; without it a load with a source answers 'unsupported'. */
  openSource?: SourceOpener;
  /** The onnxruntime-web module, or a loader that picks one per load (the browser worker imports the wasm or webgpu bundle). */
  ort: Ort | OrtLoader;
  /** The prompt builder (lib/engine/promptHook.ts in the browser worker); without it `prompt` answers 'unsupported'. */
  prompt?: PromptHook<T>;
}

/** A failure with a protocol code, thrown inside the host and turned into an error value (its message coded). */
class HostFailure extends CodedError {
  constructor(
    readonly code: ErrorCode,
    key: StringKey,
    params?: MessageParams,
  ) {
    super(key, params);
    this.name = 'HostFailure';
  }
}

interface Running {
  req: EngineRequest;
  cancelled: boolean;
  abort: AbortController;
  /** The request's change to the cache happened (a cancelled run may still have applied it). */
  applied: boolean;
}

/**
 * The error value of a failed request. Its message crosses postMessage as plain data (`errorData`): the English
 * text, and the coded message when the error has one (the engine's, the host's, lib/model's refusals of a
 * checkpoint), so the page shows it in its own language.
 */
function failureOf(e: unknown, type: RequestType): EngineFailure {
  const data = errorData(e);
  if (e instanceof HostFailure) return { code: e.code, ...data };
  if (e instanceof EngineError) return { code: 'engine', ...data };
  return { code: type === 'load' ? 'load_failed' : 'runtime', ...data };
}

const fail = (id: number, code: ErrorCode, m: Message): EngineResponse => ({ kind: 'response', id, ok: false, error: { code, message: messageText('en', m), coded: m } });

// A macrotask boundary: messages already delivered (a `cancel`) are handled before the next request starts.
const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

function moduleLoader(ort: Ort): OrtLoader {
  return async (want) => {
    if (want.numThreads !== undefined) ort.env.wasm.numThreads = want.numThreads;
    if (want.wasmPaths !== undefined) ort.env.wasm.wasmPaths = want.wasmPaths;
    return ort;
  };
}

/** Serves the engine protocol on `port` until the worker ends. */
export function serveEngine<T>(port: EnginePort, options: HostOptions<T>): void {
  const getOrt = typeof options.ort === 'function' ? options.ort : moduleLoader(options.ort);
  const queue: EngineRequest[] = [];
  let running: Running | undefined;
  let pumping = false;
  let session: EngineSession | undefined;
  let files: TokenizerFiles | undefined;
  let tokenizer: Promise<T> | undefined;
  // Attention of the last run made with attention 'keep', for readAttention.
  let kept: { tensors: Tensor[]; rows: number[] } | undefined;
  // What the `streaming` request builds its own session from (logits 'all', no attention), and that session,
  // built on first use and kept until the next load or dispose. The main session's cache is never touched.
  let source: { ort: Ort; ckpt: Checkpoint; provider: ExecutionProvider } | undefined;
  let streamSession: Promise<EngineSession> | undefined;

  const answer = (msg: EngineResponse): void => {
    try {
      port.postMessage(msg, msg.ok ? collectTransfers(msg.result) : []);
    } catch (e) {
      // An uncloneable result (say, from the prompt hook) must still be answered.
      port.postMessage(fail(msg.id, 'runtime', message('msg.engine.host.sendFailed', { detail: e instanceof Error ? e.message : String(e) })), []);
    }
  };

  const need = (): EngineSession => {
    if (!session) throw new HostFailure('not_loaded', 'msg.engine.host.notLoaded');
    return session;
  };

  const release = async (): Promise<boolean> => {
    const s = session;
    session = undefined;
    files = undefined;
    tokenizer = undefined;
    kept = undefined;
    source = undefined;
    const st = streamSession;
    streamSession = undefined;
    if (st) await st.then((x) => x.dispose()).catch(() => undefined);
    if (s) await s.dispose();
    return s !== undefined;
  };

  async function load(req: EngineRequest<'load'>, run: Running): Promise<LoadResult> {
    const progress = (stage: string, fraction: number): void => {
      const ev: ProgressEvent = { kind: 'progress', id: req.id, stage, fraction };
      port.postMessage(ev, []);
    };
    // First, so that any load that starts leaves no model unless it succeeds (and two models at once may not fit in a tab).
    await release();
    progress('loading runtime', 0);
    const provider = req.provider ?? 'wasm';
    const ort = await getOrt({ provider, numThreads: req.numThreads, wasmPaths: req.wasmPaths });
    let config = req.config;
    let shards = req.shards.map((b) => (b instanceof Uint8Array ? b : new Uint8Array(b)));
    let tokenizerFiles: TokenizerFiles = { tokenizer: req.tokenizer, tokenizerConfig: req.tokenizerConfig };
    // Downloads are most of a large model's load: they get the first 60 % of the bar.
    const share = req.source ? 0.6 : 0.05;
    if (req.source) {
      if (!options.openSource) throw new HostFailure('unsupported', 'msg.engine.host.noSources');
      const read = await options.openSource(req.source, (file) => port.postMessage({ kind: 'progress', id: req.id, stage: 'downloading', fraction: fileFraction(file, share), file } satisfies ProgressEvent, []), run.abort.signal);
      config = read.config;
      shards = read.shards;
      tokenizerFiles = { tokenizer: read.tokenizer, tokenizerConfig: read.tokenizerConfig };
    }
    progress('reading checkpoint', share);
    const ckpt = loadCheckpoint(config, shards);
    const s = await EngineSession.create(ort, ckpt, { graph: req.graph, executionProvider: provider, onProgress: (stage, f) => progress(stage, share + (1 - share) * f) });
    const result: LoadResult = {
      provider: s.provider,
      config: s.config,
      graph: s.options,
      weightType: s.weightType,
      buildMs: s.buildMs,
      numThreads: ort.env.wasm.numThreads ?? 0,
      hasTokenizer: tokenizerFiles.tokenizer !== undefined,
      ...(s.providerNote ? { providerNote: s.providerNote } : {}),
      ...(s.providerMessage ? { providerMessage: s.providerMessage } : {}),
      ...(req.source ? { tokenizer: tokenizerFiles.tokenizer, tokenizerConfig: tokenizerFiles.tokenizerConfig } : {}),
    };
    if (run.cancelled) {
      await s.dispose(); // a cancelled load leaves no model, as a failed one does
      return result;
    }
    session = s;
    source = { ort, ckpt, provider: s.provider };
    files = tokenizerFiles;
    run.applied = true;
    return result;
  }

  async function runIds(req: EngineRequest<'prefill'> | EngineRequest<'extend'>, run: Running): Promise<RunResult> {
    const s = need();
    const r = req.type === 'prefill' ? await s.prefill(req.ids, req.attnRows, req.headLayer) : await s.extend(req.ids, req.attnRows, req.headLayer);
    run.applied = true;
    const keep = req.attention === 'keep' && r.attention.length > 0;
    kept = keep ? { tensors: r.attention, rows: r.rows } : undefined;
    return {
      logits: r.logits && owned(r.logits),
      attention: keep ? [] : r.attention.map(owned),
      rows: r.rows,
      pastLength: r.pastLength,
      length: r.length,
      ms: r.ms,
      attentionKept: keep,
    };
  }

  async function replay(req: EngineRequest<'replay'>, run: Running): Promise<{ length: number }> {
    const s = need();
    s.fork(0);
    try {
      let total = 0;
      for (const c of req.chunks) {
        if (c.keep < 0 || c.keep > c.ids.length) throw new HostFailure('bad_request', 'msg.engine.host.replayKeep', { keep: c.keep, length: c.ids.length });
        if (c.keep === 0) continue;
        await s.extend(c.ids); // the whole chunk, as it first ran: same shapes, same bits
        total += c.keep;
        if (s.length !== total) {
          await s.syncCache();
          s.fork(total);
        }
      }
    } catch (e) {
      s.fork(0); // never leave half a history behind
      throw e;
    }
    run.applied = true;
    return { length: s.length };
  }

  function readAttention(req: EngineRequest<'readAttention'>): { layer: number; attention: Tensor; rows: number[] } {
    if (!kept) throw new HostFailure('not_available', 'msg.engine.host.noAttentionKept');
    const t = kept.tensors[req.layer];
    if (!t) throw new HostFailure('bad_request', 'msg.engine.noLayer', { layer: req.layer, layers: kept.tensors.length });
    if (req.head === undefined) return { layer: req.layer, attention: { data: t.data.slice(), dims: [...t.dims] }, rows: kept.rows };
    const [heads, rows, keys] = t.dims;
    if (t.dims.length !== 3 || heads === undefined || rows === undefined || keys === undefined) {
      throw new HostFailure('bad_request', 'msg.engine.host.reducedHeads');
    }
    if (req.head < 0 || req.head >= heads) throw new HostFailure('bad_request', 'msg.engine.host.noHead', { head: req.head, heads });
    const n = rows * keys;
    return { layer: req.layer, attention: { data: t.data.slice(req.head * n, (req.head + 1) * n), dims: [rows, keys] }, rows: kept.rows };
  }

  async function prompt(req: EngineRequest<'prompt'>, run: Running): Promise<unknown> {
    const hook = options.prompt;
    if (!hook) throw new HostFailure('unsupported', 'msg.engine.host.noPromptBuilder');
    if (!files?.tokenizer) throw new HostFailure('not_loaded', 'msg.engine.host.noTokenizer');
    const f = files;
    tokenizer ??= Promise.resolve().then(() => hook.tokenizer(f));
    let tok: T;
    try {
      tok = await tokenizer;
    } catch (e) {
      tokenizer = undefined; // let the next prompt try again
      throw e;
    }
    return await hook.build(tok, req.request, req.options, { signal: run.abort.signal });
  }

  async function streaming(req: EngineRequest<'streaming'>, run: Running): Promise<StreamingRunResult> {
    const main = need();
    const src = source;
    if (!src) throw new HostFailure('not_loaded', 'msg.engine.host.notLoaded');
    if (req.ids.length > main.config.maxPositions) throw new HostFailure('bad_request', 'msg.engine.host.streamingContext', { tokens: req.ids.length, max: main.config.maxPositions });
    const bad = req.ids.find((id) => id < 0 || id >= main.config.vocabSize);
    if (bad !== undefined) throw new HostFailure('bad_request', 'msg.engine.host.streamingVocab', { id: bad, last: main.config.vocabSize - 1 });
    const progress = (stage: string, fraction: number): void => port.postMessage({ kind: 'progress', id: req.id, stage, fraction } satisfies ProgressEvent, []);
    let buildMs = 0;
    if (!streamSession) {
      progress('building', 0);
      const t0 = performance.now();
      // Evicts between steps, which reads the cache: kept in JS (residentKv off).
      streamSession = EngineSession.create(src.ort, src.ckpt, { graph: { logits: 'all', attention: 'none', presentKv: true }, executionProvider: src.provider, residentKv: false });
      streamSession.catch(() => (streamSession = undefined)); // a failed build is tried again next time
      await streamSession;
      buildMs = performance.now() - t0;
    }
    const s = await streamSession;
    // The engine as the experiment sees it, with a cancel check and a macrotask boundary every few tokens so a
    // `cancel` message is handled while the experiment runs (one token's ORT run cannot be interrupted).
    let steps = 0;
    const check = async (): Promise<void> => {
      if (++steps % 16 === 0) await nextTask();
      if (run.cancelled) throw new HostFailure('cancelled', 'msg.engine.host.streamingCancelled');
    };
    const engine: StreamingEngine = {
      config: s.config,
      get positions() {
        return s.positions;
      },
      evict: (keep) => s.evict(keep),
      prefill: async (ids, rows) => (await check(), s.prefill(ids, rows)),
      extend: async (ids, rows) => (await check(), s.extend(ids, rows)),
    };
    // Window and sink call onStep for t = 0 … n − 2 each; full attention (a chunked prefill) does not.
    const names = ['window', 'sink'] as const;
    let pass = -1;
    const result = await streamingExperiment(engine, req.ids, {
      window: req.window,
      sink: req.sink,
      onStep: (t, total) => {
        if (t === 0) pass++;
        if (t % 32 === 0) progress(names[pass] ?? 'full', Math.min(1, (pass * total + t) / (2 * total + 1)));
        if (pass === 1 && t === total - 1) progress('full', 2 * total / (2 * total + 1));
      },
    });
    progress('done', 1);
    return { ...result, provider: s.provider, buildMs };
  }

  async function handle(req: EngineRequest, run: Running): Promise<unknown> {
    switch (req.type) {
      case 'load':
        return load(req, run);
      case 'prefill':
      case 'extend':
        return runIds(req, run);
      case 'fork':
        if (req.length !== 0 && req.length !== need().length) await need().syncCache();
        need().fork(req.length);
        run.applied = true;
        return { length: need().length };
      case 'replay':
        return replay(req, run);
      case 'readKv':
        await need().syncCache();
        return { layer: req.layer, ...need().kv(req.layer) };
      case 'readAttention':
        return readAttention(req);
      case 'prompt':
        return prompt(req, run);
      case 'streaming':
        return streaming(req, run);
      case 'dispose':
        run.applied = true;
        return { disposed: await release() };
      case 'cancel':
        throw new HostFailure('bad_request', 'msg.engine.host.cancelQueued'); // unreachable: handled on arrival
    }
  }

  const cacheState = (type: RequestType, applied: boolean): CacheState | undefined =>
    CACHE_REQUESTS.includes(type) ? { length: session?.length ?? 0, applied } : undefined;

  async function pump(): Promise<void> {
    if (pumping) return;
    pumping = true;
    try {
      while (queue.length > 0) {
        await nextTask();
        const req = queue.shift();
        if (!req) break;
        const run: Running = { req, cancelled: false, abort: new AbortController(), applied: false };
        running = run;
        let msg: EngineResponse;
        try {
          const result = await handle(req, run);
          msg = { kind: 'response', id: req.id, ok: true, result: result as never };
        } catch (e) {
          msg = { kind: 'response', id: req.id, ok: false, error: failureOf(e, req.type) };
        }
        running = undefined;
        if (run.cancelled) msg = fail(req.id, 'cancelled', message('msg.engine.host.cancelledRunning'));
        const cache = cacheState(req.type, run.applied);
        if (cache) msg.cache = cache;
        answer(msg);
      }
    } finally {
      pumping = false;
    }
  }

  function cancel(id: number, target: number): void {
    const at = queue.findIndex((r) => r.id === target);
    let was: 'queued' | 'running' | 'unknown' = 'unknown';
    if (at >= 0) {
      queue.splice(at, 1);
      answer(fail(target, 'cancelled', message('msg.engine.host.cancelledQueued')));
      was = 'queued';
    } else if (running && running.req.id === target) {
      running.cancelled = true; // an ORT run cannot be interrupted: its result is dropped when it ends
      running.abort.abort();
      was = 'running';
    }
    answer({ kind: 'response', id, ok: true, result: { target, was } });
  }

  port.addEventListener('message', (event) => {
    const checked = checkRequest(event.data);
    if (!checked.ok) {
      answer({ kind: 'response', id: checked.id, ok: false, error: checked.error });
      return;
    }
    const req = checked.request;
    if (req.type === 'cancel') {
      cancel(req.id, req.target);
      return;
    }
    queue.push(req);
    void pump();
  });
}
