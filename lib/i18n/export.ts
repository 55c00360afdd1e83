// Strings of: Export buttons (PNG, SVG, JSON) on every chart and heatmap.
import type { Dict } from './types';

export const exportStrings = {
  'export.toolbar': { en: 'Export this view', zh: '导出此视图' },
  // A button's label is the format's name (PNG, SVG, JSON), the same in every language.
  'export.button': { en: '{format}', zh: '{format}' },
  'export.pngTitle': { en: 'Download this view as a PNG image (2× resolution)', zh: '将此视图下载为 PNG 图片（2 倍分辨率）' },
  'export.svgTitle': { en: 'Download this view as an SVG image (vector; opens in a browser)', zh: '将此视图下载为 SVG 图片（矢量图，可在浏览器中打开）' },
  'export.jsonTitle': { en: 'Download the numbers behind this view as JSON', zh: '将此视图背后的数据下载为 JSON' },
  'export.busy': { en: 'Exporting…', zh: '正在导出…' },
  'export.failed': { en: 'Export failed: {message}', zh: '导出失败：{message}' },
  'export.tainted': { en: 'Export failed: the picture holds content the browser will not let a page read back.', zh: '导出失败：图中含有浏览器不允许页面读取的内容。' },
  'export.empty': { en: 'Nothing to draw yet: this view has no chart on the page.', zh: '暂无可导出的图：此视图在页面上还没有图表。' },
  'export.tooLarge': { en: 'Export failed: the picture is too large for the browser to draw.', zh: '导出失败：图片过大，浏览器无法绘制。' },
  'export.imageFailed': { en: 'Export failed: a chart could not be drawn as an image.', zh: '导出失败：有图表无法绘制为图片。' },
  'export.dismiss': { en: 'Dismiss', zh: '关闭' },
  // Captions of the exported pictures (drawn on top of the PNG/SVG).
  'export.caption.sinkGrid': { en: 'Sink score of token 0 per layer and head (min. query {minQuery}, threshold {threshold})', zh: '各层各头对第 0 个词元的汇聚分数（最小查询位置 {minQuery}，阈值 {threshold}）' },
  'export.caption.sinkBars': { en: 'Mean sink score per layer against the uniform baseline (threshold {threshold})', zh: '各层平均汇聚分数与均匀基线对比（阈值 {threshold}）' },
  'export.caption.positionBias': { en: 'Attention per key token by third of the context, per layer (min. query {minQuery})', zh: '按上下文三等分统计的每个键词元注意力，逐层（最小查询位置 {minQuery}）' },
  'export.caption.kvGrowth': { en: 'K/V cache size at {tokens} tokens', zh: '{tokens} 个词元时的 K/V 缓存大小' },
  'export.caption.strip': { en: 'Attention of query {q} over the timeline · layer {layer} · {head} · {scale} scale', zh: '查询 {q} 在整个时间线上的注意力 · 第 {layer} 层 · {head} · {scale}刻度' },
  'export.caption.kvDiff': { en: 'K/V cache difference between two requests (tolerance {tol})', zh: '两个请求之间的 K/V 缓存差异（容差 {tol}）' },
  'export.caption.patternSummary': { en: 'Six request patterns: total cost and cache ratio', zh: '六种请求模式：总成本与缓存命中率' },
  'export.caption.patternCalls': { en: 'Calls of “{mode}”: cached and recomputed tokens', zh: '“{mode}”的各次调用：缓存与重算的词元' },
  'export.caption.radixTree': { en: 'Prefix tree (radix) of the calls of “{mode}”', zh: '“{mode}”各次调用的前缀树（基数树）' },
  'export.caption.blocks': { en: 'Block-hash cache hits per call of “{mode}”', zh: '“{mode}”各次调用的块哈希缓存命中' },
  'export.caption.status': { en: 'Status bar: replace vs append, extra cost over N updates (S {S}, R {R}, α {alpha})', zh: '状态栏：替换与追加，N 次更新的额外成本（S {S}，R {R}，α {alpha}）' },
} satisfies Dict;
