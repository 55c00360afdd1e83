// Position bias ("lost in the middle", docs/CONCEPTS.md#position-bias): mean attention mass per key
// token in the first, middle and last third of the context. Pure function over one layer's attention; no
// rendering, no I/O.

import { DEFAULT_MIN_QUERY, type LayerAttention } from './sink';

/**
 * Definition. For a layer's attention A [heads, Q, K] of a full prefill (row i = position i unless
 * `rows` says otherwise; T = K keys = the whole context 0…T−1):
 *   received(k) = mean over heads h and over queries q ≥ minQuery of A[h, q, k]
 * (a query that cannot see k contributes 0, so this is exactly sink.ts's attentionReceived), and
 *   third mean = mean of received(k) over the keys k of that third,
 * with thirds over the full context: first = [0, T/3), middle = [T/3, 2T/3), last = [2T/3, T), i.e. key k
 * is first when 3k < T, middle when T ≤ 3k < 2T, last when 3k ≥ 2T. Means are null ("n/a") when no query
 * qualifies (fewer than minQuery + 1 rows), or for a third with no keys (T < 3).
 * The book reports for Qwen3-0.6B layer 27 (its last), mean over heads: 0.0038 / 0.00053 / 0.00080 for
 * first / middle / last.
 */
export interface PositionThird {
  /** Keys [from, to). */
  from: number;
  to: number;
  keys: number;
  /** Mean per-token attention mass; null when n/a. */
  mean: number | null;
}

export interface PositionBias {
  minQuery: number;
  /** T: the context length (number of keys). */
  tokens: number;
  qualifyingQueries: number;
  first: PositionThird;
  middle: PositionThird;
  last: PositionThird;
}

/** The three key ranges of a context of T tokens: [0, ⌈T/3⌉), [⌈T/3⌉, ⌈2T/3⌉), [⌈2T/3⌉, T). */
export function thirdBounds(T: number): [[number, number], [number, number], [number, number]] {
  const b1 = Math.ceil(T / 3);
  const b2 = Math.ceil((2 * T) / 3);
  return [[0, b1], [b1, b2], [b2, T]];
}

/** Per-third means of a per-key "attention received" vector (null for all when `received` is null). */
export function thirdsOf(received: ArrayLike<number> | null, T: number): [PositionThird, PositionThird, PositionThird] {
  return thirdBounds(T).map(([from, to]) => {
    let mean: number | null = null;
    if (received && to > from) {
      let s = 0;
      for (let k = from; k < to; k++) s += received[k]!;
      mean = s / (to - from);
    }
    return { from, to, keys: to - from, mean };
  }) as [PositionThird, PositionThird, PositionThird];
}

export function positionBias(a: LayerAttention, minQuery = DEFAULT_MIN_QUERY): PositionBias {
  const T = a.keys;
  if (a.data.length !== a.heads * a.queries * T)
    throw new Error(`attention [${a.heads}, ${a.queries}, ${T}] holds ${a.data.length} values`);
  const sums = new Float64Array(T);
  let n = 0;
  for (let i = 0; i < a.queries; i++) {
    if ((a.rows ? a.rows[i]! : i) < minQuery) continue;
    n++;
    for (let h = 0; h < a.heads; h++) {
      const off = (h * a.queries + i) * T;
      for (let k = 0; k < T; k++) sums[k]! += a.data[off + k]!;
    }
  }
  const received = n > 0 && a.heads > 0 ? sums.map((s) => s / (n * a.heads)) : null;
  const [first, middle, last] = thirdsOf(received, T);
  return { minQuery, tokens: T, qualifyingQueries: received ? n : 0, first, middle, last };
}

/**
 * The position bias that evenly spread causal attention would give: the reference level for positionBias().
 * Every query at position q puts 1/(q+1) on each key k ≤ q (and 0 on later keys), so
 *   received(k) = mean over queries q ≥ minQuery (q ≥ k) of 1/(q+1)   (a query before k contributes 0),
 * and the thirds are taken exactly as in positionBias(). Depends only on the query positions (`rows`, else
 * 0…queries−1), T = `keys` and minQuery, not on heads or on the model, so it is one reference for every layer.
 * Even uniform attention favours the first third under the causal mask (every later query sees it): a third
 * above this level is attended more than uniform, below it less. Null means as in positionBias().
 * A query at position q ≥ T (no such row in a prefill) is taken to spread over the T keys it is given.
 */
export function uniformPositionBias(shape: Pick<LayerAttention, 'queries' | 'keys' | 'rows'>, minQuery = DEFAULT_MIN_QUERY): PositionBias {
  const T = shape.keys;
  // Each qualifying query adds 1/(q+1) to keys 0…q: a range update, summed through a difference array.
  const diff = new Float64Array(T + 1);
  let n = 0;
  for (let i = 0; i < shape.queries; i++) {
    const q = shape.rows ? shape.rows[i]! : i;
    if (q < minQuery) continue;
    n++;
    const last = Math.min(q, T - 1);
    const w = 1 / (last + 1);
    diff[0]! += w;
    diff[last + 1]! -= w;
  }
  let received: Float64Array | null = null;
  if (n > 0 && T > 0) {
    received = new Float64Array(T);
    let run = 0;
    for (let k = 0; k < T; k++) received[k] = (run += diff[k]!) / n;
  }
  const [first, middle, last] = thirdsOf(received, T);
  return { minQuery, tokens: T, qualifyingQueries: received ? n : 0, first, middle, last };
}
