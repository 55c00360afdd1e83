// Closure of a byte-level BPE vocabulary subset: which merges build each kept token, so that the
// subset tokenizer splits in-vocabulary text exactly as the full tokenizer does.

export type Merge = [string, string];

/** The merges the full BPE applies to `token` when it encodes it on its own (its derivation). */
export function derivation(token: string, rank: Map<string, number>): Merge[] {
  let syms = Array.from(token);
  const used: Merge[] = [];
  while (syms.length > 1) {
    let best = -1;
    let bestRank = Infinity;
    for (let i = 0; i + 1 < syms.length; i++) {
      const r = rank.get(syms[i] + ' ' + syms[i + 1]);
      if (r !== undefined && r < bestRank) {
        bestRank = r;
        best = i;
      }
    }
    if (best < 0) break;
    const a = syms[best]!;
    const b = syms[best + 1]!;
    used.push([a, b]);
    const next: string[] = [];
    for (let i = 0; i < syms.length; i++) {
      if (i + 1 < syms.length && syms[i] === a && syms[i + 1] === b) {
        next.push(a + b);
        i++;
      } else next.push(syms[i]!);
    }
    syms = next;
  }
  if (syms.length !== 1 || syms[0] !== token) throw new Error(`token ${JSON.stringify(token)} is not derivable from its bytes`);
  return used;
}

export interface SubsetInput {
  /** Full vocabulary: token string → id. */
  vocab: Record<string, number>;
  /** Full merges in rank order. */
  merges: Merge[];
  /** The 256 byte-level symbols. */
  byteSymbols: string[];
  /** Tokens the corpus uses. */
  used: Iterable<string>;
}

export interface Subset {
  /** Kept tokens in the full vocabulary's id order. */
  tokens: string[];
  /** Kept merges in the full merge order: every merge whose parts and result are kept. */
  merges: Merge[];
}

export function closeSubset({ vocab, merges, byteSymbols, used }: SubsetInput): Subset {
  const rank = new Map<string, number>();
  merges.forEach(([a, b], i) => rank.set(a + ' ' + b, i));
  const keep = new Set<string>(byteSymbols);
  for (const t of used) {
    keep.add(t);
    for (const [a, b] of derivation(t, rank)) {
      keep.add(a);
      keep.add(b);
      keep.add(a + b);
    }
  }
  for (const t of keep) if (!(t in vocab)) throw new Error(`token ${JSON.stringify(t)} is not in the full vocabulary`);
  const tokens = [...keep].sort((x, y) => vocab[x]! - vocab[y]!);
  const kept = merges.filter(([a, b]) => keep.has(a) && keep.has(b) && keep.has(a + b));
  return { tokens, merges: kept };
}
