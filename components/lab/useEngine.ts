'use client';
// The page's engine: one worker for the page's lifetime (a crash restarts it and bumps `epoch`, so runs
// repeat) and the chosen embedded model loaded into it, with download/compile progress.
import { useEffect, useRef, useState } from 'react';
import { EngineClient } from '../../lib/engine/client';
import type { LoadParams, LoadResult } from '../../lib/engine/protocol';
import { EMBEDDED_MODELS } from '../../lib/model/embedded';
import { fetchModel } from '../../lib/model/fetchModel';
import { readVocab, type Vocab } from '../../lib/prompt/vocab';
import { useEngineTask } from '../hooks/useEngineTask';

export type Phase = { kind: 'loading'; stage: string; fraction: number } | { kind: 'ready'; info: LoadResult } | { kind: 'failed'; message: string };

export type WorkerNote = { kind: 'restarted' | 'failed'; reason: string };

/** What a finished load leaves for the tabs. */
export interface LoadedModel {
  id: string;
  info: LoadResult;
  vocab: Vocab;
  generationConfig: unknown | null;
}

type LoadProgress = { stage: string; fraction: number };

const STARTING: LoadProgress = { stage: 'downloading', fraction: 0 };

export interface Engine {
  /** The worker's client; null before the first effect and after unmount. */
  client: EngineClient | null;
  phase: Phase;
  /** The last model that finished loading (it may differ from the chosen one while that one loads or after it failed). */
  loaded: LoadedModel | null;
  workerNote: WorkerNote | null;
  /** Bumped each time the worker was replaced: work done in the old one is run again. */
  epoch: number;
  /** Replaces a worker the client gave up on. */
  restart: () => void;
}

/** `model` null: settings are not read yet, so nothing loads (a reload must not load the default first). */
export function useEngine(model: string | null): Engine {
  const client = useRef<EngineClient | null>(null);
  const [workerNote, setWorkerNote] = useState<WorkerNote | null>(null);
  const [epoch, setEpoch] = useState(0);

  // Declared before the load task so the client exists when that task's effect runs.
  useEffect(() => {
    const c = new EngineClient(() => new Worker(new URL('../../workers/engine.worker.ts', import.meta.url), { type: 'module' }));
    client.current = c;
    const offs = [
      c.on('restarted', (e) => {
        setWorkerNote({ kind: 'restarted', reason: e.reason });
        setEpoch((n) => n + 1);
      }),
      c.on('failed', (e) => setWorkerNote({ kind: 'failed', reason: e.reason })),
    ];
    return () => {
      offs.forEach((off) => off());
      c.terminate();
      client.current = null;
    };
  }, []);

  // The first half of the bar is the download, the second the worker's load stages.
  const load = useEngineTask<LoadedModel, LoadProgress>(model, async ({ signal, progress }) => {
    const c = client.current;
    const card = EMBEDDED_MODELS.find((m) => m.id === model);
    if (!c || !card) throw new Error(`cannot load ${model}`);
    progress(STARTING);
    const files = await fetchModel(card.path, (u) => fetch(u, { signal }), (f) => progress({ stage: 'downloading', fraction: 0.5 * f }));
    const threads = Math.min(4, navigator.hardwareConcurrency || 1);
    const params = { config: files.config, shards: files.shards, tokenizer: files.tokenizer, tokenizerConfig: files.tokenizerConfig, provider: 'wasm', numThreads: threads } as LoadParams;
    const info = await c.load(params, { signal, onProgress: (stage, fraction) => progress({ stage, fraction: 0.5 + 0.5 * fraction }) });
    return { id: card.id, info, vocab: readVocab(files.tokenizer), generationConfig: files.generationConfig };
  });

  // Loading comes first: the previous model's value stays in `loaded` while the next one loads.
  const phase: Phase = load.running
    ? { kind: 'loading', ...(load.progress ?? STARTING) }
    : load.error !== null
      ? { kind: 'failed', message: load.error }
      : load.value && load.valueKey === model
        ? { kind: 'ready', info: load.value.info }
        : { kind: 'loading', ...STARTING };

  const restart = () => {
    client.current?.restart();
    setWorkerNote(null);
    setEpoch((n) => n + 1);
  };
  return { client: client.current, phase, loaded: load.value, workerNote, epoch, restart };
}
