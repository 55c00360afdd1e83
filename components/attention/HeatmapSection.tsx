'use client';
// The heatmap with its controls, exportable picture and legend, beside the attention-sink panel.
import { DEFAULT_MIN_QUERY } from '../../lib/analysis/sink';
import { heatmapViewJson } from '../../lib/io/export/heatmapView';
import type { Analysed } from '../../lib/state/analysed';
import type { ViewSettings } from '../../lib/state/store';
import { Legend } from '../charts/Legend';
import { ExportFrame } from '../common/ExportFrame';
import { useT } from '../common/i18n';
import { AttentionControls } from './AttentionControls';
import { Heatmap } from './Heatmap';
import { SinkPanel } from './SinkPanel';
import { headLabel, type AttentionView } from './useAttentionView';

export interface HeatmapSectionProps {
  data: Analysed;
  shown: AttentionView;
  matrix: Float32Array;
  view: ViewSettings;
  onView: (patch: Partial<ViewSettings>) => void;
  model: string;
  scenario: string;
}

export function HeatmapSection({ data, shown, matrix, view, onView, model, scenario }: HeatmapSectionProps) {
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
