'use client';
// The context-growth chart of an imported run log: per call the prompt as a bar in its agent's colour (the
// part an append-only prefix cache would serve hatched and lighter, at the bottom), the completion as a dark
// cap, the cumulative tokens as a line on the right axis, the context window as a dashed line and the calls
// over it as pink bands. Every series is one <path> (lib/view/growthChart lays them out), so 100,000 calls draw
// as about a thousand pixel columns. Pointer or ←/→ selects a call; its numbers show in a tooltip.
// Agent names and notes come from the user's file: rendered as React text only.
import { useId, useMemo, useState, type CSSProperties, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { formatCount } from '../../lib/prompt/request';
import type { ContextGrowth } from '../../lib/analysis/contextGrowth';
import type { RunLog } from '../../lib/io/runlog';
import { agentColor, AGENT_COLORS, callX, columnAt, columnOf, growthGeometry, callTickLabels, tickFormatter, type PlotBox } from '../../lib/view/growthChart';
import { useT } from '../common/i18n';

export const GROWTH_COLORS = {
  completion: '#333333',
  cumulative: '#000000',
  window: '#882255',
  over: '#FFCCCC',
  guide: '#666666',
} as const;

const W = 1060;
const H = 400;
const M = { l: 70, r: 78, t: 30, b: 50 };
const BOX: PlotBox = { x0: M.l, y0: M.t, w: W - M.l - M.r, h: H - M.t - M.b };
/** The chart's viewBox size and plot box (tests map calls to pointer positions with them). */
export const GROWTH_CHART = { width: W, height: H, box: BOX } as const;
const NOTE_CHARS = 280;
/** Narrowest bar whose cached part is hatched (narrower ones get a flat tint). */
const HATCH_MIN_PX = 5;
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
  const rows = growth.rows;
  const n = rows.length;
  const geo = useMemo(() => growthGeometry(rows, log.agents, BOX, contextWindow), [rows, log.agents, contextWindow]);
  const [selected, setSelected] = useState<number | null>(null);
  const sel = selected !== null && selected < n ? selected : null;
  const usedSlots = useMemo(() => AGENT_COLORS.map((_, s) => geo.uncached[s] !== '' || geo.cached[s] !== ''), [geo]);
  // Hatching needs room: on narrow bars (and pixel columns) the cached part is a flat lighter tint.
  const hatched = (geo.layout.columns[0]?.w ?? 0) >= HATCH_MIN_PX;
  const bottom = BOX.y0 + BOX.h;
  const fmt = useMemo(
    () => ({ token: tickFormatter(geo.tokenAxis.ticks), cumulative: tickFormatter(geo.cumulativeAxis.ticks), call: callTickLabels(geo.xTicks.map((x) => x.call)) }),
    [geo],
  );

  const onPointerMove = (e: PointerEvent<SVGSVGElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    if (rect.width === 0) return;
    const x = ((e.clientX - rect.left) * W) / rect.width;
    const c = columnAt(geo.layout, x);
    if (c >= 0) setSelected(geo.layout.columns[c]!.rep);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (n === 0) return;
    const page = Math.max(1, Math.round(n / 10));
    let next: number | null = null;
    if (e.key === 'ArrowRight') next = sel === null ? 0 : Math.min(n - 1, sel + 1);
    else if (e.key === 'ArrowLeft') next = sel === null ? n - 1 : Math.max(0, sel - 1);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = n - 1;
    else if (e.key === 'PageDown') next = sel === null ? 0 : Math.min(n - 1, sel + page);
    else if (e.key === 'PageUp') next = sel === null ? n - 1 : Math.max(0, sel - page);
    else if (e.key === 'Escape') {
      setSelected(null);
      return;
    }
    if (next === null) return;
    e.preventDefault();
    setSelected(next);
  };

  // The selected call: its column, the outline of its own stack and where the tooltip goes.
  const selInfo = useMemo(() => {
    if (sel === null) return null;
    const c = columnOf(geo.layout, sel);
    const col = geo.layout.columns[c]!;
    const r = rows[sel]!;
    const cx = geo.layout.binned ? geo.layout.x0 + (c + 0.5) * geo.layout.slot : callX(BOX, n, sel);
    const w = Math.max(col.w, 3);
    const top = geo.y(r.promptTokens + r.completionTokens);
    return { c, col, r, cx, w, top };
  }, [sel, geo, rows, n]);

  const call = sel !== null ? log.calls[sel] : undefined;
  const note = call?.note !== undefined && call.note.length > NOTE_CHARS ? `${call.note.slice(0, NOTE_CHARS)}…` : call?.note;
  const agentIndex = (agent: string) => Math.max(0, log.agents.indexOf(agent));

  return (
    <div data-role="growth-chart-block" style={{ display: 'grid', gap: 6 }}>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: '2px 14px', alignItems: 'baseline' }}>
        <strong>{t('runlog.chartTitle')}</strong>
        <span style={{ color: '#555', fontSize: 12 }}>{t('runlog.chartHint')}</span>
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
          onPointerLeave={() => setSelected(null)}
          style={{ display: 'block', width: '100%', height: 'auto', font: '12px system-ui, sans-serif', touchAction: 'pan-y' }}
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
          {/* left axis: gridlines, ticks, labels */}
          <g fontSize={11} fill="#333">
            {geo.tokenAxis.ticks.map((v) => (
              <g key={v}>
                <line x1={BOX.x0} x2={BOX.x0 + BOX.w} y1={geo.y(v)} y2={geo.y(v)} stroke="#e6e6e6" />
                <text x={BOX.x0 - 7} y={geo.y(v) + 4} textAnchor="end">
                  {fmt.token(v)}
                </text>
              </g>
            ))}
            {geo.cumulativeAxis.ticks.map((v) => (
              <g key={`c${v}`}>
                <line x1={BOX.x0 + BOX.w} x2={BOX.x0 + BOX.w + 4} y1={geo.yCum(v)} y2={geo.yCum(v)} stroke="#888" />
                <text x={BOX.x0 + BOX.w + 7} y={geo.yCum(v) + 4} textAnchor="start">
                  {fmt.cumulative(v)}
                </text>
              </g>
            ))}
            {geo.xTicks.map(({ call, x }, i) => (
              <g key={`x${call}`}>
                <line x1={x} x2={x} y1={bottom} y2={bottom + 4} stroke="#888" />
                <text x={x} y={bottom + 16} textAnchor="middle">
                  {fmt.call[i]}
                </text>
              </g>
            ))}
            <text x={16} y={BOX.y0 + BOX.h / 2} textAnchor="middle" transform={`rotate(-90 16 ${BOX.y0 + BOX.h / 2})`} fontSize={12}>
              {t('runlog.axisTokens')}
            </text>
            <text x={W - 12} y={BOX.y0 + BOX.h / 2} textAnchor="middle" transform={`rotate(90 ${W - 12} ${BOX.y0 + BOX.h / 2})`} fontSize={12}>
              {t('runlog.axisCumulative')}
            </text>
            <text x={BOX.x0 + BOX.w / 2} y={H - 10} textAnchor="middle" fontSize={12}>
              {t('runlog.axisCall')}
            </text>
          </g>
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
        {selInfo && (
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
              font: '12px system-ui, sans-serif',
              color: '#111',
              width: 'max-content',
              maxWidth: 340,
            }}
          >
            <div style={{ fontWeight: 600, marginBottom: 3 }} data-field="call">
              {t('runlog.tipCall', { n: formatCount(sel! + 1), total: formatCount(n) })}
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
            {geo.layout.binned && (
              <div style={{ color: '#555', marginTop: 3 }}>{t('runlog.tipColumn', { from: formatCount(selInfo.col.from + 1), to: formatCount(selInfo.col.to) })}</div>
            )}
          </div>
        )}
      </div>
      <GrowthLegend agents={log.agents} hasWindow={contextWindow !== undefined} hasOver={geo.over !== ''} />
      {geo.layout.binned && <div data-role="growth-binned" style={{ color: '#555', fontSize: 12 }}>{t('runlog.binned', { n: geo.callsPerColumn })}</div>}
    </div>
  );
}

function TipRow({ label, field, num, children }: { label: string; field: string; num?: boolean; children: ReactNode }) {
  return (
    <tr data-field={field}>
      <td style={{ color: '#555', padding: '1px 10px 1px 0', verticalAlign: 'top', whiteSpace: 'nowrap' }}>{label}</td>
      <td style={{ padding: '1px 0', textAlign: num ? 'right' : 'left', fontVariantNumeric: 'tabular-nums' }}>{children}</td>
    </tr>
  );
}

/** Most agents named in the legend; the rest are counted. */
export const MAX_LEGEND_AGENTS = 14;

function Box({ style }: { style: CSSProperties }) {
  return <span style={{ width: 14, height: 12, borderRadius: 2, flex: 'none', display: 'inline-block', ...style }} />;
}

function GrowthLegend({ agents, hasWindow, hasOver }: { agents: readonly string[]; hasWindow: boolean; hasOver: boolean }) {
  const t = useT();
  const multi = agents.length > 1;
  const base = agentColor(0);
  const item = { display: 'inline-flex', alignItems: 'center', gap: 5 } as const;
  const hatch = (c: string) => `repeating-linear-gradient(45deg, ${c} 0 2px, color-mix(in srgb, ${c} 28%, white) 2px 6px)`;
  return (
    <div data-role="growth-legend" role="group" aria-label={t('econ.legend')} style={{ display: 'grid', gap: 4, font: '12px system-ui, sans-serif', color: '#333' }}>
      {multi && (
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: '4px 14px', alignItems: 'center' }}>
          <span style={{ color: '#555' }}>{t('runlog.legendAgents')}</span>
          {agents.slice(0, MAX_LEGEND_AGENTS).map((a, i) => (
            <span key={i} data-role="growth-legend-agent" style={item} title={a}>
              <Box style={{ background: agentColor(i), border: '1px solid rgba(0,0,0,0.3)' }} />
              <span style={{ maxWidth: 220, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{a}</span>
            </span>
          ))}
          {agents.length > MAX_LEGEND_AGENTS && <span style={{ color: '#555' }}>{t('runlog.legendMore', { n: agents.length - MAX_LEGEND_AGENTS })}</span>}
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
