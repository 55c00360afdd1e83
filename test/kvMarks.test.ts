// lib/view/kvMarks: runs of changed cells, their marker boxes (never narrower than MIN_MARK_PX, merged when
// they touch, kept inside the map), callout placement, the position axis's ticks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boundaryX, calloutMarks, changedRuns, labelWidth, layoutChangeMarks, MIN_MARK_PX, placeCallouts, positionTicks } from '../lib/view/kvMarks';

/** [layers × positions] with `changed` cells set to 1 (the rest 0). */
function grid(layers: number, positions: number, changed: [number, number][]): Float32Array {
  const v = new Float32Array(layers * positions);
  for (const [l, p] of changed) v[l * positions + p] = 1;
  return v;
}

test('changedRuns: consecutive positions above tol per layer; at tol is unchanged; NaN is changed', () => {
  const v = grid(2, 10, [
    [0, 4],
    [1, 4],
    [1, 5],
    [1, 6],
    [1, 9],
  ]);
  v[0 * 10 + 7] = 1e-6; // exactly tol: not changed
  v[0 * 10 + 8] = NaN;
  assert.deepEqual(changedRuns(v, 2, 10, 1e-6), [
    { layer: 0, from: 4, to: 5 },
    { layer: 0, from: 8, to: 9 },
    { layer: 1, from: 4, to: 7 },
    { layer: 1, from: 9, to: 10 },
  ]);
  assert.deepEqual(changedRuns(new Float32Array(6), 2, 3, 0), []);
  assert.throws(() => changedRuns(new Float32Array(5), 2, 3, 0), RangeError);
});

test('an in-place edit at position 6 of 411 on 1100 px: the layer-0 mark is ≥ MIN_MARK_PX wide, centred on its cell, and wider than the prefix line', () => {
  const P = 411;
  const W = 1100;
  const p = 6;
  const changed: [number, number][] = [[0, p]];
  for (let l = 1; l < 4; l++) for (let q = p; q < P; q++) changed.push([l, q]);
  const marks = layoutChangeMarks(changedRuns(grid(4, P, changed), 4, P, 1e-6), P, W);
  assert.equal(marks.length, 4);
  const m0 = marks[0]!;
  assert.equal(m0.layer, 0);
  assert.equal(m0.width, MIN_MARK_PX);
  assert.ok(MIN_MARK_PX >= 4);
  const cellCentre = ((p + 0.5) / P) * W;
  assert.ok(Math.abs(m0.x + m0.width / 2 - cellCentre) < 1e-9);
  // The prefix line (2 px at boundaryX(p)) lies inside the mark: drawn under it, it cannot cover it.
  const line = boundaryX(p, P, W);
  assert.ok(m0.x < line - 1 && line + 1 < m0.x + m0.width);
  // Later layers: one box each from p to the end, exactly as wide as their cells.
  for (const m of marks.slice(1)) {
    assert.deepEqual([m.from, m.to, m.changed, m.runs], [p, P, P - p, 1]);
    assert.ok(Math.abs(m.x - boundaryX(p, P, W)) < 1e-9);
    assert.ok(Math.abs(m.x + m.width - W) < 1e-9);
  }
});

test('marks stay inside the map and merge when they touch; wide runs keep their own width', () => {
  // 5,000 positions on 500 px: every cell is 0.1 px; runs at 0, 2 and 4,999.
  const P = 5000;
  const marks = layoutChangeMarks(
    [
      { layer: 0, from: 0, to: 1 },
      { layer: 0, from: 2, to: 3 },
      { layer: 0, from: 4999, to: 5000 },
      { layer: 1, from: 1000, to: 3000 },
    ],
    P,
    500,
  );
  assert.equal(marks.length, 3);
  assert.deepEqual([marks[0]!.x, marks[0]!.width, marks[0]!.from, marks[0]!.to, marks[0]!.runs, marks[0]!.changed], [0, MIN_MARK_PX, 0, 3, 2, 2]);
  assert.ok(Math.abs(marks[1]!.x + marks[1]!.width - 500) < 1e-9, 'the last position’s mark ends at the map’s right edge');
  assert.deepEqual([marks[2]!.x, marks[2]!.width], [100, 200]);
  // Many separate single cells on a narrow map collapse into few boxes (bounded by the width).
  const runs = Array.from({ length: 2000 }, (_, i) => ({ layer: 0, from: 2 * i, to: 2 * i + 1 }));
  assert.ok(layoutChangeMarks(runs, 4000, 400).length <= 400 / MIN_MARK_PX);
  // A map narrower than the minimum width: one box, the whole map.
  assert.deepEqual(layoutChangeMarks([{ layer: 0, from: 0, to: 1 }], 3, 5).map((m) => [m.x, m.width]), [[0, 5]]);
});

test('callouts: only the few layer-0 marks of an in-place edit', () => {
  const mk = (layer: number, from: number) => ({ layer, from, to: from + 1, changed: 1, runs: 1, x: from, width: 8 });
  assert.deepEqual(calloutMarks([mk(0, 5), mk(1, 5)]).map((m) => m.from), [5]);
  assert.deepEqual(calloutMarks([mk(0, 1), mk(0, 20), mk(0, 40), mk(0, 60)]), []);
  assert.deepEqual(calloutMarks([mk(1, 5)]), []);
});

test('placeCallouts: centred on the anchor, inside the lane, in order without overlap', () => {
  // One label near the left edge: pushed inside.
  assert.deepEqual(placeCallouts([{ anchor: 10, width: 200 }], 1000), [{ left: 0, width: 200, anchor: 10 }]);
  // Near the right edge: pulled back inside.
  assert.equal(placeCallouts([{ anchor: 990, width: 200 }], 1000)[0]!.left, 800);
  // In the middle: centred.
  assert.equal(placeCallouts([{ anchor: 500, width: 200 }], 1000)[0]!.left, 400);
  // Two close anchors (given out of order): the second starts after the first plus the gap.
  const two = placeCallouts(
    [
      { anchor: 520, width: 100 },
      { anchor: 500, width: 100 },
    ],
    1000,
    8,
  );
  assert.equal(two[1]!.left, 450);
  assert.equal(two[0]!.left, 558);
  // Crowded at the right edge: all inside, none overlapping.
  const crowd = placeCallouts(
    [
      { anchor: 980, width: 100 },
      { anchor: 990, width: 100 },
      { anchor: 995, width: 100 },
    ],
    1000,
    8,
  );
  const sorted = [...crowd].sort((a, b) => a.left - b.left);
  assert.ok(sorted.at(-1)!.left + 100 <= 1000);
  for (let i = 1; i < sorted.length; i++) assert.ok(sorted[i]!.left >= sorted[i - 1]!.left + 100 + 8 - 1e-9);
});

test('labelWidth: CJK characters count about one em, Latin about 0.6 em', () => {
  assert.equal(labelWidth('abcde', 10), 30);
  assert.equal(labelWidth('第 0 层', 12), Math.ceil(12 + 7.2 + 7.2 + 7.2 + 12));
});

test('positionTicks: integer positions at 1/2/5 × 10^k steps, at cell centres, about one per 90 px', () => {
  const t = positionTicks(411, 1100);
  assert.deepEqual(
    t.map((x) => x.value),
    [0, 50, 100, 150, 200, 250, 300, 350, 400],
  );
  for (const { value, x } of t) assert.ok(Math.abs(x - ((value + 0.5) / 411) * 1100) < 1e-9);
  // Few positions: a step of 1, never fractional.
  assert.deepEqual(
    positionTicks(4, 800).map((x) => x.value),
    [0, 1, 2, 3],
  );
  assert.deepEqual(positionTicks(0, 800), []);
  assert.deepEqual(positionTicks(10, 0), []);
});
