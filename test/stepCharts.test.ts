// lib/view/stepCharts: the K/V-growth chart's axes — bytes in one binary unit per axis with nice steps in
// that unit, tokens from 0 to exactly the timeline's end with whole-number ticks inside — and its maps.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bytesAxis, growthChartGeometry, tokensAxis } from '../lib/view/stepCharts';

test('bytesAxis: one unit per axis, chosen from the top; nice steps in that unit; the top covered', () => {
  // 478 tokens × 2048 bytes = 956 KiB: steps of 250 KiB up to 1000 KiB.
  const a = bytesAxis(478 * 2048);
  assert.equal(a.hi, 1000 * 1024);
  assert.deepEqual(a.ticks.map((t) => t.label), ['0', '250 KiB', '500 KiB', '750 KiB', '1000 KiB']);
  assert.deepEqual(a.ticks.map((t) => t.value), [0, 250, 500, 750, 1000].map((v) => v * 1024));
  assert.deepEqual(bytesAxis(300).ticks.map((t) => t.label), ['0', '100 B', '200 B', '300 B']);
  const mib = bytesAxis(52.3 * 1024 * 1024);
  assert.ok(mib.hi >= 52.3 * 1024 * 1024);
  assert.ok(mib.ticks.every((t) => t.label === '0' || t.label.endsWith(' MiB')), mib.ticks.map((t) => t.label).join());
  assert.ok(bytesAxis(0).hi >= 1);
});

test('tokensAxis: 0 to exactly the timeline, whole-number ticks at nice values inside it', () => {
  assert.deepEqual(tokensAxis(478), { hi: 478, ticks: [0, 100, 200, 300, 400].map((v) => ({ value: v, label: String(v) })) });
  assert.deepEqual(tokensAxis(17).ticks.map((t) => t.value), [0, 5, 10, 15]);
  assert.deepEqual(tokensAxis(12).ticks.map((t) => t.value), [0, 5, 10], 'a 2.5 step has no whole ticks between: only whole ones are kept');
  assert.equal(tokensAxis(0).hi, 1);
  assert.equal(tokensAxis(5000).ticks.at(-1)!.label, '5,000');
});

test('growthChartGeometry: x over the tokens axis, y over the bytes axis into the plot box (SVG y downward)', () => {
  const g = growthChartGeometry(478, 478 * 2048, { left: 70, right: 370, top: 10, bottom: 140 });
  assert.equal(g.x(0), 70);
  assert.equal(g.x(478), 370);
  assert.equal(g.y(0), 140);
  assert.equal(g.y(1000 * 1024), 10);
  assert.equal(g.y(500 * 1024), 75);
});
