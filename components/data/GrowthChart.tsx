'use client';
// The context-growth chart of an imported run log: per call the prompt as a bar in its agent's colour (the
// part an append-only prefix cache would serve hatched and lighter, at the bottom), the completion as a dark
// cap, the cumulative tokens as a line on the right axis, the context window as a dashed line and the calls
// over it as pink bands. Every series is one <path> (lib/view/growthChart lays them out), so 100,000 calls draw
// as about a thousand pixel columns. Pointer or ←/→ selects a call; its numbers show in a tooltip. Data and
// input: useGrowthChart; the parts: GrowthAxes, GrowthTooltip, GrowthLegend.
// Agent names and notes come from the user's file: rendered as React text only.
import { useId } from 'react';
import { formatCount } from '../../lib/prompt/request';
import type { ContextGrowth } from '../../lib/analysis/contextGrowth';
import type { RunLog } from '../../lib/io/runlog';
import { AGENT_COLORS } from '../../lib/view/growthChart';
import { useT } from '../common/i18n';
import { GrowthAxes } from './GrowthAxes';
import { GrowthLegend } from './GrowthLegend';
import { GrowthTooltip } from './GrowthTooltip';
import { GROWTH_CHART, GROWTH_COLORS, useGrowthChart } from './useGrowthChart';


const { width: W, height: H, box: BOX } = GROWTH_CHART;
const TINT_OPACITY = 0.35;

export interface GrowthChartProps {
  growth: ContextGrowth;
  /** The log the growth was computed from: agents (colour order), notes, latency, model. */
  log: RunLog;
  /** The context window drawn, when one is set (the one growth was computed with). */
  contextWindow?: number;
}

export function GrowthChart({ growth, log, contextWindow }: GrowthChartProps) {
  const t = useT();
  const uid = useId().replace(/[^A-Za-z0-9_-]/g, '');
  const { n, geo, sel, selInfo, usedSlots, hatched, fmt, onPointerMove, onKeyDown, clear } = useGrowthChart(growth, log, contextWindow);
  const bottom = BOX.y0 + BOX.h;

  return (
    <div data-role="growth-chart-block" style={{ display: 'grid', gap: 6 }}>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: '2px 14px', alignItems: 'baseline' }}>
        <strong>{t('runlog.chartTitle')}</strong>
        <span style={{ color: 'var(--c-muted)', fontSize: 'var(--fs-xs)' }}>{t('runlog.chartHint')}</span>
      </div>
      <div
        data-role="growth-chart-focus"
        tabIndex={0}
        role="group"
        aria-label={t('runlog.chartAria')}
        onKeyDown={onKeyDown}
        style={{ position: 'relative', maxWidth: W, outlineOffset: 2 }}
      >
        <svg
          data-role="growth-chart"
          data-calls={n}
          data-columns={geo.layout.columns.length}
          width={W}
          height={H}
          viewBox={`0 0 ${W} ${H}`}
          role="img"
          aria-label={t('runlog.chartTitle')}
          onPointerMove={onPointerMove}
          onPointerLeave={clear}
          style={{ display: 'block', width: '100%', height: 'auto', font: 'var(--fs-xs) var(--font-sans)', touchAction: 'pan-y' }}
        >
          <defs>
            {AGENT_COLORS.map((color, s) =>
              usedSlots[s] && hatched ? (
                <pattern key={s} id={`${uid}-hatch-${s}`} patternUnits="userSpaceOnUse" width={6} height={6} patternTransform="rotate(45)">
                  <rect width={6} height={6} fill={color} opacity={0.28} />
                  <rect width={2} height={6} fill={color} opacity={0.9} />
                </pattern>
              ) : null,
            )}
          </defs>
          {/* over-window bands behind everything */}
          {geo.over && <path data-series="over" d={geo.over} fill={GROWTH_COLORS.over} opacity={0.75} />}
          <GrowthAxes geo={geo} fmt={fmt} />
          {/* bars: cached (hatched) at the bottom, uncached above it, completion on top */}
          {AGENT_COLORS.map((color, s) =>
            usedSlots[s] ? <path key={`c${s}`} data-series={`cached-${s}`} d={geo.cached[s]} fill={hatched ? `url(#${uid}-hatch-${s})` : color} fillOpacity={hatched ? undefined : TINT_OPACITY} /> : null,
          )}
          {AGENT_COLORS.map((color, s) => (usedSlots[s] ? <path key={`u${s}`} data-series={`uncached-${s}`} d={geo.uncached[s]} fill={color} /> : null))}
          {geo.completion && <path data-series="completion" d={geo.completion} fill={GROWTH_COLORS.completion} />}
          <line x1={BOX.x0} x2={BOX.x0 + BOX.w} y1={bottom} y2={bottom} stroke="#888" />
          <line x1={BOX.x0} x2={BOX.x0} y1={BOX.y0} y2={bottom} stroke="#888" />
          <line x1={BOX.x0 + BOX.w} x2={BOX.x0 + BOX.w} y1={BOX.y0} y2={bottom} stroke="#888" />
          {/* cumulative tokens on the right axis */}
          <path data-series="cumulative" d={geo.cumulative} fill="none" stroke="#fff" strokeWidth={4} strokeLinejoin="round" opacity={0.8} />
          <path data-series="cumulative" d={geo.cumulative} fill="none" stroke={GROWTH_COLORS.cumulative} strokeWidth={2} strokeLinejoin="round" />
          {/* context window */}
          {contextWindow !== undefined &&
            (geo.windowY !== null ? (
              <g data-role="growth-window">
                <line x1={BOX.x0} x2={BOX.x0 + BOX.w} y1={geo.windowY} y2={geo.windowY} stroke={GROWTH_COLORS.window} strokeWidth={1.5} strokeDasharray="7 4" />
                <text
                  x={BOX.x0 + 8}
                  y={geo.windowY < BOX.y0 + 16 ? geo.windowY + 15 : geo.windowY - 6}
                  fill={GROWTH_COLORS.window}
                  fontWeight={600}
                  stroke="#fff"
                  strokeWidth={3}
                  paintOrder="stroke"
                >
                  {t('runlog.windowLine', { n: formatCount(contextWindow) })}
                </text>
              </g>
            ) : (
              <text data-role="growth-window" x={BOX.x0 + 8} y={BOX.y0 - 10} fill={GROWTH_COLORS.window} fontWeight={600}>
                {t('runlog.windowAbove', { n: formatCount(contextWindow) })}
              </text>
            ))}
          {/* the selected call */}
          {selInfo && (
            <g data-role="growth-selected" pointerEvents="none">
              <line x1={selInfo.cx} x2={selInfo.cx} y1={BOX.y0} y2={bottom} stroke={GROWTH_COLORS.guide} strokeDasharray="2 3" />
              <rect x={selInfo.cx - selInfo.w / 2 - 1.5} y={selInfo.top - 1.5} width={selInfo.w + 3} height={bottom - selInfo.top + 1.5} fill="none" stroke="#000" strokeWidth={1.5} />
              <circle cx={selInfo.cx} cy={geo.yCum(selInfo.r.cumulativeTokens)} r={3.5} fill="#fff" stroke="#000" strokeWidth={1.5} />
            </g>
          )}
        </svg>
        {selInfo && sel !== null && (
          <GrowthTooltip sel={sel} selInfo={selInfo} n={n} call={log.calls[sel]} agentIndex={(agent) => Math.max(0, log.agents.indexOf(agent))} binned={geo.layout.binned} />
        )}
      </div>
      <GrowthLegend agents={log.agents} hasWindow={contextWindow !== undefined} hasOver={geo.over !== ''} />
      {geo.layout.binned && <div data-role="growth-binned" style={{ color: 'var(--c-muted)', fontSize: 'var(--fs-xs)' }}>{t('runlog.binned', { n: geo.callsPerColumn })}</div>}
    </div>
  );
}
