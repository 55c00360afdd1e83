// Strings of the "copied from" line (docs/CONCEPTS.md#copy-source): the Step tab and the Attention tab's heatmap.
import type { Dict } from './types';

export const copySourceStrings = {
  'copy.title': { en: 'Copied from?', zh: '从哪里复制？' },
  'copy.source': { en: '«{token}» (position {next}) → position {position}', zh: '«{token}»（位置 {next}）→ 位置 {position}' },
  'copy.context': { en: 'in context:', zh: '上下文：' },
  'copy.head': { en: 'layer {layer} · head {head} · weight {w}', zh: '第 {layer} 层 · 头 {head} · 权重 {w}' },
  'copy.headMean': { en: 'layer {layer} · head mean · weight {w}', zh: '第 {layer} 层 · 头均值 · 权重 {w}' },
  'copy.above': { en: '{times} above uniform ({u})', zh: '是均匀权重（{u}）的 {times}' },
  'copy.below': { en: '{times} of uniform ({u}): below it', zh: '仅为均匀权重（{u}）的 {times}，低于均匀' },
  'copy.argmax': { en: 'this head attends here most', zh: '该头在此处的注意力最强' },
  'copy.argmaxElsewhere': { en: 'this head attends most to position {position} «{label}»', zh: '该头注意力最强的是位置 {position} «{label}»' },
  'copy.occurrence': { en: '1 earlier occurrence', zh: '之前出现 1 次' },
  'copy.occurrences': { en: '{n} earlier occurrences (the strongest shown)', zh: '之前出现 {n} 次（显示最强的一处）' },
  'copy.none': {
    en: '«{token}» (position {next}) does not occur earlier in the context (positions 1–{row}): there is nothing to copy it from.',
    zh: '«{token}»（位置 {next}）在之前的上下文（位置 1–{row}）中没有出现：无处可复制。',
  },
  'copy.noContext': {
    en: '«{token}» (position {next}) follows the template’s first token only: there is no earlier context to copy it from.',
    zh: '«{token}»（位置 {next}）之前只有模板的第一个 token：没有可复制的上下文。',
  },
  'copy.atEnd': { en: 'The query predicts no token of the sequence here (its end): nothing to trace.', zh: '此处查询预测的 token 不在序列中（已到结尾）：无可追溯。' },
  'copy.lastRow': { en: 'Row {row} is the prompt’s last: it predicts the token after the prompt, so there is nothing to trace.', zh: '第 {row} 行是提示的最后一行：它预测的是提示之后的 token，无可追溯。' },
  'copy.selectHint': { en: 'Select a query row to see which earlier token its prediction could be copied from.', zh: '选择一个查询行，查看它的预测可能复制自哪个更早的 token。' },
  'copy.coverAll': { en: 'searched: all {layers} layers × {heads} heads', zh: '搜索范围：全部 {layers} 层 × {heads} 个头' },
  'copy.coverHeadLayers': {
    en: 'searched: the {heads} heads of layer {layers} only (the run holds the other layers as their head mean)',
    zh: '搜索范围：仅第 {layers} 层的 {heads} 个头（本次运行的其他层只保留头均值）',
  },
  'copy.coverMean': { en: 'searched: the head mean of each of {layers} layers (the run holds no per-head maps)', zh: '搜索范围：{layers} 层各自的头均值（本次运行没有逐头注意力）' },
  'copy.markStrip': { en: 'outlined in the strip and the tokens', zh: '在注意力条和 token 中用描边标出' },
  'copy.markHeatmap': { en: 'ringed in the heatmap (row {row}, key {position})', zh: '在热力图中圈出（第 {row} 行，键 {position}）' },
  'copy.legend': { en: 'copy source', zh: '复制来源' },
  'copy.goto': { en: 'go to {position}', zh: '转到 {position}' },
  'copy.gotoTitle': { en: 'move the cursor so that the query is the source token (position {position})', zh: '移动光标，使查询成为来源 token（位置 {position}）' },
  'copy.offset': {
    en: '{offset} after the occurrence at {occurrence}: layer {layer} · head {head} attends most to position {position} «{label}» (weight {w}, {times} uniform)',
    zh: '位置 {occurrence} 的出现之后 {offset} 处：第 {layer} 层 · 头 {head} 注意力最强的是位置 {position} «{label}»（权重 {w}，均匀权重的 {times}）',
  },
  'copy.offsetTitle': {
    en: 'A head can read a copied token a few positions after its occurrence, where a head of an earlier layer that looks a fixed distance back has put it. Models can copy repeated spans this way (docs/CONCEPTS.md, copy source).',
    zh: '一个头可以在被复制 token 出现位置之后的几个位置读取它——更早一层中固定回看若干位置的头把它放在了那里。模型可以用这种方式复制重复片段（docs/CONCEPTS.md，复制来源）。',
  },
  'copy.carrierTop': {
    en: 'below it, layer {layer} · head {head} at row {position} attends most to the occurrence at {occurrence} (weight {w}): it can have carried the token there',
    zh: '在其下，第 {layer} 层 · 头 {head} 在第 {position} 行注意力最强的是位置 {occurrence} 的出现（权重 {w}）：它可能把该 token 带到了那里',
  },
  'copy.carrierWeak': {
    en: 'below it, no head at row {position} attends most to the occurrence at {occurrence} (strongest: layer {layer} · head {head}, weight {w})',
    zh: '在其下，第 {position} 行没有哪个头对位置 {occurrence} 的出现注意力最强（最强：第 {layer} 层 · 头 {head}，权重 {w}）',
  },
  'copy.note': {
    en: 'The strongest attention, over the layers and heads searched, from this query to an earlier occurrence of the token it predicts. A weight, not a verdict: a head that copies puts far more than uniform there and attends there most.',
    zh: '在所搜索的层和头中，此查询对其所预测 token 的更早出现位置的最强注意力。这只是权重，不是结论：执行复制的头在那里的权重远高于均匀权重，并且那里是它注意力最强的位置。',
  },
} satisfies Dict;
