'use client';
// The context-growth chart's data and input: the geometry of every series (lib/view/growthChart), the tick
// labels, and the selected call (pointer over a column, or ←/→, Home/End, PageUp/PageDown; Escape clears)
// with where its outline and tooltip go.
import { useMemo, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { ContextGrowth, GrowthRow } from '../../lib/analysis/contextGrowth';
import type { RunLog } from '../../lib/io/runlog';
import { AGENT_COLORS, callTickLabels, callX, columnAt, columnOf, growthGeometry, type Column, type PlotBox } from '../../lib/view/growthChart';
import { tickFormatter } from '../../lib/view/scale';

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
/** Narrowest bar whose cached part is hatched (narrower ones get a flat tint). */
const HATCH_MIN_PX = 5;

/** The selected call: its column, the row, the outline's centre, width and top. */
export interface SelectedCall {
  c: number;
  col: Column;
  r: GrowthRow;
  cx: number;
  w: number;
  top: number;
}

export function useGrowthChart(growth: ContextGrowth, log: RunLog, contextWindow: number | undefined) {
  const rows = growth.rows;
  const n = rows.length;
  const geo = useMemo(() => growthGeometry(rows, log.agents, BOX, contextWindow), [rows, log.agents, contextWindow]);
  const [selected, setSelected] = useState<number | null>(null);
  const sel = selected !== null && selected < n ? selected : null;
  const usedSlots = useMemo(() => AGENT_COLORS.map((_, s) => geo.uncached[s] !== '' || geo.cached[s] !== ''), [geo]);
  // Hatching needs room: on narrow bars (and pixel columns) the cached part is a flat lighter tint.
  const hatched = (geo.layout.columns[0]?.w ?? 0) >= HATCH_MIN_PX;
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
  const selInfo = useMemo((): SelectedCall | null => {
    if (sel === null) return null;
    const c = columnOf(geo.layout, sel);
    const col = geo.layout.columns[c]!;
    const r = rows[sel]!;
    const cx = geo.layout.binned ? geo.layout.x0 + (c + 0.5) * geo.layout.slot : callX(BOX, n, sel);
    const w = Math.max(col.w, 3);
    const top = geo.y(r.promptTokens + r.completionTokens);
    return { c, col, r, cx, w, top };
  }, [sel, geo, rows, n]);

  return { n, geo, sel, selInfo, usedSlots, hatched, fmt, onPointerMove, onKeyDown, clear: () => setSelected(null) };
}
