// Lesson `chat-template`: the message list becomes one token stream; what the model sees of tool calls,
// tool results and think blocks. The callouts read the rendered prompt's tokens and spans (lib/prompt) and
// the think-block drop (lib/cache/thinkDrop); nothing is typed in.
import { reasoningMessages, thinkDrops } from '../cache/thinkDrop';
import { TOOLS_MESSAGE, type Prompt } from '../prompt/prompt';
import type { Analysed } from '../state/analysed';
import { count, pct, type Callout, type Lesson } from './types';

const MODEL = 'kvscope-tiny';

/** Tokens per segment of a prompt. */
export function segmentTokens(p: Prompt): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of p.spans) out[s.segment] = (out[s.segment] ?? 0) + (s.end - s.start);
  return out;
}

/** The role word after the last `<|im_start|>` before token `at` (what the model reads as the turn's speaker). */
export function turnRoleBefore(p: Prompt, at: number): string | null {
  for (let i = at - 1; i >= 0; i--) {
    if (p.tokens[i]!.text === '<|im_start|>') {
      const rest = p.text.slice(p.tokens[i]!.end);
      return rest.slice(0, rest.indexOf('\n')).trim();
    }
  }
  return null;
}

function streamCallouts([run]: readonly Analysed[]): Callout[] {
  const p = run!.prompt;
  const req = run!.run.calls[run!.run.calls.length - 1]!.request;
  const special = p.tokens.filter((t) => t.special).length;
  const seg = segmentTokens(p);
  const tools = p.spans.filter((s) => s.message === TOOLS_MESSAGE).reduce((n, s) => n + s.end - s.start, 0);
  return [
    {
      id: 'stream',
      template: {
        en: '{messages} messages and {tools} tool definitions become one stream of {tokens} tokens; {special} of them are special tokens such as <|im_start|> and <|im_end|>.',
        zh: '{messages} 条消息和 {tools} 个工具定义变成了一条 {tokens} 个 token 的流，其中 {special} 个是 <|im_start|>、<|im_end|> 这样的特殊 token。',
      },
      values: { messages: count(req.messages.length), tools: count(req.tools?.length ?? 0), tokens: count(p.ids.length), special: count(special) },
    },
    {
      id: 'envelope',
      template: {
        en: 'The tool definitions alone take {toolTokens} tokens ({toolShare}); the envelope around the messages (role markers and ends) takes {template}.',
        zh: '仅工具定义就占 {toolTokens} 个 token（{toolShare}）；消息外面的“信封”（角色标记和结束标记）占 {template} 个。',
      },
      values: { toolTokens: count(tools), toolShare: pct(tools / p.ids.length), template: count(seg.template ?? 0) },
    },
  ];
}

function toolCallouts([run]: readonly Analysed[]): Callout[] {
  const p = run!.prompt;
  const seg = segmentTokens(p);
  const calls = p.spans.filter((s) => s.segment === 'tool_call');
  const results = p.spans.filter((s) => s.segment === 'tool_result');
  const role = results.length ? turnRoleBefore(p, results[0]!.start) : null;
  const out: Callout[] = [
    {
      id: 'calls',
      template: {
        en: 'The assistant’s {nCalls} tool calls are plain text to the model: {callTokens} tokens of JSON between <tool_call> tags.',
        zh: '助手的 {nCalls} 个工具调用对模型来说只是普通文本：<tool_call> 标签之间的 {callTokens} 个 JSON token。',
      },
      values: { nCalls: count(calls.length), callTokens: count(seg.tool_call ?? 0) },
    },
  ];
  if (role !== null)
    out.push({
      id: 'results',
      template: {
        en: 'The {nResults} tool results ({resultTokens} tokens) arrive inside a turn that starts with “<|im_start|>{role}”, wrapped in <tool_response>: the role the model sees is “{role}”, not “tool”.',
        zh: '{nResults} 条工具结果（{resultTokens} 个 token）出现在以“<|im_start|>{role}”开头的轮次中，包在 <tool_response> 里：模型看到的角色是“{role}”，而不是“tool”。',
      },
      values: { nResults: count(results.length), resultTokens: count(seg.tool_result ?? 0) },
      words: { role },
    });
  return out;
}

function thinkCallouts([run]: readonly Analysed[]): Callout[] {
  const prompts = run!.callPrompts;
  const reasoning = run!.run.calls.map((c) => reasoningMessages(c.request.messages));
  const drops = thinkDrops(prompts, reasoning);
  const broken = drops.find((d) => d.causedByThinkDrop);
  const out: Callout[] = [];
  const extending = drops.filter((d) => d.extendsEarlier).length;
  out.push({
    id: 'extends',
    template: {
      en: 'Of the {n} calls after the first, {extending} extend an earlier prompt token for token.',
      zh: '第一次之后的 {n} 次调用中，有 {extending} 次逐 token 地延续了之前的某个提示。',
    },
    values: { n: count(drops.length - 1), extending: count(extending) },
  });
  if (broken) {
    out.push({
      id: 'drop',
      template: {
        en: 'Call {call} does not: the new user question makes the template drop {dropped} earlier <think> block(s), so the prompt parts from call {earlier} at token {breakAt} and {lost} cached tokens of call {earlier} cannot be reused.',
        zh: '第 {call} 次调用却没有：新的用户问题使模板丢掉了之前 {dropped} 个 <think> 块，所以提示在第 {breakAt} 个 token 处与第 {earlier} 次调用分开，第 {earlier} 次调用已缓存的 {lost} 个 token 无法复用。',
      },
      values: { call: count(broken.index + 1), dropped: count(broken.dropped.length), earlier: count(broken.earlier! + 1), breakAt: count(broken.breakAt!), lost: count(broken.lostTokens) },
    });
  } else {
    out.push({
      id: 'drop',
      missing: true,
      template: { en: 'In this run no call lost its cache to a dropped <think> block.', zh: '在这次运行中，没有哪次调用因 <think> 块被丢弃而失去缓存。' },
      values: {},
    });
  }
  return out;
}

export const chatTemplate: Lesson = {
  slug: 'chat-template',
  title: { en: 'The chat template', zh: '聊天模板（Chat Template）' },
  summary: {
    en: 'From a JSON message list to the one token stream the model reads: tool calls, tool results and think blocks.',
    zh: '从 JSON 消息列表到模型读到的那一条 token 流：工具调用、工具结果与思考块。',
  },
  steps: [
    {
      id: 'one-stream',
      title: { en: 'Messages become one stream', zh: '消息变成一条流' },
      body: {
        en: 'The API takes a structured list of messages; the model reads one line of tokens. The chat template is the envelope: special tokens mark where each message starts and ends and who is speaking. The colours below are the parts of the envelope and the messages inside it.',
        zh: 'API 接收结构化的消息列表；模型读的却是一行 token。聊天模板就是信封：特殊 token 标出每条消息从哪里开始、到哪里结束、由谁发言。下面的颜色区分了信封的各部分和其中的消息。',
      },
      view: { kind: 'tokens', models: [MODEL], scenario: 'vancouver', context: 'last' },
      callouts: streamCallouts,
    },
    {
      id: 'tool-turns',
      title: { en: 'What the model sees of tools', zh: '模型看到的工具调用' },
      body: {
        en: 'Tool calls are not a separate channel: the model writes them as text, and the results come back as text in a turn of their own. Use the standard tool role in the API and let the template wrap it; hand-made “user” messages look like a new question to the model.',
        zh: '工具调用不是一条单独的通道：模型把它们写成文本，结果也作为文本出现在单独的轮次中。在 API 中使用标准的 tool 角色，让模板去包装；手工拼成的“user”消息在模型看来像是一个新问题。',
      },
      view: { kind: 'tokens', models: [MODEL], scenario: 'vancouver', context: 'last', focus: 'tool_result' },
      callouts: toolCallouts,
    },
    {
      id: 'think-drop',
      title: { en: 'Where the think blocks go', zh: '思考块去了哪里' },
      body: {
        en: 'A thinking model writes its reasoning in <think> blocks. Within one task the template keeps them; once a new user question arrives it drops the earlier ones. The agent only appended, yet the prompt changes in the middle, and everything after that point must be recomputed.',
        zh: '思考型模型把推理写在 <think> 块里。在同一个任务中模板会保留它们；一旦出现新的用户问题，模板就丢掉之前的思考块。Agent 只做了追加，提示却在中间发生了变化，该位置之后的一切都必须重新计算。',
      },
      view: { kind: 'tokens', models: [MODEL], scenario: 'thinking', context: 'last', focus: 'think' },
      callouts: thinkCallouts,
    },
  ],
};
