'use client';
// The status-bar A/B (docs/CONCEPTS.md#decision-position, docs/CONCEPTS.md#regions): two arms — built in,
// the Xfinity scenario without (A) and with (B) the <agent_status> message; or any two scenarios of the
// user's — rendered by the worker's chat template and prefilled separately (attention of every layer and
// head kept on the page). Shows how the arms align (shared prefix), the measured identity of the
// shared-prefix rows, the rows that can differ side by side with the decision row's difference, attention
// mass per region at the decision position (and over generated tokens), and what the model decides over
// several seeds. The hooks hold the arms and the runs; every number comes from lib/analysis and lib/generate.
import { useMemo } from 'react';
import type { EngineClient } from '../../lib/engine/client';
import { conversationTargets } from '../../lib/analysis/abArms';
import type { Vocab } from '../../lib/prompt/vocab';
import type { CustomScenario } from '../../lib/state/store';
import type { Analysed } from '../../lib/state/analysed';
import { useT } from '../common/i18n';
import { AbAlignment, SharedRows } from './AbAlignment';
import { AbArmPicker } from './AbArmPicker';
import { AbHeatmaps } from './AbHeatmaps';
import type { AbArmView } from './useAbRasters';
import { abStyle } from './abStyle';
import { DecisionOutcomes } from './DecisionOutcomes';
import { DecisionRegions } from './DecisionRegions';
import { useAbArms, useArmChoice, type Arm } from './useAbArms';
import { useAbRegions } from './useAbRegions';
import { useSeedRuns } from './useSeedRuns';

export { BUILTIN_ARMS } from './useAbArms';

export interface AbLabProps {
  client: EngineClient;
  analysed: Analysed | null;
  /** The page's current scenario ref (built-in `id[:variant]` or `custom:<id>`). */
  scenario: string;
  custom: CustomScenario[];
  generationConfig: unknown | null;
  /** The tokenizer's vocabulary, to turn generated ids into text in the page (Lab.tsx passes it). */
  vocab?: Vocab | null;
}

export function AbLab({ client, scenario, custom, generationConfig, vocab }: AbLabProps) {
  const t = useT();
  const choice = useArmChoice(scenario, custom);
  const arms = useAbArms(client, choice);
  const seeds = useSeedRuns(client, arms, generationConfig, vocab);
  const { prepared, stage } = arms;
  const regions = useAbRegions(prepared, arms.preparedKey, seeds.result);
  const { titles } = choice;
  const titlesAB = useMemo(() => ({ a: titles.A, b: titles.B }), [titles]);
  const views = useMemo((): { a: AbArmView; b: AbArmView } | null => {
    if (!prepared) return null;
    const v = (arm: Arm): AbArmView => ({ name: arm.name, title: titles[arm.name], prompt: arm.prompt, labels: arm.labels, attention: arm.attention });
    return { a: v(prepared.a), b: v(prepared.b) };
  }, [prepared, titles]);

  return (
    <div style={{ display: 'grid', gap: 16 }} data-role="ab-lab" data-ready={prepared && !stage ? 'true' : 'false'}>
      <AbArmPicker choice={choice} arms={arms} custom={custom} />
      {prepared && views && (
        <>
          <AbAlignment prepared={prepared} />
          <SharedRows prepared={prepared} />
          <section style={abStyle.box} aria-label={t('ab.heat.title')}>
            <h3 style={abStyle.h3}>{t('ab.heat.title')}</h3>
            <AbHeatmaps a={views.a} b={views.b} alignment={prepared.alignment} />
          </section>
          <DecisionRegions prepared={prepared} regions={regions} strings={seeds.strings} armTitles={titlesAB} />
          <section style={abStyle.box} aria-label={t('ab.gen.title')}>
            <h3 style={abStyle.h3}>{t('ab.gen.title')}</h3>
            <p style={abStyle.intro}>{t('ab.gen.intro')}</p>
            {![prepared.a.request, prepared.b.request].some((r) => r.tools?.some((x) => x.function.name === 'phone_call')) && (
              <div style={{ color: '#a15c00', fontSize: 13 }} data-role="ab-no-phone-tool">
                {t('ab.gen.noPhoneTool')}
              </div>
            )}
            <DecisionOutcomes
              settings={seeds.settings}
              onSettings={seeds.setSettings}
              sampling={seeds.sampling}
              canRun={!!seeds.strings && seeds.sampling.ok && !stage}
              whyNot={!seeds.strings ? t('ab.gen.noVocab') : null}
              running={seeds.running}
              progress={seeds.progress}
              onRun={seeds.run}
              onStop={seeds.stop}
              result={seeds.result}
              armTitles={titles}
              targets={{ A: conversationTargets(prepared.a.request), B: conversationTargets(prepared.b.request) }}
            />
            {seeds.error && (
              <div role="alert" style={abStyle.error}>
                {t('error.prefix', { message: seeds.error })}
              </div>
            )}
          </section>
        </>
      )}
    </div>
  );
}
