'use client';
// The two charts of the six patterns: totals per mode (cost as recomputed + α·cached against the no-cache
// cost, and the cache ratio), and one mode's calls as stacked bars (cached vs recomputed tokens).
// Draws lib/cache/accounting results; computes nothing but pixel positions.
import type { Accounting } from '../../lib/cache/accounting';
import type { PatternMode } from '../../lib/agent/patterns';
import { formatPercent0, linearMap, niceAxis, ticksInside } from '../../lib/view/scale';
import { Axis, ECON_COLORS, fmtCost, fmtInt, fmtPct, LegendRow, MONO, Swatch } from './econParts';
import { ExportFrame } from '../common/ExportFrame';
import { useT } from '../common/i18n';

export interface ModeTotals {
  mode: PatternMode;
  accounting: Accounting;
}

/** The summary chart's widest layout, px (it is narrower in a narrower container). */
const SUMMARY_MAX_W = 1210;

/**
 * Horizontal bars, one row per mode; clicking a row selects the mode. `context`: the run's parameters, for
 * the export's caption; `width`: the container's width (the cost and ratio plots share what is left).
 */
export function PatternSummaryChart({ rows, selected, onSelect, context, width = SUMMARY_MAX_W }: { rows: ModeTotals[]; selected: PatternMode; onSelect: (m: PatternMode) => void; context?: string; width?: number }) {
  const t = useT();
  const rowH = 34;
  const m = { l: 150, t: 26, b: 48 };
  const gap = 130;
  const W = Math.max(620, Math.min(SUMMARY_MAX_W, Math.floor(width)));
  const plots = W - m.l - gap - 70;
  const costW = Math.round(plots * 0.65);
  const ratioW = plots - costW;
  const H = m.t + rows.length * rowH + m.b;
  const maxCost = Math.max(1, ...rows.map((r) => r.accounting.totals.uncachedCost));
  // About one tick per 90 px, so the labels never crowd on a narrow screen.
  const costAxis = niceAxis(0, maxCost, Math.max(3, Math.min(6, Math.round(costW / 90))));
  const cx = linearMap(0, costAxis.hi, m.l, m.l + costW);
  const r0 = m.l + costW + gap;
  const rx = linearMap(0, 1, r0, r0 + ratioW);
  const base = rows.find((r) => r.mode === 'correct')?.accounting.totals.cost ?? 0;
  const bottom = m.t + rows.length * rowH;
  const caption = t('export.caption.patternSummary');
  // Per mode: the accounting totals the bars show (cost, cached, recomputed, no-cache cost, cache ratio).
  const exportJson = () => ({
    kind: 'pattern-summary',
    selected,
    modes: rows.map((r) => ({ mode: r.mode, blockSize: r.accounting.blockSize, alpha: r.accounting.alpha, totals: r.accounting.totals })),
  });
  return (
    <ExportFrame name="patterns-summary" title={context ? `${caption} · ${context}` : caption} json={exportJson}>
      <div style={{ display: 'grid', gap: 6 }}>
        <svg data-role="pattern-summary" width={W} height={H} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={t('econ.summaryAria')} style={{ font: '12px system-ui, sans-serif', maxWidth: '100%', height: 'auto', display: 'block' }}>
          <text x={m.l} y={14} fontSize={13} fontWeight={600}>
            {t('econ.summaryCost')}
          </text>
          <text x={r0} y={14} fontSize={13} fontWeight={600}>
            {t('econ.summaryRatio')}
          </text>
          <Axis
            ticks={costAxis.ticks.map((v) => ({ at: cx(v), value: v }))}
            orient="bottom"
            pos={bottom}
            gridTo={m.t}
            label={t('econ.costAxis')}
            labelAt={{ x: m.l + costW / 2, y: bottom + 36 }}
            format={fmtInt}
          />
          <Axis
            ticks={ticksInside(0, 1, ratioW >= 240 ? 5 : 3).map((v) => ({ at: rx(v), value: v }))}
            orient="bottom"
            pos={bottom}
            gridTo={m.t}
            label={t('econ.ratioAxis')}
            labelAt={{ x: r0 + ratioW / 2, y: bottom + 36 }}
            format={formatPercent0}
          />
          {rows.map((r, i) => {
            const y = m.t + i * rowH;
            const tot = r.accounting.totals;
            const cachedCost = r.accounting.alpha * tot.cached;
            const on = r.mode === selected;
            return (
              <g key={r.mode} data-mode={r.mode} data-cost={tot.cost} data-ratio={tot.cacheRatio} onClick={() => onSelect(r.mode)} style={{ cursor: 'pointer' }}>
                <rect x={0} y={y + 1} width={W} height={rowH - 2} fill={on ? '#fff4cc' : 'transparent'} />
                <text x={m.l - 10} y={y + rowH / 2 + 4} textAnchor="end" fontFamily={MONO} fontWeight={on ? 700 : 400}>
                  {r.mode}
                </text>
                <rect x={cx(0)} y={y + 7} width={cx(tot.uncachedCost) - cx(0)} height={rowH - 14} fill="none" stroke={ECON_COLORS.noCache} strokeDasharray="4 3" strokeWidth={1.5} />
                <rect x={cx(0)} y={y + 7} width={cx(tot.recomputed) - cx(0)} height={rowH - 14} fill={ECON_COLORS.recomputed} />
                <rect x={cx(tot.recomputed)} y={y + 7} width={cx(tot.recomputed + cachedCost) - cx(tot.recomputed)} height={rowH - 14} fill={ECON_COLORS.cached} />
                <text x={cx(tot.uncachedCost) + 6} y={y + rowH / 2 + 4} fontSize={11}>
                  {fmtCost(tot.cost)}
                  {base > 0 && r.mode !== 'correct' ? t('econ.timesCorrect', { x: (tot.cost / base).toFixed(1) }) : ''}
                </text>
                <rect x={rx(0)} y={y + 7} width={rx(tot.cacheRatio) - rx(0)} height={rowH - 14} fill={ECON_COLORS.cached} />
                <text x={rx(tot.cacheRatio) + 6} y={y + rowH / 2 + 4} fontSize={11}>
                  {fmtPct(tot.cacheRatio)}
                </text>
              </g>
            );
          })}
        </svg>
        <LegendRow role="pattern-summary-legend">
          <Swatch color={ECON_COLORS.recomputed} label={t('econ.legendRecomputedCost')} />
          <Swatch color={ECON_COLORS.cached} label={t('econ.legendCachedCost')} />
          <Swatch color={ECON_COLORS.noCache} dashed label={t('econ.legendNoCache')} />
          <span style={{ color: '#555' }}>{t('econ.summaryClick')}</span>
        </LegendRow>
      </div>
    </ExportFrame>
  );
}

/** One mode's calls: cached tokens (bottom) and recomputed tokens (top) per call. `mode`, `context`: for the export. */
export function CallStackChart({ accounting, mode, context }: { accounting: Accounting; mode?: PatternMode; context?: string }) {
  const t = useT();
  const calls = accounting.calls;
  const m = { l: 64, r: 12, t: 12, b: 44 };
  const bw = 34;
  const step = 50;
  const W = m.l + calls.length * step + m.r;
  const ph = 230;
  const H = m.t + ph + m.b;
  const axis = niceAxis(0, Math.max(1, ...calls.map((c) => c.sent)), 5);
  const y = linearMap(0, axis.hi, m.t + ph, m.t);
  const caption = t('export.caption.patternCalls', { mode: mode ?? '' });
  // The accounting of each call (sent, cached, recomputed, cost …) and the totals.
  const exportJson = () => ({ kind: 'pattern-calls', mode: mode ?? null, blockSize: accounting.blockSize, alpha: accounting.alpha, totals: accounting.totals, calls: accounting.calls });
  return (
    <ExportFrame name={`patterns-calls-${mode ?? 'mode'}`} title={context ? `${caption} · ${context}` : caption} json={exportJson}>
      <div style={{ display: 'grid', gap: 6, alignContent: 'start' }}>
        <svg data-role="pattern-calls-chart" width={W} height={H} role="img" aria-label={t('econ.callsChartAria')} style={{ font: '12px system-ui, sans-serif' }}>
          <Axis ticks={axis.ticks.map((v) => ({ at: y(v), value: v }))} orient="left" pos={m.l} gridTo={W - m.r} label={t('econ.tokensAxis')} labelAt={{ x: 14, y: m.t + ph / 2 }} />
          {calls.map((c, i) => {
            const x = m.l + i * step + (step - bw) / 2;
            return (
              <g key={i} data-call={i} data-cached={c.cached} data-recomputed={c.recomputed}>
                <title>{t('econ.callBarTip', { call: i + 1, sent: c.sent, cached: c.cached, recomputed: c.recomputed })}</title>
                <rect x={x} y={y(c.cached)} width={bw} height={y(0) - y(c.cached)} fill={ECON_COLORS.cached} />
                <rect x={x} y={y(c.sent)} width={bw} height={y(c.cached) - y(c.sent)} fill={ECON_COLORS.recomputed} />
                <text x={x + bw / 2} y={m.t + ph + 16} textAnchor="middle" fontSize={11}>
                  {i + 1}
                </text>
              </g>
            );
          })}
          <line x1={m.l} x2={W - m.r} y1={m.t + ph} y2={m.t + ph} stroke="#888" />
          <text x={m.l + (calls.length * step) / 2} y={H - 6} textAnchor="middle" fontSize={12}>
            {t('econ.callAxis')}
          </text>
        </svg>
        <LegendRow role="pattern-calls-legend">
          <Swatch color={ECON_COLORS.cached} label={t('econ.legendCachedTokens')} />
          <Swatch color={ECON_COLORS.recomputed} label={t('econ.legendRecomputedTokens')} />
        </LegendRow>
      </div>
    </ExportFrame>
  );
}
