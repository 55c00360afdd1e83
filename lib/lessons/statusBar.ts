// Lesson `status-bar`: the A/B of the chapter — Xfinity without (A) and with (B) the <agent_status> message.
// The step runs arm B (its scenario) as every step does; its view computes arm A besides (render + prefill on
// the same engine, from an empty cache: lib/lessons statusArmA) and the attention mass per region at each
// arm's decision position (the last prompt token) with the A/B tab's regions and masses
// (lib/analysis/abArms regionsForRef, lib/analysis/abCompare regionMasses). The callouts read those masses;
// nothing is typed in. Pure orchestration: no DOM, no engine of its own.
import { regionsForRef } from '../analysis/abArms';
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

export const statusBar: Lesson = {
  slug: 'status-bar',
  title: { en: 'A status bar at the end', zh: '放在末尾的状态栏' },
  summary: {
    en: 'The same Xfinity conversation without (A) and with (B) a short <agent_status> message at the end: where the decision position looks in each.',
    zh: '同一段 Xfinity 对话，末尾不带（A）和带（B）一条简短的 <agent_status> 消息：两组的决策位置各看向哪里。',
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
  ],
};
