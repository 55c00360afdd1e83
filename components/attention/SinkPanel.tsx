'use client';
// Attention-sink panel: per-head sink scores of token 0 (layers × heads), a per-layer bar chart against the
// 0.3 threshold and the uniform baseline, where attention rests, and the position-bias chart by thirds.
// Lays out lib/ results; every label comes from lib/i18n (panels table). A large model's run holds most layers
// as their head mean only (lib/analysis/headLayers): their rows show the mean score (exact: the score is linear
// in the weights) and say that per-head scores exist for one layer at a time.
import { useMemo, useRef } from 'react';
import type { Tensor } from '../../lib/tensor';
import { DEFAULT_MIN_QUERY, SINK_HEAD_THRESHOLD } from '../../lib/analysis/sink';
import { sinkSummaryOf } from '../../lib/analysis/sinkSummary';
import { rgbHex, sampleColormap } from '../../lib/view/colormap';
import { ExportFrame } from '../common/ExportFrame';
import { useT } from '../common/i18n';
import { PositionBiasChart, useContentWidth } from '../charts/PositionBiasChart';
import { cellStyle, headStyle, LayerBars, MagmaLegend, TopReceiversTable } from './SinkParts';

// The parts live in SinkParts; kept importable from here for the imported view.

export interface SinkPanelProps {
  /** Per layer, [heads, T, T] attention of a full prefill from position 0, or [T, T] where only the head mean came back. */
  attention: Tensor[];
  /** The layers holding per-head maps (Analysed.headLayers); default: read off the tensors. */
  headLayers?: readonly number[];
  /** Display text per token (index = position). */
  labels: string[];
  /**
   * What the attention is of (e.g. "Qwen3-0.6B · vancouver"): put in front of the exports' file names and
   * captions. Optional.
   */
  exportLabel?: string;
}

function fmt(v: number | null, na: string, digits = 2): string {
  return v === null ? na : v.toFixed(digits);
}

/** Text colour readable on a magma cell of value t. */
function inkOn(t: number): string {
  return t > 0.6 ? '#000' : '#fff';
}

export function SinkPanel({ attention, labels, exportLabel, headLayers: given }: SinkPanelProps) {
  const t = useT();
  // Charts fit the panel's width (a side column beside the heatmap is about 460–560 px at 1280 px).
  const boxRef = useRef<HTMLElement>(null);
  const width = useContentWidth(boxRef, 520);
  const na = t('panels.na');
  // Derived once per run (lib/analysis/sinkSummary; Lab warms it in idle time after the run arrives).
  const result = useMemo(() => sinkSummaryOf(attention, given), [attention, given]);

  const { T, lowered, minQuery, sinks, bias, uniform, top, heads, meanOnly, withHeads } = result;
  const anyMeanOnly = meanOnly.some(Boolean);
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
    layers: sinks.map((s, layer) => (meanOnly[layer] ? { layer, ...s, perHead: [], sinkHeads: null, meanOnly: true } : { layer, ...s })),
    ...(anyMeanOnly ? { perHeadLayers: withHeads } : {}),
  });

  return (
    <section ref={boxRef} data-role="sink-panel" style={{ display: 'flex', flexDirection: 'column', gap: 'var(--sp-4, 16px)', fontSize: 'var(--fs-sm, 13px)', minWidth: 0 }}>
      <div>
        <h2 style={{ margin: '0 0 var(--sp-1, 4px)', fontSize: 'var(--fs-md, 16px)' }}>{t('sink.title')}</h2>
        <p style={{ margin: 0 }} className="muted">{t('sink.explain', { minQuery, threshold: SINK_HEAD_THRESHOLD })}</p>
        {lowered && (
          <p data-role="sink-minquery-note" style={{ margin: '4px 0 0', color: '#a15c00' }}>
            {t('sink.minQueryNote', { tokens: DEFAULT_MIN_QUERY + 1, minQuery })}
          </p>
        )}
        {attention.length === 0 && <p style={{ color: '#888' }}>{t('sink.noAttention')}</p>}
      </div>

      {sinks.length > 0 && (
        <div>
          <h3 style={{ margin: '0 0 var(--sp-1, 4px)', fontSize: 'var(--fs-sm, 14px)' }}>{t('sink.perHead')}</h3>
          {anyMeanOnly && (
            <p data-role="sink-heads-note" data-per-head-layers={withHeads.join(',')} style={{ margin: '0 0 var(--sp-1, 4px)' }} className="muted">
              {withHeads.length > 0 ? t('sink.headsNote', { layers: withHeads.join(', ') }) : t('sink.headsNoteNone')}
            </p>
          )}
          <ExportFrame name={exportName('sink-scores')} title={exportTitle(t('export.caption.sinkGrid', { minQuery, threshold: SINK_HEAD_THRESHOLD }))} json={sinkJson('sink-scores')}>
            {/* Many heads (16 on Qwen3-0.6B) scroll sideways inside the panel instead of widening the page. */}
            <div style={{ overflowX: 'auto', maxWidth: width }}>
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
                  <tr key={l} data-mean-only={meanOnly[l] ? 'true' : undefined}>
                    <th style={headStyle}>{l}</th>
                    {meanOnly[l] ? (
                      heads > 0 && (
                        <td colSpan={heads} data-role="sink-mean-only" style={{ ...cellStyle, textAlign: 'center', color: '#666', background: '#f2f2f2' }} title={t('sink.meanOnlyRowTitle', { layer: l })}>
                          {t('sink.meanOnlyRow')}
                        </td>
                      )
                    ) : Array.from({ length: heads }, (_, h) => {
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
                    {meanOnly[l] ? (
                      <td style={{ ...cellStyle, color: '#555' }} title={t('sink.sinkHeadsNa')}>
                        {na}
                      </td>
                    ) : (
                      <td style={{ ...cellStyle, color: '#555' }}>{s.qualifyingQueries > 0 ? `${s.sinkHeads}/${s.perHead.length}` : na}</td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
            </div>
            <MagmaLegend />
          </ExportFrame>
        </div>
      )}

      {sinks.length > 0 && (
        <div>
          <h3 style={{ margin: '0 0 var(--sp-1, 4px)', fontSize: 'var(--fs-sm, 14px)' }}>{t('sink.barsTitle')}</h3>
          <ExportFrame name={exportName('sink-bars')} title={exportTitle(t('export.caption.sinkBars', { threshold: SINK_HEAD_THRESHOLD }))} json={sinkJson('sink-bars')}>
            <LayerBars
              bars={sinks.map((s, l) => ({
                label: l,
                value: s.headMean,
                uniform: s.uniformBaseline,
                tooltip:
                  s.headMean === null
                    ? ''
                    : meanOnly[l]
                      ? t('sink.barsTooltipMean', { layer: l, mean: s.headMean.toFixed(3), uniform: fmt(s.uniformBaseline, na, 3) })
                      : t('sink.barsTooltip', { layer: l, mean: s.headMean.toFixed(3), uniform: fmt(s.uniformBaseline, na, 3), sinkHeads: s.sinkHeads }),
              }))}
              role="sink-bars"
              maxWidth={width}
              aria={t('sink.barsTitle')}
              xLabel={t('sink.barsX')}
              yLabel={t('sink.barsY')}
            />
          </ExportFrame>
        </div>
      )}

      <div>
        <h3 style={{ margin: '0 0 var(--sp-1, 4px)', fontSize: 'var(--fs-sm, 14px)' }}>{t('sink.restTitle')}</h3>
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
          <h3 style={{ margin: '0 0 var(--sp-1, 4px)', fontSize: 'var(--fs-sm, 14px)' }}>{t('bias.title')}</h3>
          <p style={{ margin: '0 0 6px' }} className="muted">{t('bias.explain', { minQuery })}</p>
          <PositionBiasChart
            width={width}
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
