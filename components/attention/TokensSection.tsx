'use client';
// The prompt's tokens (TokenView) with the selected query's strongest keys.
import { topReceivers } from '../../lib/analysis/sink';
import type { Analysed } from '../../lib/state/analysed';
import { useT } from '../common/i18n';
import { TokenView } from './TokenView';

export function TokensSection({ data, matrix, selected, onSelect }: { data: Analysed; matrix: Float32Array | null; selected: number | null; onSelect: (i: number | null) => void }) {
  const t = useT();
  const T = data.tokens;
  return (
    <section aria-label={t('section.tokens')}>
      <h2 style={{ fontSize: 16, margin: '4px 0' }}>{t('section.tokens')}</h2>
      <TokenView tokens={data.prompt.tokens} spans={data.prompt.spans} selected={selected} onSelect={onSelect} height={220} />
      <div id="selection" style={{ fontSize: 13, color: '#333', marginTop: 4, fontFamily: 'ui-monospace, monospace' }}>
        {selected === null || !matrix
          ? t('selection.hint')
          : `${t('selection.row', { index: selected, label: data.labels[selected] ?? '' })} ${topReceivers(Float64Array.from(matrix.subarray(selected * T, selected * T + selected + 1)), 5)
              .map((k) => `${k.key} ${data.labels[k.key]} ${k.weight.toFixed(3)}`)
              .join(' · ')}`}
      </div>
    </section>
  );
}

