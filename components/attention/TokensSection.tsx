'use client';
// The prompt's tokens (TokenView), tinted by the selected query's attention row (the matrix the heatmap shows),
// and the selected query's strongest keys.
import { useMemo } from 'react';
import { topReceivers } from '../../lib/analysis/sink';
import type { Analysed } from '../../lib/state/analysed';
import { MARK_COLORS } from '../../lib/view/palette';
import { rowTint } from '../../lib/view/tokenTint';
import { useT } from '../common/i18n';
import { TokenView } from './TokenView';

/** Keys listed after the selected query. */
const TOP = 5;

export interface TokensSectionProps {
  data: Analysed;
  matrix: Float32Array | null;
  selected: number | null;
  onSelect: (i: number | null) => void;
  height?: number;
  /** What `matrix` is ("layer 27 · mean of 16 heads"), named beside the tint's legend; absent: not named. */
  what?: string;
}

export function TokensSection({ data, matrix, selected, onSelect, height = 220, what }: TokensSectionProps) {
  const t = useT();
  const T = data.tokens;
  const tint = useMemo(() => (matrix ? rowTint(matrix, T, selected) : null), [matrix, T, selected]);
  const top = tint ? topReceivers(Float64Array.from(tint.weights), TOP) : [];
  return (
    <section aria-label={t('section.tokens')} data-role="tokens-section">
      <h2 style={{ fontSize: 'var(--fs-md)', margin: '0 0 var(--sp-1)' }}>{t('section.tokens')}</h2>
      <TokenView tokens={data.prompt.tokens} spans={data.prompt.spans} selected={selected} onSelect={onSelect} height={height} tint={tint} tintSource={what} />
      <div id="selection" data-role="selection" style={{ fontSize: 'var(--fs-sm)', marginTop: 'var(--sp-2)', lineHeight: 1.9 }}>
        {selected === null || !tint ? (
          <span className="muted">{t('selection.hint')}</span>
        ) : (
          <>
            <span style={{ fontWeight: 600 }}>{t('selection.row', { index: selected, label: data.labels[selected] ?? '' })}</span>{' '}
            {top.map((k) => (
              <span
                key={k.key}
                data-top-key={k.key}
                title={t('heatmap.topKey', { k: k.key, label: data.labels[k.key] ?? '', w: k.weight.toPrecision(6) })}
                style={{ display: 'inline-block', marginRight: 'var(--sp-2)', padding: '0 6px', borderRadius: 4, border: `1px solid ${MARK_COLORS.select}`, fontFamily: 'var(--font-mono)', whiteSpace: 'pre', lineHeight: 1.5 }}
              >
                <span className="muted">{k.key}</span> {data.labels[k.key]} <b>{k.weight.toFixed(3)}</b>
              </span>
            ))}
          </>
        )}
      </div>
    </section>
  );
}
