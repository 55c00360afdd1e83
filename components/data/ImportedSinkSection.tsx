'use client';
// The imported-attention view's sink section: the sink score per layer and head as a magma-coloured grid,
// the first-token share, uniform baseline, sink heads and qualifying rows per layer, and the first-token
// share as bars over the layers. Every number comes from lib/analysis/importedViews.
import type { ImportedLayerSummary, ImportedSummary } from '../../lib/analysis/importedViews';
import { DEFAULT_MIN_QUERY, SINK_HEAD_THRESHOLD } from '../../lib/analysis/sink';
import { rgbHex, sampleColormap } from '../../lib/view/colormap';
import { LayerBars, MagmaLegend } from '../attention/SinkParts';
import { ExportFrame } from '../common/ExportFrame';
import { useT } from '../common/i18n';
import { fmt, h3Style, headStyle, layerName, mono, noteStyle } from './importedParts';

const cellStyle = { padding: '2px 5px', textAlign: 'right' as const, font: `11px ${mono}` };
const baseCell = cellStyle;
const compactCell = { padding: '2px 2px', textAlign: 'right' as const, font: `10px ${mono}` };
const wrapHead = { ...headStyle, whiteSpace: 'normal' as const, maxWidth: 70, lineHeight: 1.2, verticalAlign: 'bottom' as const };

/** Text colour readable on a magma cell of value t. */
const inkOn = (t: number) => (t > 0.6 ? '#000' : '#fff');

export function SinkSection({ summary, name }: { summary: ImportedSummary; name: string }) {
  const t = useT();
  const na = t('panels.na');
  const { layers, maxHeads, meanOnly, minQuery } = summary;
  // Columns: one per stored head, or a single "mean (as exported)" column when no layer stores heads.
  const cols = meanOnly ? 1 : maxHeads;
  return (
    <section data-role="imported-sink" style={{ display: 'grid', gap: 10 }}>
      <div>
        <h2 style={{ margin: '0 0 4px', fontSize: 'var(--fs-lg)' }}>{t('imported.sinkTitle')}</h2>
        <p style={{ margin: 0, color: 'var(--c-muted)', maxWidth: 1000 }}>{t('sink.explain', { minQuery, threshold: SINK_HEAD_THRESHOLD })}</p>
        <p style={noteStyle}>{t('imported.sinkRows', { minQuery })}</p>
        {summary.lowered && (
          <p data-role="imported-minquery-note" style={{ ...noteStyle, color: 'var(--c-warn)' }}>
            {t('imported.minQueryNote', { last: summary.lastRow, minQuery, default: DEFAULT_MIN_QUERY })}
          </p>
        )}
        {meanOnly && (
          <p data-role="imported-sink-mean-only" style={{ ...noteStyle, color: 'var(--c-warn)' }}>
            {t('imported.sinkMeanOnly', { threshold: SINK_HEAD_THRESHOLD })}
          </p>
        )}
      </div>
      <div>
        <h3 style={h3Style}>{meanOnly ? t('imported.gridTitleMean') : t('sink.perHead')}</h3>
        <ExportFrame
          name={`imported-${name}-sink`}
          title={t('imported.sinkExportTitle', { name })}
          json={() => ({
            imported: true,
            name,
            minQuery,
            threshold: SINK_HEAD_THRESHOLD,
            layers: layers.map((l) => ({ layer: l.layer, label: l.label, heads: l.heads ?? 'mean', perHead: l.sink.perHead, firstTokenShare: l.firstTokenShare, uniformBaseline: l.sink.uniformBaseline, sinkHeads: l.heads === null ? null : l.sink.sinkHeads, qualifyingRows: l.sink.qualifyingQueries })),
          })}
        >
          <div style={{ overflowX: 'auto', maxWidth: 1300 }}>
            <table data-role="imported-sink-grid" style={{ borderCollapse: 'separate', borderSpacing: 2 }}>
              <thead>
                <tr>
                  <th style={{ ...headStyle, textAlign: 'left' }}>{t('sink.colLayer')}</th>
                  {Array.from({ length: cols }, (_, h) => (
                    <th key={h} style={cols > COMPACT_HEADS ? { ...headStyle, padding: '2px 1px', fontSize: 'var(--fs-sm)' } : headStyle}>{meanOnly ? t('imported.headMeanExported') : t('sink.colHead', { head: h })}</th>
                  ))}
                  {!meanOnly && <th style={wrapHead}>{t('imported.colFirstShare')}</th>}
                  <th style={wrapHead}>{t('sink.colUniform')}</th>
                  <th style={wrapHead}>{t('sink.colSinkHeads')}</th>
                  <th style={wrapHead}>{t('imported.colRows')}</th>
                </tr>
              </thead>
              <tbody>
                {layers.map((l) => (
                  <SinkRow key={l.index} l={l} cols={cols} meanOnly={meanOnly} na={na} />
                ))}
              </tbody>
            </table>
          </div>
        </ExportFrame>
        <MagmaLegend />
      </div>
      {layers.length < 2 ? (
        <p data-role="imported-bars-one" style={{ margin: 0, color: 'var(--c-muted)' }}>
          {t('imported.barsOne')}
        </p>
      ) : (
        <div>
          <h3 style={h3Style}>{t('imported.barsTitle')}</h3>
          <ExportFrame
            name={`imported-${name}-first-token`}
            title={t('imported.barsExportTitle', { name })}
            json={() => ({ imported: true, name, minQuery, layers: layers.map((l) => ({ layer: l.layer, label: l.label, firstTokenShare: l.firstTokenShare, uniformBaseline: l.sink.uniformBaseline })) })}
          >
            <ShareBars layers={layers} />
          </ExportFrame>
        </div>
      )}
    </section>
  );
}

/** Many heads (e.g. Qwen3-8B's 32): the grid's cells drop the leading zero and padding so that a row fits 1,300 px. */
const COMPACT_HEADS = 16;

function SinkRow({ l, cols, meanOnly, na }: { l: ImportedLayerSummary; cols: number; meanOnly: boolean; na: string }) {
  const t = useT();
  const name = layerName(t, l);
  const layerMean = l.heads === null && !meanOnly;
  const compact = cols > COMPACT_HEADS;
  const cellStyle = compact ? compactCell : baseCell;
  const cellText = (v: number) => (compact ? v.toFixed(2).replace(/^0\./, '.') : v.toFixed(2));
  return (
    <tr data-layer={l.index}>
      <th style={{ ...headStyle, textAlign: 'left', maxWidth: 260, whiteSpace: l.layer !== null ? 'nowrap' : 'normal' }} title={name}>
        {l.layer !== null ? l.layer : name}
      </th>
      {Array.from({ length: cols }, (_, h) => {
        // A layer holding only the mean, in a file where others store heads: its one value spans the head columns.
        if (layerMean && h > 0) return null;
        const v = l.sink.perHead[h] ?? null;
        const span = layerMean ? cols : undefined;
        if (v === null)
          return (
            <td key={h} colSpan={span} style={{ ...cellStyle, background: '#e0e0e0', color: 'var(--c-muted)' }} title={t('sink.cellNa', { layer: name, head: h })}>
              {h < l.sink.perHead.length ? na : ''}
            </td>
          );
        const c = Math.min(1, Math.max(0, v));
        const sink = l.heads !== null && v > SINK_HEAD_THRESHOLD;
        return (
          <td
            key={h}
            colSpan={span}
            data-role="imported-sink-cell"
            data-head={l.heads === null ? 'mean' : h}
            data-value={v}
            data-sink={sink ? 'true' : undefined}
            title={l.heads === null ? t('imported.cellMean', { layer: name, value: v.toPrecision(4) }) : t(sink ? 'sink.cellSink' : 'sink.cell', { layer: name, head: h, value: v.toPrecision(4) })}
            style={{ ...cellStyle, background: rgbHex(sampleColormap('magma', c)), color: inkOn(c), outline: sink ? '2px solid #00b4d8' : undefined, outlineOffset: -2, textAlign: layerMean ? 'center' : 'right' }}
          >
            {cellText(v)}
          </td>
        );
      })}
      {!meanOnly && (
        <td style={{ ...cellStyle, fontWeight: 600 }} data-role="imported-first-share" data-value={l.firstTokenShare ?? ''}>
          {fmt(l.firstTokenShare, na)}
        </td>
      )}
      <td style={{ ...cellStyle, color: 'var(--c-muted)' }} data-role="imported-uniform" data-value={l.sink.uniformBaseline ?? ''}>{fmt(l.sink.uniformBaseline, na)}</td>
      <td style={{ ...cellStyle, color: 'var(--c-muted)' }} data-role="imported-sink-heads">
        {l.sink.qualifyingQueries === 0 ? na : l.heads === null ? t('imported.sinkHeadsNa') : `${l.sink.sinkHeads}/${l.sink.perHead.length}`}
      </td>
      <td style={{ ...cellStyle, color: 'var(--c-muted)' }} data-role="imported-qualifying">{l.sink.qualifyingQueries}</td>
    </tr>
  );
}

/** First-token share (head mean of the sink score) per layer, labelled with the model's layer indices. */
function ShareBars({ layers }: { layers: ImportedLayerSummary[] }) {
  const t = useT();
  const na = t('panels.na');
  const bars = layers.map((l) => ({
    label: l.layer ?? '?',
    value: l.firstTokenShare,
    uniform: l.sink.uniformBaseline,
    tooltip: l.firstTokenShare === null ? '' : t('imported.barsTooltip', { layer: layerName(t, l), share: l.firstTokenShare.toFixed(3), uniform: fmt(l.sink.uniformBaseline, na) }),
  }));
  return <LayerBars bars={bars} role="imported-share-bars" aria={t('imported.barsTitle')} xLabel={t('imported.barsX')} yLabel={t('imported.barsY')} wide />;
}
