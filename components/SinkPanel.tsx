'use client';
// Attention-sink panel: per-head sink scores of token 0 (layers × heads), a per-layer bar chart against the
// 0.3 threshold and the uniform baseline, where attention rests, and position bias by thirds. Lays out lib/ results.
import { useMemo } from 'react';
import type { Tensor } from '../lib/engine/session';
import {
  DEFAULT_MIN_QUERY,
  SINK_HEAD_THRESHOLD,
  attentionReceived,
  layerAttention,
  sinkScore,
  topReceivers,
  type SinkScore,
} from '../lib/analysis/sink';
import { positionBias, type PositionBias } from '../lib/analysis/positionBias';
import { rgbHex, sampleColormap } from '../lib/view/colormap';

export interface SinkPanelProps {
  /** Per layer, [heads, T, T] attention of a full prefill from position 0. */
  attention: Tensor[];
  /** Display text per token (index = position). */
  labels: string[];
}

const TOP_N = 8;
const mono = 'ui-monospace, monospace';
const cellStyle = { padding: '2px 4px', textAlign: 'right' as const, font: `11px ${mono}` };
const headStyle = { padding: '2px 4px', font: `11px ${mono}`, color: '#555', fontWeight: 'normal' as const };

function fmt(v: number | null, digits = 2): string {
  return v === null ? 'n/a' : v.toFixed(digits);
}

function fmtSmall(v: number | null): string {
  return v === null ? 'n/a' : v.toPrecision(3);
}

/** Text colour readable on a magma cell of value t. */
function inkOn(t: number): string {
  return t > 0.6 ? '#000' : '#fff';
}

export function SinkPanel({ attention, labels }: SinkPanelProps) {
  const result = useMemo(() => {
    const layers = attention.map((t) => layerAttention(t));
    const T = layers[0]?.keys ?? 0;
    const lowered = T <= DEFAULT_MIN_QUERY;
    const minQuery = lowered ? Math.max(1, T - 1) : DEFAULT_MIN_QUERY;
    const sinks: SinkScore[] = layers.map((a) => sinkScore(a, 0, minQuery));
    const bias: PositionBias[] = layers.map((a) => positionBias(a, minQuery));
    // Where attention rests: mean over layers (those with a qualifying query) of attentionReceived.
    const received = layers.map((a) => attentionReceived(a, minQuery)).filter((r): r is Float64Array => r !== null);
    let top: { key: number; weight: number }[] = [];
    if (received.length > 0) {
      const mean = new Float64Array(T);
      for (const r of received) for (let k = 0; k < T; k++) mean[k]! += (r[k] ?? 0) / received.length;
      top = topReceivers(mean, TOP_N);
    }
    const heads = Math.max(0, ...layers.map((a) => a.heads));
    return { T, lowered, minQuery, sinks, bias, top, heads };
  }, [attention]);

  const { T, lowered, minQuery, sinks, bias, top, heads } = result;

  return (
    <section data-role="sink-panel" style={{ display: 'flex', flexDirection: 'column', gap: 16, font: '13px system-ui, sans-serif' }}>
      <div>
        <h2 style={{ margin: '0 0 4px', fontSize: 16 }}>Attention sink (key 0)</h2>
        <p style={{ margin: 0, color: '#444' }}>
          Sink score = mean of A[q, 0] over queries q ≥ max(1, minQuery) (minQuery = {minQuery}); the uniform
          baseline is the mean of 1/(q+1) over the same queries — what evenly spread attention would give. Heads
          above {SINK_HEAD_THRESHOLD} are sink heads (outlined).
        </p>
        {lowered && (
          <p data-role="sink-minquery-note" style={{ margin: '4px 0 0', color: '#a15c00' }}>
            prompt shorter than {DEFAULT_MIN_QUERY + 1} tokens: minQuery lowered to {minQuery}
          </p>
        )}
        {attention.length === 0 && <p style={{ color: '#888' }}>no attention captured</p>}
      </div>

      {sinks.length > 0 && (
        <div>
          <h3 style={{ margin: '0 0 4px', fontSize: 14 }}>Sink score per head</h3>
          <table data-role="sink-grid" style={{ borderCollapse: 'separate', borderSpacing: 2 }}>
            <thead>
              <tr>
                <th style={headStyle}>layer</th>
                {Array.from({ length: heads }, (_, h) => (
                  <th key={h} style={headStyle}>h{h}</th>
                ))}
                <th style={headStyle}>mean</th>
                <th style={headStyle}>uniform</th>
                <th style={headStyle}>sink heads</th>
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
                        <td key={h} style={{ ...cellStyle, background: '#e0e0e0', color: '#666' }} title={`layer ${l} head ${h}: no qualifying query`}>
                          n/a
                        </td>
                      );
                    const t = Math.min(1, Math.max(0, v));
                    const sink = v > SINK_HEAD_THRESHOLD;
                    return (
                      <td
                        key={h}
                        data-sink={sink ? 'true' : undefined}
                        title={`layer ${l} head ${h}: ${v.toPrecision(4)}${sink ? ' (sink head)' : ''}`}
                        style={{
                          ...cellStyle,
                          background: rgbHex(sampleColormap('magma', t)),
                          color: inkOn(t),
                          outline: sink ? '2px solid #00b4d8' : undefined,
                          outlineOffset: -2,
                        }}
                      >
                        {v.toFixed(2)}
                      </td>
                    );
                  })}
                  <td style={{ ...cellStyle, fontWeight: 600 }}>{fmt(s.headMean)}</td>
                  <td style={{ ...cellStyle, color: '#555' }}>{fmt(s.uniformBaseline)}</td>
                  <td style={{ ...cellStyle, color: '#555' }}>{s.qualifyingQueries > 0 ? `${s.sinkHeads}/${s.perHead.length}` : 'n/a'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <MagmaLegend />
        </div>
      )}

      {sinks.length > 0 && (
        <div>
          <h3 style={{ margin: '0 0 4px', fontSize: 14 }}>Head-mean sink score per layer</h3>
          <SinkBars sinks={sinks} />
        </div>
      )}

      <div>
        <h3 style={{ margin: '0 0 4px', fontSize: 14 }}>Where attention rests</h3>
        {top.length === 0 ? (
          <p style={{ margin: 0, color: '#888' }}>n/a (no query q ≥ {minQuery})</p>
        ) : (
          <table data-role="sink-top" style={{ borderCollapse: 'collapse' }}>
            <thead>
              <tr>
                <th style={headStyle}>pos</th>
                <th style={headStyle}>weight</th>
                <th style={{ ...headStyle, textAlign: 'left' }}>token</th>
              </tr>
            </thead>
            <tbody>
              {top.map(({ key, weight }) => (
                <tr key={key}>
                  <td style={cellStyle}>{key}</td>
                  <td style={cellStyle}>{weight.toFixed(4)}</td>
                  <td style={{ ...cellStyle, textAlign: 'left', whiteSpace: 'pre' }}>{JSON.stringify(labels[key] ?? '')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p style={{ margin: '4px 0 0', color: '#666', fontSize: 12 }}>
          mean over layers and heads of the attention each key receives from queries q ≥ {minQuery}
        </p>
      </div>

      {bias.length > 0 && (
        <div>
          <h3 style={{ margin: '0 0 4px', fontSize: 14 }}>Position bias</h3>
          <table data-role="sink-position-bias" style={{ borderCollapse: 'collapse' }}>
            <caption style={{ captionSide: 'bottom', textAlign: 'left', color: '#666', fontSize: 12, paddingTop: 4 }}>
              lost in the middle: mass per key token in the first / middle / last third of the context (queries q ≥ {minQuery})
            </caption>
            <thead>
              <tr>
                <th style={headStyle}>layer</th>
                <th style={headStyle}>first [{bias[0]!.first.from}, {bias[0]!.first.to})</th>
                <th style={headStyle}>middle [{bias[0]!.middle.from}, {bias[0]!.middle.to})</th>
                <th style={headStyle}>last [{bias[0]!.last.from}, {bias[0]!.last.to})</th>
              </tr>
            </thead>
            <tbody>
              {bias.map((b, l) => (
                <tr key={l}>
                  <th style={headStyle}>{l}</th>
                  <td style={cellStyle}>{fmtSmall(b.first.mean)}</td>
                  <td style={cellStyle}>{fmtSmall(b.middle.mean)}</td>
                  <td style={cellStyle}>{fmtSmall(b.last.mean)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p style={{ margin: 0, color: '#888', fontSize: 11 }}>
        {attention.length} layers · {heads} heads · {T} tokens
      </p>
    </section>
  );
}

function MagmaLegend() {
  const stops = [0, 0.25, 0.5, 0.75, 1].map((t) => `${rgbHex(sampleColormap('magma', t))} ${t * 100}%`).join(', ');
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 6, marginTop: 4, font: `11px ${mono}`, color: '#555' }}>
      <span>0</span>
      <span style={{ width: 160, height: 10, background: `linear-gradient(to right, ${stops})` }} />
      <span>1</span>
      <span style={{ marginLeft: 8, outline: '2px solid #00b4d8', padding: '0 4px' }}>&gt; {SINK_HEAD_THRESHOLD} sink head</span>
    </div>
  );
}

function SinkBars({ sinks }: { sinks: SinkScore[] }) {
  const n = sinks.length;
  const W = Math.max(360, Math.min(720, n * 22 + 60));
  const H = 180;
  const m = { l: 40, r: 10, t: 10, b: 34 };
  const pw = W - m.l - m.r;
  const ph = H - m.t - m.b;
  const bw = pw / Math.max(1, n);
  const y = (v: number) => m.t + ph * (1 - Math.min(1, Math.max(0, v)));
  const labelEvery = Math.max(1, Math.ceil(n / 16));
  return (
    <svg data-role="sink-bars" width={W} height={H} role="img" aria-label="head-mean sink score per layer" style={{ font: `10px ${mono}` }}>
      {[0, 0.5, 1].map((v) => (
        <g key={v}>
          <line x1={m.l - 3} x2={m.l} y1={y(v)} y2={y(v)} stroke="#888" />
          <text x={m.l - 5} y={y(v) + 3} textAnchor="end" fill="#555">{v}</text>
        </g>
      ))}
      <line x1={m.l} x2={m.l} y1={m.t} y2={m.t + ph} stroke="#888" />
      <line x1={m.l} x2={m.l + pw} y1={m.t + ph} y2={m.t + ph} stroke="#888" />
      {sinks.map((s, l) => {
        const x = m.l + l * bw;
        return (
          <g key={l}>
            {s.headMean !== null && (
              <rect x={x + bw * 0.15} width={bw * 0.7} y={y(s.headMean)} height={m.t + ph - y(s.headMean)} fill={rgbHex(sampleColormap('magma', Math.min(1, s.headMean) * 0.8 + 0.1))}>
                <title>{`layer ${l}: mean ${s.headMean.toFixed(3)}, uniform ${fmt(s.uniformBaseline, 3)}, ${s.sinkHeads} sink heads`}</title>
              </rect>
            )}
            {s.uniformBaseline !== null && (
              <line x1={x + bw * 0.05} x2={x + bw * 0.95} y1={y(s.uniformBaseline)} y2={y(s.uniformBaseline)} stroke="#2a9d8f" strokeWidth={2} />
            )}
            {l % labelEvery === 0 && (
              <text x={x + bw / 2} y={m.t + ph + 11} textAnchor="middle" fill="#555">{l}</text>
            )}
          </g>
        );
      })}
      <line x1={m.l} x2={m.l + pw} y1={y(SINK_HEAD_THRESHOLD)} y2={y(SINK_HEAD_THRESHOLD)} stroke="#d62828" strokeDasharray="4 3" />
      <text x={m.l + pw} y={y(SINK_HEAD_THRESHOLD) - 3} textAnchor="end" fill="#d62828">threshold {SINK_HEAD_THRESHOLD}</text>
      <text x={m.l + pw / 2} y={H - 4} textAnchor="middle" fill="#333">layer (bar: head-mean; green tick: uniform baseline)</text>
      <text x={10} y={m.t + ph / 2} textAnchor="middle" fill="#333" transform={`rotate(-90 10 ${m.t + ph / 2})`}>sink score</text>
    </svg>
  );
}
