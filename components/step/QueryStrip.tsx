'use client';
// The Step tab's attention strip: the view controls (layer, head, scale, colour map, hidden sink), then the
// current query's weights over the keys in the cache as one strip with its legend, the five most attended
// keys and the picked key; exportable as picture or JSON. Shows what useQueryView computed.
import { useEffect, useRef, useState } from 'react';
import { AttentionStrip } from './AttentionStrip';
import { ExportFrame } from '../common/ExportFrame';
import { Legend } from '../charts/Legend';
import { useT } from '../common/i18n';
import { ColormapSelect, HeadSelect, HideSinkToggle, LayerSelect, ScaleSelect } from '../common/ViewSelects';
import type { QueryView, StripSettings } from './useQueryView';
import type { Timeline } from './useTimeline';

export function StripViewControls({ settings: v }: { settings: StripSettings }) {
  return (
    <div data-role="step-view-controls" style={{ display: 'flex', gap: 14, flexWrap: 'wrap', alignItems: 'center', fontSize: 13 }}>
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
}

/** The strip's width follows its box, which its content cannot widen (min-width 0, overflow hidden). */
function useBoxWidth(): [React.RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(1300);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => setWidth(Math.max(300, Math.floor(el.clientWidth) - 2)));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, width];
}

export function QueryStrip({ query, timeline, labels, cursor, total: N }: QueryStripProps) {
  const t = useT();
  const [boxRef, width] = useBoxWidth();
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
  });
  return (
    <div ref={boxRef} style={{ display: 'grid', gap: 4, minWidth: 0, overflow: 'hidden', paddingTop: 1 }}>
      <ExportFrame name={`step-attention-q${cursor - 1}-L${v.layer}-${v.head}`} title={caption} json={json} bodyStyle={{ display: 'grid', gap: 4 }}>
        <div style={{ fontSize: 13, fontWeight: 600 }}>{t('step.stripTitle', { q: cursor - 1, layer: v.layer, head: headLabel })}</div>
        {timeline && <AttentionStrip weights={weights} total={N} spans={timeline.spans} labels={labels} scale={scale} map={v.colormap} width={width} onPick={v.togglePick} />}
        <div style={{ display: 'flex', gap: 24, flexWrap: 'wrap', alignItems: 'flex-start' }}>
          <div style={{ paddingLeft: 8 }}>
            <Legend scale={scale} map={v.colormap} />
          </div>
          <div style={{ fontSize: 12, color: '#333', maxWidth: 640 }}>
            <div style={{ color: '#555' }}>{t('step.stripNote')}</div>
            {v.hideSink && <div style={{ color: '#555' }}>{t('legend.hiddenSink')}</div>}
            <div data-role="top-keys" style={{ fontFamily: 'ui-monospace, monospace', marginTop: 4 }}>
              {t('step.topKeys')} {topKeys.map((x) => `${x.k} ${labels[x.k] ?? ''} ${x.w.toFixed(3)}`).join(' · ')}
            </div>
            {v.picked !== null && v.picked < N && (
              <div data-role="picked-key" style={{ fontFamily: 'ui-monospace, monospace' }}>
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
