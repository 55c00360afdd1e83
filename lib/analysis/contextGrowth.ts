// Context growth of an imported run log: per call the prompt an agent sent, how the context grew, and what an
// append-only prefix cache would have saved. Pure; runs in Node and in Web Workers.

import { runPeak, type RunLog } from '../io/runlog';
import type { Params, StringKey } from '../i18n';
import { CodedError } from '../i18n/message';

export interface GrowthOptions {
  /** Price of a cached input token relative to an uncached one (0…1). Default 0.1. */
  alpha?: number;
  /** A model's context window in tokens: reports the first call whose prompt + completion exceeds it. */
  contextWindow?: number;
  /** Price of an output token in units of one uncached input token; output is priced only when given. */
  outputPrice?: number;
}

export interface GrowthRow {
  /** 1-based position of the call in the log. */
  index: number;
  agent: string;
  promptTokens: number;
  completionTokens: number;
  /** Prompt + completion tokens of all calls so far (all agents), this call included. */
  cumulativeTokens: number;
  /** Prompt tokens an append-only prefix cache would have served (see contextGrowth). */
  cachedTokens: number;
  /** promptTokens − cachedTokens. */
  uncachedTokens: number;
  /** Input cost without a cache: promptTokens (units of one uncached input token). */
  costUncached: number;
  /** Input cost with the cache: uncachedTokens + α · cachedTokens. */
  costCached: number;
  /** Whether prompt + completion exceeds the context window (false when no window was given). */
  overWindow: boolean;
}

export interface AgentSeries {
  agent: string;
  /** 1-based indices of this agent's calls in the log. */
  indices: number[];
  calls: number;
  peakPromptTokens: number;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  costUncached: number;
  costCached: number;
}

export interface GrowthSummary {
  calls: number;
  /** The largest prompt of any call, and the (1-based) index of its first occurrence. */
  peakPromptTokens: number;
  peakIndex: number;
  /** The agent of that call: the peak is the run's, whichever agent reached it. */
  peakAgent: string;
  /** The file's own main_context_peak when it gives one, and whether it equals peakPromptTokens. */
  fileContextPeak?: number;
  fileContextPeakMatches?: boolean;
  /** When it differs: the agent whose own peak the file states (a manager's, say), if one's is. */
  fileContextPeakAgent?: string;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  /** Input cost in units of one uncached input token: without a cache, with it, and the difference. */
  costUncached: number;
  costCached: number;
  saved: number;
  /** saved / costUncached (0 when nothing was sent). */
  savedFraction: number;
  /** Output tokens, listed apart; priced (outputPrice × completionTokens) only when a price was given. */
  outputTokens: number;
  outputCost?: number;
  contextWindow?: number;
  /** First call (1-based) whose prompt + completion exceeds the window; null if none does or no window. */
  windowCrossedAt: number | null;
}

export interface ContextGrowth {
  alpha: number;
  rows: GrowthRow[];
  summary: GrowthSummary;
  agents: AgentSeries[];
}

/** Options out of range (the run-log view's α, context window, output price); coded for the page's language. */
export class GrowthError extends CodedError {
  constructor(key: StringKey, params?: Params) {
    super(key, params);
    this.name = 'GrowthError';
  }
}

/**
 * Per call and in total: prompt growth and the savings of an append-only prefix cache.
 *
 * Cache model: each agent keeps one conversation that only grows, so a call can reuse, at α times the
 * uncached price, the previous call *of the same agent* in full — its prompt plus its completion — capped at
 * this call's prompt: cached = min(prevPrompt + prevCompletion, promptTokens); an agent's first call is all
 * uncached. This is an upper bound of what a provider's prefix cache serves (no block rounding, no eviction,
 * no edits to earlier messages); costs are in units of one uncached input token.
 */
export function contextGrowth(log: RunLog, opts: GrowthOptions = {}): ContextGrowth {
  const alpha = opts.alpha ?? 0.1;
  if (!(alpha >= 0 && alpha <= 1)) throw new GrowthError('msg.engine.growth.alpha', { got: alpha });
  const window = opts.contextWindow;
  if (window !== undefined && !(Number.isInteger(window) && window > 0)) throw new GrowthError('msg.engine.growth.window', { got: window });
  if (opts.outputPrice !== undefined && !(opts.outputPrice >= 0 && Number.isFinite(opts.outputPrice))) throw new GrowthError('msg.engine.growth.outputPrice', { got: opts.outputPrice });

  const prev = new Map<string, number>();
  const series = new Map<string, AgentSeries>();
  const rows: GrowthRow[] = [];
  let cumulative = 0;
  let windowCrossedAt: number | null = null;
  log.calls.forEach((c, i) => {
    const index = i + 1;
    cumulative += c.promptTokens + c.completionTokens;
    const cachedTokens = Math.min(prev.get(c.agent) ?? 0, c.promptTokens);
    prev.set(c.agent, c.promptTokens + c.completionTokens);
    const uncachedTokens = c.promptTokens - cachedTokens;
    const costCached = uncachedTokens + alpha * cachedTokens;
    const overWindow = window !== undefined && c.promptTokens + c.completionTokens > window;
    if (overWindow && windowCrossedAt === null) windowCrossedAt = index;
    rows.push({ index, agent: c.agent, promptTokens: c.promptTokens, completionTokens: c.completionTokens, cumulativeTokens: cumulative, cachedTokens, uncachedTokens, costUncached: c.promptTokens, costCached, overWindow });
    let s = series.get(c.agent);
    if (!s) series.set(c.agent, (s = { agent: c.agent, indices: [], calls: 0, peakPromptTokens: 0, promptTokens: 0, completionTokens: 0, cachedTokens: 0, costUncached: 0, costCached: 0 }));
    s.indices.push(index);
    s.calls++;
    s.peakPromptTokens = Math.max(s.peakPromptTokens, c.promptTokens);
    s.promptTokens += c.promptTokens;
    s.completionTokens += c.completionTokens;
    s.cachedTokens += cachedTokens;
    s.costUncached += c.promptTokens;
    s.costCached += costCached;
  });

  let peakPromptTokens = 0;
  let peakIndex = 0;
  let promptTokens = 0;
  let completionTokens = 0;
  let cachedTokens = 0;
  let costCached = 0;
  for (const r of rows) {
    if (r.promptTokens > peakPromptTokens || peakIndex === 0) {
      peakPromptTokens = r.promptTokens;
      peakIndex = r.index;
    }
    promptTokens += r.promptTokens;
    completionTokens += r.completionTokens;
    cachedTokens += r.cachedTokens;
    costCached += r.costCached;
  }
  const saved = promptTokens - costCached;
  const summary: GrowthSummary = {
    calls: rows.length,
    peakPromptTokens,
    peakIndex,
    peakAgent: rows[peakIndex - 1]?.agent ?? '',
    promptTokens,
    completionTokens,
    cachedTokens,
    costUncached: promptTokens,
    costCached,
    saved,
    savedFraction: promptTokens > 0 ? saved / promptTokens : 0,
    outputTokens: completionTokens,
    windowCrossedAt,
  };
  if (log.mainContextPeak !== undefined) {
    summary.fileContextPeak = log.mainContextPeak;
    summary.fileContextPeakMatches = log.mainContextPeak === peakPromptTokens;
    const owner = runPeak(log).statedAgent;
    if (owner !== undefined) summary.fileContextPeakAgent = owner;
  }
  if (opts.outputPrice !== undefined) summary.outputCost = opts.outputPrice * completionTokens;
  if (window !== undefined) summary.contextWindow = window;
  return { alpha, rows, summary, agents: [...series.values()] };
}
