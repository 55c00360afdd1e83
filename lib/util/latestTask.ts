// Runs the latest of a stream of async tasks: starting one aborts the one before, whose results, progress
// and errors are then dropped. The core of components/hooks/useEngineTask, kept here so Node tests reach it.
import { errorData, type Message } from '../i18n/message';

/** What a task receives: an abort signal (pass it to engine calls) and a progress reporter. */
export interface TaskContext<P> {
  signal: AbortSignal;
  /** Reports progress; ignored once the task is stale. */
  progress: (p: P) => void;
  /** True once a newer task started or the runner was cancelled: stop and return anything. */
  stale: () => boolean;
}

export type TaskRun<T, P> = (ctx: TaskContext<P>) => Promise<T>;

/** The runner's state, as views read it. */
export interface TaskSnapshot<T, P> {
  /** The key of the task running or last run (null: none). */
  key: string | null;
  running: boolean;
  progress: P | null;
  /** The last finished task's value, kept while a newer task runs so views do not flash. */
  value: T | null;
  /** The key `value` was computed for. */
  valueKey: string | null;
  /** The message of the latest task's failure (cleared when the next one starts). */
  error: string | null;
  /**
   * With `error`: the failure as plain data (lib/i18n/message errorData), its coded message included when it
   * has one, so a view shows it in its language with `describe(lang, failure)`. Absent without an error.
   */
  failure?: TaskFailure;
}

/** A failure as plain data: its English text and, when it has one, its coded message (lib/i18n/message errorData). */
export type TaskFailure = { message: string; coded?: Message };

export const IDLE: TaskSnapshot<never, never> = { key: null, running: false, progress: null, value: null, valueKey: null, error: null };

/** True for the rejection an aborted task gives (our engine's 'cancelled', DOM's AbortError). */
export function isCancellation(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const { name, code } = e as { name?: unknown; code?: unknown };
  return name === 'AbortError' || code === 'cancelled';
}

export class LatestTask<T, P = string> {
  private snap: TaskSnapshot<T, P> = IDLE;
  private current: AbortController | null = null;

  constructor(private readonly onChange: (s: TaskSnapshot<T, P>) => void) {}

  get snapshot(): TaskSnapshot<T, P> {
    return this.snap;
  }

  private set(patch: Partial<TaskSnapshot<T, P>>): void {
    this.snap = { ...this.snap, ...patch };
    this.onChange(this.snap);
  }

  /** Starts `run` under `key`, aborting any task still running. */
  start(key: string, run: TaskRun<T, P>): void {
    this.current?.abort();
    const ctl = new AbortController();
    this.current = ctl;
    const stale = () => ctl.signal.aborted;
    if (this.snap.failure) {
      const { failure: _, ...rest } = this.snap;
      this.snap = rest;
    }
    this.set({ key, running: true, progress: null, error: null });
    let result: Promise<T>;
    try {
      result = run({ signal: ctl.signal, stale, progress: (p) => !stale() && this.set({ progress: p }) });
    } catch (e) {
      result = Promise.reject(e);
    }
    result.then(
      (value) => {
        if (stale()) return;
        this.current = null;
        this.set({ running: false, progress: null, value, valueKey: key });
      },
      (e: unknown) => {
        if (stale() || isCancellation(e)) {
          if (!stale()) this.set({ running: false, progress: null });
          return;
        }
        this.current = null;
        this.set({ running: false, progress: null, error: e instanceof Error ? e.message : String(e), failure: errorData(e) });
      },
    );
  }

  /** Aborts the running task (its value never lands); the last value stays. */
  cancel(): void {
    if (!this.current) return;
    this.current.abort();
    this.current = null;
    this.set({ running: false, progress: null });
  }

  /** Aborts and forgets everything (no task wanted: e.g. no model loaded). */
  clear(): void {
    this.current?.abort();
    this.current = null;
    if (this.snap !== IDLE) {
      this.snap = IDLE;
      this.onChange(this.snap);
    }
  }
}
