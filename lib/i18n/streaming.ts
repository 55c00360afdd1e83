// Strings of: the StreamingLLM chart (components/lessons/StreamingChart) — perplexity along a text under a
// sliding-window cache, the window plus sink tokens, and full attention.
import type { Dict } from './types';

export const streamingStrings = {
  'streaming.title': { en: 'Perplexity along the text: evicting old K/V', zh: '沿文本的困惑度：逐出旧的 K/V' },
  'streaming.window': { en: 'window: the last {w} tokens', zh: '窗口：最近 {w} 个 token' },
  'streaming.sink': { en: 'sink: the first {k} + the last {rest} tokens', zh: '汇点：前 {k} 个 + 最近 {rest} 个 token' },
  'streaming.full': { en: 'full attention: every earlier token', zh: '全注意力：之前的所有 token' },
  'streaming.legendPpl': { en: 'perplexity {ppl} overall, {after} after the window fills', zh: '总体困惑度 {ppl}，窗口填满后 {after}' },
  'streaming.legendPplOnly': { en: 'perplexity {ppl} overall', zh: '总体困惑度 {ppl}' },
  'streaming.x': { en: 'token position (tokens)', zh: 'token 位置（token）' },
  'streaming.yRunning': { en: 'running perplexity', zh: '累计困惑度' },
  'streaming.yMoving': { en: 'perplexity, last {span} tokens', zh: '困惑度（最近 {span} 个 token）' },
  'streaming.fill': { en: 'window full: eviction starts (token {pos})', zh: '窗口已满：开始逐出（token {pos}）' },
  'streaming.noFill': { en: 'The window never fills in this text: nothing is evicted and the three lines coincide.', zh: '本文本中窗口从未填满：没有逐出，三条线重合。' },
  'streaming.aria': {
    en: 'Line chart of perplexity along the text for the window, sink and full-attention caches.',
    zh: '折线图：窗口、汇点与全注意力三种缓存下沿文本的困惑度。',
  },
  'streaming.caption': { en: 'StreamingLLM: W = {w} keys per query, k = {k} sink tokens, {n} tokens', zh: 'StreamingLLM：每个查询 W = {w} 个键，k = {k} 个汇点 token，共 {n} 个 token' },
  'streaming.none': { en: 'No result to draw yet.', zh: '尚无可绘制的结果。' },
  'streaming.stage.tokenizing': { en: 'tokenizing the text', zh: '正在切分文本' },
  'streaming.stage.building': { en: 'building a session with every logit', zh: '正在构建输出全部 logits 的会话' },
  'streaming.stage.window': { en: 'decoding with the window cache', zh: '正在用窗口缓存解码' },
  'streaming.stage.sink': { en: 'decoding with the window + sink cache', zh: '正在用窗口 + 汇点缓存解码' },
  'streaming.stage.full': { en: 'full attention', zh: '全注意力' },
  'streaming.stage.done': { en: 'done', zh: '完成' },
  'streaming.progress': { en: '{stage}… {pct} %', zh: '进行中：{stage}…… {pct}%' },
  'streaming.waiting': { en: 'waiting for the model', zh: '等待模型' },
  'streaming.failed': { en: 'The experiment failed: {message}', zh: '实验失败：{message}' },
  'streaming.panelNote': { en: '{n} tokens of a held-out agent trajectory, decoded token by token in this page.', zh: '一段未参与训练的智能体轨迹的 {n} 个 token，在本页面中逐个 token 解码。' },
} satisfies Dict;
