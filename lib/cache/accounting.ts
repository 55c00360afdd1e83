// Prefix-cache accounting over the calls of one agent run: how many tokens each call sends, how many a
// provider's prefix cache could serve, and what that costs. Pure functions over token id arrays.
//
// Model (docs/CONCEPTS.md#prefix-cache-accounting): a cached token is one whose K/V a previous request
// already computed, which needs the whole token prefix up to and including it to be identical. So a
// call's reusable prefix is its longest common token prefix with ANY earlier call of the same run
// (providers keep more than the last request). Providers count cache hits in whole blocks (the book's
// Kimi runs report multiples of 256; vLLM's default block is 16), so the reusable prefix is rounded DOWN
// to the block size.
//
// Decisions, stated once:
// - Only earlier prompts populate the cache, not the tokens the model generated in reply (some engines
//   also keep those; counting them would only help append-only runs further).
// - A call identical to an earlier one counts as fully cached; real engines recompute at least the last
//   token to get logits. Not modelled: it is one token and never happens in the runs kvscope builds.
// - Cost is in units of one uncached input token: cached tokens cost α each (default 0.1, the ~1/10 price
//   at Anthropic, DeepSeek, GPT-5), recomputed ones 1. Output tokens are not counted.
import { CodedRangeError } from '../util/codedRangeError';

export const BLOCK_SIZES = [1, 16, 64, 256] as const;
export type BlockSize = (typeof BLOCK_SIZES)[number];
export const DEFAULT_BLOCK_SIZE: BlockSize = 256;
export const DEFAULT_ALPHA = 0.1;

export interface AccountingOptions {
  /** Provider block size: cached prefixes are rounded down to a multiple of it. */
  blockSize?: BlockSize;
  /** Price of a cached token relative to an uncached one, in [0, 1]. */
  alpha?: number;
}

export interface CallAccount {
  index: number;
  /** Tokens the call sends. */
  sent: number;
  /** Longest common token prefix with any earlier call, before block rounding. */
  prefixMatch: number;
  /** Tokens a prefix cache serves: prefixMatch rounded down to the block size. */
  cached: number;
  /** sent − cached: tokens whose K/V must be computed again. */
  recomputed: number;
  /**
   * First token index where this call differs from its best earlier call (equal to prefixMatch); when the
   * call merely extends that call, it is where the earlier one ended. null for the first call.
   */
  firstDifference: number | null;
  /** The earlier call sharing the longest prefix (the latest one among ties); null for the first call. */
  bestEarlier: number | null;
  /** α·cached + recomputed, in units of one uncached token. */
  cost: number;
}

export interface AccountTotals {
  sent: number;
  cached: number;
  recomputed: number;
  cost: number;
  /** What the calls would cost with no cache at all (= sent). */
  uncachedCost: number;
  /** cached / sent (0 for an empty run). */
  cacheRatio: number;
}

export interface Accounting {
  blockSize: BlockSize;
  alpha: number;
  calls: CallAccount[];
  totals: AccountTotals;
}

export function isBlockSize(n: number): n is BlockSize {
  return (BLOCK_SIZES as readonly number[]).includes(n);
}

/** Length of the longest common prefix of two id arrays. */
export function commonPrefix(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/** `n` rounded down to a multiple of `blockSize`. */
export function roundToBlock(n: number, blockSize: number): number {
  return Math.floor(n / blockSize) * blockSize;
}

function checkOptions(opts: AccountingOptions): { blockSize: BlockSize; alpha: number } {
  const blockSize = opts.blockSize ?? DEFAULT_BLOCK_SIZE;
  const alpha = opts.alpha ?? DEFAULT_ALPHA;
  if (!isBlockSize(blockSize)) throw new CodedRangeError('msg.engine.cache.blockSizeOf', { sizes: BLOCK_SIZES.join(', '), got: blockSize });
  if (!(alpha >= 0 && alpha <= 1)) throw new CodedRangeError('msg.engine.cache.alpha', { got: alpha });
  return { blockSize, alpha };
}

/** Sums of a list of call accounts (also used for a subset of calls, e.g. only the status updates). */
export function totalsOf(calls: readonly CallAccount[]): AccountTotals {
  const t = { sent: 0, cached: 0, recomputed: 0, cost: 0 };
  for (const c of calls) {
    t.sent += c.sent;
    t.cached += c.cached;
    t.recomputed += c.recomputed;
    t.cost += c.cost;
  }
  return { ...t, uncachedCost: t.sent, cacheRatio: t.sent ? t.cached / t.sent : 0 };
}

/** A call's prefix match against the earlier calls, however it was found (brute force here, a radix tree elsewhere). */
export interface PrefixMatch {
  sent: number;
  prefixMatch: number;
  bestEarlier: number | null;
}

/** Accounting from already-found prefix matches (call i's entry at index i). */
export function accountMatches(matches: readonly PrefixMatch[], opts: AccountingOptions = {}): Accounting {
  const { blockSize, alpha } = checkOptions(opts);
  const calls = matches.map((m, index): CallAccount => {
    const cached = roundToBlock(m.prefixMatch, blockSize);
    const recomputed = m.sent - cached;
    return {
      index,
      sent: m.sent,
      prefixMatch: m.prefixMatch,
      cached,
      recomputed,
      firstDifference: m.bestEarlier === null ? null : m.prefixMatch,
      bestEarlier: m.bestEarlier,
      cost: alpha * cached + recomputed,
    };
  });
  return { blockSize, alpha, calls, totals: totalsOf(calls) };
}

/**
 * Accounts each call against every earlier one by direct comparison (O(calls² × prefix)): the reference
 * implementation, fine for agent runs of tens of calls. lib/cache/radix.ts finds the same matches
 * incrementally (RadixTree.insert), and its block hashes give the block-rounded cached counts.
 */
export function accountCalls(calls: readonly (readonly number[])[], opts: AccountingOptions = {}): Accounting {
  const matches = calls.map((ids, index): PrefixMatch => {
    let best: number | null = null;
    let match = 0;
    for (let j = 0; j < index; j++) {
      const m = commonPrefix(ids, calls[j]!);
      if (best === null || m >= match) {
        best = j;
        match = m;
      }
    }
    return { sent: ids.length, prefixMatch: match, bestEarlier: best };
  });
  return accountMatches(matches, opts);
}
