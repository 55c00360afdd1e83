// lib/view/growthChart: the context-growth chart's geometry (columns, binning, paths, ticks, the token domain)
// and its number formats, against hand-computed values.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contextGrowth } from '../lib/analysis/contextGrowth';
import type { RunLog } from '../lib/io/runlog';
import {
  agentColor,
  columnAt,
  columnOf,
  formatUnits,
  growthGeometry,
  layoutColumns,
  linePath,
  parseAlpha,
  parseWindow,
  rectsPath,
  callTickLabels,
  tokenDomain,
  xCallTicks,
} from '../lib/view/growthChart';
import { formatPercent1 as formatPercent, tickFormatter } from '../lib/view/scale';

test('layoutColumns: one column per call while calls fit; bars 70% of a ≥ 4 px slot, capped at 48 px', () => {
  const l = layoutColumns([5, 9, 3], 30, 10);
  assert.equal(l.binned, false);
  assert.equal(l.slot, 10);
  assert.deepEqual(l.columns, [
    { from: 0, to: 1, rep: 0, x: 11.5, w: 7 },
    { from: 1, to: 2, rep: 1, x: 21.5, w: 7 },
    { from: 2, to: 3, rep: 2, x: 31.5, w: 7 },
  ]);
  // One call on 100 px: slot 100, bar capped at 48 px, centred (x = 26).
  assert.deepEqual(layoutColumns([1], 100).columns, [{ from: 0, to: 1, rep: 0, x: 26, w: 48 }]);
  // 10 calls on 20 px: 2 px slots, bars fill them.
  const narrow = layoutColumns(new Array(10).fill(1), 20);
  assert.deepEqual(narrow.columns.map((c) => [c.x, c.w]), [0, 2, 4, 6, 8, 10, 12, 14, 16, 18].map((x) => [x, 2]));
});

test('layoutColumns: more calls than pixels → ⌊width⌋ columns, each drawing its largest prompt (first of ties)', () => {
  // n = 7 on 3.5 px: 3 columns covering calls [0,2), [2,4), [4,7).
  const l = layoutColumns([1, 5, 2, 2, 7, 7, 0], 3.5);
  assert.equal(l.binned, true);
  assert.ok(Math.abs(l.slot - 3.5 / 3) < 1e-12);
  assert.deepEqual(l.columns.map((c) => [c.from, c.to, c.rep]), [[0, 2, 1], [2, 4, 2], [4, 7, 4]]);
  assert.deepEqual(l.columns.map((c) => Number(c.x.toFixed(4))), [0, 1.1667, 2.3333]);
  // columnOf by binary search, columnAt by x.
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 7, -1].map((i) => columnOf(l, i)), [0, 0, 1, 1, 2, 2, 2, -1, -1]);
  const p = layoutColumns([5, 9, 3], 30, 10);
  assert.deepEqual([9.9, 10, 19.9, 20, 39.99, 40].map((x) => columnAt(p, x)), [-1, 0, 0, 1, 2, -1]);
  assert.deepEqual([0, 1, 2, 3].map((i) => columnOf(p, i)), [0, 1, 2, -1]);
});

test('xCallTicks: every step-th call (1, 2, 5, 10, 20, 25, 50 …) so labels keep digits × 7 + 14 px apart', () => {
  // 26 calls on 920 px: 35.4 px per call ≥ 28 → every call.
  assert.deepEqual(xCallTicks(26, 920), Array.from({ length: 26 }, (_, i) => i + 1));
  // 20,000 calls on 920 px: 0.046 px per call, 49 px needed → raw step 1065 → 2000; call 1 is 92 px from 2000.
  assert.deepEqual(xCallTicks(20000, 920), [1, 2000, 4000, 6000, 8000, 10000, 12000, 14000, 16000, 18000, 20000]);
  // 100 calls on 920 px: 9.2 px per call, 35 px needed → raw 3.8 → 5; call 1 is 36.8 px from 5.
  assert.deepEqual(xCallTicks(100, 920), [1, ...Array.from({ length: 20 }, (_, i) => 5 * (i + 1))]);
  // 50 calls on 100 px: 2 px per call, 28 px → raw 14 → 20.
  assert.deepEqual(xCallTicks(50, 100), [1, 20, 40]);
  // raw 2.24 → niceStep 2.5 → 5 (whole calls only).
  assert.deepEqual(xCallTicks(10, 125), [1, 5, 10]);
  // 12 calls on 60 px: 5 px per call, 28 px → raw 5.6 → 10; call 1 is 45 px from 10 (kept).
  // 3 calls on 30 px: 21 px needed, raw 2.1 → 2.5 → 5 > 3 calls: call 1 only.
  assert.deepEqual(xCallTicks(12, 60), [1, 10]);
  assert.deepEqual(xCallTicks(3, 30), [1]);
  // 95 calls on 100 px: 1.053 px per call, 28 px → raw 26.6 → 50; 1 is 51.6 px from 50 (kept).
  assert.deepEqual(xCallTicks(95, 100), [1, 50]);
  // 2 calls on 30 px: 15 px per call, 21 px → raw 1.4 → 2; call 1 would be 15 px from 2 (< 21): dropped.
  assert.deepEqual(xCallTicks(2, 30), [2]);
  assert.deepEqual(xCallTicks(0, 100), []);
});

test('tokenDomain: the window raises the axis only when within 1.5 × the tallest bar', () => {
  assert.deepEqual(tokenDomain(100), { max: 100, windowInside: false });
  assert.deepEqual(tokenDomain(100, 80), { max: 100, windowInside: true });
  assert.deepEqual(tokenDomain(100, 150), { max: 150, windowInside: true });
  assert.deepEqual(tokenDomain(100, 151), { max: 100, windowInside: false });
});

test('rectsPath / linePath: one path, 2 decimals, empty rectangles skipped', () => {
  assert.equal(rectsPath([{ x: 1, y: 2, w: 3, h: 4 }, { x: 0, y: 0, w: 0, h: 5 }, { x: 1 / 3, y: 2 / 3, w: 0.005, h: 1 }]), 'M1 2h3v4h-3ZM0.33 0.67h0.01v1h-0.01Z');
  assert.equal(rectsPath([]), '');
  assert.equal(linePath([{ x: 0, y: 0 }, { x: 1.234, y: 5 }]), 'M0 0L1.23 5');
});

test('growthGeometry: bars per agent colour, cached at the bottom, completion on top, cumulative line, window, over bands', () => {
  const log: RunLog = {
    agents: ['A', 'B'],
    calls: [
      { agent: 'A', promptTokens: 100, completionTokens: 20 },
      { agent: 'B', promptTokens: 50, completionTokens: 10 },
      { agent: 'A', promptTokens: 150, completionTokens: 30 }, // reuses A's 120: cached 120, uncached 30
    ],
  };
  const g = contextGrowth(log, { alpha: 0.1, contextWindow: 175 });
  const geo = growthGeometry(g.rows, log.agents, { x0: 0, y0: 0, w: 30, h: 100 }, 175);
  // Tallest bar 180 ≥ window 175 → axis 0…200 by 50 (0.5 px per token); cumulative 360 → 0…400 by 100.
  assert.deepEqual(geo.tokenAxis.ticks, [0, 50, 100, 150, 200]);
  assert.deepEqual(geo.cumulativeAxis.ticks, [0, 100, 200, 300, 400]);
  assert.equal(geo.windowY, 12.5);
  assert.equal(geo.layout.binned, false);
  assert.equal(geo.cached[0], 'M21.5 40h7v60h-7Z');
  assert.equal(geo.uncached[0], 'M1.5 50h7v50h-7ZM21.5 25h7v15h-7Z');
  assert.equal(geo.cached[1], '');
  assert.equal(geo.uncached[1], 'M11.5 75h7v25h-7Z');
  assert.deepEqual(geo.uncached.slice(2), ['', '', '', '', '']);
  assert.equal(geo.completion, 'M1.5 40h7v10h-7ZM11.5 70h7v5h-7ZM21.5 10h7v15h-7Z');
  assert.equal(geo.cumulative, 'M5 70L15 55L25 10');
  assert.equal(geo.over, 'M20 0h10v100h-10Z'); // call 3: 180 > 175
  assert.deepEqual(geo.xTicks, [{ call: 1, x: 5 }]);
  assert.equal(geo.callsPerColumn, 1);
  // A window far above the bars stays off the chart.
  assert.equal(growthGeometry(g.rows, log.agents, { x0: 0, y0: 0, w: 30, h: 100 }, 1000).windowY, null);
  assert.equal(agentColor(0), '#4477AA');
  assert.equal(agentColor(8), '#EE6677');
});

test('growthGeometry binned: each column draws its largest prompt, the line its last cumulative, over bands merge', () => {
  const prompts = [10, 40, 20, 22, 5, 50];
  const log: RunLog = { agents: ['A'], calls: prompts.map((p) => ({ agent: 'A', promptTokens: p, completionTokens: 0 })) };
  const box = { x0: 0, y0: 0, w: 3, h: 100 };
  const g = contextGrowth(log, { contextWindow: 25 });
  const geo = growthGeometry(g.rows, log.agents, box, 25);
  assert.equal(geo.layout.binned, true);
  assert.deepEqual(geo.layout.columns.map((c) => [c.from, c.to, c.rep]), [[0, 2, 1], [2, 4, 3], [4, 6, 5]]);
  assert.equal(geo.callsPerColumn, 2);
  // Cumulative 10 50 70 92 97 147 → points at 50, 92, 147 on an axis to 150 (step 50; 100/150 px per token).
  assert.deepEqual(geo.cumulativeAxis.ticks, [0, 50, 100, 150]);
  assert.equal(geo.cumulative, `M0.5 ${Number((100 - (50 * 100) / 150).toFixed(2))}L1.5 ${Number((100 - (92 * 100) / 150).toFixed(2))}L2.5 2`);
  // Window 25: columns 0 (40) and 2 (50) hold calls over it, column 1 (20, 22) does not.
  assert.equal(geo.over, 'M0 0h1v100h-1ZM2 0h1v100h-1Z');
  const all = growthGeometry(contextGrowth(log, { contextWindow: 15 }).rows, log.agents, box, 15);
  assert.equal(all.over, 'M0 0h3v100h-3Z');
  // 100,000 calls on 900 px: 900 columns; each path has one subpath per column at most.
  const many: RunLog = { agents: ['A', 'B'], calls: Array.from({ length: 100_000 }, (_, i) => ({ agent: i % 2 ? 'B' : 'A', promptTokens: 1000 + (i % 997), completionTokens: 10 })) };
  const big = growthGeometry(contextGrowth(many).rows, many.agents, { x0: 0, y0: 0, w: 900, h: 300 });
  assert.equal(big.layout.columns.length, 900);
  assert.ok((big.completion.match(/M/g) ?? []).length <= 900);
  assert.equal((big.cumulative.match(/L/g) ?? []).length, 899);
});

test('number formats: separators and decimals without Intl; compact ticks; percentages', () => {
  assert.equal(formatUnits(1099687.5), '1,099,687.5');
  assert.equal(formatUnits(172468.5), '172,468.5');
  assert.equal(formatUnits(1272156), '1,272,156.0');
  assert.equal(formatUnits(0), '0.0');
  assert.equal(formatUnits(999.96), '1,000.0');
  assert.equal(formatUnits(-1234.56), '-1,234.6');
  assert.equal(formatUnits(-0.01), '0.0');
  assert.equal(formatUnits(12, 0), '12');
  assert.equal(formatPercent(0.8644281833360059), '86.4%');
  assert.equal(formatPercent(0), '0.0%');
  // Tick labels share the unit of the axis's largest tick.
  const fmt = (ticks: number[]) => ticks.map(tickFormatter(ticks));
  assert.deepEqual(fmt([0, 2000, 4000, 6000, 8000]), ['0', '2,000', '4,000', '6,000', '8,000']);
  assert.deepEqual(fmt([0, 2000, 4000, 6000, 8000, 10000]), ['0', '2k', '4k', '6k', '8k', '10k']);
  assert.deepEqual(fmt([1, 2000, 20000]), ['0.001k', '2k', '20k']);
  assert.deepEqual(fmt([0, 250000, 500000, 750000, 1000000, 1250000]), ['0', '0.25M', '0.5M', '0.75M', '1M', '1.25M']);
  assert.deepEqual(fmt([0, 1125000, 2e9]), ['0', '0.001B', '2B']);
  assert.deepEqual(fmt([0, 0.5, 1]), ['0', '0.5', '1']);
  assert.deepEqual(fmt([0, 2500, 5000, 7500, 10000, 12500]), ['0', '2.5k', '5k', '7.5k', '10k', '12.5k']);
  assert.deepEqual(callTickLabels([1, 2000, 4000, 20000]), ['1', '2k', '4k', '20k']);
  assert.deepEqual(callTickLabels([1, 2, 3]), ['1', '2', '3']);
  assert.deepEqual(callTickLabels([1, 2000, 4000, 8000]), ['1', '2,000', '4,000', '8,000']);
});

test('parseAlpha / parseWindow: what the inputs accept', () => {
  assert.deepEqual(['0.1', ' 1 ', '0', '.5', '1e-1', '+0.25'].map(parseAlpha), [0.1, 1, 0, 0.5, 0.1, 0.25]);
  assert.deepEqual(['', '1.5', '-0.1', 'abc', '0x1', 'Infinity', '0.1.2'].map(parseAlpha), [null, null, null, null, null, null, null]);
  assert.deepEqual(['128000', '128,000', ' 8192 ', '1000000000000'].map(parseWindow), [128000, 128000, 8192, 1e12]);
  assert.deepEqual(['', '0', '1.5', '1e5', '-5', 'x', '1000000000001'].map(parseWindow), [null, null, null, null, null, null, null]);
});
