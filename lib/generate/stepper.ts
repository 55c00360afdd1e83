// The token stepper's arithmetic, kept out of the view: which cache operation moves the cursor (one
// extend for any step or jump forward, one fork for any step or jump back), where messages start, the
// next-token figures of one logits row, and one query row's attention. The cursor c is the number of
// tokens in the cache; the "current query" is the token at position c − 1. Pure: no DOM, no Node APIs.
import type { Span } from '../prompt/prompt';
import { reduceHeads, type HeadReduction } from '../analysis/attentionView';
import { softmax, topTokens, type TopToken } from './sampling';

/** The one cache operation that takes a cache of `from` tokens of `seq` to `to` tokens. */
export type Move = { kind: 'extend'; start: number; ids: number[] } | { kind: 'fork'; length: number } | { kind: 'none' };

/**
 * Forward: ONE extend with seq[from … to) (a step is the case to = from + 1, a jump a chunk of several
 * tokens). Back: ONE fork to `to` (the cache keeps its first `to` positions; nothing is recomputed).
 * Throws when `to` is outside 0…seq.length or `from` outside 0…seq.length.
 */
export function planMove(seq: readonly number[], from: number, to: number): Move {
  for (const [name, v] of [['from', from], ['to', to]] as const) {
    if (!Number.isInteger(v) || v < 0 || v > seq.length) throw new Error(`${name} = ${v} is outside 0…${seq.length}`);
  }
  if (to > from) return { kind: 'extend', start: from, ids: seq.slice(from, to) };
  if (to < from) return { kind: 'fork', length: to };
  return { kind: 'none' };
}

/** Token positions where a new message starts (spans whose message differs from the span before), ascending; 0 included. */
export function messageStarts(spans: readonly Span[]): number[] {
  const out: number[] = [];
  let prev: number | undefined;
  for (const s of spans) {
    if (out.length === 0 || s.message !== prev) out.push(s.start);
    prev = s.message;
  }
  return out;
}

/**
 * Cursor for "previous message boundary": the largest start s with min ≤ s < c (the cache then ends just
 * before that message), or `min` when there is none.
 */
export function prevBoundary(starts: readonly number[], c: number, min = 1): number {
  let best = min;
  for (const s of starts) if (s >= min && s < c && s > best) best = s;
  return Math.min(best, c);
}

/** Cursor for "next message boundary": the smallest start s > c, or `max` (the end) when there is none. */
export function nextBoundary(starts: readonly number[], c: number, max: number): number {
  for (const s of starts) if (s > c && s <= max) return s;
  return Math.max(c, max);
}

export interface NextToken {
  /** The plain softmax's top k (descending; ties → lower id). */
  top: TopToken[];
  /** The token that actually comes next, when known: its probability and rank (1 = most likely; ties share the better rank). */
  actual: { id: number; p: number; rank: number } | null;
}

/** Next-token figures from one logits row: plain softmax top k, and the actual next token's p and rank. */
export function nextTokenStats(logits: ArrayLike<number>, actualId: number | null, k = 5): NextToken {
  const p = softmax(logits);
  let actual: NextToken['actual'] = null;
  if (actualId !== null) {
    if (!(Number.isInteger(actualId) && actualId >= 0 && actualId < p.length)) throw new Error(`token id ${actualId} outside the vocabulary of ${p.length}`);
    const pa = p[actualId]!;
    let rank = 1;
    for (let i = 0; i < p.length; i++) if (p[i]! > pa) rank++;
    actual = { id: actualId, p: pa, rank };
  }
  return { top: topTokens(p, k), actual };
}

/**
 * Row r of one layer's attention [heads, R, K], its first `keys` keys, as [heads, keys] (copied). For the
 * query at absolute position q, keys = q + 1: the causal row without the masked future.
 */
export function attentionRow(a: { data: Float32Array; dims: number[] }, r: number, keys: number): Float32Array {
  if (a.dims.length !== 3) throw new Error(`attention must be [heads, rows, keys], got [${a.dims}]`);
  const [H, R, K] = a.dims as [number, number, number];
  if (!(r >= 0 && r < R)) throw new Error(`row ${r} outside 0…${R - 1}`);
  if (!(keys >= 1 && keys <= K)) throw new Error(`${keys} keys, the tensor has ${K}`);
  if (a.data.length !== H * R * K) throw new Error(`attention [${a.dims}] holds ${a.data.length} values`);
  const out = new Float32Array(H * keys);
  for (let h = 0; h < H; h++) out.set(a.data.subarray((h * R + r) * K, (h * R + r) * K + keys), h * keys);
  return out;
}

/** One query row [heads, keys] reduced over heads (lib/analysis reduceHeads: mean, max or one head): keys values. */
export function reduceRow(row: Float32Array, heads: number, how: HeadReduction): Float32Array {
  if (!(heads > 0) || row.length % heads !== 0) throw new Error(`${row.length} values do not split into ${heads} heads`);
  return reduceHeads({ data: row, dims: [heads, 1, row.length / heads] }, how).data;
}
