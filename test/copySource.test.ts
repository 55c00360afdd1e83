// lib/analysis/copySource against a brute-force reference over random causal attention rows (exact: the
// same float32 values are compared, no arithmetic), plus the cases a user meets: no earlier occurrence,
// position 0 excluded, ties resolved to the first (layer, head, position) found.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { copySource, MAX_READ_OFFSET } from '../lib/analysis/copySource';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Softmax-normalised random rows: [layers] of [heads, keys]. */
function rows(r: () => number, layers: number, heads: number, keys: number): Float32Array[] {
  return Array.from({ length: layers }, () => {
    const a = new Float32Array(heads * keys);
    for (let h = 0; h < heads; h++) {
      let sum = 0;
      for (let j = 0; j < keys; j++) sum += a[h * keys + j] = Math.exp(4 * r());
      for (let j = 0; j < keys; j++) a[h * keys + j]! /= sum;
    }
    return a;
  });
}

test('the strongest (layer, head, occurrence) matches a brute-force search on 200 random cases', () => {
  const r = rng(7);
  for (let c = 0; c < 200; c++) {
    const layers = 1 + Math.floor(r() * 4);
    const heads = 1 + Math.floor(r() * 4);
    const row = 1 + Math.floor(r() * 40);
    const ids = Array.from({ length: row + 2 }, () => Math.floor(r() * 6));
    const predicted = ids[row + 1]!;
    const att = rows(r, layers, heads, row + 1);
    const got = copySource(att, heads, row, ids, predicted);
    // Reference: every (l, h, j) with ids[j] === predicted, 1 ≤ j ≤ row; the maximum weight.
    let ref: { l: number; h: number; j: number; w: number } | null = null;
    for (let l = 0; l < layers; l++)
      for (let h = 0; h < heads; h++)
        for (let j = 1; j <= row; j++) {
          if (ids[j] !== predicted) continue;
          const w = att[l]![h * (row + 1) + j]!;
          if (!ref || w > ref.w) ref = { l, h, j, w };
        }
    if (!ref) {
      assert.equal(got.best, null);
      assert.deepEqual(got.occurrences, []);
      continue;
    }
    assert.deepEqual(got.best, { position: ref.j, layer: ref.l, head: ref.h, weight: ref.w });
    assert.equal(got.perHead[ref.l]![ref.h], ref.w);
    const headRow = Array.from(att[ref.l]!.subarray(ref.h * (row + 1), (ref.h + 1) * (row + 1)));
    const argmax = headRow.indexOf(Math.max(...headRow)); // position 0 included: a head resting on the sink is not copying
    assert.equal(got.bestIsHeadArgmax, argmax === ref.j);
    assert.equal(got.uniform, 1 / (row + 1));
  }
});

test('a token that does not occur earlier has no source; position 0 never counts', () => {
  const att = [new Float32Array([0.7, 0.1, 0.1, 0.1])];
  const none = copySource(att, 1, 3, [9, 1, 2, 3, 4], 4);
  assert.equal(none.best, null);
  const onlyFirst = copySource(att, 1, 3, [4, 1, 2, 3, 4], 4);
  assert.equal(onlyFirst.best, null, 'position 0 (the template’s first token) is not an occurrence');
  assert.deepEqual(onlyFirst.perHead, [[0]]);
});

test('the head that singles out the earlier name is found and flagged as attending there most', () => {
  // Two heads over 6 keys; the predicted token 42 sits at position 2. Head 1 puts 0.8 there.
  const keys = 6;
  const a = new Float32Array(2 * keys).fill(0.04);
  a[1 * keys + 2] = 0.8;
  const got = copySource([a], 2, 5, [0, 5, 42, 6, 7, 8], 42);
  assert.deepEqual(got.best, { position: 2, layer: 0, head: 1, weight: a[keys + 2] });
  assert.equal(got.bestIsHeadArgmax, true);
  assert.throws(() => copySource([a], 2, 5, [0, 1], 42), RangeError);
  assert.throws(() => copySource([a.subarray(0, 5)], 2, 5, [0, 5, 42, 6, 7, 8], 42), RangeError);
});

test('offsetReading matches a brute-force search: the strongest head whose top key lies 1 … MAX_READ_OFFSET after an occurrence', () => {
  const r = rng(19);
  let found = 0;
  for (let c = 0; c < 300; c++) {
    const layers = 1 + Math.floor(r() * 3);
    const heads = 1 + Math.floor(r() * 4);
    const row = 1 + Math.floor(r() * 40);
    const ids = Array.from({ length: row + 2 }, () => Math.floor(r() * 8));
    const att = rows(r, layers, heads, row + 1);
    const got = copySource(att, heads, row, ids, ids[row + 1]!).offsetReading;
    let ref: { layer: number; head: number; position: number; weight: number; occurrence: number; offset: number } | null = null;
    for (let l = 0; l < layers; l++)
      for (let h = 0; h < heads; h++) {
        const headRow = Array.from(att[l]!.subarray(h * (row + 1), (h + 1) * (row + 1)));
        const position = headRow.indexOf(Math.max(...headRow));
        // the nearest earlier occurrence, by walking back from the top key
        for (let o = 1; o <= MAX_READ_OFFSET && position - o >= 1; o++) {
          if (ids[position - o] !== ids[row + 1]) continue;
          if (!ref || headRow[position]! > ref.weight) ref = { layer: l, head: h, position, weight: headRow[position]!, occurrence: position - o, offset: o };
          break;
        }
      }
    assert.deepEqual(got, ref);
    if (ref) found++;
  }
  assert.ok(found > 50, `the random cases exercise the reading (${found} of 300)`);
});

test('the offset circuit: a head that attends 5 after the earlier name is reported, the occurrence itself being nearly unattended', () => {
  // Predicted token 42 at position 3; layer 1 head 0 attends most to position 8 (= 3 + 5), as run 7's copy head does (training/README item 7).
  const keys = 12;
  const ids = [0, 10, 11, 42, 12, 13, 14, 15, 16, 17, 18, 19, 42];
  const l0 = new Float32Array(keys).fill(1 / keys);
  const l1 = new Float32Array(keys).fill(0.1 / (keys - 1));
  l1[8] = 0.9;
  const got = copySource([l0, l1], 1, 11, ids, 42);
  assert.deepEqual(got.offsetReading, { layer: 1, head: 0, position: 8, weight: l1[8], occurrence: 3, offset: 5 });
  assert.equal(got.bestIsHeadArgmax, false);
  // 9 after: too far to count
  const far = new Float32Array(keys).fill(0.1 / (keys - 1));
  far[11] = 0.9;
  assert.equal(copySource([far], 1, 11, [0, 10, 42, 12, 13, 14, 15, 16, 17, 18, 19, 20, 42], 42).offsetReading, null);
});
