'use client';
// The KV-cache tab's comparison (docs/CONCEPTS.md#prefix-invalidation): which two token sequences (two
// consecutive calls of the scenario or of a request pattern, a one-token edit, or two scenarios), and the
// engine task that has the worker compute both caches (lib/engine/kvCompare) and diffs them per layer
// (lib/analysis/kvDiff). A new choice cancels the task before it.
import { useMemo, useState } from 'react';
import type { EngineClient } from '../../lib/engine/client';
import { clientKvEngine } from '../../lib/engine/clientKvEngine';
import { compareCaches, type CompareMode } from '../../lib/engine/kvCompare';
import { kvDelta, suffixAlignment, tokenDelete, tokenEdit, tokenInsert, type Alignment, type KvDelta } from '../../lib/analysis/kvDiff';
import type { EditKind } from '../../lib/analysis/invalidation';
import { displayToken, visibleWhitespace } from '../../lib/prompt/label';
import { singleToken, type Vocab } from '../../lib/prompt/vocab';
import type { ChatRequest } from '../../lib/scenarios/types';
import { patternRun, type PatternMode } from '../../lib/agent/patterns';
import { customOf, type CustomScenario } from '../../lib/state/store';
import { parseScenarioRef, scenarioRequest } from '../../lib/scenarios';
import type { Analysed } from '../../lib/state/analysed';
import { useEngineTask } from '../hooks/useEngineTask';
import { useDescribe, useT } from '../common/i18n';
import { CodedError } from '../../lib/i18n/message';
import type { TaskFailure } from '../../lib/util/latestTask';
import { renderPrompt } from '../../lib/engine/renderPrompt';

/** Differences at or below this count as floating-point noise (stated in the view). */
export const TOL = 1e-6;

export type Source =
  | { kind: 'calls'; call: number }
  | { kind: 'pattern'; mode: PatternMode; call: number }
  | { kind: 'edit'; edit: EditKind; position: number; text: string }
  | { kind: 'scenario'; ref: string };

export interface Compared {
  /** The source this comparison ran for. */
  source: Source;
  aIds: number[];
  bIds: number[];
  aLabels: string[];
  bLabels: string[];
  prefix: number;
  mode: CompareMode;
  computedB: number;
  delta: KvDelta;
  /** Token-to-token pairing of the common suffix when the lengths differ (insertion/deletion). */
  shifted: KvDelta | null;
  ms: number;
}

interface Pair {
  aIds: number[];
  bIds: number[];
  aLabels: string[];
  bLabels: string[];
}


interface PairInputs {
  client: EngineClient;
  analysed: Analysed;
  vocab: Vocab | null;
  otherRequest: ChatRequest | null;
  signal: AbortSignal;
}

/** The two sequences a source names, as ids and display labels (A first). */
async function pairOf(source: Source, { client, analysed, vocab, otherRequest, signal }: PairInputs): Promise<Pair> {
  const base = analysed.prompt;
  const calls = analysed.callPrompts;
  if (source.kind === 'calls') {
    if (calls.length < 2) throw new CodedError('kv.oneCall');
    const c = Math.min(Math.max(1, source.call), calls.length - 1);
    return { aIds: calls[c - 1]!.ids, bIds: calls[c]!.ids, aLabels: calls[c - 1]!.tokens.map(displayToken), bLabels: calls[c]!.tokens.map(displayToken) };
  }
  if (source.kind === 'edit') {
    const aIds = base.ids;
    const aLabels = base.tokens.map(displayToken);
    const p = Math.min(source.position, aIds.length - 1);
    if (source.edit === 'delete') return { aIds, aLabels, bIds: tokenDelete(aIds, p), bLabels: [...aLabels.slice(0, p), ...aLabels.slice(p + 1)] };
    const one = vocab ? singleToken(vocab, source.text) : null;
    if (!one?.ok) throw new CodedError('kv.noVocab'); // not reached: an invalid token starts no comparison
    const label = visibleWhitespace(source.text);
    if (source.edit === 'replace') return { aIds, aLabels, bIds: tokenEdit(aIds, p, one.id), bLabels: aLabels.map((x, i) => (i === p ? label : x)) };
    return { aIds, aLabels, bIds: tokenInsert(aIds, p, [one.id]), bLabels: [...aLabels.slice(0, p), label, ...aLabels.slice(p)] };
  }
  if (source.kind === 'pattern') {
    // Two consecutive calls of one of experiment 2-3's modes (seed 1, as the economics panel below).
    const run = patternRun(source.mode, { seed: 1 });
    const c = Math.min(Math.max(1, source.call), run.calls.length - 1);
    const pa = await renderPrompt(client, run.calls[c - 1]!.request, signal);
    const pb = await renderPrompt(client, run.calls[c]!.request, signal);
    return { aIds: pa.ids, bIds: pb.ids, aLabels: pa.tokens.map(displayToken), bLabels: pb.tokens.map(displayToken) };
  }
  if (!otherRequest) throw new CodedError('scenario.noValidYet');
  const other = await renderPrompt(client, otherRequest, signal);
  return { aIds: other.ids, aLabels: other.tokens.map(displayToken), bIds: base.ids, bLabels: base.tokens.map(displayToken) };
}

/** A number per object, so that a task key can name which analysed prompt, client or vocabulary it ran on. */
const objectIds = new WeakMap<object, number>();
let lastObjectId = 0;
function objectId(o: object | null): number {
  if (!o) return 0;
  if (!objectIds.has(o)) objectIds.set(o, ++lastObjectId);
  return objectIds.get(o)!;
}

export interface KvComparison {
  /** The last comparison; kept while the next one runs or while the choice cannot run (an invalid token). */
  result: Compared | null;
  busy: boolean;
  /** Why the last comparison failed (show it with useDescribe). */
  error: TaskFailure | null;
  /** Why the edit's token cannot be used (shown at the field), or null. */
  editError: string | null;
}

export function useKvComparison(client: EngineClient, analysed: Analysed | null, vocab: Vocab | null, layers: number, custom: CustomScenario[], source: Source, mode: CompareMode): KvComparison {
  const t = useT();
  const describe = useDescribe();
  // Scenario A when comparing two scenarios; only a change of that request (not of other custom scenarios) re-runs.
  const otherRef = source.kind === 'scenario' ? source.ref : null;
  const otherCustom = otherRef ? customOf({ custom }, otherRef) : null;
  const otherRequest: ChatRequest | null = useMemo(() => {
    if (!otherRef) return null;
    if (otherRef.startsWith('custom:')) return otherCustom?.lastGood ?? null;
    const { id, variant } = parseScenarioRef(otherRef);
    return scenarioRequest(id, variant);
  }, [otherRef, otherCustom?.lastGood]);
  const editError = useMemo(() => {
    if (source.kind !== 'edit' || source.edit === 'delete') return null;
    if (!vocab) return t('kv.noVocab');
    const r = singleToken(vocab, source.text);
    return r.ok ? null : describe(r);
  }, [source, vocab, t, describe]);

  // Nothing to run (no prompt yet, a token that is not one) holds the key still: the last result stays.
  const ready = analysed && layers > 0 && (!editError || !vocab);
  const want = ready ? [objectId(client), objectId(analysed), objectId(vocab), layers, mode, JSON.stringify(source), JSON.stringify(otherRequest)].join('|') : null;
  const [key, setKey] = useState<string | null>(null);
  if (want !== null && want !== key) setKey(want);
  const task = useEngineTask<Compared>(key, async ({ signal }) => {
    const pair = await pairOf(source, { client, analysed: analysed!, vocab, otherRequest, signal });
    const cache = await compareCaches(clientKvEngine(client, layers, signal), pair.aIds, pair.bIds, { mode });
    const delta = kvDelta(cache.a, cache.b, { tol: TOL });
    const sa = suffixAlignment(pair.aIds, pair.bIds);
    const shifted = sa ? kvDelta(cache.a, cache.b, { tol: TOL, alignment: { shiftAfter: sa.shiftAfter, by: sa.by } as Alignment }) : null;
    return { ...pair, source, prefix: cache.prefix, mode, computedB: cache.computedB, delta, shifted, ms: cache.ms };
  });
  return { result: task.value, busy: task.running, error: task.failure ?? null, editError };
}
