// Strings of the heatmap area of the interface.
import type { Dict } from './types';

export const heatmapStrings = {
  'heatmap.aria': { en: 'attention heatmap: rows are query tokens, columns are key tokens', zh: '注意力热图：行是查询词元，列是键词元' },
  'heatmap.regionAria': { en: 'attention heatmap, zoomable', zh: '注意力热图（可缩放）' },
  'heatmap.axisKeys': { en: 'key tokens →', zh: '键词元 →' },
  'heatmap.axisQueries': { en: '↓ query tokens', zh: '↓ 查询词元' },
  'heatmap.zoomIn': { en: 'zoom in', zh: '放大' },
  'heatmap.zoomOut': { en: 'zoom out', zh: '缩小' },
  'heatmap.resetZoom': { en: 'reset view', zh: '重置视图' },
  'heatmap.window': { en: 'rows {q0}–{q1}, cols {k0}–{k1}', zh: '行 {q0}–{q1}，列 {k0}–{k1}' },
  'heatmap.zoomFactor': { en: 'zoom {z}×', zh: '缩放 {z}×' },
  'heatmap.pooledNote': { en: 'each pixel shows the largest weight of the cells it covers', zh: '每个像素显示它所覆盖的单元格中最大的权重' },
  'heatmap.help': { en: 'wheel or + / − to zoom, drag or arrow keys to pan, 0 to reset', zh: '滚轮或 + / − 缩放，拖动或方向键平移，按 0 重置' },
  'heatmap.tipQuery': { en: 'query', zh: '查询' },
  'heatmap.tipKey': { en: 'key', zh: '键' },
  'heatmap.tipWeight': { en: 'weight {w}', zh: '权重 {w}' },
  'heatmap.tipMasked': { en: 'masked (future)', zh: '已遮蔽（未来位置）' },
  'heatmap.bandKeys': { en: 'segments of the key tokens', zh: '键词元的片段' },
  'heatmap.bandQueries': { en: 'segments of the query tokens', zh: '查询词元的片段' },
  'heatmap.bandMessage': { en: 'message {n} ({role}), tokens {a}–{b}', zh: '消息 {n}（{role}），词元 {a}–{b}' },
  'heatmap.bandTools': { en: 'tools block, tokens {a}–{b}', zh: '工具定义块，词元 {a}–{b}' },
  'heatmap.bandSegment': { en: 'segment: {segment}, tokens {a}–{b}', zh: '片段：{segment}，词元 {a}–{b}' },
} satisfies Dict;
