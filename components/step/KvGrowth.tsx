'use client';
// The K/V cache as the cursor moves: tokens held, bytes per layer (K and V) and in total, a chart of bytes
// against tokens (the part cached so far solid, the rest of the timeline dashed, the cursor marked), and the
// shape of layer 0's K as read back from the worker. Arithmetic from lib/analysis/kvBytes, the chart's maps,
// ticks and units from lib/view/stepCharts (lib/view/scale underneath); its width follows its box.
import { formatBytes, kvBytesPerTokenLayer, kvCacheBytes, QWEN3_0_6B_KV, type KvShape } from '../../lib/analysis/kvBytes';
import { growthChartGeometry } from '../../lib/view/stepCharts';
import { MARK_COLORS } from '../../lib/view/palette';
import { ExportFrame } from '../common/ExportFrame';
import { useT } from '../common/i18n';
import { useBoxWidth } from '../common/useBoxWidth';

export interface KvGrowthProps {
  cursor: number;
  /** Timeline length (the chart's x range). */
  total: number;
  shape: KvShape | null;
  /** Layer 0's K as last read from the worker: its dims. */
  measured: number[] | null;
  /** Put in front of the export's file name and caption (e.g. the model). Optional. */
  exportLabel?: string;
}

const H = 170;
const PAD = { l: 76, r: 14, t: 10, b: 34 };
/** The line of the bytes cached so far. */
const LINE = '#2c5aa0';
/** The chart's ink as literal colours (globals.css's --c-text, --c-muted, --c-border-strong, --c-border): an exported SVG carries no page CSS. */
const INK = { text: '#16181d', muted: '#5a616c', axis: '#a9b0ba', grid: '#d5d9df' } as const;

export function KvGrowth(props: KvGrowthProps) {
  const [boxRef, boxWidth] = useBoxWidth(380);
  const width = Math.max(260, boxWidth - 2);
  return (
    <div ref={boxRef} style={{ minWidth: 0, overflow: 'hidden' }}>
      <KvGrowthBody {...props} width={Math.min(width, 560)} />
    </div>
  );
}

function KvGrowthBody({ cursor, total, shape, measured, exportLabel, width: W }: KvGrowthProps & { width: number }) {
  const t = useT();
  if (!shape) return <div className="muted">{t('step.kvReading')}</div>;
  const now = kvCacheBytes(shape, cursor);
  const max = kvCacheBytes(shape, Math.max(1, total)).total;
  const perToken = kvBytesPerTokenLayer(shape);
  const g = growthChartGeometry(total, max, { left: PAD.l, right: W - PAD.r, top: PAD.t, bottom: H - PAD.b });
  const { x, y } = g;
  const qwen = kvBytesPerTokenLayer(QWEN3_0_6B_KV) * QWEN3_0_6B_KV.layers;
  // The numbers shown: the shape, bytes now (per layer K, V and in total), the chart's end, the measured K.
  const exportJson = () => ({
    kind: 'kv-growth',
    tokens: cursor,
    timeline: total,
    shape,
    bytesPerTokenPerLayer: perToken,
    now,
    atTimelineEnd: max,
    measuredLayer0K: measured ? { dims: measured, bytes: measured.reduce((a, b) => a * b, 1) * 4 } : null,
    qwen3_0_6b: { shape: QWEN3_0_6B_KV, bytesPerToken: qwen, bytesAtTokens: qwen * cursor },
  });
  const caption = t('export.caption.kvGrowth', { tokens: cursor });
  return (
    <ExportFrame name={exportLabel ? `${exportLabel} kv-growth-${cursor}` : `kv-growth-${cursor}`} title={exportLabel ? `${exportLabel} · ${caption}` : caption} json={exportJson}>
      <div data-role="kv-growth" data-kv-total={now.total} style={{ display: 'grid', gap: 'var(--sp-2)', fontSize: 'var(--fs-sm)' }}>
        <div>
          {t('step.kvNow', { tokens: cursor, total: formatBytes(now.total), bytes: now.total.toLocaleString('en-US') })}
        </div>
        <svg width={W} height={H} role="img" aria-label={t('step.kvChartAria')} style={{ font: 'var(--fs-xs) var(--font-sans)', display: 'block' }}>
          {g.yAxis.ticks.map((tk) => (
            <g key={tk.value}>
              <line x1={PAD.l - 3} x2={W - PAD.r} y1={y(tk.value)} y2={y(tk.value)} stroke={tk.value === 0 ? INK.axis : INK.grid} />
              <text x={PAD.l - 5} y={y(tk.value) + 4} textAnchor="end" fill={INK.muted}>{tk.label}</text>
            </g>
          ))}
          <line x1={PAD.l} y1={PAD.t} x2={PAD.l} y2={H - PAD.b} stroke={INK.axis} />
          {g.xAxis.ticks.map((tk) => (
            <g key={tk.value}>
              <line x1={x(tk.value)} x2={x(tk.value)} y1={H - PAD.b} y2={H - PAD.b + 3} stroke={INK.axis} />
              <text x={x(tk.value)} y={H - PAD.b + 14} textAnchor="middle" fill={INK.muted}>{tk.label}</text>
            </g>
          ))}
          <text x={(PAD.l + W - PAD.r) / 2} y={H - 4} textAnchor="middle" fill={INK.text}>{t('step.kvAxisTokens')}</text>
          <text x={12} y={(PAD.t + H - PAD.b) / 2} textAnchor="middle" fill={INK.text} transform={`rotate(-90 12 ${(PAD.t + H - PAD.b) / 2})`}>{t('step.kvAxisBytes')}</text>
          <line x1={x(0)} y1={y(0)} x2={x(total)} y2={y(max)} stroke={INK.axis} strokeDasharray="4 3" />
          <line x1={x(0)} y1={y(0)} x2={x(cursor)} y2={y(now.total)} stroke={LINE} strokeWidth={2.5} />
          <circle cx={x(cursor)} cy={y(now.total)} r={4.5} fill={MARK_COLORS.select} />
        </svg>
        <div data-role="kv-growth-legend" style={{ display: 'flex', gap: 'var(--sp-3)', flexWrap: 'wrap', fontSize: 'var(--fs-xs)' }} className="muted">
          <span><svg width={22} height={8} aria-hidden="true"><line x1={0} x2={22} y1={4} y2={4} stroke={LINE} strokeWidth={2.5} /></svg> {t('step.kvLegendCached')}</span>
          <span><svg width={22} height={8} aria-hidden="true"><line x1={0} x2={22} y1={4} y2={4} stroke={INK.axis} strokeDasharray="4 3" /></svg> {t('step.kvLegendRest', { total })}</span>
          <span><svg width={10} height={10} aria-hidden="true"><circle cx={5} cy={5} r={4.5} fill={MARK_COLORS.select} /></svg> {t('step.kvLegendCursor')}</span>
        </div>
        <div className="muted small">
          {t('step.kvFormula', { layers: shape.layers, kvHeads: shape.kvHeads, headDim: shape.headDim, perToken, perTokenAll: perToken * shape.layers })}
        </div>
        <details>
          <summary className="small" style={{ cursor: 'pointer' }}>{t('step.kvPerLayer')}</summary>
          <table style={{ borderCollapse: 'collapse', fontSize: 'var(--fs-xs)', fontVariantNumeric: 'tabular-nums' }}>
            <thead>
              <tr className="muted" style={{ textAlign: 'right' }}>
                <th style={{ textAlign: 'left', padding: '1px 6px' }}>{t('control.layer')}</th>
                <th style={{ padding: '1px 6px' }}>K</th>
                <th style={{ padding: '1px 6px' }}>V</th>
                <th style={{ padding: '1px 6px' }}>{t('step.kvLayerSum')}</th>
              </tr>
            </thead>
            <tbody>
              {Array.from({ length: shape.layers }, (_, l) => (
                <tr key={l} style={{ textAlign: 'right' }}>
                  <td style={{ textAlign: 'left', padding: '1px 6px' }}>{l}</td>
                  <td style={{ padding: '1px 6px' }}>{formatBytes(now.kPerLayer)}</td>
                  <td style={{ padding: '1px 6px' }}>{formatBytes(now.vPerLayer)}</td>
                  <td style={{ padding: '1px 6px' }}>{formatBytes(now.perLayer)}</td>
                </tr>
              ))}
              <tr style={{ textAlign: 'right', fontWeight: 600, borderTop: '1px solid var(--c-border)' }}>
                <td style={{ textAlign: 'left', padding: '1px 6px' }}>{t('step.kvAll')}</td>
                <td style={{ padding: '1px 6px' }}>{formatBytes(now.kPerLayer * shape.layers)}</td>
                <td style={{ padding: '1px 6px' }}>{formatBytes(now.vPerLayer * shape.layers)}</td>
                <td style={{ padding: '1px 6px' }} data-role="kv-total">{formatBytes(now.total)}</td>
              </tr>
            </tbody>
          </table>
        </details>
        <div className="muted small" data-role="kv-measured">
          {measured ? t('step.kvMeasured', { dims: measured.join(' × '), bytes: formatBytes(measured.reduce((a, b) => a * b, 1) * 4) }) : t('step.kvReading')}
        </div>
        <div className="muted small">{t('step.kvCompare', { perToken: formatBytes(qwen), total: formatBytes(qwen * cursor) })}</div>
      </div>
    </ExportFrame>
  );
}
