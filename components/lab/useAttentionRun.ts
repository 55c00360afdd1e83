'use client';
// The page's attention run: the shown request through the chat template (in the worker), each call of its
// agent loop rendered alike for the inspector, then one prefill of the chosen context (by default the last
// call as it is sent; docs/CONCEPTS.md#context) returning every layer's attention.
// A large model (its graph built with `headLayerInput`, lib/engine/session.ts largeModelPlan) returns every
// layer's head mean and one layer per head: the layer looked at when the run starts. Looking at another layer
// does not run again (a 0.6B prefill takes tens of seconds on WASM); `perHead.run()` does, on the user's word.
import { useMemo, useState } from 'react';
import { runOf } from '../../lib/agent/run';
import type { ChatRequest } from '../../lib/scenarios/types';
import type { Analysed } from '../../lib/state/analysed';
import { analyseRequest } from '../../lib/state/analyse';
import { resolveContext } from '../../lib/state/context';
import type { ContextChoice } from '../../lib/state/store';
import type { Tensor } from '../../lib/tensor';
import { renderPrompt } from '../../lib/engine/renderPrompt';
import { useEngineTask } from '../hooks/useEngineTask';
import type { TaskFailure } from '../../lib/util/latestTask';
import type { Engine } from './useEngine';

/** Which step the run is at (the status line names it). */
export type RunStage = 'rendering' | 'running';

/** The per-head maps of a large model: which layer has them, and running the prompt again for another. */
export interface HeadLayerRun {
  /** The layer being looked at (clamped to the model's). */
  layer: number;
  /** The layer the run in progress (or the last one) returns per head. */
  asked: number;
  /** Set while the prompt runs again for another layer's per-head maps (the shown run stays): that layer. */
  running: number | null;
  /** Wall time of the last finished prefill, ms (null before the first): the "≈ N s" of the button. */
  lastMs: number | null;
  /** Runs the prompt again with `layer` (default: the one looked at) returned per head. */
  run: (layer?: number) => void;
}

export interface AttentionRun {
  /** The last finished run; kept while the next one runs, dropped while no model is ready. */
  data: Analysed | null;
  /** Set while a run is in progress. */
  stage: RunStage | null;
  /** The last run's failure (show it with useDescribe: its coded message in the page's language). */
  error: TaskFailure | null;
  /** Set when the loaded model returns one layer per head (a large model); null for the small models. */
  perHead: HeadLayerRun | null;
}

interface Finished {
  analysed: Analysed;
  ms: number;
}

/**
 * Runs the chosen context of `request` on the chosen model once it is loaded; again after a worker restart
 * (`epoch`). `layer`: the layer the views look at, which a large model's run returns per head (default: the last).
 */
export function useAttentionRun(engine: Engine, model: string, request: ChatRequest | null, choice: ContextChoice, layer?: number): AttentionRun {
  const { client, phase, loaded, epoch } = engine;
  // The request's content names the run: the same request (even a new object) is not run twice.
  const requestKey = useMemo(() => (request ? JSON.stringify(request) : null), [request]);
  const ready = phase.kind === 'ready' && client !== null && loaded?.id === model;
  // The choice resolved against the request's calls, so 'last' and the last call's index are one run.
  const context = useMemo(() => (request ? resolveContext(runOf(request), choice) : null), [request, choice]);
  const contextKey = context ? (context.kind === 'conversation' ? 'all' : String(context.index)) : '';
  const plan = ready && Boolean(loaded?.info.graph.headLayerInput);
  const numLayers = ready ? (loaded?.info.config.numLayers ?? 0) : 0;
  const looked = Math.max(0, Math.min(layer ?? numLayers - 1, numLayers - 1));
  const base = ready && requestKey !== null ? `${model}\u0000${epoch}\u0000${contextKey}\u0000${requestKey}` : null;
  // The per-head layer of a run is fixed when the run is named (a new request, model or restart: the layer looked
  // at then) or when the user asks for another; changing the layer alone does not rename the run.
  const [pin, setPin] = useState<{ base: string; layer: number } | null>(null);
  if (plan && base !== null && pin?.base !== base) setPin({ base, layer: looked });
  const headLayer = plan && base !== null ? (pin?.base === base ? pin.layer : looked) : undefined;
  const full = base === null ? null : headLayer === undefined ? base : `${base}\u0000${headLayer}`;
  // No valid request (a custom scenario not yet valid): the last run stays, and nothing runs until there is one.
  const [last, setLast] = useState<string | null>(null);
  const key = !ready ? null : requestKey === null ? last : full;
  if (key !== last) setLast(key);
  const task = useEngineTask<Finished, RunStage>(key, async ({ signal, progress }) => {
    const c = client!;
    progress('rendering');
    let ms = 0;
    const analysed = await analyseRequest(
      request!,
      choice,
      (r) => renderPrompt(c, r, signal),
      async (ids, hl) => {
        progress('running');
        const t0 = performance.now();
        // Small models take no `headLayer` (undefined is not sent as a choice).
        const result = (await c.prefill(ids, hl === undefined ? { signal } : { signal, headLayer: hl })) as { attention: Tensor[] };
        ms = performance.now() - t0;
        return result.attention;
      },
      headLayer,
    );
    return { analysed, ms };
  });
  // A run under the same name but another per-head layer keeps the shown run's mean maps: that is a re-run for heads.
  const rerun = task.running && base !== null && task.valueKey?.startsWith(`${base}\u0000`) === true;
  const perHead: HeadLayerRun | null =
    plan && base !== null && headLayer !== undefined
      ? {
          layer: looked,
          asked: headLayer,
          running: rerun ? headLayer : null,
          lastMs: task.value?.ms ?? null,
          run: (l = looked) => {
            const want = Math.max(0, Math.min(l, numLayers - 1));
            // The same layer again (e.g. after a failed run) is the same key: run it again explicitly.
            if (want === headLayer) task.rerun();
            else setPin({ base, layer: want });
          },
        }
      : null;
  return { data: task.value?.analysed ?? null, stage: task.running ? (task.progress ?? 'rendering') : null, error: task.failure ?? null, perHead };
}
