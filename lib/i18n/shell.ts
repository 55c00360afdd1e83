// Strings of the page's shell: presentation mode, the shown context and the tab headers' facts.
import type { Dict } from './types';

export const shellStrings = {
  'present.on': { en: 'present', zh: '演示' },
  'present.title': {
    en: 'Presentation mode for a projector: larger type, controls hidden, the view fills the screen. PageDown / PageUp (or ] and [) move between views; Esc leaves. Link: add ?present=1.',
    zh: '投影演示模式：字号更大，隐藏控件，视图铺满屏幕。PageDown / PageUp（或 ] 与 [）切换视图；Esc 退出。链接：加上 ?present=1。',
  },
  'present.off': { en: 'exit presentation (Esc)', zh: '退出演示（Esc）' },
  'present.keys': { en: 'PgDn / PgUp: next / previous view', zh: 'PgDn / PgUp：下一个 / 上一个视图' },
  'status.context': { en: '{tokens} tokens · {context}', zh: '{tokens} 个 token · {context}' },
  'context.call': { en: 'call {n} of {calls}', zh: '第 {n} / {calls} 次调用' },
  'context.lastCall': { en: 'call {n} of {calls}, the last, as sent', zh: '第 {n} / {calls} 次调用（最后一次，按实际发送）' },
  'context.conversation': { en: 'whole conversation', zh: '完整对话' },
  'context.label': { en: 'shown prompt', zh: '显示的提示词' },
  'context.callButton': { en: 'call {n} · {tokens}', zh: '第 {n} 次调用 · {tokens}' },
  'context.allButton': { en: 'whole conversation · {tokens}', zh: '完整对话 · {tokens}' },
  'context.callTitle': {
    en: 'Show the prompt call {n} sent: every message before the reply it produced, with the generation prompt ({tokens} tokens)',
    zh: '显示第 {n} 次调用发送的提示词：它所生成回复之前的全部消息，加上生成提示（{tokens} 个 token）',
  },
  'context.allTitle': {
    en: 'Show every message, including the final answer that no call sent, followed by a generation prompt ({tokens} tokens)',
    zh: '显示全部消息，包括没有任何调用发送过的最终回答，之后接一个生成提示（{tokens} 个 token）',
  },
  'fact.model': { en: 'model', zh: '模型' },
  'fact.scenario': { en: 'scenario', zh: '场景' },
  'fact.context': { en: 'prompt', zh: '提示词' },
  'fact.tokens': { en: 'tokens', zh: 'token 数' },
  'fact.layer': { en: 'layer', zh: '层' },
  'fact.head': { en: 'head', zh: '头' },
  'attention.title': { en: 'Attention', zh: '注意力' },
  'attention.axes': { en: 'rows: query tokens · columns: key tokens', zh: '行：查询 token · 列：键 token' },
  'compare.label': { en: 'beside it', zh: '并排对比' },
  'compare.none': { en: 'no second model', zh: '不对比' },
  'compare.title': {
    en: 'Run the same prompt on a second embedded model and show its heatmap beside the first (its own worker, its own tensors)',
    zh: '在第二个内置模型上运行同一个提示词，并把它的热图并排显示（独立的 worker，独立的张量）',
  },
  'compare.second': { en: 'The same on {model}', zh: '在 {model} 上的同一视图' },
  'compare.shellLabel': { en: 'second model', zh: '第二个模型' },
  'compare.loading': { en: 'loading {model}…', zh: '正在加载 {model}…' },
  'inspector.show': { en: 'show this call', zh: '显示此次调用' },
  'inspector.shown': { en: 'shown above', zh: '正在上方显示' },
} satisfies Dict;
