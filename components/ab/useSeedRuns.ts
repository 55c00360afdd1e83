'use client';
// What the model decides in each A/B arm: the seed settings, one run of lib/generate/abSeeds per arm on the
// page's engine (started by the user, stopped by the user or by a new pair), its progress, the runs so far
// and the sampling settings from generation_config.json. DecisionOutcomes shows it.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { EngineClient } from '../../lib/engine/client';
import { runSeeds, type SeedEngine } from '../../lib/generate/abSeeds';
import { parseGenerationConfig } from '../../lib/generate/sampling';
import { decodeTokens, specialTokenIds, tokenStrings } from '../../lib/generate/decodeTokens';
import type { Vocab } from '../../lib/prompt/vocab';
import { errorData } from '../../lib/i18n/message';
import type { TaskFailure } from '../../lib/util/latestTask';
import type { GenProgress, GenResult, GenSettings, Sampling } from './DecisionOutcomes';
import type { AbArms } from './useAbArms';

/** The tokenizer's strings, to read generated ids as text. */
export interface Strings {
  strings: string[];
  special: Set<number>;
}

export interface SeedRuns {
  settings: GenSettings;
  setSettings: (s: GenSettings) => void;
  sampling: Sampling;
  /** Null without a vocabulary (nothing can be generated then). */
  strings: Strings | null;
  result: GenResult | null;
  progress: GenProgress | null;
  running: boolean;
  /** Why the last run failed (show it with useDescribe). */
  error: TaskFailure | null;
  run: () => void;
  stop: () => void;
}

export function useSeedRuns(client: EngineClient, arms: AbArms, generationConfig: unknown | null, vocab: Vocab | null | undefined): SeedRuns {
  const { prepared } = arms;
  const [settings, setSettings] = useState<GenSettings>({ seeds: 5, firstSeed: 1, maxNewTokens: 48 });
  const [result, setResult] = useState<GenResult | null>(null);
  const [progress, setProgress] = useState<GenProgress | null>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<TaskFailure | null>(null);
  const abort = useRef<AbortController | null>(null);
  const sampling = useMemo((): Sampling => {
    try {
      return { ok: true, settings: parseGenerationConfig(generationConfig ?? undefined), fromFile: generationConfig !== null && generationConfig !== undefined };
    } catch (e) {
      return { ok: false, error: errorData(e) };
    }
  }, [generationConfig]);
  const strings = useMemo(() => (vocab ? { strings: tokenStrings(vocab), special: specialTokenIds(vocab) } : null), [vocab]);

  // A new pair stops a run on the old one at once (the worker is shared); its results go once the new pair is there.
  useEffect(() => abort.current?.abort(), [arms.pairKey]);
  useEffect(() => {
    abort.current?.abort();
    setResult(null);
    setProgress(null);
    setRunning(false);
    setError(null);
  }, [arms.preparedKey]);
  useEffect(() => () => abort.current?.abort(), []);

  const run = useCallback(async () => {
    if (!prepared || !sampling.ok || !strings) return;
    const ctrl = new AbortController();
    abort.current?.abort();
    abort.current = ctrl;
    const seeds = Array.from({ length: settings.seeds }, (_, i) => settings.firstSeed + i);
    setResult({ seeds, maxNewTokens: settings.maxNewTokens, sampling: sampling.settings, runs: { A: [], B: [] }, aborted: false, finished: false });
    setRunning(true);
    setError(null);
    const engine: SeedEngine = {
      // The prompt's attention is already on the page: it stays in the worker ('keep'); only logits come back.
      prefill: (ids) => client.prefill(ids, { attention: 'keep' }),
      extend: (ids) => client.extend(ids),
      fork: (n) => client.fork(n),
      get ids() {
        return client.ids;
      },
    };
    const decode = (ids: number[]) => decodeTokens(strings.strings, ids, strings.special).text;
    let aborted = false;
    try {
      for (const arm of [prepared.a, prepared.b]) {
        if (ctrl.signal.aborted) {
          aborted = true;
          break;
        }
        const r = await runSeeds(engine, arm.prompt.ids, seeds, {
          maxNewTokens: settings.maxNewTokens,
          sampling: sampling.settings,
          decode,
          signal: ctrl.signal,
          onToken: (seed, _s, index) =>
            setProgress((p) => ({ arm: arm.name, seed, index, seeds: seeds.length, tokens: p && p.arm === arm.name && p.seed === seed ? p.tokens + 1 : 1, maxNewTokens: settings.maxNewTokens })),
          onSeed: (done) => setResult((g) => (g && abort.current === ctrl ? { ...g, runs: { ...g.runs, [arm.name]: [...g.runs[arm.name], done] } } : g)),
        });
        if (r.aborted) {
          aborted = true;
          break;
        }
      }
    } catch (e) {
      if (abort.current === ctrl) setError(errorData(e));
    }
    if (abort.current !== ctrl) return; // superseded (new arms, unmount)
    setResult((g) => g && { ...g, aborted, finished: !aborted });
    setRunning(false);
    setProgress(null);
  }, [prepared, sampling, strings, settings, client]);

  return { settings, setSettings, sampling, strings, result, progress, running, error, run: () => void run(), stop: () => abort.current?.abort() };
}
