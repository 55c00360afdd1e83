// Next-token choice from one row of logits: the model's generation_config.json read into SamplingSettings,
// the sampling distribution Hugging Face `generate()` would draw from, a seeded draw, and the top tokens
// for the views. Pure numbers: no DOM, no Node APIs (runs in Node, the page and Web Workers).
//
// Two distributions, on purpose:
// - `softmax(logits)`: the model's plain next-token probabilities. The views show these (`topTokens`,
//   `topTokensFromLogits`, GenStep.top and GenStep.p): what the model believes, independent of the knobs.
// - `distribution(logits, settings)`: what a token is actually drawn from after temperature, top-k and
//   top-p (renormalised, zero outside the kept set), or a one-hot at the argmax when sampling is off.

import type { Params, StringKey } from '../i18n';
import { CodedError } from '../i18n/message';

/** How the next token is chosen. */
export interface SamplingSettings {
  /** false: greedy (argmax, ties → lowest id); temperature, topK and topP are then ignored. */
  doSample: boolean;
  /** Logits are divided by it before anything else; > 0. 1 = unchanged. */
  temperature: number;
  /** Keep only the topK highest logits (plus any tied with the k-th); 0 = off. */
  topK: number;
  /** Keep the smallest head of the sorted distribution holding ≥ topP of the mass; in (0, 1], 1 = off. */
  topP: number;
  /** End-of-sequence ids: generation stops after emitting one. Empty: stop only at the length limit. */
  eosIds: number[];
}

/**
 * Hugging Face GenerationConfig's defaults, used for every key generation_config.json leaves out:
 * do_sample false, temperature 1.0, top_k 50 (not 0: HF keeps a top-50 filter unless told otherwise),
 * top_p 1.0, no eos ids.
 */
export const HF_DEFAULT_SAMPLING: Readonly<SamplingSettings> = Object.freeze({ doSample: false, temperature: 1, topK: 50, topP: 1, eosIds: [] as number[] });

/** Greedy decoding with the given eos ids. */
export function greedySettings(eosIds: number[] = []): SamplingSettings {
  return { ...HF_DEFAULT_SAMPLING, eosIds: [...eosIds] };
}

/** Bad sampling settings (a model's generation_config.json, the form) or logits; coded for the page's language. */
export class SamplingError extends CodedError {
  constructor(key: StringKey, params?: Params, where?: string) {
    super(key, params, where);
    this.name = 'SamplingError';
  }
}

const CONFIG_FILE = 'generation_config.json';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isTokenId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/**
 * Reads a generation_config.json (the parsed object, or its text). Keys: do_sample (boolean), temperature
 * (number > 0), top_k (integer ≥ 0, 0 = off), top_p (number in (0, 1]), eos_token_id (an id or a list of
 * ids; null = none). Missing or null keys take HF_DEFAULT_SAMPLING's values; other keys are ignored.
 * `undefined` (no file) gives the defaults. Wrong types or ranges throw a SamplingError naming the key.
 */
export function parseGenerationConfig(json: unknown): SamplingSettings {
  let cfg: unknown = json;
  if (typeof json === 'string') {
    try {
      cfg = JSON.parse(json);
    } catch (e) {
      throw new SamplingError('msg.engine.sampling.notJson', { detail: (e as Error).message }, CONFIG_FILE);
    }
  }
  if (cfg === undefined || cfg === null) return greedySettings();
  if (!isObj(cfg)) throw new SamplingError('msg.engine.sampling.notObject', undefined, CONFIG_FILE);
  const out: SamplingSettings = greedySettings();
  const has = (k: string) => cfg[k] !== undefined && cfg[k] !== null;
  const bad = (k: string, key: StringKey) => new SamplingError(key, { got: String(JSON.stringify(cfg[k])) }, CONFIG_FILE);
  if (has('do_sample')) {
    if (typeof cfg.do_sample !== 'boolean') throw bad('do_sample', 'msg.engine.sampling.doSample');
    out.doSample = cfg.do_sample;
  }
  if (has('temperature')) {
    const t = cfg.temperature;
    if (typeof t !== 'number' || !Number.isFinite(t) || t <= 0) throw bad('temperature', 'msg.engine.sampling.temperature');
    out.temperature = t;
  }
  if (has('top_k')) {
    const k = cfg.top_k;
    if (typeof k !== 'number' || !Number.isInteger(k) || k < 0) throw bad('top_k', 'msg.engine.sampling.topK');
    out.topK = k;
  }
  if (has('top_p')) {
    const p = cfg.top_p;
    if (typeof p !== 'number' || !(p > 0 && p <= 1)) throw bad('top_p', 'msg.engine.sampling.topP');
    out.topP = p;
  }
  if (has('eos_token_id')) {
    const e = cfg.eos_token_id;
    const ids = Array.isArray(e) ? e : [e];
    if (!ids.every(isTokenId)) throw bad('eos_token_id', 'msg.engine.sampling.eos');
    out.eosIds = [...new Set(ids as number[])];
  }
  return out;
}

/** Throws a SamplingError if `s` is out of range (hand-built settings; parseGenerationConfig's are valid). */
export function checkSettings(s: SamplingSettings): void {
  if (typeof s.doSample !== 'boolean') throw new SamplingError('msg.engine.sampling.checkDoSample', { got: String(s.doSample) });
  if (!(Number.isFinite(s.temperature) && s.temperature > 0)) throw new SamplingError('msg.engine.sampling.checkTemperature', { got: s.temperature });
  if (!(Number.isInteger(s.topK) && s.topK >= 0)) throw new SamplingError('msg.engine.sampling.checkTopK', { got: s.topK });
  if (!(s.topP > 0 && s.topP <= 1)) throw new SamplingError('msg.engine.sampling.checkTopP', { got: s.topP });
  if (!Array.isArray(s.eosIds) || !s.eosIds.every(isTokenId)) throw new SamplingError('msg.engine.sampling.checkEos', { got: String(JSON.stringify(s.eosIds)) });
}

function checkLogits(logits: ArrayLike<number>): void {
  if (logits.length === 0) throw new SamplingError('msg.engine.sampling.noLogits');
  for (let i = 0; i < logits.length; i++) {
    const x = logits[i]!;
    if (Number.isNaN(x) || x === Infinity) throw new SamplingError('msg.engine.sampling.badLogit', { id: i, value: x });
  }
}

/** Index of the largest value; ties → the lowest index. NaN or +Infinity throw. */
export function argmax(logits: ArrayLike<number>): number {
  checkLogits(logits);
  let best = 0;
  for (let i = 1; i < logits.length; i++) if (logits[i]! > logits[best]!) best = i;
  return best;
}

/** The model's plain next-token probabilities: softmax in float64 (max subtracted). -Infinity → 0. */
export function softmax(logits: ArrayLike<number>): Float64Array {
  checkLogits(logits);
  const n = logits.length;
  let max = -Infinity;
  for (let i = 0; i < n; i++) if (logits[i]! > max) max = logits[i]!;
  const out = new Float64Array(n);
  if (max === -Infinity) throw new SamplingError('msg.engine.sampling.allMinusInfinity');
  let sum = 0;
  for (let i = 0; i < n; i++) sum += out[i] = Math.exp(logits[i]! - max);
  for (let i = 0; i < n; i++) out[i]! /= sum;
  return out;
}

/** The k-th largest value (counting ties separately), 1 ≤ k < length. */
function kthLargest(values: ArrayLike<number>, k: number): number {
  if (k > 64) return Float64Array.from(values).sort()[values.length - k]!;
  // Small k: keep the k largest seen so far, ascending; most values fail the first comparison.
  const best = new Float64Array(k).fill(-Infinity);
  for (let i = 0; i < values.length; i++) {
    const x = values[i]!;
    if (!(x > best[0]!)) continue;
    let j = 0;
    while (j + 1 < k && best[j + 1]! < x) {
      best[j] = best[j + 1]!;
      j++;
    }
    best[j] = x;
  }
  return best[0]!;
}

/**
 * The distribution the next token is drawn from, over the whole vocabulary (Float64Array, sums to 1,
 * zero for filtered tokens). With sampling off: a one-hot at argmax (ties → lowest id).
 *
 * With sampling on, Hugging Face's warpers in Hugging Face's order (transformers `_get_logits_processor`:
 * TemperatureLogitsWarper, then TopKLogitsWarper, then TopPLogitsWarper, min_tokens_to_keep = 1), then one
 * softmax over what is left:
 * 1. temperature: logits / temperature.
 * 2. top-k (topK > 0): keep tokens whose scaled logit is ≥ the k-th largest (so ties with the k-th all stay,
 *    as in HF's `scores < topk(...)[-1]` test).
 * 3. top-p (topP < 1): softmax over the kept tokens, sort ascending, drop every token whose cumulative
 *    probability (itself and everything smaller) is ≤ 1 − topP; the most likely token always stays. Equal
 *    values sort by id (lower id counts as more likely), where torch's order is unspecified.
 * Arithmetic is float64 where HF works in the logits' dtype, so a token sitting exactly on a top-p boundary
 * may be kept by one and dropped by the other.
 */
export function distribution(logits: ArrayLike<number>, s: SamplingSettings): Float64Array {
  checkSettings(s);
  checkLogits(logits);
  const n = logits.length;
  const out = new Float64Array(n);
  if (!s.doSample) {
    out[argmax(logits)] = 1;
    return out;
  }
  // Temperature is monotone, so ordering and the top-k test use the raw logits; the probabilities use
  // (logit − max) / temperature, which cannot overflow for tiny temperatures.
  // The top-k threshold first, so only the kept ids need the comparator sort.
  const threshold = s.topK > 0 && s.topK < n ? kthLargest(logits, s.topK) : -Infinity;
  const kept: number[] = [];
  for (let i = 0; i < n; i++) if (logits[i]! > -Infinity && logits[i]! >= threshold) kept.push(i);
  if (kept.length === 0) throw new SamplingError('msg.engine.sampling.allMinusInfinity');
  // Descending by logit, ties → lower id first.
  kept.sort((a, b) => logits[b]! - logits[a]! || a - b);
  let m = kept.length;
  const max = logits[kept[0]!]!;
  const p = new Float64Array(m);
  let sum = 0;
  for (let j = 0; j < m; j++) sum += p[j] = Math.exp((logits[kept[j]!]! - max) / s.temperature);
  for (let j = 0; j < m; j++) p[j]! /= sum;
  if (s.topP < 1) {
    // Ascending cumulative sum = tail sums of the descending order; the dropped tokens are a suffix.
    const limit = 1 - s.topP;
    let tail = 0;
    let cut = m;
    for (let j = m - 1; j >= 1; j--) {
      tail += p[j]!;
      if (tail <= limit) cut = j;
      else break;
    }
    m = cut;
    sum = 0;
    for (let j = 0; j < m; j++) sum += p[j]!;
    for (let j = 0; j < m; j++) p[j]! /= sum;
  }
  for (let j = 0; j < m; j++) out[kept[j]!] = p[j]!;
  return out;
}

/** Anything with a uniform [0, 1) draw, e.g. lib/util/rng.ts Rng. */
export interface UniformSource {
  next(): number;
}

/**
 * Draws one id from `probs` (need not be normalised; must be ≥ 0 with a positive finite sum) by inverse
 * CDF over ids in ascending order, with exactly one `rng.next()` per call: same probabilities and same
 * generator state → same id. A zero-probability id is never returned.
 */
export function sampleToken(probs: ArrayLike<number>, rng: UniformSource): number {
  let total = 0;
  for (let i = 0; i < probs.length; i++) {
    const p = probs[i]!;
    if (!(p >= 0) || p === Infinity) throw new SamplingError('msg.engine.sampling.badProbability', { id: i, value: p });
    total += p;
  }
  if (!(total > 0)) throw new SamplingError('msg.engine.sampling.zeroSum');
  const u = rng.next() * total;
  let acc = 0;
  let last = -1;
  for (let i = 0; i < probs.length; i++) {
    const p = probs[i]!;
    if (p === 0) continue;
    acc += p;
    last = i;
    if (u < acc) return i;
  }
  return last; // rounding: u landed at the very top of the last bin
}

export interface TopToken {
  id: number;
  p: number;
}

/** The k largest entries of `probs` as { id, p }, descending; ties → lower id first. */
export function topTokens(probs: ArrayLike<number>, k: number): TopToken[] {
  if (!(Number.isInteger(k) && k >= 0)) throw new SamplingError('msg.engine.sampling.topKCount', { got: k });
  const top: TopToken[] = [];
  if (k === 0) return top;
  for (let i = 0; i < probs.length; i++) {
    const p = probs[i]!;
    if (Number.isNaN(p) || (top.length === k && !(p > top[k - 1]!.p))) continue;
    // Insert after every entry ≥ p (earlier ids win ties), dropping the last if full.
    let j = top.length;
    while (j > 0 && top[j - 1]!.p < p) j--;
    top.splice(j, 0, { id: i, p });
    if (top.length > k) top.pop();
  }
  return top;
}

/** Top k of the model's plain softmax (not the warped sampling distribution): what the views show. */
export function topTokensFromLogits(logits: ArrayLike<number>, k: number): TopToken[] {
  return topTokens(softmax(logits), k);
}
