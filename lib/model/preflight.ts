// Preflight: what a checkpoint will cost before any large download. Reads config.json, the shard index and
// each shard's safetensors header (8 bytes, then the header, through ranged reads) and never the weights;
// reports shape, parameters, dtypes, download size and memory estimates, and a verdict per provider, or a
// refusal naming what kvscope supports. Every reason has a code and params so the UI can word it itself.

import { formatBytes } from '../analysis/kvBytes';
import type { Params, StringKey } from '../i18n';
import { message, messageText, type Message } from '../i18n/message';
import { ConfigError, expectedTensors, parseConfig, SUPPORTED_FAMILIES, type Family, type ModelConfig } from './config';
import { weightTypeFor } from './graph';
import { parseSafetensorsHeader, readHeaderLength, SafetensorsError, type HeaderTensorInfo, type SafetensorsHeader } from './safetensors';
import { validShardName } from './source/checkpointFiles';
import type { ModelFiles } from './source/types';

export { formatBytes };

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

/** What the browser (or the caller standing in for it) offers. */
export interface BrowserBudget {
  /** WebGPU adapter limits, or null where there is no adapter. */
  webgpu: null | { maxBufferSize: number; maxStorageBufferBindingSize: number; adapterInfo?: string };
  /** navigator.deviceMemory (GiB, rounded down and capped by the browser), when known. */
  deviceMemoryGiB?: number;
  /** The WASM heap ceiling: 4 GiB for wasm32 in current browsers. */
  wasmHeapBytes: number;
}

export const WASM_HEAP_BYTES = 4 * GiB;
/**
 * Kept free below the WASM ceiling: the module's code and stacks, ORT's arena rounding its blocks up, and
 * fragmentation (a WASM heap grows and never shrinks, so a late large block can fail with room left in
 * small holes).
 */
export const WASM_SAFETY_MARGIN_BYTES = 512 * MiB;

export const SUPPORTED_SENTENCE = messageText('en', message('msg.model.pf.supported'));

export type PreflightCode =
  // refusals: hold for every provider
  | 'no_config'
  | 'config_invalid'
  | 'unsupported_architecture'
  | 'quantized'
  | 'no_safetensors'
  | 'index_invalid'
  | 'shard_missing'
  | 'header_corrupt'
  | 'index_mismatch'
  | 'unsupported_dtype'
  | 'missing_tensors'
  | 'wrong_shapes'
  | 'supported'
  // per provider
  | 'wasm_fits'
  | 'wasm_too_large'
  | 'wasm_context_limit'
  | 'webgpu_unavailable'
  | 'webgpu_tensor_fits'
  | 'webgpu_tensor_too_large'
  | 'webgpu_attention_limit'
  | 'device_memory_low'
  // notes
  | 'bf16_kept'
  | 'bf16_exact'
  | 'bf16_to_fp16'
  | 'rounded_to_fp16'
  | 'kv_held_twice'
  | 'attention_quadratic';

export interface PreflightReason {
  code: PreflightCode;
  /** fail: this provider (or, in `refusals`, every provider) cannot load it; warn: loads with a limit; info. */
  level: 'fail' | 'warn' | 'info';
  params: Record<string, string | number>;
  /** The sentence for the user ('msg.model.pf.*', or the refusing error's own message), in any language. */
  message: Message;
  /** The sentence in English (the CLI's and the tests'). */
  text: string;
}

export interface ProviderVerdict {
  ok: boolean;
  reasons: PreflightReason[];
  /** Longest context (tokens) the estimate allows, capped at the model's max_position_embeddings; null when refused. */
  maxTokens: number | null;
}

export type EngineWeightType = 'float32' | 'float16' | 'bfloat16';

/** Memory of a forward pass over `tokens` tokens (prefill from empty; the cache then holds `tokens`). */
export interface MemoryEstimate {
  tokens: number;
  /** Weights as the engine stores them, plus its RoPE tables (float32, max_position_embeddings × head_dim × 2). */
  weights: number;
  /** 16-bit weights are cast to float32 where used: the largest cast alive at once (one layer, or one LM-head chunk). */
  castWorkingSet: number;
  /** K/V cache, float32 (one copy). */
  kvCache: number;
  /** One layer's transient tensors: scores, masked scores and probabilities [heads, T, T], the MLP's [T, intermediate] ×4, hidden states. */
  activations: number;
  /** What the engine keeps for every layer: head-reduced maps [T, T] float32. */
  attentionKept: number;
  /** One layer's per-head maps [heads, T, T] float32, computed for the layer the user looks at. */
  attentionOneLayer: number;
  /** Logits output (last position, or all T positions). */
  logits: number;
  /** Inside the WASM heap at the peak: weights, casts, cache, activations and the outputs before they are copied out. */
  wasmHeap: number;
  /** Copies in JS outside the heap: the cache (held twice on WASM), the attention maps, the logits. */
  js: number;
  /** wasmHeap + js: the tab's share on WASM. */
  tab: number;
  /** On WebGPU: weights, casts, cache, activations and outputs on the GPU. */
  gpu: number;
}

export interface PreflightModel {
  family: Family;
  modelType: string;
  architecture: string;
  layers: number;
  heads: number;
  kvHeads: number;
  headDim: number;
  hidden: number;
  intermediate: number;
  vocab: number;
  maxPositions: number;
  tiedEmbeddings: boolean;
}

export interface PreflightShard {
  name: string;
  /** File size, or null where the source did not say. */
  size: number | null;
  headerLength: number | null;
  tensors: number;
  /** Bytes read from this file by preflight (8 + header). */
  bytesRead: number;
}

export interface PreflightReport {
  label: string;
  /** True when nothing refuses the checkpoint for every provider (a provider may still say no: see verdicts). */
  supported: boolean;
  /** Reasons that refuse the checkpoint everywhere, ending with the `supported` sentence; empty when supported. */
  refusals: PreflightReason[];
  model: PreflightModel | null;
  /** Elements of every tensor in the headers (Qwen3-0.6B: 596,049,920). */
  parameters: number | null;
  /** Elements of the tensors config.json implies (expectedTensors), from arithmetic alone. */
  parametersFromConfig: number | null;
  /** Distinct dtypes in the headers, as written ("BF16", "I8", …). */
  dtypes: string[];
  shards: PreflightShard[];
  /** Every file the loader fetches, with its size where known. */
  files: { name: string; size: number | null }[];
  /** Sum of the known sizes in `files`. */
  downloadBytes: number;
  /** False when a weight file's size is unknown (it is missing: see refusals). */
  downloadSizeKnown: boolean;
  weights: null | {
    /** Bytes of all tensors as stored in the files. */
    storedBytes: number;
    engineType: EngineWeightType;
    /** Bytes of the weights as the engine holds them (without the RoPE tables). */
    engineBytes: number;
    /** The largest single weight as the engine stores it: the one buffer WebGPU must allocate whole. */
    largestTensor: { name: string; shape: number[]; bytes: number };
  };
  /** K/V cache per 1,000 tokens: layers × 2 × kvHeads × headDim × 4 B × 1,000. */
  kvBytesPer1kTokens: number | null;
  /** Attention bytes at 1,024 and 2,048 tokens: all layers head-reduced (layers × T² × 4 B) and one layer per head (heads × T² × 4 B). */
  attention: null | { tokens: number; allLayersReduced: number; oneLayerPerHead: number }[];
  /** One estimate per requested context length. */
  estimates: MemoryEstimate[];
  verdicts: { wasm: ProviderVerdict; webgpu: ProviderVerdict };
  notes: PreflightReason[];
  /** Total bytes read through `files.range`. */
  bytesRead: number;
}

export interface PreflightOptions {
  /** Context lengths to estimate (default 1,024 and 2,048); the first decides the verdicts. */
  contexts?: number[];
  /** Logits the engine returns: the last position only (default, what large models run with) or all positions. */
  logits?: 'last' | 'all';
  /** File names in the folder or repo (when known): names GGUF / PyTorch files in the refusal when no safetensors exist. */
  fileNames?: readonly string[];
  /** Non-weight files the loader downloads (their sizes join the download size). */
  extraFiles?: readonly string[];
  /** LM-head chunks of the 16-bit graph (the cast working set); default 8, as the WASM memory plan uses. */
  lmHeadChunks?: number;
}

export const DEFAULT_EXTRA_FILES = ['config.json', 'generation_config.json', 'tokenizer.json', 'tokenizer_config.json'] as const;
const INDEX = 'model.safetensors.index.json';
const SINGLE = 'model.safetensors';
const SHOW = 3; // names listed in a refusal before "and N more"

const n0 = (n: number) => n.toLocaleString('en-US');
const shapeText = (s: readonly number[]) => `[${s.join(', ')}]`;

/** `text` is the message in English unless given (a wrapped error's sentence ends with a full stop its message lacks). */
function reason(code: PreflightCode, level: PreflightReason['level'], params: PreflightReason['params'], m: Message, text = messageText('en', m)): PreflightReason {
  return { code, level, params, message: m, text };
}

/**
 * A message naming up to SHOW items as `{list}`: `key` when that is all of them, else `moreKey`, whose
 * English adds "and {more} more".
 */
function listed(items: readonly string[], key: StringKey, moreKey: StringKey, params: Params = {}, separator = ', '): Message {
  const list = items.slice(0, SHOW).join(separator);
  return items.length > SHOW ? message(moreKey, { ...params, list, more: items.length - SHOW }) : message(key, { ...params, list });
}

function elements(shape: readonly number[]): number {
  return shape.reduce((a, d) => a * d, 1);
}

/** The engine's weight storage for a config and its stored dtypes (lib/model/graph.ts `autoWeightType`'s rule). */
export function engineWeightType(config: ModelConfig, dtypes: readonly string[]): EngineWeightType {
  return weightTypeFor(config, dtypes);
}

function bytesPerWeight(t: EngineWeightType): number {
  return t === 'float32' ? 4 : 2;
}

/** K/V cache bytes for `tokens` tokens, float32 as the engine keeps it. */
export function kvCacheBytes(c: ModelConfig, tokens: number): number {
  return c.numLayers * 2 * c.numKvHeads * c.headDim * 4 * tokens;
}

/** The memory model behind the verdicts; see MemoryEstimate for each term. */
export function estimateMemory(c: ModelConfig, tokens: number, engineType: EngineWeightType, options: { logits?: 'last' | 'all'; lmHeadChunks?: number } = {}): MemoryEstimate {
  const T = tokens;
  const params = [...expectedTensors(c).values()].reduce((a, s) => a + elements(s), 0);
  const weights = params * bytesPerWeight(engineType) + c.maxPositions * c.headDim * 4 * 2;
  const qd = c.numHeads * c.headDim;
  const kvd = c.numKvHeads * c.headDim;
  const layerParams = c.hiddenSize * (qd + 2 * kvd) + qd * c.hiddenSize + 3 * c.hiddenSize * c.intermediateSize;
  const chunks = Math.max(1, Math.floor(options.lmHeadChunks ?? 8));
  const castWorkingSet = engineType === 'float32' ? 0 : 4 * Math.max(layerParams, Math.ceil(c.vocabSize / chunks) * c.hiddenSize);
  const kvCache = kvCacheBytes(c, T);
  const activations = 3 * c.numHeads * T * T * 4 + 4 * T * c.intermediateSize * 4 + 8 * T * Math.max(c.hiddenSize, qd) * 4;
  const attentionKept = c.numLayers * T * T * 4;
  const attentionOneLayer = c.numHeads * T * T * 4;
  const logits = (options.logits === 'all' ? T : 1) * c.vocabSize * 4;
  const outputs = attentionKept + attentionOneLayer + logits;
  const wasmHeap = weights + castWorkingSet + kvCache + activations + outputs;
  const js = kvCache + outputs;
  return { tokens: T, weights, castWorkingSet, kvCache, activations, attentionKept, attentionOneLayer, logits, wasmHeap, js, tab: wasmHeap + js, gpu: wasmHeap };
}

/** Largest T in [1, limit] with fits(T), for a fits that is monotone (true, then false); 0 when none. */
function largestFitting(limit: number, fits: (t: number) => boolean): number {
  if (!fits(1)) return 0;
  let lo = 1;
  let hi = limit;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

interface ConfigRead {
  config: ModelConfig | null;
  architecture: string;
  refusals: PreflightReason[];
}

function readConfig(text: string | null, fileNames: readonly string[]): ConfigRead {
  const out: ConfigRead = { config: null, architecture: '', refusals: [] };
  if (text === null) {
    const gguf = fileNames.filter((f) => f.toLowerCase().endsWith('.gguf'));
    out.refusals.push(
      gguf.length > 0
        ? reason('no_config', 'fail', { files: gguf.join(', ') }, listed(gguf, 'msg.model.pf.onlyGguf', 'msg.model.pf.onlyGgufMore'))
        : reason('no_config', 'fail', { file: 'config.json' }, message('msg.model.pf.noConfig')),
    );
    return out;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    out.refusals.push(reason('config_invalid', 'fail', { file: 'config.json', message: (e as Error).message }, message('msg.model.pf.configJson', { detail: (e as Error).message })));
    return out;
  }
  const r = (typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
  const modelType = typeof r.model_type === 'string' ? r.model_type : '';
  out.architecture = Array.isArray(r.architectures) && typeof r.architectures[0] === 'string' ? r.architectures[0] : '';
  const q = r.quantization_config;
  if (q !== undefined && q !== null) {
    const method = typeof q === 'object' && typeof (q as Record<string, unknown>).quant_method === 'string' ? ((q as Record<string, unknown>).quant_method as string) : 'unknown';
    out.refusals.push(reason('quantized', 'fail', { file: 'config.json', quantMethod: method }, message('msg.model.pf.quantized', { method })));
  }
  if (!(SUPPORTED_FAMILIES as readonly string[]).includes(modelType)) {
    const arch = out.architecture;
    const key = modelType && arch ? 'msg.model.pf.archBoth' : modelType ? 'msg.model.pf.archType' : arch ? 'msg.model.pf.archName' : 'msg.model.pf.archNone';
    out.refusals.push(reason('unsupported_architecture', 'fail', { file: 'config.json', modelType, architecture: arch }, message(key, { modelType, architecture: arch })));
    return out;
  }
  try {
    out.config = parseConfig(raw);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    out.refusals.push(reason('config_invalid', 'fail', { file: 'config.json', message: e.message }, message(e.key, e.params, e.where), `${e.message}.`));
  }
  return out;
}

interface ShardsRead {
  shards: PreflightShard[];
  tensors: Map<string, HeaderTensorInfo & { shard: string }>;
  refusals: PreflightReason[];
  bytesRead: number;
}

/** The index's weight_map and shard names, or why it is not a valid index: its message, and its English detail (the reason's `message` param). */
function parseIndex(text: string): { map: Record<string, string>; names: string[] } | { key: StringKey; params: Params; detail: string } {
  let idx: unknown;
  try {
    idx = JSON.parse(text);
  } catch (e) {
    const detail = (e as Error).message;
    return { key: 'msg.model.pf.indexJson', params: { detail }, detail };
  }
  const map = typeof idx === 'object' && idx !== null ? (idx as { weight_map?: unknown }).weight_map : undefined;
  if (typeof map !== 'object' || map === null || Array.isArray(map)) return { key: 'msg.model.pf.indexNoMap', params: {}, detail: 'no weight_map object' };
  const entries = Object.entries(map as Record<string, unknown>);
  // The loader's own rule (no folders, no ..): a name such as ../other/model.safetensors would read outside the model.
  const bad = entries.find(([, v]) => typeof v !== 'string' || !validShardName(v));
  if (bad) {
    const v = bad[1];
    const got = typeof v === 'string' ? JSON.stringify(v.length > 80 ? v.slice(0, 80) + '…' : v) : v === null || typeof v !== 'object' ? String(v) : Array.isArray(v) ? 'a list' : 'an object';
    const tensor = bad[0].slice(0, 80);
    return { key: 'msg.model.pf.indexBadEntry', params: { tensor, got }, detail: `weight_map["${tensor}"] is ${got}, not a plain *.safetensors file name in the same folder` };
  }
  const weightMap = Object.fromEntries(entries) as Record<string, string>;
  const names = [...new Set(Object.values(weightMap))].sort();
  if (names.length === 0) return { key: 'msg.model.pf.indexEmpty', params: {}, detail: 'weight_map is empty' };
  return { map: weightMap, names };
}

async function readShards(files: ModelFiles, fileNames: readonly string[], signal?: AbortSignal): Promise<ShardsRead> {
  const out: ShardsRead = { shards: [], tensors: new Map(), refusals: [], bytesRead: 0 };
  signal?.throwIfAborted();
  const indexText = await files.text(INDEX);
  let names: string[];
  let weightMap: Record<string, string> | null = null;
  if (indexText !== null) {
    const index = parseIndex(indexText);
    if ('detail' in index) {
      out.refusals.push(reason('index_invalid', 'fail', { file: INDEX, message: index.detail }, message(index.key, { file: INDEX, ...index.params })));
      return out;
    }
    weightMap = index.map;
    names = index.names;
  } else {
    const size = await files.size(SINGLE);
    if (size === null) {
      const other = fileNames.filter((f) => /\.(gguf|bin|pt|pth|ckpt|h5|msgpack|onnx)$/i.test(f));
      out.refusals.push(
        reason(
          'no_safetensors',
          'fail',
          { file: SINGLE, found: other.join(', ') },
          other.length > 0 ? listed(other, 'msg.model.pf.otherWeights', 'msg.model.pf.otherWeightsMore') : message('msg.model.pf.noSafetensors'),
        ),
      );
      return out;
    }
    names = [SINGLE];
  }

  // Headers are small (tens of KB): read them all at once, two ranged reads per shard.
  const read = await Promise.all(
    names.map(async (name): Promise<{ shard: PreflightShard; error: PreflightReason } | { shard: PreflightShard; header: SafetensorsHeader }> => {
      signal?.throwIfAborted();
      const size = await files.size(name);
      const shard: PreflightShard = { name, size, headerLength: null, tensors: 0, bytesRead: 0 };
      if (size === null) return { shard, error: reason('shard_missing', 'fail', { file: name, index: INDEX }, message('msg.model.pf.shardMissing', { file: name, index: INDEX })) };
      try {
        const first = await files.range(name, 0, 8, signal);
        shard.bytesRead += first.length;
        const n = readHeaderLength(first);
        if (8 + n > size) throw new SafetensorsError('msg.model.st.truncatedHeader', { length: n, have: size - 8 });
        const rest = await files.range(name, 8, 8 + n, signal);
        shard.bytesRead += rest.length;
        const whole = new Uint8Array(8 + rest.length);
        whole.set(first.subarray(0, 8));
        whole.set(rest, 8);
        const header = parseSafetensorsHeader(whole, size);
        shard.headerLength = n;
        shard.tensors = header.tensors.size;
        return { shard, header };
      } catch (e) {
        if (!(e instanceof SafetensorsError)) throw e;
        return { shard, error: reason('header_corrupt', 'fail', { file: name, message: e.message }, message(e.key, e.params, e.where ? `${name}: ${e.where}` : name), `${name}: ${e.message}.`) };
      }
    }),
  );
  for (const r of read) {
    out.shards.push(r.shard);
    out.bytesRead += r.shard.bytesRead;
    if ('error' in r) {
      out.refusals.push(r.error);
      continue;
    }
    for (const [tensor, info] of r.header.tensors) {
      const prev = out.tensors.get(tensor);
      if (prev) {
        out.refusals.push(reason('header_corrupt', 'fail', { file: r.shard.name, tensor, other: prev.shard }, message('msg.model.pf.tensorTwice', { tensor, other: prev.shard, file: r.shard.name })));
        continue;
      }
      out.tensors.set(tensor, { ...info, shard: r.shard.name });
    }
  }
  if (weightMap && out.refusals.length === 0) {
    const wrong = Object.entries(weightMap).filter(([t, f]) => out.tensors.get(t)?.shard !== f);
    if (wrong.length > 0) {
      const shown = wrong.map(([t, f]) => `${t} (in ${f} per the index, ${out.tensors.get(t)?.shard ?? 'in no shard'})`);
      out.refusals.push(reason('index_mismatch', 'fail', { file: INDEX, count: wrong.length, tensors: shown.slice(0, SHOW).join('; ') }, listed(shown, 'msg.model.pf.indexMismatch', 'msg.model.pf.indexMismatchMore', { index: INDEX })));
    }
  }
  return out;
}

function checkTensors(config: ModelConfig, tensors: ShardsRead['tensors']): PreflightReason[] {
  const out: PreflightReason[] = [];
  const unsupported = [...tensors].filter(([, t]) => t.dtype === null).map(([name, t]) => `${name} (${t.rawDtype})`);
  if (unsupported.length > 0) {
    out.push(reason('unsupported_dtype', 'fail', { count: unsupported.length, tensors: unsupported.slice(0, SHOW).join(', ') }, listed(unsupported, 'msg.model.pf.dtypes', 'msg.model.pf.dtypesMore')));
  }
  const missing: string[] = [];
  const wrong: string[] = [];
  for (const [name, shape] of expectedTensors(config)) {
    const t = tensors.get(name);
    if (!t) missing.push(name);
    else if (t.shape.length !== shape.length || t.shape.some((d, i) => d !== shape[i])) wrong.push(`${name} is ${shapeText(t.shape)}, config.json implies ${shapeText(shape)}`);
  }
  if (missing.length > 0) {
    out.push(
      reason(
        'missing_tensors',
        'fail',
        { count: missing.length, tensors: missing.slice(0, SHOW).join(', '), modelType: config.modelType, layers: config.numLayers },
        listed(missing, missing.length > 1 ? 'msg.model.pf.missingTensors' : 'msg.model.pf.missingTensor', 'msg.model.pf.missingTensorsMore', { count: n0(missing.length), modelType: config.modelType, layers: config.numLayers }),
      ),
    );
  }
  if (wrong.length > 0) out.push(reason('wrong_shapes', 'fail', { count: wrong.length, tensors: wrong.slice(0, SHOW).join('; ') }, listed(wrong, 'msg.model.pf.wrongShapes', 'msg.model.pf.wrongShapesMore')));
  return out;
}

/**
 * Reads what the checkpoint will cost and whether each provider can run it. Rejects only with the
 * source's own errors (network, gated, aborted); everything about the checkpoint itself is a reason.
 */
export async function preflight(files: ModelFiles, env: BrowserBudget, signal?: AbortSignal, options: PreflightOptions = {}): Promise<PreflightReport> {
  const contexts = (options.contexts ?? [1024, 2048]).filter((t) => Number.isInteger(t) && t > 0);
  if (contexts.length === 0) throw new Error('preflight: contexts must hold at least one positive integer');
  const fileNames = options.fileNames ?? [];
  signal?.throwIfAborted();
  const cfg = readConfig(await files.text('config.json'), fileNames);
  // Headers are read even when config.json refuses: dtypes and sizes still tell the user what they have.
  const shards = cfg.refusals.some((r) => r.code === 'no_config') ? { shards: [], tensors: new Map(), refusals: [], bytesRead: 0 } : await readShards(files, fileNames, signal);
  const refusals = [...cfg.refusals, ...shards.refusals];
  const c = cfg.config;
  // Tensor checks need a config that parsed without refusal (a quantised config's tensors are all "missing").
  if (c && cfg.refusals.length === 0 && shards.tensors.size > 0 && shards.refusals.length === 0) refusals.push(...checkTensors(c, shards.tensors));
  else if (shards.tensors.size > 0) {
    const unsupported = [...shards.tensors].filter(([, t]) => t.dtype === null);
    if (unsupported.length > 0 && !refusals.some((r) => r.code === 'quantized')) {
      const named = unsupported.map(([name, t]) => `${name} (${t.rawDtype})`);
      refusals.push(reason('unsupported_dtype', 'fail', { count: named.length, tensors: named.slice(0, SHOW).join(', ') }, listed(named, 'msg.model.pf.dtypes', 'msg.model.pf.dtypesMore')));
    }
  }
  if (refusals.length > 0) refusals.push(reason('supported', 'info', {}, message('msg.model.pf.supported')));

  // Sizes: every weight file plus the other files the loader fetches.
  signal?.throwIfAborted();
  const extra = [...(options.extraFiles ?? DEFAULT_EXTRA_FILES)];
  if (shards.shards.length > 1 || shards.shards.some((s) => s.name !== SINGLE)) extra.push(INDEX);
  const extraSizes = await Promise.all(extra.map(async (name) => ({ name, size: await files.size(name) })));
  // A null size means the file is absent (ModelFiles.size), so absent extras are left out.
  const fileList = [...shards.shards.map((s) => ({ name: s.name, size: s.size })), ...extraSizes.filter((f) => f.size !== null)];
  const downloadBytes = fileList.reduce((a, f) => a + (f.size ?? 0), 0);
  const downloadSizeKnown = fileList.every((f) => f.size !== null);

  const dtypes = [...new Set([...shards.tensors.values()].map((t) => t.rawDtype))].sort();
  const parameters = shards.tensors.size > 0 ? [...shards.tensors.values()].reduce((a, t) => a + elements(t.shape), 0) : null;
  const report: PreflightReport = {
    label: files.label,
    supported: refusals.length === 0,
    refusals,
    model: c && {
      family: c.family,
      modelType: c.modelType,
      architecture: cfg.architecture,
      layers: c.numLayers,
      heads: c.numHeads,
      kvHeads: c.numKvHeads,
      headDim: c.headDim,
      hidden: c.hiddenSize,
      intermediate: c.intermediateSize,
      vocab: c.vocabSize,
      maxPositions: c.maxPositions,
      tiedEmbeddings: c.tieWordEmbeddings,
    },
    parameters,
    parametersFromConfig: c ? [...expectedTensors(c).values()].reduce((a, s) => a + elements(s), 0) : null,
    dtypes,
    shards: shards.shards,
    files: fileList,
    downloadBytes,
    downloadSizeKnown,
    weights: null,
    kvBytesPer1kTokens: c ? kvCacheBytes(c, 1000) : null,
    attention: c ? [1024, 2048].map((T) => ({ tokens: T, allLayersReduced: c.numLayers * T * T * 4, oneLayerPerHead: c.numHeads * T * T * 4 })) : null,
    estimates: [],
    verdicts: { wasm: { ok: false, reasons: [], maxTokens: null }, webgpu: { ok: false, reasons: [], maxTokens: null } },
    notes: [],
    bytesRead: shards.bytesRead,
  };
  if (!report.supported || !c) {
    report.verdicts.wasm.reasons = [...refusals];
    report.verdicts.webgpu.reasons = [...refusals];
    return report;
  }

  // Supported: weights, estimates, verdicts.
  const expected = expectedTensors(c);
  const engineType = engineWeightType(c, dtypes);
  const bpw = bytesPerWeight(engineType);
  let storedBytes = 0;
  for (const t of shards.tensors.values()) storedBytes += t.end - t.begin;
  let largest = { name: '', shape: [] as number[], bytes: 0 };
  for (const [name, shape] of expected) {
    const bytes = elements(shape) * bpw;
    if (bytes > largest.bytes) largest = { name, shape, bytes };
  }
  report.weights = { storedBytes, engineType, engineBytes: (report.parametersFromConfig ?? 0) * bpw, largestTensor: largest };
  const estOpts = { logits: options.logits ?? 'last', lmHeadChunks: options.lmHeadChunks };
  report.estimates = contexts.map((T) => estimateMemory(c, T, engineType, estOpts));

  if (dtypes.includes('BF16')) {
    if (engineType === 'bfloat16') report.notes.push(reason('bf16_kept', 'info', {}, message('msg.model.pf.bf16Kept')));
    else if (engineType === 'float32') report.notes.push(reason('bf16_exact', 'info', {}, message('msg.model.pf.bf16Exact')));
    else report.notes.push(reason('bf16_to_fp16', 'warn', {}, message('msg.model.pf.bf16ToFp16')));
  }
  if (dtypes.includes('F32') && engineType !== 'float32') report.notes.push(reason('rounded_to_fp16', 'info', { engineType }, message('msg.model.pf.roundedToFp16', { type: engineType })));
  const kv1k = report.kvBytesPer1kTokens!;
  report.notes.push(reason('kv_held_twice', 'info', { bytes: kv1k }, message('msg.model.pf.kvHeldTwice', { bytes: formatBytes(kv1k) })));
  const [a1, a2] = report.attention!;
  report.notes.push(
    reason(
      'attention_quadratic',
      'info',
      { reduced1k: a1!.allLayersReduced, reduced2k: a2!.allLayersReduced, perHead1k: a1!.oneLayerPerHead, perHead2k: a2!.oneLayerPerHead },
      message('msg.model.pf.attentionQuadratic', {
        layers: c.numLayers,
        heads: c.numHeads,
        reduced1k: formatBytes(a1!.allLayersReduced),
        reduced2k: formatBytes(a2!.allLayersReduced),
        perHead1k: formatBytes(a1!.oneLayerPerHead),
        perHead2k: formatBytes(a2!.oneLayerPerHead),
      }),
    ),
  );

  report.verdicts.wasm = wasmVerdict(c, env, engineType, estOpts, contexts);
  report.verdicts.webgpu = webgpuVerdict(c, env, report.weights.largestTensor, engineType, estOpts, contexts);
  return report;
}

/** `key` names what needs the memory: the tab on WASM, or the GPU. */
function deviceMemoryReason(env: BrowserBudget, bytes: number, tokens: number, key: 'msg.model.pf.deviceMemoryTab' | 'msg.model.pf.deviceMemoryGpu'): PreflightReason | null {
  if (env.deviceMemoryGiB === undefined || !(env.deviceMemoryGiB > 0)) return null;
  const have = env.deviceMemoryGiB * GiB;
  if (bytes <= have) return null;
  return reason('device_memory_low', 'warn', { bytes, tokens, deviceMemoryGiB: env.deviceMemoryGiB }, message(key, { tokens: n0(tokens), bytes: formatBytes(bytes), gib: env.deviceMemoryGiB }));
}

function wasmVerdict(c: ModelConfig, env: BrowserBudget, t: EngineWeightType, o: { logits: 'last' | 'all'; lmHeadChunks?: number }, contexts: number[]): ProviderVerdict {
  const budget = env.wasmHeapBytes - WASM_SAFETY_MARGIN_BYTES;
  const est = (T: number) => estimateMemory(c, T, t, o);
  const maxTokens = largestFitting(c.maxPositions, (T) => est(T).wasmHeap <= budget);
  const reasons: PreflightReason[] = [];
  const first = est(contexts[0]!);
  const params = { tokens: first.tokens, bytes: first.wasmHeap, budget, heap: env.wasmHeapBytes, margin: WASM_SAFETY_MARGIN_BYTES, maxTokens };
  const ok = first.wasmHeap <= budget;
  const budgetParams = { budget: formatBytes(budget), heap: formatBytes(env.wasmHeapBytes), margin: formatBytes(WASM_SAFETY_MARGIN_BYTES) };
  if (ok) reasons.push(reason('wasm_fits', 'info', params, message('msg.model.pf.wasmFits', { ...budgetParams, tokens: n0(first.tokens), bytes: formatBytes(first.wasmHeap) })));
  else if (maxTokens > 0) reasons.push(reason('wasm_too_large', 'fail', params, message('msg.model.pf.wasmTooLarge', { ...budgetParams, tokens: n0(first.tokens), bytes: formatBytes(first.wasmHeap), maxTokens: n0(maxTokens) })));
  else reasons.push(reason('wasm_too_large', 'fail', params, message('msg.model.pf.wasmWeightsTooLarge', { ...budgetParams, bytes: formatBytes(first.weights + first.castWorkingSet) })));
  for (const T of contexts.slice(1)) {
    const e = est(T);
    if (e.wasmHeap > budget) {
      reasons.push(reason('wasm_context_limit', 'warn', { tokens: T, bytes: e.wasmHeap, budget, maxTokens }, message('msg.model.pf.wasmContextLimit', { tokens: n0(T), bytes: formatBytes(e.wasmHeap), budget: formatBytes(budget), maxTokens: n0(maxTokens) })));
    }
  }
  const last = est(contexts[contexts.length - 1]!);
  const dm = deviceMemoryReason(env, last.tab, last.tokens, 'msg.model.pf.deviceMemoryTab');
  if (dm) reasons.push(dm);
  return { ok, reasons, maxTokens };
}

function webgpuVerdict(
  c: ModelConfig,
  env: BrowserBudget,
  largest: { name: string; shape: number[]; bytes: number },
  t: EngineWeightType,
  o: { logits: 'last' | 'all'; lmHeadChunks?: number },
  contexts: number[],
): ProviderVerdict {
  const g = env.webgpu;
  if (!g) return { ok: false, reasons: [reason('webgpu_unavailable', 'fail', {}, message('msg.model.pf.webgpuUnavailable'))], maxTokens: null };
  const reasons: PreflightReason[] = [];
  const limit = Math.min(g.maxBufferSize, g.maxStorageBufferBindingSize);
  const limitName = g.maxStorageBufferBindingSize <= g.maxBufferSize ? 'maxStorageBufferBindingSize' : 'maxBufferSize';
  const tp = { tensor: largest.name, shape: shapeText(largest.shape), bytes: largest.bytes, limit, limitName, adapter: g.adapterInfo ?? '' };
  const ok = largest.bytes <= limit;
  if (!ok) {
    reasons.push(reason('webgpu_tensor_too_large', 'fail', tp, message('msg.model.pf.webgpuTensorTooLarge', { tensor: largest.name, shape: shapeText(largest.shape), type: t, bytes: formatBytes(largest.bytes), limitName, limit: formatBytes(limit) })));
    return { ok, reasons, maxTokens: null };
  }
  reasons.push(reason('webgpu_tensor_fits', 'info', tp, message('msg.model.pf.webgpuTensorFits', { tensor: largest.name, bytes: formatBytes(largest.bytes), limitName, limit: formatBytes(limit) })));
  // One layer's scores [heads, T, T] float32 are bound whole; logits [T, vocab] too when all positions are asked for.
  const bufferAt = (T: number) => Math.max(c.numHeads * T * T * 4, (o.logits === 'all' ? T : 1) * c.vocabSize * 4);
  const maxTokens = largestFitting(c.maxPositions, (T) => bufferAt(T) <= g.maxStorageBufferBindingSize);
  for (const T of contexts) {
    if (bufferAt(T) > g.maxStorageBufferBindingSize) {
      reasons.push(
        reason(
          'webgpu_attention_limit',
          'warn',
          { tokens: T, bytes: bufferAt(T), limit: g.maxStorageBufferBindingSize, maxTokens },
          message('msg.model.pf.webgpuAttentionLimit', { tokens: n0(T), bytes: formatBytes(bufferAt(T)), limit: formatBytes(g.maxStorageBufferBindingSize), maxTokens: n0(maxTokens) }),
        ),
      );
    }
  }
  const last = estimateMemory(c, contexts[contexts.length - 1]!, t, o);
  const dm = deviceMemoryReason(env, last.gpu, last.tokens, 'msg.model.pf.deviceMemoryGpu');
  if (dm) reasons.push(dm);
  return { ok, reasons, maxTokens };
}
