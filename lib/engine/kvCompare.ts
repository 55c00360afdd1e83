// Both requests' K/V caches from one engine, in one of two named ways
// (docs/CONCEPTS.md#prefix-invalidation):
// - 'shared': prefill A, rewind (fork) to where A and B part, extend with B's remaining tokens. B's
//   positions before the first differing token are literally A's cache entries, so they are bit-identical.
// - 'separate': prefill A and B independently. The prefix is recomputed for B; it agrees with A's only
//   within floating-point noise (different matrix shapes, different summation order).
// Engine orchestration only: no DOM, no I/O.

import { commonPrefixLength, type LayerKv } from '../analysis/kvDiff';
import type { Tensor } from './session';
import { CodedError } from '../i18n/message';

export type CompareMode = 'shared' | 'separate';
export const COMPARE_MODES: readonly CompareMode[] = ['shared', 'separate'];

/**
 * What compareCaches needs of an engine: EngineSession has it (synchronous fork and kv), and so does a
 * thin adapter over the page's EngineClient (everything asynchronous, across the worker boundary).
 */
export interface KvEngine {
  readonly config: { numLayers: number };
  readonly length: number;
  prefill(ids: number[]): Promise<unknown>;
  extend(ids: number[]): Promise<unknown>;
  fork(length: number): unknown;
  kv(layer: number): { k: Tensor; v: Tensor } | Promise<{ k: Tensor; v: Tensor }>;
}

export interface CompareOptions {
  mode: CompareMode;
  /** Tokens per engine call (default: each sequence or suffix in one call). */
  chunk?: number;
}

export interface CachePair {
  mode: CompareMode;
  /** Per layer, [kvHeads, positions, headDim]; copies, not views of the engine's cache. */
  a: LayerKv[];
  b: LayerKv[];
  /** Where A and B part (first differing token, or the shorter length). */
  prefix: number;
  /** B positions the engine computed for B: B's length minus `prefix` in shared mode, all of B in separate mode. */
  computedB: number;
  /** Wall time of the engine calls. */
  ms: number;
}

async function snapshot(engine: KvEngine): Promise<LayerKv[]> {
  const out: LayerKv[] = [];
  for (let l = 0; l < engine.config.numLayers; l++) {
    const { k, v } = await engine.kv(l);
    out.push({ k, v });
  }
  return out;
}

async function run(engine: KvEngine, ids: number[], fromScratch: boolean, chunk: number): Promise<void> {
  for (let s = 0; s < ids.length; s += chunk) {
    const part = ids.slice(s, s + chunk);
    if (s === 0 && fromScratch) await engine.prefill(part);
    else await engine.extend(part);
  }
}

/** Runs A and B on `engine` as `opts.mode` says and returns both caches. Leaves B in the engine's cache. */
export async function compareCaches(engine: KvEngine, aIds: readonly number[], bIds: readonly number[], opts: CompareOptions): Promise<CachePair> {
  if (aIds.length === 0 || bIds.length === 0) throw new CodedError('msg.engine.compare.empty');
  const chunk = opts.chunk ?? Infinity;
  if (!(chunk >= 1)) throw new RangeError(`chunk must be ≥ 1 (got ${opts.chunk})`);
  const prefix = commonPrefixLength(aIds, bIds);
  const t0 = performance.now();
  await run(engine, [...aIds], true, chunk);
  const a = await snapshot(engine);
  let computedB: number;
  if (opts.mode === 'shared') {
    await engine.fork(prefix);
    const rest = bIds.slice(prefix);
    if (rest.length) await run(engine, rest, prefix === 0, chunk);
    computedB = rest.length;
  } else if (opts.mode === 'separate') {
    await run(engine, [...bIds], true, chunk);
    computedB = bIds.length;
  } else throw new Error(`unknown compare mode ${String(opts.mode)} (known: ${COMPARE_MODES.join(', ')})`);
  if (engine.length !== bIds.length) throw new CodedError('msg.engine.compare.lengthAfterB', { held: engine.length, expected: bIds.length });
  return { mode: opts.mode, a, b: await snapshot(engine), prefix, computedB, ms: performance.now() - t0 };
}
