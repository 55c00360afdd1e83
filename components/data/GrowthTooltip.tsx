'use client';
// The context-growth chart's tooltip for the selected call: agent, prompt (cached and uncached), completion,
// cumulative tokens, latency, model and note as the log gives them, and whether it is over the window.
// Agent names, models and notes come from the user's file: rendered as React text only.
import type { ReactNode } from 'react';
import { formatCount } from '../../lib/prompt/request';
import type { RunCall } from '../../lib/io/runlog';
import { agentColor } from '../../lib/view/growthChart';
import { useT } from '../common/i18n';
import { GROWTH_CHART, GROWTH_COLORS, type SelectedCall } from './useGrowthChart';

const { width: W, height: H, box: BOX } = GROWTH_CHART;
const NOTE_CHARS = 280;

export interface GrowthTooltipProps {
  sel: number;
  selInfo: SelectedCall;
  /** Calls in the log, and the selected call as the log gives it. */
  n: number;
  call: RunCall | undefined;
  /** Colour index of an agent (its place in the log's agent list). */
  agentIndex: (agent: string) => number;
  /** Columns cover several calls: say which. */
  binned: boolean;
}

export function GrowthTooltip({ sel, selInfo, n, call, agentIndex, binned }: GrowthTooltipProps) {
  const t = useT();
  const note = call?.note !== undefined && call.note.length > NOTE_CHARS ? `${call.note.slice(0, NOTE_CHARS)}…` : call?.note;
  return (
    <div
      data-role="growth-tooltip"
      aria-live="polite"
      style={{
        position: 'absolute',
        left: `${(selInfo.cx / W) * 100}%`,
        top: `${(BOX.y0 / H) * 100}%`,
        transform: selInfo.cx > W / 2 ? 'translateX(calc(-100% - 14px))' : 'translateX(14px)',
        pointerEvents: 'none',
        background: 'rgba(255,255,255,0.97)',
        border: '1px solid #999',
        borderRadius: 4,
        boxShadow: '0 2px 6px rgba(0,0,0,0.15)',
        padding: '6px 9px',
        font: 'var(--fs-xs) var(--font-sans)',
        color: 'var(--c-text)',
        width: 'max-content',
        maxWidth: 340,
      }}
    >
      <div style={{ fontWeight: 600, marginBottom: 3 }} data-field="call">
        {t('runlog.tipCall', { n: formatCount(sel + 1), total: formatCount(n) })}
      </div>
      <table style={{ borderCollapse: 'collapse' }}>
        <tbody>
          <TipRow label={t('runlog.tipAgent')} field="agent">
            <span style={{ display: 'inline-block', width: 9, height: 9, background: agentColor(agentIndex(selInfo.r.agent)), marginRight: 5, verticalAlign: 'baseline' }} />
            <span style={{ overflowWrap: 'anywhere' }}>{selInfo.r.agent}</span>
          </TipRow>
          <TipRow label={t('runlog.tipPrompt')} field="prompt" num>
            {formatCount(selInfo.r.promptTokens)}
          </TipRow>
          <TipRow label={t('runlog.tipCached')} field="cached" num>
            {formatCount(selInfo.r.cachedTokens)}
          </TipRow>
          <TipRow label={t('runlog.tipUncached')} field="uncached" num>
            {formatCount(selInfo.r.uncachedTokens)}
          </TipRow>
          <TipRow label={t('runlog.tipCompletion')} field="completion" num>
            {formatCount(selInfo.r.completionTokens)}
          </TipRow>
          <TipRow label={t('runlog.tipCumulative')} field="cumulative" num>
            {formatCount(selInfo.r.cumulativeTokens)}
          </TipRow>
          {call?.latencySeconds !== undefined && (
            <TipRow label={t('runlog.tipLatency')} field="latency" num>
              {t('runlog.tipSeconds', { s: call.latencySeconds.toFixed(2) })}
            </TipRow>
          )}
          {call?.model !== undefined && (
            <TipRow label={t('runlog.tipModel')} field="model">
              <span style={{ overflowWrap: 'anywhere' }}>{call.model}</span>
            </TipRow>
          )}
          {note !== undefined && (
            <TipRow label={t('runlog.tipNote')} field="note">
              <span style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>{note}</span>
            </TipRow>
          )}
        </tbody>
      </table>
      {selInfo.r.overWindow && (
        <div data-field="over" style={{ color: GROWTH_COLORS.window, fontWeight: 600, marginTop: 3 }}>
          {t('runlog.tipOver')}
        </div>
      )}
      {binned && (
        <div style={{ color: 'var(--c-muted)', marginTop: 3 }}>{t('runlog.tipColumn', { from: formatCount(selInfo.col.from + 1), to: formatCount(selInfo.col.to) })}</div>
      )}
    </div>
  );
}

function TipRow({ label, field, num, children }: { label: string; field: string; num?: boolean; children: ReactNode }) {
  return (
    <tr data-field={field}>
      <td style={{ color: 'var(--c-muted)', padding: '1px 10px 1px 0', verticalAlign: 'top', whiteSpace: 'nowrap' }}>{label}</td>
      <td style={{ padding: '1px 0', textAlign: num ? 'right' : 'left', fontVariantNumeric: 'tabular-nums' }}>{children}</td>
    </tr>
  );
}

