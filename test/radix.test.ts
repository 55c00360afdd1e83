// lib/cache/radix: the radix tree over token ids and vLLM-style chained block hashes, by hand (branching,
// identical and empty calls, a call ending mid-edge) and against the brute-force accounting on random ids
// and on the real tokens of every kv-cache mode.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { accountPattern, PATTERN_MODES } from '../lib/agent/patterns';
import { accountCalls, BLOCK_SIZES, roundToBlock } from '../lib/cache/accounting';
import { blockHash, blockHashChain, blockHits, buildRadix, RadixTree } from '../lib/cache/radix';
import { loadTokenizerDir } from '../lib/cli/tokenizerDir';
import { Rng } from '../lib/util/rng';

test('empty tree and empty call', () => {
  const t = new RadixTree();
  assert.equal(t.match([1, 2]), 0);
  assert.deepEqual(t.insert([]), { call: 0, hit: 0, bestEarlier: null, newNodes: [], path: [0] });
  assert.deepEqual(t.snapshot(), [{ id: 0, parent: null, start: 0, end: 0, depth: 0, calls: [0], source: -1, ids: [] }]);
  assert.deepEqual(buildRadix([]), { inserts: [], nodes: t.snapshot().map((n) => ({ ...n, calls: [] })) });
});

test('hand case: branching, an identical call, a call ending on a node, a split near the root', () => {
  const { inserts, nodes } = buildRadix([
    [1, 2, 3, 4], // 0: one leaf
    [1, 2, 5], // 1: splits the leaf after [1, 2]
    [1, 2, 3, 4], // 2: identical to call 0
    [1, 2], // 3: ends exactly on the split node
    [1, 9], // 4: splits [1, 2] after [1]
    [7], // 5: a new branch at the root
  ]);
  const brief = inserts.map((i) => [i.hit, i.bestEarlier, i.newNodes, i.path]);
  assert.deepEqual(brief, [
    [0, null, [1], [0, 1]],
    [2, 0, [2, 3], [0, 2, 3]],
    [4, 0, [], [0, 2, 1]],
    [2, 2, [], [0, 2]],
    [1, 3, [4, 5], [0, 4, 5]],
    [0, 4, [6], [0, 6]],
  ]);
  const byId = (id: number) => nodes.find((n) => n.id === id)!;
  // node: parent, [start, end), label ids, calls through it
  const want: [number, number | null, number, number, number[], number[]][] = [
    [0, null, 0, 0, [], [0, 1, 2, 3, 4, 5]],
    [1, 2, 2, 4, [3, 4], [0, 2]],
    [2, 4, 1, 2, [2], [0, 1, 2, 3]],
    [3, 2, 2, 3, [5], [1]],
    [4, 0, 0, 1, [1], [0, 1, 2, 3, 4]],
    [5, 4, 1, 2, [9], [4]],
    [6, 0, 0, 1, [7], [5]],
  ];
  assert.equal(nodes.length, want.length);
  for (const [id, parent, start, end, ids, calls] of want) {
    const n = byId(id);
    assert.deepEqual([n.parent, n.start, n.end, n.depth, n.ids, n.calls], [parent, start, end, end, ids, calls], `node ${id}`);
  }
  assert.equal(byId(3).source, 1);
  assert.equal(byId(4).source, 0); // the split keeps the creating call of the edge
});

test('match does not change the tree', () => {
  const t = new RadixTree();
  t.insert([5, 6, 7]);
  assert.equal(t.match([5, 6, 8]), 2);
  assert.equal(t.match([5, 6, 7, 8]), 3);
  assert.equal(t.match([6]), 0);
  assert.equal(t.snapshot().length, 2);
});

/** Calls like an agent run's: shared prefixes, extensions, edits at random places. */
function randomCalls(seed: number, n: number): number[][] {
  const rng = new Rng(seed);
  const calls: number[][] = [];
  for (let i = 0; i < n; i++) {
    const base = calls.length && rng.chance(0.8) ? rng.pick(calls) : [];
    const keep = rng.int(0, base.length);
    const tail = Array.from({ length: rng.int(0, 40) }, () => rng.int(0, 5));
    calls.push([...base.slice(0, keep), ...tail]);
  }
  return calls;
}

test('radix hit and bestEarlier equal the accounting prefix match (block 1) on random runs', () => {
  for (let seed = 1; seed <= 30; seed++) {
    const calls = randomCalls(seed, 25);
    const { inserts } = buildRadix(calls);
    const acc = accountCalls(calls, { blockSize: 1 });
    assert.deepEqual(inserts.map((i) => i.hit), acc.calls.map((c) => c.prefixMatch), `seed ${seed}`);
    assert.deepEqual(inserts.map((i) => i.bestEarlier), acc.calls.map((c) => c.bestEarlier), `seed ${seed}`);
  }
});

test('tree invariants: edges tile the depth, children differ in their first token, calls end on nodes', () => {
  const calls = randomCalls(99, 40);
  const { nodes, inserts } = buildRadix(calls);
  for (const n of nodes.slice(1)) {
    const p = nodes.find((x) => x.id === n.parent)!;
    assert.equal(n.start, p.end);
    assert.equal(n.ids.length, n.end - n.start);
    assert.ok(n.ids.length > 0);
    for (const c of n.calls) {
      assert.ok(p.calls.includes(c));
      assert.deepEqual(calls[c]!.slice(n.start, n.end), n.ids);
    }
  }
  for (const n of nodes) {
    const firsts = nodes.filter((x) => x.parent === n.id).map((x) => x.ids[0]);
    assert.equal(new Set(firsts).size, firsts.length);
  }
  inserts.forEach((ins, c) => assert.equal(nodes.find((n) => n.id === ins.path.at(-1))!.end, calls[c]!.length));
});

test('blockHashChain: full blocks only, chained, deterministic 53-bit values', () => {
  // Pinned against an independent Python FNV-1a-64 of the same bytes (parent as 4 + 3 bytes LE, ids as 4 bytes LE).
  assert.equal(blockHash(0, [1, 2, 3]), 7349672277159479);
  assert.equal(blockHash(123456789012345, [151644, 8948]), 3008324033017958);
  const ids = Array.from({ length: 50 }, (_, i) => i * 7);
  const h = blockHashChain(ids, 16);
  assert.equal(h.length, 3); // 50 tokens: 3 full blocks, the last 2 tokens are not hashed
  for (const x of h) assert.ok(Number.isSafeInteger(x) && x >= 0 && x < 2 ** 53);
  assert.deepEqual(blockHashChain(ids, 16), h);
  assert.equal(h[1], blockHash(h[0]!, ids.slice(16, 32)));
  // Same second block, different first block: the chain makes every later hash differ too.
  const edited = [999, ...ids.slice(1)];
  const e = blockHashChain(edited, 16);
  assert.ok(e.every((x, i) => x !== h[i]));
  // Same first two blocks: same first two hashes.
  assert.deepEqual(blockHashChain([...ids.slice(0, 32), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16], 16).slice(0, 2), h.slice(0, 2));
  assert.deepEqual(blockHashChain([1, 2, 3], 16), []);
  assert.equal(blockHashChain(ids, 1).length, 50);
  assert.throws(() => blockHashChain(ids, 0), RangeError);
});

test('block hits: lookup stops at the first miss; equal to the block-rounded accounting on random runs', () => {
  const hand = blockHits([[1, 2, 3, 4], [1, 2, 9, 4], [1, 2, 3, 4, 5, 6]], 2);
  assert.deepEqual(hand.map((b) => [b.blocks, b.hitBlocks, b.hitTokens]), [[2, 0, 0], [2, 1, 2], [3, 2, 4]]);
  for (let seed = 1; seed <= 10; seed++) {
    const calls = randomCalls(seed, 20);
    for (const bs of [1, 2, 4, 16]) {
      const acc = accountCalls(calls, { blockSize: 1 });
      assert.deepEqual(blockHits(calls, bs).map((b) => b.hitTokens), acc.calls.map((c) => roundToBlock(c.prefixMatch, bs)), `seed ${seed} block ${bs}`);
    }
  }
});

test('real tokens of every mode: radix hits, block hits and the accounting agree', () => {
  const tok = loadTokenizerDir('public/models/kvscope-tiny');
  for (const mode of PATTERN_MODES) {
    const r = accountPattern(tok, mode, { blockSize: 1 });
    const ids = r.prompts.map((p) => p.ids);
    const { inserts } = buildRadix(ids);
    assert.deepEqual(inserts.map((i) => i.hit), r.accounting.calls.map((c) => c.prefixMatch), mode);
    for (const bs of BLOCK_SIZES) {
      assert.deepEqual(blockHits(ids, bs).map((b) => b.hitTokens), accountCalls(ids, { blockSize: bs }).calls.map((c) => c.cached), `${mode} block ${bs}`);
    }
  }
});
