// Opens the source a worker `load` names (lib/engine/protocol ModelSourceSpec) and reads the checkpoint from it:
// a Hub repo through the browser's model cache (a reload reads Cache Storage, not the network), or the files the
// user picked or dropped. Used by workers/engine.worker.ts as the host's `openSource`.
import type { ModelSourceSpec } from '../../engine/protocol';
import { browserBlobCache } from './browserCache';
import { readModelFiles } from './checkpointFiles';
import { FolderFiles, type FileLike } from './folder';
import { HubFiles, type FetchFn } from './hub';
import { ModelSourceError, type ModelFiles, type ProgressFn } from './types';

export function filesOf(spec: ModelSourceSpec, fetchFn: FetchFn = (u, i) => fetch(u, i)): ModelFiles {
  if (spec.kind === 'hub') return new HubFiles({ repo: spec.repo, revision: spec.revision, endpoint: spec.endpoint, fetch: fetchFn, cache: browserBlobCache() });
  const files = spec.files.filter((f): f is FileLike => typeof f === 'object' && f !== null && 'name' in f && 'size' in f);
  if (files.length === 0) throw new ModelSourceError('not_found', 'msg.model.src.noFiles');
  return new FolderFiles(files, spec.label);
}

export async function openModelSource(spec: ModelSourceSpec, onProgress: ProgressFn, signal: AbortSignal) {
  const m = await readModelFiles(filesOf(spec), onProgress, signal);
  return { config: m.config, shards: m.shards, tokenizer: m.tokenizer as object, tokenizerConfig: m.tokenizerConfig as object };
}
