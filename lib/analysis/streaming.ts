// The StreamingLLM experiment (issue 15): per-token negative log-likelihood of a text under three K/V cache
// policies, decoded token by token on the real engine:
//   window — the query sees only the last W tokens (itself included): the cache keeps the last W − 1;
//   sink   — the query sees the first k tokens plus the last W − k (itself included);
//   full   — full attention over every earlier token (chunked prefill of the whole text, no eviction).
// Before each step the cache is thinned with EngineSession.evict to the positions `keptBefore` names; kept
// keys keep their true positions (post-RoPE cache, no re-assignment; docs/CONCEPTS.md#streamingllm-experiment).
// The maths (NLL from logits, perplexities, the kept sets) is pure and tested apart from the engine.

import type { EngineSession } from '../engine/session';
import { CodedRangeError } from '../util/codedRangeError';

export const STRATEGIES = ['window', 'sink', 'full'] as const;
export type Strategy = (typeof STRATEGIES)[number];

/** StreamingLLM's cache of 4 initial tokens (Xiao et al. 2023); the window is ours, a fraction of the text. */
export const DEFAULT_SINK = 4;
export const DEFAULT_WINDOW = 128;
/** Tokens per chunk of the full-attention prefill (bounds the [T, vocab] logits held at once). */
export const FULL_CHUNK = 256;

// ---- pure maths ---------------------------------------------------------------------------------------

/** −ln softmax(logits)[target], in float64 (log-sum-exp with the max subtracted). Natural log: nats. */
export function nllFromLogits(logits: ArrayLike<number>, target: number): number {
  if (!Number.isInteger(target) || target < 0 || target >= logits.length) throw new RangeError(`target ${target} is outside the ${logits.length} logits`);
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) if (logits[i]! > max) max = logits[i]!;
  let sum = 0;
  for (let i = 0; i < logits.length; i++) sum += Math.exp(logits[i]! - max);
  return max + Math.log(sum) - logits[target]!;
}

/** exp(mean NLL) over nll[from … to − 1]; null for an empty range. */
export function perplexity(nll: ArrayLike<number>, from = 0, to = nll.length): number | null {
  const a = Math.max(0, from);
  const b = Math.min(nll.length, to);
  if (b <= a) return null;
  let s = 0;
  for (let i = a; i < b; i++) s += nll[i]!;
  return Math.exp(s / (b - a));
}

/** Running perplexity: element i is exp(mean of nll[0 … i]). */
export function runningPerplexity(nll: ArrayLike<number>): number[] {
  const out: number[] = [];
  let s = 0;
  for (let i = 0; i < nll.length; i++) {
    s += nll[i]!;
    out.push(Math.exp(s / (i + 1)));
  }
  return out;
}

/** Moving perplexity: element i is exp(mean of nll over the last `span` values up to i, fewer at the start). */
export function movingPerplexity(nll: ArrayLike<number>, span: number): number[] {
  if (!Number.isInteger(span) || span < 1) throw new RangeError(`span must be an integer ≥ 1 (got ${span})`);
  const out: number[] = [];
  let s = 0;
  for (let i = 0; i < nll.length; i++) {
    s += nll[i]!;
    if (i >= span) s -= nll[i - span]!;
    out.push(Math.exp(s / Math.min(i + 1, span)));
  }
  return out;
}

/** Checks a window W and sink count k: W ≥ 1 keys per query, 0 ≤ k ≤ W − 1 (the query itself is one key). */
export function checkWindow(window: number, sink: number): void {
  if (!Number.isInteger(window) || window < 1) throw new CodedRangeError('msg.engine.streaming.window', { got: window });
  if (!Number.isInteger(sink) || sink < 0 || sink > window - 1) throw new CodedRangeError('msg.engine.streaming.sink', { max: window - 1, got: sink });
}

/**
 * The positions among 0 … t − 1 whose K/V the query at position t sees, besides itself: all of them while
 * t ≤ W − 1; afterwards the first `sink` positions and the last W − 1 − sink. The query sees W keys.
 */
export function keptBefore(t: number, window: number, sink: number): number[] {
  checkWindow(window, sink);
  if (!Number.isInteger(t) || t < 0) throw new RangeError(`position must be an integer ≥ 0 (got ${t})`);
  if (t <= window - 1) return Array.from({ length: t }, (_, i) => i);
  const recent = window - 1 - sink;
  return [...Array.from({ length: sink }, (_, i) => i), ...Array.from({ length: recent }, (_, i) => t - recent + i)];
}

/** The first query position whose cache was thinned: W (queries 0 … W − 1 see every earlier token). */
export const firstEvictedQuery = (window: number): number => window;

// ---- on the engine --------------------------------------------------------------------------------------

/** What the experiment needs of an engine (EngineSession built with logits 'all' and presentKv). */
export type StreamingEngine = Pick<EngineSession, 'prefill' | 'extend' | 'evict' | 'positions' | 'config'>;

export interface StrategyRun {
  strategy: Strategy;
  /** nll[i]: NLL (nats) of token i + 1 predicted by the query at position i; length tokens − 1. */
  nll: number[];
  /** exp(mean NLL) over all predicted tokens. */
  perplexity: number | null;
  /** exp(mean NLL) over queries at positions ≥ W (the predictions made after the window first filled). */
  perplexityAfterFill: number | null;
  /** Most keys one query saw (W for window and sink once the text is longer; the text for full). */
  maxKeys: number;
  ms: number;
}

export interface StreamingOptions {
  window: number;
  sink: number;
  /** Called before token t is read and run (t = 0 … tokens − 2), e.g. for progress. */
  onStep?: (t: number, total: number) => void;
}

function row(logits: { data: Float32Array; dims: number[] }, r: number): Float32Array {
  const V = logits.dims[logits.dims.length - 1]!;
  return logits.data.subarray(r * V, (r + 1) * V);
}

/**
 * Token-by-token decoding of `ids` with eviction before each step: `window` (sink ignored) or `sink`. Token
 * t is read from `ids` only when it is run (and as the target of step t − 1), so a change to an entry after
 * it ran cannot reach the result except through the cache.
 */
export async function decodeWithEviction(engine: StreamingEngine, ids: readonly number[], strategy: 'window' | 'sink', opts: StreamingOptions): Promise<StrategyRun> {
  const { window } = opts;
  const sink = strategy === 'sink' ? opts.sink : 0;
  checkWindow(window, sink);
  if (ids.length < 2) throw new CodedRangeError('msg.engine.streaming.short');
  const t0 = performance.now();
  const total = ids.length - 1;
  const nll: number[] = [];
  let maxKeys = 0;
  for (let t = 0; t < total; t++) {
    opts.onStep?.(t, total);
    let res;
    if (t === 0) res = await engine.prefill([ids[0]!]);
    else {
      const keep = keptBefore(t, window, sink);
      const at = new Map(engine.positions.map((p, i) => [p, i]));
      const idx = keep.map((p) => {
        const i = at.get(p);
        if (i === undefined) throw new Error(`position ${p} should be kept but is no longer in the cache`);
        return i;
      });
      engine.evict(idx);
      res = await engine.extend([ids[t]!]);
    }
    maxKeys = Math.max(maxKeys, engine.positions.length);
    if (!res.logits) throw new Error('the engine returns no logits (build it with logits "all")');
    nll.push(nllFromLogits(row(res.logits, 0), ids[t + 1]!));
  }
  return { strategy, nll, perplexity: perplexity(nll), perplexityAfterFill: perplexity(nll, firstEvictedQuery(window)), maxKeys, ms: performance.now() - t0 };
}

/** Full attention: the text (all but its last token) prefilled in chunks of FULL_CHUNK, every row's logits read. */
export async function decodeFull(engine: StreamingEngine, ids: readonly number[], window: number, chunk = FULL_CHUNK): Promise<StrategyRun> {
  if (ids.length < 2) throw new CodedRangeError('msg.engine.streaming.short');
  const t0 = performance.now();
  const total = ids.length - 1;
  const nll: number[] = [];
  for (let from = 0; from < total; from += chunk) {
    const part = ids.slice(from, Math.min(total, from + chunk));
    const res = from === 0 ? await engine.prefill(part) : await engine.extend(part);
    if (!res.logits) throw new Error('the engine returns no logits (build it with logits "all")');
    part.forEach((_, r) => nll.push(nllFromLogits(row(res.logits!, r), ids[from + r + 1]!)));
  }
  return { strategy: 'full', nll, perplexity: perplexity(nll), perplexityAfterFill: perplexity(nll, firstEvictedQuery(window)), maxKeys: total, ms: performance.now() - t0 };
}

export interface StreamingResult {
  tokens: number;
  window: number;
  sink: number;
  /** Queries at positions ≥ this one ran on a thinned cache (window and sink). */
  firstEvictedQuery: number;
  runs: Record<Strategy, StrategyRun>;
}

/** The three strategies over the same ids, one after the other on one engine. */
export async function streamingExperiment(engine: StreamingEngine, ids: readonly number[], opts: StreamingOptions): Promise<StreamingResult> {
  checkWindow(opts.window, opts.sink);
  if (ids.length > engine.config.maxPositions) throw new CodedRangeError('msg.engine.streaming.context', { tokens: ids.length, max: engine.config.maxPositions });
  const window = await decodeWithEviction(engine, ids, 'window', opts);
  const sink = await decodeWithEviction(engine, ids, 'sink', opts);
  const full = await decodeFull(engine, ids, opts.window);
  return { tokens: ids.length, window: opts.window, sink: opts.sink, firstEvictedQuery: firstEvictedQuery(opts.window), runs: { window, sink, full } };
}
