'use client';
// The StreamingLLM experiment (lib/analysis/streaming) on an embedded model, in its engine worker (the
// `streaming` request: a second session of the same weights, so the worker's attention cache is left alone).
// The text is lib/lessons/streamingText, tokenized here with the model's own tokenizer.json (fetched from the
// model folder the engine loaded, same origin) exactly as the CLI tokenizes it (encodeText: no template).
import { useMemo } from 'react';
import type { StreamingResult } from '../../lib/analysis/streaming';
import type { LessonExtra, StepView } from '../../lib/lessons';
import { STREAMING_TEXT } from '../../lib/lessons/streamingText';
import { EMBEDDED_MODELS } from '../../lib/model/embedded';
import { createTokenizer, encodeText } from '../../lib/prompt/tokenizer';
import { useEngineTask } from '../hooks/useEngineTask';
import type { Engine } from '../lab/useEngine';
import { CodedError } from '../../lib/i18n/message';
import type { TaskFailure } from '../../lib/util/latestTask';

export type StreamingStage = 'tokenizing' | 'building' | 'window' | 'sink' | 'full' | 'done';
export interface StreamingProgress {
  stage: StreamingStage;
  fraction: number;
}

export interface StreamingRun {
  result: StreamingResult | null;
  /** Set while the experiment runs. */
  progress: StreamingProgress | null;
  /** Why the experiment failed (show it with useDescribe). */
  error: TaskFailure | null;
}

/** The text's ids under each model folder's tokenizer, once per folder and text. */
const idsCache = new Map<string, Promise<number[]>>();

async function fetchJson(url: string, signal: AbortSignal): Promise<unknown> {
  const res = await fetch(url, { signal });
  if (!res.ok) throw new CodedError('msg.engine.page.fetchFailed', { url, status: res.status });
  return res.json();
}

/** The lesson text tokenized with the model's tokenizer (as `kvscope streaming` does), cut to `tokens`. */
export async function streamingIds(model: string, tokens: number, signal: AbortSignal): Promise<number[]> {
  const card = EMBEDDED_MODELS.find((m) => m.id === model);
  if (!card) throw new CodedError('msg.engine.page.noEmbedded', { model });
  let all = idsCache.get(card.path);
  if (!all) {
    all = Promise.all([fetchJson(`${card.path}tokenizer.json`, signal), fetchJson(`${card.path}tokenizer_config.json`, signal)]).then(([t, c]) => encodeText(createTokenizer(t, c), STREAMING_TEXT));
    all.catch(() => idsCache.delete(card.path));
    idsCache.set(card.path, all);
  }
  return (await all).slice(0, tokens);
}

/** Runs the experiment on `model` once its engine has it loaded; `params` null: nothing to run. */
export function useStreamingRun(engine: Engine, model: string | undefined, params: { window: number; sink: number; tokens: number } | null): StreamingRun & { key: string | null } {
  const client = engine.client;
  const ok = params !== null && model !== undefined && client !== null && engine.loaded?.id === model;
  const key = ok ? `${model}|${params.window}|${params.sink}|${params.tokens}|${engine.epoch}` : null;
  const task = useEngineTask<StreamingResult, StreamingProgress>(key, async ({ signal, progress }) => {
    progress({ stage: 'tokenizing', fraction: 0 });
    const ids = await streamingIds(model!, params!.tokens, signal);
    return client!.streaming(ids, { window: params!.window, sink: params!.sink }, { signal, onProgress: (stage, fraction) => progress({ stage: stage as StreamingStage, fraction }) });
  });
  const fresh = key !== null && task.valueKey === key ? task.value : null;
  return { key, result: fresh ?? null, progress: task.running ? (task.progress ?? { stage: 'tokenizing', fraction: 0 }) : null, error: task.failure ?? null };
}

const NONE: LessonExtra = {};

/** A 'streaming' step's experiment on each of its models (two engines side by side); other steps: ready at once. */
export function useStreamingExtra(view: StepView, engines: readonly [Engine, Engine]): { extra: LessonExtra; ready: boolean; runs: StreamingRun[] } {
  const params = view.kind === 'streaming' ? { window: view.window, sink: view.sink, tokens: view.tokens } : null;
  const a = useStreamingRun(engines[0], view.models[0], params);
  const b = useStreamingRun(engines[1], view.models[1], params && view.models.length > 1 ? params : null);
  const n = view.kind === 'streaming' ? view.models.length : 0;
  // Stable while the results are: the callouts are computed once per finished experiment.
  const extra = useMemo((): LessonExtra | null => {
    const results = [a.result, b.result].slice(0, n);
    return n > 0 && results.every((r) => r !== null) ? { streaming: results as StreamingResult[] } : null;
  }, [a.result, b.result, n]);
  if (view.kind !== 'streaming') return { extra: NONE, ready: true, runs: [] };
  return { extra: extra ?? NONE, ready: extra !== null, runs: [a, b].slice(0, n) };
}
