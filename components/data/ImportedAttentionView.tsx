'use client';
// Attention computed elsewhere (lib/io/attention), shown with kvscope's views and clearly labelled as imported: a
// banner saying where the numbers come from and what they are not, then the Heatmap (+ Legend), the file's
// tokens, the sink section (layers × heads, first-token share per layer, where attention rests) and the
// position-bias chart. Every number comes from lib/analysis/importedViews.ts; token strings are user data and are
// rendered as text only (React text nodes and attributes, never HTML).
import { useMemo, useState, type ReactNode } from 'react';
import type { ImportedAttention, ImportedLayer } from '../../lib/io/attention/types';
import {
  attentionOfCall,
  colourMax,
  hasOwnAttention,
  headChoices,
  importedSummary,
  isComplete,
  squareMatrix,
  type HeadReduction,
  type ImportedLayerSummary,
  type ImportedSummary,
} from '../../lib/analysis/importedViews';
import { DEFAULT_MIN_QUERY, SINK_HEAD_THRESHOLD } from '../../lib/analysis/sink';
import { visibleWhitespace } from '../../lib/prompt/label';
import { DEFAULT_COLORMAP, DEFAULT_GAMMA, MASK_RGB, makeScale, rgbHex, sampleColormap, type ColormapName, type ScaleKind } from '../../lib/view/colormap';
import { matrixJson } from '../../lib/io/export';
import { ExportFrame } from '../common/ExportFrame';
import { Heatmap } from '../attention/Heatmap';
import { Legend } from '../charts/Legend';
import { PositionBiasChart } from '../charts/PositionBiasChart';
import { LayerBars, MagmaLegend, TopReceiversTable } from '../attention/SinkPanel';
import { ColormapSelect, GammaSlider, HideSinkToggle, ScaleSelect } from '../common/ViewSelects';
import { useT, type T } from '../common/i18n';

export interface ImportedAttentionViewProps {
  attention: ImportedAttention;
  /** The import's name (file name or the user's). */
  name: string;
}

const mono = 'ui-monospace, monospace';
const cellStyle = { padding: '2px 5px', textAlign: 'right' as const, font: `11px ${mono}` };
const baseCell = cellStyle;
const compactCell = { padding: '2px 2px', textAlign: 'right' as const, font: `10px ${mono}` };
const headStyle = { padding: '2px 5px', font: `11px ${mono}`, color: '#555', fontWeight: 'normal' as const };
const wrapHead = { ...headStyle, whiteSpace: 'normal' as const, maxWidth: 70, lineHeight: 1.2, verticalAlign: 'bottom' as const };
const h3Style = { margin: '0 0 4px', fontSize: 14 };
const noteStyle = { margin: '4px 0 0', color: '#555', fontSize: 12, maxWidth: 900 };
const HEATMAP_PX = 640;
const TOP_N = 8;
/** Longest metadata string shown in full; longer ones are cut with their length noted. */
const META_CHARS = 160;
/** Metadata keys shown on the banner's first lines rather than in the list. */
const PROMINENT = ['model', 'device'];

/** Text colour readable on a magma cell of value t. */
const inkOn = (t: number) => (t > 0.6 ? '#000' : '#fff');
const fmt = (v: number | null, na: string, digits = 3) => (v === null ? na : v.toFixed(digits));

/** A layer's short name for tables and selects: "layer 27", or the importer's label when the index is unknown. */
function layerName(t: T, l: { layer: number | null; label: string }): string {
  return l.layer !== null ? t('imported.layerN', { layer: l.layer }) : l.label;
}

function headName(t: T, h: HeadReduction, meanOnly: boolean): string {
  if (meanOnly) return t('imported.headMeanExported');
  return h === 'mean' ? t('head.mean') : h === 'max' ? t('head.max') : t('head.one', { head: h });
}

function cut(v: string, t: T): string {
  return v.length <= META_CHARS ? v : v.slice(0, META_CHARS) + t('imported.cut', { chars: v.length });
}

export function ImportedAttentionView({ attention, name }: ImportedAttentionViewProps) {
  const t = useT();
  const own = hasOwnAttention(attention);
  const [call, setCall] = useState<number>(own ? -1 : 0);
  const a = attentionOfCall(attention, call);
  const [layerPick, setLayerPick] = useState(0);
  const [headPick, setHeadPick] = useState<HeadReduction>('mean');
  const [scaleKind, setScaleKind] = useState<ScaleKind>('linear');
  const [gamma, setGamma] = useState(DEFAULT_GAMMA);
  const [map, setMap] = useState<ColormapName>(DEFAULT_COLORMAP);
  const [hideSink, setHideSink] = useState(false);

  const li = Math.min(layerPick, Math.max(0, a.layers.length - 1));
  const layer: ImportedLayer | undefined = a.layers[li];
  const choices = layer ? headChoices(layer) : ['mean' as const];
  const head: HeadReduction = choices.some((c) => c === headPick) ? headPick : 'mean';
  const meanOnlyLayer = layer?.heads === 'mean';
  const K = layer?.keys ?? 0;

  const summary = useMemo(() => importedSummary(a, TOP_N), [a]);
  const matrix = useMemo(() => (layer ? squareMatrix(layer, head, hideSink) : null), [layer, head, hideSink]);
  const scale = useMemo(
    () => makeScale({ kind: scaleKind, gamma, min: 0, max: matrix ? colourMax(matrix, K, DEFAULT_MIN_QUERY) : 1 }),
    [matrix, K, scaleKind, gamma],
  );
  const labels = useMemo(() => a.tokens.slice(0, K).map(visibleWhitespace), [a.tokens, K]);
  const hName = headName(t, head, meanOnlyLayer);
  const sourceName = a.source === 'attention_visualization' ? t('imported.sourceTrajectoryShort') : t('imported.sourceKvscopeShort');
  const stem = `imported-${name}-${layer ? (layer.layer ?? `i${li}`) : ''}-${meanOnlyLayer ? 'mean' : head}`;

  return (
    <section data-role="imported-attention-view" style={{ display: 'grid', gap: 16, font: '13px system-ui, sans-serif', color: '#222', maxWidth: 1300 }}>
      <Banner attention={attention} shown={a} call={call} name={name} summary={summary} />

      {a.layers.length === 0 || !layer || !matrix ? (
        <p style={{ color: '#888' }}>{t('imported.noLayers')}</p>
      ) : (
        <>
          <div data-role="imported-controls" style={{ display: 'flex', gap: 14, flexWrap: 'wrap', alignItems: 'center', padding: '8px 10px', background: '#f6f6f6', borderRadius: 4 }}>
            {attention.calls.length > 0 && (
              <label>
                {t('imported.call')}{' '}
                <select data-control="call" value={call} onChange={(e) => setCall(Number(e.target.value))}>
                  {own && <option value={-1}>{t('imported.callOwn')}</option>}
                  {attention.calls.map((c, i) => (
                    <option key={i} value={i}>
                      {callLabel(t, c)}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <label>
              {t('control.layer')}{' '}
              <select data-control="layer" value={li} onChange={(e) => setLayerPick(Number(e.target.value))} disabled={a.layers.length < 2}>
                {a.layers.map((l, i) => (
                  <option key={i} value={i}>
                    {layerName(t, l)}
                  </option>
                ))}
              </select>
              {a.layers.length < 2 && <span data-role="imported-one-layer" style={{ color: '#777', marginLeft: 6 }}>{t('imported.onlyLayer')}</span>}
            </label>
            <label>
              {t('control.head')}{' '}
              <select
                data-control="head"
                value={String(head)}
                disabled={choices.length < 2}
                onChange={(e) => setHeadPick(e.target.value === 'mean' || e.target.value === 'max' ? e.target.value : Number(e.target.value))}
              >
                {choices.map((c) => (
                  <option key={String(c)} value={String(c)}>
                    {meanOnlyLayer ? t('imported.headMeanExported') : c === 'mean' ? t('control.headMean') : c === 'max' ? t('control.headMax') : c}
                  </option>
                ))}
              </select>
              {meanOnlyLayer && <span data-role="imported-mean-only" style={{ color: '#777', marginLeft: 6 }}>{t('imported.headNote')}</span>}
            </label>
            <ScaleSelect value={scaleKind} onChange={setScaleKind} />
            {scaleKind === 'power' && <GammaSlider value={gamma} onChange={setGamma} />}
            <ColormapSelect value={map} onChange={setMap} />
            <HideSinkToggle value={hideSink} onChange={setHideSink} />
          </div>

          <div style={{ display: 'flex', gap: 28, flexWrap: 'wrap', alignItems: 'flex-start' }}>
            <div style={{ flex: '0 0 auto' }}>
              <ExportFrame
                name={stem}
                title={t('imported.heatmapTitle', { name, source: sourceName, layer: layer.label, head: hName, scale: t(scaleKind === 'linear' ? 'control.scaleLinear' : scaleKind === 'log' ? 'control.scaleLog' : 'control.scalePower') })}
                json={() => ({
                  kind: 'imported-attention-heatmap',
                  imported: true,
                  name,
                  source: a.source,
                  meta: a.meta,
                  layer: layer.layer,
                  label: layer.label,
                  heads: layer.heads,
                  head: meanOnlyLayer ? 'mean (as exported)' : head,
                  hideSinkColumn: hideSink,
                  scale: { kind: scale.kind, min: scale.min, max: scale.max, gamma: scale.gamma },
                  colormap: map,
                  queryPositions: layer.queryPositions,
                  tokens: a.tokens.slice(0, K),
                  // K × K as drawn: rows = query positions, absent cells (rows not in the file, keys after the row) null.
                  matrix: matrixJson(matrix, K, K),
                })}
              >
                <div style={{ display: 'grid', gap: 8 }}>
                  <div data-role="imported-heatmap-caption" style={{ fontWeight: 600 }}>
                    {t('imported.heatmapCaption', { layer: layer.label, head: hName })}
                  </div>
                  <Heatmap matrix={matrix} size={K} labels={labels} scale={scale} map={map} px={HEATMAP_PX} absentText={t('imported.absentCell')} />
                  <Legend scale={scale} map={map} />
                </div>
              </ExportFrame>
              <div style={{ color: '#555', fontSize: 12, maxWidth: 720, marginTop: 6, display: 'grid', gap: 3 }}>
                <div>{t('legend.range', { max: scale.max.toPrecision(3), minQuery: DEFAULT_MIN_QUERY })}</div>
                <div data-role="imported-absent-legend" style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
                  <span style={{ width: 12, height: 12, background: rgbHex(MASK_RGB), outline: '1px solid #bbb', flex: '0 0 auto' }} />
                  {isComplete(layer) ? t('imported.greyCausal') : t('imported.greyAbsent', { rows: layer.queries, keys: K })}
                </div>
                {hideSink && <div>{t('legend.hiddenSink')}</div>}
              </div>
            </div>
            <div style={{ flex: '1 1 380px', minWidth: 340, display: 'grid', gap: 14 }}>
              <TokenList tokens={a.tokens} keys={K} present={layer.queryPositions} complete={isComplete(layer)} />
              <TopReceivers summary={summary} tokens={a.tokens} name={name} />
            </div>
          </div>

          <SinkSection summary={summary} name={name} />
          <BiasSection summary={summary} name={name} />
        </>
      )}
    </section>
  );
}

function callLabel(t: T, c: ImportedAttention['calls'][number]): string {
  const parts = [t('imported.callN', { index: c.index })];
  if (c.stepNum !== null) parts.push(t('imported.stepN', { step: c.stepNum }));
  if (c.stepType !== null) parts.push(c.stepType);
  return parts.join(' · ');
}

// ---- banner ---------------------------------------------------------------------------------------------

function Banner({ attention, shown, call, name, summary }: { attention: ImportedAttention; shown: ImportedAttention; call: number; name: string; summary: ImportedSummary }) {
  const t = useT();
  const meta = shown.meta;
  const rest = Object.entries(meta).filter(([k]) => !PROMINENT.includes(k));
  const str = (v: unknown) => (v === null ? 'null' : String(v));
  const layers = shown.layers;
  const K = summary.keys;
  const T = shown.tokens.length;
  const headsLine = summary.meanOnly
    ? t('imported.headsMean')
    : layers.every((l) => l.heads === layers[0]!.heads)
      ? t('imported.headsCount', { heads: layers[0]!.heads })
      : t('imported.headsMixed', { detail: layers.map((l) => `${layerName(t, l)}: ${l.heads === 'mean' ? t('imported.meanShort') : l.heads}`).join(' · ') });
  const rowsLine = (() => {
    const l = layers[0];
    if (!l) return null;
    if (layers.every(isComplete)) return t('imported.rowsAll', { rows: l.queries });
    const qs = l.queryPositions;
    return t('imported.rowsSome', { rows: l.queries, keys: K, from: qs[0]!, to: qs[qs.length - 1]! });
  })();
  const line = (children: ReactNode, role?: string) => (
    <div data-role={role} style={{ lineHeight: 1.5 }}>
      {children}
    </div>
  );
  const current = call >= 0 ? attention.calls[call] : undefined;
  return (
    <div
      data-role="imported-banner"
      role="note"
      style={{ border: '2px solid #b5651d', background: '#fff7ec', borderRadius: 6, padding: '10px 14px', display: 'grid', gap: 4, maxWidth: 1300, boxSizing: 'border-box' }}
    >
      <div style={{ display: 'flex', gap: 10, alignItems: 'baseline', flexWrap: 'wrap' }}>
        <h2 style={{ margin: 0, fontSize: 17 }}>{t('imported.title')}</h2>
        <span style={{ background: '#b5651d', color: '#fff', borderRadius: 3, padding: '1px 7px', fontSize: 12, fontWeight: 600 }}>{t('imported.badge')}</span>
        <span data-role="imported-name" style={{ fontFamily: mono, fontSize: 12, color: '#333', overflowWrap: 'anywhere' }}>{name}</span>
      </div>
      {line(t('imported.lead'), 'imported-lead')}
      {line(
        <>
          <strong>{attention.source === 'attention_visualization' ? t('imported.sourceTrajectory') : t('imported.sourceKvscope')}</strong>
          {' · '}
          {typeof meta.model === 'string' && meta.model !== '' ? t('imported.model', { model: cut(meta.model, t) }) : t('imported.modelUnknown')}
          {meta.device !== undefined && meta.device !== null && <> · {t('imported.device', { device: cut(str(meta.device), t) })}</>}
        </>,
        'imported-source',
      )}
      {attention.calls.length > 0 &&
        line(
          <>
            {t('imported.callsLine', { count: attention.calls.length })}
            {' '}
            <strong>{current ? callLabel(t, current) : t('imported.callOwn')}</strong>
          </>,
          'imported-calls',
        )}
      {line(t('imported.layersLine', { count: layers.length, labels: layerList(t, layers) }), 'imported-layers')}
      {line(headsLine, 'imported-heads')}
      {rowsLine && line(rowsLine, 'imported-rows')}
      {line(t('imported.tokensLine', { tokens: T, keys: K }) + (K < T ? ' ' + t('imported.tokensBeyond', { keys: K, tokens: T }) : ''), 'imported-tokens-line')}
      {rest.length > 0 && (
        <details data-role="imported-meta" open={rest.length <= 10}>
          <summary style={{ cursor: 'pointer', color: '#444' }}>{t('imported.meta', { count: rest.length })}</summary>
          <dl style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '1px 12px', margin: '4px 0 0', fontSize: 12 }}>
            {rest.map(([k, v]) => (
              <div key={k} style={{ display: 'contents' }}>
                <dt style={{ color: '#666', fontFamily: mono }}>{k}</dt>
                <dd style={{ margin: 0, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>{cut(str(v), t)}</dd>
              </div>
            ))}
          </dl>
        </details>
      )}
      {shown.notes.length > 0 && (
        <details data-role="imported-notes" open={shown.notes.length <= 4}>
          <summary style={{ cursor: 'pointer', color: '#444' }}>{t('imported.notes', { count: shown.notes.length })}</summary>
          <ul style={{ margin: '4px 0 0', paddingLeft: 20, fontSize: 12 }}>
            {shown.notes.map((n, i) => (
              <li key={i} style={{ overflowWrap: 'anywhere' }}>{n}</li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/** "layer 3 · layer 27", runs of consecutive indices as ranges ("layers 0–35"), unknown layers by their label. */
function layerList(t: T, layers: ImportedLayer[]): string {
  const parts: string[] = [];
  for (let i = 0; i < layers.length; ) {
    const l = layers[i]!;
    if (l.layer === null) {
      parts.push(l.label);
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < layers.length && layers[j + 1]!.layer === layers[j]!.layer! + 1) j++;
    parts.push(j - i >= 2 ? t('imported.layerRange', { from: l.layer, to: layers[j]!.layer! }) : layers.slice(i, j + 1).map((x) => t('imported.layerN', { layer: x.layer! })).join(' · '));
    i = j + 1;
  }
  return parts.join(' · ');
}

// ---- tokens ---------------------------------------------------------------------------------------------

/** The file's token strings as text (whitespace made visible); rows present in the file highlighted. */
function TokenList({ tokens, keys, present, complete }: { tokens: string[]; keys: number; present: number[]; complete: boolean }) {
  const t = useT();
  const rows = useMemo(() => new Set(present), [present]);
  const items = useMemo(
    () =>
      tokens.map((tok, i) => {
        const inRows = !complete && rows.has(i);
        const beyond = i >= keys;
        return (
          <span
            key={i}
            data-token={i}
            title={`${i}: ${JSON.stringify(tok)}`}
            style={{
              font: `12px ${mono}`,
              padding: '1px 3px',
              borderRadius: 3,
              whiteSpace: 'pre',
              background: inRows ? '#dbe9ff' : '#f1f1f1',
              color: beyond ? '#999' : '#222',
              outline: inRows ? '1px solid #8fb3ee' : undefined,
            }}
          >
            {visibleWhitespace(tok)}
          </span>
        );
      }),
    [tokens, keys, rows, complete],
  );
  return (
    <div>
      <h3 style={h3Style}>{t('imported.tokensTitle', { count: tokens.length })}</h3>
      <div data-role="imported-tokens" style={{ display: 'flex', flexWrap: 'wrap', gap: 3, maxHeight: 260, overflowY: 'auto', padding: 6, border: '1px solid #ddd', borderRadius: 4, background: '#fff' }}>
        {items}
      </div>
      <p style={noteStyle}>{complete ? t('imported.tokensHint') : t('imported.tokensHintRows')}</p>
    </div>
  );
}

function TopReceivers({ summary, tokens, name }: { summary: ImportedSummary; tokens: string[]; name: string }) {
  const t = useT();
  return (
    <div>
      <h3 style={h3Style}>{t('sink.restTitle')}</h3>
      {summary.top.length === 0 ? (
        <p style={{ margin: 0, color: '#888' }}>{t('sink.restNone', { minQuery: summary.minQuery })}</p>
      ) : (
        <ExportFrame
          name={`imported-${name}-top`}
          title={t('imported.topTitle', { name })}
          json={() => ({ imported: true, name, minQuery: summary.minQuery, top: summary.top.map((r) => ({ ...r, token: tokens[r.key] ?? null })) })}
        >
          <TopReceiversTable role="imported-top" rows={summary.top} label={(key) => visibleWhitespace(tokens[key] ?? '')} />
        </ExportFrame>
      )}
      <p style={noteStyle}>{t('imported.restCaption', { minQuery: summary.minQuery })}</p>
    </div>
  );
}

// ---- sink -----------------------------------------------------------------------------------------------

function SinkSection({ summary, name }: { summary: ImportedSummary; name: string }) {
  const t = useT();
  const na = t('panels.na');
  const { layers, maxHeads, meanOnly, minQuery } = summary;
  // Columns: one per stored head, or a single "mean (as exported)" column when no layer stores heads.
  const cols = meanOnly ? 1 : maxHeads;
  return (
    <section data-role="imported-sink" style={{ display: 'grid', gap: 10 }}>
      <div>
        <h2 style={{ margin: '0 0 4px', fontSize: 16 }}>{t('imported.sinkTitle')}</h2>
        <p style={{ margin: 0, color: '#444', maxWidth: 1000 }}>{t('sink.explain', { minQuery, threshold: SINK_HEAD_THRESHOLD })}</p>
        <p style={noteStyle}>{t('imported.sinkRows', { minQuery })}</p>
        {summary.lowered && (
          <p data-role="imported-minquery-note" style={{ ...noteStyle, color: '#a15c00' }}>
            {t('imported.minQueryNote', { last: summary.lastRow, minQuery, default: DEFAULT_MIN_QUERY })}
          </p>
        )}
        {meanOnly && (
          <p data-role="imported-sink-mean-only" style={{ ...noteStyle, color: '#a15c00' }}>
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
                    <th key={h} style={cols > COMPACT_HEADS ? { ...headStyle, padding: '2px 1px', fontSize: 10 } : headStyle}>{meanOnly ? t('imported.headMeanExported') : t('sink.colHead', { head: h })}</th>
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
        <p data-role="imported-bars-one" style={{ margin: 0, color: '#666' }}>
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
      <th style={{ ...headStyle, textAlign: 'left', maxWidth: 260, whiteSpace: l.layer !== null ? 'nowrap' : 'normal' }} title={l.label}>
        {l.layer !== null ? l.layer : l.label}
      </th>
      {Array.from({ length: cols }, (_, h) => {
        // A layer holding only the mean, in a file where others store heads: its one value spans the head columns.
        if (layerMean && h > 0) return null;
        const v = l.sink.perHead[h] ?? null;
        const span = layerMean ? cols : undefined;
        if (v === null)
          return (
            <td key={h} colSpan={span} style={{ ...cellStyle, background: '#e0e0e0', color: '#666' }} title={t('sink.cellNa', { layer: name, head: h })}>
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
      <td style={{ ...cellStyle, color: '#555' }} data-role="imported-uniform" data-value={l.sink.uniformBaseline ?? ''}>{fmt(l.sink.uniformBaseline, na)}</td>
      <td style={{ ...cellStyle, color: '#555' }} data-role="imported-sink-heads">
        {l.sink.qualifyingQueries === 0 ? na : l.heads === null ? t('imported.sinkHeadsNa') : `${l.sink.sinkHeads}/${l.sink.perHead.length}`}
      </td>
      <td style={{ ...cellStyle, color: '#555' }} data-role="imported-qualifying">{l.sink.qualifyingQueries}</td>
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

// ---- position bias --------------------------------------------------------------------------------------

function BiasSection({ summary, name }: { summary: ImportedSummary; name: string }) {
  const t = useT();
  const { layers, minQuery } = summary;
  const bias = layers.map((l) => l.bias);
  const map = layers.map((l, i) => t('imported.biasMapEntry', { i, layer: layerName(t, l) })).join(' · ');
  return (
    <section data-role="imported-bias" style={{ display: 'grid', gap: 6 }}>
      <div>
        <h2 style={{ margin: '0 0 4px', fontSize: 16 }}>{t('bias.title')}</h2>
        <p style={{ margin: 0, color: '#444', maxWidth: 1000 }}>{t('bias.explain', { minQuery })}</p>
        <p style={noteStyle}>{t('imported.biasRows', { minQuery })}</p>
        {!summary.sameRows && <p style={{ ...noteStyle, color: '#a15c00' }}>{t('imported.biasRowsDiffer')}</p>}
        {layers.length < 2 ? (
          <p data-role="imported-bias-one" style={{ ...noteStyle, color: '#a15c00' }}>{t('imported.biasOne', { layer: layers[0] ? layers[0].label : '' })}</p>
        ) : (
          layers.some((l, i) => l.layer !== i) && <p data-role="imported-bias-map" style={noteStyle}>{t('imported.biasMap', { map })}</p>
        )}
      </div>
      {/* PositionBiasChart carries its own ExportFrame (its JSON numbers layers by chart position, mapped above). */}
      <PositionBiasChart bias={bias} uniform={summary.uniform} minQuery={minQuery} exportName={`imported-${name}-position-bias`} exportTitle={t('imported.biasExportTitle', { name, map })} />
    </section>
  );
}
