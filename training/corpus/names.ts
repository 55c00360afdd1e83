// Fresh names from a syllable grammar (issue 18): every training example gets names nobody can have
// memorised, so the only way to write them in a tool call is to copy them from the context.
//
// Grammar: a capital consonant, 2–3 lowercase syllables, and for companies sometimes a kind word
// ("Zorvik Mobile"). That is 16 × 40^2..40^3 × … ≈ 2.6M company bodies before the kind words.
//
// Held-out partition (provably disjoint): a name is *held out* iff fnv1a(lowercased body) % 8 === 0.
// `freshName(rng, 'train', …)` only returns names whose hash is not 0 mod 8, `freshName(rng, 'heldOut', …)`
// only names whose hash is 0 mod 8, so no held-out name can ever be produced for training; build.ts
// additionally checks that no evaluation name occurs anywhere in the training text. Both partitions use the
// same syllables, so every BPE piece of a held-out name also occurs (in other names) in training and has a
// trained embedding.
//
// Token shape: names are kept only when Qwen3's BPE splits them into a single capital letter followed by
// the same pieces in every context the corpus puts them in (after a space, after `"`, after `/`), e.g.
// " Z|or|vik", "Z|or|vik", "/Z|or|vik". Copying a name is then copying its letter (26 letter tokens per
// context, all trained) and then the identical pieces (induction); without the filter the first piece would
// differ per context (" Kel" vs "Kel" vs "/K|el") and an unseen first piece could not be mapped across
// contexts. build.ts installs the filter (it needs the tokenizer); without one every name is accepted.
import type { Rng } from '../../lib/util/rng';

const CAPS = ['B', 'D', 'F', 'G', 'H', 'J', 'K', 'L', 'M', 'N', 'P', 'R', 'T', 'V', 'X', 'Z'];
const SYLLABLES = [
  'or', 'an', 'el', 'ix', 'um', 'ar', 'en', 'ol', 'ur', 'ir', 'ev', 'ak', 'om', 'is', 'av', 'et',
  'vik', 'dor', 'mar', 'tel', 'lin', 'ros', 'ben', 'tar', 'qua', 'zen', 'lex', 'rin', 'gal', 'nor', 'val', 'mos',
  'dra', 'por', 'sim', 'kel', 'vor', 'nix', 'bel', 'tor',
];
const KINDS = [' Telecom', ' Mobile', ' Energy', ' Airlines', ' Insurance', ' Bank', ' Home', ' Networks'];
export const REGIONS = ['America', 'Europe', 'Asia', 'Africa', 'Australia', 'Pacific'];
/** Real names the generator must never produce (the frozen evaluation set and the app's scenarios use them). */
const RESERVED = new Set<string>();

export function reserveNames(names: Iterable<string>) {
  for (const n of names) RESERVED.add(n.toLowerCase());
}

export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export type NameSplit = 'train' | 'heldOut';

export function isHeldOutName(body: string): boolean {
  return fnv1a(body.toLowerCase()) % 8 === 0;
}

type Filter = (body: string) => boolean;
let filter: Filter = () => true;
export function setNameFilter(f: Filter) {
  filter = f;
}

/** Every name body produced for training, so build.ts can prove the held-out ones never were. */
export const PRODUCED: Record<NameSplit, Set<string>> = { train: new Set(), heldOut: new Set() };

function body(rng: Rng): string {
  const n = rng.chance(0.6) ? 2 : 3;
  let s = rng.pick(CAPS);
  for (let i = 0; i < n; i++) s += rng.pick(SYLLABLES);
  return s;
}

/** A fresh capitalised name (one word) of the given partition. */
export function freshName(rng: Rng, split: NameSplit): string {
  for (let tries = 0; tries < 10000; tries++) {
    const b = body(rng);
    if (isHeldOutName(b) !== (split === 'heldOut') || RESERVED.has(b.toLowerCase()) || !filter(b)) continue;
    PRODUCED[split].add(b);
    return b;
  }
  throw new Error('freshName: grammar exhausted');
}

export function freshCompany(rng: Rng, split: NameSplit): string {
  const b = freshName(rng, split);
  return rng.chance(0.3) ? b + rng.pick(KINDS) : b;
}

export interface FreshCity {
  name: string;
  timezone: string;
}

export function freshCity(rng: Rng, split: NameSplit): FreshCity {
  const name = freshName(rng, split);
  return { name, timezone: `${rng.pick(REGIONS)}/${name}` };
}

/** A lowercase identifier from the same grammar (file and function names), partitioned the same way. */
export function freshWord(rng: Rng, split: NameSplit): string {
  for (let tries = 0; tries < 10000; tries++) {
    const n = rng.chance(0.6) ? 2 : 3;
    let s = '';
    for (let i = 0; i < n; i++) s += rng.pick(SYLLABLES);
    if (isHeldOutName(s) !== (split === 'heldOut') || s.length < 4) continue;
    PRODUCED[split].add(s);
    return s;
  }
  throw new Error('freshWord: grammar exhausted');
}
