// What a model folder must hold for kvscope, read through any ModelFiles source: config.json, tokenizer.json,
// tokenizer_config.json and safetensors weights (one file, or shards named by model.safetensors.index.json).
// Folders with other weight formats get a refusal naming what they hold and what kvscope reads.

import { ModelSourceError, type ModelFiles, type ProgressFn } from './types';

export const INDEX_FILE = 'model.safetensors.index.json';
export const SINGLE_FILE = 'model.safetensors';

/** A shard name as an index may give it: a plain `*.safetensors` file name, no folders, no `..`. */
export function validShardName(s: string): boolean {
  return /^[^/\\]+\.safetensors$/.test(s) && !s.includes('..') && !s.startsWith('.');
}

function parseJson(text: string, file: string, files: ModelFiles): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ModelSourceError('unsupported', 'msg.model.src.json', { file, label: files.label, detail: (e as Error).message });
  }
}

/** Shard names from an index's weight_map, validated: an object of tensor name → shard file name. */
export function shardsFromIndex(indexText: string, files: ModelFiles): string[] {
  const index = parseJson(indexText, INDEX_FILE, files);
  const map = index && typeof index === 'object' ? (index as { weight_map?: unknown }).weight_map : undefined;
  const at = { file: INDEX_FILE, label: files.label };
  if (!map || typeof map !== 'object' || Array.isArray(map)) throw new ModelSourceError('unsupported', 'msg.model.src.noWeightMap', at);
  const shards = new Set<string>();
  for (const [tensor, shard] of Object.entries(map as Record<string, unknown>)) {
    if (typeof shard !== 'string') throw new ModelSourceError('unsupported', 'msg.model.src.weightMapNotName', { ...at, tensor, key: tensor });
    if (!validShardName(shard)) throw new ModelSourceError('unsupported', 'msg.model.src.weightMapBadName', { ...at, tensor, shard, key: tensor });
    shards.add(shard);
  }
  if (shards.size === 0) throw new ModelSourceError('unsupported', 'msg.model.src.weightMapEmpty', at);
  return [...shards].sort();
}

function refuse(files: ModelFiles, found: string[]): ModelSourceError {
  const params = { label: files.label, found: found.join(', ') };
  if (found.length === 0) return new ModelSourceError('unsupported', 'msg.model.src.noWeights', params);
  return new ModelSourceError('unsupported', 'msg.model.src.noWeightsHas', { ...params, shown: found.slice(0, 4).join(', ') + (found.length > 4 ? ', …' : '') });
}

/** The safetensors shards to load, in order; refuses (`unsupported`) a folder without safetensors weights. */
export async function weightFiles(files: ModelFiles, signal?: AbortSignal): Promise<string[]> {
  const indexText = await files.text(INDEX_FILE);
  if (indexText !== null) return shardsFromIndex(indexText, files);
  if ((await files.size(SINGLE_FILE)) !== null) return [SINGLE_FILE];
  if (signal?.aborted) throw new ModelSourceError('aborted', 'msg.model.src.loadCancelled', { label: files.label });
  if (files.list) {
    const all = await files.list();
    // Unsharded checkpoints under another name (as modelDir reads them): every top-level *.safetensors.
    const st = all.filter((f) => !f.includes('/') && f.endsWith('.safetensors'));
    if (st.length > 0) return st.sort();
    const other = all.filter((f) => /\.(gguf|bin|pt|pth|ckpt|h5|msgpack|onnx)$/i.test(f) || f.endsWith('.safetensors'));
    throw refuse(files, other);
  }
  // The Hub cannot list a folder: probe the usual names of other formats so the refusal can name them.
  const found: string[] = [];
  for (const f of ['pytorch_model.bin.index.json', 'pytorch_model.bin', 'model.gguf']) {
    if ((await files.size(f)) !== null) found.push(f);
  }
  throw refuse(files, found);
}

export interface ModelFileContents {
  config: string;
  shards: Uint8Array[];
  shardNames: string[];
  tokenizer: unknown;
  tokenizerConfig: unknown;
  generationConfig: unknown | null;
  readme: string | null;
}

/** A file the model needs; `key` says why it is needed when it is absent. */
async function required(files: ModelFiles, name: string, key: 'msg.model.src.noConfig' | 'msg.model.src.noTokenizerConfig'): Promise<string> {
  const t = await files.text(name);
  if (t === null) throw new ModelSourceError('not_found', key, { label: files.label, file: name });
  return t;
}

/**
 * Reads everything the engine needs: the small files first (so a folder that is not a model fails before any
 * large download), then each shard in turn, passing per-file progress through.
 */
export async function readModelFiles(files: ModelFiles, onProgress?: ProgressFn, signal?: AbortSignal): Promise<ModelFileContents> {
  const config = await required(files, 'config.json', 'msg.model.src.noConfig');
  const tokenizerText = await files.text('tokenizer.json');
  if (tokenizerText === null) {
    const slow = (await files.size('tokenizer.model')) !== null;
    throw new ModelSourceError('not_found', slow ? 'msg.model.src.noTokenizerSlow' : 'msg.model.src.noTokenizer', { label: files.label, file: 'tokenizer.json' });
  }
  const tokenizerConfigText = await required(files, 'tokenizer_config.json', 'msg.model.src.noTokenizerConfig');
  const tokenizer = parseJson(tokenizerText, 'tokenizer.json', files);
  const tokenizerConfig = parseJson(tokenizerConfigText, 'tokenizer_config.json', files);
  const genText = await files.text('generation_config.json');
  const generationConfig = genText === null ? null : parseJson(genText, 'generation_config.json', files);
  const readme = await files.text('README.md');
  const shardNames = await weightFiles(files, signal);
  const shards: Uint8Array[] = [];
  for (const name of shardNames) shards.push(await files.bytes(name, onProgress, signal));
  return { config, shards, shardNames, tokenizer, tokenizerConfig, generationConfig, readme };
}
