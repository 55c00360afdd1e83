'use client';
// The A/B attention rows that can differ: for each arm the query rows from the shared prefix on, over one
// key axis common to both arms (same colour scale, one legend), and the difference view: the decision row
// of B minus that of A, per layer, over the keys of the shared prefix (the same tokens at the same
// positions in both arms), on a diverging scale. The numbers come from lib/analysis (useAbRasters); the
// arms' rows are AbArmRows, the difference view AbDecisionDiff.
import { memo, useState } from 'react';
import type { ArmAlignment } from '../../lib/analysis/abCompare';
import type { HeadReduction } from '../../lib/analysis/attentionView';
import type { ScaleKind } from '../../lib/view/colormap';
import { stepTicks, niceStep } from '../../lib/view/scale';
import { ExportFrame } from '../common/ExportFrame';
import { Legend } from '../charts/Legend';
import { useT } from '../common/i18n';
import { HeadSelect, LayerSelect, ScaleSelect } from '../common/ViewSelects';
import { ArmRows, GUTTER, HoverTip, SegmentKey, type Hover } from './AbArmRows';
import { DecisionDiff } from './AbDecisionDiff';
import { AB_MAP, useAbRasters, type AbArmView } from './useAbRasters';


export interface AbHeatmapsProps {
  a: AbArmView;
  b: AbArmView;
  alignment: ArmAlignment;
  /** CSS width of the matrix area. */
  width?: number;
}

/** Key-axis ticks: multiples of the smallest 1, 2 or 5 × 10^k (at least 1) that gives at most about 8 steps. */
function keyTicks(keys: number): number[] {
  return stepTicks(0, keys - 1, Math.max(1, niceStep(keys / 8, [1, 2, 5])));
}

export const AbHeatmaps = memo(function AbHeatmaps({ a, b, alignment, width = 1080 }: AbHeatmapsProps) {
  const t = useT();
  const L = a.attention.length;
  const H = a.attention[0]?.dims[0] ?? 1;
  const [layer, setLayer] = useState(L - 1);
  const [head, setHead] = useState<HeadReduction>('mean');
  const [kind, setKind] = useState<ScaleKind>('power');
  const [diffGamma, setDiffGamma] = useState(1);
  const [hover, setHover] = useState<Hover | null>(null);
  const l = Math.min(layer, L - 1);
  const { P, Ta, Tb, keys, blocks, scale, diff, dScale, rowsJson, diffJson } = useAbRasters(a, b, alignment, { layer: l, head, kind, diffGamma });
  const rowsA = Math.max(0, Ta - P);
  const rowsB = Math.max(0, Tb - P);
  const rowPx = Math.max(6, Math.min(18, Math.floor(360 / Math.max(1, rowsA, rowsB))));
  const diffWidth = Math.round((P / keys) * width);
  const headLabel = head === 'mean' ? t('head.mean') : head === 'max' ? t('head.max') : t('head.one', { head });
  const markerLeft = GUTTER + (P / keys) * width;

  return (
    <div style={{ display: 'grid', gap: 10 }} data-role="ab-heatmaps">
      <div style={{ display: 'flex', gap: 14, flexWrap: 'wrap', alignItems: 'center', fontSize: 14 }}>
        <LayerSelect value={l} layers={L} onChange={setLayer} control="ab-layer" />
        <HeadSelect value={head} heads={H} onChange={setHead} control="ab-head" />
        <ScaleSelect value={kind} onChange={setKind} control="ab-scale" gammaNote={0.5} />
      </div>
      <p style={{ margin: 0, color: '#444', fontSize: 13, maxWidth: 1100 }}>{t('ab.heat.intro', { p: P, ta: Ta, tb: Tb, rowsA, rowsB, layer: l, head: headLabel })}</p>
      <ExportFrame name={`ab-rows-L${l}-${head}`} title={t('export.caption.abRows', { layer: l, head: headLabel })} json={rowsJson} bodyStyle={{ display: 'grid', gap: 10 }}>
        <div style={{ position: 'relative', display: 'grid', gap: 12 }} onPointerLeave={() => setHover(null)}>
          <ArmRows arm={a} block={blocks.a} fromRow={Math.min(P, Ta)} keys={keys} rowPx={rowPx} width={width} scale={scale} onHover={setHover} />
          <ArmRows arm={b} block={blocks.b} fromRow={Math.min(P, Tb)} keys={keys} rowPx={rowPx} width={width} scale={scale} onHover={setHover} />
          <div aria-hidden style={{ position: 'absolute', left: markerLeft, top: 0, bottom: 18, width: 0, borderLeft: '2px dashed #d00', pointerEvents: 'none' }} />
          <div style={{ position: 'relative', height: 16, marginLeft: GUTTER, width, fontSize: 11, color: '#333' }}>
            {keyTicks(keys).map((k) => (
              <span key={k} style={{ position: 'absolute', left: (k / keys) * width, transform: 'translateX(-50%)' }}>{k}</span>
            ))}
            <span style={{ position: 'absolute', right: 0, top: 14 }}>{t('ab.heat.keyAxis')}</span>
          </div>
          <HoverTip hover={hover} width={width} />
        </div>
        <div style={{ display: 'flex', gap: 24, flexWrap: 'wrap', alignItems: 'flex-end', marginLeft: GUTTER, marginTop: 8 }}>
          <Legend scale={scale} map={AB_MAP} />
          <div style={{ fontSize: 12, color: '#333', maxWidth: 520 }}>
            <div>
              <span style={{ display: 'inline-block', width: 18, borderTop: '2px dashed #d00', verticalAlign: 'middle', marginRight: 6 }} />
              {t('ab.heat.marker', { p: P })}
            </div>
            <div>
              <span style={{ display: 'inline-block', width: 12, height: 10, background: 'rgb(224,224,224)', border: '1px solid #999', marginRight: 6 }} />
              {t('ab.heat.masked')}
            </div>
            <div>{t('ab.heat.sameScale', { max: scale.max.toPrecision(3) })}</div>
          </div>
        </div>
        <div style={{ marginLeft: GUTTER }}>
          <SegmentKey prompts={[a.prompt, b.prompt]} />
        </div>
      </ExportFrame>

      <h4 style={{ margin: '12px 0 0', fontSize: 14 }}>{t('ab.diff.title')}</h4>
      <p style={{ margin: 0, color: '#444', fontSize: 13, maxWidth: 1100 }}>{t('ab.diff.intro', { p: P, qa: Ta - 1, qb: Tb - 1, head: headLabel })}</p>
      {diff && diffWidth >= 1 ? (
        <ExportFrame name={`ab-decision-diff-${head}`} title={t('export.caption.abDiff', { head: headLabel })} json={diffJson}>
          <DecisionDiff diff={diff} scale={dScale} a={a} layer={l} diffWidth={diffWidth} width={width} gamma={diffGamma} onGamma={setDiffGamma} />
        </ExportFrame>
      ) : (
        <div style={{ color: '#555' }}>{t('ab.diff.none')}</div>
      )}
    </div>
  );
});
