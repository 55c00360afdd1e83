// One kvscope (onnxruntime-web, WASM) benchmark case, run in its own process so that the thread count
// (fixed when ORT's WASM module starts) and the memory high-water mark (VmHWM) belong to this case only.
// Usage: node --import tsx bench/ortCase.ts '<CaseSpec JSON>'  → prints one line `RESULT {...}`.

import * as ort from 'onnxruntime-web';
import { readFileSync } from 'node:fs';
import { EngineSession, type Ort } from '../lib/engine/session';
import { loadCheckpoint, type Checkpoint } from '../lib/model/checkpoint';
import { buildGraph, io, type ExternalSegment } from '../lib/model/graph';
import { lazyRandomCheckpoint, QWEN3_06B_CONFIG } from './randomWeights';
import { benchIds, type CaseSpec, type OrtResult, type Phase } from './common';

const spec = JSON.parse(process.argv[2] ?? '{}') as CaseSpec;
if (spec.threads > 0) ort.env.wasm.numThreads = spec.threads; // 0: leave onnxruntime-web's default
ort.env.logLevel = 'error';

function memory(label: string): Phase {
  const s = readFileSync('/proc/self/status', 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? NaN);
  const m = process.memoryUsage();
  return { label, rssMB: kb('VmRSS') / 1024, hwmMB: kb('VmHWM') / 1024, ms: performance.now(), jsHeapMB: m.heapUsed / 2 ** 20, arrayBuffersMB: m.arrayBuffers / 2 ** 20 };
}

/** ORT session options for this case: the engine's own plus the case's additions (e.g. the fold limit). */
function sessionOptions(): ort.InferenceSession.SessionOptions {
  return { executionProviders: ['wasm'], graphOptimizationLevel: 'all', logSeverityLevel: 3, enableProfiling: spec.profile === true, ...(spec.session ?? {}) } as ort.InferenceSession.SessionOptions;
}

/** The ort module with InferenceSession.create patched to add this case's session options (engine path). */
function patchedOrt(): Ort {
  const extra = spec.session ?? {};
  const create = (bytes: Uint8Array, opts: ort.InferenceSession.SessionOptions) => ort.InferenceSession.create(bytes, { logSeverityLevel: 3, ...opts, ...extra } as ort.InferenceSession.SessionOptions);
  return { ...ort, InferenceSession: { ...ort.InferenceSession, create } } as unknown as Ort;
}

function checkpoint(): Checkpoint {
  if (spec.model === 'tiny') {
    const dir = 'public/models/kvscope-tiny';
    return loadCheckpoint(readFileSync(`${dir}/config.json`, 'utf8'), [new Uint8Array(readFileSync(`${dir}/model.safetensors`))]);
  }
  return lazyRandomCheckpoint(QWEN3_06B_CONFIG);
}

/**
 * The external-data "file" handed to onnxruntime-web. `lazy`: a Uint8Array subclass whose subarray()
 * produces each weight's bytes when ORT asks for it (ORT's loader only calls byteLength and subarray),
 * so no full copy of the weights ever exists in JS. `buffer`: all weights materialised in one buffer,
 * as an app holding a safetensors shard in memory would have.
 */
class LazyFile extends Uint8Array {
  private segs = new Map<number, ExternalSegment>();
  /** Bytes handed to ORT so far (a weight read twice counts twice). */
  served = 0;
  reads = 0;
  constructor(segments: ExternalSegment[], total: number) {
    super(0);
    for (const s of segments) this.segs.set(s.offset, s);
    Object.defineProperty(this, 'byteLength', { value: total });
  }
  override subarray(begin = 0, end?: number): Uint8Array<ArrayBuffer> {
    const s = this.segs.get(begin);
    if (!s || end !== begin + s.length) throw new Error(`external data: no weight at [${begin}, ${end})`);
    // A streaming loader keeps no weight after handing it over: collect the previous one's garbage first.
    (globalThis as { gc?: () => void }).gc?.();
    const b = s.bytes();
    this.served += b.length;
    this.reads++;
    if (b.length !== s.length) throw new Error(`external data: ${s.name} has ${b.length} bytes, expected ${s.length}`);
    return b as Uint8Array<ArrayBuffer>;
  }
}
function materialise(segments: ExternalSegment[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  for (const s of segments) out.set(s.bytes(), s.offset);
  return out;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main(): Promise<OrtResult> {
  const phases: Phase[] = [memory('start')];
  const ck = checkpoint();
  const c = ck.config;
  const ids = benchIds(spec.tokens + 1, c.vocabSize);
  const prompt = ids.slice(0, spec.tokens);
  const next = ids[spec.tokens]!;
  const prefillMs: number[] = [];
  const runMs: number[] = [];
  const stepMs: number[] = [];
  let createMs = 0;
  let checksum: number[] = [];
  let outputBytes = 0;
  let lazy: LazyFile | undefined;

  if (spec.path === 'engine') {
    // The real EngineSession (lib/engine/session.ts), with session options added through the ort module.
    const t0 = performance.now();
    const engine = await EngineSession.create(patchedOrt(), ck, { graph: spec.graph });
    createMs = performance.now() - t0;
    phases.push(memory('session created'));
    for (let i = 0; i < spec.warmup + spec.reps; i++) {
      const t = performance.now();
      const r = await engine.prefill(prompt);
      const wall = performance.now() - t;
      if (i >= spec.warmup) {
        prefillMs.push(wall);
        runMs.push(r.ms);
      }
      if (i === 0) {
        checksum = r.logits ? Array.from(r.logits.data.subarray(r.logits.data.length - c.vocabSize, r.logits.data.length - c.vocabSize + 8)) : [];
        outputBytes = 4 * ((r.logits?.data.length ?? 0) + r.attention.reduce((a, t) => a + t.data.length, 0)) + engine.cacheBytes();
      }
    }
    phases.push(memory('after prefills'));
    if (spec.stepReps > 0) {
      for (let i = 0; i < spec.warmup + spec.stepReps; i++) {
        engine.fork(spec.tokens); // rewind to the 1,024-token context (copies the cache; not timed)
        const t = performance.now();
        await engine.extend([next]);
        const wall = performance.now() - t;
        if (i >= spec.warmup) stepMs.push(wall);
      }
      phases.push(memory('after steps'));
    }
    await engine.dispose();
  } else {
    // Same feeds as the engine, on lib's buildGraph in a bare session (the external data as spec.externalSource says).
    const t0 = performance.now();
    let built = buildGraph(ck, spec.graph);
    phases.push(memory('graph built'));
    const opts = sessionOptions();
    if (built.external) {
      const e = built.external;
      const data = spec.externalSource === 'buffer' ? materialise(e.segments, e.total) : (lazy = new LazyFile(e.segments, e.total));
      if (spec.externalSource === 'buffer') phases.push(memory('external buffer filled'));
      opts.externalData = [{ path: e.location, data }];
    }
    const bytes = built.bytes;
    const outputNames = built.outputNames;
    built = undefined as never; // let the builder's weight chunks go before the session copies the graph
    const session = await ort.InferenceSession.create(bytes, opts);
    delete opts.externalData;
    createMs = performance.now() - t0;
    phases.push(memory('session created'));
    const feeds = (tokens: number[], past: number, cache?: ort.InferenceSession.OnnxValueMapType): Record<string, ort.Tensor> => {
      const f: Record<string, ort.Tensor> = {
        [io.inputIds]: new ort.Tensor('int64', BigInt64Array.from(tokens.map(BigInt)), [tokens.length]),
        [io.positionIds]: new ort.Tensor('int64', BigInt64Array.from(tokens.map((_, i) => BigInt(past + i))), [tokens.length]),
      };
      for (let l = 0; l < c.numLayers; l++) {
        f[io.pastKey(l)] = cache ? (cache[io.presentKey(l)] as ort.Tensor) : new ort.Tensor('float32', new Float32Array(0), [c.numKvHeads, 0, c.headDim]);
        f[io.pastValue(l)] = cache ? (cache[io.presentValue(l)] as ort.Tensor) : new ort.Tensor('float32', new Float32Array(0), [c.numKvHeads, 0, c.headDim]);
      }
      return f;
    };
    let last: ort.InferenceSession.OnnxValueMapType | undefined;
    for (let i = 0; i < spec.warmup + spec.reps; i++) {
      const t = performance.now();
      last = await session.run(feeds(prompt, 0));
      const wall = performance.now() - t;
      if (i >= spec.warmup) {
        prefillMs.push(wall);
        runMs.push(wall);
      }
      if (i === 0) {
        const lg = last[io.logits]?.data as Float32Array | undefined;
        checksum = lg ? Array.from(lg.subarray(lg.length - c.vocabSize, lg.length - c.vocabSize + 8)) : [];
        outputBytes = outputNames.reduce((a, n) => a + 4 * (last![n]!.data as Float32Array).length, 0);
      }
    }
    phases.push(memory('after prefills'));
    if (spec.stepReps > 0 && last && outputNames.includes(io.presentKey(0))) {
      for (let i = 0; i < spec.warmup + spec.stepReps; i++) {
        const f = feeds([next], spec.tokens, last);
        const t = performance.now();
        await session.run(f);
        const wall = performance.now() - t;
        if (i >= spec.warmup) stepMs.push(wall);
      }
      phases.push(memory('after steps'));
    }
    if (spec.profile) session.endProfiling(); // onnxruntime-web prints the trace (JSON) to stdout
    await session.release();
  }
  const end = memory('end');
  phases.push(end);
  const t0 = phases[0]!.ms;
  for (const p of phases) p.ms = Math.round(p.ms - t0);
  return {
    spec,
    numThreads: ort.env.wasm.numThreads as number,
    createMs,
    prefillMs,
    runMs,
    stepMs,
    prefillMedianMs: median(prefillMs),
    prefillMinMs: Math.min(...prefillMs),
    runMedianMs: median(runMs),
    stepMedianMs: stepMs.length ? median(stepMs) : undefined,
    stepMinMs: stepMs.length ? Math.min(...stepMs) : undefined,
    peakRssMB: end.hwmMB,
    phases,
    outputBytes,
    checksum,
    cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
    external: lazy ? { totalMB: lazy.byteLength / 2 ** 20, servedMB: lazy.served / 2 ** 20, reads: lazy.reads } : undefined,
  };
}

main().then(
  (r) => {
    process.stdout.write(`RESULT ${JSON.stringify(r)}\n`);
    process.exit(0);
  },
  (e: Error) => {
    process.stdout.write(`RESULT ${JSON.stringify({ spec, error: String(e.message ?? e).split('\n')[0], peakRssMB: memory('error').hwmMB })}\n`);
    process.exit(0);
  },
);
