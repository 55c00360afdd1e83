// Everything the attention-sink panel shows for one run, derived once per run (docs/CONCEPTS.md#sink-score,
// #attention-received, #position-bias): per-layer sink scores of token 0, position bias by thirds against the
// uniform reference, and where attention rests (the top keys of the layer-mean attention received). Memoised
// per attention array, so that opening the Attention tab again, or warming the summary in idle time after a run
// (components/attention/useWarmSinkSummary), does not pay the passes over every layer's [heads, T, T] inside a
// click (issue 17: no main-thread task over 200 ms).
import type { Tensor } from '../tensor';
import { layersWithHeads, headCount } from './headLayers';
import { positionBias, uniformPositionBias, type PositionBias } from './positionBias';
import { DEFAULT_MIN_QUERY, attentionReceived, layerAttention, sinkScore, topReceivers, type SinkScore } from './sink';

/** How many keys "where attention rests" lists. */
export const TOP_RECEIVERS = 8;

export interface SinkSummary {
  /** Tokens (keys) of the run. */
  T: number;
  /** Whether the prompt is too short for the default minimum query, so minQuery was lowered to T − 1. */
  lowered: boolean;
  minQuery: number;
  /** Per layer: the sink score of key 0. */
  sinks: SinkScore[];
  /** Per layer: the position mass by thirds. */
  bias: PositionBias[];
  /** The same for uniform attention over the same query rows (null without layers). */
  uniform: PositionBias | null;
  /** The keys receiving most attention, mean over layers with a qualifying query. */
  top: { key: number; weight: number }[];
  /** Heads per layer (of the per-head layers). */
  heads: number;
  /** Per layer: true where only the head mean came back (no per-head scores). */
  meanOnly: boolean[];
  /** The layers holding per-head maps, ascending. */
  withHeads: number[];
}

/** The summary, computed (no cache). `headLayers`: the layers holding per-head maps; default read off the tensors. */
export function sinkSummary(attention: readonly Tensor[], headLayers?: readonly number[]): SinkSummary {
  const layers = attention.map((t) => layerAttention(t));
  const T = layers[0]?.keys ?? 0;
  const lowered = T <= DEFAULT_MIN_QUERY;
  const minQuery = lowered ? Math.max(1, T - 1) : DEFAULT_MIN_QUERY;
  const sinks = layers.map((a) => sinkScore(a, 0, minQuery));
  const bias = layers.map((a) => positionBias(a, minQuery));
  // The reference depends only on the query rows, T and minQuery, which all layers share.
  const uniform = layers[0] ? uniformPositionBias(layers[0], minQuery) : null;
  const received = layers.map((a) => attentionReceived(a, minQuery)).filter((r): r is Float64Array => r !== null);
  let top: { key: number; weight: number }[] = [];
  if (received.length > 0) {
    const mean = new Float64Array(T);
    for (const r of received) for (let k = 0; k < T; k++) mean[k]! += (r[k] ?? 0) / received.length;
    top = topReceivers(mean, TOP_RECEIVERS);
  }
  const withHeads = new Set(headLayers ?? layersWithHeads(attention));
  // A mean-only layer's score is of one map, the mean: no per-head scores, no sink-head count.
  const meanOnly = attention.map((_, l) => !withHeads.has(l));
  const heads = meanOnly.some(Boolean) ? headCount(attention) : Math.max(0, ...layers.map((a) => a.heads));
  return { T, lowered, minQuery, sinks, bias, uniform, top, heads, meanOnly, withHeads: [...withHeads].sort((a, b) => a - b) };
}

const cache = new WeakMap<readonly Tensor[], { key: string; value: SinkSummary }>();

/**
 * sinkSummary, remembered per attention array (a run's tensors are never mutated) and head-layer list; the
 * entry goes with the array.
 */
export function sinkSummaryOf(attention: readonly Tensor[], headLayers?: readonly number[]): SinkSummary {
  const key = headLayers ? headLayers.join(',') : '*';
  const hit = cache.get(attention);
  if (hit && hit.key === key) return hit.value;
  const value = sinkSummary(attention, headLayers);
  cache.set(attention, { key, value });
  return value;
}
