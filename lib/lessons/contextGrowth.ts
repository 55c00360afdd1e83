// Lesson `context-growth`: the seed run log (lib/lessons/seedRunLog: the chapter's translation experiment, one
// agent whose prompt grows call after call) as the Data tab reads it (lib/io/runlog parseRunLog) and accounts
// it (lib/analysis/contextGrowth: per call the prompt, and what an append-only prefix cache would serve at α).
// No model run: the step has no models, the view is the growth chart, and the callouts read the accounting.
import { contextGrowth, type ContextGrowth } from '../analysis/contextGrowth';
import { parseRunLog, type RunLog } from '../io/runlog';
import { SEED_RUN_LOG_JSON } from './seedRunLog';
import { count, pct, times, type Callout, type CalloutValue, type Lesson } from './types';

/** Price of a cached input token relative to an uncached one (the Data tab's default). */
export const GROWTH_ALPHA = 0.1;

let cached: { log: RunLog; growth: ContextGrowth } | null = null;

/** The seed log and its accounting at GROWTH_ALPHA (parsed once). */
export function seedGrowth(): { log: RunLog; growth: ContextGrowth } {
  if (!cached) {
    const r = parseRunLog(SEED_RUN_LOG_JSON);
    if (!r.ok) throw new Error(`the seed run log does not parse: ${r.error}`);
    cached = { log: r.log, growth: contextGrowth(r.log, { alpha: GROWTH_ALPHA }) };
  }
  return cached;
}

const cost = (x: number): CalloutValue => ({ value: x, text: x.toFixed(0) });

function growthCallouts(): Callout[] {
  const { growth } = seedGrowth();
  const s = growth.summary;
  const first = growth.rows[0]!;
  const rows = growth.rows;
  // Calls whose prompt is larger than the call before: how steadily the list grows.
  const grew = rows.filter((r, i) => i > 0 && r.promptTokens > rows[i - 1]!.promptTokens).length;
  return [
    {
      id: 'growth',
      template: {
        en: 'The first call sends {first} prompt tokens; the largest, call {peakAt} of {calls}, sends {peak}: {ratio} as many. {grew} of the {later} later calls send more than the call before.',
        zh: '第一次调用发送 {first} 个提示 token；最大的是 {calls} 次中的第 {peakAt} 次，发送 {peak} 个：是第一次的 {ratio}。之后的 {later} 次调用中有 {grew} 次比前一次发送得更多。',
      },
      values: { first: count(first.promptTokens), peakAt: count(s.peakIndex), calls: count(s.calls), peak: count(s.peakPromptTokens), ratio: times(s.peakPromptTokens / first.promptTokens), grew: count(grew), later: count(rows.length - 1) },
    },
    {
      id: 'total',
      template: {
        en: 'Over all {calls} calls the agent sends {prompt} prompt tokens and gets {completion} back: the model reads the growing history again on every call.',
        zh: '在全部 {calls} 次调用中，Agent 共发送 {prompt} 个提示 token，收回 {completion} 个：模型每次调用都要把不断增长的历史再读一遍。',
      },
      values: { calls: count(s.calls), prompt: count(s.promptTokens), completion: count(s.completionTokens) },
    },
  ];
}

function cacheCallouts(): Callout[] {
  const { growth } = seedGrowth();
  const s = growth.summary;
  return [
    {
      id: 'cache',
      template: {
        en: 'If each call reused the previous call in full (an append-only prefix cache), {cached} of the {prompt} prompt tokens ({cachedShare}) would come from the cache.',
        zh: '如果每次调用都完整复用上一次调用（只追加的前缀缓存），{prompt} 个提示 token 中会有 {cached} 个（{cachedShare}）来自缓存。',
      },
      values: { cached: count(s.cachedTokens), prompt: count(s.promptTokens), cachedShare: pct(s.promptTokens > 0 ? s.cachedTokens / s.promptTokens : 0) },
    },
    {
      id: 'saved',
      template: {
        en: 'With a cached token at α = {alpha} of the price, the input costs {costCached} token-prices instead of {costUncached}: {saved} saved ({savedShare}). This is an upper bound: no block rounding, no eviction, no edit to earlier messages.',
        zh: '当缓存 token 的价格为 α = {alpha} 时，输入只需 {costCached} 个 token 价格，而不是 {costUncached}：节省 {saved}（{savedShare}）。这是上限：不考虑按块取整、缓存淘汰，也不修改之前的消息。',
      },
      values: { alpha: pct(growth.alpha), costCached: cost(s.costCached), costUncached: cost(s.costUncached), saved: cost(s.saved), savedShare: pct(s.savedFraction) },
    },
  ];
}

export const contextGrowthLesson: Lesson = {
  slug: 'context-growth',
  title: { en: 'How the context grows', zh: '上下文如何增长' },
  summary: {
    en: 'A real agent run from the chapter, call by call: the prompt grows from a couple of thousand tokens to tens of thousands, and a prefix cache is what keeps it affordable.',
    zh: '本章中一次真实的 Agent 运行，逐次调用来看：提示从几千个 token 增长到几万个，而前缀缓存让它的开销保持在可承受的范围内。',
  },
  steps: [
    {
      id: 'grows',
      title: { en: 'Every call re-sends the history', zh: '每次调用都重发历史' },
      body: {
        en: 'This log comes from the chapter’s translation experiment: one agent translating a long document part by part, keeping every earlier part and answer in its messages. Each bar is one call’s prompt; the line is the running total of tokens. Nothing is forgotten, so each prompt holds all the ones before it.',
        zh: '这份日志来自本章的翻译实验：一个 Agent 分段翻译一篇长文档，把之前的每一段原文和译文都留在消息里。每根柱子是一次调用的提示，折线是 token 的累计总数。什么都没有丢掉，所以每次的提示都包含之前的全部提示。',
      },
      view: { kind: 'growth', models: [], scenario: 'vancouver', context: 'last' },
      callouts: growthCallouts,
    },
    {
      id: 'cache',
      title: { en: 'What a prefix cache saves', zh: '前缀缓存能省下多少' },
      body: {
        en: 'Because the history is only appended to, each call starts with exactly the previous call and its answer. A provider’s prefix cache can serve that part at a fraction α of the price; only the new part is computed. The hatched part of each bar is what such a cache would serve.',
        zh: '因为历史只被追加，每次调用都以上一次调用及其回答原样开头。服务商的前缀缓存可以用 α 倍的价格提供这一部分，只有新增的部分需要计算。每根柱子中带斜线的部分就是这样的缓存能提供的部分。',
      },
      view: { kind: 'growth', models: [], scenario: 'vancouver', context: 'last' },
      callouts: cacheCallouts,
    },
  ],
};
