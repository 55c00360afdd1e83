// Strings of the panels area of the interface: the message inspector, the token view (segment and role
// names), the attention-sink panel and the position-bias chart.
import type { Dict } from './types';

export const panelsStrings = {
  'panels.na': { en: 'n/a', zh: '无' },

  // Segment names (data values stay English; these are display names only).
  'segment.template': { en: 'template', zh: '模板' },
  'segment.system': { en: 'system', zh: '系统提示' },
  'segment.tools': { en: 'tools', zh: '工具定义' },
  'segment.user': { en: 'user', zh: '用户' },
  'segment.think': { en: 'think', zh: '思考' },
  'segment.answer': { en: 'answer', zh: '回答' },
  'segment.tool_call': { en: 'tool_call', zh: '工具调用' },
  'segment.tool_result': { en: 'tool_result', zh: '工具结果' },
  'segment.status_bar': { en: 'status_bar', zh: '状态栏' },

  // Message roles.
  'role.system': { en: 'system', zh: '系统' },
  'role.user': { en: 'user', zh: '用户' },
  'role.assistant': { en: 'assistant', zh: '助手' },
  'role.tool': { en: 'tool', zh: '工具' },

  // Token view.
  'tokens.legend': { en: 'segments', zh: '片段图例' },
  'tokens.newMessage': { en: 'new message', zh: '新消息开始' },
  'tokens.partial': { en: 'partial character', zh: '不完整字符' },
  'tokens.chip': { en: '#{index} id {id} · {segment} · {role} · message {message}', zh: '#{index} ID {id} · {segment} · {role} · 消息 {message}' },
  'tokens.chipTools': { en: '#{index} id {id} · {segment} · {role} · tools block', zh: '#{index} ID {id} · {segment} · {role} · 工具定义块' },
  'tokens.chipBare': { en: '#{index} id {id}', zh: '#{index} ID {id}' },
  'tokens.partialTitle': { en: 'part of a multi-byte character', zh: '多字节字符的一部分' },
  'tokens.aria': {
    en: 'prompt tokens: arrow keys move the selection, up and down jump between messages',
    zh: '提示词 token：左右方向键移动选中的 token，上下方向键在消息之间跳转',
  },

  // Message inspector.
  'inspector.aria': { en: 'message list per call', zh: '每次调用的消息列表' },
  'inspector.title': { en: 'The agent loop: every call re-sends the whole list', zh: '智能体循环：每次调用都会重新发送完整的消息列表' },
  'inspector.call': { en: 'call {n}: {tokens} tokens', zh: '第 {n} 次调用：{tokens} 个 token' },
  'inspector.countsFirst': {
    en: 'static prefix {static} · messages: {appended} · generation prompt {generation}',
    zh: '静态前缀 {static} · 消息：{appended} · 生成提示 {generation}',
  },
  'inspector.countsNext': {
    en: 'static prefix {static} · new since call {prev}: {appended} · generation prompt {generation}',
    zh: '静态前缀 {static} · 第 {prev} 次调用后新增：{appended} · 生成提示 {generation}',
  },
  'inspector.static': { en: 'static prefix', zh: '静态前缀' },
  'inspector.staticTitle': { en: 'static prefix: identical in every call', zh: '静态前缀：每次调用都完全相同' },
  'inspector.toolsBlock': { en: 'tools block: {tokens} tokens', zh: '工具定义块：{tokens} 个 token' },
  'inspector.trajectory': { en: 'trajectory', zh: '轨迹' },
  'inspector.trajectoryTitle': { en: 'the growing trajectory', zh: '不断增长的轨迹' },
  'inspector.rowTokens': { en: '{tokens} tokens, template envelope included', zh: '{tokens} 个 token，含模板包装' },
  'inspector.highlight': { en: 'highlighted: messages appended since the previous call', zh: '高亮：自上一次调用以来追加的消息' },

  // Attention-sink panel.
  'sink.title': { en: 'Attention sink (key 0)', zh: '注意力汇（sink）：键 token 0' },
  'sink.explain': {
    en: 'Sink score = mean of A[q, 0] over queries q ≥ max(1, minQuery) (minQuery = {minQuery}); the uniform baseline is the mean of 1/(q+1) over the same queries — what evenly spread attention would give. Heads above {threshold} are sink heads (outlined).',
    zh: 'sink 分数 = 对查询 q ≥ max(1, minQuery)（minQuery = {minQuery}）取 A[q, 0] 的平均；均匀基线是同一批查询上 1/(q+1) 的平均，即注意力均匀分布时的取值。分数超过 {threshold} 的头为 sink 头（加框标出）。',
  },
  'sink.minQueryNote': {
    en: 'prompt shorter than {tokens} tokens: minQuery lowered to {minQuery}',
    zh: '提示词不足 {tokens} 个 token：minQuery 降为 {minQuery}',
  },
  'sink.noAttention': { en: 'no attention captured', zh: '未捕获到注意力' },
  'sink.perHead': { en: 'Sink score per head', zh: '每个头的 sink 分数' },
  'sink.colLayer': { en: 'layer', zh: '层' },
  'sink.colHead': { en: 'h{head}', zh: '头{head}' },
  'sink.colMean': { en: 'mean', zh: '均值' },
  'sink.colUniform': { en: 'uniform', zh: '均匀基线' },
  'sink.colSinkHeads': { en: 'sink heads', zh: 'sink 头' },
  'sink.cellNa': { en: 'layer {layer} head {head}: no qualifying query', zh: '第 {layer} 层第 {head} 个头：没有符合条件的查询' },
  'sink.cell': { en: 'layer {layer} head {head}: {value}', zh: '第 {layer} 层第 {head} 个头：{value}' },
  'sink.cellSink': { en: 'layer {layer} head {head}: {value} (sink head)', zh: '第 {layer} 层第 {head} 个头：{value}（sink 头）' },
  'sink.legendSinkHead': { en: '> {threshold}: sink head', zh: '> {threshold}：sink 头' },
  'sink.barsTitle': { en: 'Head-mean sink score per layer', zh: '各层的 sink 分数（头平均）' },
  'sink.barsTooltip': {
    en: 'layer {layer}: mean {mean}, uniform {uniform}, {sinkHeads} sink heads',
    zh: '第 {layer} 层：均值 {mean}，均匀基线 {uniform}，sink 头 {sinkHeads} 个',
  },
  'sink.barsThreshold': { en: 'threshold {threshold}', zh: '阈值 {threshold}' },
  'sink.barsX': { en: 'layer (bar: head-mean; green tick: uniform baseline)', zh: '层（柱：头平均；绿色短线：均匀基线）' },
  'sink.barsY': { en: 'sink score', zh: 'sink 分数' },
  'sink.restTitle': { en: 'Where attention rests', zh: '注意力停留在哪些 token 上' },
  'sink.restNone': { en: 'n/a (no query q ≥ {minQuery})', zh: '无（没有 q ≥ {minQuery} 的查询）' },
  'sink.restPos': { en: 'pos', zh: '位置' },
  'sink.restWeight': { en: 'weight', zh: '权重' },
  'sink.restToken': { en: 'token', zh: 'token 文本' },
  'sink.restCaption': {
    en: 'mean over layers and heads of the attention each key receives from queries q ≥ {minQuery}',
    zh: '每个键 token 从 q ≥ {minQuery} 的查询获得的注意力，对所有层和头取平均',
  },
  'sink.footer': { en: '{layers} layers · {heads} heads · {tokens} tokens', zh: '{layers} 层 · {heads} 个头 · {tokens} 个 token' },

  // Position-bias chart.
  'bias.title': { en: 'Position bias: lost in the middle?', zh: '位置偏置：是否“迷失在中间”？' },
  'bias.explain': {
    en: 'Attention each key token receives (mean over heads and queries q ≥ {minQuery}), averaged over the keys of the first, middle and last third of the context. A U shape — the middle lowest — is “lost in the middle”. Under the causal mask even evenly spread attention favours early keys (every later query sees them), so compare each line with the dashed uniform level.',
    zh: '每个键 token 获得的注意力（对头和 q ≥ {minQuery} 的查询取平均），再分别在上下文的前、中、后三分之一内对键取平均。U 形（中间最低）即“迷失在中间”（lost in the middle）。在因果掩码下，即使注意力均匀分布，靠前的键也会得到更多（之后的每个查询都能看到它们），因此请把每条折线与虚线表示的均匀基线对比。',
  },
  'bias.first': { en: 'first third [{from}, {to})', zh: '前三分之一 [{from}, {to})' },
  'bias.middle': { en: 'middle third [{from}, {to})', zh: '中三分之一 [{from}, {to})' },
  'bias.last': { en: 'last third [{from}, {to})', zh: '后三分之一 [{from}, {to})' },
  'bias.uniform': { en: 'uniform attention (same causal mask)', zh: '均匀注意力（相同因果掩码下）' },
  'bias.layers': { en: 'one line per layer', zh: '每层一条折线' },
  'bias.meanLegend': { en: 'mean over layers', zh: '各层均值' },
  'bias.meanGroup': { en: 'mean', zh: '均值' },
  'bias.shortFirst': { en: 'F', zh: '前' },
  'bias.shortMiddle': { en: 'M', zh: '中' },
  'bias.shortLast': { en: 'L', zh: '后' },
  'bias.tipLayer': { en: 'layer {layer}: first {first} · middle {middle} · last {last}', zh: '第 {layer} 层：前 {first} · 中 {middle} · 后 {last}' },
  'bias.tipMean': {
    en: 'mean over {layers} layers: first {first} · middle {middle} · last {last}',
    zh: '{layers} 层的均值：前 {first} · 中 {middle} · 后 {last}',
  },
  'bias.tipUniform': { en: 'uniform: first {first} · middle {middle} · last {last}', zh: '均匀基线：前 {first} · 中 {middle} · 后 {last}' },
  'bias.tipNa': { en: 'layer {layer}: n/a, no query q ≥ {minQuery}', zh: '第 {layer} 层：无数据，没有 q ≥ {minQuery} 的查询' },
  'bias.y': { en: 'attention per key token (log scale)', zh: '每个键 token 的注意力（对数刻度）' },
  'bias.x': { en: 'layer (each: first · middle · last third)', zh: '层（每组：前 · 中 · 后三分之一）' },
  'bias.aria': {
    en: 'position bias per layer: mean attention per key token in the first, middle and last third of the context',
    zh: '各层的位置偏置：上下文前、中、后三分之一中每个键 token 的平均注意力',
  },
  'bias.none': { en: 'n/a: no query q ≥ {minQuery}', zh: '无：没有 q ≥ {minQuery} 的查询' },
  // A large model's run: per-head scores for one layer, the head mean for the rest (lib/analysis/headLayers).
  'sink.meanOnlyRow': { en: 'head mean only', zh: '仅有各头平均' },
  'sink.meanOnlyRowTitle': {
    en: 'layer {layer}: only the mean of the heads came back (per-head maps are computed for one layer at a time); its mean score is exact, the score being linear in the weights',
    zh: '第 {layer} 层：只返回了各头的平均（逐头注意力图每次只计算一层）；由于分数对权重是线性的，其均值分数是精确的',
  },
  'sink.headsNote': {
    en: 'Per-head scores for layer {layers} only: per-head maps are computed for one layer at a time. The other layers’ head-mean scores are exact (the score is linear in the weights).',
    zh: '只有第 {layers} 层有逐头分数：逐头注意力图每次只计算一层。其他各层的头平均分数是精确的（分数对权重是线性的）。',
  },
  'sink.headsNoteNone': {
    en: 'No layer has per-head maps in this run: the scores are of the head mean (exact, the score being linear in the weights).',
    zh: '本次运行中没有任何一层有逐头注意力图：分数均为头平均（分数对权重是线性的，因此是精确的）。',
  },
  'sink.sinkHeadsNa': { en: 'counting sink heads needs per-head maps', zh: '统计 sink 头需要逐头注意力图' },
  'sink.barsTooltipMean': {
    en: 'layer {layer}: mean {mean}, uniform {uniform} (head mean only)',
    zh: '第 {layer} 层：均值 {mean}，均匀基线 {uniform}（仅有头平均）',
  },
} satisfies Dict;
