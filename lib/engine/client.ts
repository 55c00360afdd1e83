// The page side of the engine worker: promise-returning calls over lib/engine/protocol, and recovery from a
// crashed worker (fail what was in flight, start a new one, reload the model, replay the cache). Sees only a WorkerLike: no DOM.

import type { FileProgress } from '../model/source/types';
import {
  chunkIds,
  truncateChunks,
  type CancelOutcome,
  type Chunk,
  type EngineFailure,
  type EngineResponse,
  type ErrorCode,
  type LoadParams,
  type LoadResult,
  type Params,
  type ProgressEvent,
  type RequestType,
  type Result,
  type RunResult,
  type StreamingRunResult,
  type Tensor,
} from './protocol';
import type { Params as MessageParams, StringKey } from '../i18n';
import { errorData, message, messageOf, messageText, type Message } from '../i18n/message';

/** What the client needs of a worker: a browser Worker fits, and so does a small adapter over Node's worker_threads. */
export interface WorkerLike {
  postMessage(message: unknown, transfer: ArrayBuffer[]): void;
  /** 'message' events carry `data`; 'error' events may carry `message`. */
  addEventListener(type: 'message' | 'error' | 'messageerror', listener: (event: unknown) => void): void;
  terminate(): void;
}

export interface ClientOptions {
  /**
   * A worker that sends nothing for this long while requests are in flight counts as crashed (0, the default: never).
   * Load progress counts as a sign of life, but one ORT run sends nothing, so keep this above the longest run.
   */
  timeoutMs?: number;
  /** Failed restarts in a row before giving up (default 2). */
  maxRestarts?: number;
}

export interface CallOptions {
  /** Aborting cancels the request (see `cancel`). */
  signal?: AbortSignal;
  onProgress?: (stage: string, fraction: number, file?: FileProgress) => void;
}

export interface RunOptions extends CallOptions {
  attnRows?: number[];
  attention?: 'return' | 'keep';
  headLayer?: number;
}

export interface ClientEvents {
  progress: ProgressEvent;
  /**
   * The worker died; `failed` lists the requests rejected with 'worker_crashed'. `reason` is the English text;
   * `reasonCoded` the same as a coded message (lib/i18n/message) when kvscope wrote it (not the browser's own words).
   */
  crashed: { reason: string; reasonCoded?: Message; failed: number[] };
  /** A new worker is serving; `reloaded` / `replayed` say how much state came back, `error` why not all of it did. */
  restarted: { reason: string; reasonCoded?: Message; reloaded: boolean; replayed: number; error?: EngineFailure };
  /** Restarts kept failing; calls now reject with 'worker_crashed' until `restart()`. */
  failed: { reason: string; reasonCoded?: Message };
}

export type ClientState = 'ready' | 'recovering' | 'failed' | 'terminated';

/**
 * A rejected request: the protocol's error value as an Error. When the failure came with a coded message
 * (EngineFailure.coded, or one the client wrote itself) the error carries it as `key`, `params` and `where`,
 * like a CodedError, so `describe` / `errorData` (lib/i18n/message) find it; `.message` is the English text.
 */
export class EngineRequestError extends Error {
  readonly key?: StringKey;
  readonly params?: MessageParams;
  readonly where?: string;
  /** `text`: a coded message (its English text becomes `.message`), or a text and, optionally, its code. */
  constructor(
    readonly code: ErrorCode,
    text: string | Message,
    readonly requestId: number,
    readonly type: RequestType,
    coded?: Message,
  ) {
    super(typeof text === 'string' ? text : messageText('en', text));
    this.name = 'EngineRequestError';
    const m = typeof text === 'string' ? coded : text;
    if (m) {
      this.key = m.key;
      if (m.params) this.params = m.params;
      if (m.where) this.where = m.where;
    }
  }

  /** The error value a response carried: the worker's English text, and its coded message when it has a valid one. */
  static of(failure: EngineFailure, requestId: number, type: RequestType): EngineRequestError {
    return new EngineRequestError(failure.code, failure.message, requestId, type, messageOf(failure.coded) ?? undefined);
  }

  /** The coded message, if the error has one. */
  get coded(): Message | undefined {
    return this.key ? message(this.key, this.params, this.where) : undefined;
  }
}

/** An own message's English text and code, for events and failures. */
const reasonOf = (r: string | Message): { reason: string; reasonCoded?: Message } => (typeof r === 'string' ? { reason: r } : { reason: messageText('en', r), reasonCoded: r });

/** A request's promise, with the id that `cancel` takes. */
export type Pending<T> = Promise<T> & { readonly id: number };

interface Entry {
  id: number;
  type: RequestType;
  params: object;
  resolve: (value: never) => void;
  reject: (error: EngineRequestError) => void;
  onProgress?: (stage: string, fraction: number, file?: FileProgress) => void;
  sent: boolean;
}

/** The text of a worker's error event (the browser's words), else `fallback`. */
const eventText = (event: unknown, fallback: Message): string | Message => {
  const m = typeof event === 'object' && event !== null ? (event as { message?: unknown }).message : undefined;
  return typeof m === 'string' && m ? m : fallback;
};

export class EngineClient {
  private readonly factory: () => WorkerLike;
  private readonly timeoutMs: number;
  private readonly maxRestarts: number;
  private worker: WorkerLike | undefined;
  private gen = 0; // events from workers of older generations are ignored
  private nextId = 0;
  private readonly pending = new Map<number, Entry>(); // in call order; `sent: false` ones wait for recovery
  private timer: ReturnType<typeof setTimeout> | undefined;
  private listeners = new Map<keyof ClientEvents, Set<(e: never) => void>>();
  private _state: ClientState = 'ready';
  // What a new worker needs to stand where the old one stood.
  private lastLoad: LoadParams | undefined;
  private chunks: Chunk[] = [];

  constructor(factory: () => WorkerLike, options: ClientOptions = {}) {
    this.factory = factory;
    this.timeoutMs = options.timeoutMs ?? 0;
    this.maxRestarts = options.maxRestarts ?? 2;
    this.spawn();
  }

  get state(): ClientState {
    return this._state;
  }
  /** Token ids in the worker's cache, as far as answered requests tell. */
  get ids(): number[] {
    return chunkIds(this.chunks);
  }
  get length(): number {
    return this.chunks.reduce((n, c) => n + c.keep, 0);
  }
  /** Whether a model is loaded (and would be reloaded after a crash). */
  get loaded(): boolean {
    return this.lastLoad !== undefined;
  }

  load(params: LoadParams, opts?: CallOptions): Pending<LoadResult> {
    return this.call('load', params, opts);
  }
  prefill(ids: number[], opts: RunOptions = {}): Pending<RunResult> {
    return this.call('prefill', { ids: [...ids], attnRows: opts.attnRows, attention: opts.attention, headLayer: opts.headLayer }, opts);
  }
  extend(ids: number[], opts: RunOptions = {}): Pending<RunResult> {
    return this.call('extend', { ids: [...ids], attnRows: opts.attnRows, attention: opts.attention, headLayer: opts.headLayer }, opts);
  }
  fork(length: number, opts?: CallOptions): Pending<{ length: number }> {
    return this.call('fork', { length }, opts);
  }
  readKv(layer: number, opts?: CallOptions): Pending<{ layer: number; k: Tensor; v: Tensor }> {
    return this.call('readKv', { layer }, opts);
  }
  readAttention(layer: number, head?: number, opts?: CallOptions): Pending<{ layer: number; attention: Tensor; rows: number[] }> {
    return this.call('readAttention', { layer, head }, opts);
  }
  prompt(request: unknown, options?: unknown, opts?: CallOptions): Pending<unknown> {
    return this.call('prompt', { request, options }, opts);
  }
  /**
   * The StreamingLLM experiment on the loaded model (window, sink, full attention over `ids`), in the worker on
   * a second session of the same weights: the cache that prefill / extend / fork grow is left as it was.
   * `onProgress` gets the strategy running ('building', 'window', 'sink', 'full', 'done') and a fraction.
   */
  streaming(ids: number[], params: { window: number; sink: number }, opts?: CallOptions): Pending<StreamingRunResult> {
    return this.call('streaming', { ids: [...ids], window: params.window, sink: params.sink }, opts);
  }
  dispose(opts?: CallOptions): Pending<{ disposed: boolean }> {
    return this.call('dispose', {}, opts);
  }

  /**
   * Cancels a request: one not yet running is removed and rejects with 'cancelled'; a running one rejects with
   * 'cancelled' when its ORT call ends (that call cannot be interrupted; any change it made to the cache stays, and `ids` says so).
   */
  async cancel(requestId: number): Promise<CancelOutcome> {
    const e = this.pending.get(requestId);
    if (!e) return 'unknown';
    if (!e.sent) {
      this.pending.delete(requestId);
      e.reject(new EngineRequestError('cancelled', message('msg.engine.client.cancelledUnsent'), e.id, e.type));
      return 'queued';
    }
    try {
      return (await this.call('cancel', { target: requestId })).was;
    } catch (err) {
      if (err instanceof EngineRequestError && err.code === 'worker_crashed') return 'unknown'; // the target failed with it too
      throw err;
    }
  }

  /** Any request by type; the methods above are this with typed arguments. */
  call<K extends RequestType>(type: K, params: Params<K>, opts: CallOptions = {}): Pending<Result<K>> {
    return this.send(type, params, opts, false);
  }

  /** `internal` requests (recovery's own load and replay) go out at once; others wait while recovering. */
  private send<K extends RequestType>(type: K, params: Params<K>, opts: CallOptions, internal: boolean): Pending<Result<K>> {
    const id = ++this.nextId;
    let entry: Entry | undefined;
    const promise = new Promise<Result<K>>((resolve, reject) => {
      entry = { id, type, params, resolve: resolve as (v: never) => void, reject, onProgress: opts.onProgress, sent: false };
    }) as Pending<Result<K>>;
    Object.defineProperty(promise, 'id', { value: id });
    const e = entry!;
    if (this._state === 'terminated' || this._state === 'failed') {
      const why = this._state === 'terminated' ? message('msg.engine.client.terminated') : message('msg.engine.client.gaveUp');
      e.reject(new EngineRequestError(this._state === 'terminated' ? 'terminated' : 'worker_crashed', why, id, type));
      return promise;
    }
    this.pending.set(id, e);
    if (opts.signal) {
      if (opts.signal.aborted) void this.cancel(id).catch(() => undefined);
      else opts.signal.addEventListener('abort', () => void this.cancel(id).catch(() => undefined), { once: true });
    }
    if (internal || this._state === 'ready') this.post(e);
    return promise;
  }

  /** Subscribes to an event; returns the unsubscribe function. */
  on<E extends keyof ClientEvents>(event: E, fn: (e: ClientEvents[E]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(fn as (e: never) => void);
    return () => set.delete(fn as (e: never) => void);
  }

  /** Replaces the worker now (in-flight requests reject with 'worker_crashed'), e.g. after the client gave up. */
  restart(): void {
    if (this._state === 'terminated') return;
    this.crash(message('msg.engine.client.restartRequested'));
  }

  /** Ends the worker for good; every pending request rejects with 'terminated'. */
  terminate(): void {
    if (this._state === 'terminated') return;
    this._state = 'terminated';
    this.gen++;
    this.stopWatchdog();
    this.worker?.terminate();
    this.worker = undefined;
    for (const e of this.pending.values()) e.reject(new EngineRequestError('terminated', message('msg.engine.client.terminated'), e.id, e.type));
    this.pending.clear();
  }

  private emit<E extends keyof ClientEvents>(event: E, value: ClientEvents[E]): void {
    for (const fn of this.listeners.get(event) ?? []) {
      try {
        (fn as (e: ClientEvents[E]) => void)(value);
      } catch (err) {
        queueMicrotask(() => {
          throw err; // a listener's bug must surface, but not break message handling
        });
      }
    }
  }

  private spawn(): void {
    const gen = ++this.gen;
    const w = this.factory();
    this.worker = w;
    w.addEventListener('message', (ev) => gen === this.gen && this.onMessage(ev));
    w.addEventListener('error', (ev) => gen === this.gen && this.crash(eventText(ev, message('msg.engine.client.workerError'))));
    w.addEventListener('messageerror', () => gen === this.gen && this.crash(message('msg.engine.client.unreadable')));
  }

  private post(e: Entry): void {
    e.sent = true;
    try {
      if (!this.worker) throw new Error('no worker');
      this.worker.postMessage({ ...e.params, id: e.id, type: e.type }, []);
    } catch (err) {
      this.pending.delete(e.id);
      e.reject(new EngineRequestError('bad_request', message('msg.engine.client.sendFailed', { type: e.type, detail: err instanceof Error ? err.message : String(err) }), e.id, e.type));
    }
    this.armWatchdog();
  }

  private onMessage(ev: unknown): void {
    const msg = (typeof ev === 'object' && ev !== null ? (ev as { data?: unknown }).data : undefined) as EngineResponse | ProgressEvent | undefined;
    if (typeof msg !== 'object' || msg === null) return;
    const e = this.pending.get(msg.id);
    if (msg.kind === 'progress') {
      this.armWatchdog(); // a sign of life
      e?.onProgress?.(msg.stage, msg.fraction, msg.file);
      this.emit('progress', msg);
      return;
    }
    if (msg.kind !== 'response' || !e) return;
    this.pending.delete(msg.id);
    this.armWatchdog();
    this.track(e, msg);
    if (msg.ok) e.resolve(msg.result as never);
    else e.reject(EngineRequestError.of(msg.error, e.id, e.type));
  }

  /** Mirrors the worker's cache from what each response says happened to it. */
  private track(e: Entry, msg: EngineResponse): void {
    const c = msg.cache;
    if (!c) return; // not a cache request, or cancelled before it ran
    if (e.type === 'load') this.lastLoad = c.applied ? (e.params as LoadParams) : undefined; // a load that ran leaves no model unless it succeeded
    if (e.type === 'dispose' && c.applied) this.lastLoad = undefined;
    if (c.applied) {
      if (e.type === 'prefill' || e.type === 'extend') {
        const { ids } = e.params as Params<'prefill'>;
        this.chunks = [...(e.type === 'extend' ? this.chunks : []), { ids, keep: ids.length }];
      } else if (e.type === 'replay') this.chunks = (e.params as Params<'replay'>).chunks;
      else if (e.type === 'load' || e.type === 'dispose') this.chunks = [];
    }
    this.chunks = truncateChunks(this.chunks, c.length); // forks, failed prefills, graphs without present K/V
  }

  private stopWatchdog(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private armWatchdog(): void {
    this.stopWatchdog();
    if (this.timeoutMs <= 0 || ![...this.pending.values()].some((e) => e.sent)) return;
    const ms = this.timeoutMs;
    this.timer = setTimeout(() => this.crash(message('msg.engine.client.silent', { ms })), ms);
  }

  /** `reason`: a coded message of the client's own, or the browser's words for a worker error. */
  private crash(cause: string | Message): void {
    const why = reasonOf(cause);
    const reason = why.reason;
    if (this._state === 'terminated') return;
    this.gen++; // the old worker's late events are ignored from here on
    this.stopWatchdog();
    try {
      this.worker?.terminate();
    } catch {
      // already gone
    }
    this.worker = undefined;
    const failed: number[] = [];
    for (const e of [...this.pending.values()]) {
      if (!e.sent) continue; // not sent yet: it goes to the new worker
      this.pending.delete(e.id);
      failed.push(e.id);
      e.reject(new EngineRequestError('worker_crashed', message('msg.engine.client.crashedInFlight', { reason, type: e.type, id: e.id }), e.id, e.type));
    }
    this.emit('crashed', { ...why, failed });
    if (this._state !== 'recovering') void this.recover(cause); // during recovery, the recovery loop retries
  }

  private async recover(cause: string | Message): Promise<void> {
    const why = reasonOf(cause);
    this._state = 'recovering';
    // Taken once: a failed attempt's own load would otherwise wipe what later attempts must restore.
    const load = this.lastLoad;
    const chunks = this.chunks;
    let lastError: { reason: string; reasonCoded?: Message } = why;
    for (let attempt = 0; attempt <= this.maxRestarts; attempt++) {
      const info: ClientEvents['restarted'] = { ...why, reloaded: false, replayed: 0 };
      try {
        this.spawn();
        if (load) {
          try {
            await this.send('load', load, {}, true);
            info.reloaded = true;
            if (chunks.length > 0) info.replayed = (await this.send('replay', { chunks }, {}, true)).length;
          } catch (err) {
            if (err instanceof EngineRequestError && err.code === 'worker_crashed') throw err;
            // Refused as a value (the worker is alive): carry on with what came back and say why.
            info.error = err instanceof EngineRequestError ? { code: err.code, ...errorData(err) } : { code: 'runtime', ...errorData(err), message: String(err) };
          }
        }
        this._state = 'ready';
        for (const e of [...this.pending.values()]) if (!e.sent) this.post(e);
        this.emit('restarted', info);
        return;
      } catch (err) {
        const data = errorData(err);
        lastError = data.coded ? { reason: data.message, reasonCoded: data.coded } : { reason: data.message };
        this.gen++;
        try {
          this.worker?.terminate();
        } catch {
          // already gone
        }
        this.worker = undefined;
      }
    }
    this._state = 'failed';
    const gaveUp = message('msg.engine.client.keptCrashing', { reason: lastError.reason });
    for (const e of this.pending.values()) e.reject(new EngineRequestError('worker_crashed', gaveUp, e.id, e.type));
    this.pending.clear();
    this.emit('failed', lastError);
  }
}
