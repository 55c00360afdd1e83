'use client';
// "Compare with the engine": the file's token ids through the page's engine (one prefill returning attention),
// then lib/analysis/importCompare. Runs only on the user's click; a new click, Cancel, another model or leaving
// the tab aborts the run in the worker (useEngineTask). The engine's tensors are dropped once compared: only
// the per-layer numbers stay. Refusals come back as values (translated by code), engine failures as errors.
import { useEffect, useState } from 'react';
import type { EngineClient } from '../../lib/engine/client';
import { compareBlocker, compareImported, CompareRefusal, perHeadLayerToAsk, type ImportComparison, type RefusalCode } from '../../lib/analysis/importCompare';
import type { ImportedAttention } from '../../lib/io/attention/types';
import type { LoadedModel } from '../lab/useEngine';
import { useEngineTask } from '../hooks/useEngineTask';

/** What the Data tab gets of the page's engine: its client and the model loaded in it (null: none ready). */
export interface CompareEngine {
  client: EngineClient;
  loaded: LoadedModel;
}

/** The progress line appears only for runs longer than this (no flash for short ones). */
const SHOW_PROGRESS_AFTER_MS = 500;

export type Blocker = { code: RefusalCode | 'no-model' | 'reduced-graph'; params: Record<string, string | number> };

export type CompareOutcome =
  | { kind: 'done'; comparison: ImportComparison; model: string; provider: string; ms: number }
  | { kind: 'refused'; blocker: Blocker };

/** Why the file cannot be compared with the loaded model before anything runs, or null. */
export function blockerOf(attention: ImportedAttention, engine: CompareEngine | null): Blocker | null {
  if (!engine) return { code: 'no-model', params: {} };
  const { config, graph } = engine.loaded.info;
  // Reduced layers are read as the head mean: a graph reducing otherwise ('max', one head) cannot be compared.
  if (graph.attention !== 'full' && graph.attention !== 'mean') return { code: 'reduced-graph', params: { how: graph.attention } };
  const b = compareBlocker(attention, config);
  return b ? { code: b.code, params: b.params } : null;
}

export function useImportCompare(attention: ImportedAttention, name: string, engine: CompareEngine | null) {
  const [tolerance, setTolerance] = useState<number | null>(null); // null: from the file's dtype
  // The run asked for: its key and the model it was asked on (another model loaded since: dropped).
  const [asked, setAsked] = useState<{ key: string; model: string } | null>(null);
  const modelId = engine?.loaded.id ?? null;
  const key = asked && asked.model === modelId ? asked.key : null;
  const task = useEngineTask<CompareOutcome, 'running'>(key, async ({ signal, progress }) => {
    const blocked = blockerOf(attention, engine);
    if (blocked) return { kind: 'refused', blocker: blocked };
    const { client, loaded } = engine!;
    const ids = attention.tokenIds!;
    progress('running');
    const t0 = performance.now();
    // Large-model graphs return one layer per head: the first layer the file holds per head.
    const headLayer = loaded.info.graph.headLayerInput ? perHeadLayerToAsk(attention) : undefined;
    const r = await client.prefill(ids, { signal, attention: 'return', headLayer });
    try {
      const comparison = compareImported(attention, { ids, layers: r.attention, rows: r.rows }, { name });
      return { kind: 'done', comparison, model: loaded.id, provider: loaded.info.provider, ms: performance.now() - t0 };
    } catch (e) {
      if (e instanceof CompareRefusal) return { kind: 'refused', blocker: { code: e.code, params: e.params } };
      throw e;
    }
  });

  // A progress line only for runs that take a while: the timer names the run it was started for.
  const [slowFor, setSlowFor] = useState<string | null>(null);
  useEffect(() => {
    if (!task.running || task.key === null) return;
    const k = task.key;
    const id = setTimeout(() => setSlowFor(k), SHOW_PROGRESS_AFTER_MS);
    return () => clearTimeout(id);
  }, [task.running, task.key]);

  // Another attention shown (a ReAct call of the same file): the result was for the one before.
  const [shownFor, setShownFor] = useState(attention);
  if (shownFor !== attention) {
    setShownFor(attention);
    setAsked(null);
  }

  // The last finished result stays while a new run goes (or was cancelled), as long as it is the loaded model's.
  const outcome = task.value && modelId !== null && task.valueKey?.startsWith(`${modelId}\u0000`) ? task.value : null;
  return {
    blocker: blockerOf(attention, engine),
    run: () => modelId !== null && setAsked({ key: `${modelId}\u0000${Date.now()}`, model: modelId }),
    /** Aborts the run in the worker; the last result stays. */
    cancel: task.cancel,
    running: task.running,
    slow: task.running && slowFor === task.key,
    error: key !== null ? task.error : null,
    /** The error as plain data with its coded message when it has one (shown with describe()). */
    failure: key !== null && task.error !== null ? (task.failure ?? task.error) : null,

    outcome,
    tolerance,
    setTolerance,
  };
}

export type ImportCompareState = ReturnType<typeof useImportCompare>;
