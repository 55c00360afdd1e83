// Runs in headless Chromium (bundled by test/engineBrowser.test.ts): the embedded model through the
// engine on WASM and, when an adapter exists, WebGPU; returns the outputs' differences.
import * as ort from 'onnxruntime-web/webgpu';
import { maxAbsDiff } from '../../lib/analysis/numeric';
import { EngineSession } from '../../lib/engine/session';
import { loadCheckpoint } from '../../lib/model/checkpoint';

interface GpuLike { requestAdapter(): Promise<{ info?: { vendor?: string; architecture?: string; description?: string }; features?: Set<string> } | null> }

async function probe(nTokens: number) {
  ort.env.wasm.wasmPaths = '/ort/';
  ort.env.wasm.numThreads = self.crossOriginIsolated ? 2 : 1;
  const gpu = (navigator as unknown as { gpu?: GpuLike }).gpu;
  const adapter = gpu ? await gpu.requestAdapter() : null;
  const [config, weights, cases] = await Promise.all([
    fetch('/models/kvscope-tiny/config.json').then((r) => r.text()),
    fetch('/models/kvscope-tiny/model.safetensors').then((r) => r.arrayBuffer()),
    fetch('/golden/cases.json').then((r) => r.json() as Promise<{ cases: { name: string; ids: number[] }[] }>),
  ]);
  const ck = loadCheckpoint(config, [new Uint8Array(weights)]);
  const ids = cases.cases.find((c) => c.name === 'vancouver')!.ids.slice(0, nTokens);
  const wasm = await EngineSession.create(ort, ck, { executionProvider: 'wasm' });
  const a = await wasm.prefill(ids);
  const out: Record<string, unknown> = {
    crossOriginIsolated: self.crossOriginIsolated,
    threads: ort.env.wasm.numThreads,
    adapter: adapter ? ['vendor', 'architecture', 'description'].map((k) => (adapter.info as Record<string, string> | undefined)?.[k] ?? '').join(' / ') || 'unnamed adapter' : null,
    wasmProvider: wasm.provider,
    wasmMs: a.ms,
    tokens: ids.length,
  };
  if (!adapter) return out;
  const gpuSession = await EngineSession.create(ort, ck, { executionProvider: 'webgpu' });
  out.gpuProvider = gpuSession.provider;
  const b = await gpuSession.prefill(ids);
  const step = await gpuSession.extend([ids[0]!]);
  await wasm.extend([ids[0]!]).then((w) => (out.stepDiff = maxAbsDiff(w.logits!.data, step.logits!.data)));
  out.gpuMs = b.ms;
  out.logitsDiff = maxAbsDiff(a.logits!.data, b.logits!.data);
  out.attnDiff = Math.max(...a.attention.map((t, l) => maxAbsDiff(t.data, b.attention[l]!.data)));
  // The cache stayed in GPU buffers between prefill and step (residentKv); reading it needs one download.
  out.resident = gpuSession.cacheResident;
  await gpuSession.syncCache();
  out.kDiff = Math.max(...Array.from({ length: ck.config.numLayers }, (_, l) => maxAbsDiff(wasm.kv(l).k.data, gpuSession.kv(l).k.data)));
  // Rewound on the host copy, then extended again: the uploaded cache gives the same step.
  gpuSession.fork(ids.length);
  wasm.fork(ids.length);
  const again = await gpuSession.extend([ids[1]!]);
  out.forkStepDiff = maxAbsDiff((await wasm.extend([ids[1]!])).logits!.data, again.logits!.data);
  await gpuSession.dispose();
  // The large-model plan's graph (float16 weights cast per layer, LM head in chunks, external data, head-mean maps
  // plus one layer per head through a computed Slice) on WebGPU against WASM.
  // float32 weights here: SwiftShader (Chromium's software adapter) has no shader-f16.
  const plan = { weights: 'float32', castOnDemand: true, lmHeadChunks: 3, attentionInLayer: true, externalData: true, attention: 'mean', headLayerInput: true, logits: 'last' } as const;
  const gp = await EngineSession.create(ort, ck, { executionProvider: 'webgpu', graph: plan });
  const wp = await EngineSession.create(ort, ck, { executionProvider: 'wasm', graph: plan });
  const [pg, pw] = [await gp.prefill(ids, undefined, 2), await wp.prefill(ids, undefined, 2)];
  out.planProvider = gp.provider;
  out.planDims = pg.attention.map((t) => t.dims.length);
  out.planDiff = Math.max(maxAbsDiff(pg.logits!.data, pw.logits!.data), ...pg.attention.map((t, l) => maxAbsDiff(t.data, pw.attention[l]!.data)));
  await gp.dispose();
  await wp.dispose();
  // float16 weights: on an adapter without shader-f16 a kernel fails at its first run; the engine must notice
  // while loading and fall back to WASM, saying why, rather than fail on the user's first prompt.
  const h = await EngineSession.create(ort, ck, { executionProvider: 'webgpu', graph: { ...plan, weights: 'float16' } });
  out.f16Provider = h.provider;
  out.f16Note = h.providerNote ?? null;
  out.f16Features = adapter.features ? adapter.features.has("shader-f16") : null;
  const hr = await h.prefill(ids, undefined, 2);
  out.f16Diff = maxAbsDiff(hr.logits!.data, pw.logits!.data);
  await h.dispose();
  return out;
}

(self as unknown as { runProbe: typeof probe }).runProbe = probe;
