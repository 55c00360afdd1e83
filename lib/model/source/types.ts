// Where a checkpoint's files come from (docs/MODELS.md): the Hugging Face Hub (or a mirror), a folder the user
// picked or dropped, a folder on disk, or the embedded models under public/. Every source reads files by their
// name in the Hugging Face layout, so the loader above it is one code path whatever the source.
import type { Params, StringKey } from '../../i18n';
import { CodedError } from '../../i18n/message';

/** Progress of one file's transfer. `total` is null when the server did not say. */
export interface FileProgress {
  file: string;
  loaded: number;
  total: number | null;
  /** Smoothed transfer rate over the last seconds (0 before the first bytes or for local files). */
  bytesPerSecond: number;
  /** Seconds left at that rate, or null when unknown. */
  etaSeconds: number | null;
  /** True once the bytes came from the browser's or the disk's cache (nothing fetched). */
  cached: boolean;
}

export type ProgressFn = (p: FileProgress) => void;

/** A readable model folder in the Hugging Face layout. */
export interface ModelFiles {
  /** What the user named: `Qwen/Qwen3-0.6B@main`, `folder my-model`, `public/models/kvscope-tiny`. */
  readonly label: string;
  readonly kind: 'hub' | 'folder' | 'disk' | 'embedded';
  /** Bytes of a file, or null when the folder has no such file (404 on the Hub). */
  size(name: string): Promise<number | null>;
  /** The whole file as text, or null when absent. */
  text(name: string): Promise<string | null>;
  /** The whole file; rejects with a ModelSourceError when absent. */
  bytes(name: string, onProgress?: ProgressFn, signal?: AbortSignal): Promise<Uint8Array>;
  /** Bytes [start, end) of a file (an HTTP range request on the Hub): for safetensors headers before any download. */
  range(name: string, start: number, end: number, signal?: AbortSignal): Promise<Uint8Array>;
  /**
   * Every file's path in the folder, where the source can list them (folders and disk; the Hub cannot
   * without its API). Lets a refusal name what the folder holds instead (`*.gguf`, `pytorch_model.bin`).
   */
  list?(): Promise<string[]>;
}

/** Why a source could not give a file; `code` lets the UI word it in the user's language. */
export type ModelSourceCode =
  | 'not_found' // 404: no such repo, revision or file
  | 'gated' // 401 / 403: the repo needs a login or accepted terms
  | 'network' // fetch failed, or the connection dropped and retries did not finish it
  | 'bad_repo_id' // not `org/name`
  | 'bad_endpoint' // not an http(s) URL
  | 'offline' // HF_HUB_OFFLINE is set and the file is not in the cache
  | 'aborted'
  | 'unsupported'; // e.g. only GGUF files in the folder

/**
 * A source's refusal: `code` says what kind (callers branch on it), the message is a 'msg.model.src.*' /
 * 'msg.model.hub.*' key. `params` holds the message's parameters and the facts callers read (file, url,
 * status, `missing`), which the message may not show.
 */
export class ModelSourceError extends CodedError {
  readonly code: ModelSourceCode;
  declare readonly params: Params;
  constructor(code: ModelSourceCode, key: StringKey, params: Params = {}, where?: string) {
    super(key, params, where);
    this.name = 'ModelSourceError';
    this.code = code;
  }

  /** An error whose English text is given as it is (the CLI's own messages, which are English only). */
  static plain(code: ModelSourceCode, text: string, params: Params = {}): ModelSourceError {
    return new ModelSourceError(code, 'msg.model.src.plain', { ...params, plain: text });
  }
}
