'use client';
// The imported file's tokens (as text, whitespace made visible, the rows it holds highlighted) and where
// attention rests (the keys receiving the most, lib/analysis/importedViews). Token strings are user data:
// rendered as React text only.
import { useMemo } from 'react';
import type { ImportedSummary } from '../../lib/analysis/importedViews';
import { visibleWhitespace } from '../../lib/prompt/label';
import { TopReceiversTable } from '../attention/SinkParts';
import { ExportFrame } from '../common/ExportFrame';
import { useT } from '../common/i18n';
import { h3Style, mono, noteStyle } from './importedParts';

/** The file's token strings as text (whitespace made visible); rows present in the file highlighted. */
export function TokenList({ tokens, keys, present, complete }: { tokens: string[]; keys: number; present: number[]; complete: boolean }) {
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
      <div data-role="imported-tokens" style={{ display: 'flex', flexWrap: 'wrap', gap: 3, maxHeight: 260, overflowY: 'auto', padding: 6, border: '1px solid var(--c-border)', borderRadius: 4, background: 'var(--c-panel)' }}>
        {items}
      </div>
      <p style={noteStyle}>{complete ? t('imported.tokensHint') : t('imported.tokensHintRows')}</p>
    </div>
  );
}

export function TopReceivers({ summary, tokens, name }: { summary: ImportedSummary; tokens: string[]; name: string }) {
  const t = useT();
  return (
    <div>
      <h3 style={h3Style}>{t('sink.restTitle')}</h3>
      {summary.top.length === 0 ? (
        <p style={{ margin: 0, color: 'var(--c-muted)' }}>{t('sink.restNone', { minQuery: summary.minQuery })}</p>
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
