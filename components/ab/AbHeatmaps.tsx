'use client';
// The A/B heatmaps panel: controls (layer, head, scale, how many query rows, lift of the difference), the
// three maps over the aligned axis (AbMaps) and their keys: one colour scale for A and B, the diverging
// scale of B − A with its range, what hatched, grey and the outline mean, the zones and the segments.
// The numbers come from lib/ (useAbMaps); the layer and head are the tab's (its header names them).
import { memo, useState } from 'react';
import type { HeadReduction } from '../../lib/analysis/attentionView';
import type { ScaleKind } from '../../lib/view/colormap';
import { zoneSpans, HATCH_INK_RGB, HATCH_RGB, type AlignedAxis } from '../../lib/view/abRaster';
import { divergingRgb, divergingTicks, type DivergingScale } from '../../lib/view/diverging';
import { formatSigned } from '../../lib/view/scale';
import { MARK_COLORS, SEGMENT_COLORS } from '../../lib/view/palette';
import type { Prompt, Segment } from '../../lib/prompt/prompt';
import { ExportFrame } from '../common/ExportFrame';
import { Legend, RampLegend } from '../charts/Legend';
import { useT } from '../common/i18n';
import { HeadSelect, LayerSelect, ScaleSelect } from '../common/ViewSelects';
import { AbMaps, ZONE_COLORS } from './AbMaps';
import { AB_MAP, useAbMaps, type AbArmView } from './useAbMaps';
import { useBoxWidth } from '../common/useBoxWidth';

export interface AbHeatmapsProps {
  a: AbArmView;
  b: AbArmView;
  axis: AlignedAxis;
  layer: number;
  head: HeadReduction;
  onLayer: (l: number) => void;
  onHead: (h: HeadReduction) => void;
  /** Shown in the export's caption. */
  headLabel: string;
  defaultRows: number;
}

const rgb = (c: readonly number[]) => `rgb(${c[0]},${c[1]},${c[2]})`;
const HATCH_CSS = `repeating-linear-gradient(135deg, ${rgb(HATCH_INK_RGB)} 0 1.5px, ${rgb(HATCH_RGB)} 1.5px 4.2px)`;

/** The diverging legend: symmetric ticks about 0 (d3 via lib/view/scale); data-min/-max carry its ends. */
export function DivergingLegend({ scale, width = 300, caption }: { scale: DivergingScale; width?: number; caption: string }) {
  return (
    <div data-role="ab-diff-legend" data-min={-scale.max} data-max={scale.max}>
      <RampLegend role="diverging-legend" caption={caption} width={width} colour={(f) => divergingRgb(f * 2 - 1)} colourKey="diverging" ticks={divergingTicks(scale)} />
    </div>
  );
}

function Swatch({ background, outline }: { background: string; outline?: string }) {
  return <span aria-hidden style={{ display: 'inline-block', width: 16, height: 11, background, border: outline ? `2px solid ${outline}` : '1px solid var(--c-border-strong)', verticalAlign: -1, marginRight: 6 }} />;
}

function SegmentKey({ prompts }: { prompts: Prompt[] }) {
  const t = useT();
  const present = new Set<Segment>();
  for (const p of prompts) for (const s of p.spans) present.add(s.segment);
  return (
    <div className="small" style={{ display: 'flex', gap: 'var(--sp-3)', flexWrap: 'wrap', alignItems: 'center' }}>
      <span className="muted">{t('ab.maps.bands')}</span>
      {[...present].map((s) => (
        <span key={s} style={{ whiteSpace: 'nowrap' }}>
          <Swatch background={SEGMENT_COLORS[s]} />
          {t(`segment.${s}`)}
        </span>
      ))}
    </div>
  );
}

export const AbHeatmaps = memo(function AbHeatmaps({ a, b, axis, layer, head, onLayer, onHead, headLabel, defaultRows }: AbHeatmapsProps) {
  const t = useT();
  const L = a.attention.length;
  const H = a.attention[0]?.dims[0] ?? 1;
  const [kind, setKind] = useState<ScaleKind>('power');
  const [rows, setRows] = useState(defaultRows);
  const [keys, setKeys] = useState(axis.length);
  const [diffGamma, setDiffGamma] = useState(1);
  const [ref, width] = useBoxWidth<HTMLDivElement>(1100);
  const maps = useAbMaps(a, b, axis, { layer, head, kind, rows, keys, diffGamma });
  const { n, m, scale, dScale, range } = maps;
  // "From the split": the keys after the shared prefix and as many before it as there are shared rows shown.
  const splitKeys = Math.min(axis.length, defaultRows);
  const pairedAfter = axis.zones.find((z) => z.kind === 'suffix');

  return (
    <div ref={ref} style={{ display: 'grid', gap: 'var(--sp-3)', minWidth: 0 }} data-role="ab-heatmaps">
      <div className="controls">
        <LayerSelect value={layer} layers={L} onChange={onLayer} control="ab-layer" />
        <HeadSelect value={head} heads={H} onChange={onHead} control="ab-head" />
        <ScaleSelect value={kind} onChange={setKind} control="ab-scale" gammaNote={0.5} />
        <label>
          <input type="checkbox" data-control="ab-diff-lift" checked={diffGamma !== 1} onChange={(e) => setDiffGamma(e.target.checked ? 0.5 : 1)} /> {t('ab.diff.lift')}
        </label>
      </div>
      <div className="controls">
        <label>
          {t('ab.maps.rowsControl')}{' '}
          <input
            type="range"
            min={1}
            max={axis.length}
            value={n}
            onChange={(e) => setRows(Number(e.target.value))}
            data-control="ab-rows-slider"
            aria-label={t('ab.maps.rowsControl')}
            style={{ verticalAlign: 'middle', width: 140 }}
          />{' '}
          <input type="number" min={1} max={axis.length} value={n} onChange={(e) => setRows(Number(e.target.value) || 1)} data-control="ab-rows" style={{ width: 76 }} />{' '}
          <span className="muted">{t('ab.maps.rowsOf', { n: axis.length })}</span>
        </label>
        <button type="button" data-control="ab-rows-default" onClick={() => setRows(defaultRows)} disabled={n === defaultRows}>
          {t('ab.maps.rowsDefault', { n: defaultRows })}
        </button>
        <label>
          {t('ab.maps.keysControl')}{' '}
          <input type="number" min={1} max={axis.length} value={m} onChange={(e) => setKeys(Number(e.target.value) || 1)} data-control="ab-keys" style={{ width: 76 }} />{' '}
          <span className="muted">{t('ab.maps.keysOf', { n: axis.length })}</span>
        </label>
        <button type="button" data-control="ab-keys-all" aria-pressed={m === axis.length} onClick={() => setKeys(axis.length)}>
          {t('ab.maps.keysAll')}
        </button>
        <button type="button" data-control="ab-keys-split" aria-pressed={m === splitKeys} onClick={() => setKeys(splitKeys)}>
          {t('ab.maps.keysSplit')}
        </button>
      </div>
      <ExportFrame name={`ab-maps-L${layer}-${head}-last${n}x${m}`} title={t('ab.maps.caption', { n, layer, head: headLabel })} json={maps.json} bodyStyle={{ display: 'grid', gap: 'var(--sp-3)' }}>
        <AbMaps a={a} b={b} axis={axis} maps={maps} width={width} armTitles={{ A: a.title, B: b.title }} />
        <div style={{ display: 'flex', gap: 'var(--sp-5)', flexWrap: 'wrap', alignItems: 'flex-start' }}>
          <div style={{ display: 'grid', gap: 'var(--sp-1)' }}>
            <Legend scale={scale} map={AB_MAP} width={260} />
            <div className="small muted" style={{ maxWidth: 300 }}>{t('ab.maps.sameScale', { max: scale.max.toPrecision(3) })}</div>
          </div>
          <div style={{ display: 'grid', gap: 'var(--sp-1)' }}>
            <DivergingLegend scale={dScale} width={260} caption={t('ab.diff.legend')} />
            <div className="small muted" style={{ maxWidth: 320 }} data-role="ab-diff-range">
              {range.cells > 0 ? t('ab.maps.diffRange', { max: formatSigned(range.max).replace('+', '±'), cells: range.cells }) : t('ab.maps.noPairs')}
            </div>
          </div>
          <div className="small" style={{ display: 'grid', gap: 'var(--sp-1)', maxWidth: 420 }}>
            <div>
              <Swatch background={HATCH_CSS} />
              {t('ab.maps.absent')}
            </div>
            <div>
              <Swatch background="rgb(224,224,224)" />
              {t('ab.maps.masked')}
            </div>
            <div>
              <Swatch background="transparent" outline={MARK_COLORS.select} />
              {t('ab.maps.decision', { qa: a.prompt.ids.length - 1, qb: b.prompt.ids.length - 1 })}
            </div>
            {axis.zones.map((z) => {
              const s = zoneSpans(axis, z);
              const where = [s.a && `A ${s.a[0]}–${s.a[1]}`, s.b && `B ${s.b[0]}–${s.b[1]}`].filter(Boolean).join(' · ');
              return (
                <div key={z.kind} data-role="ab-zone-key" data-zone={z.kind} data-count={z.end - z.start}>
                  <Swatch background={ZONE_COLORS[z.kind]} />
                  {t('ab.zone.count', { zone: t(`ab.zone.${z.kind}`), n: z.end - z.start, where })}
                </div>
              );
            })}
          </div>
        </div>
        <SegmentKey prompts={[a.prompt, b.prompt]} />
      </ExportFrame>
      <p className="small muted" style={{ margin: 0, maxWidth: 1100 }} data-role="view-secondary">
        {t('ab.maps.intro', { last: axis.sharedPrefix - 1, suffix: pairedAfter ? pairedAfter.end - pairedAfter.start : 0 })}
      </p>
    </div>
  );
});
