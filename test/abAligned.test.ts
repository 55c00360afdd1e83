// lib/view/abRaster.ts, the aligned axis of the A/B maps: shared prefix, what only A or only B has, the
// common suffix; each arm's rows over it with absent and future cells told apart; B − A; the difference
// view's range over the rows that can differ only; painting with absent cells hatched; row labels and
// geometry. Checked on small hand-made prompts and on the built-in Xfinity pair's token ids.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { alignArms } from '../lib/analysis/abCompare';
import { buildPrompt } from '../lib/prompt/prompt';
import { createTokenizer } from '../lib/prompt/tokenizer';
import { scenarioRequest } from '../lib/scenarios/index';
import {
  absentCols,
  absentRows,
  alignAxis,
  alignedBlock,
  alignedSegments,
  bandSegments,
  defaultRowCount,
  diffBlock,
  diffRange,
  HATCH_INK_RGB,
  HATCH_RGB,
  labelledRows,
  onHatch,
  paintAligned,
  rowGeometry,
  sliceColumns,
  windowZones,
  zoneSums,
  zoneAt,
  zoneSpans,
} from '../lib/view/abRaster';
import { MASK_RGB } from '../lib/view/colormap';

/** A causal T × T matrix with distinct values: m[q][k] = q + k / 100 for k ≤ q, 0 above. */
function causal(T: number, offset = 0): Float32Array {
  const m = new Float32Array(T * T);
  for (let q = 0; q < T; q++) for (let k = 0; k <= q; k++) m[q * T + k] = offset + q + k / 100;
  return m;
}

test('alignAxis: shared prefix, only-A and only-B middles, common suffix paired from the end', () => {
  // A = 1 2 3 | 7 | 8 9 ; B = 1 2 3 | 4 5 6 | 8 9
  const ax = alignAxis([1, 2, 3, 7, 8, 9], [1, 2, 3, 4, 5, 6, 8, 9], 3);
  assert.equal(ax.length, 3 + 1 + 3 + 2);
  assert.deepEqual([...ax.a], [0, 1, 2, 3, -1, -1, -1, 4, 5]);
  assert.deepEqual([...ax.b], [0, 1, 2, -1, 3, 4, 5, 6, 7]);
  assert.equal(ax.commonSuffix, 2);
  assert.deepEqual(
    ax.zones.map((z) => [z.kind, z.start, z.end]),
    [
      ['shared', 0, 3],
      ['onlyA', 3, 4],
      ['onlyB', 4, 7],
      ['suffix', 7, 9],
    ],
  );
  assert.equal(zoneAt(ax, 5)?.kind, 'onlyB');
  assert.deepEqual(zoneSpans(ax, ax.zones[2]!), { a: null, b: [3, 5] });
  assert.deepEqual(zoneSpans(ax, ax.zones[3]!), { a: [4, 5], b: [6, 7] });
  assert.equal(zoneAt(ax, 99), null);
  // One arm a prefix of the other: no suffix, the rest only in B.
  const p = alignAxis([1, 2], [1, 2, 3], 2);
  assert.deepEqual([...p.a], [0, 1, -1]);
  assert.deepEqual(p.zones.map((z) => z.kind), ['shared', 'onlyB']);
  // The suffix never reaches into the prefix.
  const same = alignAxis([5, 5], [5, 5, 5], 2);
  assert.equal(same.commonSuffix, 0);
  assert.throws(() => alignAxis([1], [1], 2), /shared prefix/);
});

test('alignAxis on the built-in pair: B’s status message is the only-B block, the generation prompt is paired', () => {
  const dir = 'public/models/kvscope-tiny/';
  const tok = createTokenizer(JSON.parse(readFileSync(dir + 'tokenizer.json', 'utf8')), JSON.parse(readFileSync(dir + 'tokenizer_config.json', 'utf8')));
  const pa = buildPrompt(tok, scenarioRequest('xfinity', 'without-status'), { addGenerationPrompt: true });
  const pb = buildPrompt(tok, scenarioRequest('xfinity', 'with-status'), { addGenerationPrompt: true });
  const P = alignArms(pa, pb).sharedPrefix;
  const ax = alignAxis(pa.ids, pb.ids, P);
  const Ta = pa.ids.length;
  const Tb = pb.ids.length;
  assert.equal(ax.length, Tb, 'A adds no column of its own: every A token is shared or paired');
  assert.deepEqual(ax.zones.map((z) => z.kind), ['shared', 'onlyB', 'suffix']);
  // The decision rows face each other: the last aligned index is both arms' last token.
  assert.equal(ax.a[ax.length - 1], Ta - 1);
  assert.equal(ax.b[ax.length - 1], Tb - 1);
  // Every status-bar token of B lies in the only-B block.
  const onlyB = ax.zones.find((z) => z.kind === 'onlyB')!;
  const status = pb.spans.filter((s) => s.segment === 'status_bar');
  assert.ok(status.length > 0);
  for (const s of status) for (let k = s.start; k < s.end; k++) {
    const j = [...ax.b].indexOf(k);
    assert.ok(onlyB.start <= j && j < onlyB.end, `status token ${k} at aligned ${j}`);
  }
  // Default rows: everything after the prefix, plus 8 shared rows.
  assert.equal(defaultRowCount(ax), Tb - P + 8);
  assert.equal(defaultRowCount(alignAxis([1, 2], [1, 2], 2)), 2);
  // Segments along the axis: B's status-bar columns, A absent there.
  const segA = alignedSegments(ax, 'a', pa.spans);
  const segB = alignedSegments(ax, 'b', pb.spans);
  assert.ok(segB.slice(onlyB.start, onlyB.end).includes('status_bar'));
  assert.ok(segA.slice(onlyB.start, onlyB.end).every((s) => s === null));
  assert.deepEqual(segA.slice(0, P), segB.slice(0, P));
});

test('alignedBlock: rows over the aligned keys, NaN where absent or in the future; B − A; absent masks', () => {
  const ax = alignAxis([1, 2, 3, 7, 8, 9], [1, 2, 3, 4, 5, 6, 8, 9], 3);
  const A = causal(6);
  const B = causal(8, 100);
  const from = 2;
  const rows = ax.length - from;
  const ba = alignedBlock(A, 6, ax, 'a', from, rows);
  const bb = alignedBlock(B, 8, ax, 'b', from, rows);
  const K = ax.length;
  // Row 0 is aligned 2 (shared position 2): keys 0..2, the rest NaN.
  assert.deepEqual([...ba.slice(0, 3)].map((v) => Math.round(v * 100)), [200, 201, 202]);
  assert.ok(ba.slice(3, K).every(Number.isNaN));
  // Aligned row 4 (only B, position 3 in B): A lacks it; B sees keys 0..2 and its own position 3.
  assert.ok(ba.slice(2 * K, 3 * K).every(Number.isNaN));
  assert.equal(Math.round(bb[2 * K + 4]! * 100), Math.round((100 + 3 + 3 / 100) * 100));
  assert.ok(Number.isNaN(bb[2 * K + 3]!), 'aligned column 3 is only in A');
  // Last aligned row: A position 5, B position 7; the suffix key 8 is A's 5 and B's 7.
  const last = (rows - 1) * K;
  assert.equal(ba[last + 8], A[5 * 6 + 5]);
  assert.equal(bb[last + 8], B[7 * 8 + 7]);
  assert.equal(ba[last + 3], A[5 * 6 + 3], 'A’s own middle token');
  assert.ok(Number.isNaN(ba[last + 5]!), 'a B-only key in A’s row');
  const d = diffBlock(ba, bb);
  assert.equal(d[last + 8], Math.fround(bb[last + 8]! - ba[last + 8]!));
  assert.ok(Number.isNaN(d[last + 5]!) && Number.isNaN(d[last + 3]!));
  assert.deepEqual([...absentRows(ax, ['a'], from, rows)], [0, 0, 1, 1, 1, 0, 0]);
  assert.deepEqual([...absentRows(ax, ['a', 'b'], from, rows)], [0, 1, 1, 1, 1, 0, 0]);
  assert.deepEqual([...absentCols(ax, ['b'])], [0, 0, 0, 1, 0, 0, 0, 0, 0]);
  assert.throws(() => alignedBlock(A, 6, ax, 'a', 5, 10), /outside the axis/);
});

test('diffRange: max |B − A| over paired rows after the prefix only, keys both arms have, in both rows’ past', () => {
  const ax = alignAxis([1, 2, 3, 7, 8, 9], [1, 2, 3, 4, 5, 6, 8, 9], 3);
  const A = causal(6);
  const B = causal(6 + 2, 0);
  // Make the shared rows differ hugely: they must not set the range.
  B[1 * 8 + 0] = 1000;
  const r = diffRange(A, 6, B, 8, ax);
  let want = 0;
  for (const [qa, qb] of [[4, 6], [5, 7]] as const) {
    for (const [ka, kb] of [[0, 0], [1, 1], [2, 2], [4, 6], [5, 7]] as const) {
      if (ka > qa || kb > qb) continue;
      want = Math.max(want, Math.abs(B[qb * 8 + kb]! - A[qa * 6 + ka]!));
    }
  }
  assert.equal(r.max, want);
  assert.equal(r.cells, 5 + 4);
  assert.ok(r.at && r.at.row >= 7);
  assert.deepEqual(diffRange(A, 6, A, 6, alignAxis([1, 2, 3, 7, 8, 9], [1, 2, 3, 7, 8, 9], 6)), { max: 0, at: null, cells: 0 });
});

test('paintAligned: hatched where absent, grey in the future, the colour of the pooled value elsewhere', () => {
  // 2 rows × 4 keys; row 1 absent; key 3 absent; key 2 future in row 0.
  const values = Float32Array.from([0.1, 0.5, NaN, NaN, NaN, NaN, NaN, NaN]);
  const colour = (v: number) => [Math.round(v * 100), 0, 0];
  const out = paintAligned(
    { values, rows: 2, keys: 4, absentRow: Uint8Array.from([0, 1]), absentCol: Uint8Array.from([0, 0, 0, 1]), width: 8, height: 4, reduce: 'max', colour },
    new Uint8ClampedArray(8 * 4 * 4),
  );
  const px = (x: number, y: number) => [...out.slice((y * 8 + x) * 4, (y * 8 + x) * 4 + 3)];
  assert.deepEqual(px(0, 0), [10, 0, 0]);
  assert.deepEqual(px(2, 1), [50, 0, 0]);
  assert.deepEqual(px(4, 0), [...MASK_RGB]);
  for (const [x, y] of [[6, 0], [7, 1], [0, 2], [5, 3]] as const) assert.deepEqual(px(x, y), [...(onHatch(x, y) ? HATCH_INK_RGB : HATCH_RGB)], `(${x}, ${y})`);
  // Pooling: two keys per pixel keep the larger value, or the larger magnitude with its sign.
  const two = paintAligned(
    { values: Float32Array.from([0.2, -0.6]), rows: 1, keys: 2, absentRow: new Uint8Array(1), absentCol: new Uint8Array(2), width: 1, height: 1, reduce: 'maxAbs', colour: (v) => [v < 0 ? 1 : 2, Math.round(Math.abs(v) * 10), 0] },
    new Uint8ClampedArray(4),
  );
  assert.deepEqual([...two.slice(0, 3)], [1, 6, 0]);
  // A pixel half absent shows its present cell.
  const half = paintAligned(
    { values: Float32Array.from([0.3, NaN]), rows: 1, keys: 2, absentRow: new Uint8Array(1), absentCol: Uint8Array.from([0, 1]), width: 1, height: 1, reduce: 'max', colour },
    new Uint8ClampedArray(4),
  );
  assert.deepEqual([...half.slice(0, 3)], [30, 0, 0]);
});

test('labelledRows and rowGeometry: every row when there is room, else every n-th up from the decision row', () => {
  assert.deepEqual(labelledRows(5, 14, 12), [0, 1, 2, 3, 4]);
  assert.deepEqual(labelledRows(7, 6, 12), [0, 2, 4, 6]);
  assert.deepEqual(labelledRows(6, 4, 12), [2, 5]);
  assert.deepEqual(labelledRows(0, 10, 12), []);
  assert.deepEqual(rowGeometry(64, 640), { rowPx: 10, height: 640 });
  assert.deepEqual(rowGeometry(3, 640), { rowPx: 18, height: 54 });
  assert.deepEqual(rowGeometry(1000, 640), { rowPx: 0.64, height: 640 });
  assert.deepEqual(rowGeometry(0, 640), { rowPx: 0, height: 0 });
});

test('bandSegments: each pixel takes the first segment among its columns; absent stays null', () => {
  assert.deepEqual(bandSegments(['system', null, null, 'user'], 2), ['system', 'user']);
  assert.deepEqual(bandSegments([null, null], 1), [null]);
  assert.deepEqual(bandSegments(['tools'], 3), ['tools', 'tools', 'tools']);
});

test('sliceColumns and windowZones: a window of the last keys', () => {
  const m = Float32Array.from([1, 2, 3, 4, 5, 6]);
  assert.deepEqual([...sliceColumns(m, 2, 3, 1, 3)], [2, 3, 5, 6]);
  assert.equal(sliceColumns(m, 2, 3, 0, 3), m);
  assert.throws(() => sliceColumns(m, 2, 3, 2, 4), /outside/);
  const ax = alignAxis([1, 2, 3, 7, 8, 9], [1, 2, 3, 4, 5, 6, 8, 9], 3);
  assert.deepEqual(windowZones(ax, 5, 9), [
    { kind: 'onlyB', start: 0, end: 2 },
    { kind: 'suffix', start: 2, end: 4 },
  ]);
});

test('zoneSums: a row’s mass per zone, absent and future cells left out', () => {
  const ax = alignAxis([1, 2, 3, 7, 8, 9], [1, 2, 3, 4, 5, 6, 8, 9], 3);
  const row = Float32Array.from([0.1, 0.2, 0.3, NaN, 0.05, 0.05, NaN, 0.25, 0.05]);
  const sums = zoneSums(row, ax.zones);
  assert.deepEqual(ax.zones.map((z) => z.kind), ['shared', 'onlyA', 'onlyB', 'suffix']);
  assert.deepEqual(sums.map((x) => Math.round(x * 1e6) / 1e6), [0.6, 0, 0.1, 0.3]);
});
