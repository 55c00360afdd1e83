// The one sink score (mean attention on a key over qualifying queries) with its uniform baseline, and where
// attention rests; defined in docs/CONCEPTS.md#sink-score. Pure functions over attention tensors; no
// rendering, no I/O.

import type { Tensor } from '../tensor';

export const DEFAULT_MIN_QUERY = 16;
/** Gu et al.'s threshold for calling a head a sink head. */
export const SINK_HEAD_THRESHOLD = 0.3;

/**
 * Attention of one layer as [heads, queries, keys]; `rows[i]` is the absolute position of query row i
 * (defaults to 0…queries-1, i.e. a full prefill from position 0).
 */
export interface LayerAttention {
  data: Float32Array;
  heads: number;
  queries: number;
  keys: number;
  rows?: number[];
}

/** Views a per-head attention tensor ([H, Q, K]) or a head-reduced one ([Q, K]) as a LayerAttention. */
export function layerAttention(t: Tensor, rows?: number[]): LayerAttention {
  if (t.dims.length === 3) return { data: t.data, heads: t.dims[0]!, queries: t.dims[1]!, keys: t.dims[2]!, rows };
  if (t.dims.length === 2) return { data: t.data, heads: 1, queries: t.dims[0]!, keys: t.dims[1]!, rows };
  throw new Error(`attention tensor must be [heads, queries, keys] or [queries, keys], got [${t.dims}]`);
}

export interface SinkScore {
  key: number;
  minQuery: number;
  /** Per head; null when no query qualifies. */
  perHead: (number | null)[];
  headMean: number | null;
  maxHead: number | null;
  maxHeadIndex: number | null;
  /** Mean of 1/(q+1) over the same queries: what evenly spread attention would give. */
  uniformBaseline: number | null;
  /** Heads whose score exceeds SINK_HEAD_THRESHOLD. */
  sinkHeads: number;
  qualifyingQueries: number;
}

/**
 * Accumulates the sink score over query rows given in pieces (e.g. a long prompt prefilled in chunks),
 * so that memory stays bounded; one piece gives exactly sinkScore().
 */
export class SinkAccumulator {
  private sums: number[] | null = null;
  private base = 0;
  private n = 0;
  constructor(readonly key = 0, readonly minQuery = DEFAULT_MIN_QUERY) {}

  add(a: LayerAttention): this {
    const from = Math.max(this.key + 1, this.minQuery);
    this.sums ??= Array(a.heads).fill(0);
    if (this.sums.length !== a.heads) throw new Error(`attention pieces disagree on heads: ${this.sums.length} vs ${a.heads}`);
    if (this.key >= a.keys) return this;
    for (let i = 0; i < a.queries; i++) {
      const q = a.rows ? a.rows[i]! : i;
      if (q < from) continue;
      for (let h = 0; h < a.heads; h++) this.sums[h]! += a.data[(h * a.queries + i) * a.keys + this.key]!;
      this.base += 1 / (q + 1);
      this.n++;
    }
    return this;
  }

  result(): SinkScore {
    const heads = this.sums?.length ?? 0;
    const n = this.n;
    if (n === 0 || !this.sums) {
      return { key: this.key, minQuery: this.minQuery, perHead: Array(heads).fill(null), headMean: null, maxHead: null, maxHeadIndex: null, uniformBaseline: null, sinkHeads: 0, qualifyingQueries: 0 };
    }
    const perHead = this.sums.map((s) => s / n);
    const maxHead = Math.max(...perHead);
    return {
      key: this.key,
      minQuery: this.minQuery,
      perHead,
      headMean: perHead.reduce((x, y) => x + y, 0) / perHead.length,
      maxHead,
      maxHeadIndex: perHead.indexOf(maxHead),
      uniformBaseline: this.base / n,
      sinkHeads: perHead.filter((x) => x > SINK_HEAD_THRESHOLD).length,
      qualifyingQueries: n,
    };
  }
}

/** sinkScore(k) = mean of A[q, k] over queries q ≥ max(k + 1, minQuery), per head (docs/CONCEPTS.md#sink-score). */
export function sinkScore(a: LayerAttention, key = 0, minQuery = DEFAULT_MIN_QUERY): SinkScore {
  return new SinkAccumulator(key, minQuery).add(a).result();
}

/**
 * Attention received by each key: mean over heads and over queries q ≥ minQuery of A[q, k] (rows that
 * cannot see k count as 0, as in training/py/evaluate.py's "where attention rests"). Accepts pieces.
 */
export class ReceivedAccumulator {
  private sums = new Float64Array(0);
  private d = 0;
  constructor(readonly minQuery = DEFAULT_MIN_QUERY) {}

  add(a: LayerAttention): this {
    if (a.keys > this.sums.length) {
      const grown = new Float64Array(a.keys);
      grown.set(this.sums);
      this.sums = grown;
    }
    for (let i = 0; i < a.queries; i++) {
      if ((a.rows ? a.rows[i]! : i) < this.minQuery) continue;
      for (let h = 0; h < a.heads; h++) {
        const off = (h * a.queries + i) * a.keys;
        for (let k = 0; k < a.keys; k++) this.sums[k]! += a.data[off + k]!;
      }
      this.d += a.heads;
    }
    return this;
  }

  result(): Float64Array | null {
    if (this.d === 0) return null;
    return this.sums.map((x) => x / this.d);
  }
}

export function attentionReceived(a: LayerAttention, minQuery = DEFAULT_MIN_QUERY): Float64Array | null {
  return new ReceivedAccumulator(minQuery).add(a).result();
}

/** The `n` keys receiving the most attention, highest first. */
export function topReceivers(received: Float64Array, n: number): { key: number; weight: number }[] {
  return [...received]
    .map((weight, key) => ({ key, weight }))
    .sort((x, y) => y.weight - x.weight || x.key - y.key)
    .slice(0, n);
}
