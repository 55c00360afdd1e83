'use client';
// Attention-sink panel: per-head sink scores of token 0 (layers × heads), a per-layer bar chart against the
// 0.3 threshold and the uniform baseline, where attention rests, and the position-bias chart by thirds.
// Lays out lib/ results; every label comes from lib/i18n (panels table).
import { useId, useMemo } from 'react';
import type { Tensor } from '../../lib/tensor';
import {
  DEFAULT_MIN_QUERY,
  SINK_HEAD_THRESHOLD,
  attentionReceived,
  layerAttention,
  sinkScore,
  topReceivers,
  type SinkScore,
} from '../../lib/analysis/sink';
import { positionBias, uniformPositionBias, type PositionBias } from '../../lib/analysis/positionBias';
import { rgbHex, sampleColormap } from '../../lib/view/colormap';
import { ExportFrame } from '../common/ExportFrame';
import { useT } from '../common/i18n';
import { PositionBiasChart } from '../charts/PositionBiasChart';

export interface SinkPanelProps {
  /** Per layer, [heads, T, T] attention of a full prefill from position 0. */
  attention: Tensor[];
  /** Display text per token (index = position). */
  labels: string[];
  /**
   * What the attention is of (e.g. "Qwen3-0.6B · vancouver"): put in front of the exports' file names and
   * captions. Optional.
   */
  exportLabel?: string;
}

const TOP_N = 8;
const mono = 'ui-monospace, monospace';
const cellStyle = { padding: '2px 4px', textAlign: 'right' as const, font: `11px ${mono}` };
const headStyle = { padding: '2px 4px', font: `11px ${mono}`, color: '#555', fontWeight: 'normal' as const };

function fmt(v: number | null, na: string, digits = 2): string {
  return v === null ? na : v.toFixed(digits);
}

/** Text colour readable on a magma cell of value t. */
function inkOn(t: number): string {
  return t > 0.6 ? '#000' : '#fff';
}

export function SinkPanel({ attention, labels, exportLabel }: SinkPanelProps) {
  const t = useT();
  const na = t('panels.na');
  const result = useMemo(() => {
    const layers = attention.map((t) => layerAttention(t));
    const T = layers[0]?.keys ?? 0;
    const lowered = T <= DEFAULT_MIN_QUERY;
    const minQuery = lowered ? Math.max(1, T - 1) : DEFAULT_MIN_QUERY;
    const sinks: SinkScore[] = layers.map((a) => sinkScore(a, 0, minQuery));
    const bias: PositionBias[] = layers.map((a) => positionBias(a, minQuery));
    // The reference depends only on the query rows, T and minQuery, which all layers share.
    const uniform = layers[0] ? uniformPositionBias(layers[0], minQuery) : null;
    // Where attention rests: mean over layers (those with a qualifying query) of attentionReceived.
    const received = layers.map((a) => attentionReceived(a, minQuery)).filter((r): r is Float64Array => r !== null);
    let top: { key: number; weight: number }[] = [];
    if (received.length > 0) {
      const mean = new Float64Array(T);
      for (const r of received) for (let k = 0; k < T; k++) mean[k]! += (r[k] ?? 0) / received.length;
      top = topReceivers(mean, TOP_N);
    }
    const heads = Math.max(0, ...layers.map((a) => a.heads));
    return { T, lowered, minQuery, sinks, bias, uniform, top, heads };
  }, [attention]);

  const { T, lowered, minQuery, sinks, bias, uniform, top, heads } = result;
  const exportName = (what: string) => (exportLabel ? `${exportLabel} ${what}` : what);
  const exportTitle = (caption: string) => (exportLabel ? `${exportLabel} · ${caption}` : caption);
  // The numbers the grid and the bars show, per layer (lib/analysis/sink's SinkScore as computed above).
  const sinkJson = (kind: string) => () => ({
    kind,
    key: 0,
    minQuery,
    threshold: SINK_HEAD_THRESHOLD,
    tokens: T,
    heads,
    layers: sinks.map((s, layer) => ({ layer, ...s })),
  });

  return (
    <section data-role="sink-panel" style={{ display: 'flex', flexDirection: 'column', gap: 16, font: '13px system-ui, sans-serif' }}>
      <div>
        <h2 style={{ margin: '0 0 4px', fontSize: 16 }}>{t('sink.title')}</h2>
        <p style={{ margin: 0, color: '#444' }}>{t('sink.explain', { minQuery, threshold: SINK_HEAD_THRESHOLD })}</p>
        {lowered && (
          <p data-role="sink-minquery-note" style={{ margin: '4px 0 0', color: '#a15c00' }}>
            {t('sink.minQueryNote', { tokens: DEFAULT_MIN_QUERY + 1, minQuery })}
          </p>
        )}
        {attention.length === 0 && <p style={{ color: '#888' }}>{t('sink.noAttention')}</p>}
      </div>

      {sinks.length > 0 && (
        <div>
          <h3 style={{ margin: '0 0 4px', fontSize: 14 }}>{t('sink.perHead')}</h3>
          <ExportFrame name={exportName('sink-scores')} title={exportTitle(t('export.caption.sinkGrid', { minQuery, threshold: SINK_HEAD_THRESHOLD }))} json={sinkJson('sink-scores')}>
            <table data-role="sink-grid" style={{ borderCollapse: 'separate', borderSpacing: 2 }}>
              <thead>
                <tr>
                  <th style={headStyle}>{t('sink.colLayer')}</th>
                  {Array.from({ length: heads }, (_, h) => (
                    <th key={h} style={headStyle}>{t('sink.colHead', { head: h })}</th>
                  ))}
                  <th style={headStyle}>{t('sink.colMean')}</th>
                  <th style={headStyle}>{t('sink.colUniform')}</th>
                  <th style={headStyle}>{t('sink.colSinkHeads')}</th>
                </tr>
              </thead>
              <tbody>
                {sinks.map((s, l) => (
                  <tr key={l}>
                    <th style={headStyle}>{l}</th>
                    {Array.from({ length: heads }, (_, h) => {
                      const v = s.perHead[h] ?? null;
                      if (v === null)
                        return (
                          <td key={h} style={{ ...cellStyle, background: '#e0e0e0', color: '#666' }} title={t('sink.cellNa', { layer: l, head: h })}>
                            {na}
                          </td>
                        );
                      const c = Math.min(1, Math.max(0, v));
                      const sink = v > SINK_HEAD_THRESHOLD;
                      return (
                        <td
                          key={h}
                          data-sink={sink ? 'true' : undefined}
                          title={t(sink ? 'sink.cellSink' : 'sink.cell', { layer: l, head: h, value: v.toPrecision(4) })}
                          style={{
                            ...cellStyle,
                            background: rgbHex(sampleColormap('magma', c)),
                            color: inkOn(c),
                            outline: sink ? '2px solid #00b4d8' : undefined,
                            outlineOffset: -2,
                          }}
                        >
                          {v.toFixed(2)}
                        </td>
                      );
                    })}
                    <td style={{ ...cellStyle, fontWeight: 600 }}>{fmt(s.headMean, na)}</td>
                    <td style={{ ...cellStyle, color: '#555' }}>{fmt(s.uniformBaseline, na)}</td>
                    <td style={{ ...cellStyle, color: '#555' }}>{s.qualifyingQueries > 0 ? `${s.sinkHeads}/${s.perHead.length}` : na}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <MagmaLegend />
          </ExportFrame>
        </div>
      )}

      {sinks.length > 0 && (
        <div>
          <h3 style={{ margin: '0 0 4px', fontSize: 14 }}>{t('sink.barsTitle')}</h3>
          <ExportFrame name={exportName('sink-bars')} title={exportTitle(t('export.caption.sinkBars', { threshold: SINK_HEAD_THRESHOLD }))} json={sinkJson('sink-bars')}>
            <LayerBars
              bars={sinks.map((s, l) => ({
                label: l,
                value: s.headMean,
                uniform: s.uniformBaseline,
                tooltip: s.headMean === null ? '' : t('sink.barsTooltip', { layer: l, mean: s.headMean.toFixed(3), uniform: fmt(s.uniformBaseline, na, 3), sinkHeads: s.sinkHeads }),
              }))}
              role="sink-bars"
              aria={t('sink.barsTitle')}
              xLabel={t('sink.barsX')}
              yLabel={t('sink.barsY')}
            />
          </ExportFrame>
        </div>
      )}

      <div>
        <h3 style={{ margin: '0 0 4px', fontSize: 14 }}>{t('sink.restTitle')}</h3>
        {top.length === 0 ? (
          <p style={{ margin: 0, color: '#888' }}>{t('sink.restNone', { minQuery })}</p>
        ) : (
          <TopReceiversTable role="sink-top" rows={top} label={(key) => JSON.stringify(labels[key] ?? '')} />
        )}
        <p style={{ margin: '4px 0 0', color: '#666', fontSize: 12 }}>
          {t('sink.restCaption', { minQuery })}
        </p>
      </div>

      {bias.length > 0 && (
        <div>
          <h3 style={{ margin: '0 0 4px', fontSize: 14 }}>{t('bias.title')}</h3>
          <p style={{ margin: '0 0 6px', color: '#444', maxWidth: 820 }}>{t('bias.explain', { minQuery })}</p>
          <PositionBiasChart
            bias={bias}
            uniform={uniform}
            minQuery={minQuery}
            exportName={exportName('position-bias')}
            exportTitle={exportTitle(t('export.caption.positionBias', { minQuery }))}
          />
        </div>
      )}
      <p style={{ margin: 0, color: '#888', fontSize: 11 }}>
        {t('sink.footer', { layers: attention.length, heads, tokens: T })}
      </p>
    </section>
  );
}

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

/** Per-layer bars of a first-token share; the engine's sink panel and the imported view both draw these. */
export function LayerBars({ bars, role, aria, xLabel, yLabel, wide = false }: { bars: LayerBar[]; role: string; aria: string; xLabel: string; yLabel: string; wide?: boolean }) {
  const t = useT();
  const na = t('panels.na');
  const n = bars.length;
  const W = wide ? Math.max(500, Math.min(1100, n * 26 + 70)) : Math.max(360, Math.min(720, n * 22 + 60));
  const H = wide ? 200 : 180;
  const m = { l: 44, r: 12, t: 12, b: 38 };
  const pw = W - m.l - m.r;
  const ph = H - m.t - m.b;
  const bw = pw / Math.max(1, n);
  const y = (v: number) => m.t + ph * (1 - Math.min(1, Math.max(0, v)));
  const labelEvery = Math.max(1, Math.ceil(n / (wide ? 24 : 16)));
  return (
    <svg data-role={role} width={W} height={H} role="img" aria-label={aria} style={{ font: `10px ${mono}`, display: 'block' }}>
      {[0, 0.25, 0.5, 0.75, 1].map((v) => (
        <g key={v}>
          <line x1={m.l} x2={m.l + pw} y1={y(v)} y2={y(v)} stroke="#eee" />
          <line x1={m.l - 3} x2={m.l} y1={y(v)} y2={y(v)} stroke="#888" />
          <text x={m.l - 5} y={y(v) + 3} textAnchor="end" fill="#555">{v}</text>
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
