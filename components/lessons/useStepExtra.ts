'use client';
// What a lesson step's view computes besides the attention run (lib/lessons LessonExtra), on the step's first
// engine once its run is in: for a 'kv' step, the one-token edit's K/V comparison (lib/lessons/kvPrefix
// kvLessonRun) across the worker; for a 'patterns' step, every pattern call rendered by the worker's chat
// template and accounted (lib/lessons/harmfulPatterns patternLessonRun); for an 'ab' step, the status bar's arm A
// rendered and prefilled (lib/lessons/statusBar statusArmA); for a 'seeds' step, both status-bar arms sampled over
// a few seeds with the model's generation_config (lib/lessons/statusBar statusSeeds, as the A/B tab's
// useSeedRuns runs lib/generate/abSeeds). Steps of other kinds need nothing: `ready` at once.
import { clientKvEngine } from '../../lib/engine/clientKvEngine';
import type { LessonExtra, StepView } from '../../lib/lessons';
import { kvLessonRun } from '../../lib/lessons/kvPrefix';
import { patternLessonRun } from '../../lib/lessons/harmfulPatterns';
import { statusArmA, statusSeeds } from '../../lib/lessons/statusBar';
import { parseGenerationConfig } from '../../lib/generate/sampling';
import { decodeTokens, specialTokenIds, tokenStrings } from '../../lib/generate/decodeTokens';
import { renderPrompt } from '../../lib/engine/renderPrompt';
import type { Analysed } from '../../lib/state/analysed';
import { useEngineTask } from '../hooks/useEngineTask';
import type { Engine } from '../lab/useEngine';
import type { TaskFailure } from '../../lib/util/latestTask';


/** Distinguishes runs: the same Analysed object keeps its number, a new run gets a new one. */
const ids = new WeakMap<object, number>();
let lastId = 0;
const idOf = (o: object) => {
  if (!ids.has(o)) ids.set(o, ++lastId);
  return ids.get(o)!;
};

export interface StepExtra {
  extra: LessonExtra;
  /** Everything the step's callouts need is in `extra`. */
  ready: boolean;
  busy: boolean;
  /** Why the step's extra work failed (show it with useDescribe). */
  error: TaskFailure | null;
}

const NONE: LessonExtra = Object.freeze({});
const IDLE_EXTRA: StepExtra = { extra: NONE, ready: true, busy: false, error: null };

/** Whether a view kind needs this hook's work ('kv', 'patterns', 'ab', 'seeds'). */
const needsWork = (view: StepView) => view.kind === 'kv' || view.kind === 'patterns' || view.kind === 'ab' || view.kind === 'seeds';

export function useStepExtra(view: StepView, engine: Engine, run: Analysed | null): StepExtra {
  const client = engine.client;
  const loaded = engine.loaded;
  const want = needsWork(view) && run !== null && client !== null && loaded !== null && loaded.id === view.models[0];
  const key = want ? `${view.kind}|${idOf(run!)}|${engine.epoch}|${loaded!.id}` : null;
  const task = useEngineTask<LessonExtra>(key, async ({ signal }) => {
    if (view.kind === 'patterns') return { patterns: await patternLessonRun((req) => renderPrompt(client!, req, signal)) };
    if (view.kind === 'ab')
      return {
        statusArm: await statusArmA(
          (req) => renderPrompt(client!, req, signal),
          async (ids) => (await client!.prefill(ids, { signal })).attention,
        ),
      };
    if (view.kind === 'seeds') {
      const strings = tokenStrings(loaded!.vocab);
      const special = specialTokenIds(loaded!.vocab);
      return {
        seeds: await statusSeeds(
          (req) => renderPrompt(client!, req, signal),
          {
            // The prompt's attention stays in the worker ('keep'); each generated token's row comes back (useSeedRuns).
            prefill: (ids) => client!.prefill(ids, { attention: 'keep', signal }),
            extend: (ids) => client!.extend(ids, { signal }),
            fork: (n) => client!.fork(n, { signal }),
            get ids() {
              return client!.ids;
            },
          },
          parseGenerationConfig(loaded!.generationConfig ?? undefined),
          (ids) => decodeTokens(strings, ids, special).text,
          signal,
        ),
      };
    }
    return { kv: await kvLessonRun(clientKvEngine(client!, loaded!.info.config.numLayers, signal), run!.prompt, loaded!.vocab) };
  });
  if (!needsWork(view)) return IDLE_EXTRA;
  const fresh = key !== null && task.valueKey === key && task.value !== null;
  return { extra: fresh ? task.value! : NONE, ready: fresh, busy: task.running, error: task.failure ?? null };
}
