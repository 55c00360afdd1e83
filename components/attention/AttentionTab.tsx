'use client';
// The Attention tab: the agent loop's calls (inspector), the prompt's tokens with the selected query's top
// keys, and the heatmap (controls, exportable picture, legend) beside the attention-sink panel.
import { topReceivers, DEFAULT_MIN_QUERY } from '../../lib/analysis/sink';
import { heatmapViewJson } from '../../lib/io/export/heatmapView';
import type { Analysed } from '../../lib/state/analysed';
import type { ViewSettings } from '../../lib/state/store';
import { Legend } from '../charts/Legend';
import { ExportFrame } from '../common/ExportFrame';
import { useT } from '../common/i18n';
import { MessageInspector } from '../loop/MessageInspector';
import { AttentionControls } from './AttentionControls';
import { Heatmap } from './Heatmap';
import { SinkPanel } from './SinkPanel';
import { TokenView } from './TokenView';
import { headLabel, type AttentionView } from './useAttentionView';

export interface AttentionTabProps {
  data: Analysed | null;
  /** The reduced matrix and scale (the page computes them: its status line reads them too). */
  shown: AttentionView;
  view: ViewSettings;
  onView: (patch: Partial<ViewSettings>) => void;
  /** The selected query token, already checked against the run's length. */
  selected: number | null;
  onSelect: (i: number | null) => void;
  /** Names for the export's file and caption. */
  model: string;
  scenario: string;
}

export function AttentionTab({ data, shown, view, onView, selected, onSelect, model, scenario }: AttentionTabProps) {
  if (!data) return null;
  return (
    <>
      <MessageInspector run={data.run} prompts={data.callPrompts} />
      <TokensSection data={data} matrix={shown.matrix} selected={selected} onSelect={onSelect} />
      {shown.matrix && <HeatmapSection data={data} shown={shown} matrix={shown.matrix} view={view} onView={onView} model={model} scenario={scenario} />}
    </>
  );
}

function TokensSection({ data, matrix, selected, onSelect }: { data: Analysed; matrix: Float32Array | null; selected: number | null; onSelect: (i: number | null) => void }) {
  const t = useT();
  const T = data.tokens;
  return (
    <section aria-label={t('section.tokens')}>
      <h2 style={{ fontSize: 16, margin: '4px 0' }}>{t('section.tokens')}</h2>
      <TokenView tokens={data.prompt.tokens} spans={data.prompt.spans} selected={selected} onSelect={onSelect} height={220} />
      <div id="selection" style={{ fontSize: 13, color: '#333', marginTop: 4, fontFamily: 'ui-monospace, monospace' }}>
        {selected === null || !matrix
          ? t('selection.hint')
          : `${t('selection.row', { index: selected, label: data.labels[selected] ?? '' })} ${topReceivers(Float64Array.from(matrix.subarray(selected * T, selected * T + selected + 1)), 5)
              .map((k) => `${k.key} ${data.labels[k.key]} ${k.weight.toFixed(3)}`)
              .join(' · ')}`}
      </div>
    </section>
  );
}

interface HeatmapSectionProps {
  data: Analysed;
  shown: AttentionView;
  matrix: Float32Array;
  view: ViewSettings;
  onView: (patch: Partial<ViewSettings>) => void;
  model: string;
  scenario: string;
}

function HeatmapSection({ data, shown, matrix, view, onView, model, scenario }: HeatmapSectionProps) {
  const t = useT();
  const { layer, head, scale } = shown;
  return (
    <section aria-label={t('section.attention')} style={{ display: 'grid', gap: 8 }}>
      <h2 style={{ fontSize: 16, margin: '4px 0' }}>{t('section.attention')}</h2>
      <AttentionControls view={view} layers={shown.layers} heads={shown.heads} onChange={onView} />
      {/* Heatmap on the left, the sink panel beside it on wide screens (below it on narrow ones). */}
      <div style={{ display: 'flex', gap: 28, flexWrap: 'wrap', alignItems: 'flex-start' }}>
        <div style={{ display: 'grid', gap: 8, flex: '0 0 auto' }}>
          <ExportFrame
            name={`attention-${scenario}-L${layer}-${head}`}
            title={`${model} · ${scenario} · ${t('export.heatmapCaption', { layer, head: headLabel(t, head), scale: view.scale })}`}
            json={() =>
              heatmapViewJson({
                model,
                scenario,
                layer,
                head,
                scale: view.scale,
                gamma: view.gamma,
                colormap: view.colormap,
                hideSink: view.hideSink,
                tokens: data.labels,
                spans: data.prompt.spans,
                matrix,
                size: data.tokens,
                range: { min: scale.min, max: scale.max },
              })
            }
          >
            <Heatmap matrix={matrix} size={data.tokens} labels={data.labels} scale={scale} map={view.colormap} spans={data.prompt.spans} />
            <Legend scale={scale} map={view.colormap} />
          </ExportFrame>
          <div style={{ color: '#555', fontSize: 12, maxWidth: 700 }}>
            {t('legend.range', { max: scale.max.toPrecision(3), minQuery: DEFAULT_MIN_QUERY })}
            {view.hideSink && <div>{t('legend.hiddenSink')}</div>}
          </div>
        </div>
        <div style={{ flex: '1 1 420px', minWidth: 360 }}>
          <SinkPanel attention={data.attention} labels={data.labels} />
        </div>
      </div>
    </section>
  );
}
