// Loads onnxruntime-web's WASM backend for Node (the CLI, tests, benchmarks): the same engine code as
// the browser worker, without a GPU. Node-only.

import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as ort from 'onnxruntime-web';
import type { Ort } from '../engine/session';

/** Threads for ORT's WASM backend in Node (it runs multi-threaded without COOP/COEP headers here). */
export function nodeOrt(numThreads?: number): Ort {
  // onnxruntime-web defaults to 1 thread in Node on a 2-core machine; 2 threads cut a prefill by ~33 % (docs/BENCHMARKS.md).
  ort.env.wasm.numThreads = numThreads ?? Math.min(4, availableParallelism());
  ort.env.logLevel = 'error';
  exposeGc();
  return ort;
}

/**
 * Makes `globalThis.gc` available (as `node --expose-gc` would), so the engine can collect each weight's bytes
 * after onnxruntime has copied them while a large model loads (lib/engine/session.ts StreamedExternalData).
 */
function exposeGc(): void {
  const g = globalThis as { gc?: () => void };
  if (g.gc) return;
  setFlagsFromString('--expose-gc');
  g.gc = runInNewContext('gc') as () => void;
}
