// Lesson `harmful-patterns`: the six context patterns of the chapter's kv-cache agent (lib/agent/patterns)
// and what each leaves for a prefix cache. The step's view renders every call of every pattern with the
// model's chat template and accounts it (lib/cache/accounting, the Economics tab's defaults: block size 256,
// α = 0.1); the callouts rank the patterns by that accounting. Nothing is typed in. No DOM.
import { breakPointAt, patternRun, PATTERN_MODES, type BreakPoint, type PatternMode } from '../agent/patterns';
import { accountCalls, DEFAULT_ALPHA, DEFAULT_BLOCK_SIZE, type Accounting } from '../cache/accounting';
import type { Prompt } from '../prompt/prompt';
import type { ChatRequest } from '../scenarios/types';
import type { Analysed } from '../state/analysed';
import { count, pct, times, type Callout, type Lesson, type LessonExtra } from './types';

const MODEL = 'kvscope-tiny';
/** The seed of the pattern runs (the Economics tab's default). */
export const PATTERN_SEED = 1;

export interface PatternModeResult {
  mode: PatternMode;
  accounting: Accounting;
  /** Per call: where the cache stops matching (null for the first call or a full match). */
  breaks: (BreakPoint | null)[];
}

/** What a 'patterns' step computes: every mode's accounting, in PATTERN_MODES order. */
export interface PatternLessonRun {
  seed: number;
  modes: PatternModeResult[];
}

/** Renders every call of every mode with `render` (the page: the worker's template; Node: buildPrompt) and accounts it. */
export async function patternLessonRun(render: (request: ChatRequest) => Promise<Prompt>, seed = PATTERN_SEED): Promise<PatternLessonRun> {
  const modes: PatternModeResult[] = [];
  for (const mode of PATTERN_MODES) {
    const run = patternRun(mode, { seed });
    const prompts: Prompt[] = [];
    for (const c of run.calls) prompts.push(await render(c.request));
    const accounting = accountCalls(
      prompts.map((p) => p.ids),
      { blockSize: DEFAULT_BLOCK_SIZE, alpha: DEFAULT_ALPHA },
    );
    const breaks = accounting.calls.map((a, i) => (a.firstDifference === null ? null : breakPointAt(prompts[i]!, a.firstDifference)));
    modes.push({ mode, accounting, breaks });
  }
  return { seed, modes };
}

/** The modes ordered by cached share, highest first (ties keep PATTERN_MODES order). */
export function rankByCacheRatio(r: PatternLessonRun): PatternModeResult[] {
  return [...r.modes].sort((a, b) => b.accounting.totals.cacheRatio - a.accounting.totals.cacheRatio);
}

function rankCallouts(_runs: readonly Analysed[], extra?: LessonExtra): Callout[] {
  const p = extra?.patterns;
  if (!p || p.modes.length === 0) return [];
  const ranked = rankByCacheRatio(p);
  const best = ranked[0]!;
  const worst = ranked[ranked.length - 1]!;
  const correct = p.modes.find((m) => m.mode === 'correct')!;
  const out: Callout[] = [
    {
      id: 'best-worst',
      template: {
        en: 'Over {calls} calls, {best} keeps the highest cached share: {bestShare} of its {bestSent} prompt tokens come from the cache. {worst} keeps the lowest: {worstShare} of {worstSent}.',
        zh: '在 {calls} 次调用中，{best} 的缓存命中比例最高：{bestSent} 个提示 token 中有 {bestShare} 来自缓存。{worst} 最低：{worstSent} 个中只有 {worstShare}。',
      },
      values: {
        calls: count(best.accounting.calls.length),
        bestShare: pct(best.accounting.totals.cacheRatio),
        bestSent: count(best.accounting.totals.sent),
        worstShare: pct(worst.accounting.totals.cacheRatio),
        worstSent: count(worst.accounting.totals.sent),
      },
      words: { best: best.mode, worst: worst.mode },
    },
    {
      id: 'cost',
      template: {
        en: 'With a cached token at {alpha} of the price and blocks of {block} tokens, {worst} costs {worstCost} token-prices against {correctCost} for {correct}: {ratio} as much.',
        zh: '当缓存 token 的价格是普通 token 的 {alpha}、块大小为 {block} 个 token 时，{worst} 花费 {worstCost} 个 token 价格，而 {correct} 只要 {correctCost}：是后者的 {ratio}。',
      },
      values: {
        alpha: pct(correct.accounting.alpha),
        block: count(correct.accounting.blockSize),
        worstCost: { value: worst.accounting.totals.cost, text: worst.accounting.totals.cost.toFixed(0) },
        correctCost: { value: correct.accounting.totals.cost, text: correct.accounting.totals.cost.toFixed(0) },
        ratio: times(worst.accounting.totals.cost / correct.accounting.totals.cost),
      },
      words: { worst: worst.mode, correct: correct.mode },
    },
  ];
  if (best.mode !== 'correct')
    out.push({
      id: 'not-correct',
      template: {
        en: 'The chapter expects append-only ({correct}) to keep the most; here it keeps {share}, below {best}.',
        zh: '按照本章，只追加（{correct}）应保留最多缓存；这里它只保留 {share}，低于 {best}。',
      },
      values: { share: pct(correct.accounting.totals.cacheRatio) },
      words: { correct: correct.mode, best: best.mode },
      missing: true,
    });
  return out;
}

function breakCallouts(_runs: readonly Analysed[], extra?: LessonExtra): Callout[] {
  const p = extra?.patterns;
  if (!p) return [];
  const out: Callout[] = [];
  for (const m of p.modes) {
    if (m.mode === 'correct') continue;
    // The first call whose cache stops before the end of the call it extends.
    const i = m.accounting.calls.findIndex((c, k) => k > 0 && m.breaks[k] !== null && c.prefixMatch < m.accounting.calls[c.bestEarlier ?? 0]!.sent);
    if (i < 0) continue;
    const c = m.accounting.calls[i]!;
    const b = m.breaks[i]!;
    out.push({
      id: `break-${m.mode}`,
      template: {
        en: '{mode}: call {call} parts from call {earlier} at token {token} (segment {segment}); {recomputed} of its {sent} tokens are computed again.',
        zh: '{mode}：第 {call} 次调用在 token {token}（片段 {segment}）处与第 {earlier} 次分叉；其 {sent} 个 token 中有 {recomputed} 个要重新计算。',
      },
      values: { call: count(i + 1), earlier: count((c.bestEarlier ?? 0) + 1), token: count(b.token), recomputed: count(c.recomputed), sent: count(c.sent) },
      words: { mode: m.mode, segment: b.segment },
    });
  }
  return out;
}

export const harmfulPatterns: Lesson = {
  slug: 'harmful-patterns',
  title: { en: 'Six ways to build the context', zh: '构建上下文的六种方式' },
  summary: {
    en: 'The same agent run six ways: append only, a timestamp in the system prompt, shuffled tools, a changing profile, a sliding window, history flattened to text — and what each leaves for the cache.',
    zh: '同一个 Agent 任务的六种做法：只追加、系统提示中放时间戳、打乱工具顺序、变化的用户画像、滑动窗口、把历史压平成文本——以及每种做法给缓存留下了多少。',
  },
  steps: [
    {
      id: 'shares',
      title: { en: 'Cache-hit share per pattern', zh: '每种模式的缓存命中比例' },
      body: {
        en: 'The same task is run six times, each time building the message list a different way. Every call is rendered with the model’s chat template and priced as a provider would: the longest prefix shared with an earlier call is cached (rounded down to whole blocks), the rest is computed again. Only the append-only pattern keeps each call a pure extension of the last.',
        zh: '同一个任务运行六次，每次用不同的方式构建消息列表。每次调用都用模型的对话模板渲染，并像服务商那样计价：与之前某次调用共享的最长前缀命中缓存（按整块向下取整），其余部分重新计算。只有“只追加”模式能让每次调用都是上一次的纯粹延伸。',
      },
      view: { kind: 'patterns', models: [MODEL], scenario: 'vancouver', context: 0 },
      callouts: rankCallouts,
    },
    {
      id: 'where',
      title: { en: 'Where each pattern breaks the prefix', zh: '每种模式在哪里打断前缀' },
      body: {
        en: 'A cache hit needs the new prompt to start with exactly the tokens of an earlier one. A timestamp or a shuffled tool list changes the very start, so almost nothing is reused; a changing profile or a sliding window changes something in the middle; flattening history into text rewrites the message that grows. Look at where each pattern first parts from its predecessor.',
        zh: '缓存命中要求新提示以某个旧提示的 token 原样开头。时间戳或被打乱的工具列表改变了最开头，所以几乎什么都复用不了；变化的用户画像或滑动窗口改变了中间的内容；把历史压平成文本则会重写那条不断增长的消息。看看每种模式最先在哪里与前一次调用分叉。',
      },
      view: { kind: 'patterns', models: [MODEL], scenario: 'vancouver', context: 0 },
      callouts: breakCallouts,
    },
  ],
};
