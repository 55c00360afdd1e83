// Types and inputs shared by the benchmark orchestrator (bench/run.ts) and its child processes.

import type { GraphOptions } from '../lib/model/graph';

/** The value after `--name` on this process's command line, if given (the benchmarks' flags). */
export function option(name: string): string | undefined {
  const args = process.argv.slice(2);
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

/** The performance mark `<Heatmap>` writes after each paint. */
export { HEATMAP_PAINTED_MARK as PAINT_MARK } from '../lib/view/paintMark';

/** Token ids of every case (kvscope and PyTorch get the same list): deterministic, spread over the vocabulary. */
export function benchIds(n: number, vocab: number): number[] {
  return Array.from({ length: n }, (_, i) => (i * 7919 + 17) % vocab);
}

export interface CaseSpec {
  /** Label in the table and in results.json. */
  name: string;
  model: 'tiny' | 'qwen3-0.6b';
  /** engine: lib/engine/session.ts (EngineSession); lib: lib's buildGraph in a bare session. */
  path: 'engine' | 'lib';
  threads: number;
  tokens: number;
  warmup: number;
  reps: number;
  /** Incremental steps (extend by one token at `tokens` context) to time; 0 = none. */
  stepReps: number;
  graph: Partial<GraphOptions>;
  /** Added to the ORT session options (e.g. graphOptimizationLevel, extra config entries). */
  session?: Record<string, unknown>;
  /**
   * lib path with graph.externalData: hand ORT a lazily generated file (default) or one materialised buffer.
   * The engine path always materialises one buffer (lib/engine/session.ts).
   */
  externalSource?: 'lazy' | 'buffer';
  /** lib path: ORT profiling on; the trace goes to stdout before the RESULT line. */
  profile?: boolean;
}

export interface Phase {
  label: string;
  rssMB: number;
  hwmMB: number;
  ms: number;
  /** V8 heap in use, and ArrayBuffer memory (includes the WASM heap's buffer) at that point. */
  jsHeapMB?: number;
  arrayBuffersMB?: number;
}

export interface OrtResult {
  spec: CaseSpec;
  error?: string;
  numThreads?: number;
  createMs?: number;
  prefillMs?: number[];
  runMs?: number[];
  stepMs?: number[];
  prefillMedianMs?: number;
  prefillMinMs?: number;
  runMedianMs?: number;
  stepMedianMs?: number;
  stepMinMs?: number;
  peakRssMB: number;
  phases?: Phase[];
  outputBytes?: number;
  /** First 8 logits of the last position (to compare with PyTorch). */
  checksum?: number[];
  /** CPU time of the process (all threads), for the background-load estimate. */
  cpuMs?: number;
  /** Lazy external data: how much ORT read (a weight read twice counts twice). */
  external?: { totalMB: number; servedMB: number; reads: number };
}
