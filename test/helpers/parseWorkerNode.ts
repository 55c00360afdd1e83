// Test worker entry: serves lib/io/parseHost on worker_threads' parentPort, the way workers/parse.worker.ts
// serves it on `self`. workerData.chunkBytes sets the decode chunk (small chunks give many progress reports).
import { parentPort, workerData } from 'node:worker_threads';
import { serveParse, type ParsePort } from '../../lib/io/parseHost';

if (!parentPort) throw new Error('parseWorkerNode.ts must run in a worker thread');
const port = parentPort;
const adapted: ParsePort = {
  postMessage: (message, transfer) => port.postMessage(message, transfer),
  addEventListener: (_type, listener) => void port.on('message', (data: unknown) => listener({ data })),
};
serveParse(adapted, { chunkBytes: (workerData as { chunkBytes?: number } | undefined)?.chunkBytes });
