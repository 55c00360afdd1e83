'use client';
// One hook for work on the engine (or any async work a view waits for): runs the task for the current key,
// aborts the previous one, drops stale results, and exposes progress and errors. Core: lib/util/latestTask.
import { useEffect, useRef, useState } from 'react';
import { IDLE, LatestTask, type TaskRun, type TaskSnapshot } from '../../lib/util/latestTask';

export type { TaskContext, TaskSnapshot } from '../../lib/util/latestTask';

export interface EngineTask<T, P> extends TaskSnapshot<T, P> {
  /** Aborts the running task; the last value stays. */
  cancel: () => void;
  /** Runs the task for the current key again (e.g. after an error). */
  rerun: () => void;
}

/**
 * Runs `run` whenever `key` changes (null: nothing to run, and the last value is dropped). `run` may change
 * on every render: the one from the render that set the key is used. Pass `ctx.signal` to engine calls so a
 * newer key cancels queued work in the worker.
 */
export function useEngineTask<T, P = string>(key: string | null, run: TaskRun<T, P>): EngineTask<T, P> {
  const [snap, setSnap] = useState<TaskSnapshot<T, P>>(IDLE);
  const runner = useRef<LatestTask<T, P> | null>(null);
  const latest = useRef(run);
  latest.current = run;
  if (!runner.current) runner.current = new LatestTask<T, P>(setSnap);
  const [nonce, setNonce] = useState(0);
  useEffect(() => {
    const r = runner.current!;
    if (key === null) r.clear();
    else r.start(key, (ctx) => latest.current(ctx));
  }, [key, nonce]);
  // Unmount: the task's result has nowhere to go.
  useEffect(() => () => runner.current?.clear(), []);
  return { ...snap, cancel: () => runner.current?.cancel(), rerun: () => setNonce((n) => n + 1) };
}
