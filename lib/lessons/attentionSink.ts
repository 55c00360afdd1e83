// Lesson `attention-sink`: where attention rests, on the default model and the sink model side by side on
// the same prompt (the Vancouver walk-through, its last call as sent). The callouts read the sink
// score (lib/analysis/sink, docs/CONCEPTS.md#sink-score) and the colour range with key 0 hidden
// (lib/analysis/attentionView) from the run's attention; nothing is typed in.
import { colourRanges, reduceHeads } from '../analysis/attentionView';
import type { StreamingResult } from '../analysis/streaming';
import { DEFAULT_SPAN } from '../view/streamingChart';
import { attentionReceived, DEFAULT_MIN_QUERY, layerAttention, SINK_HEAD_THRESHOLD, sinkScore, topReceivers, type SinkScore } from '../analysis/sink';
import type { Analysed } from '../state/analysed';
import { count, pct, times, type Callout, type CalloutValue, type LessonExtra, type Lesson } from './types';

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

// ---- evicting the first tokens (StreamingLLM; lib/analysis/streaming, docs/CONCEPTS.md#streamingllm-experiment) ----

/** Keys per query of the window and sink caches: small enough that eviction costs visibly on these models. */
export const STREAMING_WINDOW = 32;
/** Sink tokens kept, as StreamingLLM keeps (4). */
export const STREAMING_SINK = 4;
/** Tokens of the lesson text (lib/lessons/streamingText) decoded: about 1,000 predictions per strategy. */
export const STREAMING_TOKENS = 1024;
/** Window perplexity (after fill) at least this many times full attention's counts as the collapse StreamingLLM reports. */
export const COLLAPSE_RATIO = 2;

/** A perplexity as the callouts write it ("2.199"). */
const ppl = (x: number): CalloutValue => ({ value: x, text: x.toFixed(3) });

/** Perplexity after the window fills per strategy, what the window costs (× full) and the share of that loss the sinks win back. */
export function streamingFacts(r: StreamingResult): { full: number; window: number; sink: number; cost: number; recovered: number } {
  const full = r.runs.full.perplexityAfterFill ?? NaN;
  const window = r.runs.window.perplexityAfterFill ?? NaN;
  const sink = r.runs.sink.perplexityAfterFill ?? NaN;
  return { full, window, sink, cost: window / full, recovered: window > full ? (window - sink) / (window - full) : 0 };
}

function streamingCallouts(_runs: readonly unknown[], extra?: LessonExtra): Callout[] {
  const results = extra?.streaming ?? [];
  const out: Callout[] = [];
  results.forEach((r, i) => {
    const f = streamingFacts(r);
    const model = SINK_MODELS[i]!;
    out.push({
      id: `evict-${i}`,
      template: {
        en: '{model}: from token {from} on, perplexity is {full} with full attention and {window} with only the last {w} tokens cached — {cost} as high.',
        zh: '{model}：从第 {from} 个 token 起，全注意力下困惑度为 {full}，只缓存最近 {w} 个 token 时为 {window}——是前者的 {cost}。',
      },
      values: { from: count(r.firstEvictedQuery + 1), full: ppl(f.full), window: ppl(f.window), w: count(r.window), cost: times(f.cost) },
      words: { model },
    });
    out.push(
      f.sink < f.window
        ? {
            id: `sinks-${i}`,
            template: {
              en: '{model}: keeping the first {k} tokens as well (still {w} keys) gives {sink}: it wins back {recovered} of what the window lost.',
              zh: '{model}：同时保留前 {k} 个 token（仍是 {w} 个键）时为 {sink}：挽回了窗口损失的 {recovered}。',
            },
            values: { k: count(r.sink), w: count(r.window), sink: ppl(f.sink), recovered: pct(f.recovered) },
            words: { model },
          }
        : {
            id: `sinks-${i}`,
            missing: true,
            template: {
              en: '{model}: keeping the first {k} tokens does not help: {sink} with them, {window} without (same {w} keys).',
              zh: '{model}：保留前 {k} 个 token 没有帮助：保留时为 {sink}，不保留时为 {window}（同样 {w} 个键）。',
            },
            values: { k: count(r.sink), w: count(r.window), sink: ppl(f.sink), window: ppl(f.window) },
            words: { model },
          },
    );
  });
  if (results.length > 0) {
    const worst = Math.max(...results.map((r) => streamingFacts(r).cost));
    const collapse = worst >= COLLAPSE_RATIO;
    out.push({
      id: 'paper',
      missing: !collapse,
      template: collapse
        ? {
            en: 'As StreamingLLM reports, evicting the first tokens makes window attention degrade sharply: up to {worst} the perplexity of full attention.',
            zh: '与 StreamingLLM 的报告一致，逐出最前面的 token 会让窗口注意力急剧变差：困惑度最高达到全注意力的 {worst}。',
          }
        : {
            en: 'StreamingLLM saw window attention collapse once the first tokens left the cache, and 4 kept tokens restore it. Neither model here collapses: the window raises perplexity to at most {worst} that of full attention, below the {ratio} we would call a collapse.',
            zh: 'StreamingLLM 观察到：最前面的 token 一旦离开缓存，窗口注意力就会崩溃，而保留 4 个 token 即可恢复。这里两个模型都没有崩溃：窗口最多让困惑度变为全注意力的 {worst}，低于我们视为崩溃的 {ratio}。',
          },
      values: { worst: times(worst), ratio: times(COLLAPSE_RATIO) },
    });
  }
  return out;
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
        en: 'Averages hide how uneven heads are. This is a single head of the last layer in both models, zoomed in on the first 16 tokens so that every token is labelled (− or 0 zooms out). Compare how much of column 0 lights up in each, row after row, whatever the query is.',
        zh: '平均值掩盖了各个头之间的差别。这里是两个模型最后一层的同一个头，放大到前 16 个 token，每个 token 都有标签（按 − 或 0 缩小）。比较两边第 0 列逐行亮起的程度——无论查询是什么。',
      },
      view: { ...base, kind: 'attention', layer: SINK_LAYER, head: SINK_HEAD, hideSink: false, zoom: { q0: 0, k0: 0, span: 16 } },
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
    {
      id: 'evict',
      title: { en: 'Evict the first tokens', zh: '逐出最前面的 token' },
      body: {
        en: `A cache that keeps only the last W tokens drops the first token too, and with it the sink. StreamingLLM found that this breaks a model, and that keeping a few first tokens fixes it. Here both models read a long agent trajectory token by token, three ways: only the last ${STREAMING_WINDOW} tokens cached (red), the first ${STREAMING_SINK} plus the last ${STREAMING_WINDOW - STREAMING_SINK} (blue), and everything (green). The lines are perplexity over the last ${DEFAULT_SPAN} tokens: lower is better.`,
        zh: `只保留最近 W 个 token 的缓存也会丢掉第一个 token，连同 sink 一起。StreamingLLM 发现这会让模型失效，而保留最前面的几个 token 就能修复。这里两个模型逐个 token 读同一段很长的智能体轨迹，分三种方式：只缓存最近 ${STREAMING_WINDOW} 个 token（红），前 ${STREAMING_SINK} 个加最近 ${STREAMING_WINDOW - STREAMING_SINK} 个（蓝），全部保留（绿）。曲线是最近 ${DEFAULT_SPAN} 个 token 的困惑度：越低越好。`,
      },
      view: { ...base, kind: 'streaming', window: STREAMING_WINDOW, sink: STREAMING_SINK, tokens: STREAMING_TOKENS },
      callouts: streamingCallouts,
    },
  ],
};
