// Runs in headless Chromium (bundled by test/engineBrowser.test.ts): the embedded model through the
// engine on WASM and, when an adapter exists, WebGPU; returns the outputs' differences.
import * as ort from 'onnxruntime-web/webgpu';
import { maxAbsDiff } from '../../lib/analysis/numeric';
import { EngineSession } from '../../lib/engine/session';
import { loadCheckpoint } from '../../lib/model/checkpoint';

interface GpuLike { requestAdapter(): Promise<{ info?: { vendor?: string; architecture?: string; description?: string } } | null> }

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
  out.kDiff = Math.max(...Array.from({ length: ck.config.numLayers }, (_, l) => maxAbsDiff(wasm.kv(l).k.data, gpuSession.kv(l).k.data)));
  return out;
}

(self as unknown as { runProbe: typeof probe }).runProbe = probe;
