// Lesson `status-bar-cost`: replace the status message in place, or append a new one each time? S and R are
// measured on the prompt the step runs (the Xfinity with-status scenario as the model reads it, as the
// Economics tab measures them: lib/cache/statusEconomics statusCountsFromPrompt); N and α are the tab's
// defaults. The callouts read the book's formulas, the crossover N* and the token-level simulation
// (simulateStatus) for those numbers; nothing is typed in. No DOM.
import { simulateStatus, statusCountsFromPrompt, statusEconomics, type StatusEconomics, type StatusSimulation } from '../cache/statusEconomics';
import { messageTokenCounts } from '../prompt/prompt';
import { scenarioRegions, scenarioRequest } from '../scenarios';
import type { Analysed } from '../state/analysed';
import { count, pct, type Callout, type CalloutValue, type Lesson } from './types';

const MODEL = 'kvscope-tiny';
const SCENARIO = 'xfinity:with-status';
/** The Economics tab's defaults: the scenario's status counts three phone calls (three updates), α = 0.1, one call between updates. */
export const STATUS_N = 3;
export const STATUS_ALPHA = 0.1;
export const STATUS_CALLS_BETWEEN = 1;

const REGIONS = scenarioRegions('xfinity', 'with-status');
const regionOf = (id: string) => REGIONS.find((r) => r.id === id)?.messages ?? [];
/** The status bar message; one interval = the first phone call and its result, the first search and its result. */
export const STATUS_MESSAGE = regionOf('status_bar')[0] ?? scenarioRequest('xfinity', 'with-status').messages.length - 1;
export const STATUS_INTERVAL = [...regionOf('phone_history').slice(0, 2), ...regionOf('search_distractors').slice(0, 2)].sort((a, b) => a - b);

export interface StatusLessonNumbers {
  S: number;
  R: number;
  /** Static prefix: the tools block, the system prompt and the task. */
  P: number;
  economics: StatusEconomics;
  sim: StatusSimulation;
}

/** S, R and P measured on the run's prompt; the formulas and the simulation for them at STATUS_N, STATUS_ALPHA. */
export function statusNumbers(run: Analysed, N = STATUS_N): StatusLessonNumbers {
  const { S, R } = statusCountsFromPrompt(run.prompt, STATUS_MESSAGE, STATUS_INTERVAL);
  const c = messageTokenCounts(run.prompt);
  const P = c.tools + (c.messages[0] ?? 0) + (c.messages[1] ?? 0);
  const params = { S, R, N, alpha: STATUS_ALPHA };
  return { S, R, P, economics: statusEconomics(params), sim: simulateStatus({ ...params, prefix: P, callsBetween: STATUS_CALLS_BETWEEN }) };
}

const cost = (x: number): CalloutValue => ({ value: x, text: x.toFixed(1) });

function formulaCallouts([run]: readonly Analysed[]): Callout[] {
  const n = statusNumbers(run!);
  const f = n.economics.formula;
  const values = { S: count(n.S), R: count(n.R), N: count(STATUS_N), alpha: pct(STATUS_ALPHA), replace: cost(f.replace), append: cost(f.append) };
  return [
    {
      id: 'measured',
      template: {
        en: 'In this prompt the status message is S = {S} tokens, and one interval between two updates (a phone call and its result, a search and its result) adds R = {R} tokens.',
        zh: '在这个提示中，状态消息有 S = {S} 个 token；两次更新之间的一个间隔（一次通话及其结果、一次搜索及其结果）增加 R = {R} 个 token。',
      },
      values: { S: values.S, R: values.R },
    },
    {
      id: 'formulas',
      template:
        f.prefer === 'append'
          ? {
              en: 'With N = {N} updates and cached tokens at α = {alpha} of the price: replacing costs (N−1)(1−α)R = {replace} token-prices, appending αSN(N−1)/2 = {append}. Appending is cheaper here.',
              zh: '更新 N = {N} 次、缓存 token 价格为 α = {alpha} 时：替换的代价是 (N−1)(1−α)R = {replace} 个 token 价格，追加是 αSN(N−1)/2 = {append}。这里追加更便宜。',
            }
          : f.prefer === 'replace'
            ? {
                en: 'With N = {N} updates and cached tokens at α = {alpha} of the price: replacing costs (N−1)(1−α)R = {replace} token-prices, appending αSN(N−1)/2 = {append}. Replacing is cheaper here.',
                zh: '更新 N = {N} 次、缓存 token 价格为 α = {alpha} 时：替换的代价是 (N−1)(1−α)R = {replace} 个 token 价格，追加是 αSN(N−1)/2 = {append}。这里替换更便宜。',
              }
            : {
                en: 'With N = {N} updates and cached tokens at α = {alpha} of the price: replacing costs (N−1)(1−α)R = {replace} token-prices, appending αSN(N−1)/2 = {append}: the same.',
                zh: '更新 N = {N} 次、缓存 token 价格为 α = {alpha} 时：替换的代价是 (N−1)(1−α)R = {replace} 个 token 价格，追加是 αSN(N−1)/2 = {append}：两者相同。',
              },
      values: { N: values.N, alpha: values.alpha, replace: values.replace, append: values.append },
    },
  ];
}

function crossoverCallouts([run]: readonly Analysed[]): Callout[] {
  const n = statusNumbers(run!);
  const star = n.economics.crossoverUpdates;
  const out: Callout[] = [
    {
      id: 'crossover',
      template: {
        en: 'The two costs cross at N* = 2(1−α)R / (αS) = {star} updates: below it appending is cheaper, above it replacing is. Every stale status stays in the prompt and is read again on each call, so append’s cost grows with N², replace’s only with N.',
        zh: '两种代价在 N* = 2(1−α)R / (αS) = {star} 次更新处相交：少于它时追加更便宜，多于它时替换更便宜。每条过期的状态都留在提示里，每次调用都要再读一遍，所以追加的代价随 N² 增长，替换只随 N 增长。',
      },
      values: { star: Number.isFinite(star) ? { value: star, text: star.toFixed(1) } : { value: Number.MAX_VALUE, text: '∞' } },
    },
  ];
  const s = n.sim;
  out.push({
    id: 'simulation',
    template: {
      en: 'A token-level simulation of the same N = {N} updates (a cached prefix of {P} tokens, one call between updates, every call priced by its longest cached prefix) charges the update calls {simReplace} more when replacing and {simAppend} more when appending, beyond what both share; the formulas give {replace} and {append}.',
      zh: '对同样 N = {N} 次更新做 token 级模拟（缓存前缀 {P} 个 token，两次更新之间一次调用，每次调用按最长的缓存前缀计价）：在两者共同的代价之外，更新调用在替换时多花 {simReplace}，在追加时多花 {simAppend}；公式给出的是 {replace} 和 {append}。',
    },
    values: { N: count(STATUS_N), P: count(n.P), simReplace: cost(s.replace.extra), simAppend: cost(s.append.extra), replace: cost(s.formula.replace), append: cost(s.formula.append) },
  });
  return out;
}

export const statusBarCost: Lesson = {
  slug: 'status-bar-cost',
  title: { en: 'What a status bar costs', zh: '状态栏的代价' },
  summary: {
    en: 'A status message that changes can be replaced in place or appended each time. S, R, N and α decide which is cheaper.',
    zh: '会变化的状态消息可以原地替换，也可以每次追加一条新的。S、R、N 和 α 决定哪种更便宜。',
  },
  steps: [
    {
      id: 'replace-append',
      title: { en: 'Replace in place or append?', zh: '原地替换还是追加？' },
      body: {
        en: 'Replacing the status keeps one copy in the prompt, but removing the old one breaks the cache right where it stood: everything appended since the last update is computed again. Appending never breaks the cache, but every old status stays and is read again, from the cache, on every later call. S is the status’ size, R what the agent appends between updates, N the number of updates, α the price of a cached token.',
        zh: '替换状态让提示里只保留一份，但删掉旧状态会让缓存恰好在它原来的位置断开：自上次更新以来追加的内容都要重新计算。追加从不打断缓存，但每条旧状态都留在提示里，之后每次调用都要从缓存中再读一遍。S 是状态的大小，R 是两次更新之间 Agent 追加的内容，N 是更新次数，α 是缓存 token 的价格。',
      },
      view: { kind: 'tokens', models: [MODEL], scenario: SCENARIO, context: 'last', focus: 'status_bar' },
      callouts: formulaCallouts,
    },
    {
      id: 'crossover',
      title: { en: 'Where the two cross', zh: '两者在哪里相交' },
      body: {
        en: 'Append pays a little for every stale status on every call, so its cost grows with the square of the number of updates; replace pays the recomputed interval once per update. For a few updates appending wins, for many replacing does. The Economics tab lets you change S, R, N and α and runs the same simulation.',
        zh: '追加在每次调用中都为每条过期状态付一点费用，所以它的代价随更新次数的平方增长；替换则每次更新为重算的间隔付一次。更新次数少时追加更划算，次数多时替换更划算。在“经济学”标签页里可以改变 S、R、N 和 α，运行同样的模拟。',
      },
      view: { kind: 'tokens', models: [MODEL], scenario: SCENARIO, context: 'last', focus: 'status_bar' },
      callouts: crossoverCallouts,
    },
  ],
};
