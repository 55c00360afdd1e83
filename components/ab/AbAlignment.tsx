'use client';
// How the two A/B arms line up: the shared prefix and where they part, part by part (AbAlignment); and the
// measured identity of the shared-prefix rows' attention, layer by layer (SharedRows). The figures are
// lib/analysis/abCompare's (alignArms, sharedRowsDiff).
import { TOOLS_MESSAGE, type Prompt } from '../../lib/prompt/prompt';
import { useT, type T } from '../common/i18n';
import { abStyle } from './abStyle';
import type { Prepared } from './useAbArms';

/** Where token `i` sits, in words: the tools block, the generation prompt, or message n. */
export function partName(t: T, p: Prompt, i: number): string {
  const s = p.spans.find((x) => x.start <= i && i < x.end);
  if (!s) return '—';
  if (s.message === TOOLS_MESSAGE) return t('ab.part.tools');
  if (s.message === p.messageCount) return t('ab.part.generation');
  return t('ab.part.message', { n: s.message, role: t(`role.${s.role}`) });
}

const cell = { padding: '2px 10px' } as const;
const first = { padding: '2px 10px 2px 0' } as const;

export function AbAlignment({ prepared }: { prepared: Prepared }) {
  const t = useT();
  const { alignment: al, a, b } = prepared;
  const P = al.sharedPrefix;
  return (
    <section className="panel" style={abStyle.box} aria-label={t('ab.align.title')} data-role="ab-alignment" data-shared-prefix={P}>
      <h3 style={{ margin: 0 }}>{t('ab.align.title')}</h3>
      <p style={abStyle.intro}>
        {al.firstDifference !== null
          ? t('ab.align.summary', { ta: al.tokens.a, tb: al.tokens.b, p: P, last: P - 1, first: al.firstDifference, fa: a.labels[P] ?? '', fb: b.labels[P] ?? '' })
          : t('ab.align.prefixOnly', { ta: al.tokens.a, tb: al.tokens.b, p: P })}
      </p>
      {P > 0 && partName(t, a.prompt, P - 1) !== partName(t, b.prompt, P - 1) && (
        <p style={{ ...abStyle.intro, color: 'var(--c-text)', background: 'var(--c-warn-soft)', padding: '6px 10px', borderRadius: 'var(--radius)' }} data-role="ab-imstart-note">
          {t('ab.align.imStart', { i: P - 1, token: a.labels[P - 1] ?? '', pa: partName(t, a.prompt, P - 1), pb: partName(t, b.prompt, P - 1) })}
        </p>
      )}
      <details data-role="view-secondary">
        <summary style={{ cursor: 'pointer', fontSize: 'var(--fs-sm)' }}>{t('ab.align.parts', { n: al.parts.length })}</summary>
        <table style={{ borderCollapse: 'collapse', fontSize: 'var(--fs-sm)', marginTop: 4 }} data-role="ab-parts">
          <thead>
            <tr style={{ textAlign: 'left', borderBottom: '1px solid var(--c-border)' }}>
              <th style={first}>{t('ab.align.part')}</th>
              <th style={cell}>{t('ab.align.status')}</th>
              <th style={cell}>{t('ab.align.tokensA')}</th>
              <th style={cell}>{t('ab.align.tokensB')}</th>
            </tr>
          </thead>
          <tbody>
            {al.parts.map((p, i) => (
              <tr key={i} data-status={p.status}>
                <td style={first}>
                  {p.part === 'tools' ? t('ab.part.tools') : p.part === 'generation' ? t('ab.part.generation') : t('ab.part.message', { n: p.message.a ?? p.message.b ?? 0, role: t(`role.${p.role}`) })}
                </td>
                <td style={cell} title={t(`ab.status.${p.status}Title`)}>
                  {t(`ab.status.${p.status}`)}
                </td>
                <td style={cell}>{p.a ? `${p.a.start}–${p.a.end - 1}` : '—'}</td>
                <td style={cell}>{p.b ? `${p.b.start}–${p.b.end - 1}` : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}

const wide = { padding: '2px 12px' } as const;
const wideFirst = { padding: '2px 12px 2px 0' } as const;
const exp = (x: number) => (x === 0 ? '0' : x.toExponential(2));

export function SharedRows({ prepared }: { prepared: Prepared }) {
  const t = useT();
  const { shared, alignment: al } = prepared;
  const P = al.sharedPrefix;
  const yesNo = (b: boolean) => (b ? t('ab.shared.yes') : t('ab.shared.no'));
  return (
    <section className="panel" style={abStyle.box} aria-label={t('ab.shared.title')} data-role="ab-shared" data-max={shared.max} data-bit-identical={String(shared.bitIdentical)}>
      <h3 style={{ margin: 0 }}>{t('ab.shared.title')}</h3>
      <p style={abStyle.intro} data-role="view-secondary">
        {t('ab.shared.intro', { p: P, last: P - 1 })}
      </p>
      <div data-role="ab-shared-verdict">
        {shared.bitIdentical
          ? t('ab.shared.identical', { rows: shared.rows, values: shared.perLayer.reduce((s, l) => s + l.compared, 0).toLocaleString('en-US') })
          : t('ab.shared.differs', { rows: shared.rows, max: shared.max.toExponential(2) })}
      </div>
      {!shared.bitIdentical && (
        <p style={{ ...abStyle.intro, color: shared.max < 1e-5 ? 'var(--c-muted)' : 'var(--c-error)' }}>
          {shared.max < 1e-5 ? t('ab.shared.rounding', { ta: al.tokens.a, tb: al.tokens.b }) : t('ab.shared.tooLarge')}
        </p>
      )}
      <div data-role="view-secondary" style={{ overflowX: 'auto' }}>
      <table style={{ borderCollapse: 'collapse', fontSize: 'var(--fs-sm)' }} data-role="ab-shared-table">
        <thead>
          <tr style={{ textAlign: 'left', borderBottom: '1px solid var(--c-border)' }}>
            <th style={wideFirst}>{t('control.layer')}</th>
            <th style={wide}>{t('ab.shared.maxAbs')}</th>
            <th style={wide}>{t('ab.shared.bits')}</th>
            <th style={wide}>{t('ab.shared.where')}</th>
            <th style={wide}>{t('ab.shared.compared')}</th>
          </tr>
        </thead>
        <tbody>
          {shared.perLayer.map((l) => (
            <tr key={l.layer} data-layer={l.layer} data-max={l.maxAbs} data-bit-identical={String(l.bitIdentical)}>
              <td style={wideFirst}>{l.layer}</td>
              <td style={{ ...wide, fontFamily: 'var(--font-mono)' }}>{exp(l.maxAbs)}</td>
              <td style={wide}>{yesNo(l.bitIdentical)}</td>
              <td style={wide}>{l.at ? t('ab.shared.at', { head: l.at.head, q: l.at.query, k: l.at.key }) : '—'}</td>
              <td style={wide}>{l.compared.toLocaleString('en-US')}</td>
            </tr>
          ))}
          <tr style={{ borderTop: '1px solid var(--c-border)', fontWeight: 600 }}>
            <td style={wideFirst}>{t('ab.shared.overall')}</td>
            <td style={{ ...wide, fontFamily: 'var(--font-mono)' }}>{exp(shared.max)}</td>
            <td style={wide}>{yesNo(shared.bitIdentical)}</td>
            <td />
            <td />
          </tr>
        </tbody>
      </table>
      </div>
    </section>
  );
}
