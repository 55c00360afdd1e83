// The page's side of the parse worker (lib/io/parseProtocol.ts): jobs with progress and cancellation.
// The worker is started on the first job and kept. A cancel is sent to the worker, which stops between
// chunks; one that does not answer within `cancelGraceMs` (inside one long JSON.parse) is terminated and
// the jobs queued behind the cancelled one are sent again to a new worker. A worker that dies (out of
// memory) fails its jobs with a clear error; the next job starts a new one. No DOM: any Worker-like fits.
import type { ImportKind, ImportOutcome } from './importData';
import { fromWire, isFromParser, type ParseInput, type ParseRequest, type ParseStage } from './parseProtocol';
import type { ParseRunLogResult } from './runlog';
import type { Params, StringKey } from '../i18n';
import { CodedError, type Message } from '../i18n/message';

export interface ParseWorkerLike {
  postMessage(message: unknown, transfer: ArrayBuffer[]): void;
  addEventListener(type: 'message' | 'error' | 'messageerror', listener: (event: unknown) => void): void;
  terminate(): void;
}

export interface JobProgress {
  stage: ParseStage;
  done: number;
  total: number;
}

export interface JobOptions {
  onProgress?: (p: JobProgress) => void;
  /** Aborting cancels the job: its promise rejects with ParseCancelledError. */
  signal?: AbortSignal;
}

export class ParseCancelledError extends CodedError {
  override name = 'ParseCancelledError';
  constructor() {
    super('msg.import.parse.cancelled');
  }
}

/** The worker stopped (crashed, ran out of memory) or answered with an error (a coded message: lib/i18n/message.ts). */
export class ParseWorkerError extends CodedError {
  override name = 'ParseWorkerError';
  constructor(key: StringKey, params?: Params, parts?: Record<string, Message>) {
    super(key, params, undefined, parts);
  }
}

/** No worker could be started (none in this browser, blocked, its script missing): it never answered. */
export class ParseStartError extends ParseWorkerError {
  override name = 'ParseStartError';
}

interface Job {
  request: ParseRequest;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  onProgress?: (p: JobProgress) => void;
  cleanup: () => void;
}

const yieldToEvents = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export class ParseClient {
  private worker: ParseWorkerLike | null = null;
  private nextId = 1;
  private readonly jobs = new Map<number, Job>();
  private readonly cancelGraceMs: number;
  /** The job the worker last reported progress on, until it answers for it. */
  private running: number | null = null;
  /** Workers started so far (tests read it). */
  started = 0;

  constructor(
    private readonly factory: () => ParseWorkerLike,
    opts: { cancelGraceMs?: number } = {},
  ) {
    this.cancelGraceMs = opts.cancelGraceMs ?? 250;
  }

  /** lib/io/importData on the worker. */
  parseImport(input: ParseInput, hint: ImportKind | null, opts: JobOptions = {}): Promise<ImportOutcome> {
    return this.submit({ type: 'parse', id: this.nextId++, kind: 'import', input, hint }, opts) as Promise<ImportOutcome>;
  }

  /** lib/io/runlog parseRunLog on the worker (bytes are read as UTF-8). */
  parseRunLog(input: ParseInput, opts: JobOptions = {}): Promise<ParseRunLogResult> {
    return this.submit({ type: 'parse', id: this.nextId++, kind: 'runlog', input }, opts) as Promise<ParseRunLogResult>;
  }

  /** Stops the worker; pending jobs reject. */
  dispose(): void {
    this.fail(new ParseWorkerError('msg.import.parse.closed'));
  }

  private submit(request: ParseRequest, opts: JobOptions): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (opts.signal?.aborted) return reject(new ParseCancelledError());
      const onAbort = () => this.cancel(request.id);
      opts.signal?.addEventListener('abort', onAbort);
      const cleanup = () => opts.signal?.removeEventListener('abort', onAbort);
      this.jobs.set(request.id, { request, resolve, reject, onProgress: opts.onProgress, cleanup });
      try {
        this.send(request);
      } catch (e) {
        this.settle(request.id);
        reject(new ParseStartError('msg.import.parse.cannotStartWhy', { detail: (e as Error).message }));
      }
    });
  }

  private send(request: ParseRequest): void {
    if (!this.worker) this.spawn();
    // The caller keeps its input (to store it): bytes go as a copy that is moved, which is much cheaper for
    // the page than letting postMessage serialise them (tens of MB: ~100 ms of main-thread time).
    if (request.input instanceof Uint8Array) {
      const copy = request.input.slice();
      this.worker!.postMessage({ ...request, input: copy }, [copy.buffer]);
    } else this.worker!.postMessage(request, []);
  }

  private spawn(): void {
    const w = this.factory();
    this.started++;
    this.worker = w;
    let answered = false;
    w.addEventListener('message', (e) => {
      answered = true;
      if (this.worker === w) this.onMessage((e as { data: unknown }).data);
    });
    const died = (e: unknown) => {
      if (this.worker !== w) return;
      const why = (e as { message?: unknown } | null)?.message;
      const detail = typeof why === 'string' && why ? why : '';
      this.fail(
        answered
          ? new ParseWorkerError(detail ? 'msg.import.parse.stoppedWhy' : 'msg.import.parse.stopped', { detail })
          : new ParseStartError(detail ? 'msg.import.parse.cannotStartWhy' : 'msg.import.parse.cannotStart', { detail }),
      );
    };
    w.addEventListener('error', died);
    w.addEventListener('messageerror', died);
  }

  private settle(id: number): Job | undefined {
    const job = this.jobs.get(id);
    if (!job) return undefined;
    this.jobs.delete(id);
    job.cleanup();
    return job;
  }

  private onMessage(m: unknown): void {
    if (!isFromParser(m)) return;
    if (m.type === 'progress') {
      this.running = m.id;
      this.jobs.get(m.id)?.onProgress?.({ stage: m.stage, done: m.done, total: m.total });
      return;
    }
    if (this.running === m.id) this.running = null;
    const job = this.settle(m.id);
    if (!job) return; // a cancelled job's answer
    // A run log is rebuilt from its columns in slices, yielding between them: the page can paint meanwhile.
    if (m.type === 'result') fromWire(m.outcome, yieldToEvents).then(job.resolve, job.reject);
    else if (m.type === 'cancelled') job.reject(new ParseCancelledError());
    else job.reject(m.coded ? new ParseWorkerError(m.coded.key, m.coded.params, m.coded.parts) : new ParseWorkerError('msg.import.verbatim', { text: m.message }));

  }

  private cancel(id: number): void {
    const job = this.settle(id);
    if (!job) return;
    job.reject(new ParseCancelledError());
    const w = this.worker;
    if (!w) return;
    w.postMessage({ type: 'cancel', id }, []);
    // A worker inside one JSON.parse answers nothing until it is done: end it, and resend what waited.
    // (A job still queued behind another is skipped by the worker when its turn comes.)
    setTimeout(() => {
      if (this.worker !== w || this.running !== id) return;
      w.terminate();
      this.worker = null;
      this.running = null;
      for (const j of this.jobs.values()) this.send(j.request);
    }, this.cancelGraceMs);
  }

  private fail(e: Error): void {
    const w = this.worker;
    this.worker = null;
    w?.terminate();
    this.running = null;
    for (const id of [...this.jobs.keys()]) this.settle(id)!.reject(e);
  }
}
