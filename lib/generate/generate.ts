// Autoregressive generation over any engine with an async extend(): EngineSession in Node, or the page's
// EngineClient across the worker boundary. One extend([id]) per new token, so the cache always holds the
// prompt plus every token generated so far. No DOM, no Node APIs.

import { Rng } from '../util/rng';
import { argmax, checkSettings, distribution, SamplingError, sampleToken, softmax, topTokens, type SamplingSettings } from './sampling';

/** What generate needs of an engine (EngineSession and EngineClient both fit). */
export interface GenEngine {
  extend(ids: number[]): Promise<{ logits?: { data: Float32Array; dims: number[] }; attention?: { data: Float32Array; dims: number[] }[] }>;
}

/** One generated token. */
export interface GenStep {
  /** The token chosen. */
  id: number;
  /** Its absolute position in the sequence (startPosition for the first new token). */
  position: number;
  /** Its probability under the model's plain softmax (not the temperature/top-k/top-p distribution). */
  p: number;
  /** The plain softmax's top TOP_N tokens at this step (descending; ties → lower id). */
  top: { id: number; p: number }[];
  /** With keepAttention: per layer, the attention of this token's row (the extend that took it into the cache), copied. */
  attention?: { data: Float32Array; dims: number[] }[];
}

export interface GenerateOptions {
  /** Most tokens to generate (integer ≥ 0; the eos token counts). */
  maxNewTokens: number;
  sampling: SamplingSettings;
  /** Seeds lib/util/rng.ts Rng; one draw per sampled token (greedy draws none). */
  seed: number;
  /** Called after each token is in the cache; return false to stop there. */
  onStep?: (s: GenStep) => void | boolean /* return false to stop */;
  /** Checked before each token; an extend already running is finished (and its token kept) first. */
  signal?: AbortSignal;
  /** Keep each step's attention rows in GenStep.attention (default false). */
  keepAttention?: boolean;
}

export interface GenerateResult {
  /** Generated ids, the eos token included when generation stopped at one. */
  ids: number[];
  steps: GenStep[];
  stopped: 'eos' | 'limit' | 'aborted' | 'callback';
}

/** Size of GenStep.top. */
export const TOP_N = 5;

/** The last row of a [T or 1, vocab] logits tensor (a view, not a copy). */
export function lastRow(t: { data: Float32Array; dims: number[] }): Float32Array {
  const vocab = t.dims[t.dims.length - 1];
  if (!vocab || t.data.length < vocab || t.data.length % vocab !== 0) throw new SamplingError('msg.engine.gen.logitsShape', { dims: t.dims.join(', '), values: t.data.length });
  return t.data.subarray(t.data.length - vocab);
}

/**
 * Generates after a prompt that is already in the engine's cache; `lastLogits` are the logits of its last
 * position and `startPosition` its length (the position the first new token takes).
 *
 * Each step: choose a token from the current logits (argmax with ties → lowest id when
 * `sampling.doSample` is false, else a seeded draw from `distribution()`), extend the engine by it, record
 * the step, call onStep, then stop on eos (the eos token is included and in the cache; 'eos' wins over a
 * false from onStep at the same token), on onStep returning false, or at maxNewTokens; otherwise continue from the extend's last logits row. So at return
 * the engine's cache holds the prompt plus exactly `ids`, and the same seed with the same logits gives the
 * same ids. Engine errors (e.g. the context limit) propagate.
 */
export async function generate(engine: GenEngine, lastLogits: Float32Array, startPosition: number, opts: GenerateOptions): Promise<GenerateResult> {
  const { maxNewTokens, sampling, seed } = opts;
  if (!(Number.isInteger(maxNewTokens) && maxNewTokens >= 0)) throw new SamplingError('msg.engine.gen.maxNewTokens', { got: maxNewTokens });
  if (!(Number.isInteger(startPosition) && startPosition >= 0)) throw new SamplingError('msg.engine.gen.startPosition', { got: startPosition });
  if (!Number.isFinite(seed)) throw new SamplingError('msg.engine.gen.seed', { got: seed });
  checkSettings(sampling);
  const vocab = lastLogits.length;
  const eos = new Set(sampling.eosIds);
  const rng = new Rng(seed);
  const ids: number[] = [];
  const steps: GenStep[] = [];
  let logits: Float32Array = lastLogits;
  for (;;) {
    if (ids.length >= maxNewTokens) return { ids, steps, stopped: 'limit' };
    if (opts.signal?.aborted) return { ids, steps, stopped: 'aborted' };
    if (logits.length !== vocab) throw new SamplingError('msg.engine.gen.rowLength', { got: logits.length, vocab });
    const id = sampling.doSample ? sampleToken(distribution(logits, sampling), rng) : argmax(logits);
    const plain = softmax(logits);
    const position = startPosition + ids.length;
    const r = await engine.extend([id]);
    const step: GenStep = { id, position, p: plain[id]!, top: topTokens(plain, TOP_N) };
    if (opts.keepAttention) {
      if (!r.attention?.length) throw new SamplingError('msg.engine.gen.noAttention');
      step.attention = r.attention.map((a) => ({ data: a.data.slice(), dims: [...a.dims] }));
    }
    ids.push(id);
    steps.push(step);
    if (opts.onStep?.(step) === false) return { ids, steps, stopped: eos.has(id) ? 'eos' : 'callback' };
    if (eos.has(id)) return { ids, steps, stopped: 'eos' };
    if (ids.length >= maxNewTokens) return { ids, steps, stopped: 'limit' };
    if (!r.logits) throw new SamplingError('msg.engine.noLogitsBuild');
    logits = lastRow(r.logits);
  }
}
