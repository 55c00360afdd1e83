'use client';
// The status-bar A/B (docs/CONCEPTS.md#decision-position, docs/CONCEPTS.md#regions): two arms — built in,
// the Xfinity scenario without (A) and with (B) the <agent_status> message; or any two scenarios of the
// user's — rendered by the worker's chat template and prefilled separately (attention of every layer and
// head kept on the page). In the order a teacher reads it: the header (pair, sizes, model, layer, head);
// attention mass per region at the decision position; A, B and B − A side by side over the aligned keys;
// then the shared-prefix facts, the measured identity of the shared rows, the user's own regions, and what
// the model decides over several seeds. The hooks hold the arms and the runs; every number comes from
// lib/analysis, lib/view and lib/generate.
import { useMemo, useState } from 'react';
import type { EngineClient } from '../../lib/engine/client';
import { barRows, conversationTargets, type LayerChoice } from '../../lib/analysis/abArms';
import type { HeadReduction } from '../../lib/analysis/attentionView';
import { defaultRowCount } from '../../lib/view/abRaster';
import type { Vocab } from '../../lib/prompt/vocab';
import type { CustomScenario } from '../../lib/state/store';
import type { Analysed } from '../../lib/state/analysed';
import { ViewHeader } from '../common/ViewHeader';
import { useDescribe, useT } from '../common/i18n';
import { AbAlignment, SharedRows } from './AbAlignment';
import { AbArmPicker } from './AbArmPicker';
import { AbHeatmaps } from './AbHeatmaps';
import { abStyle } from './abStyle';
import { DecisionBars, GeneratedBars, OwnRegions } from './DecisionBars';
import { DecisionOutcomes } from './DecisionOutcomes';
import { axisMax } from './RegionBars';
import { useAbArms, useArmChoice, type Arm } from './useAbArms';
import { useAlignedAxis, type AbArmView } from './useAbMaps';
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
  /** The loaded model's name, for the header. */
  model?: string;
}

export function AbLab({ client, scenario, custom, generationConfig, vocab, model }: AbLabProps) {
  const t = useT();
  const describe = useDescribe();
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
  // The heatmaps' layer and head: the header names them.
  const layers = prepared?.a.attention.length ?? 0;
  const [layerPick, setLayer] = useState<number | null>(null);
  const [head, setHead] = useState<HeadReduction>('mean');
  const layer = Math.min(layerPick ?? layers - 1, Math.max(0, layers - 1));
  const headLabel = head === 'mean' ? t('head.mean') : head === 'max' ? t('head.max') : t('head.one', { head });
  // The bars' layer (mean over layers by default) and one value axis for the decision and generated bars.
  const [barsLayer, setBarsLayer] = useState<LayerChoice>('mean');
  const lc: LayerChoice = barsLayer === 'mean' || barsLayer < layers ? barsLayer : 'mean';
  const decisionRows = useMemo(() => (regions.decision ? barRows(regions.decision.a, regions.decision.b) : []), [regions.decision]);
  const generatedRows = useMemo(() => (regions.generated ? barRows(regions.generated.a, regions.generated.b) : []), [regions.generated]);
  const barMax = axisMax([decisionRows, generatedRows], lc);

  return (
    <div style={{ display: 'grid', gap: 'var(--sp-3)', minWidth: 0 }} data-role="ab-lab" data-ready={prepared && !stage ? 'true' : 'false'}>
      <ViewHeader
        title={t('ab.title')}
        facts={[
          { key: 'scenario', label: t('ab.head.scenario'), value: choice.pairTitle },
          ...(['A', 'B'] as const).map((n) => {
            const arm = prepared && (n === 'A' ? prepared.a : prepared.b);
            return { key: `arm${n}`, label: n, value: arm ? t('ab.head.arm', { title: titles[n], n: arm.prompt.ids.length }) : titles[n] };
          }),
          ...(model ? [{ key: 'model', label: t('ab.head.model'), value: model }] : []),
          ...(prepared ? [{ key: 'layer', label: t('control.layer'), value: layer }, { key: 'head', label: null, value: headLabel }] : []),
        ]}
      />
      <AbArmPicker choice={choice} arms={arms} custom={custom} />
      <p style={abStyle.intro} data-role="view-secondary">
        {t('ab.intro')}
      </p>
      {prepared && views && regions.decision && (
        <>
          <DecisionBars
            prepared={prepared}
            rows={decisionRows}
            masses={regions.decision}
            strings={seeds.strings}
            armTitles={titlesAB}
            layer={lc}
            onLayer={setBarsLayer}
            max={barMax}
          />
          <section className="panel" style={abStyle.box} aria-label={t('ab.maps.title')}>
            <h3 style={{ margin: 0 }}>{t('ab.maps.title')}</h3>
            <AbMapsPanel key={arms.preparedKey} views={views} sharedPrefix={prepared.alignment.sharedPrefix} layer={layer} head={head} onLayer={setLayer} onHead={setHead} headLabel={headLabel} />
          </section>
          <AbAlignment prepared={prepared} />
          <SharedRows prepared={prepared} />
          <OwnRegions prepared={prepared} regions={regions} />
          <section className="panel" style={abStyle.box} aria-label={t('ab.gen.title')}>
            <h3 style={{ margin: 0 }}>{t('ab.gen.title')}</h3>
            <p style={abStyle.intro}>{t('ab.gen.intro')}</p>
            {![prepared.a.request, prepared.b.request].some((r) => r.tools?.some((x) => x.function.name === 'phone_call')) && (
              <div style={{ color: 'var(--c-warn)', fontSize: 'var(--fs-sm)' }} data-role="ab-no-phone-tool">
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
                {t('error.prefix', { message: describe(seeds.error) })}
              </div>
            )}
            <GeneratedBars regions={regions} armTitles={titlesAB} layer={lc} max={barMax} />
          </section>
        </>
      )}
    </div>
  );
}

/** The maps panel's body, keyed by the pair so that its row count starts at the pair's default. */
function AbMapsPanel({
  views,
  sharedPrefix,
  ...rest
}: {
  views: { a: AbArmView; b: AbArmView };
  sharedPrefix: number;
  layer: number;
  head: HeadReduction;
  onLayer: (l: number) => void;
  onHead: (h: HeadReduction) => void;
  headLabel: string;
}) {
  const axis = useAlignedAxis(views.a, views.b, sharedPrefix);
  return <AbHeatmaps a={views.a} b={views.b} axis={axis} defaultRows={defaultRowCount(axis)} {...rest} />;
}
