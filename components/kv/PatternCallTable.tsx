'use client';
// One request pattern's calls as a table (experiment 2-3): tokens sent, cached, recomputed, their cost,
// where each call first parts from its best earlier call (in words), and the damage the pattern does.
// The figures are lib/cache/accounting's and lib/agent/patterns'.
import type { BreakPoint, PatternMode, PatternRun } from '../../lib/agent/patterns';
import type { Accounting } from '../../lib/cache/accounting';
import { TOOLS_MESSAGE, type Prompt } from '../../lib/prompt/prompt';
import { displayToken } from '../../lib/prompt/label';
import type { StringKey } from '../../lib/i18n';
import { fmtCost, fmtInt } from './econParts';
import { useT, type T } from '../common/i18n';

export interface ModeResult {
  mode: PatternMode;
  run: PatternRun;
  prompts: Prompt[];
  accounting: Accounting;
  /** Per call: where it first differs from its best earlier call (null for call 1). */
  breaks: (BreakPoint | null)[];
}

/** Where token `b.token` sits, in words: "token 57 “2” · message 0 (system, system text)". */
export function breakPlace(t: T, b: BreakPoint, prompt: Prompt): string {
  const tok = prompt.tokens[b.token];
  const token = tok ? displayToken(tok) : '';
  const segment = t(`segment.${b.segment}` as StringKey);
  if (b.message === TOOLS_MESSAGE) return t('econ.atTools', { token: b.token, text: token, tool: b.part === undefined ? '—' : b.part, segment });
  if (b.message >= prompt.messageCount) return t('econ.atGeneration', { token: b.token, text: token });
  const role = t(`role.${b.role}` as StringKey);
  // "(user, user)" says nothing twice: the segment is named only when it differs from the role.
  return t('econ.atMessage', { token: b.token, text: token, message: b.message, where: b.segment === b.role ? role : t('econ.roleSegment', { role, segment }) });
}

function BreakCell({ r, i }: { r: ModeResult; i: number }) {
  const t = useT();
  const a = r.accounting.calls[i]!;
  if (a.bestEarlier === null) return <span className="muted">{t('econ.firstCall')}</span>;
  const earlier = r.accounting.calls[a.bestEarlier]!;
  if (a.prefixMatch === earlier.sent) return <span>{t('econ.extends', { call: a.bestEarlier + 1, tokens: a.prefixMatch })}</span>;
  const b = r.breaks[i];
  return (
    <span>
      <strong style={{ color: 'var(--c-error)' }}>{b ? breakPlace(t, b, r.prompts[i]!) : a.firstDifference}</strong>
      <br />
      <span className="muted">{t('econ.shares', { call: a.bestEarlier + 1, tokens: a.prefixMatch })}</span>
    </span>
  );
}

export function CallTable({ r, lang }: { r: ModeResult; lang: 'en' | 'zh' }) {
  const t = useT();
  // Headers wrap (two short lines beat a table wider than its panel); numbers do not.
  const th = { textAlign: 'right' as const, padding: '4px 8px', borderBottom: '1px solid var(--c-border-strong)', fontWeight: 600, verticalAlign: 'bottom' as const };
  const td = { textAlign: 'right' as const, padding: '4px 8px', borderBottom: '1px solid var(--c-border)', fontVariantNumeric: 'tabular-nums' as const, verticalAlign: 'top' as const, whiteSpace: 'nowrap' as const };
  const tot = r.accounting.totals;
  return (
    <table data-role="pattern-calls-table" style={{ borderCollapse: 'collapse', fontSize: 'var(--fs-sm)', width: '100%' }}>
      <thead>
        <tr>
          <th style={th}>{t('econ.colCall')}</th>
          <th style={th}>{t('econ.colSent')}</th>
          <th style={th}>{t('econ.colCached')}</th>
          <th style={th}>{t('econ.colRecomputed')}</th>
          <th style={th}>{t('econ.colCost')}</th>
          <th style={{ ...th, textAlign: 'left' }}>{t('econ.colBreak')}</th>
          <th style={{ ...th, textAlign: 'left' }}>{t('econ.colDamage')}</th>
        </tr>
      </thead>
      <tbody>
        {r.accounting.calls.map((a, i) => (
          <tr key={i} data-call={i} data-sent={a.sent} data-cached={a.cached} data-first-difference={a.firstDifference ?? ''}>
            <td style={td}>{i + 1}</td>
            <td style={td}>{fmtInt(a.sent)}</td>
            <td style={td} title={a.cached !== a.prefixMatch ? t('econ.roundedTip', { match: a.prefixMatch, cached: a.cached, block: r.accounting.blockSize }) : undefined}>
              {fmtInt(a.cached)}
              {a.cached !== a.prefixMatch && <span className="muted"> ↓</span>}
            </td>
            <td style={td}>{fmtInt(a.recomputed)}</td>
            <td style={td}>{fmtCost(a.cost)}</td>
            <td style={{ ...td, textAlign: 'left', whiteSpace: 'normal', minWidth: 140 }}>
              <BreakCell r={r} i={i} />
            </td>
            <td data-role="pattern-damage" style={{ ...td, textAlign: 'left', whiteSpace: 'normal', minWidth: 180 }}>
              {r.run.calls[i]!.damage[lang]}
            </td>
          </tr>
        ))}
        <tr style={{ fontWeight: 600 }}>
          <td style={td}>{t('econ.total')}</td>
          <td style={td}>{fmtInt(tot.sent)}</td>
          <td style={td}>{fmtInt(tot.cached)}</td>
          <td style={td}>{fmtInt(tot.recomputed)}</td>
          <td style={td}>{fmtCost(tot.cost)}</td>
          <td style={{ ...td, textAlign: 'left', whiteSpace: 'normal' }} colSpan={2}>
            {t('econ.totalLine', { ratio: (100 * tot.cacheRatio).toFixed(1), uncached: fmtInt(tot.uncachedCost) })}
          </td>
        </tr>
      </tbody>
      <caption className="muted small" style={{ captionSide: 'bottom', textAlign: 'left', paddingTop: 4 }}>{t('econ.tableNote', { block: r.accounting.blockSize })}</caption>
    </table>
  );
}
