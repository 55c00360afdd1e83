'use client';
// The context-growth chart's legend: the agents' colours (several agents), the bar parts (uncached, the part
// an append-only cache would serve, completion), the cumulative line, the context window and the over bands.
// Agent names come from the user's file: rendered as React text only.
import type { CSSProperties } from 'react';
import { agentColor } from '../../lib/view/growthChart';
import { useT } from '../common/i18n';
import { GROWTH_COLORS } from './useGrowthChart';

/** Most agents named in the legend; the rest are counted. */
export const MAX_LEGEND_AGENTS = 14;

function Box({ style }: { style: CSSProperties }) {
  return <span style={{ width: 14, height: 12, borderRadius: 2, flex: 'none', display: 'inline-block', ...style }} />;
}

export function GrowthLegend({ agents, hasWindow, hasOver }: { agents: readonly string[]; hasWindow: boolean; hasOver: boolean }) {
  const t = useT();
  const multi = agents.length > 1;
  const base = agentColor(0);
  const item = { display: 'inline-flex', alignItems: 'center', gap: 5 } as const;
  const hatch = (c: string) => `repeating-linear-gradient(45deg, ${c} 0 2px, color-mix(in srgb, ${c} 28%, white) 2px 6px)`;
  return (
    <div data-role="growth-legend" role="group" aria-label={t('econ.legend')} style={{ display: 'grid', gap: 4, font: 'var(--fs-xs) var(--font-sans)', color: 'var(--c-text)' }}>
      {multi && (
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: '4px 14px', alignItems: 'center' }}>
          <span style={{ color: 'var(--c-muted)' }}>{t('runlog.legendAgents')}</span>
          {agents.slice(0, MAX_LEGEND_AGENTS).map((a, i) => (
            <span key={i} data-role="growth-legend-agent" style={item} title={a}>
              <Box style={{ background: agentColor(i), border: '1px solid rgba(0,0,0,0.3)' }} />
              <span style={{ maxWidth: 220, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{a}</span>
            </span>
          ))}
          {agents.length > MAX_LEGEND_AGENTS && <span style={{ color: 'var(--c-muted)' }}>{t('runlog.legendMore', { n: agents.length - MAX_LEGEND_AGENTS })}</span>}
        </div>
      )}
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: '4px 16px', alignItems: 'center' }}>
        <span style={item}>
          <Box style={{ background: multi ? '#777' : base, border: '1px solid rgba(0,0,0,0.3)' }} />
          {t('runlog.legendUncached')}
        </span>
        <span style={item} data-role="growth-legend-cached">
          <Box style={{ background: hatch(multi ? '#777777' : base), border: '1px solid rgba(0,0,0,0.3)' }} />
          {t('runlog.legendCached')}
        </span>
        <span style={item}>
          <Box style={{ background: GROWTH_COLORS.completion, height: 5 }} />
          {t('runlog.legendCompletion')}
        </span>
        <span style={item}>
          <span style={{ width: 18, height: 0, borderTop: `2px solid ${GROWTH_COLORS.cumulative}`, display: 'inline-block' }} />
          {t('runlog.legendCumulative')}
        </span>
        {hasWindow && (
          <span style={item}>
            <span style={{ width: 18, height: 0, borderTop: `2px dashed ${GROWTH_COLORS.window}`, display: 'inline-block' }} />
            {t('runlog.legendWindow')}
          </span>
        )}
        {hasOver && (
          <span style={item}>
            <Box style={{ background: GROWTH_COLORS.over }} />
            {t('runlog.legendOver')}
          </span>
        )}
      </div>
    </div>
  );
}
