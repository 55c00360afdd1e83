// Strings of: Attention computed elsewhere: imported heatmap, sink and position views.
import type { Dict } from './types';

export const importedStrings = {
  // Banner.
  'imported.title': { en: 'Imported attention', zh: '导入的注意力' },
  'imported.badge': { en: 'computed elsewhere', zh: '在别处计算' },
  'imported.lead': {
    en: 'These attention weights were computed outside kvscope and loaded from a file. kvscope’s engine did not compute them and has not re-checked them against any model: every number below is the file’s, as exported.',
    zh: '这些注意力权重是在 kvscope 之外计算、从文件载入的。kvscope 的推理引擎没有计算它们，也没有用任何模型重新核对过：下面的每个数字都来自文件本身，与导出时一致。',
  },
  'imported.sourceTrajectory': { en: 'format: attention_visualization trajectory JSON', zh: '格式：attention_visualization 轨迹 JSON' },
  'imported.sourceKvscope': { en: 'format: kvscope attention format (kvscope-attention)', zh: '格式：kvscope 注意力格式（kvscope-attention）' },
  'imported.sourceTrajectoryShort': { en: 'trajectory JSON', zh: '轨迹 JSON' },
  'imported.sourceKvscopeShort': { en: 'kvscope-attention', zh: 'kvscope-attention 格式' },
  'imported.model': { en: 'model: {model}', zh: '模型：{model}' },
  'imported.modelUnknown': { en: 'model: not stated in the file', zh: '模型：文件未注明' },
  'imported.device': { en: 'device: {device}', zh: '设备：{device}' },
  'imported.callsLine': { en: 'ReAct run: {count} LLM calls carry attention. Showing:', zh: 'ReAct 运行：{count} 次 LLM 调用带有注意力数据。当前显示：' },
  'imported.layersLine': { en: 'layers in the file ({count}): {labels}', zh: '文件中的层（{count} 个）：{labels}' },
  'imported.headsMean': {
    en: 'heads: averaged over heads before export — per-head views, the head max and sink-head counts are not available',
    zh: '注意力头：导出前已对各头取平均——无法查看单个头、各头最大值，也无法统计 sink 头',
  },
  'imported.headsCount': { en: 'heads: {heads} per layer, stored separately (each head, their mean and max can be shown)', zh: '注意力头：每层 {heads} 个，分别存储（可查看单个头、各头平均和最大值）' },
  'imported.headsMixed': { en: 'heads differ by layer: {detail}', zh: '各层的头数不同：{detail}' },
  'imported.meanShort': { en: 'mean only', zh: '仅平均' },
  'imported.rowsAll': { en: 'query rows: all {rows} present', zh: '查询行：全部 {rows} 行都在文件中' },
  'imported.rowsSome': {
    en: 'query rows: the file holds {rows} of {keys} (positions {from}–{to}); the others are drawn grey and left out of every number below',
    zh: '查询行：文件只包含 {keys} 行中的 {rows} 行（位置 {from}–{to}）；其余行以灰色绘制，且不计入下面的任何数字',
  },
  'imported.tokensLine': { en: '{tokens} tokens; the matrix has {keys} keys.', zh: '{tokens} 个 token；矩阵有 {keys} 个键。' },
  'imported.tokensBeyond': { en: 'Tokens after the first {keys} of {tokens} are listed but not in the matrix.', zh: '{tokens} 个 token 中前 {keys} 个之后的 token 仅列出，不在矩阵中。' },
  'imported.meta': { en: 'file metadata ({count})', zh: '文件元数据（{count} 项）' },
  'imported.notes': { en: 'import notes ({count})', zh: '导入说明（{count} 条）' },
  'imported.cut': { en: ' … ({chars} characters in all)', zh: ' …（共 {chars} 个字符）' },
  'imported.noLayers': { en: 'This file holds no attention layers.', zh: '该文件不含任何注意力层。' },

  // Controls.
  'imported.call': { en: 'LLM call', zh: 'LLM 调用' },
  'imported.callOwn': { en: 'the run’s own attention_data', zh: '运行本身的 attention_data' },
  'imported.callN': { en: 'call {index}', zh: '调用 {index}' },
  'imported.stepN': { en: 'step {step}', zh: '第 {step} 步' },
  'imported.layerN': { en: 'layer {layer}', zh: '第 {layer} 层' },
  'imported.layerRange': { en: 'layers {from}–{to}', zh: '第 {from}–{to} 层' },
  'imported.onlyLayer': { en: 'the only layer in this file', zh: '文件中只有这一层' },
  'imported.headMeanExported': { en: 'mean (as exported)', zh: '平均（导出时已平均）' },
  'imported.headNote': { en: 'heads were averaged before export', zh: '导出前已对各头取平均' },

  // Heatmap.
  'imported.heatmapCaption': { en: 'Imported: {layer} · {head}', zh: '导入数据：{layer} · {head}' },
  'imported.heatmapTitle': {
    en: '{name} · imported attention ({source}), not computed by kvscope · {layer} · {head} · {scale} scale',
    zh: '{name} · 导入的注意力（{source}），非 kvscope 计算 · {layer} · {head} · {scale}刻度',
  },
  'imported.absentCell': { en: 'not in the file (row not exported)', zh: '不在文件中（该行未导出）' },
  'imported.greyCausal': { en: 'grey: keys after the query (causal mask)', zh: '灰色：查询之后的键（因果掩码）' },
  'imported.greyAbsent': {
    en: 'grey: keys after the query (causal mask) and the query rows the file does not hold ({rows} of {keys} rows present)',
    zh: '灰色：查询之后的键（因果掩码），以及文件中没有的查询行（{keys} 行中有 {rows} 行）',
  },

  // Tokens and where attention rests.
  'imported.tokensTitle': { en: 'Tokens ({count}, as in the file)', zh: 'Token（{count} 个，按文件原样）' },
  'imported.tokensHint': { en: 'whitespace shown as ␣ ↵ ⇥; hover a token for its position and exact text', zh: '空白显示为 ␣ ↵ ⇥；悬停可查看位置和原始文本' },
  'imported.tokensHintRows': {
    en: 'blue: query rows the file holds; whitespace shown as ␣ ↵ ⇥; hover a token for its position and exact text',
    zh: '蓝色：文件中包含的查询行；空白显示为 ␣ ↵ ⇥；悬停可查看位置和原始文本',
  },
  'imported.restCaption': {
    en: 'mean over the file’s layers and heads of the attention each key receives from the file’s query rows q ≥ {minQuery} (cells after a row’s position count as 0)',
    zh: '每个键从文件中 q ≥ {minQuery} 的查询行获得的注意力，对文件中的所有层和头取平均（行位置之后的单元格按 0 计）',
  },
  'imported.topTitle': { en: '{name} · imported attention · where attention rests', zh: '{name} · 导入的注意力 · 注意力停留之处' },

  // Sink section.
  'imported.sinkTitle': { en: 'Attention sink (key 0), from the imported weights', zh: '注意力汇（键 token 0），基于导入的权重' },
  'imported.sinkRows': {
    en: 'Only the query rows the file holds are used: rows at positions q ≥ max(1, {minQuery}); the uniform baseline is computed for exactly those rows.',
    zh: '只使用文件中包含的查询行：位置 q ≥ max(1, {minQuery}) 的行；均匀基线也只按这些行计算。',
  },
  'imported.minQueryNote': {
    en: 'the file’s query rows end at position {last}, before {default}: minQuery lowered to {minQuery}',
    zh: '文件的查询行止于位置 {last}，早于 {default}：minQuery 降为 {minQuery}',
  },
  'imported.sinkMeanOnly': {
    en: 'Heads were averaged before export, so each value is the averaged attention on the first token, not one head’s: the {threshold} sink-head threshold cannot be applied, and a mean below {threshold} can hide single sink heads.',
    zh: '导出前已对各头取平均，因此每个数值是平均后的注意力在第一个 token 上的份额，而不是某一个头的：无法套用 {threshold} 的 sink 头阈值，平均值低于 {threshold} 也可能掩盖个别 sink 头。',
  },
  'imported.gridTitleMean': { en: 'First-token share per layer (heads averaged before export)', zh: '各层第一个 token 的注意力份额（导出前已对头取平均）' },
  'imported.colFirstShare': { en: 'first-token share', zh: '首 token 份额' },
  'imported.colRows': { en: 'rows', zh: '行数' },
  'imported.cellMean': { en: '{layer}, heads averaged before export: {value}', zh: '{layer}，导出前已对头取平均：{value}' },
  'imported.sinkHeadsNa': { en: 'n/a (averaged)', zh: '无（已平均）' },
  'imported.sinkExportTitle': { en: '{name} · imported attention · sink scores of key 0', zh: '{name} · 导入的注意力 · 键 0 的 sink 分数' },
  'imported.barsTitle': { en: 'First-token share per layer (mean over heads)', zh: '各层第一个 token 的注意力份额（头平均）' },
  'imported.barsOne': { en: 'One layer in this file: no chart of the first-token share across layers.', zh: '文件中只有一层：没有跨层的首 token 份额图。' },
  'imported.barsTooltip': { en: '{layer}: first-token share {share}, uniform {uniform}', zh: '{layer}：首 token 份额 {share}，均匀基线 {uniform}' },
  'imported.barsX': { en: 'model layer (bar: first-token share; green tick: uniform baseline)', zh: '模型层（柱：首 token 份额；绿色短线：均匀基线）' },
  'imported.barsY': { en: 'share on key 0', zh: '键 0 的份额' },
  'imported.barsExportTitle': { en: '{name} · imported attention · first-token share per layer', zh: '{name} · 导入的注意力 · 各层首 token 份额' },

  // Position bias.
  'imported.biasRows': {
    en: 'From the file’s query rows q ≥ {minQuery} only; the dashed uniform level is computed for exactly those rows.',
    zh: '只用文件中 q ≥ {minQuery} 的查询行；虚线表示的均匀基线也只按这些行计算。',
  },
  'imported.biasRowsDiffer': { en: 'The layers hold different query rows; the uniform level drawn is the first layer’s.', zh: '各层包含的查询行不同；图中的均匀基线按第一层计算。' },
  'imported.biasOne': { en: 'One layer in this file ({layer}): the chart shows it alone, and its “mean” group is that layer.', zh: '文件中只有一层（{layer}）：图中只显示这一层，“均值”一组即为该层。' },
  'imported.biasMap': { en: 'chart positions → model layers: {map}', zh: '图中序号 → 模型层：{map}' },
  'imported.biasMapEntry': { en: '{i} = {layer}', zh: '{i} = {layer}' },
  'imported.biasExportTitle': { en: '{name} · imported attention · position bias by thirds · chart positions: {map}', zh: '{name} · 导入的注意力 · 按三等分的位置偏置 · 图中序号：{map}' },
} satisfies Dict;
