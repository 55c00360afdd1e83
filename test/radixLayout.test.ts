// lib/view/radixLayout on real radix trees (lib/cache/radix buildRadix): rows follow the first call,
// edges keep their minimum width, the tree fits the width, longer edges are longer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildRadix } from '../lib/cache/radix';
import { fitMinEdge, layoutRadix, maxEdgeDepth } from '../lib/view/radixLayout';

const seq = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

test('an append-only run is one straight row', () => {
  const a = seq(1, 100);
  const calls = [a, [...a, ...seq(200, 50)], [...a, ...seq(200, 50), ...seq(400, 30)]];
  const { nodes } = buildRadix(calls);
  const l = layoutRadix(nodes, { width: 600, minEdge: 40 });
  assert.equal(l.rows, 1);
  assert.ok(l.nodes.every((n) => n.row === 0 && n.parentRow === 0));
  assert.equal(l.nodes.filter((n) => n.leaf).length, 1);
  assert.ok(Math.abs(l.extent - 600) < 1e-6, `extent ${l.extent}`);
  // Proportional: edges of 100, 50, 30 tokens, all above the minimum.
  const byId = new Map(l.nodes.map((n) => [n.id, n]));
  for (const n of l.nodes) if (n.parent !== null) assert.ok(Math.abs(n.x - n.x0 - Math.max(40, n.tokens * l.pxPerToken)) < 1e-6);
  assert.equal(byId.get(0)!.x, 0);
});

test('branches go downward, short edges keep minEdge, everything fits', () => {
  const base = seq(1, 500);
  const calls = [base, [...base.slice(0, 57), 9999, ...seq(600, 400)], [...base.slice(0, 56), 8888, ...seq(1200, 500)], [...base, ...seq(3000, 20)]];
  const { nodes } = buildRadix(calls);
  const l = layoutRadix(nodes, { width: 800, minEdge: 60 });
  assert.equal(l.rows, nodes.filter((n) => n.parent !== null && !nodes.some((m) => m.parent === n.id)).length);
  assert.ok(l.extent <= 800 + 1e-6);
  for (const n of l.nodes) {
    if (n.parent === null) continue;
    assert.ok(n.x - n.x0 >= 60 - 1e-9, `edge ${n.id} too short`);
    assert.ok(n.row >= n.parentRow, 'branches never go up');
  }
  // Call 0's path is row 0 from the root to its leaf.
  const leafOf0 = nodes.find((n) => n.calls.includes(0) && !nodes.some((m) => m.parent === n.id && m.calls.includes(0)))!;
  assert.equal(l.nodes.find((n) => n.id === leafOf0.id)!.row, 0);
  // A longer edge is never drawn shorter than a shorter one.
  const edges = l.nodes.filter((n) => n.parent !== null).map((n) => [n.tokens, n.x - n.x0] as const);
  for (const [ta, wa] of edges) for (const [tb, wb] of edges) if (ta > tb) assert.ok(wa >= wb - 1e-9);
});

test('too many levels for the width: minimum edges, extent beyond the width', () => {
  const calls = Array.from({ length: 6 }, (_, k) => [...seq(1, k + 1), 1000 + k]);
  const { nodes } = buildRadix(calls);
  const l = layoutRadix(nodes, { width: 100, minEdge: 50 });
  assert.equal(l.pxPerToken, 0);
  assert.ok(l.extent > 100);
  assert.deepEqual(layoutRadix([], { width: 100, minEdge: 10 }).nodes, []);
  assert.throws(() => layoutRadix(nodes, { width: 0, minEdge: 10 }), RangeError);
});

test('maxEdgeDepth counts the edges of the longest path; fitMinEdge shortens the minimum to fit the width, down to a floor', () => {
  const a = seq(1, 100);
  // Seven appending calls: a chain of seven edges.
  const calls = Array.from({ length: 7 }, (_, i) => [...a, ...seq(1000, 10 * i)]);
  const { nodes } = buildRadix(calls);
  assert.equal(maxEdgeDepth(nodes), 7);
  assert.equal(fitMinEdge(nodes, 1040, 130, 60), 130);
  assert.equal(fitMinEdge(nodes, 816, 130, 60), 116);
  assert.equal(fitMinEdge(nodes, 300, 130, 60), 60);
  const l = layoutRadix(nodes, { width: 816, minEdge: fitMinEdge(nodes, 816, 130, 60) });
  assert.ok(l.extent <= 816 + 1e-6, `extent ${l.extent}`);
  assert.equal(maxEdgeDepth([]), 0);
  assert.equal(maxEdgeDepth(buildRadix([]).nodes), 0);
});
