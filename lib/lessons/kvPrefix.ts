// Lesson `kv-prefix`: a one-token edit in the system prompt throws the cache away from that token on. The
// step's view replaces one token of the prompt (the KV tab's default edit, lib/analysis/invalidation
// defaultEdit) and has the engine compute both caches on one shared cache (prefill A, fork to where they part,
// extend with B: lib/engine/kvCompare), diffs them per layer (lib/analysis/kvDiff) and reads the facts
// (invalidationFacts). The callouts phrase those facts; nothing is typed in. Engine orchestration only: no DOM.
import { defaultEdit, invalidationFacts, type InvalidationFacts } from '../analysis/invalidation';
import { kvDelta, tokenEdit, type KvDelta } from '../analysis/kvDiff';
import { compareCaches, type KvEngine } from '../engine/kvCompare';
import { displayToken, visibleWhitespace } from '../prompt/label';
import type { Prompt } from '../prompt/prompt';
import { singleToken, type Vocab } from '../prompt/vocab';
import type { Analysed } from '../state/analysed';
import { count, pct, type Callout, type Lesson, type LessonExtra } from './types';
import { CodedError } from '../i18n/message';

const MODEL = 'kvscope-tiny';
/** Differences at or below this count as floating-point noise (the KV tab's TOL). */
export const KV_TOL = 1e-6;

/** The edit a 'kv' step makes: which position, the token there and the single token put in its place. */
export interface KvEdit {
  position: number;
  segment: string;
  /** Display labels of the old and the new token. */
  from: string;
  to: string;
  text: string;
  id: number;
}

/** What a 'kv' step computes: the edit, both sequences, and the comparison's delta and facts. */
export interface KvLessonRun {
  edit: KvEdit;
  aIds: number[];
  bIds: number[];
  /** Where A and B part; B's positions computed by the engine (B's length minus the prefix, shared cache). */
  prefix: number;
  computedB: number;
  delta: KvDelta;
  facts: InvalidationFacts;
  ms: number;
}

/** The step's edit of `prompt`: defaultEdit's one-token replacement (the first word of the system prompt), or null. */
export function kvEditOf(prompt: Prompt, vocab: Vocab): KvEdit | null {
  const e = defaultEdit(prompt, (s) => singleToken(vocab, s).ok);
  if (!e) return null;
  const one = singleToken(vocab, e.text);
  if (!one.ok) return null;
  return { position: e.position, segment: e.segment, from: displayToken(prompt.tokens[e.position]!), to: visibleWhitespace(e.text), text: e.text, id: one.id };
}

/** Runs the step's comparison on `engine` (left holding B's cache). */
export async function kvLessonRun(engine: KvEngine, prompt: Prompt, vocab: Vocab): Promise<KvLessonRun> {
  const edit = kvEditOf(prompt, vocab);
  if (!edit) throw new CodedError('msg.engine.lesson.noEdit');
  const aIds = [...prompt.ids];
  const bIds = tokenEdit(aIds, edit.position, edit.id);
  const pair = await compareCaches(engine, aIds, bIds, { mode: 'shared' });
  const delta = kvDelta(pair.a, pair.b, { tol: KV_TOL });
  const facts = invalidationFacts(delta, aIds.length, bIds.length, pair.prefix);
  return { edit, aIds, bIds, prefix: pair.prefix, computedB: pair.computedB, delta, facts, ms: pair.ms };
}

/** Layers ≥ 1: how many of them changed at every compared position from the edit on, and the fewest changed. */
function laterLayers(f: InvalidationFacts): { all: number; layers: number; minChanged: number; compared: number } {
  const later = f.perLayer.slice(1);
  const all = later.filter((r) => r.comparedAfterPrefix > 0 && r.changedAfterPrefix === r.comparedAfterPrefix).length;
  return { all, layers: later.length, minChanged: Math.min(...later.map((r) => r.changedAfterPrefix)), compared: later[0]?.comparedAfterPrefix ?? 0 };
}

function editCallouts(_runs: readonly Analysed[], extra?: LessonExtra): Callout[] {
  const kv = extra?.kv;
  if (!kv) return [];
  const f = kv.facts;
  const l0 = f.layer0ChangedCount;
  const atEdit = l0 === 1 && f.layer0Changed[0] === kv.edit.position;
  const later = laterLayers(f);
  return [
    {
      id: 'layer0',
      template: atEdit
        ? {
            en: 'Replacing {from} by {to} at position {position} changes layer 0’s keys and values at {l0} position only, the edited one: a token’s layer-0 K/V depend on nothing but the token and its position.',
            zh: '把位置 {position} 的 {from} 换成 {to}，第 0 层的键和值只在 {l0} 个位置上改变，就是被编辑的那个：一个 token 的第 0 层 K/V 只取决于这个 token 本身和它的位置。',
          }
        : {
            en: 'Replacing {from} by {to} at position {position} changes layer 0’s keys and values at {l0} positions, the first at {first}: on this model layer 0 does not change at the edited position alone.',
            zh: '把位置 {position} 的 {from} 换成 {to}，第 0 层的键和值在 {l0} 个位置上改变，第一个在 {first}：在这个模型上，第 0 层并不只在被编辑的位置改变。',
          },
      values: { position: count(kv.edit.position), l0: count(l0), ...(atEdit ? {} : { first: count(f.layer0Changed[0] ?? -1) }) },
      words: { from: kv.edit.from, to: kv.edit.to },
      missing: !atEdit || undefined,
    },
    {
      id: 'later',
      template:
        later.all === later.layers
          ? {
              en: 'In each of the {layers} later layers, all {compared} positions from {position} on changed (above {tol}): attention carries the edited token into every token after it.',
              zh: '在之后的 {layers} 层中，从位置 {position} 起的全部 {compared} 个位置都改变了（超过 {tol}）：注意力把被编辑的 token 带进了它之后的每一个 token。',
            }
          : {
              en: 'Of the {layers} later layers, {all} changed at all {compared} positions from {position} on; the least changed layer changed at {minChanged} of them (above {tol}).',
              zh: '之后的 {layers} 层中，有 {all} 层在从位置 {position} 起的全部 {compared} 个位置上都改变了；改变最少的一层改变了其中 {minChanged} 个（超过 {tol}）。',
            },
      values: { layers: count(later.layers), compared: count(later.compared), position: count(kv.edit.position), tol: { value: KV_TOL, text: '1e-6' }, ...(later.all === later.layers ? {} : { all: count(later.all), minChanged: count(later.minChanged) }) },
      missing: later.all !== later.layers || undefined,
    },
  ];
}

function reuseCallouts(_runs: readonly Analysed[], extra?: LessonExtra): Callout[] {
  const kv = extra?.kv;
  if (!kv) return [];
  const f = kv.facts;
  return [
    {
      id: 'reuse',
      template: f.prefixBitIdentical
        ? {
            en: 'The cache keeps the {prefix} tokens before the edit ({share} of {total}), bit for bit the same entries: they are reused.',
            zh: '缓存保留编辑之前的 {prefix} 个 token（占 {total} 个的 {share}），条目逐位相同：它们被复用。',
          }
        : {
            en: 'The {prefix} tokens before the edit ({share} of {total}) are reused, but not bit for bit: the largest difference there is {maxK}.',
            zh: '编辑之前的 {prefix} 个 token（占 {total} 个的 {share}）被复用，但并非逐位相同：其中最大差异为 {maxK}。',
          },
      values: { prefix: count(f.prefix), share: pct(f.prefix / f.lengthB), total: count(f.lengthB), ...(f.prefixBitIdentical ? {} : { maxK: { value: Math.max(f.prefixMaxK, f.prefixMaxV), text: Math.max(f.prefixMaxK, f.prefixMaxV).toExponential(2) } }) },
      missing: !f.prefixBitIdentical || undefined,
    },
    {
      id: 'recompute',
      template: {
        en: 'Everything from the edit on is recomputed: {recomputed} tokens ({share}) in each of the {layers} layers, {entries} K/V entries. The engine computed {computed} positions of the edited prompt.',
        zh: '从编辑处起的一切都要重算：{recomputed} 个 token（占 {share}），在全部 {layers} 层中各算一遍，共 {entries} 个 K/V 条目。引擎为编辑后的提示计算了 {computed} 个位置。',
      },
      values: { recomputed: count(f.recomputedTokens), share: pct(f.recomputedTokens / f.lengthB), layers: count(f.layers), entries: count(f.recomputedEntries), computed: count(kv.computedB) },
    },
  ];
}

export const kvPrefix: Lesson = {
  slug: 'kv-prefix',
  title: { en: 'One token in the prefix', zh: '前缀里的一个 token' },
  summary: {
    en: 'Edit one token of the system prompt: layer 0 changes at that position only, every later layer from there on, and the cache is lost from the edit to the end.',
    zh: '修改系统提示中的一个 token：第 0 层只在这个位置改变，之后的每一层从这里起全部改变，缓存从编辑处到末尾全部失效。',
  },
  steps: [
    {
      id: 'one-token',
      title: { en: 'Layer 0 changes at one position', zh: '第 0 层只在一个位置改变' },
      body: {
        en: 'Two prompts that differ in one word of the system prompt. The maps show, layer by layer (rows) and position by position (columns), how far the keys and values of the edited prompt moved from the original. Layer 0 sees each token on its own, so only the edited column lights up there; from layer 1 on every token attends to the edited one, so the whole rest of the row changes.',
        zh: '两个提示只在系统提示的一个词上不同。图中按层（行）和位置（列）显示编辑后提示的键和值与原来相差多少。第 0 层单独看每个 token，所以那里只有被编辑的那一列变亮；从第 1 层起，每个 token 都会关注被编辑的 token，所以这一行后面的部分全部改变。',
      },
      view: { kind: 'kv', models: [MODEL], scenario: 'vancouver', context: 0 },
      callouts: editCallouts,
    },
    {
      id: 'sweep',
      title: { en: 'What the edit costs: the recompute sweep', zh: '编辑的代价：重算扫描' },
      body: {
        en: 'A prompt cache can only reuse the prefix before the first differing token. Everything after it has to be computed again, in every layer. Play the sweep to watch that work: the earlier the edit, the more of the prompt it costs. This is why a timestamp or a changing line in the system prompt is so expensive.',
        zh: '提示缓存只能复用第一个不同 token 之前的前缀，之后的一切都要在每一层重新计算。播放扫描看看这部分工作：编辑越靠前，损失的提示就越多。这就是为什么系统提示里的时间戳或任何会变的行代价如此之高。',
      },
      view: { kind: 'kv', models: [MODEL], scenario: 'file-tools', context: 'last' },
      callouts: reuseCallouts,
    },
  ],
};
