// Lesson `agent-loop`: every call is stateless, the list grows, the static prefix vs the trajectory. The
// callouts read the rendered prompts of the run's calls (lib/agent/run callTokenCounts, token prefixes);
// nothing is typed in.
import { callTokenCounts } from '../agent/run';
import { commonPrefixLength } from '../analysis/kvDiff';
import type { Analysed } from '../state/analysed';
import { count, pct, times, type Callout, type Lesson } from './types';

const MODEL = 'kvscope-tiny';

function statelessCallouts([run]: readonly Analysed[]): Callout[] {
  const [p1, p2] = run!.callPrompts;
  if (!p1 || !p2) return [];
  const shared = commonPrefixLength(p1.ids, p2.ids);
  return [
    {
      id: 'resend',
      template: {
        en: 'Call 2 sends {t2} tokens. Its first {shared} tokens are call 1’s prompt again, token for token ({sharedShare} of call 1’s {t1}): the model remembers nothing between calls, so the client re-sends it all.',
        zh: '第 2 次调用发送 {t2} 个 token，前 {shared} 个与第 1 次调用的提示逐个相同（占第 1 次 {t1} 个的 {sharedShare}）：模型在两次调用之间什么也不记得，所以客户端把它全部重发。',
      },
      values: { t1: count(p1.ids.length), t2: count(p2.ids.length), shared: count(shared), sharedShare: pct(shared / p1.ids.length) },
    },
    {
      id: 'added',
      template: {
        en: 'After those {shared} tokens call 2 adds {added} new ones: the model’s tool calls and the two tool results, appended at the end.',
        zh: '在这 {shared} 个 token 之后，第 2 次调用新增了 {added} 个：模型的工具调用和两条工具结果，追加在末尾。',
      },
      values: { shared: count(shared), added: count(p2.ids.length - shared) },
    },
  ];
}

function growthCallouts([run]: readonly Analysed[]): Callout[] {
  const counts = callTokenCounts(run!.run, run!.callPrompts);
  const first = counts[0]!.total;
  const last = counts[counts.length - 1]!.total;
  const sum = counts.reduce((s, c) => s + c.total, 0);
  return [
    {
      id: 'growth',
      template: {
        en: 'Call 1 sends {first} tokens, call {n} sends {last}: {ratio} as many. Nothing is ever taken out of the list.',
        zh: '第 1 次调用发送 {first} 个 token，第 {n} 次发送 {last} 个：是前者的 {ratio}。列表里的东西从不删除。',
      },
      values: { first: count(first), n: count(counts.length), last: count(last), ratio: times(last / first) },
    },
    {
      id: 'sum',
      template: {
        en: 'Over the {n} calls the model reads {sum} prompt tokens in all, {over} the length of the final prompt: without a cache each call pays for the whole list again.',
        zh: '{n} 次调用中模型一共读了 {sum} 个提示 token，是最后一个提示长度的 {over}：没有缓存时，每次调用都要为整个列表再付一次费。',
      },
      values: { n: count(counts.length), sum: count(sum), over: times(sum / last) },
    },
  ];
}

function prefixCallouts([run]: readonly Analysed[]): Callout[] {
  const counts = callTokenCounts(run!.run, run!.callPrompts);
  const c1 = counts[0]!;
  const cl = counts[counts.length - 1]!;
  const appended = counts.slice(1).map((c) => c.appended);
  const meanAppended = appended.length ? appended.reduce((a, b) => a + b, 0) / appended.length : 0;
  return [
    {
      id: 'static',
      template: {
        en: 'The static prefix (system prompt and tool definitions) is {static} tokens: {share1} of call 1, {shareLast} of call {n}. It is the same in every call, so a prompt cache can serve it every time.',
        zh: '静态前缀（系统提示和工具定义）有 {static} 个 token：占第 1 次调用的 {share1}，第 {n} 次调用的 {shareLast}。它在每次调用中都相同，所以提示缓存每次都能命中。',
      },
      values: { static: count(c1.static), share1: pct(c1.static / c1.total), shareLast: pct(cl.static / cl.total), n: count(counts.length) },
    },
    {
      id: 'trajectory',
      template: {
        en: 'The trajectory (tool calls and results) grows by {mean} tokens per call on average, between {min} and {max}.',
        zh: '轨迹（工具调用与结果）平均每次调用增长 {mean} 个 token，最少 {min}，最多 {max}。',
      },
      values: { mean: { value: meanAppended, text: meanAppended.toFixed(0) }, min: count(Math.min(...appended)), max: count(Math.max(...appended)) },
    },
  ];
}

export const agentLoop: Lesson = {
  slug: 'agent-loop',
  title: { en: 'The agent loop', zh: 'Agent 循环' },
  summary: {
    en: 'Every call is stateless: the client re-sends the whole, growing message list, static prefix first.',
    zh: '每次调用都是无状态的：客户端每次重发整个不断增长的消息列表，静态前缀在最前。',
  },
  steps: [
    {
      id: 'stateless',
      title: { en: 'Every call starts from nothing', zh: '每次调用都从零开始' },
      body: {
        en: 'A model API keeps no memory of earlier calls. The agent keeps the message list and sends all of it each time: the user asks, the model answers with two tool calls, the agent runs them, appends both results, and calls again with everything so far.',
        zh: '模型 API 不记得之前的调用。Agent 自己保存消息列表，每次都把它全部发出去：用户提问，模型用两个工具调用回应，Agent 执行工具、把两个结果追加到列表末尾，再带着到目前为止的全部内容重新调用。',
      },
      view: { kind: 'inspector', models: [MODEL], scenario: 'vancouver', context: 0 },
      callouts: statelessCallouts,
    },
    {
      id: 'grows',
      title: { en: 'The list only grows', zh: '列表只增不减' },
      body: {
        en: 'A longer task: an agent looks for where a port is set, with find, read_file and grep. Each call appends the model’s tool call and the tool’s result, so every request is the previous one plus a little more.',
        zh: '一个更长的任务：Agent 用 find、read_file 和 grep 查找端口在哪里设置。每次调用都追加模型的工具调用和工具的结果，所以每个请求都是上一个请求再多一点。',
      },
      view: { kind: 'inspector', models: [MODEL], scenario: 'file-tools', context: 0 },
      callouts: growthCallouts,
    },
    {
      id: 'static-prefix',
      title: { en: 'Static prefix, growing trajectory', zh: '静态前缀与增长的轨迹' },
      body: {
        en: 'Every request has two parts: a static prefix (system prompt and tool definitions) that never changes, and the trajectory after it that grows by one step per call. Keep the prefix fixed and only append to the trajectory: that is what lets the cache work.',
        zh: '每个请求都由两部分组成：从不改变的静态前缀（系统提示和工具定义），以及其后每次调用增长一步的轨迹。保持前缀不变，只向轨迹追加内容——缓存正是靠这一点才能生效。',
      },
      view: { kind: 'inspector', models: [MODEL], scenario: 'file-tools', context: 0 },
      callouts: prefixCallouts,
    },
  ],
};
