// lib/view/scale: the maps (d3 underneath) against hand-written formulas, the tick generators against
// hand-computed tick lists, and the labels d3-format writes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  decadeTicks,
  formatInt,
  formatPercent0,
  formatPercent1,
  formatSig2,
  formatSigned,
  formatTenths,
  formatTick,
  linearMap,
  logMap,
  logTicks,
  niceAxis,
  niceStep,
  stepTicks,
  tickLabel,
  ticksInside,
  unitMap,
} from '../lib/view/scale';
import { uniform } from '../lib/util/rng';

test('linearMap: d0 → r0, d1 → r1, extrapolates, flat when d0 = d1, NaN stays NaN', () => {
  const f = linearMap(10, 20, 0, 100);
  assert.equal(f(10), 0);
  assert.equal(f(20), 100);
  assert.equal(f(15), 50);
  assert.equal(f(30), 200);
  assert.equal(f(0), -100);
  assert.ok(Number.isNaN(f(NaN)));
  assert.equal(linearMap(5, 5, 3, 9)(123), 3);
  // Reversed ranges (SVG y grows downward).
  assert.equal(linearMap(0, 400, 100, 0)(100), 75);
});

test('logMap: equal ratios give equal distances, clamped to the ends', () => {
  const f = logMap(1, 1000, 0, 300);
  assert.ok(Math.abs(f(10) - 100) < 1e-9);
  assert.ok(Math.abs(f(100) - 200) < 1e-9);
  assert.equal(f(0.01), 0);
  assert.equal(f(0), 0);
  assert.equal(f(1e6), 300);
});

test('unitMap: (v − d0)/(d1 − d0) bit for bit, clamped, then ^gamma; NaN and degenerate ranges → 0', () => {
  const r = uniform(7);
  for (const [d0, d1] of [[0, 1], [0, 0.37], [0.01, 0.3], [-2, 5]] as const) {
    const lin = unitMap(d0, d1);
    const pow = unitMap(d0, d1, 0.5);
    for (let i = 0; i < 2000; i++) {
      const v = d0 - 0.2 + r() * (d1 - d0 + 0.4);
      const t = Math.min(1, Math.max(0, (v - d0) / (d1 - d0)));
      assert.equal(lin(v), t, `linear ${v} on [${d0}, ${d1}]`);
      assert.equal(pow(v), Math.pow(t, 0.5), `power ${v} on [${d0}, ${d1}]`);
    }
  }
  const u = unitMap(0, 4, 2);
  assert.equal(u(2), 0.25);
  assert.equal(u(-1), 0);
  assert.equal(u(9), 1);
  assert.equal(u(Infinity), 1);
  assert.equal(u(NaN), 0);
  assert.equal(unitMap(1, 1)(1), 0);
  assert.equal(unitMap(2, 1)(1.5), 0);
});

test('niceStep: the smallest multiple at or above the raw step, with or without 2.5', () => {
  assert.deepEqual([0.7, 1, 1.3, 2.2, 3, 7, 0.03, 1300].map((x) => niceStep(x)), [1, 1, 2, 2.5, 5, 10, 0.05, 2000]);
  assert.deepEqual([2.2, 21, 0.3, 0.06].map((x) => niceStep(x, [1, 2, 5])), [5, 50, 0.5, 0.1]);
  assert.equal(niceStep(-1), 1);
  assert.equal(niceStep(NaN), 1);
});

test('stepTicks and ticksInside: multiples of the step inside the range, no float noise', () => {
  assert.deepEqual(stepTicks(0, 1, 0.25), [0, 0.25, 0.5, 0.75, 1]);
  assert.deepEqual(stepTicks(-0.3, 0.3, 0.1), [-0.3, -0.2, -0.1, 0, 0.1, 0.2, 0.3]);
  assert.deepEqual(stepTicks(0.05, 0.95, 0.2), [0.2, 0.4, 0.6, 0.8]);
  assert.deepEqual(stepTicks(0, 99, 20), [0, 20, 40, 60, 80]);
  assert.deepEqual(stepTicks(1, 0, 1), []);
  assert.deepEqual(ticksInside(0, 0.3, 4), [0, 0.1, 0.2, 0.3]);
  assert.deepEqual(ticksInside(-0.37, 0.37, 5), [-0.2, 0, 0.2]);
  assert.deepEqual(ticksInside(-3, 17, 6), [0, 5, 10, 15]);
  assert.deepEqual(ticksInside(2, 2), [2]);
});

test('niceAxis: widened to whole steps; other multiples; integer steps', () => {
  assert.deepEqual(niceAxis(0, 0.22, 6, false, [1, 2, 5]), { lo: 0, hi: 0.25, step: 0.05, ticks: [0, 0.05, 0.1, 0.15, 0.2, 0.25] });
  assert.deepEqual(niceAxis(0, 0.4, 6, false, [1, 2, 5]).ticks, [0, 0.1, 0.2, 0.3, 0.4]);
  assert.deepEqual(niceAxis(-7, 13, 5), { lo: -10, hi: 15, step: 5, ticks: [-10, -5, 0, 5, 10, 15] });
  assert.deepEqual(niceAxis(1, 3, 10, true).ticks, [1, 2, 3]);
});

test('decadeTicks: powers of ten, thinned from the top; the ends when fewer than two decades fit', () => {
  assert.deepEqual(decadeTicks(1e-4, 1, 5), [1e-4, 1e-3, 1e-2, 0.1, 1]);
  assert.deepEqual(decadeTicks(1e-8, 1, 3), [1e-6, 1e-3, 1]);
  assert.deepEqual(decadeTicks(3e-5, 0.3, 5), [1e-4, 1e-3, 1e-2, 0.1]);
  assert.deepEqual(decadeTicks(0.2, 0.5), [0.2, 0.5]);
});

test('logTicks: 1-2-5 per decade when three fit, else every mantissa with 1, 2, 5 labelled', () => {
  const coarse = logTicks(0.001, 0.1);
  assert.deepEqual(coarse.map((t) => Number(t.value.toPrecision(6))), [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1]);
  assert.ok(coarse.every((t) => t.label));
  assert.deepEqual(logTicks(1.1, 4.4).map((t) => [t.value, t.label]), [[2, true], [3, false], [4, false]]);
  assert.deepEqual(logTicks(6, 9.5).map((t) => [t.value, t.label]), [[6, true], [7, true], [8, true], [9, true]]);
});

test('labels: d3-format with the former texts', () => {
  assert.deepEqual([0, 0.25, 2.5e-5, 0.0038, 120000, 1e-4, -3, 12345.678].map(formatTick), ['0', '0.25', '2.5e-5', '0.0038', '1.2e5', '1e-4', '-3', '12345.678']);
  assert.deepEqual([2000, 0.1 + 0.2, -1.5, 0.005].map(tickLabel), ['2000', '0.3', '-1.5', '0.01']);
  assert.deepEqual([0.00052, 0.1, 0.25, 0.0123, 3].map(formatSig2), ['0.00052', '0.1', '0.25', '0.012', '3']);
  assert.deepEqual([0, 0.1, -0.25, 2e-5, -3e-5, 0.185].map(formatSigned), ['0', '+0.1', '−0.25', '+2.0e−5', '−3.0e−5', '+0.18']);
  assert.deepEqual([1234.6, -1234, 0, 1e6].map(formatInt), ['1,235', '-1,234', '0', '1,000,000']);
  assert.deepEqual([1234.56, 0.04, 7].map(formatTenths), ['1,234.6', '0.0', '7.0']);
  assert.deepEqual([0, 0.25, 1].map(formatPercent0), ['0%', '25%', '100%']);
  assert.deepEqual([0, 0.8644281833360059, 1].map(formatPercent1), ['0.0%', '86.4%', '100.0%']);
});
