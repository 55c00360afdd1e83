'use client';
// The Step tab's attention strip: the view controls (layer, head, scale, colour map, hidden sink), then the
// current query's weights over the keys in the cache as one strip (its x axis the cached part at a readable
// scale, lib/view/stepStrip) with its legend, the five most attended keys and the picked key; exportable as
// picture or JSON. Shows what useQueryView computed.
import { useMemo } from 'react';
import { AttentionStrip } from './AttentionStrip';
import { ExportFrame } from '../common/ExportFrame';
import { Legend } from '../charts/Legend';
import { useT } from '../common/i18n';
import { ColormapSelect, HeadSelect, HideSinkToggle, LayerSelect, ScaleSelect } from '../common/ViewSelects';
import { stripDomain } from '../../lib/view/stepStrip';
import type { QueryView, StripSettings } from './useQueryView';
import type { Timeline } from './useTimeline';
import { useBoxWidth } from '../common/useBoxWidth';

export function StripViewControls({ settings: v }: { settings: StripSettings }) {
  return (
    <div data-role="step-view-controls" className="controls">
      <LayerSelect value={v.layer} layers={v.layers} onChange={v.setLayer} />
      <HeadSelect value={v.head} heads={v.heads} onChange={v.setHead} />
      <ScaleSelect value={v.scaleKind} onChange={v.setScaleKind} />
      <ColormapSelect value={v.colormap} onChange={v.setColormap} />
      <HideSinkToggle value={v.hideSink} onChange={v.setHideSink} />
    </div>
  );
}

export interface QueryStripProps {
  query: QueryView;
  timeline: Timeline | null;
  labels: string[];
  cursor: number;
  /** Tokens on the timeline. */
  total: number;
  /** The copy source of the query's prediction (outlined), or null (docs/CONCEPTS.md#copy-source). */
  source?: number | null;
}

export function QueryStrip({ query, timeline, labels, cursor, total: N, source = null }: QueryStripProps) {
  const t = useT();
  const [boxRef, boxWidth] = useBoxWidth(1200);
  const width = Math.max(300, boxWidth - 2);
  const { settings: v, weights, scale, topKeys } = query;
  const headLabel = v.head === 'mean' ? t('head.mean') : v.head === 'max' ? t('head.max') : t('head.one', { head: v.head });
  const caption = t('export.caption.strip', {
    q: cursor - 1,
    layer: v.layer,
    head: headLabel,
    scale: t(v.scaleKind === 'linear' ? 'control.scaleLinear' : v.scaleKind === 'log' ? 'control.scaleLog' : 'control.scalePower'),
  });
  // The export: the current query's weights over the keys in the cache (null where hidden or not finite),
  // the timeline's tokens and spans, the view's settings and colour range, the top keys.
  const json = () => ({
    kind: 'attention-strip',
    query: cursor - 1,
    cursor,
    timeline: N,
    cached: weights?.length ?? 0,
    axisKeys: stripDomain(weights?.length ?? 0, N),
    layer: v.layer,
    head: v.head,
    scale: v.scaleKind,
    gamma: scale.gamma,
    colormap: v.colormap,
    hideSink: v.hideSink,
    range: { min: scale.min, max: scale.max },
    tokens: labels,
    spans: timeline?.spans ?? [],
    weights,
    topKeys: topKeys.map((x) => ({ key: x.k, weight: x.w })),
    picked: v.picked,
    copySource: source,
  });
  // The query, the copy source and the most attended keys keep their labels when not every key has room for one.
  const labelFirst = useMemo(() => [cursor - 1, ...(source !== null ? [source] : []), ...topKeys.map((x) => x.k)], [cursor, source, topKeys]);
  return (
    <div ref={boxRef} style={{ display: 'grid', gap: 'var(--sp-1)', minWidth: 0, overflow: 'hidden', paddingTop: 1 }}>
      <ExportFrame name={`step-attention-q${cursor - 1}-L${v.layer}-${v.head}`} title={caption} json={json} bodyStyle={{ display: 'grid', gap: 'var(--sp-1)' }}>
        <div style={{ fontSize: 'var(--fs-sm)', fontWeight: 600 }}>{t('step.stripTitle', { q: cursor - 1, layer: v.layer, head: headLabel })}</div>
        {timeline && (
          <AttentionStrip
            weights={weights}
            total={N}
            spans={timeline.spans}
            labels={labels}
            scale={scale}
            map={v.colormap}
            width={width}
            labelFirst={labelFirst}
            picked={v.picked}
            source={source}
            onPick={v.togglePick}
          />
        )}
        <div style={{ display: 'flex', gap: 'var(--sp-5)', flexWrap: 'wrap', alignItems: 'flex-start' }}>
          <div style={{ paddingLeft: 'var(--sp-2)' }}>
            <Legend scale={scale} map={v.colormap} />
          </div>
          <div style={{ fontSize: 'var(--fs-xs)', maxWidth: 720, minWidth: 0, display: 'grid', gap: 2 }}>
            {v.hideSink && <div className="muted">{t('legend.hiddenSink')}</div>}
            <div data-role="top-keys" style={{ fontFamily: 'var(--font-mono)' }}>
              {t('step.topKeys')} {topKeys.map((x) => `${x.k} ${labels[x.k] ?? ''} ${x.w.toFixed(3)}`).join(' · ')}
            </div>
            {v.picked !== null && v.picked < N && (
              <div data-role="picked-key" style={{ fontFamily: 'var(--font-mono)' }}>
                {t('step.stripTipKey', { key: v.picked, label: labels[v.picked] ?? '' })} ·{' '}
                {weights && v.picked < weights.length ? t('step.stripTipWeight', { w: weights[v.picked]!.toPrecision(4) }) : t('step.stripTipFuture')}
              </div>
            )}
          </div>
        </div>
      </ExportFrame>
    </div>
  );
}
