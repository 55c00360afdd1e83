'use client';
// The imported-attention view's banner: where the numbers come from (source, model, device, the call shown),
// the layers, heads, rows and tokens the file holds, its other metadata and the importer's notes. Metadata
// and notes are user data: rendered as React text only.
import type { ReactNode } from 'react';
import type { ImportedAttention, ImportedLayer } from '../../lib/io/attention/types';
import { isComplete, type ImportedSummary } from '../../lib/analysis/importedViews';
import { useDescribe, useT, type T } from '../common/i18n';
import { callLabel, cut, layerName, mono } from './importedParts';

/** Metadata keys shown on the banner's first lines rather than in the list. */
const PROMINENT = ['model', 'device'];

export function Banner({ attention, shown, call, name, summary }: { attention: ImportedAttention; shown: ImportedAttention; call: number; name: string; summary: ImportedSummary }) {
  const t = useT();
  const describe = useDescribe();
  // The importer's notes in the interface's language (coded), or as text for attention made elsewhere.
  const shownNotes: readonly unknown[] = shown.codedNotes ?? shown.notes;
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
        <h2 style={{ margin: 0, fontSize: 'var(--fs-lg)' }}>{t('imported.title')}</h2>
        <span style={{ background: '#b5651d', color: '#fff', borderRadius: 3, padding: '1px 7px', fontSize: 'var(--fs-xs)', fontWeight: 600 }}>{t('imported.badge')}</span>
        <span data-role="imported-name" style={{ fontFamily: mono, fontSize: 'var(--fs-xs)', color: 'var(--c-text)', overflowWrap: 'anywhere' }}>{name}</span>
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
          <summary style={{ cursor: 'pointer', color: 'var(--c-muted)' }}>{t('imported.meta', { count: rest.length })}</summary>
          <dl style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '1px 12px', margin: '4px 0 0', fontSize: 'var(--fs-xs)' }}>
            {rest.map(([k, v]) => (
              <div key={k} style={{ display: 'contents' }}>
                <dt style={{ color: 'var(--c-muted)', fontFamily: mono }}>{k}</dt>
                <dd style={{ margin: 0, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>{cut(str(v), t)}</dd>
              </div>
            ))}
          </dl>
        </details>
      )}
      {shownNotes.length > 0 && (
        <details data-role="imported-notes" open={shownNotes.length <= 4}>
          <summary style={{ cursor: 'pointer', color: 'var(--c-muted)' }}>{t('imported.notes', { count: shownNotes.length })}</summary>
          <ul style={{ margin: '4px 0 0', paddingLeft: 20, fontSize: 'var(--fs-xs)' }}>
            {shownNotes.map((n, i) => (
              <li key={i} style={{ overflowWrap: 'anywhere' }}>{describe(n)}</li>
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
      parts.push(layerName(t, l));

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
