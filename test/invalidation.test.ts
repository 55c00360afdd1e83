// invalidationFacts: reused prefix, recompute counts, layer-0 positions and per-layer changes, from a
// hand-built pair of caches whose differences are known.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kvDelta, type LayerKv } from '../lib/analysis/kvDiff';
import { invalidationFacts, sweepEntries, sweepPosition } from '../lib/analysis/invalidation';

const H = 2;
const D = 3;
function cache(P: number, L: number, f: (l: number, p: number) => number): LayerKv[] {
  return Array.from({ length: L }, (_, l) => {
    const k = new Float32Array(H * P * D);
    const v = new Float32Array(H * P * D);
    for (let h = 0; h < H; h++) for (let p = 0; p < P; p++) for (let d = 0; d < D; d++) {
      k[(h * P + p) * D + d] = f(l, p) + h + d;
      v[(h * P + p) * D + d] = 2 * f(l, p) - d;
    }
    return { k: { data: k, dims: [H, P, D] }, v: { data: v, dims: [H, P, D] } };
  });
}

test('an in-place edit at p: prefix identical, layer 0 changes only at p, later layers from p on', () => {
  const P = 10;
  const p = 4;
  const a = cache(P, 3, (l, q) => l * 100 + q);
  // B: layer 0 differs only at p (by 0.5); layers ≥ 1 differ at every q ≥ p (by 0.25·(q − p + 1)).
  const b = cache(P, 3, (l, q) => l * 100 + q + (l === 0 ? (q === p ? 0.5 : 0) : q >= p ? 0.25 * (q - p + 1) : 0));
  const f = invalidationFacts(kvDelta(a, b, { tol: 1e-6 }), P, P, p);
  assert.equal(f.recomputedTokens, P - p);
  assert.equal(f.recomputedEntries, (P - p) * 3);
  assert.equal(f.prefixBitIdentical, true);
  assert.equal(f.prefixMaxK, 0);
  assert.deepEqual(f.layer0Changed, [p]);
  assert.equal(f.layer0ChangedCount, 1);
  for (const l of [1, 2]) {
    const r = f.perLayer[l]!;
    assert.equal(r.firstChanged, p);
    assert.equal(r.changedAfterPrefix, P - p);
    assert.equal(r.comparedAfterPrefix, P - p);
    // Smallest change: 0.25 in K, 0.5 in V at q = p.
    assert.equal(r.minChangeAfterPrefix, 0.5);
    assert.equal(r.minKAfterPrefix, 0.25);
    assert.equal(r.maxVAfterPrefix, 2 * 0.25 * (P - p));
  }
});

test('noise in the prefix is reported as a max difference, not as identical', () => {
  const a = cache(6, 2, (l, q) => l + q);
  const b = cache(6, 2, (l, q) => l + q + (q < 3 ? 1e-7 : 0));
  const f = invalidationFacts(kvDelta(a, b, { tol: 1e-6 }), 6, 6, 3);
  assert.equal(f.prefixBitIdentical, false);
  assert.ok(f.prefixMaxK > 0 && f.prefixMaxK < 1e-6);
  assert.equal(f.layer0ChangedCount, 0);
});

test('the sweep goes layer by layer over the recomputed tokens', () => {
  const facts = { recomputedTokens: 5, layers: 3 };
  assert.equal(sweepEntries(facts), 15);
  assert.deepEqual(sweepPosition(facts, 0), { layer: 0, tokens: 0 });
  assert.deepEqual(sweepPosition(facts, 7), { layer: 1, tokens: 2 });
  assert.deepEqual(sweepPosition(facts, 15), { layer: 3, tokens: 0 });
  assert.deepEqual(sweepPosition({ recomputedTokens: 0, layers: 3 }, 4), { layer: 3, tokens: 0 });
});
