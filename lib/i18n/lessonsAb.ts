// Strings of the lessons `status-bar` and `context-growth` (components/lessons/StepViews: the A/B region
// bars at the decision position, the seed run log's growth chart).
import type { Dict } from './types';

export const lessonsAbStrings = {
  'lessonsAb.computing': { en: 'Rendering and running arm A (without the status bar) …', zh: '正在渲染并运行 A 组（无状态栏）…' },
  'lessonsAb.barsTitle': { en: 'Attention of the decision position per region', zh: '决策位置对各区域的注意力' },
  'lessonsAb.barsSub': { en: 'mean over layers and heads; A: position {pa} of {ta} tokens, B: position {pb} of {tb}', zh: '对各层各头取平均；A：{ta} 个 token 中的位置 {pa}，B：{tb} 个中的位置 {pb}' },
  'lessonsAb.growthTitle': { en: 'Seed run log: {calls} calls of {agent}, α = {alpha}', zh: '示例运行日志：{agent} 的 {calls} 次调用，α = {alpha}' },
} satisfies Dict;
