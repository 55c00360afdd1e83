'use client';
// Generation from the Step tab's cursor: the form (from generation_config.json, editable), one run at a
// time on the session with its progress and stop, and going back to the prompt. GenerationPanel shows it.
import { useEffect, useMemo, useRef, useState } from 'react';
import { formFromSettings, readGenForm, type GenForm } from '../../lib/generate/genForm';
import { greedySettings, parseGenerationConfig, type SamplingSettings } from '../../lib/generate/sampling';
import { useDescribe, useT, type T } from '../common/i18n';
import { errorData } from '../../lib/i18n/message';
import type { TaskFailure } from '../../lib/util/latestTask';
import type { GenRun } from './GenerationPanel';
import type { StepOps } from './useStepSession';

const DEFAULT_MAX_NEW = 64;
const DEFAULT_SEED = 1234;

function readConfig(cfg: unknown): { settings: SamplingSettings; error: TaskFailure | null } {
  try {
    return { settings: parseGenerationConfig(cfg ?? undefined), error: null };
  } catch (e) {
    return { settings: greedySettings(), error: errorData(e) };
  }
}

function summary(s: SamplingSettings): string {
  return `do_sample ${s.doSample}, temperature ${s.temperature}, top_k ${s.topK}, top_p ${s.topP}, eos ${JSON.stringify(s.eosIds)}`;
}

function configNote(t: T, describe: (v: unknown) => string, config: { settings: SamplingSettings; error: TaskFailure | null }, raw: unknown): string {
  if (config.error) return t('step.genConfigError', { error: describe(config.error) });
  return raw ? t('step.genConfigRead', { summary: summary(config.settings) }) : t('step.genConfigNone');
}

export interface StepGeneration {
  form: GenForm;
  setForm: (f: GenForm) => void;
  formRead: ReturnType<typeof readGenForm>;
  /** generation_config.json: read, absent, or its error. */
  configNote: string;
  run: GenRun | null;
  generate: () => Promise<void>;
  stop: () => void;
  backToPrompt: () => void;
}

export function useStepGeneration(ops: StepOps, generationConfig: unknown | null, onBeforeRun: () => void): StepGeneration {
  const t = useT();
  const describe = useDescribe();
  const config = useMemo(() => readConfig(generationConfig), [generationConfig]);
  const [form, setForm] = useState<GenForm>(() => formFromSettings(config.settings, DEFAULT_SEED, DEFAULT_MAX_NEW));
  const [run, setRun] = useState<GenRun | null>(null);
  const abort = useRef<AbortController | null>(null);
  const formRead = useMemo(() => readGenForm(form, config.settings.eosIds), [form, config]);

  useEffect(() => setForm(formFromSettings(config.settings, DEFAULT_SEED, DEFAULT_MAX_NEW)), [config]);
  // A new session: what ran on the old one is over (it was aborted through ops.lifetime()).
  useEffect(() => setRun(null), [ops.session]);

  const generate = async () => {
    const cur = ops.sessionRef.current;
    if (!cur || !formRead.ok) return;
    onBeforeRun();
    const ac = new AbortController();
    abort.current = ac;
    let made = 0;
    const max = formRead.maxNewTokens;
    setRun({ running: true, made: 0, max });
    ops.inFlight.current++;
    try {
      const r = await cur.generate({
        maxNewTokens: max,
        sampling: formRead.sampling,
        seed: formRead.seed,
        signal: AbortSignal.any([ac.signal, ops.lifetime()]),
        onToken: () => {
          made++;
          setRun({ running: true, made, max });
          ops.refresh();
        },
      });
      setRun({ running: false, made: r.ids.length, max, stopped: r.stopped });
      ops.setError(null);
    } catch (e) {
      setRun({ running: false, made, max, error: errorData(e) });
    } finally {
      ops.inFlight.current--;
      abort.current = null;
      ops.refresh();
    }
  };

  const backToPrompt = () => {
    const cur = ops.sessionRef.current;
    if (!cur) return;
    void ops.run(t('step.busyFork'), () => cur.backToPrompt()).then(() => setRun(null));
  };

  return { form, setForm, formRead, configNote: configNote(t, describe, config, generationConfig), run, generate, stop: () => abort.current?.abort(), backToPrompt };
}
