// Replace or append? The cache economics of a status bar that changes (chapter section
// "状态更新的两种实现与缓存代价"; docs/CONCEPTS.md#status-bar-economics). Notation as in the book: the
// status message is S tokens, R tokens are appended to the trajectory between two updates, the status is updated N times, a cached
// token costs α × an uncached one. Costs are in units of one uncached token.
//
// - replace: before each call that updates the status, the previous status message is removed and the new
//   one appended. Removing it invalidates every token after its old position: the R tokens appended since
//   the last update are recomputed. Book: C_replace ≈ (N−1)(1−α)R.
// - append: status messages are never removed (Claude Code's <system-reminder>); every stale status stays
//   and is read again, from the cache, on every later call. Book: C_append ≈ αSN(N−1)/2.
// Append is cheaper when αSN/2 < (1−α)R.
//
// The book's "≈" holds exactly under these assumptions (derived with simulateStatus below, block size 1):
//  (a) the R tokens of each interval were in the cache before the next update, i.e. some call saw them
//      (callsBetween ≥ 1) — otherwise no strategy reuses them and replacing loses nothing;
//  (b) only the N update calls are priced — the calls between updates re-read the stale statuses too,
//      which costs append another αS·m(N−1)(N−2)/2 for m calls per interval;
//  (c) "costs common to both" are, for update k, α(P + R(k−1)) + S: the static prefix P and the surviving
//      trajectory read from the cache, plus the new status computed;
//  (d) every status is exactly S tokens, every interval exactly R, no block rounding.
// exactStatusDifference gives the exact append − replace difference of all priced calls without (b).
import { accountMatches, totalsOf, type AccountTotals, type BlockSize, type CallAccount } from './accounting';
import { RadixTree } from './radix';
import { messageTokenCounts, type Prompt } from '../prompt/prompt';
import { CodedRangeError } from '../util/codedRangeError';

export type StatusStrategy = 'replace' | 'append';

export interface StatusParams {
  /** Tokens of one status message. */
  S: number;
  /** Tokens appended to the trajectory between two status updates. */
  R: number;
  /** Number of status updates (calls that carry a new status). */
  N: number;
  /** Cached price / uncached price, in [0, 1]. */
  alpha: number;
}

export interface StatusFormula {
  replace: number;
  append: number;
  /** The cheaper strategy by the formulas ('either' when they are equal). */
  prefer: StatusStrategy | 'either';
}

function checkParams(p: StatusParams): void {
  for (const k of ['S', 'R', 'N'] as const) {
    if (!Number.isFinite(p[k]) || p[k] < 0) throw new CodedRangeError('msg.engine.cache.paramFinite', { name: k, got: p[k] });
  }
  if (!(p.alpha >= 0 && p.alpha <= 1)) throw new CodedRangeError('msg.engine.cache.alpha', { got: p.alpha });
}

/** The book's two estimates, beyond the costs common to both strategies. */
export function statusFormula(p: StatusParams): StatusFormula {
  checkParams(p);
  // N = 0 (no update at all) would make (N − 1) negative: nothing is updated, nothing costs extra.
  const replace = p.N >= 1 ? (p.N - 1) * (1 - p.alpha) * p.R : 0;
  const append = p.N >= 1 ? (p.alpha * p.S * p.N * (p.N - 1)) / 2 : 0;
  return { replace, append, prefer: preferOf(replace, append) };
}

function preferOf(replace: number, append: number): StatusFormula['prefer'] {
  return append < replace ? 'append' : replace < append ? 'replace' : 'either';
}

/** The book's rule: append when αSN/2 < (1−α)R (the formulas divided by N − 1, so N > 1). */
export function appendIsCheaper(p: StatusParams): boolean {
  checkParams(p);
  return (p.alpha * p.S * p.N) / 2 < (1 - p.alpha) * p.R;
}

/**
 * The number of updates N* at which the two estimates cross: append is cheaper for N < N*, replace for
 * N > N*. N* = 2(1−α)R / (αS); Infinity when αS = 0 (stale statuses are free).
 */
export function crossoverUpdates(S: number, R: number, alpha: number): number {
  checkParams({ S, R, N: 0, alpha });
  const d = alpha * S;
  return d === 0 ? Infinity : (2 * (1 - alpha) * R) / d;
}

/**
 * For N updates, the suffix R* at which the estimates cross: append is cheaper for R > R*.
 * R* = αSN / (2(1−α)); Infinity when α = 1 (recomputing costs no more than reading).
 */
export function crossoverSuffix(S: number, N: number, alpha: number): number {
  checkParams({ S, R: 0, N, alpha });
  return alpha === 1 ? Infinity : (alpha * S * N) / (2 * (1 - alpha));
}

// ---- exact token-level simulation ----

export interface StatusSimOptions extends StatusParams {
  /** Static prefix (system prompt, tools, first user turn), cached before the first update. Default 0. */
  prefix?: number;
  /**
   * Calls between two updates (the agent's ordinary tool rounds), default 1. The interval's R tokens are
   * appended in this many equal chunks, each followed by a call, so the last one has seen all of them.
   * With 0, no call sees R before the next update (assumption (a) fails).
   */
  callsBetween?: number;
  /** Provider block size; the book's formulas assume 1. */
  blockSize?: BlockSize;
}

export interface StatusSimCall extends CallAccount {
  kind: 'update' | 'between';
  /** The update (1 … N) this call carries, or follows. */
  update: number;
}

export interface StrategySim {
  strategy: StatusStrategy;
  calls: StatusSimCall[];
  /** All priced calls. */
  totals: AccountTotals;
  /** Update calls only (what the book's formulas price). */
  updateTotals: AccountTotals;
  /** updateTotals.cost minus the costs common to both strategies (assumption (c)): the book's C_replace or C_append. */
  extra: number;
}

export interface StatusSimulation {
  params: Required<StatusSimOptions>;
  replace: StrategySim;
  append: StrategySim;
  formula: StatusFormula;
}

/** Sum over the N update calls of the cost both strategies pay: α(P + R(k−1)) + S for update k. */
export function commonStatusCost(p: StatusParams & { prefix?: number }): number {
  const P = p.prefix ?? 0;
  let c = 0;
  for (let k = 1; k <= p.N; k++) c += p.alpha * (P + p.R * (k - 1)) + p.S;
  return c;
}

/**
 * Exact append − replace cost difference over all priced calls (update and between calls), block size 1:
 * m = 0: αS·N(N−1)/2 (R is never cached, so replacing loses nothing);
 * m ≥ 1: αS·[N(N−1)/2 + m(N−1)(N−2)/2] − (N−1)(1−α)R.
 */
export function exactStatusDifference(p: StatusParams, callsBetween: number): number {
  checkParams(p);
  const { S, R, N, alpha } = p;
  if (N < 1) return 0;
  const stale = (N * (N - 1)) / 2 + (callsBetween > 0 ? (callsBetween * (N - 1) * (N - 2)) / 2 : 0);
  return alpha * S * stale - (callsBetween > 0 ? (N - 1) * (1 - alpha) * R : 0);
}

/** Sizes of the simulation's prompts grow like N²(S + R); refuse what would take long to compare. */
const MAX_SIM_TOKENS = 4_000_000;

/**
 * Builds the prompts both strategies send, as token ids (every status, suffix and prefix token distinct:
 * statuses change, so no two share tokens), and prices each call with the prefix-cache accounting (longest
 * prefix shared with any earlier call, found with a radix tree). An unpriced warm-up call holds the static
 * prefix, as earlier sessions would have cached it.
 */
export function simulateStatus(opts: StatusSimOptions): StatusSimulation {
  checkParams(opts);
  const params: Required<StatusSimOptions> = { prefix: 0, callsBetween: 1, blockSize: 1, ...opts };
  const { S, R, N, prefix: P, callsBetween: m } = params;
  for (const [k, v] of [['S', S], ['R', R], ['N', N], ['prefix', P], ['callsBetween', m]] as const) {
    if (!Number.isInteger(v) || v < 0) throw new CodedRangeError('msg.engine.cache.simInteger', { name: k, got: v });
  }
  const approx = N * (P + N * (S + R)) * (m + 1);
  if (approx > MAX_SIM_TOKENS) throw new CodedRangeError('msg.engine.cache.simTooLarge', { tokens: approx });

  let next = 1;
  const fresh = (n: number) => Array.from({ length: n }, () => next++);
  const prefixIds = fresh(P);
  const status = Array.from({ length: N }, () => fresh(S));
  const suffix = Array.from({ length: Math.max(0, N - 1) }, () => fresh(R));

  const simulate = (strategy: StatusStrategy): StrategySim => {
    const tree = new RadixTree();
    tree.insert(prefixIds); // warm-up, not priced
    const prompts: { ids: number[]; kind: StatusSimCall['kind']; update: number }[] = [];
    // The trajectory as the strategy keeps it, status messages included.
    let context = [...prefixIds];
    for (let k = 1; k <= N; k++) {
      if (strategy === 'replace' && k > 1) {
        const at = context.length - R - S; // [… S_{k−1} R_{k−1}] → [… R_{k−1}]
        context = [...context.slice(0, at), ...context.slice(at + S)];
      }
      context = [...context, ...status[k - 1]!];
      prompts.push({ ids: context, kind: 'update', update: k });
      if (k === N) break;
      const r = suffix[k - 1]!;
      const base = context;
      for (let j = 1; j <= m; j++) prompts.push({ ids: [...base, ...r.slice(0, Math.round((R * j) / m))], kind: 'between', update: k });
      context = [...base, ...r];
    }
    const inserts = prompts.map((p) => tree.insert(p.ids));
    const acc = accountMatches(
      inserts.map((ins, i) => ({ sent: prompts[i]!.ids.length, prefixMatch: ins.hit, bestEarlier: ins.bestEarlier === null || ins.bestEarlier === 0 ? null : ins.bestEarlier - 1 })),
      { blockSize: params.blockSize, alpha: params.alpha },
    );
    const calls = acc.calls.map((c, i): StatusSimCall => ({ ...c, kind: prompts[i]!.kind, update: prompts[i]!.update }));
    const updateTotals = totalsOf(calls.filter((c) => c.kind === 'update'));
    return { strategy, calls, totals: acc.totals, updateTotals, extra: updateTotals.cost - commonStatusCost(params) };
  };
  return { params, replace: simulate('replace'), append: simulate('append'), formula: statusFormula(params) };
}

// ---- real token counts ----

/**
 * S and R measured on a rendered prompt: S = tokens of the status message (its chat-template envelope
 * included), R = tokens of the messages that stand for one interval between updates (e.g. one phone call,
 * its result, one search and its result in the Xfinity scenario).
 */
export function statusCountsFromPrompt(prompt: Prompt, statusMessage: number, intervalMessages: readonly number[]): { S: number; R: number } {
  const counts = messageTokenCounts(prompt);
  const at = (i: number) => {
    const n = counts.messages[i];
    if (n === undefined) throw new CodedRangeError('msg.engine.cache.noMessage', { index: i, count: prompt.messageCount });
    return n;
  };
  return { S: at(statusMessage), R: intervalMessages.reduce((s, i) => s + at(i), 0) };
}

export interface StatusEconomics {
  params: StatusParams;
  formula: StatusFormula;
  /** The book's rule αSN/2 < (1−α)R. */
  appendIsCheaper: boolean;
  /** N* for these S, R, α (append is cheaper below it). */
  crossoverUpdates: number;
  /** R* for these S, N, α (append is cheaper above it). */
  crossoverSuffix: number;
}

/** Both strategies' costs and the crossovers for measured token counts. */
export function statusEconomics(p: StatusParams): StatusEconomics {
  return {
    params: { ...p },
    formula: statusFormula(p),
    appendIsCheaper: appendIsCheaper(p),
    crossoverUpdates: crossoverUpdates(p.S, p.R, p.alpha),
    crossoverSuffix: crossoverSuffix(p.S, p.N, p.alpha),
  };
}
