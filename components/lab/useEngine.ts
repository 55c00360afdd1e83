'use client';
// The page's engine: one worker for the page's lifetime (a crash restarts it and bumps `epoch`, so runs
// repeat) and the chosen model loaded into it, with download/compile progress. Embedded models are fetched
// here and handed over; Hub repos and picked folders are read by the worker itself (lib/model/source/open.ts),
// so large weights never cross postMessage, and report per-file progress. The runtime is WebGPU where asked
// (or, on auto, where the browser has an adapter), else WASM; the worker falls back and says why.
import { useEffect, useRef, useState } from 'react';
import { EngineClient } from '../../lib/engine/client';
import type { LoadParams, LoadResult } from '../../lib/engine/protocol';
import { EMBEDDED_MODELS } from '../../lib/model/embedded';
import { fetchModel } from '../../lib/model/fetchModel';
import { browserBlobCache } from '../../lib/model/source/browserCache';
import { DEFAULT_ENDPOINT, HubFiles } from '../../lib/model/source/hub';
import type { FileProgress } from '../../lib/model/source/types';
import { readVocab, type Vocab } from '../../lib/prompt/vocab';
import { parseModelChoice, resolveProvider, type ModelChoice, type ProviderChoice } from '../../lib/state/modelChoice';
import { useEngineTask } from '../hooks/useEngineTask';
import { CodedError, type Message } from '../../lib/i18n/message';
import type { TaskFailure } from '../../lib/util/latestTask';
import { registeredFolder, workerFiles } from '../models/folderRegistry';
import { probeWebGpu } from '../models/webgpu';

/** `failed`: `message` is the English text, `failure` the same with its coded message (show it with useDescribe). */
export type Phase =
  | { kind: 'loading'; stage: string; fraction: number; file?: FileProgress }
  | { kind: 'ready'; info: LoadResult }
  | { kind: 'failed'; message: string; failure: TaskFailure };

/**
 * The worker died: restarted (with the model reloaded, or why not: `reloadError`) or given up on. The texts are
 * English; `reasonCoded` / `reloadCoded` are the coded messages when kvscope wrote them (show with useDescribe).
 */
export type WorkerNote = { kind: 'restarted' | 'failed'; reason: string; reasonCoded?: Message; reloadError?: string; reloadCoded?: Message };

/** What a finished load leaves for the tabs. */
export interface LoadedModel {
  /** The model choice (lib/state/modelChoice.ts) this load was for. */
  id: string;
  info: LoadResult;
  vocab: Vocab;
  generationConfig: unknown | null;
  /** The runtime the user asked for. */
  asked: ProviderChoice;
  /** True when auto chose WASM because the browser gave no WebGPU adapter. */
  noAdapter: boolean;
  /** Auto found only a software WebGPU adapter (SwiftShader) and chose WASM. */
  softwareAdapter: boolean;
}

type LoadProgress = { stage: string; fraction: number; file?: FileProgress };

const STARTING: LoadProgress = { stage: 'downloading', fraction: 0 };

export interface EngineOptions {
  provider: ProviderChoice;
  /** Where `hub:` models come from. */
  hubEndpoint: string;
}

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
  /** Loads the chosen model again (a folder picked again under the same name). */
  reload: () => void;
}

/** What identifies one load: the choice, the runtime asked for, and where its files come from. */
function loadKey(model: string, choice: ModelChoice | null, o: EngineOptions): string {
  const from = choice?.kind === 'hub' ? o.hubEndpoint : choice?.kind === 'folder' ? String(registeredFolder(choice.label)?.generation ?? 0) : '';
  return `${model}\u0000${o.provider}\u0000${from}`;
}

/** generation_config.json (sampling defaults) is small: the page reads it itself, from the cache when the worker already stored it. */
async function readGenerationConfig(choice: ModelChoice, endpoint: string, signal: AbortSignal): Promise<unknown | null> {
  try {
    let text: string | null = null;
    if (choice.kind === 'hub') text = await new HubFiles({ repo: choice.repo, revision: choice.revision, endpoint, cache: browserBlobCache() }).text('generation_config.json', signal);
    else if (choice.kind === 'folder') text = (await registeredFolder(choice.label)?.entries.find((e) => e.path === 'generation_config.json')?.file.text()) ?? null;
    return text === null ? null : JSON.parse(text);
  } catch {
    return null; // optional: sampling falls back to the app's defaults
  }
}

/** Callers that pass no options (lessons, second-model views) keep WASM: the same runtime as the results they show. */
const DEFAULT_OPTIONS: EngineOptions = { provider: 'wasm', hubEndpoint: DEFAULT_ENDPOINT };

/** `model` null: settings are not read yet, so nothing loads (a reload must not load the default first). */
export function useEngine(model: string | null, options: EngineOptions = DEFAULT_OPTIONS): Engine {
  const client = useRef<EngineClient | null>(null);
  const [workerNote, setWorkerNote] = useState<WorkerNote | null>(null);
  const [epoch, setEpoch] = useState(0);

  // Declared before the load task so the client exists when that task's effect runs.
  useEffect(() => {
    const c = new EngineClient(() => new Worker(new URL('../../workers/engine.worker.ts', import.meta.url), { type: 'module' }));
    client.current = c;
    const offs = [
      c.on('restarted', (e) => {
        setWorkerNote({ kind: 'restarted', reason: e.reason, reasonCoded: e.reasonCoded, reloadError: e.error?.message, reloadCoded: e.error?.coded });
        setEpoch((n) => n + 1);
      }),
      c.on('failed', (e) => setWorkerNote({ kind: 'failed', reason: e.reason, reasonCoded: e.reasonCoded })),
    ];
    return () => {
      offs.forEach((off) => off());
      c.terminate();
      client.current = null;
    };
  }, []);

  const choice = model === null ? null : parseModelChoice(model);
  const key = model === null ? null : loadKey(model, choice, options);
  const { provider: asked, hubEndpoint } = options;

  const load = useEngineTask<LoadedModel, LoadProgress>(key, async ({ signal, progress }) => {
    const c = client.current;
    if (!c || !choice || model === null) throw new CodedError('msg.engine.page.cannotLoad', { model: String(model) });
    progress(STARTING);
    const { adapter } = await probeWebGpu();
    // Auto takes WebGPU only from a hardware adapter; a software one is still used when WebGPU is asked for.
    const hardware = adapter !== null && !adapter.fallback;
    const provider = asked === 'webgpu' ? resolveProvider(asked, adapter !== null) : resolveProvider(asked, hardware);
    const noAdapter = asked === 'auto' && !hardware;
    const softwareAdapter = asked === 'auto' && adapter !== null && adapter.fallback;
    const numThreads = Math.min(4, navigator.hardwareConcurrency || 1);
    const done = (info: LoadResult, vocab: Vocab, generationConfig: unknown | null): LoadedModel => ({ id: model, info, vocab, generationConfig, asked, noAdapter, softwareAdapter });

    if (choice.kind === 'embedded') {
      const card = EMBEDDED_MODELS.find((m) => m.id === choice.id)!;
      // The first half of the bar is the download, the second the worker's load stages.
      const files = await fetchModel(card.path, (u) => fetch(u, { signal }), (f) => progress({ stage: 'downloading', fraction: 0.5 * f }));
      const params: LoadParams = { config: files.config, shards: files.shards, tokenizer: files.tokenizer as object, tokenizerConfig: files.tokenizerConfig as object, provider, numThreads };
      const info = await c.load(params, { signal, onProgress: (stage, fraction) => progress({ stage, fraction: 0.5 + 0.5 * fraction }) });
      return done(info, readVocab(files.tokenizer), files.generationConfig);
    }

    let source: LoadParams['source'];
    if (choice.kind === 'hub') source = { kind: 'hub', endpoint: hubEndpoint, repo: choice.repo, revision: choice.revision };
    else {
      const folder = registeredFolder(choice.label);
      // After a reload the store already fell back; this is a folder dropped from the registry some other way.
      if (!folder) throw new CodedError('msg.engine.page.folderClosed', { label: choice.label });
      source = { kind: 'files', label: choice.label, files: workerFiles(folder) };
    }
    // The worker reports the whole load (downloads first, then its stages) as one fraction.
    const info = await c.load({ config: '', shards: [], source, provider, numThreads }, { signal, onProgress: (stage, fraction, file) => progress({ stage, fraction, file }) });
    if (!info.tokenizer) throw new CodedError('msg.engine.page.noTokenizer', undefined, model);
    return done(info, readVocab(info.tokenizer), await readGenerationConfig(choice, hubEndpoint, signal));
  });

  // Loading comes first: the previous model's value stays in `loaded` while the next one loads.
  const phase: Phase = load.running
    ? { kind: 'loading', ...(load.progress ?? STARTING) }
    : load.error !== null
      ? { kind: 'failed', message: load.error, failure: load.failure ?? { message: load.error } }
      : load.value && load.valueKey === key
        ? { kind: 'ready', info: load.value.info }
        : { kind: 'loading', ...STARTING };

  const restart = () => {
    client.current?.restart();
    setWorkerNote(null);
    setEpoch((n) => n + 1);
  };
  return { client: client.current, phase, loaded: load.value, workerNote, epoch, restart, reload: load.rerun };
}
