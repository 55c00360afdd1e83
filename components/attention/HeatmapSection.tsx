'use client';
// The heatmap panel (its controls are the tab's, above it): the exportable figure (labelled heatmap with pinned strips and its
// legend, with how much hiding key 0 narrowed the colour range) and the notes on the range. The tab places
// the sink panel and the tokens beside it. A large model's run (some layers hold only the head mean) names what
// the heatmap shows above it ("layer 27 · mean of 16 heads"), in the caption and in the JSON. With `copySource`,
// under the figure the "copied from" line of the selected row's prediction (docs/CONCEPTS.md#copy-source), over
// the run's per-head layers, its source ringed in the heatmap.
import { useMemo } from 'react';
import { copySourceOfRun } from '../../lib/analysis/copySource';
import type { ColourRanges } from '../../lib/analysis/attentionView';
import { DEFAULT_MIN_QUERY } from '../../lib/analysis/sink';
import { heatmapViewJson } from '../../lib/io/export/heatmapView';
import type { Analysed } from '../../lib/state/analysed';
import type { ViewSettings } from '../../lib/state/store';
import { formatWeight } from '../../lib/view/heatmapAxis';
import { formatSig2 } from '../../lib/view/scale';
import type { Viewport } from '../../lib/view/viewport';
import { Legend } from '../charts/Legend';
import { ExportFrame } from '../common/ExportFrame';
import { useT } from '../common/i18n';
import { Heatmap } from './Heatmap';
import { CopySourceLine } from '../step/CopySourceLine';
import { shownHeadLabel, shownLabel, type AttentionView } from './useAttentionView';

export interface HeatmapSectionProps {
  /** The window the heatmap opens at (a lesson step's zoom); default the whole matrix. */
  initialView?: Viewport;
  data: Analysed;
  shown: AttentionView;
  matrix: Float32Array;
  view: ViewSettings;
  onView: (patch: Partial<ViewSettings>) => void;
  model: string;
  scenario: string;
  selected: number | null;
  onSelect: (q: number | null) => void;
  /** CSS px of the matrix square (the tab fits it above the fold). */
  px: number;
  /** Show the "copied from" line of the selected row under the figure and ring its source (the Attention tab). */
  copySource?: boolean;
}

/** Width of the colour legend's ramp (CSS px). */
const LEGEND_PX = 240;

/** "colour range 0–0.447 → 0–0.062 with key 0 hidden (7.2× narrower)", or null when nothing is left to show. */
function HideSinkRange({ ranges }: { ranges: ColourRanges }) {
  const t = useT();
  const { full, hidden, ratio } = ranges;
  if (!(hidden > 0) || !(full > 0)) return null;
  const narrower = ratio >= 1;
  return (
    <div data-role="hide-sink-range" data-full={full} data-hidden={hidden} style={{ fontSize: 'var(--fs-xs)', color: 'var(--c-text)', lineHeight: 1.35 }}>
      {t(narrower ? 'heatmap.hideSinkRange' : 'heatmap.hideSinkRangeWider', { full: formatWeight(full), hidden: formatWeight(hidden), ratio: formatSig2(narrower ? ratio : 1 / ratio) })}
    </div>
  );
}

export function HeatmapSection({ initialView, data, shown, matrix, view, onView, model, scenario, selected, onSelect, px, copySource = false }: HeatmapSectionProps) {
  const t = useT();
  const { layer, head, scale, ranges } = shown;
  // Which heads the map is of, in the JSON, where the run holds some layers as their mean only.
  const meanOf = shown.meanOnlyLayers ? { perHead: shown.perHead, heads: shown.heads, perHeadLayers: [...shown.headLayers] } : {};
  // The selected row's copy source over every layer the run holds per head (a large model: one), not only the shown map.
  const sel = selected !== null && selected >= 0 && selected < data.tokens ? selected : null;
  const copy = useMemo(() => (copySource && sel !== null ? copySourceOfRun(data.attention, shown.headLayers, sel, data.prompt.ids) : null), [copySource, sel, data, shown.headLayers]);
  const mark = copy?.best ? { q: copy.row, k: copy.best.position } : null;
  return (
    <section className="panel" data-role="heatmap-section" aria-label={t('section.attention')} style={{ display: 'grid', gap: 'var(--sp-1)', width: 'fit-content', maxWidth: '100%' }}>
      {shown.meanOnlyLayers && (
        <div data-role="heatmap-shows" data-layer={layer} data-per-head={shown.perHead ? 'true' : 'false'} style={{ fontSize: 'var(--fs-sm)', fontWeight: 600 }}>
          {shownLabel(t, shown)}
        </div>
      )}
      <ExportFrame
        name={`attention-${scenario}-L${layer}-${head}`}
        title={`${model} · ${scenario} · ${t('export.heatmapCaption', { layer, head: shownHeadLabel(t, shown), scale: view.scale })}`}
        json={() => ({
          ...heatmapViewJson({
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
          }),
          ...meanOf,
        })}
      >
        <div>
          <Heatmap
            initialView={initialView}
            matrix={matrix}
            size={data.tokens}
            labels={data.labels}
            scale={scale}
            map={view.colormap}
            spans={data.prompt.spans}
            messageCount={data.prompt.messageCount}
            px={px}
            selected={selected}
            onSelect={onSelect}
            pinned={view.pinned}
            onPinned={(pinned) => onView({ pinned })}
            mark={mark}
            footer={
              <div style={{ display: 'grid', gap: 'var(--sp-1)', width: LEGEND_PX }}>
                <Legend scale={scale} map={view.colormap} width={LEGEND_PX} />
                {view.hideSink && ranges && <HideSinkRange ranges={ranges} />}
              </div>
            }
          />
        </div>
      </ExportFrame>
      {copySource && (
        <div style={{ width: 0, minWidth: '100%' }}>
          <CopySourceLine
            copy={copy}
            labels={data.labels}
            coverage={copy?.coverage ?? { kind: 'all', layers: [], heads: 0, totalLayers: data.attention.length }}
            carrier={copy?.carrier ?? null}
            markedIn="heatmap"
            empty={sel === null ? { kind: 'select' } : { kind: 'lastRow', row: sel }}
          />
        </div>
      )}
      <div data-role="view-secondary" className="small muted" style={{ width: 0, minWidth: '100%', lineHeight: 1.4 }}>
        {t('legend.range', { max: scale.max.toPrecision(3), minQuery: DEFAULT_MIN_QUERY })}
        {view.hideSink && <div>{t('legend.hiddenSink')}</div>}
      </div>
    </section>
  );
}
