// lib/view/scale's axes: nice steps and axes (ticks cover the data, land on 1-2-2.5-5 multiples), integer
// axes, degenerate ranges, and the linear map.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { linearMap, niceAxis, niceStep, tickLabel } from '../lib/view/scale';

test('niceStep picks 1, 2, 2.5, 5 or 10 × 10^k at or above the raw step', () => {
  assert.equal(niceStep(0.7), 1);
  assert.equal(niceStep(1), 1);
  assert.equal(niceStep(1.3), 2);
  assert.equal(niceStep(2.2), 2.5);
  assert.equal(niceStep(3), 5);
  assert.equal(niceStep(7), 10);
  assert.equal(niceStep(1300), 2000);
  assert.equal(niceStep(0.03), 0.05);
  assert.equal(niceStep(0), 1);
});

test('niceAxis covers the data with whole steps', () => {
  const a = niceAxis(0, 5843, 5);
  assert.equal(a.lo, 0);
  assert.equal(a.step, 2000);
  assert.equal(a.hi, 6000);
  assert.deepEqual(a.ticks, [0, 2000, 4000, 6000]);
  const b = niceAxis(0, 1, 5);
  assert.deepEqual(b.ticks, [0, 0.25, 0.5, 0.75, 1]);
  const c = niceAxis(3, 97, 6);
  assert.ok(c.lo <= 3 && c.hi >= 97);
  for (const t of c.ticks) assert.equal(Math.abs(t / c.step - Math.round(t / c.step)) < 1e-9, true);
  // Exactly on a tick: no extra step.
  assert.equal(niceAxis(0, 100, 5).hi, 100);
});

test('integer axes step by at least 1; degenerate ranges get one step', () => {
  const a = niceAxis(1, 4, 10, true);
  assert.equal(a.step, 1);
  assert.deepEqual(a.ticks, [1, 2, 3, 4]);
  const d = niceAxis(0, 0, 5);
  assert.equal(d.lo, 0);
  assert.ok(d.hi > 0);
  assert.equal(d.ticks.length, 2);
  assert.throws(() => niceAxis(0, Infinity), RangeError);
});

test('linearMap and tickLabel', () => {
  const f = linearMap(0, 10, 100, 0);
  assert.equal(f(0), 100);
  assert.equal(f(10), 0);
  assert.equal(f(2.5), 75);
  assert.equal(linearMap(3, 3, 7, 9)(100), 7);
  assert.equal(tickLabel(2000), '2000');
  assert.equal(tickLabel(0.1 + 0.2), '0.3');
});
