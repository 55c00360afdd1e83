// Pinned key columns beside the heatmap (lib/view/pinnedColumns): which keys exist, strip widths within the
// budget (never under 4 CSS px), the break after them, pinning and unpinning.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_PINNED } from '../lib/state/store';
import { PIN_LIMIT, pinnedKeys, pinnedLayout, stripAt, togglePinned } from '../lib/view/pinnedColumns';

test('the view pins at most as many columns as the store keeps', () => {
  assert.equal(PIN_LIMIT, MAX_PINNED);
});

test('pinnedKeys keeps whole keys inside the matrix, unique and ascending', () => {
  assert.deepEqual(pinnedKeys([5, 0, 5, 17, -1, 2.5], 17), [0, 5]);
  assert.deepEqual(pinnedKeys([0], 0), []);
});

test('pinnedLayout: one strip takes the widest width; four share the budget; the break follows', () => {
  const one = pinnedLayout([0], { budget: 48 });
  assert.deepEqual(one.strips, [{ key: 0, x: 0, width: 16 }]);
  assert.equal(one.breakX, 16);
  assert.equal(one.breakWidth, 12);
  assert.equal(one.total, 28);
  const four = pinnedLayout([0, 5, 9, 12], { budget: 48 });
  assert.equal(four.stripWidth, 10);
  assert.deepEqual(four.strips.map((s) => s.x), [0, 12, 24, 36]);
  assert.equal(four.breakX, 46);
  assert.ok(four.breakX <= 48, 'within the budget');
  assert.equal(four.total, 58);
  // Strips never overlap and never go under the floor, even when the budget is too small.
  const tight = pinnedLayout([0, 1, 2, 3], { budget: 8 });
  assert.equal(tight.stripWidth, 4);
  for (let i = 1; i < tight.strips.length; i++) assert.ok(tight.strips[i]!.x >= tight.strips[i - 1]!.x + tight.strips[i - 1]!.width);
  // No keys: nothing, not even a break.
  assert.deepEqual(pinnedLayout([], { budget: 48 }), { strips: [], stripWidth: 0, breakX: 0, breakWidth: 0, total: 0 });
  // Options.
  assert.equal(pinnedLayout([0, 1], { budget: 100, max: 20, gap: 4, breakWidth: 10 }).total, 20 + 4 + 20 + 10);
});

test('stripAt finds the strip under x; gaps and the break are no strip', () => {
  const l = pinnedLayout([0, 5], { budget: 48 });
  assert.equal(stripAt(l, 3)?.key, 0);
  assert.equal(stripAt(l, 16.5), null);
  assert.equal(stripAt(l, 19)?.key, 5);
  assert.equal(stripAt(l, l.breakX + 2), null);
  assert.equal(stripAt(l, -1), null);
});

test('togglePinned adds in order, removes, and refuses a fifth', () => {
  assert.deepEqual(togglePinned([0], 7, 4), [0, 7]);
  assert.deepEqual(togglePinned([0, 7], 3, 4), [0, 3, 7]);
  assert.deepEqual(togglePinned([0, 3, 7], 0, 4), [3, 7]);
  const full = [0, 1, 2, 3];
  assert.equal(togglePinned(full, 9, 4), full);
  assert.deepEqual(togglePinned(full, 2, 4), [0, 1, 3]);
  assert.deepEqual(togglePinned([], -1, 4), []);
});
