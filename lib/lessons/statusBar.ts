// Lesson `status-bar`: the A/B of the chapter — Xfinity without (A) and with (B) the <agent_status> message.
// The step runs arm B (its scenario) as every step does; its view computes arm A besides (render + prefill on
// the same engine, from an empty cache: lib/lessons statusArmA) and the attention mass per region at each
// arm's decision position (the last prompt token) with the A/B tab's regions and masses
// (lib/analysis/abArms regionsForRef, lib/analysis/abCompare regionMasses). The callouts read those masses;
// nothing is typed in. Pure orchestration: no DOM, no engine of its own.
import { conversationTargets, generatedTargets, regionsForRef, tallyDecisions } from '../analysis/abArms';
import { runSeeds, type SeedEngine, type SeedRun } from '../generate/abSeeds';
import type { SamplingSettings } from '../generate/sampling';
import { regionMasses, type MassEntry, type RegionMasses } from '../analysis/abCompare';
import type { Prompt } from '../prompt/prompt';
import { parseScenarioRef, scenarioRequest } from '../scenarios';
import type { ChatRequest } from '../scenarios/types';
import type { Analysed } from '../state/analysed';
import type { Tensor } from '../tensor';
import { count, pct, type Callout, type Lesson, type LessonExtra } from './types';

const MODEL = 'kvscope-tiny';
/** The built-in pair (components/ab/useAbArms BUILTIN_ARMS): A without, B with the status bar. */
export const STATUS_ARM_A = 'xfinity:without-status';
export const STATUS_ARM_B = 'xfinity:with-status';

/** Arm A as the step's view computes it: its prompt (the engine's chat template) and its attention per layer. */
export interface StatusArmRun {
  prompt: Prompt;
  attention: Tensor[];
}

/** Renders arm A with `render` and prefills it with `prefill` (the page: the worker; Node: buildPrompt + EngineSession). */
export async function statusArmA(render: (request: ChatRequest) => Promise<Prompt>, prefill: (ids: number[]) => Promise<Tensor[]>): Promise<StatusArmRun> {
  const { id, variant } = parseScenarioRef(STATUS_ARM_A);
  const prompt = await render(scenarioRequest(id, variant));
  const attention = await prefill(prompt.ids);
  if (!attention.length) throw new Error('the engine returned no attention for arm A');
  return { prompt, attention };
}

/** Each arm's region masses at its decision position (its last prompt token: the row that picks the first generated token). */
export interface StatusDecision {
  a: RegionMasses;
  b: RegionMasses;
  /** Prompt lengths of A and B. */
  tokensA: number;
  tokensB: number;
}

export function statusDecision(a: StatusArmRun, b: { prompt: Prompt; attention: readonly Tensor[] }): StatusDecision {
  const masses = (ref: string, r: { prompt: Prompt; attention: readonly Tensor[] }) => regionMasses(r.attention, r.prompt, regionsForRef(ref, r.prompt), r.prompt.ids.length - 1);
  return { a: masses(STATUS_ARM_A, a), b: masses(STATUS_ARM_B, b), tokensA: a.prompt.ids.length, tokensB: b.prompt.ids.length };
}

const entry = (m: RegionMasses, id: string): MassEntry | null => m.regions.find((e) => e.id === id) ?? null;

function decisionCallouts([runB]: readonly Analysed[], extra?: LessonExtra): Callout[] {
  const armA = extra?.statusArm;
  if (!armA || !runB) return [];
  const d = statusDecision(armA, runB);
  const status = entry(d.b, 'status_bar');
  const qa = entry(d.a, 'latest_user_query');
  const qb = entry(d.b, 'latest_user_query');
  const out: Callout[] = [];
  if (status) {
    // What a row spreading its attention evenly over the prompt would give the status bar: its share of the tokens.
    const even = status.tokens / d.tokensB;
    const top = status.perLayer.reduce((bi, v, l) => (v > status.perLayer[bi]! ? l : bi), 0);
    const more = status.mean > even;
    out.push({
      id: 'status',
      template: more
        ? {
            en: 'In B the decision position gives {share} of its attention (mean over layers and heads) to the {tokens}-token status bar, more than its {even} share of the prompt’s tokens; most in layer {layer} ({layerShare}).',
            zh: '在 B 组中，决策位置把 {share} 的注意力（对各层各头取平均）给了 {tokens} 个 token 的状态栏，高于它在提示 token 中所占的 {even}；最多的是第 {layer} 层（{layerShare}）。',
          }
        : {
            en: 'In B the decision position gives only {share} of its attention (mean over layers and heads) to the {tokens}-token status bar, not more than its {even} share of the prompt’s tokens (at most {layerShare}, in layer {layer}): on this model the status bar does not draw the decision’s attention as the chapter describes.',
            zh: '在 B 组中，决策位置只把 {share} 的注意力（对各层各头取平均）给了 {tokens} 个 token 的状态栏，不高于它在提示 token 中所占的 {even}（最多 {layerShare}，在第 {layer} 层）：在这个模型上，状态栏并没有像本章描述的那样吸引决策的注意力。',
          },
      values: { share: pct(status.mean), tokens: count(status.tokens), even: pct(even), layer: count(top), layerShare: pct(status.perLayer[top]!) },
      missing: !more || undefined,
    });
  }
  if (qa && qb) {
    const down = qb.mean < qa.mean;
    out.push({
      id: 'query',
      template: down
        ? {
            en: 'The latest user query (“call Xfinity one more time”) gets {a} of the decision’s attention in A and {b} in B: the status bar takes {drop} from it.',
            zh: '最新的用户请求（“再给 Xfinity 打一次”）在 A 组中得到决策注意力的 {a}，在 B 组中得到 {b}：状态栏从它那里拿走了 {drop}。',
          }
        : {
            en: 'The latest user query (“call Xfinity one more time”) gets {a} of the decision’s attention in A and {b} in B: with the status bar it does not lose attention on this model.',
            zh: '最新的用户请求（“再给 Xfinity 打一次”）在 A 组中得到决策注意力的 {a}，在 B 组中得到 {b}：在这个模型上，加了状态栏它并没有失去注意力。',
          },
      values: { a: pct(qa.mean), b: pct(qb.mean), ...(down ? { drop: pct(qa.mean - qb.mean) } : {}) },
    });
  }
  const sa = entry(d.a, 'first_token');
  const sb = entry(d.b, 'first_token');
  if (sa && sb)
    out.push({
      id: 'sink',
      template: {
        en: 'The first token (where a sink model parks spare attention) takes {a} of the decision’s attention in A and {b} in B.',
        zh: '第一个 token（带汇聚的模型会把多余的注意力停在这里）在 A 组中得到决策注意力的 {a}，在 B 组中得到 {b}。',
      },
      values: { a: pct(sa.mean), b: pct(sb.mean) },
    });
  return out;
}

// ---- step 2: decisions over seeds ------------------------------------------------------------------------

/** The seeds each arm samples (the A/B tab's first three, `kvscope ab --seeds 3`) and the token limit (the A/B tab's default). */
export const STATUS_SEEDS: readonly number[] = [1, 2, 3];
export const STATUS_MAX_NEW_TOKENS = 48;

/** Both arms sampled once per seed (lib/generate/abSeeds runSeeds) with the model's generation_config. */
export interface StatusSeedsRun {
  seeds: number[];
  maxNewTokens: number;
  sampling: SamplingSettings;
  a: SeedRun[];
  b: SeedRun[];
  /** The string arguments of each arm's own phone_call calls in the conversation (e.g. ['Xfinity']). */
  targetsA: string[];
  targetsB: string[];
}

/**
 * Renders both arms with `render` and samples STATUS_SEEDS continuations of each on `engine` (A first, then
 * B: the A/B tab's order), at most STATUS_MAX_NEW_TOKENS new tokens each, classified as the A/B tab does
 * (lib/prompt/assistantOutput classifyDecision). Throws when stopped through `signal`.
 */
export async function statusSeeds(
  render: (request: ChatRequest) => Promise<Prompt>,
  engine: SeedEngine,
  sampling: SamplingSettings,
  decode: (ids: number[]) => string,
  signal?: AbortSignal,
): Promise<StatusSeedsRun> {
  const seeds = [...STATUS_SEEDS];
  const arm = async (ref: string) => {
    const { id, variant } = parseScenarioRef(ref);
    const request = scenarioRequest(id, variant);
    const prompt = await render(request);
    const r = await runSeeds(engine, prompt.ids, seeds, { maxNewTokens: STATUS_MAX_NEW_TOKENS, sampling, decode, signal });
    if (r.aborted) throw new Error('stopped');
    return { runs: r.runs, targets: conversationTargets(request) };
  };
  const a = await arm(STATUS_ARM_A);
  const b = await arm(STATUS_ARM_B);
  return { seeds, maxNewTokens: STATUS_MAX_NEW_TOKENS, sampling, a: a.runs, b: b.runs, targetsA: a.targets, targetsB: b.targets };
}

function seedCallouts(_runs: readonly Analysed[], extra?: LessonExtra): Callout[] {
  const s = extra?.seeds;
  if (!s) return [];
  const n = s.seeds.length;
  const ta = tallyDecisions(s.a);
  const tb = tallyDecisions(s.b);
  const out: Callout[] = [
    {
      id: 'tally',
      template: {
        en: 'Without the status bar (A) the model calls again in {callA} of {n} seeds; with it (B), in {callB} of {n}.',
        zh: '没有状态栏（A 组）时，模型在 {n} 个种子中有 {callA} 个再次拨打；有状态栏（B 组）时，{n} 个中有 {callB} 个。',
      },
      values: { callA: count(ta.call), callB: count(tb.call), n: count(n) },
    },
  ];
  // Seed by seed (the same seed in both arms): calls in A and refuses in B, or the other way round.
  const flipped = s.seeds.filter((seed) => s.a.find((r) => r.seed === seed)?.decision === 'call' && s.b.find((r) => r.seed === seed)?.decision === 'refuse').length;
  const worse = s.seeds.filter((seed) => s.a.find((r) => r.seed === seed)?.decision === 'refuse' && s.b.find((r) => r.seed === seed)?.decision === 'call').length;
  const helps = tb.call < ta.call;
  out.push({
    id: 'effect',
    template: helps
      ? {
          en: 'The status bar changes the decision: in {flipped} of {n} seeds the same seed calls again without it and refuses with it ({worse} the other way round).',
          zh: '状态栏改变了决策：{n} 个种子中有 {flipped} 个，同一个种子没有状态栏时再次拨打，有状态栏时拒绝（反过来的有 {worse} 个）。',
        }
      : {
          en: 'On this model the status bar does not make the model refuse more often: {callB} calls again with it against {callA} without it ({flipped} of {n} seeds go from calling to refusing, {worse} the other way round).',
          zh: '在这个模型上，状态栏并没有让模型更常拒绝：有状态栏时再次拨打 {callB} 次，没有时 {callA} 次（{n} 个种子中有 {flipped} 个从拨打变为拒绝，{worse} 个反过来）。',
        },
    values: { flipped: count(flipped), worse: count(worse), n: count(n), ...(helps ? {} : { callA: count(ta.call), callB: count(tb.call) }) },
    missing: !helps || undefined,
  });
  // Whom the generated calls name: the conversation's own company, or one the model made up.
  const calls = generatedTargets(
    [...s.a, ...s.b].map((r) => r.parsed),
    [...new Set([...s.targetsA, ...s.targetsB])],
  );
  const total = calls.reduce((x, c) => x + c.count, 0);
  if (total > 0) {
    const known = calls.filter((c) => c.inConversation).reduce((x, c) => x + c.count, 0);
    out.push({
      id: 'names',
      template: {
        en: 'Of the {total} company names in the generated phone_call calls (both arms), {known} are {target}, the company of this conversation; {other} are names that appear nowhere in it as a call target.',
        zh: '在生成的 phone_call 调用中（两组合计）共有 {total} 个公司名，其中 {known} 个是本对话中的公司 {target}；另外 {other} 个在对话中从未作为拨打对象出现。',
      },
      values: { total: count(total), known: count(known), other: count(total - known) },
      words: { target: [...new Set([...s.targetsA, ...s.targetsB])].join(', ') || '—' },
    });
  }
  return out;
}

export const statusBar: Lesson = {
  slug: 'status-bar',
  title: { en: 'A status bar at the end', zh: '放在末尾的状态栏' },
  summary: {
    en: 'The same Xfinity conversation without (A) and with (B) a short <agent_status> message at the end: where the decision position looks in each, and what the model then decides over a few seeds.',
    zh: '同一段 Xfinity 对话，末尾不带（A）和带（B）一条简短的 <agent_status> 消息：两组的决策位置各看向哪里，以及模型在几个种子下随后做出的决定。',
  },
  steps: [
    {
      id: 'decision',
      title: { en: 'Where the decision looks', zh: '决策看向哪里' },
      body: {
        en: 'The agent has called Xfinity several times between web searches, and the user asks for one more call. Counting the earlier calls means finding them among the distractors. Arm B adds one message at the very end that states the count; both arms share every token before it. The bars show, for each arm, how the last prompt token — the one whose row picks the first generated token — splits its attention over the regions of the prompt.',
        zh: 'Agent 在几次网页搜索之间已经多次致电 Xfinity，用户又要求再打一次。要数清之前打过几次，就得在干扰信息中把它们找出来。B 组在最末尾加了一条写明次数的消息；两组在它之前的每个 token 都相同。条形图显示每组提示的最后一个 token（它的那一行决定第一个生成的 token）如何把注意力分给提示的各个区域。',
      },
      view: { kind: 'ab', models: [MODEL], scenario: STATUS_ARM_B, context: 'all' },
      callouts: decisionCallouts,
    },
    {
      id: 'decisions',
      title: { en: 'What the model decides, seed by seed', zh: '模型的决定，逐个种子来看' },
      body: {
        en: 'Attention is only the means; the decision is the output. Each arm is sampled a few times with the model’s own generation settings (generation_config.json), each seed from the prompt alone, and every continuation is sorted as the A/B tab sorts it: a phone_call tool call is calling again — past the limit of calls — and anything else is a refusal. The same seed draws the same random numbers in both arms, so a seed that calls in A and refuses in B was turned by the status bar.',
        zh: '注意力只是过程，决定才是输出。每组都用模型自己的生成设置（generation_config.json）采样几次，每个种子都只从提示出发；每段续写都按 A/B 页的方式归类：phone_call 工具调用算“再次拨打”（超出次数上限），其他一切都算拒绝。同一个种子在两组中抽到相同的随机数，所以在 A 组拨打、在 B 组拒绝的种子，就是被状态栏扭转的。',
      },
      view: { kind: 'seeds', models: [MODEL], scenario: STATUS_ARM_B, context: 'all' },
      callouts: seedCallouts,
    },
  ],
};
