// Geometry of the StreamingLLM chart (components/lessons/StreamingChart): one line per strategy (window, sink,
// full) of running or moving perplexity along the text, over an x axis of token positions and a y axis of
// perplexity, plus the position where the window first fills. Axes, maps and tick labels from lib/view/scale
// (d3). Pure TS: no DOM, no React, no Intl.

import { movingPerplexity, runningPerplexity, STRATEGIES, type Strategy } from '../analysis/streaming';
import { linearMap, niceAxis, tickFormatter, ticksInside } from './scale';

/** Paul Tol's "bright" red, blue and green (colour-blind safe): window, sink, full. */
export const STRATEGY_COLORS: Record<Strategy, string> = { window: '#EE6677', sink: '#4477AA', full: '#228833' };
/** Dash pattern per strategy, so the lines part without colour too (full is solid). */
export const STRATEGY_DASH: Record<Strategy, string | undefined> = { window: '6 3', sink: '2 2', full: undefined };

export type CurveMode = 'running' | 'moving';
export const DEFAULT_SPAN = 64;

/** What the chart draws from a StreamingResult (lib/analysis/streaming) or the CLI's --json. */
export interface StreamingChartData {
  window: number;
  sink: number;
  firstEvictedQuery: number;
  runs: Record<Strategy, { nll: readonly number[]; perplexity: number | null; perplexityAfterFill: number | null }>;
}

export interface PlotBox {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export interface Tick {
  value: number;
  /** Pixel coordinate along its axis. */
  at: number;
  label: string;
}

export interface StreamingLine {
  strategy: Strategy;
  color: string;
  dash: string | undefined;
  /** The curve's values: element i belongs to token position i + 1 (the token that nll[i] predicts). */
  values: number[];
  /** SVG path ("M x,y L x,y …"), one vertex per token. */
  path: string;
}

export interface StreamingChartGeometry {
  box: PlotBox;
  /** Token position → x. */
  x: (position: number) => number;
  /** Perplexity → y (SVG y downward). */
  y: (ppl: number) => number;
  xTicks: Tick[];
  yTicks: Tick[];
  yLo: number;
  yHi: number;
  lines: StreamingLine[];
  /** x of the first prediction made on a thinned cache (token position firstEvictedQuery + 1); null when none. */
  fillX: number | null;
}

/** The curve of one strategy: running perplexity, or moving perplexity over the last `span` tokens. */
export function curve(nll: readonly number[], mode: CurveMode, span = DEFAULT_SPAN): number[] {
  return mode === 'running' ? runningPerplexity(nll) : movingPerplexity(nll, span);
}

/**
 * Lays the chart into `box`. x runs over token positions 1 … tokens − 1 (the predicted tokens) exactly; y
 * over a nice axis (lib/view/scale niceAxis) from the lowest to the highest curve value, widened to whole
 * steps (flat curves get half a unit either side).
 */
export function streamingChartGeometry(data: StreamingChartData, box: PlotBox, mode: CurveMode, span = DEFAULT_SPAN): StreamingChartGeometry {
  const n = data.runs.full.nll.length;
  const values = STRATEGIES.map((s) => curve(data.runs[s].nll, mode, span));
  let lo = Infinity;
  let hi = -Infinity;
  for (const vs of values) for (const v of vs) if (Number.isFinite(v)) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
  if (!Number.isFinite(lo)) [lo, hi] = [1, 2];
  // Flat curves (or float noise around one value): half a unit either side, perplexity never below 1.
  if (hi - lo < 1e-6) [lo, hi] = [Math.max(1, lo - 0.5), hi + 0.5];
  const yAxis = niceAxis(lo, hi, 5);
  const x0 = 1;
  const x1 = Math.max(2, n);
  const x = linearMap(x0, x1, box.left, box.right);
  const y = linearMap(yAxis.lo, yAxis.hi, box.bottom, box.top);
  const xt = ticksInside(x0, x1, 6).filter((v) => Number.isInteger(v));
  const xf = tickFormatter(xt);
  const yf = tickFormatter(yAxis.ticks);
  const r = (v: number) => Math.round(v * 10) / 10;
  const lines = STRATEGIES.map((strategy, i) => {
    const vs = values[i]!;
    const path = vs.map((v, j) => `${j === 0 ? 'M' : 'L'}${r(x(j + 1))},${r(y(v))}`).join(' ');
    return { strategy, color: STRATEGY_COLORS[strategy], dash: STRATEGY_DASH[strategy], values: vs, path };
  });
  const fill = data.firstEvictedQuery + 1;
  return {
    box,
    x,
    y,
    xTicks: xt.map((v) => ({ value: v, at: x(v), label: xf(v) })),
    yTicks: yAxis.ticks.map((v) => ({ value: v, at: y(v), label: yf(v) })),
    yLo: yAxis.lo,
    yHi: yAxis.hi,
    lines,
    fillX: fill <= n ? x(fill) : null,
  };
}
