// lib/view/stepStrip: the Step tab's strip spans the cached part rounded up to a nice size (at least 32
// keys, at most the timeline), so at step 21 the cached keys fill most of it; its ticks, pixel columns,
// headroom and label choice against hand-computed values.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { headroomStart, keyAtX, keyColumn, MIN_STRIP_KEYS, shortLabel, stripColumns, stripDomain, stripLabelKeys, stripLayout } from '../lib/view/stepStrip';

test('stripDomain: the cached length rounded up to a nice size, at least 32, at most the timeline', () => {
  assert.equal(MIN_STRIP_KEYS, 32);
  assert.equal(stripDomain(1, 478), 32);
  assert.equal(stripDomain(21, 478), 32);
  assert.equal(stripDomain(32, 478), 32);
  assert.equal(stripDomain(33, 478), 40);
  assert.equal(stripDomain(41, 478), 60);
  assert.equal(stripDomain(81, 478), 100);
  assert.equal(stripDomain(101, 478), 150);
  assert.equal(stripDomain(401, 1000), 600);
  // Never past the timeline's end: near the end the strip is the whole prompt.
  assert.equal(stripDomain(470, 478), 478);
  assert.equal(stripDomain(478, 478), 478);
  // A prompt shorter than the minimum is shown whole.
  assert.equal(stripDomain(1, 17), 17);
  assert.equal(stripDomain(17, 17), 17);
  // Generated tokens beyond the prompt: the timeline is longer, the domain follows the cache.
  assert.equal(stripDomain(500, 560), 560);
  assert.equal(stripDomain(0, 0), 1);
});

test('stripDomain grows monotonically and keeps the cached part ≥ 2/3 of the strip above the minimum', () => {
  let prev = 0;
  for (let c = 1; c <= 5000; c++) {
    const d = stripDomain(c, 100_000);
    assert.ok(d >= prev, `domain ${d} at ${c} after ${prev}`);
    assert.ok(d >= c);
    if (c > MIN_STRIP_KEYS) assert.ok(c / d >= 2 / 3 - 1e-9, `${c} / ${d}`);
    else assert.equal(d, MIN_STRIP_KEYS);
    prev = d;
  }
  // Step 20 from the start (21 keys cached): the cached part spans 21 / 32 of the strip.
  const l = stripLayout(21, 478, 1200);
  assert.ok(l.cachedPx / l.width >= 0.5);
  assert.equal(l.cachedPx, (21 * 1200) / 32);
});

test('stripLayout: px per key, ticks at key centres on whole nice steps, not-cached count', () => {
  const l = stripLayout(21, 478, 1200);
  assert.equal(l.domain, 32);
  assert.equal(l.keyPx, 37.5);
  assert.equal(l.notCached, 457);
  // ~14 ticks wanted: 32 / 13 = 2.46 → the next of 1, 2, 5 × 10^k is 5.
  assert.deepEqual(l.ticks.map((t) => t.key), [0, 5, 10, 15, 20, 25, 30]);
  assert.equal(l.ticks[1]!.x, 5.5 * 37.5);
  const end = stripLayout(478, 478, 956, 90);
  assert.equal(end.domain, 478);
  assert.equal(end.keyPx, 2);
  assert.deepEqual(end.ticks.map((t) => t.key), [0, 50, 100, 150, 200, 250, 300, 350, 400, 450]);
  assert.equal(end.notCached, 0);
  assert.deepEqual(keyColumn(l, 2), [75, 112.5]);
  assert.equal(keyAtX(l, 0), 0);
  assert.equal(keyAtX(l, 74.9), 1);
  assert.equal(keyAtX(l, 1199.9), 31);
  assert.equal(keyAtX(l, 1200), null);
  assert.equal(keyAtX(l, -1), null);
});

test('stripColumns and headroomStart: cached keys pooled by max into pixels, NaN and headroom after them', () => {
  const l = stripLayout(3, 100, 40, 90, 4); // domain 4 (minimum 4 here): 10 px per key
  assert.equal(l.domain, 4);
  const cols = stripColumns(new Float32Array([0.5, 0.25, 0.25]), l, 8); // 2 pixels per key
  assert.deepEqual(Array.from(cols.subarray(0, 6)), [0.5, 0.5, 0.25, 0.25, 0.25, 0.25]);
  assert.ok(Number.isNaN(cols[6]!) && Number.isNaN(cols[7]!));
  assert.equal(headroomStart(l, 8), 6);
  // More keys than pixels: a pixel keeps the largest weight it covers.
  const many = stripLayout(8, 8, 4, 90, 1);
  const w = new Float32Array([0.1, 0.3, 0.2, 0.05, 0.0, 0.15, 0.1, 0.1]);
  assert.deepEqual(Array.from(stripColumns(w, many, 4)), [0.30000001192092896, 0.20000000298023224, 0.15000000596046448, 0.10000000149011612]);
  assert.equal(headroomStart(many, 4), 4);
  assert.equal(headroomStart(stripLayout(21, 478, 1200), 1200), Math.ceil((21 * 1200) / 32));
});

test('stripLabelKeys: every cached key when columns are wide; otherwise the priority keys, key 0 and a stride, never closer than minPx', () => {
  const wide = stripLayout(21, 478, 1200);
  assert.deepEqual(stripLabelKeys(wide, 16), Array.from({ length: 21 }, (_, k) => k));
  const narrow = stripLayout(478, 478, 956); // 2 px per key
  const keys = stripLabelKeys(narrow, 16, [477, 375, 376]);
  assert.ok(keys.includes(477) && keys.includes(375) && keys.includes(0));
  assert.ok(!keys.includes(376), '376 sits 2 px from 375');
  for (let i = 1; i < keys.length; i++) assert.ok((keys[i]! - keys[i - 1]!) * narrow.keyPx >= 16, `${keys[i - 1]} and ${keys[i]}`);
  assert.ok(keys.length >= 50 && keys.length <= 956 / 16 + 1, `${keys.length} labels`);
  assert.deepEqual(stripLabelKeys(stripLayout(0, 478, 1200), 16), []);
  // Keys outside the cache are never labelled, whatever the priority list says.
  assert.ok(!stripLabelKeys(stripLayout(5, 478, 100), 16, [10]).includes(10));
});

test('shortLabel cuts by characters with an ellipsis', () => {
  assert.equal(shortLabel('abc', 8), 'abc');
  assert.equal(shortLabel('<|im_start|>', 8), '<|im_st…');
  assert.equal(shortLabel('北京天气怎么样啊', 4), '北京天…');
});
