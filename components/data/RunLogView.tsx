'use client';
// Context growth of an imported run log: α and context-window controls, the growth chart (GrowthChart, in
// an ExportFrame), the summary numbers of contextGrowth (peak, totals, input cost without and with an
// append-only prefix cache), a per-agent table when there are several agents, and the parse notes.
// Names, notes and agent names come from the user's file: rendered as React text only, never as HTML.
import { useMemo, useState, type ReactNode } from 'react';
import { DEFAULT_ALPHA } from '../../lib/cache/accounting';
import { formatCount } from '../../lib/prompt/request';
import { agentColor, DEFAULT_WINDOW, formatUnits, parseAlpha, parseWindow, WINDOW_PRESETS } from '../../lib/view/growthChart';
import { formatPercent1 as formatPercent } from '../../lib/view/scale';
import { contextGrowth, type ContextGrowth } from '../../lib/analysis/contextGrowth';
import { MAX_TOKENS, type RunLog } from '../../lib/io/runlog';
import { ExportFrame } from '../common/ExportFrame';
import { GrowthChart } from './GrowthChart';
import { useDescribe, useT, type T } from '../common/i18n';
import type { Message } from '../../lib/i18n/message';
import { AlphaInput, MONO } from '../kv/econParts';

export interface RunLogViewProps {
  log: RunLog;
  /** The import's name (file name or the user's), shown as the title. */
  name: string;
  /** Notes from parsing (form detected, cut fields, …). */
  /** The reader's notes: coded messages (shown in the interface's language) or text as it is. */
  notes: readonly (string | Message)[];
}

/** Most rows of the per-agent table. */
export const MAX_AGENT_ROWS = 50;


export function RunLogView({ log, name, notes }: RunLogViewProps) {
  const t = useT();
  const describe = useDescribe();
  const [alphaText, setAlphaText] = useState(String(DEFAULT_ALPHA));
  const [alpha, setAlpha] = useState(DEFAULT_ALPHA);
  const [choice, setChoice] = useState<string>(String(DEFAULT_WINDOW));
  const [customText, setCustomText] = useState(String(DEFAULT_WINDOW));
  const [contextWindow, setContextWindow] = useState<number | undefined>(DEFAULT_WINDOW);
  const alphaBad = parseAlpha(alphaText) === null;
  const customBad = choice === 'custom' && parseWindow(customText) === null;

  const growth: ContextGrowth = useMemo(() => contextGrowth(log, { alpha, contextWindow }), [log, alpha, contextWindow]);
  const s = growth.summary;
  const multi = growth.agents.length > 1;
  const overCount = useMemo(() => growth.rows.reduce((k, r) => k + (r.overWindow ? 1 : 0), 0), [growth]);
  const windowText = contextWindow === undefined ? t('runlog.windowNone') : formatCount(contextWindow);

  const onWindowChoice = (v: string) => {
    setChoice(v);
    if (v === 'none') setContextWindow(undefined);
    else if (v === 'custom') setCustomText(String(contextWindow ?? DEFAULT_WINDOW));
    else setContextWindow(Number(v));
  };

  return (
    <section data-role="runlog-view" aria-label={t('runlog.subtitle')} style={{ display: 'grid', gap: 14, font: 'var(--fs-sm) var(--font-sans)', color: 'var(--c-text)', maxWidth: 1100 }}>
      <header style={{ display: 'grid', gap: 2 }}>
        <h3 data-role="runlog-name" style={{ margin: 0, fontSize: 'var(--fs-lg)', overflowWrap: 'anywhere' }}>
          {name}
        </h3>
        <div style={{ color: 'var(--c-muted)', display: 'flex', flexWrap: 'wrap', gap: '0 12px' }}>
          <span>{t('runlog.subtitle')}</span>
          <span data-role="runlog-meta">{multi ? t('runlog.meta', { calls: formatCount(s.calls), agents: growth.agents.length }) : t('runlog.metaOne', { calls: formatCount(s.calls) })}</span>
          {log.mode !== undefined && <span style={{ overflowWrap: 'anywhere' }}>{t('runlog.mode', { mode: log.mode })}</span>}
        </div>
      </header>

      <div role="group" aria-label={t('runlog.controls')} style={{ display: 'flex', flexWrap: 'wrap', gap: '8px 24px', alignItems: 'center' }}>
        <label style={{ display: 'inline-flex', gap: 6, alignItems: 'center' }}>
          {t('runlog.alpha')}
          <AlphaInput
            control="runlog-alpha"
            text={alphaText}
            onChange={(text, a) => {
              setAlphaText(text);
              if (a !== null) setAlpha(a);
            }}
            style={{ width: 80, font: `13px ${MONO}` }}
          />
        </label>
        <span style={{ display: 'inline-flex', gap: 6, alignItems: 'center' }}>
          <label style={{ display: 'inline-flex', gap: 6, alignItems: 'center' }}>
            {t('runlog.window')}
            <select data-control="runlog-window" value={choice} onChange={(e) => onWindowChoice(e.target.value)}>
              {WINDOW_PRESETS.map((w) => (
                <option key={w} value={String(w)}>
                  {t('runlog.windowPreset', { n: formatCount(w) })}
                </option>
              ))}
              <option value="none">{t('runlog.windowNone')}</option>
              <option value="custom">{t('runlog.windowCustom')}</option>
            </select>
          </label>
          {choice === 'custom' && (
            <input
              data-control="runlog-window-custom"
              type="text"
              inputMode="numeric"
              aria-label={t('runlog.windowCustomLabel')}
              value={customText}
              aria-invalid={customBad}
              onChange={(e) => {
                setCustomText(e.target.value);
                const w = parseWindow(e.target.value);
                if (w !== null) setContextWindow(w);
              }}
              style={{ width: 120, font: `13px ${MONO}` }}
            />
          )}
        </span>
      </div>
      {alphaBad && (
        <div role="alert" data-role="runlog-alpha-invalid" style={{ color: 'var(--c-error)' }}>
          {t('runlog.alphaInvalid', { alpha })}
        </div>
      )}
      {customBad && (
        <div role="alert" data-role="runlog-window-invalid" style={{ color: 'var(--c-error)' }}>
          {t('runlog.windowInvalid', { max: formatCount(MAX_TOKENS), window: windowText })}
        </div>
      )}

      <ExportFrame name={`runlog-${name}-growth`} json={() => growth} title={t('runlog.exportTitle', { name, alpha, window: windowText })}>
        <GrowthChart growth={growth} log={log} contextWindow={contextWindow} />
      </ExportFrame>

      <div style={{ display: 'grid', gap: 8 }}>
        <strong>{t('runlog.summaryTitle')}</strong>
        <div data-role="runlog-summary" style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))', gap: 8 }}>
          <Stat role="calls" value={s.calls} label={t('runlog.sumCalls')}>
            {formatCount(s.calls)}
          </Stat>
          <Stat
            role="peak"
            value={s.peakPromptTokens}
            label={t('runlog.sumPeak')}
            sub={
              <>
                {multi ? t('runlog.sumPeakAtAgent', { n: formatCount(s.peakIndex), agent: s.peakAgent }) : t('runlog.sumPeakAt', { n: formatCount(s.peakIndex) })}
                {s.fileContextPeak !== undefined && (
                  <span data-role="runlog-file-peak" data-matches={String(s.fileContextPeakMatches)} data-agent={s.fileContextPeakAgent} style={{ display: 'block', color: s.fileContextPeakMatches ? '#1a6b2a' : '#a00' }}>
                    {s.fileContextPeakMatches ? `✓ ${t('runlog.sumFilePeakMatch')}` : `⚠ ${filePeakText(t, s)}`}
                  </span>
                )}
              </>
            }
          >
            {formatCount(s.peakPromptTokens)}
          </Stat>
          <Stat role="prompt" value={s.promptTokens} label={t('runlog.sumPrompt')}>
            {formatCount(s.promptTokens)}
          </Stat>
          <Stat role="completion" value={s.completionTokens} label={t('runlog.sumCompletion')}>
            {formatCount(s.completionTokens)}
          </Stat>
          <Stat role="all" value={s.promptTokens + s.completionTokens} label={t('runlog.sumAll')}>
            {formatCount(s.promptTokens + s.completionTokens)}
          </Stat>
          <Stat role="cost-uncached" value={s.costUncached} label={t('runlog.sumCostUncached')} sub={t('runlog.units')}>
            {formatUnits(s.costUncached)}
          </Stat>
          <Stat role="cost-cached" value={s.costCached} label={t('runlog.sumCostCached', { alpha })} sub={t('runlog.sumCachedTokens', { n: formatCount(s.cachedTokens) })}>
            {formatUnits(s.costCached)}
          </Stat>
          <Stat role="saved" value={s.saved} label={t('runlog.sumSaved')} sub={t('runlog.units')}>
            {formatUnits(s.saved)} <span style={{ fontSize: 'var(--fs-md)', color: '#1a6b2a' }} data-role="runlog-saved-pct">({formatPercent(s.savedFraction)})</span>
          </Stat>
          <Stat
            role="window"
            value={s.windowCrossedAt ?? 0}
            label={t('runlog.sumWindow')}
            sub={
              contextWindow === undefined
                ? undefined
                : s.windowCrossedAt === null
                  ? t('runlog.sumWindowNever', { n: formatCount(contextWindow) })
                  : t('runlog.sumWindowCrossed', { call: formatCount(s.windowCrossedAt), count: formatCount(overCount), n: formatCount(contextWindow) })
            }
          >
            {contextWindow === undefined ? t('runlog.sumWindowNone') : formatCount(contextWindow)}
          </Stat>
        </div>
        <p style={{ margin: 0, color: 'var(--c-muted)' }}>{t('runlog.costNote')}</p>
        <p data-role="runlog-upper-bound" style={{ margin: 0, color: 'var(--c-text)', background: '#f4f6fa', borderLeft: '3px solid #4477AA', padding: '6px 10px' }}>
          {t('runlog.upperBound')}
        </p>
      </div>

      {multi && <AgentTable growth={growth} />}

      {notes.length > 0 && (
        <div data-role="runlog-notes" style={{ display: 'grid', gap: 4 }}>
          <strong style={{ fontSize: 'var(--fs-xs)' }}>{t('runlog.notesTitle')}</strong>
          <ul style={{ margin: 0, paddingLeft: 20, color: 'var(--c-muted)', fontSize: 'var(--fs-xs)' }}>
            {notes.map((n, i) => (
              <li key={i} style={{ overflowWrap: 'anywhere' }}>
                {describe(n)}
              </li>

            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

/** Whose peak a file's differing context peak is (a manager's own, say), and the run's real peak beside it. */
function filePeakText(t: T, s: ContextGrowth['summary']): string {
  const n = formatCount(s.fileContextPeak ?? 0);
  const peak = formatCount(s.peakPromptTokens);
  return s.fileContextPeakAgent !== undefined
    ? t('runlog.sumFilePeakAgent', { n, agent: s.fileContextPeakAgent, peak, peakAgent: s.peakAgent })
    : t('runlog.sumFilePeakDiffers', { n, peak });
}

function Stat({ role, value, label, sub, children }: { role: string; value: number; label: string; sub?: ReactNode; children: ReactNode }) {
  return (
    <div data-role={`runlog-sum-${role}`} data-value={value} style={{ border: '1px solid var(--c-border)', borderRadius: 6, padding: '7px 10px', background: 'var(--c-bg)', display: 'grid', gap: 2, alignContent: 'start' }}>
      <span style={{ color: 'var(--c-muted)', fontSize: 'var(--fs-xs)' }}>{label}</span>
      <span data-field="value" style={{ fontSize: 'var(--fs-lg)', fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>
        {children}
      </span>
      {sub !== undefined && <span style={{ color: 'var(--c-muted)', fontSize: 'var(--fs-xs)' }}>{sub}</span>}
    </div>
  );
}

function AgentTable({ growth }: { growth: ContextGrowth }) {
  const t = useT();
  const shown = growth.agents.slice(0, MAX_AGENT_ROWS);
  const num = { textAlign: 'right', padding: '3px 8px', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;
  const head = { ...num, fontWeight: 600, borderBottom: '1px solid var(--c-border)', color: 'var(--c-text)', whiteSpace: 'normal' } as const;
  return (
    <div style={{ display: 'grid', gap: 6 }}>
      <strong>{t('runlog.perAgentTitle')}</strong>
      <div style={{ overflowX: 'auto' }}>
        <table data-role="runlog-agents" style={{ borderCollapse: 'collapse', fontSize: 'var(--fs-xs)', minWidth: '100%' }}>
          <thead>
            <tr>
              <th style={{ ...head, textAlign: 'left' }}>{t('runlog.colAgent')}</th>
              <th style={head}>{t('runlog.colCalls')}</th>
              <th style={head}>{t('runlog.colPeak')}</th>
              <th style={head}>{t('runlog.colPrompt')}</th>
              <th style={head}>{t('runlog.colCompletion')}</th>
              <th style={head}>{t('runlog.colCached')}</th>
              <th style={head}>{t('runlog.colCostUncached')}</th>
              <th style={head}>{t('runlog.colCostCached')}</th>
              <th style={head}>{t('runlog.colSaved')}</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((a, i) => (
              <tr key={i} data-agent-row={i} style={{ borderBottom: '1px solid #eee' }}>
                <td style={{ padding: '3px 8px', maxWidth: 260, overflowWrap: 'anywhere' }}>
                  <span style={{ display: 'inline-block', width: 10, height: 10, background: agentColor(i), marginRight: 6, border: '1px solid rgba(0,0,0,0.3)' }} />
                  {a.agent}
                </td>
                <td style={num}>{formatCount(a.calls)}</td>
                <td style={num}>{formatCount(a.peakPromptTokens)}</td>
                <td style={num}>{formatCount(a.promptTokens)}</td>
                <td style={num}>{formatCount(a.completionTokens)}</td>
                <td style={num}>{formatCount(a.cachedTokens)}</td>
                <td style={num}>{formatUnits(a.costUncached)}</td>
                <td style={num}>{formatUnits(a.costCached)}</td>
                <td style={num}>{formatPercent(a.costUncached > 0 ? (a.costUncached - a.costCached) / a.costUncached : 0)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {growth.agents.length > MAX_AGENT_ROWS && <span style={{ color: 'var(--c-muted)', fontSize: 'var(--fs-xs)' }}>{t('runlog.agentsShown', { shown: MAX_AGENT_ROWS, total: growth.agents.length })}</span>}
    </div>
  );
}
