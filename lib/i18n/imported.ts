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

  // Compare with the engine (lib/analysis/importCompare; docs/MODELS.md, "Checking kvscope against Transformers").
  'imported.cmp.title': { en: 'Check against kvscope’s engine', zh: '与 kvscope 推理引擎核对' },
  'imported.cmp.lead': {
    en: 'Runs the file’s token ids on the loaded model with kvscope’s engine and compares every layer the file holds with the engine’s attention, cell by cell (the cells both hold: keys up to each query). This is how to check kvscope against Transformers on a real checkpoint: export with tools/export_attention.py, load the same model here, compare (docs/MODELS.md).',
    zh: '用 kvscope 的推理引擎在已加载的模型上重新运行文件中的 token id，并把文件中每一层与引擎算出的注意力逐格比较（两边都有的格子：每个查询及其之前的键）。这就是在真实检查点上用 Transformers 核对 kvscope 的方法：用 tools/export_attention.py 导出，在这里加载同一个模型，然后对比（见 docs/MODELS.md）。',
  },
  'imported.cmp.button': { en: 'Compare with the engine', zh: '与推理引擎对比' },
  'imported.cmp.again': { en: 'Compare again', zh: '重新对比' },
  'imported.cmp.cancel': { en: 'Cancel', zh: '取消' },
  'imported.cmp.running': { en: 'Running the file’s {tokens} tokens on {model} and comparing…', zh: '正在 {model} 上运行文件中的 {tokens} 个 token 并比较…' },
  'imported.cmp.failed': { en: 'The engine run failed: {message}', zh: '引擎运行失败：{message}' },
  'imported.cmp.tolerance': { en: 'tolerance (max |Δ|)', zh: '容差（最大 |Δ|）' },
  'imported.cmp.toleranceAuto': { en: 'from the file’s dtype ({value})', zh: '按文件的 dtype（{value}）' },
  'imported.cmp.basis.float32': {
    en: 'The exporter ran in float32 (16-bit checkpoints upcast exactly): the engine’s arithmetic, so only summation order differs — expect 1e-6…1e-5.',
    zh: '导出时使用 float32（16 位检查点按原值无损转换）：与引擎的算术相同，只有求和顺序不同——差异应在 1e-6…1e-5 量级。',
  },
  'imported.cmp.basis.half': {
    en: 'The exporter ran with 16-bit activations ({dtype}): every activation was rounded, so this is a coarse check; export with --dtype float32 for a tight one.',
    zh: '导出时使用 16 位激活（{dtype}）：每个激活值都经过舍入，因此只是粗略核对；要精确核对请用 --dtype float32 导出。',
  },
  'imported.cmp.basis.unknown': { en: 'The file does not state the exporter’s dtype: the float32 tolerance applies.', zh: '文件没有注明导出时的 dtype：按 float32 的容差判断。' },
  'imported.cmp.basis.given': { en: 'Tolerance chosen here.', zh: '容差为此处手动选择。' },
  'imported.cmp.noModel': { en: 'No model is loaded yet: choose one with the model picker above — the comparison runs on it.', zh: '还没有加载模型：请在上方的模型选择器中选择——对比将在该模型上运行。' },
  'imported.cmp.noIds': {
    en: 'This file has no token ids (token_ids): the engine can only rerun the exact ids the exporter ran. Files written by tools/export_attention.py carry them.',
    zh: '该文件没有 token id（token_ids）：引擎只能重新运行导出时的那组 id。tools/export_attention.py 写出的文件都带有它们。',
  },
  'imported.cmp.noLayers': { en: 'This file holds no attention layers to compare.', zh: '该文件没有可对比的注意力层。' },
  'imported.cmp.unknownLayer': { en: 'layers[{index}] does not say which model layer it is: nothing to compare it with.', zh: 'layers[{index}] 没有注明是模型的哪一层：无从对比。' },
  'imported.cmp.noSuchLayer': { en: 'The file has layer {layer}, but the loaded model has only {layers} layers: it was exported from another model.', zh: '文件中有第 {layer} 层，但已加载的模型只有 {layers} 层：它是从另一个模型导出的。' },
  'imported.cmp.vocab': {
    en: 'Token id {id} (position {index}) is outside the loaded model’s vocabulary of {vocab}: the file was made with another tokenizer.',
    zh: 'token id {id}（位置 {index}）超出了已加载模型 {vocab} 的词表：文件是用另一个分词器生成的。',
  },
  'imported.cmp.tooLong': { en: 'The file’s {tokens} tokens exceed the loaded model’s {max} positions.', zh: '文件的 {tokens} 个 token 超出了已加载模型的 {max} 个位置。' },
  'imported.cmp.idsDiffer': {
    en: 'The engine ran {engineTokens} token ids, the file holds {fileTokens}; they first differ at position {at}: not the same prompt.',
    zh: '引擎运行了 {engineTokens} 个 token id，文件中有 {fileTokens} 个；二者从位置 {at} 开始不同：不是同一个提示。',
  },
  'imported.cmp.headsDiffer': { en: 'Layer {layer}: the file has {fileHeads} heads, the loaded model {engineHeads}: it was exported from another model.', zh: '第 {layer} 层：文件中有 {fileHeads} 个头，已加载的模型有 {engineHeads} 个：它是从另一个模型导出的。' },
  'imported.cmp.badEngine': { en: 'The engine’s attention for layer {layer} has an unexpected shape [{shape}].', zh: '引擎给出的第 {layer} 层注意力形状异常：[{shape}]。' },
  'imported.cmp.noOverlap': { en: 'Layer {layer}: the file’s query rows and the engine’s have no cell in common.', zh: '第 {layer} 层：文件的查询行与引擎的查询行没有共同的格子。' },
  'imported.cmp.reducedGraph': {
    en: 'The loaded model’s engine returns attention reduced as “{how}”, neither per head nor the head mean: nothing to compare with.',
    zh: '已加载模型的引擎返回的是按“{how}”归约的注意力，既不是逐头也不是头平均：无从对比。',
  },
  'imported.cmp.which': { en: 'engine: {model} ({provider}) · file: {name} · {tokens} tokens · {seconds} s', zh: '引擎：{model}（{provider}）· 文件：{name} · {tokens} 个 token · {seconds} 秒' },
  'imported.cmp.fileModel': { en: 'model named in the file: {model}', zh: '文件中注明的模型：{model}' },
  'imported.cmp.modelMismatch': {
    en: 'The file names {fileModel} but the engine ran {model}: a failing verdict may only mean another model.',
    zh: '文件注明的是 {fileModel}，引擎运行的却是 {model}：判定不通过也可能只是因为模型不同。',
  },
  'imported.cmp.summaryPass': { en: 'All {layers} layers within {tolerance}: max |Δ| = {max}.', zh: '全部 {layers} 层都在 {tolerance} 之内：最大 |Δ| = {max}。' },
  'imported.cmp.summaryFail': { en: '{failed} of {layers} layers exceed {tolerance}: max |Δ| = {max}.', zh: '{layers} 层中有 {failed} 层超出 {tolerance}：最大 |Δ| = {max}。' },
  'imported.cmp.colLayer': { en: 'layer', zh: '层' },
  'imported.cmp.colHeads': { en: 'heads compared', zh: '对比的头' },
  'imported.cmp.colMax': { en: 'max |Δ|', zh: '最大 |Δ|' },
  'imported.cmp.colMean': { en: 'mean |Δ|', zh: '平均 |Δ|' },
  'imported.cmp.colCells': { en: 'cells', zh: '格数' },
  'imported.cmp.colVerdict': { en: 'verdict', zh: '判定' },
  'imported.cmp.headsN': { en: '{heads}, one by one', zh: '{heads} 个，逐头' },
  'imported.cmp.meanFile': { en: 'mean (the file holds the mean)', zh: '平均（文件只有平均）' },
  'imported.cmp.meanEngine': { en: 'mean (the engine returns this layer as the mean)', zh: '平均（引擎只返回该层的平均）' },
  'imported.cmp.meanBoth': { en: 'mean (both hold only the mean)', zh: '平均（两边都只有平均）' },
  'imported.cmp.pass': { en: 'within', zh: '通过' },
  'imported.cmp.fail': { en: 'exceeds', zh: '超出' },
  'imported.cmp.worst': { en: 'largest difference at {head}query {query}, key {key}: file {file}, engine {engine}', zh: '最大差异位于{head}查询 {query}、键 {key}：文件 {file}，引擎 {engine}' },
  'imported.cmp.worstHead': { en: 'head {head}, ', zh: '第 {head} 个头，' },
} satisfies Dict;
