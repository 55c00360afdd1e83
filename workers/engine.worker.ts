// Browser entry of the engine worker: picks the onnxruntime-web bundle at load and serves lib/engine/host on `self`.
// No engine logic here (that is lib/engine/host.ts); typed with a local interface, so no "webworker" lib is needed.

import { serveEngine, type EnginePort, type OrtWant } from '../lib/engine/host';
import { promptHook } from '../lib/engine/promptHook';
import { openModelSource } from '../lib/model/source/open';
import type { Ort } from '../lib/engine/session';

interface WorkerScope extends EnginePort {
  crossOriginIsolated?: boolean;
}

const scope = self as unknown as WorkerScope;
const bundles = new Map<'wasm' | 'webgpu', Promise<Ort>>();

async function loadOrt(want: OrtWant): Promise<Ort> {
  // Imported on first use: the webgpu bundle is larger and only worth fetching when asked for.
  let bundle = bundles.get(want.provider);
  if (!bundle) {
    bundle = want.provider === 'webgpu' ? import('onnxruntime-web/webgpu') : import('onnxruntime-web/wasm');
    bundles.set(want.provider, bundle);
  }
  const ort = await bundle;
  ort.env.wasm.wasmPaths = want.wasmPaths ?? '/ort/';
  // Threads need SharedArrayBuffer, which browsers give only to cross-origin-isolated pages.
  if (!scope.crossOriginIsolated) ort.env.wasm.numThreads = 1;
  else if (want.numThreads !== undefined) ort.env.wasm.numThreads = want.numThreads;
  return ort;
}

serveEngine(scope, { ort: loadOrt, prompt: promptHook, openSource: openModelSource });
