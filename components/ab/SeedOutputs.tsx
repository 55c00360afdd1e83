'use client';
// The A/B tab's generated outputs: every seed's decision with its parsed output (thinking, answer, tool
// calls, raw text), and which names the generated calls carry against the conversation's own. Shows what
// lib/generate and lib/analysis/abArms returned.
import type { SeedRun } from '../../lib/generate/abSeeds';
import { generatedTargets, mentioning } from '../../lib/analysis/abArms';
import { visibleWhitespace } from '../../lib/prompt/label';
import { useT, type T } from '../common/i18n';
import type { GenResult } from './DecisionOutcomes';

export const DECISION_COLORS = { call: '#EE7733', refuse: '#009988' } as const;

const clip = (s: string, n: number) => (s.length > n ? s.slice(0, n - 1) + '…' : s);
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

function brief(t: T, r: SeedRun): string {
  const parts: string[] = [];
  for (const c of r.parsed.toolCalls) parts.push(`${t('ab.out.call')} ${c.name || '?'}${c.arguments !== undefined ? ' ' + JSON.stringify(c.arguments) : ''}${c.error ? ' ⚠' : ''}`);
  if (r.parsed.answer) parts.push(`${t('ab.out.answer')}: “${clip(oneLine(r.parsed.answer), 110)}”`);
  if (!parts.length && r.parsed.think) parts.push(`${t('ab.out.think')}: “${clip(oneLine(r.parsed.think), 110)}”`);
  return parts.join('; ') || t('ab.out.nothing');
}

function SeedDetails({ r }: { r: SeedRun }) {
  const t = useT();
  const pre = { margin: '2px 0 6px', padding: '4px 6px', background: '#f6f6f6', whiteSpace: 'pre-wrap' as const, font: '12px ui-monospace, monospace', maxWidth: 1100 };
  return (
    <div style={{ padding: '4px 0 8px 18px', fontSize: 'var(--fs-sm)' }}>
      <div>
        {t('ab.out.stats', { n: r.ids.length, stopped: t(r.stopped === 'eos' ? 'ab.out.stopEos' : 'ab.out.stopLimit'), complete: t(r.parsed.complete ? 'ab.out.complete' : 'ab.out.incomplete') })}
      </div>
      <div>{t('ab.out.think')}: {r.parsed.think === null ? <i>{t('ab.out.noThink')}</i> : r.parsed.think === '' ? <i>{t('ab.out.emptyThink')}</i> : null}</div>
      {r.parsed.think ? <pre style={pre}>{r.parsed.think}</pre> : null}
      <div>{t('ab.out.answer')}: {r.parsed.answer ? null : <i>{t('ab.out.none')}</i>}</div>
      {r.parsed.answer ? <pre style={pre}>{r.parsed.answer}</pre> : null}
      <div>{t('ab.out.calls', { n: r.parsed.toolCalls.length })}</div>
      {r.parsed.toolCalls.map((c, i) => (
        <pre key={i} style={pre} data-role="seed-call">
          {`name: ${c.name || '?'}\narguments: ${c.arguments === undefined ? '—' : JSON.stringify(c.arguments)}${c.error ? `\n⚠ ${c.error}` : ''}`}
        </pre>
      ))}
      <div>{t('ab.out.raw')}</div>
      <pre style={{ ...pre, color: 'var(--c-muted)' }}>{visibleWhitespace(r.text)}</pre>
    </div>
  );
}

/** One row per seed and arm: the decision, the tokens made, the output in brief (opening to all of it). */
export function SeedTable({ result }: { result: GenResult }) {
  const t = useT();
  const arms = ['A', 'B'] as const;
  return (
    <table data-role="ab-seeds" style={{ borderCollapse: 'collapse', fontSize: 'var(--fs-sm)', width: '100%', maxWidth: 1300 }}>
      <thead>
        <tr style={{ textAlign: 'left', borderBottom: '1px solid #ccc' }}>
          <th style={{ padding: '3px 8px' }}>{t('ab.out.seed')}</th>
          <th style={{ padding: '3px 8px' }}>{t('ab.out.arm')}</th>
          <th style={{ padding: '3px 8px' }}>{t('ab.out.decision')}</th>
          <th style={{ padding: '3px 8px' }}>{t('ab.out.tokens')}</th>
          <th style={{ padding: '3px 8px' }}>{t('ab.out.output')}</th>
        </tr>
      </thead>
      <tbody>
        {result.seeds.flatMap((seed) =>
          arms.map((arm) => {
            const r = result.runs[arm].find((x) => x.seed === seed);
            if (!r) return null;
            return (
              <tr key={`${seed}-${arm}`} data-seed={seed} data-arm={arm} data-decision={r.decision} style={{ borderBottom: '1px solid #eee', verticalAlign: 'top' }}>
                <td style={{ padding: '3px 8px' }}>{seed}</td>
                <td style={{ padding: '3px 8px' }}>{arm}</td>
                <td style={{ padding: '3px 8px', color: DECISION_COLORS[r.decision], fontWeight: 600 }}>{t(r.decision === 'call' ? 'ab.out.decCall' : 'ab.out.decRefuse')}</td>
                <td style={{ padding: '3px 8px' }}>{r.ids.length}</td>
                <td style={{ padding: '3px 8px' }}>
                  <details>
                    <summary style={{ cursor: 'pointer' }}>{brief(t, r)}</summary>
                    <SeedDetails r={r} />
                  </details>
                </td>
              </tr>
            );
          }),
        )}
      </tbody>
    </table>
  );
}

/** Which names the generated calls carry, against the conversation's own; and how many outputs name it at all. */
export function CallNames({ result, targets }: { result: GenResult; targets: { A: string[]; B: string[] } }) {
  const t = useT();
  const lines = (['A', 'B'] as const).map((arm) => {
    const runs = result.runs[arm];
    if (!runs.length) return null;
    const own = targets[arm];
    const called = generatedTargets(
      runs.map((r) => r.parsed),
      own,
    );
    const invented = called.filter((c) => !c.inConversation);
    const known = called.filter((c) => c.inConversation);
    const list = (cs: typeof called) => cs.map((c) => (c.count > 1 ? `${c.name} ×${c.count}` : c.name)).join(', ');
    const mentions = own.map((name) => t('ab.names.mentions', { name, n: mentioning(runs.map((r) => r.text), name), total: runs.length })).join('; ');
    return (
      <li key={arm} data-arm={arm} data-invented={invented.length} data-known={known.length}>
        <b>{arm}</b>:{' '}
        {called.length === 0
          ? t('ab.names.noCalls')
          : [
              known.length ? t('ab.names.known', { names: list(known) }) : '',
              invented.length ? t('ab.names.invented', { names: list(invented), own: own.join(', ') || '—' }) : '',
            ]
              .filter(Boolean)
              .join(' ')}{' '}
        {mentions && <span style={{ color: 'var(--c-muted)' }}>({mentions})</span>}
      </li>
    );
  });
  return (
    <div data-role="ab-names" style={{ fontSize: 'var(--fs-sm)' }}>
      <div style={{ fontWeight: 600 }}>{t('ab.names.title')}</div>
      <ul style={{ margin: '2px 0', paddingLeft: 18 }}>{lines}</ul>
    </div>
  );
}
