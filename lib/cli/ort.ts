// Loads onnxruntime-web's WASM backend for Node (the CLI, tests, benchmarks): the same engine code as
// the browser worker, without a GPU. Node-only.

import * as ort from 'onnxruntime-web';
import type { Ort } from '../engine/session';

/** Threads for ORT's WASM backend in Node (it runs multi-threaded without COOP/COEP headers here). */
export function nodeOrt(numThreads?: number): Ort {
  if (numThreads !== undefined) ort.env.wasm.numThreads = numThreads;
  ort.env.logLevel = 'error';
  return ort;
}
