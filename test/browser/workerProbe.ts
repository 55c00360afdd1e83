// Runs in headless Chromium (bundled by test/engineBrowser.test.ts): the real engine worker bundle behind
// EngineClient — load the embedded model, render a prompt in the worker, prefill and extend.
import { EngineClient } from '../../lib/engine/client';
import type { LoadParams } from '../../lib/engine/protocol';
import { VANCOUVER } from '../../lib/scenarios/vancouver';
import { fetchModel } from '../../lib/model/fetchModel';

async function probe() {
  const client = new EngineClient(() => new Worker('/engine.worker.js', { type: 'module' }));
  const { config, shards, tokenizer, tokenizerConfig } = await fetchModel('/models/kvscope-tiny/', (u) => fetch(u));
  const stages: string[] = [];
  const params: LoadParams = { config, shards, tokenizer, tokenizerConfig, provider: 'wasm', numThreads: 2 } as LoadParams;
  const loaded = (await client.load(params, { onProgress: (stage) => stages.push(stage) })) as { provider: string; numThreads: number };
  const p = (await client.prompt(VANCOUVER, { addGenerationPrompt: true })) as { ok: boolean; prompt: { ids: number[]; spans: unknown[] } };
  const r = await client.prefill(p.prompt.ids.slice(0, 100));
  const e = await client.extend(p.prompt.ids.slice(100, 101));
  client.terminate();
  return { provider: loaded.provider, threads: loaded.numThreads, isolated: self.crossOriginIsolated, stages, tokens: p.prompt.ids.length, spans: p.prompt.spans.length, prefillAttnDims: (r as { attention: { dims: number[] }[] }).attention[0]!.dims, extendLength: client.length, extendAttnDims: (e as { attention: { dims: number[] }[] }).attention[0]!.dims };
}

(self as unknown as { runWorkerProbe: typeof probe }).runWorkerProbe = probe;
