'use client';
// The model's five most likely next tokens at the cursor (plain softmax of the last logits row) beside the
// token that actually comes next, with its probability and rank. Shows lib/generate/stepper's figures.
import type { NextToken } from '../../lib/generate/stepper';
import { useT } from '../common/i18n';

export interface TopPredictionsProps {
  next: NextToken | null;
  /** Display text of a token id. */
  labelOf: (id: number) => string;
  /** Position whose token is predicted (= the cursor). */
  position: number;
  /** The timeline ends at the cursor: nothing comes next yet. */
  atEnd: boolean;
  /** The next token of the timeline is generated (sampled or greedy), not the prompt's. */
  nextGenerated: boolean;
}

const pct = (p: number) => (p >= 0.001 ? `${(100 * p).toFixed(1)}%` : p > 0 ? `${Number((100 * p).toPrecision(2))}%` : '0%');

export function TopPredictions({ next, labelOf, position, atEnd, nextGenerated }: TopPredictionsProps) {
  const t = useT();
  if (!next) return <div className="muted">{t('step.noLogits')}</div>;
  const actual = next.actual;
  return (
    <div data-role="top-predictions" style={{ display: 'grid', gap: 6 }}>
      <div className="muted small">{t('step.topIntro', { position })}</div>
      <table style={{ borderCollapse: 'collapse', fontSize: 'var(--fs-sm)', width: '100%' }}>
        <thead>
          <tr className="muted" style={{ textAlign: 'left', fontSize: 'var(--fs-xs)' }}>
            <th style={{ padding: '2px 6px' }}>{t('step.topRank')}</th>
            <th style={{ padding: '2px 6px' }}>{t('step.topToken')}</th>
            <th style={{ padding: '2px 6px', width: '45%' }}>{t('step.topProb')}</th>
          </tr>
        </thead>
        <tbody>
          {next.top.map((x, i) => {
            const hit = actual?.id === x.id;
            return (
              <tr key={x.id} data-top-id={x.id} data-actual={hit ? 'true' : undefined} style={{ background: hit ? '#e3f2e1' : undefined }}>
                <td style={{ padding: '2px 6px', fontVariantNumeric: 'tabular-nums' }}>{i + 1}</td>
                <td style={{ padding: '2px 6px', fontFamily: 'var(--font-mono)', whiteSpace: 'pre' }}>
                  {labelOf(x.id)} <span style={{ color: '#888', fontSize: 11 }}>#{x.id}</span>
                  {hit && <span style={{ color: '#1b5e20', fontSize: 11 }}> ← {t('step.topActualMark')}</span>}
                </td>
                <td style={{ padding: '2px 6px' }}>
                  <div style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
                    <div style={{ flex: 1, background: '#eee', height: 10, borderRadius: 2 }}>
                      <div style={{ width: `${Math.max(0.5, 100 * x.p)}%`, height: 10, background: '#4a6fa5', borderRadius: 2 }} />
                    </div>
                    <span style={{ width: 56, textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>{pct(x.p)}</span>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div data-role="actual-next" style={{ fontSize: 'var(--fs-sm)', padding: '4px 8px', background: 'var(--c-bg)', borderRadius: 'var(--radius)' }}>
        {atEnd || !actual ? (
          t('step.actualNone')
        ) : (
          <>
            {t(nextGenerated ? 'step.actualGenerated' : 'step.actualPrompt')}{' '}
            <code style={{ whiteSpace: 'pre' }}>{labelOf(actual.id)}</code> <span style={{ color: '#888', fontSize: 11 }}>#{actual.id}</span> —{' '}
            <span data-role="actual-stats">{t('step.actualStats', { p: pct(actual.p), rank: actual.rank })}</span>
          </>
        )}
      </div>
    </div>
  );
}
