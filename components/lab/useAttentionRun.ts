'use client';
// The page's attention run: the shown request through the chat template (in the worker), each call of its
// agent loop rendered alike for the inspector, then one prefill of the chosen context (by default the last
// call as it is sent; docs/CONCEPTS.md#context) returning every layer's attention.
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
import type { Engine } from './useEngine';

/** Which step the run is at (the status line names it). */
export type RunStage = 'rendering' | 'running';

export interface AttentionRun {
  /** The last finished run; kept while the next one runs, dropped while no model is ready. */
  data: Analysed | null;
  /** Set while a run is in progress. */
  stage: RunStage | null;
  error: string | null;
}

/** Runs the chosen context of `request` on the chosen model once it is loaded; again after a worker restart (`epoch`). */
export function useAttentionRun(engine: Engine, model: string, request: ChatRequest | null, choice: ContextChoice): AttentionRun {
  const { client, phase, loaded, epoch } = engine;
  // The request's content names the run: the same request (even a new object) is not run twice.
  const requestKey = useMemo(() => (request ? JSON.stringify(request) : null), [request]);
  const ready = phase.kind === 'ready' && client !== null && loaded?.id === model;
  // The choice resolved against the request's calls, so 'last' and the last call's index are one run.
  const context = useMemo(() => (request ? resolveContext(runOf(request), choice) : null), [request, choice]);
  const contextKey = context ? (context.kind === 'conversation' ? 'all' : String(context.index)) : '';
  // No valid request (a custom scenario not yet valid): the last run stays, and nothing runs until there is one.
  const [last, setLast] = useState<string | null>(null);
  const key = !ready ? null : requestKey === null ? last : `${model}\u0000${epoch}\u0000${contextKey}\u0000${requestKey}`;
  if (key !== last) setLast(key);
  const task = useEngineTask<Analysed, RunStage>(key, async ({ signal, progress }) => {
    const c = client!;
    progress('rendering');
    return analyseRequest(request!, choice, (r) => renderPrompt(c, r, signal), async (ids) => {
      progress('running');
      return ((await c.prefill(ids, { signal })) as { attention: Tensor[] }).attention;
    });
  });
  return { data: task.value, stage: task.running ? (task.progress ?? 'rendering') : null, error: task.error };
}
