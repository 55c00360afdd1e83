'use client';
// The A/B difference view: the decision row of B minus that of A, per layer, over the keys of the shared
// prefix, on a diverging scale (columns pooled by largest magnitude when keys outnumber pixels), with its
// legend, the lift toggle and each layer's attention sums.
import { useCallback, useMemo, useState, type PointerEvent } from 'react';
import type { DecisionRowDiff } from '../../lib/analysis/abArms';
import { divergingRgb, divergingTicks, paintDiverging, poolSignedColumns, type DivergingScale } from '../../lib/view/diverging';
import { RampLegend } from '../charts/Legend';
import { MatrixCanvas } from '../charts/MatrixCanvas';
import { useT } from '../common/i18n';
import { GUTTER, HoverTip, SegmentBand, type Hover } from './AbArmRows';
import type { AbArmView } from './useAbRasters';

const ROW_PX = 16;

function fmt(v: number): string {
  return Number.isFinite(v) ? v.toPrecision(3) : '—';
}

export function DivergingLegend({ scale, width = 320, caption }: { scale: DivergingScale; width?: number; caption: string }) {
  return <RampLegend role="diverging-legend" caption={caption} width={width} colour={(f) => divergingRgb(f * 2 - 1)} colourKey="diverging" ticks={divergingTicks(scale)} />;
}

export interface DecisionDiffProps {
  diff: DecisionRowDiff;
  scale: DivergingScale;
  /** Arm A (labels of the shared keys, segment band). */
  a: AbArmView;
  /** The layer shown above (its row label is bold). */
  layer: number;
  /** CSS width of the difference canvas (the shared keys' share of the matrix width) and of the matrix area. */
  diffWidth: number;
  width: number;
  gamma: number;
  onGamma: (g: number) => void;
}

export function DecisionDiff({ diff, scale, a, layer, diffWidth, width, gamma, onGamma }: DecisionDiffProps) {
  const t = useT();
  const [hover, setHover] = useState<Hover | null>(null);
  const cols = Math.min(diff.keys, diffWidth);
  const pooled = useMemo(() => poolSignedColumns(diff.diff, diff.layers, diff.keys, cols), [diff, cols]);
  const paint = useCallback((out: Uint8ClampedArray) => void paintDiverging(pooled, diff.layers, cols, scale, out), [pooled, diff.layers, cols, scale]);
  const onMove = (e: PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    const k = Math.min(diff.keys - 1, Math.max(0, Math.floor(((e.clientX - r.left) / r.width) * diff.keys)));
    const ly = Math.min(diff.layers - 1, Math.max(0, Math.floor(((e.clientY - r.top) / r.height) * diff.layers)));
    const i = ly * diff.keys + k;
    setHover({
      text: t('ab.diff.tip', { layer: ly, k, kLabel: a.labels[k] ?? '', a: fmt(diff.a[i]!), b: fmt(diff.b[i]!), d: (diff.diff[i]! >= 0 ? '+' : '') + fmt(diff.diff[i]!) }),
      x: e.clientX - r.left + GUTTER,
      y: e.clientY - r.top,
    });
  };
  return (
    <div style={{ position: 'relative' }} onPointerLeave={() => setHover(null)}>
      <div style={{ display: 'flex', alignItems: 'flex-start' }}>
        <div style={{ width: GUTTER, flex: '0 0 auto', fontSize: 12, color: '#333' }}>
          {Array.from({ length: diff.layers }, (_, i) => (
            <div key={i} style={{ height: ROW_PX, lineHeight: `${ROW_PX}px`, fontWeight: i === layer ? 600 : 400 }}>{t('ab.diff.layerRow', { layer: i })}</div>
          ))}
        </div>
        <div>
          <SegmentBand prompt={a.prompt} keys={diff.keys} width={diffWidth} />
          <MatrixCanvas
            rows={diff.layers}
            cols={cols}
            paint={paint}
            data-role="ab-diff"
            data-layers={diff.layers}
            data-keys={diff.keys}
            data-max={diff.maxAbs}
            onPointerMove={onMove}
            style={{ display: 'block', width: diffWidth, height: diff.layers * ROW_PX, imageRendering: 'pixelated', marginTop: 2, cursor: 'crosshair' }}
          />
        </div>
      </div>
      <HoverTip hover={hover} width={width} />
      <div style={{ display: 'flex', gap: 24, flexWrap: 'wrap', alignItems: 'flex-end', marginLeft: GUTTER, marginTop: 8 }}>
        <DivergingLegend scale={scale} width={360} caption={t('ab.diff.legend')} />
        <label style={{ fontSize: 12 }}>
          <input type="checkbox" checked={gamma !== 1} onChange={(e) => onGamma(e.target.checked ? 0.5 : 1)} /> {t('ab.diff.lift')}
        </label>
        <div style={{ fontSize: 12, color: '#333', maxWidth: 560 }}>
          {t('ab.diff.max', {
            max: diff.maxAbs.toPrecision(3),
            layer: diff.at?.layer ?? 0,
            k: diff.at?.key ?? 0,
            label: a.labels[diff.at?.key ?? 0] ?? '',
          })}
          {diff.sumA.map((sa, i) => (
            <div key={i}>{t('ab.diff.sums', { layer: i, a: (100 * sa).toFixed(1), b: (100 * diff.sumB[i]!).toFixed(1) })}</div>
          ))}
        </div>
      </div>
    </div>
  );
}
