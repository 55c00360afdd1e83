// Geometry and number formats of the context-growth chart of an imported run log (components/data/GrowthChart):
// columns (one per call, or one per pixel column when there are more calls than pixels), the bars of each
// colour as one SVG path, the cumulative line, the over-window bands, thinned x labels and compact tick
// labels (axes, maps and tick formats from lib/view/scale). Pure TS: no DOM, no React; no Intl (formats are
// the same in every locale).

import { formatCount } from '../prompt/request';
import { MAX_TOKENS } from '../io/runlog';
import { linearMap, niceAxis, niceStep, tickFormatter, type Axis } from './scale';
import type { GrowthRow } from '../analysis/contextGrowth';

/** Paul Tol's "bright" scheme (colour-blind safe), one colour per agent in order of first appearance; cycles after 7. */
export const AGENT_COLORS = ['#4477AA', '#EE6677', '#228833', '#CCBB44', '#66CCEE', '#AA3377', '#BBBBBB'] as const;
export const agentColor = (i: number): string => AGENT_COLORS[((i % AGENT_COLORS.length) + AGENT_COLORS.length) % AGENT_COLORS.length]!;

/** Context-window presets offered by the view (tokens). */
export const WINDOW_PRESETS = [8192, 32768, 128000, 200000, 1000000] as const;
export const DEFAULT_WINDOW = 128000;

/** α typed by the user: a decimal number from 0 to 1 (no sign but +, no hex, no Infinity), or null. */
export function parseAlpha(s: string): number | null {
  const t = s.trim();
  if (!/^\+?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return null;
  const n = Number(t);
  return n >= 0 && n <= 1 ? n : null;
}

/** A context window typed by the user: a whole number of tokens from 1 to MAX_TOKENS, or null. */
export function parseWindow(s: string): number | null {
  const t = s.trim().replace(/[,_\s]/g, '');
  if (!/^\d+$/.test(t)) return null;
  const n = Number(t);
  return Number.isSafeInteger(n) && n >= 1 && n <= MAX_TOKENS ? n : null;
}

/** `n` with `digits` decimals and thousands separators, e.g. 1099687.5 → "1,099,687.5". */
export function formatUnits(n: number, digits = 1): string {
  const s = Math.abs(n).toFixed(digits);
  const [int, frac] = s.split('.');
  const sign = n < 0 && Number(s) !== 0 ? '-' : '';
  return sign + formatCount(Number(int)) + (frac ? `.${frac}` : '');
}

/** Labels of the x axis's call numbers: as tickFormatter gives them, except call 1, always "1" (never "0.001k"). */
export function callTickLabels(calls: readonly number[]): string[] {
  const f = tickFormatter(calls);
  return calls.map((c) => (c === 1 ? '1' : f(c)));
}

/** One column of bars: the calls [from, to) (0-based); `rep` is the one drawn (the largest prompt, first of ties). */
export interface Column {
  from: number;
  to: number;
  rep: number;
  /** The bar's left edge and width (px). */
  x: number;
  w: number;
}

export interface ColumnLayout {
  columns: Column[];
  /** Width of one column's slot (px); column c's slot starts at x0 + c · slot. */
  slot: number;
  x0: number;
  /** More calls than pixel columns: each column covers several calls and shows the largest prompt among them. */
  binned: boolean;
}

/** Widest bar drawn, in px, however few calls there are. */
export const MAX_BAR_PX = 48;

/**
 * Columns for `prompts.length` calls across `plotWidth` px starting at x0. While every call gets at least
 * one pixel (n ≤ ⌊plotWidth⌋) each call is a column; its bar is 70% of the slot (at most MAX_BAR_PX) when
 * the slot is 4 px or wider, else the whole slot. Otherwise there are ⌊plotWidth⌋ columns; column c covers
 * calls ⌊c·n/cols⌋ … ⌊(c+1)·n/cols⌋ − 1 and its bar (the whole slot) is the call with the largest prompt.
 */
export function layoutColumns(prompts: ArrayLike<number>, plotWidth: number, x0 = 0): ColumnLayout {
  const n = prompts.length;
  const cols = Math.max(1, Math.floor(plotWidth));
  const columns: Column[] = [];
  if (n <= cols) {
    const slot = n > 0 ? plotWidth / n : plotWidth;
    const w = slot >= 4 ? Math.min(slot * 0.7, MAX_BAR_PX) : slot;
    for (let i = 0; i < n; i++) columns.push({ from: i, to: i + 1, rep: i, x: x0 + i * slot + (slot - w) / 2, w });
    return { columns, slot, x0, binned: false };
  }
  const slot = plotWidth / cols;
  for (let c = 0; c < cols; c++) {
    const from = Math.floor((c * n) / cols);
    const to = Math.floor(((c + 1) * n) / cols);
    let rep = from;
    for (let i = from + 1; i < to; i++) if (prompts[i]! > prompts[rep]!) rep = i;
    columns.push({ from, to, rep, x: x0 + c * slot, w: slot });
  }
  return { columns, slot, x0, binned: true };
}

/** The column (index) holding call `call` (0-based), by binary search; -1 when out of range. */
export function columnOf(layout: ColumnLayout, call: number): number {
  const cs = layout.columns;
  if (cs.length === 0 || call < 0 || call >= cs[cs.length - 1]!.to) return -1;
  let lo = 0;
  let hi = cs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (cs[mid]!.from <= call) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The column (index) whose slot holds x, or -1 when x is left or right of the plot. */
export function columnAt(layout: ColumnLayout, x: number): number {
  const c = Math.floor((x - layout.x0) / layout.slot);
  return c >= 0 && c < layout.columns.length ? c : -1;
}

/**
 * Call numbers (1-based) to label on the x axis so that labels are at least as far apart as the widest
 * label needs (digits × charPx + padPx): every `step`-th call, step the smallest of 1, 2, 5, 10, 20, 25,
 * 50, … that fits; call 1 as well when it is that far from the first multiple.
 */
export function xCallTicks(n: number, plotWidth: number, charPx = 7, padPx = 14): number[] {
  if (n < 1) return [];
  const pxPerCall = plotWidth / n;
  const minSpacing = String(n).length * charPx + padPx;
  let step = Math.max(1, niceStep(minSpacing / pxPerCall));
  if (!Number.isInteger(step)) step = 5; // 2.5
  const ticks: number[] = [];
  if (step > 1 && (step - 1) * pxPerCall >= minSpacing) ticks.push(1);
  for (let k = step; k <= n; k += step) ticks.push(k);
  if (ticks.length === 0) ticks.push(1);
  return ticks;
}

/**
 * The top of the token axis: the tallest bar, raised to the context window when the window is at most
 * 1.5 × the tallest bar (so the headroom shows); a larger window stays off the chart (`windowInside` false).
 */
export function tokenDomain(maxBar: number, window?: number): { max: number; windowInside: boolean } {
  if (window === undefined) return { max: maxBar, windowInside: false };
  if (window <= maxBar) return { max: maxBar, windowInside: true };
  if (window <= 1.5 * maxBar) return { max: window, windowInside: true };
  return { max: maxBar, windowInside: false };
}

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}
const r2 = (v: number) => String(Math.round(v * 100) / 100);

/** Rectangles as one SVG path ("M x y h w v h h -w Z" each); empty ones are skipped. */
export function rectsPath(rects: Iterable<Rect>): string {
  const out: string[] = [];
  for (const r of rects) if (r.w > 0 && r.h > 0) out.push(`M${r2(r.x)} ${r2(r.y)}h${r2(r.w)}v${r2(r.h)}h-${r2(r.w)}Z`);
  return out.join('');
}

/** A polyline through the points as one SVG path. */
export function linePath(points: Iterable<{ x: number; y: number }>): string {
  const out: string[] = [];
  for (const p of points) out.push(`${out.length ? 'L' : 'M'}${r2(p.x)} ${r2(p.y)}`);
  return out.join('');
}

export interface PlotBox {
  x0: number;
  y0: number;
  w: number;
  h: number;
}

export interface GrowthGeometry {
  layout: ColumnLayout;
  /** Left axis (prompt + completion tokens per call) and right axis (cumulative tokens). */
  tokenAxis: Axis;
  cumulativeAxis: Axis;
  /** Data → pixel maps of the two axes. */
  y: (v: number) => number;
  yCum: (v: number) => number;
  /** Labelled calls (1-based) and their x. */
  xTicks: { call: number; x: number }[];
  /** The window line's y, or null when there is no window or it is above the chart. */
  windowY: number | null;
  /** Per colour slot (AGENT_COLORS index): the uncached and the cached parts of the prompt bars. */
  uncached: string[];
  cached: string[];
  /** Completion tokens stacked on the prompts (all agents). */
  completion: string;
  /** The cumulative tokens line: a point per column at its last call. */
  cumulative: string;
  /** Bands behind the columns holding a call over the window (consecutive ones merged). */
  over: string;
  /** The largest number of calls a column covers. */
  callsPerColumn: number;
}

/** Centre x of call i (0-based) of n across the plot: also the centre of its column when not binned. */
export const callX = (box: PlotBox, n: number, i: number): number => box.x0 + ((i + 0.5) / n) * box.w;

/**
 * Everything the chart draws, as paths: bars coloured by the agent's colour slot (agents in `agents` order,
 * slot = index mod 7), the cached part (bottom) apart from the uncached part, completion on top, the
 * cumulative line on its own axis and the over-window bands.
 */
export function growthGeometry(rows: readonly GrowthRow[], agents: readonly string[], box: PlotBox, window?: number): GrowthGeometry {
  const n = rows.length;
  const prompts = new Float64Array(n);
  let maxBar = 0;
  for (let i = 0; i < n; i++) {
    prompts[i] = rows[i]!.promptTokens;
    maxBar = Math.max(maxBar, rows[i]!.promptTokens + rows[i]!.completionTokens);
  }
  const layout = layoutColumns(prompts, box.w, box.x0);
  const dom = tokenDomain(maxBar, window);
  const tokenAxis = niceAxis(0, dom.max, 6);
  const cumulativeAxis = niceAxis(0, n > 0 ? rows[n - 1]!.cumulativeTokens : 0, 6);
  const bottom = box.y0 + box.h;
  const y = linearMap(0, tokenAxis.hi, bottom, box.y0);
  const yCum = linearMap(0, cumulativeAxis.hi, bottom, box.y0);
  const k = box.h / tokenAxis.hi;

  const slotOf = new Map<string, number>();
  agents.forEach((a, i) => slotOf.set(a, i % AGENT_COLORS.length));
  const uncachedRects: Rect[][] = AGENT_COLORS.map(() => []);
  const cachedRects: Rect[][] = AGENT_COLORS.map(() => []);
  const completionRects: Rect[] = [];
  const overRects: Rect[] = [];
  const points: { x: number; y: number }[] = [];
  let callsPerColumn = 0;
  for (let c = 0; c < layout.columns.length; c++) {
    const col = layout.columns[c]!;
    callsPerColumn = Math.max(callsPerColumn, col.to - col.from);
    const r = rows[col.rep]!;
    const s = slotOf.get(r.agent) ?? 0;
    const hc = r.cachedTokens * k;
    const hu = r.uncachedTokens * k;
    const ho = r.completionTokens * k;
    cachedRects[s]!.push({ x: col.x, y: bottom - hc, w: col.w, h: hc });
    uncachedRects[s]!.push({ x: col.x, y: bottom - hc - hu, w: col.w, h: hu });
    completionRects.push({ x: col.x, y: bottom - hc - hu - ho, w: col.w, h: ho });
    const last = rows[col.to - 1]!;
    points.push({ x: layout.x0 + (c + 0.5) * layout.slot, y: yCum(last.cumulativeTokens) });
    let isOver = false;
    for (let i = col.from; i < col.to && !isOver; i++) isOver = rows[i]!.overWindow;
    if (isOver) {
      const sx = layout.x0 + c * layout.slot;
      const prev = overRects[overRects.length - 1];
      if (prev && Math.abs(prev.x + prev.w - sx) < 1e-6) prev.w += layout.slot;
      else overRects.push({ x: sx, y: box.y0, w: layout.slot, h: box.h });
    }
  }
  return {
    layout,
    tokenAxis,
    cumulativeAxis,
    y,
    yCum,
    xTicks: xCallTicks(n, box.w).map((call) => ({ call, x: callX(box, n, call - 1) })),
    windowY: window !== undefined && dom.windowInside ? y(window) : null,
    uncached: uncachedRects.map(rectsPath),
    cached: cachedRects.map(rectsPath),
    completion: rectsPath(completionRects),
    cumulative: linePath(points),
    over: rectsPath(overRects),
    callsPerColumn,
  };
}
