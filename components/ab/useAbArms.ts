'use client';
// The A/B tab's two arms: which two scenarios (the built-in pair or two of the user's choosing), and the
// engine task that renders both with the worker's chat template, prefills each from an empty cache and
// compares them (lib/analysis/abCompare). Keyed by the two requests' content; a new pair cancels the last.
import { useMemo, useState } from 'react';
import type { EngineClient } from '../../lib/engine/client';
import type { Tensor } from '../../lib/tensor';
import { alignArms, sharedRowsDiff, type ArmAlignment, type Region, type SharedRowsDiff } from '../../lib/analysis/abCompare';
import { regionsForRef } from '../../lib/analysis/abArms';
import { lastRow } from '../../lib/generate/generate';
import type { Prompt } from '../../lib/prompt/prompt';
import { displayToken } from '../../lib/prompt/label';
import type { ChatRequest } from '../../lib/scenarios/types';
import { CATALOG } from '../../lib/scenarios/catalog';
import { getScenario, parseScenarioRef, scenarioRequest } from '../../lib/scenarios';
import { customOf, type CustomScenario } from '../../lib/state/store';
import { useEngineTask } from '../hooks/useEngineTask';
import { useLang, useT } from '../common/i18n';
import { CodedError } from '../../lib/i18n/message';
import type { TaskFailure } from '../../lib/util/latestTask';
import { renderPrompt } from '../../lib/engine/renderPrompt';

/** The built-in pair: Xfinity without (A) and with (B) the status bar. */
export const BUILTIN_ARMS = ['xfinity:without-status', 'xfinity:with-status'] as const;

export type ArmName = 'A' | 'B';

export interface Arm {
  name: ArmName;
  ref: string;
  request: ChatRequest;
  prompt: Prompt;
  labels: string[];
  attention: Tensor[];
  lastLogits: Float32Array;
  ms: number;
}

export interface Prepared {
  a: Arm;
  b: Arm;
  alignment: ArmAlignment;
  shared: SharedRowsDiff;
  /** Each arm's own regions (lib/analysis/abArms regionsForRef), before any of the user's. */
  base: { A: Region[]; B: Region[] };
}

export type Stage = 'render' | 'prefillA' | 'prefillB' | 'compare';
export const STAGES: readonly Stage[] = ['render', 'prefillA', 'prefillB', 'compare'];

function refTitle(ref: string, custom: CustomScenario[], lang: 'en' | 'zh'): string {
  if (ref.startsWith('custom:')) return customOf({ custom }, ref)?.name ?? ref;
  return CATALOG.find((e) => e.ref === ref)?.title[lang] ?? ref;
}

function requestOf(ref: string, custom: CustomScenario[]): ChatRequest | null {
  if (ref.startsWith('custom:')) return customOf({ custom }, ref)?.lastGood ?? null;
  try {
    const { id, variant } = parseScenarioRef(ref);
    return scenarioRequest(id, variant);
  } catch {
    return null;
  }
}

export interface ArmChoice {
  mode: 'builtin' | 'own';
  setMode: (m: 'builtin' | 'own') => void;
  /** The user's pair (shown in 'own' mode). */
  own: { a: string; b: string };
  setOwn: (f: (o: { a: string; b: string }) => { a: string; b: string }) => void;
  refs: [string, string];
  requests: [ChatRequest | null, ChatRequest | null];
  /** Why the pair cannot be compared (the same scenario twice, one without a valid version), or null. */
  pairError: string | null;
  titles: { A: string; B: string };
  /** What the pair is, for the tab's header: the built-in scenario's title, or "your own pair". */
  pairTitle: string;
}

export function useArmChoice(scenario: string, custom: CustomScenario[]): ArmChoice {
  const t = useT();
  const lang = useLang();
  const [mode, setMode] = useState<'builtin' | 'own'>('builtin');
  const [own, setOwn] = useState<{ a: string; b: string }>(() => ({ a: scenario, b: CATALOG.find((e) => e.ref !== scenario)?.ref ?? BUILTIN_ARMS[1] }));
  const [refA, refB] = mode === 'builtin' ? BUILTIN_ARMS : [own.a, own.b];
  const reqA = useMemo(() => requestOf(refA, custom), [refA, custom]);
  const reqB = useMemo(() => requestOf(refB, custom), [refB, custom]);
  const pairError = refA === refB ? t('ab.arms.same') : !reqA || !reqB ? t('ab.arms.noValid', { name: refTitle(!reqA ? refA : refB, custom, lang) }) : null;
  const titleA = mode === 'builtin' ? t('ab.arms.builtinA') : refTitle(refA, custom, lang);
  const titleB = mode === 'builtin' ? t('ab.arms.builtinB') : refTitle(refB, custom, lang);
  const titles = useMemo(() => ({ A: titleA, B: titleB }), [titleA, titleB]);
  const pairTitle = mode === 'builtin' ? getScenario(parseScenarioRef(BUILTIN_ARMS[0]).id).title[lang] : t('ab.arms.own');
  return { mode, setMode, own, setOwn, refs: [refA, refB], requests: [reqA, reqB], pairError, titles, pairTitle };
}

export interface AbArms {
  /** The pair being prepared or last prepared (null: none); work on the arms stops when it changes. */
  pairKey: string | null;
  /** The last compared pair; kept while a new pair is prepared, dropped while the pair is invalid. */
  prepared: Prepared | null;
  /** The key `prepared` was computed for: what came from it (user regions, generations) resets with it. */
  preparedKey: string | null;
  /** The step running, or null. */
  stage: Stage | null;
  /** Why preparing the pair failed (show it with useDescribe). */
  error: TaskFailure | null;
}

export function useAbArms(client: EngineClient, choice: ArmChoice): AbArms {
  const { refs, requests, pairError } = choice;
  const [reqA, reqB] = requests;
  const key = pairError || !reqA || !reqB ? null : `${refs[0]}|${refs[1]}|${JSON.stringify(reqA)}|${JSON.stringify(reqB)}`;
  const task = useEngineTask<Prepared, Stage>(key, async ({ signal, progress }) => {
    progress('render');
    const pa = await renderPrompt(client, reqA!, signal);
    const pb = await renderPrompt(client, reqB!, signal);
    // Each arm from an empty cache (other tabs share the worker's cache; nothing is assumed about it).
    const prefill = async (p: Prompt) => {
      const t0 = performance.now();
      const r = await client.prefill(p.ids, { signal });
      if (!r.attention.length) throw new CodedError('ab.err.noAttention');
      if (!r.logits) throw new CodedError('ab.err.noLogits');
      return { attention: r.attention, lastLogits: lastRow(r.logits).slice(), ms: performance.now() - t0 };
    };
    progress('prefillA');
    const ra = await prefill(pa);
    progress('prefillB');
    const rb = await prefill(pb);
    progress('compare');
    await new Promise((r) => setTimeout(r, 0)); // let the stage show
    const alignment = alignArms(pa, pb);
    const shared = sharedRowsDiff(ra.attention, rb.attention, alignment.sharedPrefix);
    const arm = (name: ArmName, ref: string, request: ChatRequest, prompt: Prompt, r: typeof ra): Arm => ({
      name,
      ref,
      request,
      prompt,
      labels: prompt.tokens.map(displayToken),
      attention: r.attention,
      lastLogits: r.lastLogits,
      ms: r.ms,
    });
    return {
      a: arm('A', refs[0], reqA!, pa, ra),
      b: arm('B', refs[1], reqB!, pb, rb),
      alignment,
      shared,
      base: { A: regionsForRef(refs[0], pa), B: regionsForRef(refs[1], pb) },
    };
  });
  return { pairKey: task.key, prepared: task.value, preparedKey: task.valueKey, stage: task.running ? (task.progress ?? 'render') : null, error: task.failure ?? null };
}
