// The generation form's text fields read into generate() options: the mode (greedy or sampling with
// temperature / top-k / top-p), a seed and a token limit. Errors name the field, for the view to translate.
// Pure: no DOM.
import type { SamplingSettings } from './sampling';

export interface GenForm {
  mode: 'greedy' | 'sample';
  temperature: string;
  topK: string;
  topP: string;
  seed: string;
  maxNewTokens: string;
}

export type GenField = 'temperature' | 'topK' | 'topP' | 'seed' | 'maxNewTokens';

export type GenFormResult = { ok: true; sampling: SamplingSettings; seed: number; maxNewTokens: number } | { ok: false; errors: GenField[] };

/** Most tokens one generation may ask for in the page. */
export const MAX_NEW_TOKENS_LIMIT = 1024;

/** The form as a generation_config's settings fill it (seed and limit given). */
export function formFromSettings(s: SamplingSettings, seed: number, maxNewTokens: number): GenForm {
  return { mode: s.doSample ? 'sample' : 'greedy', temperature: String(s.temperature), topK: String(s.topK), topP: String(s.topP), seed: String(seed), maxNewTokens: String(maxNewTokens) };
}

const num = (s: string): number => (s.trim() === '' ? NaN : Number(s));

/**
 * Reads the form. temperature > 0, top-k an integer ≥ 0 (0 = off), top-p in (0, 1] (checked in greedy mode
 * too, where they are ignored, so that switching modes never hides a bad value), seed an integer in
 * 0…2^32 − 1, max new tokens an integer in 1…MAX_NEW_TOKENS_LIMIT. `eosIds` come from generation_config.
 */
export function readGenForm(f: GenForm, eosIds: number[]): GenFormResult {
  const errors: GenField[] = [];
  const temperature = num(f.temperature);
  const topK = num(f.topK);
  const topP = num(f.topP);
  const seed = num(f.seed);
  const maxNewTokens = num(f.maxNewTokens);
  if (!(Number.isFinite(temperature) && temperature > 0)) errors.push('temperature');
  if (!(Number.isInteger(topK) && topK >= 0)) errors.push('topK');
  if (!(topP > 0 && topP <= 1)) errors.push('topP');
  if (!(Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff)) errors.push('seed');
  if (!(Number.isInteger(maxNewTokens) && maxNewTokens >= 1 && maxNewTokens <= MAX_NEW_TOKENS_LIMIT)) errors.push('maxNewTokens');
  if (errors.length) return { ok: false, errors };
  return { ok: true, sampling: { doSample: f.mode === 'sample', temperature, topK, topP, eosIds: [...eosIds] }, seed, maxNewTokens };
}
