// What an invalidation comparison shows, as checkable facts (docs/CONCEPTS.md#prefix-invalidation): how
// many positions are reused, how many tokens must be recomputed, whether the reused prefix is
// bit-identical, which positions changed at layer 0, and from where every later layer changed. Derived
// from kvDelta's numbers only; the view phrases them, it does not recompute them.
import type { KvDelta } from './kvDiff';

export type EditKind = 'replace' | 'insert' | 'delete' | 'requests';

export interface LayerFacts {
  layer: number;
  /** First compared position (A's index) that changed above tol, or null. */
  firstChanged: number | null;
  changed: number;
  /** Among compared positions ≥ the prefix: how many changed above tol, and the smallest such change. */
  changedAfterPrefix: number;
  comparedAfterPrefix: number;
  minChangeAfterPrefix: number | null;
  /** K and V separately over the compared positions ≥ the prefix: max |ΔK|, smallest |ΔK|, max |ΔV|. */
  maxKAfterPrefix: number;
  minKAfterPrefix: number | null;
  maxVAfterPrefix: number;
}

export interface InvalidationFacts {
  /** Tokens of A and B. */
  lengthA: number;
  lengthB: number;
  /** Positions before the first differing token: reusable. */
  prefix: number;
  /** Tokens B must compute (everything from the first difference on), and K/V entries (× layers). */
  recomputedTokens: number;
  recomputedEntries: number;
  layers: number;
  /** The reused positions compared: max |Δ| and whether every value is bit-identical. */
  prefixMaxK: number;
  prefixMaxV: number;
  prefixBitIdentical: boolean;
  /** A positions whose layer-0 K or V changed above tol (at most `listLimit` listed) and their count. */
  layer0Changed: number[];
  layer0ChangedCount: number;
  perLayer: LayerFacts[];
}

export function invalidationFacts(delta: KvDelta, lengthA: number, lengthB: number, prefix: number, listLimit = 20): InvalidationFacts {
  const L = delta.layers;
  const P = delta.positions;
  let prefixMaxK = 0;
  let prefixMaxV = 0;
  let prefixBitIdentical = true;
  const layer0Changed: number[] = [];
  let layer0ChangedCount = 0;
  const perLayer: LayerFacts[] = [];
  for (let l = 0; l < L; l++) {
    let changedAfterPrefix = 0;
    let comparedAfterPrefix = 0;
    let minChange: number | null = null;
    let maxKAfter = 0;
    let minKAfter: number | null = null;
    let maxVAfter = 0;
    for (let i = 0; i < P; i++) {
      const at = l * P + i;
      const d = Math.max(delta.maxK[at]!, delta.maxV[at]!);
      const inPrefix = delta.a[i]! < prefix && delta.b[i]! < prefix;
      if (inPrefix) {
        prefixMaxK = Math.max(prefixMaxK, delta.maxK[at]!);
        prefixMaxV = Math.max(prefixMaxV, delta.maxV[at]!);
        if (!delta.bitEqual[at]) prefixBitIdentical = false;
      } else {
        comparedAfterPrefix++;
        const dk = delta.maxK[at]!;
        maxKAfter = Math.max(maxKAfter, dk);
        minKAfter = minKAfter === null ? dk : Math.min(minKAfter, dk);
        maxVAfter = Math.max(maxVAfter, delta.maxV[at]!);
        if (d > delta.tol) {
          changedAfterPrefix++;
          minChange = minChange === null ? d : Math.min(minChange, d);
        }
      }
      if (l === 0 && d > delta.tol) {
        layer0ChangedCount++;
        if (layer0Changed.length < listLimit) layer0Changed.push(delta.a[i]!);
      }
    }
    const r = delta.perLayer[l]!;
    perLayer.push({ layer: l, firstChanged: r.first ? r.first.a : null, changed: r.changed, changedAfterPrefix, comparedAfterPrefix, minChangeAfterPrefix: minChange, maxKAfterPrefix: maxKAfter, minKAfterPrefix: minKAfter, maxVAfterPrefix: maxVAfter });
  }
  const recomputedTokens = lengthB - prefix;
  return {
    lengthA,
    lengthB,
    prefix,
    recomputedTokens,
    recomputedEntries: recomputedTokens * L,
    layers: L,
    prefixMaxK,
    prefixMaxV,
    prefixBitIdentical,
    layer0Changed,
    layer0ChangedCount,
    perLayer,
  };
}

/** The recompute sweep: K/V entries are recomputed layer by layer from the first difference to B's end. */
export function sweepEntries(facts: Pick<InvalidationFacts, 'recomputedTokens' | 'layers'>): number {
  return facts.recomputedTokens * facts.layers;
}

/** Where the sweep is after `done` entries: the layer being recomputed and the tokens finished in it. */
export function sweepPosition(facts: Pick<InvalidationFacts, 'recomputedTokens' | 'layers'>, done: number): { layer: number; tokens: number } {
  const n = facts.recomputedTokens;
  if (n === 0) return { layer: facts.layers, tokens: 0 };
  const clamped = Math.max(0, Math.min(done, n * facts.layers));
  return { layer: Math.floor(clamped / n), tokens: clamped % n };
}
