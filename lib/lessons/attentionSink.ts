// Lesson `attention-sink`: where attention rests, on the default model and the sink model side by side on
// the same prompt (the Vancouver walk-through, its last call as sent). The callouts read the sink
// score (lib/analysis/sink, docs/CONCEPTS.md#sink-score) and the colour range with key 0 hidden
// (lib/analysis/attentionView) from the run's attention; nothing is typed in.
import { colourRanges, reduceHeads } from '../analysis/attentionView';
import { attentionReceived, DEFAULT_MIN_QUERY, layerAttention, SINK_HEAD_THRESHOLD, sinkScore, topReceivers, type SinkScore } from '../analysis/sink';
import type { Analysed } from '../state/analysed';
import { count, pct, times, type Callout, type Lesson } from './types';

export const SINK_MODELS = ['kvscope-tiny', 'kvscope-tiny-sink'];
const SCENARIO = 'vancouver';
/** The last layer of the embedded models (4 layers): where the sink model's sink was seeded. */
export const SINK_LAYER = 3;
/** The head the one-head step shows (the view is fixed; the callout says which head is strongest in this run). */
export const SINK_HEAD = 2;
/** The share the chapter reports for a large model's first token ("sometimes more than 70 %"). */
export const CHAPTER_SHARE = 0.7;

/** The minimum query position for the sink score: the default, lowered for short prompts as the sink panel does. */
export function minQueryFor(tokens: number): number {
  return tokens <= DEFAULT_MIN_QUERY ? Math.max(1, tokens - 1) : DEFAULT_MIN_QUERY;
}

/** Token 0's sink score per layer of one run. */
export function sinkScores(run: Analysed): SinkScore[] {
  const mq = minQueryFor(run.tokens);
  return run.attention.map((t) => sinkScore(layerAttention(t), 0, mq));
}

/** The strongest head over all layers: its layer, head and score. */
export function strongestHead(scores: readonly SinkScore[]): { layer: number; head: number; score: number } {
  let best = { layer: 0, head: 0, score: -1 };
  scores.forEach((s, layer) =>
    s.perHead.forEach((v, head) => {
      if (v !== null && v > best.score) best = { layer, head, score: v };
    }),
  );
  return best;
}

function layerShareCallouts(runs: readonly Analysed[]): Callout[] {
  const out: Callout[] = runs.map((run, i) => {
    const s = sinkScores(run)[SINK_LAYER]!;
    return {
      id: `share-${i}`,
      template: {
        en: '{model}: at layer {layer}, a head gives on average {share} of its attention to token 0; attention spread evenly would give {uniform}.',
        zh: '{model}：在第 {layer} 层，每个头平均把 {share} 的注意力给了 token 0；若注意力平均分配，只有 {uniform}。',
      },
      values: { layer: count(SINK_LAYER), share: pct(s.headMean ?? 0), uniform: pct(s.uniformBaseline ?? 0) },
      words: { model: SINK_MODELS[i]! },
    };
  });
  if (runs.length === 2) {
    const a = sinkScores(runs[0]!)[SINK_LAYER]!.headMean ?? 0;
    const b = sinkScores(runs[1]!)[SINK_LAYER]!.headMean ?? 0;
    out.push({
      id: 'ratio',
      template: {
        en: 'Same prompt, same layer: the sink model puts {ratio} as much attention on token 0 as the default model.',
        zh: '同一个提示、同一层：sink 模型放在 token 0 上的注意力是默认模型的 {ratio}。',
      },
      values: { ratio: times(a > 0 ? b / a : 0) },
    });
  }
  return out;
}

function perLayerCallouts(runs: readonly Analysed[]): Callout[] {
  return runs.map((run, i): Callout => {
    const scores = sinkScores(run);
    const heads = scores[0]?.perHead.length ?? 0;
    let top = 0;
    scores.forEach((s, l) => {
      if ((s.headMean ?? 0) > (scores[top]!.headMean ?? 0)) top = l;
    });
    const sinkHeads = scores.reduce((n, s) => n + s.sinkHeads, 0);
    const best = strongestHead(scores);
    if (sinkHeads === 0) {
      return {
        id: `layers-${i}`,
        missing: true,
        template: {
          en: '{model} has no sink head: no head of any layer gives token 0 more than {threshold}. Its strongest is head {head} of layer {hlayer} with {best}.',
          zh: '{model} 没有 sink 头：任何一层的任何头给 token 0 的注意力都不超过 {threshold}。最强的是第 {hlayer} 层第 {head} 个头，为 {best}。',
        },
        values: { threshold: pct(SINK_HEAD_THRESHOLD), head: count(best.head), hlayer: count(best.layer), best: pct(best.score) },
        words: { model: SINK_MODELS[i]! },
      };
    }
    return {
      id: `layers-${i}`,
      template: {
        en: '{model}: the sink is strongest at layer {layer} ({score} on average over heads); {sinkHeads} of its {total} heads score above {threshold}.',
        zh: '{model}：sink 在第 {layer} 层最强（各头平均 {score}）；全部 {total} 个头中有 {sinkHeads} 个超过 {threshold}。',
      },
      values: { layer: count(top), score: pct(scores[top]!.headMean ?? 0), sinkHeads: count(sinkHeads), total: count(heads * scores.length), threshold: pct(SINK_HEAD_THRESHOLD) },
      words: { model: SINK_MODELS[i]! },
    };
  });
}

function oneHeadCallouts(runs: readonly Analysed[]): Callout[] {
  const out: Callout[] = runs.map((run, i) => {
    const s = sinkScores(run)[SINK_LAYER]!;
    return {
      id: `head-${i}`,
      template: {
        en: '{model}: head {head} of layer {layer} gives {share} of its attention to token 0.',
        zh: '{model}：第 {layer} 层第 {head} 个头把 {share} 的注意力给了 token 0。',
      },
      values: { head: count(SINK_HEAD), layer: count(SINK_LAYER), share: pct(s.perHead[SINK_HEAD] ?? 0) },
      words: { model: SINK_MODELS[i]! },
    };
  });
  const best = Math.max(...runs.map((r) => strongestHead(sinkScores(r)).score));
  out.push({
    id: 'chapter',
    missing: best < CHAPTER_SHARE,
    template:
      best < CHAPTER_SHARE
        ? {
            en: 'The chapter saw the first token take more than {chapter} of the attention in a large model. These small models do not go that far: the strongest head on this prompt gives it {best}.',
            zh: '本章在大模型中看到第一个 token 有时拿走超过 {chapter} 的注意力。这些小模型没有到那个程度：在这个提示上最强的头给了它 {best}。',
          }
        : {
            en: 'As in the chapter (more than {chapter}), the strongest head on this prompt gives token 0 {best}.',
            zh: '与本章所说一致（超过 {chapter}），在这个提示上最强的头给了 token 0 {best}。',
          },
    values: { chapter: pct(CHAPTER_SHARE), best: pct(best) },
  });
  return out;
}

/** With key 0 hidden: which key receives most (mean over heads, queries ≥ minQuery) and how much the colour range narrows. */
export function hiddenSinkFacts(run: Analysed, layer = SINK_LAYER): { key: number; weight: number; label: string; ratio: number } {
  const a = layerAttention(run.attention[layer]!);
  const received = attentionReceived(a, minQueryFor(run.tokens))!;
  const top = topReceivers(received, received.length).find((r) => r.key !== 0)!;
  const m = reduceHeads(run.attention[layer]!, 'mean');
  const T = run.tokens;
  const ranges = colourRanges(m.data, T, T, DEFAULT_MIN_QUERY, 0);
  return { key: top.key, weight: top.weight, label: run.labels[top.key] ?? '', ratio: ranges.ratio };
}

function hideSinkCallouts(runs: readonly Analysed[]): Callout[] {
  return runs.map((run, i) => {
    const f = hiddenSinkFacts(run);
    return {
      id: `hidden-${i}`,
      template: {
        en: '{model}: with token 0 hidden the colour range narrows {ratio}; the key that now receives most is token {key} “{label}” ({weight} on average).',
        zh: '{model}：隐藏 token 0 后颜色范围缩小 {ratio}；现在接收注意力最多的是 token {key}“{label}”（平均 {weight}）。',
      },
      values: { ratio: times(f.ratio), key: count(f.key), weight: pct(f.weight) },
      words: { model: SINK_MODELS[i]!, label: f.label },
    };
  });
}

const base = { models: SINK_MODELS, scenario: SCENARIO, context: 'last' as const };

export const attentionSink: Lesson = {
  slug: 'attention-sink',
  title: { en: 'The attention sink', zh: '注意力汇（attention sink）' },
  summary: {
    en: 'Where attention goes when nothing in particular deserves it: the default model and the sink model side by side.',
    zh: '当没有哪个 token 特别值得关注时，注意力去了哪里：默认模型与 sink 模型并排对照。',
  },
  steps: [
    {
      id: 'rests',
      title: { en: 'Attention has to go somewhere', zh: '注意力总得有个去处' },
      body: {
        en: 'Each row of an attention map is a softmax: its weights add up to exactly one, so a head cannot say “nothing here matters”. Many trained models park the leftover weight on the first token. Here are two small models reading the same prompt (the Vancouver walk-through), last layer, averaged over heads. Watch the leftmost column.',
        zh: '注意力图的每一行都是一次 softmax：权重之和恰好为 1，所以一个头无法表达“这里没什么重要的”。许多训练好的模型把多余的权重停放在第一个 token 上。下面是两个小模型读同一个提示（温哥华示例），看最后一层、各头平均。请注意最左边那一列。',
      },
      view: { ...base, kind: 'attention', layer: SINK_LAYER, head: 'mean', hideSink: false },
      callouts: layerShareCallouts,
    },
    {
      id: 'per-layer',
      title: { en: 'The sink score, layer by layer', zh: '逐层看 sink 分数' },
      body: {
        en: 'The sink score of token 0 is the mean attention it receives from queries at position 16 and later (early rows see only a few keys and would inflate it). The bars compare it with what evenly spread attention would give. A head above 0.3 counts as a sink head.',
        zh: 'token 0 的 sink 分数是它从第 16 个位置及之后的查询那里得到的平均注意力（靠前的行只能看到很少的 key，会把分数抬高）。柱状图把它与注意力平均分配时的值对比。超过 0.3 的头算作 sink 头。',
      },
      view: { ...base, kind: 'sink' },
      callouts: perLayerCallouts,
    },
    {
      id: 'one-head',
      title: { en: 'One head up close', zh: '近看一个头' },
      body: {
        en: 'Averages hide how uneven heads are. This is a single head of the last layer in both models. Compare how much of column 0 lights up in each, row after row, whatever the query is.',
        zh: '平均值掩盖了各个头之间的差别。这里是两个模型最后一层的同一个头。比较两边第 0 列逐行亮起的程度——无论查询是什么。',
      },
      view: { ...base, kind: 'attention', layer: SINK_LAYER, head: SINK_HEAD, hideSink: false },
      callouts: oneHeadCallouts,
    },
    {
      id: 'hide-sink',
      title: { en: 'Hide the sink to see the rest', zh: '隐藏 sink，看清其余部分' },
      body: {
        en: 'A bright sink column stretches the colour scale so everything else looks black. Hiding key 0 and rescaling each row shows where the remaining attention goes. The sink is not a defect to remove from the model, only from the picture: the weights still add up to one.',
        zh: '明亮的 sink 列会撑大色标，让其他部分看起来一片漆黑。隐藏第 0 个 key 并对每行重新归一化，就能看到剩下的注意力去了哪里。sink 不是模型要去掉的缺陷，只是要从图上拿掉：权重之和仍然是 1。',
      },
      view: { ...base, kind: 'attention', layer: SINK_LAYER, head: 'mean', hideSink: true },
      callouts: hideSinkCallouts,
    },
  ],
};
