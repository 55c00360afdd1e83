// Preflight reasons and source errors as sentences in the page's language. The English sentences come from
// lib/model themselves (they name more detail than a template can); other languages word the code with the
// params formatted here, and fall back to the English sentence where a template would lack a value.
import { formatBytes } from '../../lib/analysis/kvBytes';
import type { Lang, StringKey } from '../../lib/i18n';
import type { PreflightCode, PreflightReason } from '../../lib/model/preflight';
import type { ModelSourceCode } from '../../lib/model/source/types';
import { formatInt } from '../../lib/view/scale';
import type { T } from '../common/i18n';

const BYTE_PARAMS = new Set(['bytes', 'budget', 'heap', 'margin', 'limit', 'reduced1k', 'reduced2k', 'perHead1k', 'perHead2k']);
const COUNT_PARAMS = new Set(['tokens', 'maxTokens', 'count', 'layers']);

/** Byte counts as "1.5 GiB", counts grouped; everything else as given. */
export function formatParams(params: Record<string, string | number>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(params)) {
    if (typeof v === 'number' && BYTE_PARAMS.has(k) && Number.isFinite(v) && v >= 0) out[k] = formatBytes(v);
    else if (typeof v === 'number' && COUNT_PARAMS.has(k)) out[k] = formatInt(v);
    else out[k] = v;
  }
  return out;
}

/** The template, or the fallback when a {param} stayed unfilled. */
function worded(t: T, key: StringKey, params: Record<string, string | number>, fallback: string): string {
  const s = t(key, formatParams(params));
  return /\{\w+\}/.test(s) ? fallback : s;
}

// Every code has its template (a missing one is a type error).
const REASON_KEYS: Record<PreflightCode, StringKey> = {
  no_config: 'reason.no_config',
  config_invalid: 'reason.config_invalid',
  unsupported_architecture: 'reason.unsupported_architecture',
  quantized: 'reason.quantized',
  no_safetensors: 'reason.no_safetensors',
  index_invalid: 'reason.index_invalid',
  shard_missing: 'reason.shard_missing',
  header_corrupt: 'reason.header_corrupt',
  index_mismatch: 'reason.index_mismatch',
  unsupported_dtype: 'reason.unsupported_dtype',
  missing_tensors: 'reason.missing_tensors',
  wrong_shapes: 'reason.wrong_shapes',
  supported: 'reason.supported',
  wasm_fits: 'reason.wasm_fits',
  wasm_too_large: 'reason.wasm_too_large',
  wasm_context_limit: 'reason.wasm_context_limit',
  webgpu_unavailable: 'reason.webgpu_unavailable',
  webgpu_tensor_fits: 'reason.webgpu_tensor_fits',
  webgpu_tensor_too_large: 'reason.webgpu_tensor_too_large',
  webgpu_attention_limit: 'reason.webgpu_attention_limit',
  device_memory_low: 'reason.device_memory_low',
  bf16_kept: 'reason.bf16_kept',
  bf16_exact: 'reason.bf16_exact',
  bf16_to_fp16: 'reason.bf16_to_fp16',
  rounded_to_fp16: 'reason.rounded_to_fp16',
  kv_held_twice: 'reason.kv_held_twice',
  attention_quadratic: 'reason.attention_quadratic',
};

const SOURCE_KEYS: Record<ModelSourceCode, StringKey> = {
  not_found: 'sourceErr.not_found',
  gated: 'sourceErr.gated',
  network: 'sourceErr.network',
  bad_repo_id: 'sourceErr.bad_repo_id',
  bad_endpoint: 'sourceErr.bad_endpoint',
  offline: 'sourceErr.offline',
  aborted: 'sourceErr.aborted',
  unsupported: 'sourceErr.unsupported',
};

function reasonKey(r: PreflightReason): StringKey {
  const p = r.params;
  if (r.code === 'no_config' && p.files) return 'reason.no_config_gguf';
  if (r.code === 'no_safetensors' && p.found) return 'reason.no_safetensors_found';
  if (r.code === 'wasm_too_large' && !(Number(p.maxTokens) > 0)) return 'reason.wasm_weights_too_large';
  return REASON_KEYS[r.code];
}

export function reasonSentence(t: T, lang: Lang, r: PreflightReason): string {
  if (lang === 'en') return r.text;
  // A duplicated tensor is a header_corrupt without a message: the English sentence names both files.
  const key = reasonKey(r) as StringKey | undefined;
  return key ? worded(t, key, r.params, r.text) : r.text;
}

/** A ModelSourceError (or anything with a code and params), by duck typing: errors may cross realms. */
function sourceError(e: unknown): { code: ModelSourceCode; params: Record<string, string | number>; message: string } | null {
  if (!(e instanceof Error) || e.name !== 'ModelSourceError') return null;
  const x = e as Error & { code?: unknown; params?: unknown };
  if (typeof x.code !== 'string') return null;
  return { code: x.code as ModelSourceCode, params: (typeof x.params === 'object' && x.params ? x.params : {}) as Record<string, string | number>, message: e.message };
}

/** What went wrong reading a model, for the user: the source's own sentence in English, its code worded otherwise. */
export function errorSentence(t: T, lang: Lang, e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const s = sourceError(e);
  if (!s || lang === 'en') return message;
  const key: StringKey | undefined = s.code === 'not_found' && !s.params.url ? 'sourceErr.not_found_folder' : SOURCE_KEYS[s.code];
  return key ? worded(t, key, s.params, message) : message;
}

/** True for a cancelled read (a newer check replaced it, or the dialog closed): nothing to show. */
export function isAbort(e: unknown): boolean {
  return e instanceof Error && (e.name === 'AbortError' || sourceError(e)?.code === 'aborted');
}
