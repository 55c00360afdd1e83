'use client';
// Attention mass per region, arm A vs arm B, as grouped horizontal bars (one SVG, a few elements per
// region): the value written at each bar, per-layer values on hover, a legend, and the check that each
// layer's masses sum to 1. The masses come from lib/analysis/abCompare; nothing is computed here.
import { memo } from 'react';
import type { RegionMasses } from '../../lib/analysis/abCompare';
import { massAt, type BarRow, type LayerChoice } from '../../lib/analysis/abArms';
import { formatInt, linearMap, niceAxis } from '../../lib/view/scale';
import { ExportFrame } from '../common/ExportFrame';
import { useLang, useT } from '../common/i18n';

/** Arm colours (Paul Tol's bright blue and red, colour-blind safe); the difference view uses the same sides. */
export const ARM_COLORS = { A: '#4477AA', B: '#EE6677' } as const;

export interface RegionBarsProps {
  title: string;
  subtitle?: string;
  rows: BarRow[];
  layer: LayerChoice;
  /** Right end of the value axis (a fraction, e.g. 0.4). */
  max: number;
  masses: { a: RegionMasses | null; b: RegionMasses | null };
  armTitles: { a: string; b: string };
  role: string;
  width?: number;
}

const LABEL_W = 230;
const ROW_H = 34;
const BAR_H = 12;

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

/** The value axis: 0 to the largest mass (at least 1 %) in whole steps of 1, 2 or 5 × 10^k (whole percents), never past 100 %. */
function valueAxis(max: number): { top: number; ticks: number[] } {
  const a = niceAxis(0, Math.max(max, 0.01), 6, false, [1, 2, 5]);
  const top = Math.min(1, a.hi);
  return { top, ticks: a.ticks.filter((v) => v <= top) };
}

export function axisMax(rowsList: BarRow[][], layer: LayerChoice): number {
  let m = 0;
  for (const rows of rowsList) for (const r of rows) for (const e of [r.a, r.b]) if (e) m = Math.max(m, massAt(e, layer));
  return m;
}

export const RegionBars = memo(function RegionBars({ title, subtitle, rows, layer, max, masses, armTitles, role, width = 640 }: RegionBarsProps) {
  const t = useT();
  const lang = useLang();
  const { top, ticks } = valueAxis(max);
  const barW = width - LABEL_W - 70;
  const toX = linearMap(0, top, LABEL_W, LABEL_W + barW);
  const x = (v: number) => toX(Math.max(0, v));
  const height = rows.length * ROW_H + 30;
  const layerName = layer === 'mean' ? t('ab.bars.meanLayers') : t('ab.bars.layer', { layer });
  const perLayer = (e: BarRow['a']) => (e ? e.perLayer.map((v, i) => `L${i} ${pct(v)}`).join(', ') : '');
  const hover = (r: BarRow, arm: 'A' | 'B') => {
    const e = arm === 'A' ? r.a : r.b;
    const name = (arm === 'B' && r.labelB ? r.labelB : r.label)[lang];
    if (!e) return t('ab.bars.absent', { arm, region: name });
    return t('ab.bars.tip', { arm, region: name, value: pct(massAt(e, layer)), where: layerName, tokens: e.tokens, perLayer: perLayer(e), mean: pct(e.mean) });
  };
  const check = (m: RegionMasses | null, arm: 'A' | 'B') =>
    m && t('ab.bars.check', { arm, sums: m.sums.map((s) => s.toFixed(4)).join(' '), err: m.maxSumError.toExponential(1), n: m.positions.length });
  // Per row, each arm's entry (per-layer and per-head masses, mean) and the value drawn at this layer; the
  // masses' checks (sums per layer, query positions).
  const exportJson = () => ({
    kind: 'region-bars',
    title,
    subtitle: subtitle ?? null,
    layer,
    arms: { A: armTitles.a, B: armTitles.b },
    rows: rows.map((r) => ({ ...r, shownA: r.a ? massAt(r.a, layer) : null, shownB: r.b ? massAt(r.b, layer) : null })),
    checks: {
      A: masses.a && { positions: masses.a.positions, sums: masses.a.sums, maxSumError: masses.a.maxSumError, futureMass: masses.a.futureMass },
      B: masses.b && { positions: masses.b.positions, sums: masses.b.sums, maxSumError: masses.b.maxSumError, futureMass: masses.b.futureMass },
    },
  });

  return (
    // No caption: the figure carries its own title, subtitle and layer line.
    <ExportFrame name={`${role}-${layer === 'mean' ? 'mean' : `L${layer}`}`} json={exportJson}>
      <figure data-role={role} style={{ margin: 0, width, font: '12px system-ui, sans-serif', color: '#222' }}>
        <figcaption style={{ fontWeight: 600, fontSize: 'var(--fs-sm)', marginBottom: 2 }}>{title}</figcaption>
        {subtitle && <div style={{ color: 'var(--c-muted)', marginBottom: 4 }}>{subtitle}</div>}
        <div style={{ display: 'flex', gap: 14, marginBottom: 4, flexWrap: 'wrap' }} data-role="bars-legend">
          {(['A', 'B'] as const).map((arm) => (
            <span key={arm} style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
              <span style={{ width: 14, height: 10, background: ARM_COLORS[arm], display: 'inline-block' }} />
              {arm}: {arm === 'A' ? armTitles.a : armTitles.b}
            </span>
          ))}
          <span style={{ color: 'var(--c-muted)' }}>· {t('ab.bars.unit', { where: layerName })}</span>
        </div>
        <svg width={width} height={height} role="img" aria-label={title} style={{ display: 'block' }}>
          {ticks.map((v) => (
            <g key={v}>
              <line x1={x(v)} x2={x(v)} y1={0} y2={rows.length * ROW_H} stroke="#e4e4e4" />
              <text x={x(v)} y={rows.length * ROW_H + 14} textAnchor="middle" fontSize={11} fill="#444">
                {formatInt(v * 100)} %
              </text>
            </g>
          ))}
          {rows.map((r, i) => {
            const y0 = i * ROW_H + 4;
            const name = r.label[lang];
            const nameB = r.labelB?.[lang];
            return (
              <g key={r.id} data-region={r.id} data-a={r.a ? massAt(r.a, layer) : ''} data-b={r.b ? massAt(r.b, layer) : ''}>
                <text x={LABEL_W - 8} y={y0 + (nameB ? 9 : 15)} textAnchor="end" fontSize={12} fill={r.kind === 'region' ? '#222' : '#555'} fontStyle={r.kind === 'region' ? 'normal' : 'italic'}>
                  {name.length > 34 ? name.slice(0, 33) + '…' : name}
                </text>
                {nameB && (
                  <text x={LABEL_W - 8} y={y0 + 22} textAnchor="end" fontSize={10} fill="#a33">
                    {t('ab.bars.inB', { label: nameB.length > 30 ? nameB.slice(0, 29) + '…' : nameB })}
                  </text>
                )}
                {(['A', 'B'] as const).map((arm, j) => {
                  const e = arm === 'A' ? r.a : r.b;
                  const y = y0 + j * (BAR_H + 2);
                  const v = e ? massAt(e, layer) : 0;
                  return (
                    <g key={arm}>
                      <title>{hover(r, arm)}</title>
                      <rect x={LABEL_W} y={y} width={Math.max(0, x(v) - LABEL_W)} height={BAR_H} fill={ARM_COLORS[arm]} opacity={e ? 1 : 0} />
                      <rect x={LABEL_W} y={y} width={barW} height={BAR_H} fill="transparent" />
                      <text x={(e ? x(v) : LABEL_W) + 4} y={y + BAR_H - 2} fontSize={11} fill={e ? '#222' : '#888'}>
                        {e ? pct(v) : t('ab.bars.notInArm', { arm })}
                      </text>
                    </g>
                  );
                })}
              </g>
            );
          })}
          <line x1={LABEL_W} x2={LABEL_W} y1={0} y2={rows.length * ROW_H} stroke="#888" />
        </svg>
        <div style={{ color: 'var(--c-muted)', fontSize: 'var(--fs-xs)', marginTop: 2 }}>
          {check(masses.a, 'A')}
          {masses.a && masses.b ? ' · ' : ''}
          {check(masses.b, 'B')}
        </div>
      </figure>
    </ExportFrame>
  );
});
