// Test adapter: runs a TypeScript worker entry under Node's worker_threads (through tsx) and presents it as
// the WorkerLike the engine client expects. Test-only; the browser uses a plain Worker.

import { Worker } from 'node:worker_threads';
import type { WorkerLike } from '../../lib/engine/client';

export interface NodeWorkerHandle extends WorkerLike {
  /** The real thread, for tests that kill it behind the client's back. */
  readonly raw: Worker;
}

type Listener = (event: unknown) => void;

export function startNodeWorker(entry: URL, workerData?: unknown): NodeWorkerHandle {
  // Node 20 resolves a worker's .ts entry before `--import tsx` hooks apply there, so register tsx first, then import.
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`;
  const raw = new Worker(boot, { eval: true, workerData });
  const listeners: Record<'message' | 'error' | 'messageerror', Listener[]> = { message: [], error: [], messageerror: [] };
  let terminated = false;
  raw.on('message', (data: unknown) => listeners.message.forEach((l) => l({ data })));
  raw.on('error', (err: Error) => listeners.error.forEach((l) => l({ message: err.message })));
  raw.on('messageerror', (err: Error) => listeners.messageerror.forEach((l) => l({ message: err.message })));
  // A browser Worker has no exit event; a thread that ends without being told to has crashed.
  raw.on('exit', (code: number) => {
    if (!terminated) listeners.error.forEach((l) => l({ message: `worker exited with code ${code}` }));
  });
  return {
    raw,
    postMessage: (message, transfer) => raw.postMessage(message, transfer),
    addEventListener: (type, listener) => void listeners[type].push(listener),
    terminate: () => {
      terminated = true;
      void raw.terminate();
    },
  };
}
