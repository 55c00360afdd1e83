// Test worker entry: serves the engine on worker_threads' parentPort with onnxruntime-web's Node build, plus
// a fake prompt builder that waits for its abort signal (to test cancelling a running request). Test-only.

import * as ort from 'onnxruntime-web';
import { parentPort } from 'node:worker_threads';
import { serveEngine, type EnginePort } from '../../lib/engine/host';

if (!parentPort) throw new Error('engineWorkerNode.ts must run in a worker thread');
const port = parentPort;

const adapted: EnginePort = {
  postMessage: (message, transfer) => port.postMessage(message, transfer),
  addEventListener: (_type, listener) => void port.on('message', (data: unknown) => listener({ data })),
};

serveEngine(adapted, {
  ort,
  prompt: {
    tokenizer: (files) => ({ hasConfig: files.tokenizerConfig !== undefined }),
    // Echoes the request after `wait` ms, or answers as soon as it is cancelled.
    build: (tok, request, options, { signal }) =>
      new Promise((resolve) => {
        const wait = typeof (options as { wait?: unknown } | undefined)?.wait === 'number' ? (options as { wait: number }).wait : 0;
        const timer = setTimeout(() => resolve({ tok, request }), wait);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve({ aborted: true });
        });
      }),
  },
});
