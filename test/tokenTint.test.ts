// The token view's tint (lib/view/tokenTint): row q's weights over keys 0…q against the row's max.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lightInkOn, rowTint, tintAlpha } from '../lib/view/tokenTint';

test('rowTint reads keys 0…q of row q and its max; null for no row', () => {
  const m = Float32Array.from([1, 0, 0, 0.6, 0.4, 0, 0.2, 0.3, 0.5]);
  const r = rowTint(m, 3, 1)!;
  assert.equal(r.query, 1);
  assert.deepEqual(Array.from(r.weights), [Math.fround(0.6), Math.fround(0.4)]);
  assert.equal(r.max, Math.fround(0.6));
  assert.equal(rowTint(m, 3, 2)!.weights.length, 3);
  assert.equal(rowTint(m, 3, null), null);
  assert.equal(rowTint(m, 3, 3), null);
  assert.equal(rowTint(m, 3, -1), null);
  // A hidden sink's row (all zero after renormalisation of query 0): max 0.
  assert.equal(rowTint(new Float32Array(9), 3, 0)!.max, 0);
});

test('tintAlpha is w / max in [0, 1]; lightInkOn switches above 0.55', () => {
  assert.equal(tintAlpha(0.3, 0.6), 0.5);
  assert.equal(tintAlpha(0.6, 0.6), 1);
  assert.equal(tintAlpha(0.7, 0.6), 1);
  assert.equal(tintAlpha(NaN, 0.6), 0);
  assert.equal(tintAlpha(0.2, 0), 0);
  assert.equal(tintAlpha(-1, 1), 0);
  assert.equal(lightInkOn(0.9), true);
  assert.equal(lightInkOn(0.2), false);
});
