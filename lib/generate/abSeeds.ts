// Sampled continuations of one prompt, one per seed, as the status-bar A/B runs them
// (docs/CONCEPTS.md#status-bar-ab): the prompt is (re)established in the engine's cache when needed,
// each seed starts from it (fork), and every new token's attention row is kept for the generated-token
// region masses. Works over the page's EngineClient and over EngineSession in Node. No DOM, no Node
// APIs.

import type { QueryRow } from '../analysis/abCompare';
import { generate, lastRow, type GenEngine, type GenStep } from './generate';
import { classifyDecision, parseAssistantText, type Decision, type ParsedAssistant } from '../prompt/assistantOutput';
import type { SamplingSettings } from './sampling';
import { CodedError } from '../i18n/message';

/** What runSeeds needs of an engine (EngineSession fits; the page adapts EngineClient). */
export interface SeedEngine extends GenEngine {
  /** Runs ids from an empty cache; logits of at least the last position. */
  prefill(ids: number[]): Promise<{ logits?: { data: Float32Array; dims: number[] } }>;
  fork(length: number): unknown;
  /** The ids in the cache as far as the engine knows: another user of the engine may have changed it. */
  readonly ids?: readonly number[];
}

export interface SeedRun {
  seed: number;
  /** Generated ids (the eos token included when it stopped at one). */
  ids: number[];
  /** Their text, special tokens kept. */
  text: string;
  parsed: ParsedAssistant;
  decision: Decision;
  stopped: 'eos' | 'limit';
  /** Query rows of the generated tokens for the region masses: every new token's row except an eos token's. */
  rows: QueryRow[];
  /** Plain-softmax probability of each generated token. */
  p: number[];
}

export interface SeedOptions {
  maxNewTokens: number;
  sampling: SamplingSettings;
  /** Text of generated ids, special tokens kept (so that parseAssistantText sees the end of turn). */
  decode: (ids: number[]) => string;
  signal?: AbortSignal;
  /** After each generated token. */
  onToken?: (seed: number, step: GenStep, index: number) => void;
  /** After each finished seed. */
  onSeed?: (run: SeedRun, index: number) => void;
}

export interface SeedsResult {
  runs: SeedRun[];
  /** Stopped through the signal: `runs` holds the seeds that finished before it (the one cut short is dropped). */
  aborted: boolean;
  /** Prefills run to (re)establish the prompt in the cache. */
  prefills: number;
}

function startsWith(ids: readonly number[], prefix: readonly number[]): boolean {
  if (ids.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (ids[i] !== prefix[i]) return false;
  return true;
}

/**
 * Generates once per seed after `prompt` (token ids), with the same sampling settings, each from the
 * prompt alone (the cache is forked back to the prompt between seeds). The prompt is prefilled first, and
 * again whenever the engine says its cache no longer starts with the prompt. A seed whose cache was changed
 * by someone else while it ran is run again once; a second time is an error.
 */
export async function runSeeds(engine: SeedEngine, prompt: readonly number[], seeds: readonly number[], opts: SeedOptions): Promise<SeedsResult> {
  const T = prompt.length;
  if (T === 0) throw new RangeError('an empty prompt has no position to generate from');
  const eos = new Set(opts.sampling.eosIds);
  const runs: SeedRun[] = [];
  let lastLogits: Float32Array | null = null;
  let prefills = 0;
  const establish = async () => {
    const holds = lastLogits !== null && (engine.ids === undefined || startsWith(engine.ids, prompt));
    if (holds) {
      await engine.fork(T);
      return lastLogits!;
    }
    const r = await engine.prefill([...prompt]);
    prefills++;
    if (!r.logits) throw new Error('the engine returned no logits for the prompt');
    lastLogits = lastRow(r.logits).slice();
    return lastLogits;
  };
  for (let i = 0; i < seeds.length; i++) {
    const seed = seeds[i]!;
    for (let attempt = 0; ; attempt++) {
      if (opts.signal?.aborted) return { runs, aborted: true, prefills };
      const logits = await establish();
      const g = await generate(engine, logits, T, {
        maxNewTokens: opts.maxNewTokens,
        sampling: opts.sampling,
        seed,
        keepAttention: true,
        signal: opts.signal,
        onStep: (s) => opts.onToken?.(seed, s, i),
      });
      if (g.stopped === 'aborted') return { runs, aborted: true, prefills };
      if (engine.ids !== undefined && !startsWith(engine.ids, [...prompt, ...g.ids])) {
        lastLogits = null; // someone else ran the engine meanwhile: start this seed again from a fresh prefill
        if (attempt === 0) continue;
        throw new CodedError('msg.engine.gen.seedCacheChanged', { seed });
      }
      const text = opts.decode(g.ids);
      const parsed = parseAssistantText(text);
      const run: SeedRun = {
        seed,
        ids: g.ids,
        text,
        parsed,
        decision: classifyDecision(parsed),
        stopped: g.stopped === 'eos' ? 'eos' : 'limit',
        rows: g.steps.filter((s) => !eos.has(s.id)).map((s) => ({ position: s.position, attention: s.attention })),
        p: g.steps.map((s) => s.p),
      };
      runs.push(run);
      opts.onSeed?.(run, i);
      break;
    }
  }
  return { runs, aborted: false, prefills };
}
