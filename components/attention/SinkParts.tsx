'use client';
// The sink panel's reusable parts, shared with the imported-attention view: the top-receivers table, the
// magma legend of the sink grid and the per-layer bars against the sink threshold.
import { useId } from 'react';
import { SINK_HEAD_THRESHOLD } from '../../lib/analysis/sink';
import { rgbHex, sampleColormap } from '../../lib/view/colormap';
import { linearMap, tickLabel, ticksInside } from '../../lib/view/scale';
import { useT } from '../common/i18n';

const mono = 'ui-monospace, monospace';
export const cellStyle = { padding: '2px 4px', textAlign: 'right' as const, font: `11px ${mono}` };
export const headStyle = { padding: '2px 4px', font: `11px ${mono}`, color: '#555', fontWeight: 'normal' as const };

/** Where attention rests: position, received weight and token text of the top receiving keys. */
export function TopReceiversTable({ rows, label, role }: { rows: readonly { key: number; weight: number }[]; label: (key: number) => string; role: string }) {
  const t = useT();
  return (
    <table data-role={role} style={{ borderCollapse: 'collapse' }}>
      <thead>
        <tr>
          <th style={headStyle}>{t('sink.restPos')}</th>
          <th style={headStyle}>{t('sink.restWeight')}</th>
          <th style={{ ...headStyle, textAlign: 'left' }}>{t('sink.restToken')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(({ key, weight }) => (
          <tr key={key}>
            <td style={cellStyle}>{key}</td>
            <td style={cellStyle} data-value={weight}>{weight.toFixed(4)}</td>
            <td style={{ ...cellStyle, textAlign: 'left', whiteSpace: 'pre', maxWidth: 360, overflow: 'hidden', textOverflow: 'ellipsis' }}>{label(key)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The sink grid's colour legend (magma 0…1) with the sink-head outline; shared with the imported view. */
export function MagmaLegend() {
  const t = useT();
  // An SVG gradient (not a CSS one) so that the picture exports with the page's charts.
  const id = `magma-${useId().replace(/[^\w-]/g, '')}`;
  const stops = [0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1];
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 6, marginTop: 4, font: `11px ${mono}`, color: '#555' }}>
      <span>0</span>
      <svg width={160} height={10} aria-hidden="true" style={{ display: 'block' }}>
        <defs>
          <linearGradient id={id}>
            {stops.map((v) => (
              <stop key={v} offset={v} stopColor={rgbHex(sampleColormap('magma', v))} />
            ))}
          </linearGradient>
        </defs>
        <rect width={160} height={10} fill={`url(#${id})`} />
      </svg>
      <span>1</span>
      <span style={{ marginLeft: 8, outline: '2px solid #00b4d8', padding: '0 4px' }}>{t('sink.legendSinkHead', { threshold: SINK_HEAD_THRESHOLD })}</span>
    </div>
  );
}

/** One bar per layer (0…1) against the uniform baseline and the sink threshold. */
export interface LayerBar {
  /** Axis label under the bar (the model's layer index). */
  label: string | number;
  value: number | null;
  uniform: number | null;
  tooltip: string;
}

/**
 * Per-layer bars of a first-token share; the engine's sink panel and the imported view both draw these.
 * `maxWidth` (CSS px) fits them into a narrow column: the bars get thinner, the axis stays.
 */
export function LayerBars({ bars, role, aria, xLabel, yLabel, wide = false, maxWidth = Infinity }: { bars: LayerBar[]; role: string; aria: string; xLabel: string; yLabel: string; wide?: boolean; maxWidth?: number }) {
  const t = useT();
  const na = t('panels.na');
  const n = bars.length;
  const W = Math.min(Math.max(240, maxWidth), wide ? Math.max(500, Math.min(1100, n * 26 + 70)) : Math.max(360, Math.min(720, n * 22 + 60)));
  const H = wide ? 200 : 180;
  const m = { l: 44, r: 12, t: 12, b: 38 };
  const pw = W - m.l - m.r;
  const ph = H - m.t - m.b;
  const bw = pw / Math.max(1, n);
  // Shares in [0, 1] (clamped) up the plot; ticks at 0, 0.25, …, 1.
  const toY = linearMap(0, 1, m.t + ph, m.t);
  const y = (v: number) => toY(Math.min(1, Math.max(0, v)));
  const yTicks = ticksInside(0, 1, 5);
  // A layer number every ~18 px at least.
  const labelEvery = Math.max(1, Math.ceil(18 / bw));
  return (
    <svg data-role={role} width={W} height={H} role="img" aria-label={aria} style={{ font: `10px ${mono}`, display: 'block' }}>
      {yTicks.map((v) => (
        <g key={v}>
          <line x1={m.l} x2={m.l + pw} y1={y(v)} y2={y(v)} stroke="#eee" />
          <line x1={m.l - 3} x2={m.l} y1={y(v)} y2={y(v)} stroke="#888" />
          <text x={m.l - 5} y={y(v) + 3} textAnchor="end" fill="#555">{tickLabel(v)}</text>
        </g>
      ))}
      <line x1={m.l} x2={m.l} y1={m.t} y2={m.t + ph} stroke="#888" />
      <line x1={m.l} x2={m.l + pw} y1={m.t + ph} y2={m.t + ph} stroke="#888" />
      {bars.map((b, i) => {
        const x = m.l + i * bw;
        return (
          <g key={i} data-layer={i}>
            {b.value !== null ? (
              <rect x={x + bw * 0.15} width={bw * 0.7} y={y(b.value)} height={m.t + ph - y(b.value)} fill={rgbHex(sampleColormap('magma', Math.min(1, b.value) * 0.8 + 0.1))}>
                <title>{b.tooltip}</title>
              </rect>
            ) : (
              <text x={x + bw / 2} y={m.t + ph - 4} textAnchor="middle" fill="#999">{na}</text>
            )}
            {b.uniform !== null && <line x1={x + bw * 0.05} x2={x + bw * 0.95} y1={y(b.uniform)} y2={y(b.uniform)} stroke="#2a9d8f" strokeWidth={2} />}
            {i % labelEvery === 0 && (
              <text x={x + bw / 2} y={m.t + ph + 12} textAnchor="middle" fill="#555">{b.label}</text>
            )}
          </g>
        );
      })}
      <line x1={m.l} x2={m.l + pw} y1={y(SINK_HEAD_THRESHOLD)} y2={y(SINK_HEAD_THRESHOLD)} stroke="#d62828" strokeDasharray="4 3" />
      {/* A white halo keeps the label readable where it crosses a bar. */}
      <text x={m.l + pw} y={y(SINK_HEAD_THRESHOLD) - 3} textAnchor="end" fill="#d62828" stroke="#fff" strokeWidth={3} paintOrder="stroke">{t('sink.barsThreshold', { threshold: SINK_HEAD_THRESHOLD })}</text>
      <text x={m.l} y={H - 5} textAnchor="start" fill="#333">{xLabel}</text>
      <text x={11} y={m.t + ph / 2} textAnchor="middle" fill="#333" transform={`rotate(-90 11 ${m.t + ph / 2})`}>{yLabel}</text>
    </svg>
  );
}
