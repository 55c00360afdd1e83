'use client';
// The K/V cache as the cursor moves: tokens held, bytes per layer (K and V) and in total, a small chart of
// bytes against tokens with the cursor marked, and the shape of layer 0's K as read back from the worker.
// Arithmetic from lib/analysis/kvBytes, the chart's maps from lib/view/scale.
import { formatBytes, kvBytesPerTokenLayer, kvCacheBytes, QWEN3_0_6B_KV, type KvShape } from '../../lib/analysis/kvBytes';
import { linearMap } from '../../lib/view/scale';
import { ExportFrame } from '../common/ExportFrame';
import { useT } from '../common/i18n';

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

const W = 380;
const H = 150;
const PAD = { l: 58, r: 10, t: 10, b: 30 };

export function KvGrowth({ cursor, total, shape, measured, exportLabel }: KvGrowthProps) {
  const t = useT();
  if (!shape) return <div style={{ color: '#555' }}>{t('step.kvReading')}</div>;
  const now = kvCacheBytes(shape, cursor);
  const max = kvCacheBytes(shape, Math.max(1, total)).total;
  const perToken = kvBytesPerTokenLayer(shape);
  const x = linearMap(0, Math.max(1, total), PAD.l, W - PAD.r);
  const y = linearMap(0, max, H - PAD.b, PAD.t);
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
      <div data-role="kv-growth" data-kv-total={now.total} style={{ display: 'grid', gap: 6, fontSize: 13 }}>
        <div>
          {t('step.kvNow', { tokens: cursor, total: formatBytes(now.total), bytes: now.total.toLocaleString('en-US') })}
        </div>
        <div style={{ color: '#555', fontSize: 12 }}>
          {t('step.kvFormula', { layers: shape.layers, kvHeads: shape.kvHeads, headDim: shape.headDim, perToken, perTokenAll: perToken * shape.layers })}
        </div>
        <table style={{ borderCollapse: 'collapse', font: '12px system-ui', fontVariantNumeric: 'tabular-nums' }}>
          <thead>
            <tr style={{ color: '#555', textAlign: 'right' }}>
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
            <tr style={{ textAlign: 'right', fontWeight: 600, borderTop: '1px solid #ccc' }}>
              <td style={{ textAlign: 'left', padding: '1px 6px' }}>{t('step.kvAll')}</td>
              <td style={{ padding: '1px 6px' }}>{formatBytes(now.kPerLayer * shape.layers)}</td>
              <td style={{ padding: '1px 6px' }}>{formatBytes(now.vPerLayer * shape.layers)}</td>
              <td style={{ padding: '1px 6px' }} data-role="kv-total">{formatBytes(now.total)}</td>
            </tr>
          </tbody>
        </table>
        <svg width={W} height={H} role="img" aria-label={t('step.kvChartAria')} style={{ font: '10px system-ui' }}>
          <line x1={PAD.l} y1={H - PAD.b} x2={W - PAD.r} y2={H - PAD.b} stroke="#999" />
          <line x1={PAD.l} y1={PAD.t} x2={PAD.l} y2={H - PAD.b} stroke="#999" />
          {[0, 0.5, 1].map((f) => (
            <g key={f}>
              <line x1={PAD.l - 3} x2={W - PAD.r} y1={y(f * max)} y2={y(f * max)} stroke={f === 0 ? 'none' : '#eee'} />
              <text x={PAD.l - 5} y={y(f * max) + 3} textAnchor="end" fill="#555">{formatBytes(Math.round(f * max))}</text>
            </g>
          ))}
          <text x={PAD.l} y={H - PAD.b + 13} fill="#555">0</text>
          <text x={W - PAD.r} y={H - PAD.b + 13} textAnchor="end" fill="#555">{total}</text>
          <text x={(PAD.l + W - PAD.r) / 2} y={H - 4} textAnchor="middle" fill="#333">{t('step.kvAxisTokens')}</text>
          <line x1={x(0)} y1={y(0)} x2={x(total)} y2={y(max)} stroke="#bbb" strokeDasharray="4 3" />
          <line x1={x(0)} y1={y(0)} x2={x(cursor)} y2={y(now.total)} stroke="#2c5aa0" strokeWidth={2.5} />
          <circle cx={x(cursor)} cy={y(now.total)} r={4} fill="#d00" />
        </svg>
        <div style={{ color: '#555', fontSize: 12 }} data-role="kv-measured">
          {measured ? t('step.kvMeasured', { dims: measured.join(' × '), bytes: formatBytes(measured.reduce((a, b) => a * b, 1) * 4) }) : t('step.kvReading')}
        </div>
        <div style={{ color: '#555', fontSize: 12 }}>{t('step.kvCompare', { perToken: formatBytes(qwen), total: formatBytes(qwen * cursor) })}</div>
      </div>
    </ExportFrame>
  );
}
