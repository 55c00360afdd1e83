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

// ---- the default comparison and what it shows -----------------------------------------------------------

/** What defaultEdit reads of a prompt: token texts and the segments that label them (lib/prompt Prompt fits). */
export interface EditablePrompt {
  tokens: readonly { text: string; special: boolean }[];
  spans: readonly { start: number; end: number; segment: string }[];
}

/** Replacement words tried in order: the first that is one token of the vocabulary and differs from the original. */
export const EDIT_WORDS: readonly string[] = [' weather', ' local', ' short', ' the', ' a'];

/** The segments searched for the edited token, in order: the system prompt first, then the user's text. */
const EDIT_SEGMENTS: readonly string[] = ['system', 'user'];

/** A word token: a leading space and at least `min` letters ("␣helpful"), so that replacing it keeps a sentence. */
const isWord = (text: string, min: number) => new RegExp(`^ \\p{L}{${min},}$`, 'u').test(text);

/**
 * The KV tab's default comparison: replace one token of the prompt's system prompt (the user's text when
 * there is none, else the first non-special token) by another single token. The token is the first word of
 * at least 4 letters in that segment (any word, then any non-special token, when there is none); the new
 * text is the first of `words` that `isToken` accepts and that differs from it. Null for an empty prompt.
 */
export function defaultEdit(
  prompt: EditablePrompt,
  isToken: (text: string) => boolean,
  words: readonly string[] = EDIT_WORDS,
): { position: number; segment: string; from: string; text: string } | null {
  const { tokens, spans } = prompt;
  if (tokens.length === 0) return null;
  const find = (ok: (i: number) => boolean): number | null => {
    for (const seg of EDIT_SEGMENTS)
      for (const s of spans)
        if (s.segment === seg)
          for (let i = s.start; i < s.end; i++) if (!tokens[i]!.special && ok(i)) return i;
    return null;
  };
  const position = find((i) => isWord(tokens[i]!.text, 4)) ?? find((i) => isWord(tokens[i]!.text, 1)) ?? find(() => true) ?? Math.max(0, tokens.findIndex((t) => !t.special));
  const from = tokens[position]!.text;
  const text = words.find((w) => w !== from && isToken(w)) ?? words.find((w) => w !== from) ?? ' the';
  const segment = spans.find((s) => s.start <= position && position < s.end)?.segment ?? 'template';
  return { position, segment, from, text };
}

/**
 * What the maps of a comparison show, in one of six shapes (the view says it in one sentence):
 * - 'same': A and B are the same tokens;
 * - 'append': B continues A, so every compared position is A's own (nothing changes; only B's new tokens are computed);
 * - 'truncate': B is a prefix of A (everything B has is in the cache);
 * - 'inPlace': layer 0 changed at a few positions only (each token's layer-0 K/V depend on that token and its
 *   position alone) and every later layer changed at every compared position from the first difference on
 *   (attention carries the change to every later token);
 * - 'shifted': layer 0 changed at many positions (tokens moved, so their keys are rotated to new positions);
 * - 'other': anything else (e.g. two unrelated prompts), described by where they part.
 */
export type InvalidationStory =
  | { kind: 'same'; tokens: number }
  | { kind: 'append'; a: number; b: number }
  | { kind: 'truncate'; a: number; b: number }
  | { kind: 'inPlace'; positions: number[]; from: number; later: number; layers: number }
  | { kind: 'shifted'; count: number; first: number }
  | { kind: 'other'; prefix: number; recomputed: number };

/** The shape of `facts` (see InvalidationStory); `maxListed` layer-0 positions or fewer count as in place. */
export function invalidationStory(facts: InvalidationFacts, maxListed = 3): InvalidationStory {
  const { lengthA, lengthB, prefix } = facts;
  if (lengthA === lengthB && prefix === lengthA) return { kind: 'same', tokens: lengthA };
  if (prefix === Math.min(lengthA, lengthB)) return { kind: lengthB > lengthA ? 'append' : 'truncate', a: lengthA, b: lengthB };
  const later = facts.perLayer.slice(1);
  const allLater = later.length > 0 && later.every((r) => r.comparedAfterPrefix > 0 && r.changedAfterPrefix === r.comparedAfterPrefix);
  if (facts.layer0ChangedCount >= 1 && facts.layer0ChangedCount <= maxListed && allLater)
    return { kind: 'inPlace', positions: facts.layer0Changed.slice(0, maxListed), from: prefix, later: later[0]!.comparedAfterPrefix, layers: later.length };
  if (facts.layer0ChangedCount > maxListed) return { kind: 'shifted', count: facts.layer0ChangedCount, first: facts.layer0Changed[0] ?? prefix };
  return { kind: 'other', prefix, recomputed: facts.recomputedTokens };
}
