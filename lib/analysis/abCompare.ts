// The status-bar A/B (docs/CONCEPTS.md#status-bar-ab) as pure functions: how two prompts align (shared
// prefix, which messages are shared, appended or changed, the decision position of each arm), the check
// that attention rows of the shared prefix are identical in both arms (causality), and attention mass
// per region at a query row (the decision position, or generated tokens). No engine, no rendering, no I/O.

import type { Tensor } from '../tensor';
import { TOOLS_MESSAGE, type Prompt, type Role, type Span } from '../prompt/prompt';
import { commonPrefixLength } from './kvDiff';
import { message, messageText, type Message } from '../i18n/message';
import { CodedRangeError } from '../util/codedRangeError';

// ---------------------------------------------------------------------------------------------------
// Alignment of the two arms

/** How a message (or the tools block, or the generation prompt) of A relates to the same one in B. */
export type PartStatus =
  /** Same tokens at the same positions, all before the first differing token: its attention rows are identical. */
  | 'shared'
  /** Same token ids, but not (entirely) inside the shared prefix: moved, or its context before it changed. */
  | 'same-tokens'
  /** Present in both arms with different token ids. */
  | 'changed'
  /** Only in B. */
  | 'appended'
  /** Only in A. */
  | 'dropped';

export interface TokenRange {
  /** Token indices, end exclusive. */
  start: number;
  end: number;
}

export interface PartAlignment {
  part: 'tools' | 'message' | 'generation';
  /** Index into request.messages (part 'message'); TOOLS_MESSAGE for the tools block; messageCount of each arm for the generation prompt. */
  message: { a: number | null; b: number | null };
  role: Role;
  /** The tokens it covers in each arm (from its first to its last span); null when absent there. */
  a: TokenRange | null;
  b: TokenRange | null;
  status: PartStatus;
}

export interface SpanShare extends Span {
  /** Tokens of this span inside the shared prefix (0 … end − start). */
  shared: number;
}

export interface DecisionPosition {
  /** The last position of the prompt (its length − 1); -1 for an empty prompt. */
  position: number;
  /** Token id and text there (-1 and '' for an empty prompt). */
  id: number;
  text: string;
  /** The prompt's last span is the generation prompt (`<|im_start|>assistant\n` …). */
  endsWithGenerationPrompt: boolean;
  /** The generation prompt's tokens, null when there is none. */
  generationPrompt: TokenRange | null;
}

export interface ArmAlignment {
  tokens: { a: number; b: number };
  /** Tokens 0 … sharedPrefix − 1 are the same ids in both arms; attention rows there must be identical. */
  sharedPrefix: number;
  /** The first differing token; null when one arm is a prefix of the other (or they are equal). */
  firstDifference: number | null;
  /** Tools block, messages and the generation prompt, ordered by first token (A's, else B's). */
  parts: PartAlignment[];
  spans: { a: SpanShare[]; b: SpanShare[] };
  decision: {
    a: DecisionPosition;
    b: DecisionPosition;
    /** The decision token is the same token id in both arms. */
    sameToken: boolean;
    /** The generation prompts have the same token ids. */
    sameGenerationPrompt: boolean;
    /** Both arms end with the generation prompt and the decision token is the same: the comparison is meaningful. */
    comparable: boolean;
    /** Why it is not, in words (English; empty when comparable). */
    notes: string[];
    /** The same notes, coded (lib/i18n/message), for the page's language. */
    noteMessages: Message[];
  };
}

function partRanges(p: Prompt): Map<number, { range: TokenRange; role: Role }> {
  const out = new Map<number, { range: TokenRange; role: Role }>();
  for (const s of p.spans) {
    const e = out.get(s.message);
    if (e) {
      e.range.start = Math.min(e.range.start, s.start);
      e.range.end = Math.max(e.range.end, s.end);
    } else out.set(s.message, { range: { start: s.start, end: s.end }, role: s.role });
  }
  return out;
}

function sameIds(a: Prompt, ra: TokenRange, b: Prompt, rb: TokenRange): boolean {
  if (ra.end - ra.start !== rb.end - rb.start) return false;
  for (let i = 0; i < ra.end - ra.start; i++) if (a.ids[ra.start + i] !== b.ids[rb.start + i]) return false;
  return true;
}

function decisionOf(p: Prompt): DecisionPosition {
  const T = p.ids.length;
  const last = p.spans[p.spans.length - 1];
  const gen = p.spans.filter((s) => s.message === p.messageCount);
  return {
    position: T - 1,
    id: T ? p.ids[T - 1]! : -1,
    text: T ? (p.tokens[T - 1]?.text ?? '') : '',
    endsWithGenerationPrompt: !!last && last.message === p.messageCount,
    generationPrompt: gen.length ? { start: gen[0]!.start, end: gen[gen.length - 1]!.end } : null,
  };
}

/**
 * Aligns arm A with arm B: the shared prefix (by token ids), each part's status (parts are matched by
 * message index, the tools block with the tools block, the generation prompt with the generation prompt),
 * how much of each span lies in the shared prefix, and each arm's decision position.
 */
export function alignArms(a: Prompt, b: Prompt): ArmAlignment {
  const P = commonPrefixLength(a.ids, b.ids);
  const first = P < Math.min(a.ids.length, b.ids.length) ? P : null;
  const ra = partRanges(a);
  const rb = partRanges(b);
  const parts: PartAlignment[] = [];
  const status = (x: TokenRange | null, y: TokenRange | null): PartStatus => {
    if (!x) return 'appended';
    if (!y) return 'dropped';
    if (!sameIds(a, x, b, y)) return 'changed';
    return x.start === y.start && x.end <= P ? 'shared' : 'same-tokens';
  };
  const push = (part: PartAlignment['part'], ma: number | null, mb: number | null) => {
    const x = ma === null ? undefined : ra.get(ma);
    const y = mb === null ? undefined : rb.get(mb);
    if (!x && !y) return;
    parts.push({
      part,
      message: { a: x ? ma : null, b: y ? mb : null },
      role: (x ?? y)!.role,
      a: x ? { ...x.range } : null,
      b: y ? { ...y.range } : null,
      status: status(x?.range ?? null, y?.range ?? null),
    });
  };
  push('tools', TOOLS_MESSAGE, TOOLS_MESSAGE);
  for (let i = 0; i < Math.max(a.messageCount, b.messageCount); i++) push('message', i < a.messageCount ? i : null, i < b.messageCount ? i : null);
  push('generation', a.messageCount, b.messageCount);
  parts.sort((x, y) => (x.a ?? x.b)!.start - (y.a ?? y.b)!.start); // stable: order of first token

  const share = (p: Prompt): SpanShare[] => p.spans.map((s) => ({ ...s, shared: Math.max(0, Math.min(s.end, P) - s.start) }));
  const da = decisionOf(a);
  const db = decisionOf(b);
  const sameToken = da.id >= 0 && da.id === db.id;
  const sameGenerationPrompt = !!da.generationPrompt && !!db.generationPrompt && sameIds(a, da.generationPrompt, b, db.generationPrompt);
  const noteMessages: Message[] = [];
  if (!da.endsWithGenerationPrompt) noteMessages.push(message('msg.engine.ab.noGenPrompt', { arm: 'A' }));
  if (!db.endsWithGenerationPrompt) noteMessages.push(message('msg.engine.ab.noGenPrompt', { arm: 'B' }));
  if (!sameToken) noteMessages.push(message('msg.engine.ab.tokensDiffer', { ida: da.id, ta: JSON.stringify(da.text), idb: db.id, tb: JSON.stringify(db.text) }));
  const notes = noteMessages.map((m) => messageText('en', m));
  return {
    tokens: { a: a.ids.length, b: b.ids.length },
    sharedPrefix: P,
    firstDifference: first,
    parts,
    spans: { a: share(a), b: share(b) },
    decision: { a: da, b: db, sameToken, sameGenerationPrompt, comparable: notes.length === 0, notes, noteMessages },
  };
}

// ---------------------------------------------------------------------------------------------------
// Shared rows: identical in both arms because attention is causal

/** Where a maximum difference sits: head, query position, key position. */
export interface DiffAt {
  head: number;
  query: number;
  key: number;
}

export interface LayerRowsDiff {
  layer: number;
  /** max |A − B| over heads, rows q < sharedPrefix and keys k ≤ q. */
  maxAbs: number;
  at: DiffAt | null;
  /** Every compared value is the same float. */
  bitIdentical: boolean;
  /** Values compared (heads × Σ (q + 1)). */
  compared: number;
}

export interface SharedRowsDiff {
  sharedPrefix: number;
  /** Query positions compared (each once, however many pieces). */
  rows: number;
  perLayer: LayerRowsDiff[];
  /** Over all layers. */
  max: number;
  bitIdentical: boolean;
}

function dims3(t: Tensor, what: string): [number, number, number] {
  let d: [number, number, number];
  if (t.dims.length === 3) d = [t.dims[0]!, t.dims[1]!, t.dims[2]!];
  else if (t.dims.length === 2) d = [1, t.dims[0]!, t.dims[1]!];
  else throw new RangeError(`${what}: attention must be [heads, queries, keys] or [queries, keys], got [${t.dims}]`);
  if (t.data.length !== d[0] * d[1] * d[2]) throw new RangeError(`${what}: attention [${t.dims}] holds ${t.data.length} values`);
  return d;
}

/**
 * Compares the shared-prefix rows of two arms given in pieces (e.g. chunked prefills of each arm, in
 * lockstep). `rowsA[i]` is the absolute position of A's query row i (default i); rows at or past the
 * shared prefix, and rows only one arm holds, are ignored; a position compared twice is counted once in `rows`.
 */
export class SharedRowsAccumulator {
  private layers: LayerRowsDiff[] = [];
  private seen = new Set<number>();
  constructor(readonly sharedPrefix: number) {
    if (!Number.isInteger(sharedPrefix) || sharedPrefix < 0) throw new RangeError(`shared prefix ${sharedPrefix} must be an integer ≥ 0`);
  }

  add(attA: readonly Tensor[], attB: readonly Tensor[], rowsA?: readonly number[], rowsB?: readonly number[]): this {
    if (attA.length !== attB.length) throw new RangeError(`the arms have ${attA.length} and ${attB.length} layers`);
    if (this.layers.length && this.layers.length !== attA.length) throw new RangeError(`pieces disagree on layers: ${this.layers.length} vs ${attA.length}`);
    while (this.layers.length < attA.length) this.layers.push({ layer: this.layers.length, maxAbs: 0, at: null, bitIdentical: true, compared: 0 });
    attA.forEach((ta, l) => {
      const tb = attB[l]!;
      const [Ha, Qa, Ka] = dims3(ta, `A layer ${l}`);
      const [Hb, Qb, Kb] = dims3(tb, `B layer ${l}`);
      if (Ha !== Hb) throw new RangeError(`layer ${l}: the arms have ${Ha} and ${Hb} heads`);
      const posB = new Map<number, number>();
      for (let i = 0; i < Qb; i++) posB.set(rowsB ? rowsB[i]! : i, i);
      const acc = this.layers[l]!;
      for (let i = 0; i < Qa; i++) {
        const q = rowsA ? rowsA[i]! : i;
        if (q >= this.sharedPrefix) continue;
        const j = posB.get(q);
        if (j === undefined) continue;
        if (q >= Ka || q >= Kb) throw new RangeError(`layer ${l}: row ${q} needs ${q + 1} keys, the arms hold ${Ka} and ${Kb}`);
        this.seen.add(q);
        for (let h = 0; h < Ha; h++) {
          const oa = (h * Qa + i) * Ka;
          const ob = (h * Qb + j) * Kb;
          for (let k = 0; k <= q; k++) {
            const x = ta.data[oa + k]!;
            const y = tb.data[ob + k]!;
            acc.compared++;
            if (x === y) continue;
            acc.bitIdentical = false;
            const d = Number.isNaN(x) || Number.isNaN(y) ? Infinity : Math.abs(x - y);
            if (d > acc.maxAbs || acc.at === null) {
              acc.maxAbs = Math.max(acc.maxAbs, d);
              acc.at = { head: h, query: q, key: k };
            }
          }
        }
      }
    });
    return this;
  }

  result(): SharedRowsDiff {
    const perLayer = this.layers.map((x) => ({ ...x, at: x.at && { ...x.at } }));
    return {
      sharedPrefix: this.sharedPrefix,
      rows: this.seen.size,
      perLayer,
      max: perLayer.reduce((m, x) => Math.max(m, x.maxAbs), 0),
      bitIdentical: perLayer.every((x) => x.bitIdentical),
    };
  }
}

/**
 * Per layer max |A − B| over all heads, rows q < sharedPrefix and keys k ≤ q, and the overall max.
 * Causality makes these rows identical in both arms; anything else is numerical noise or a bug.
 * Tensors are whole-prefill attention ([heads, T, T] or [T, T]) unless row positions are given.
 */
export function sharedRowsDiff(attA: readonly Tensor[], attB: readonly Tensor[], sharedPrefix: number, rowsA?: readonly number[], rowsB?: readonly number[]): SharedRowsDiff {
  return new SharedRowsAccumulator(sharedPrefix).add(attA, attB, rowsA, rowsB).result();
}

// ---------------------------------------------------------------------------------------------------
// Regions and attention mass

export interface RegionLabel {
  en: string;
  zh: string;
}

/**
 * A named set of prompt tokens: whole messages (by span.message: an index into request.messages,
 * TOOLS_MESSAGE for the tools block, prompt.messageCount for the generation prompt), token ranges, or
 * both (their union). A scenario's regions ({ id, label, messages }) are Regions as they are.
 */
export interface Region {
  id: string;
  label: RegionLabel;
  messages?: readonly number[];
  ranges?: readonly TokenRange[];
}

/** Token indices of a region in `prompt` (ascending), on its own: no other region can take them. */
export function regionTokens(prompt: Prompt, region: Region): number[] {
  const T = prompt.ids.length;
  const hit = new Uint8Array(T);
  const msgs = new Set(region.messages ?? []);
  if (msgs.size) for (const s of prompt.spans) if (msgs.has(s.message)) hit.fill(1, s.start, s.end);
  for (const r of region.ranges ?? []) {
    if (!Number.isInteger(r.start) || !Number.isInteger(r.end) || r.start < 0 || r.end > T || r.start >= r.end) {
      throw new CodedRangeError('msg.engine.ab.regionRange', { region: region.id, start: r.start, end: r.end, tokens: T });
    }
    hit.fill(1, r.start, r.end);
  }
  const out: number[] = [];
  hit.forEach((v, t) => v && out.push(t));
  return out;
}

export interface ResolvedRegions {
  /** Per prompt token: the index of the region that holds it, or -1 (other). */
  owner: Int32Array;
  /** Per region: tokens it holds, and tokens it lists that an earlier region already holds. */
  tokens: number[];
  shadowed: number[];
}

/**
 * Gives every prompt token to at most one region: the first region in the list that lists it. So masses
 * never count a token twice and, with "other", sum to 1; list narrower regions (a selected range) first.
 */
export function resolveRegions(prompt: Prompt, regions: readonly Region[]): ResolvedRegions {
  const ids = new Set<string>();
  for (const r of regions) {
    if (ids.has(r.id)) throw new CodedRangeError('msg.engine.ab.regionTwice', { region: r.id });
    ids.add(r.id);
  }
  const owner = new Int32Array(prompt.ids.length).fill(-1);
  const tokens = regions.map(() => 0);
  const shadowed = regions.map(() => 0);
  regions.forEach((r, i) => {
    for (const t of regionTokens(prompt, r)) {
      if (owner[t] === -1) {
        owner[t] = i;
        tokens[i]!++;
      } else shadowed[i]!++;
    }
  });
  return { owner, tokens, shadowed };
}

const ROLE_ZH: Record<string, string> = { system: '系统', user: '用户', assistant: '助手', tool: '工具' };

/** One region per message, plus the tools block and the generation prompt when the prompt has them (for user-made variants). */
export function defaultRegions(prompt: Prompt): Region[] {
  const roles = new Map<number, Role>();
  for (const s of prompt.spans) if (!roles.has(s.message)) roles.set(s.message, s.role);
  const out: Region[] = [];
  if (roles.has(TOOLS_MESSAGE)) out.push({ id: 'tools', label: { en: 'tools block', zh: '工具定义' }, messages: [TOOLS_MESSAGE] });
  for (let i = 0; i < prompt.messageCount; i++) {
    const role = roles.get(i);
    if (role === undefined) continue;
    out.push({ id: `message-${i}`, label: { en: `message ${i} (${role})`, zh: `消息 ${i}（${ROLE_ZH[role] ?? role}）` }, messages: [i] });
  }
  if (roles.has(prompt.messageCount)) out.push({ id: 'generation', label: { en: 'generation prompt', zh: '生成提示' }, messages: [prompt.messageCount] });
  return out;
}

/** A region for a user-selected token range [start, end) of `prompt`. */
export function rangeRegion(prompt: Prompt, start: number, end: number, name: string): Region {
  const region: Region = { id: `range-${start}-${end}`, label: { en: name, zh: name }, ranges: [{ start, end }] };
  regionTokens(prompt, region); // validates the range
  return region;
}

/** Attention mass of one bucket (a region, "other" or "generated"). */
export interface MassEntry {
  id: string;
  label: RegionLabel;
  /** Prompt tokens it holds ("generated": the most generated keys any row saw). */
  tokens: number;
  /** Tokens the region lists that an earlier region holds (see resolveRegions); 0 for other/generated. */
  shadowed: number;
  /** Head-mean mass per layer, averaged over the rows. */
  perLayer: number[];
  /** [layer][head], averaged over the rows. */
  perHead: number[][];
  /** Mean of perLayer. */
  mean: number;
}

export interface RegionMasses {
  /** Query positions whose rows were averaged (one for a decision position). */
  positions: number[];
  layers: number;
  heads: number;
  /** In the order given. */
  regions: MassEntry[];
  /** Prompt tokens in no region (template text outside the regions' messages …). */
  other: MassEntry;
  /** Keys past the prompt: tokens generated before the query (0 at a prompt position). */
  generated: MassEntry;
  /** Per layer, head mean of regions + other + generated: 1 up to float rounding. */
  sums: number[];
  /** Max over rows, layers and heads of |Σ masses − 1| (the check that masses sum to 1). */
  maxSumError: number;
  /** Max over rows, layers and heads of the mass on keys after the query (0 for causal attention). */
  futureMass: number;
}

/** A query row: its absolute position and its layers' attention (GenStep from lib/generate fits). */
export interface QueryRow {
  position: number;
  /** Per layer [heads, Q, K] or [Q, K]; the row used is `row` (default the last one). */
  attention?: readonly Tensor[];
  row?: number;
}

const OTHER_LABEL: RegionLabel = { en: 'other (template, tokens in no region)', zh: '其他（模板，不属于任何区域的 token）' };
const GENERATED_LABEL: RegionLabel = { en: 'generated tokens', zh: '已生成的 token' };

/**
 * Region masses averaged over query rows: for each row, layer and head, the attention of the row summed
 * over the keys each region holds (keys k ≤ position; prompt keys by region, keys past the prompt as
 * "generated", the rest as "other"); then the mean over rows. Head mean per layer, mean over layers.
 */
export function regionMassesOverRows(rows: readonly QueryRow[], prompt: Prompt, regions: readonly Region[]): RegionMasses {
  if (!rows.length) throw new RangeError('no query rows given');
  const { owner, tokens, shadowed } = resolveRegions(prompt, regions);
  const T = prompt.ids.length;
  const R = regions.length;
  const B = R + 2; // regions, other, generated
  const L = rows[0]!.attention?.length ?? 0;
  if (!L) throw new RangeError(`query row ${rows[0]!.position} has no attention`);
  let H = -1;
  let sums: Float64Array | null = null; // [L][H][B]
  let maxSumError = 0;
  let futureMass = 0;
  let maxGenerated = 0;
  for (const qr of rows) {
    const q = qr.position;
    if (!qr.attention || qr.attention.length !== L) throw new RangeError(`query row ${q} has ${qr.attention?.length ?? 0} layers, expected ${L}`);
    if (!Number.isInteger(q) || q < 0) throw new RangeError(`query position ${q} must be an integer ≥ 0`);
    maxGenerated = Math.max(maxGenerated, Math.max(0, q + 1 - T));
    qr.attention.forEach((t, l) => {
      const [h, Q, K] = dims3(t, `layer ${l}`);
      if (H < 0) {
        H = h;
        sums = new Float64Array(L * H * B);
      } else if (h !== H) throw new RangeError(`layer ${l} has ${h} heads, expected ${H}`);
      const i = qr.row ?? Q - 1;
      if (!Number.isInteger(i) || i < 0 || i >= Q) throw new RangeError(`row ${i} is outside the ${Q} rows of layer ${l}`);
      if (q >= K) throw new RangeError(`layer ${l}: position ${q} needs ${q + 1} keys, the row has ${K}`);
      for (let hh = 0; hh < H; hh++) {
        const off = (hh * Q + i) * K;
        const base = (l * H + hh) * B;
        let total = 0;
        for (let k = 0; k <= q; k++) {
          const w = t.data[off + k]!;
          const b = k < T ? (owner[k]! >= 0 ? owner[k]! : R) : R + 1;
          sums![base + b]! += w;
          total += w;
        }
        let future = 0;
        for (let k = q + 1; k < K; k++) future += Math.abs(t.data[off + k]!);
        futureMass = Math.max(futureMass, future);
        maxSumError = Math.max(maxSumError, Math.abs(total - 1));
      }
    });
  }
  const n = rows.length;
  const entry = (b: number, id: string, label: RegionLabel, tok: number, shad: number): MassEntry => {
    const perHead = Array.from({ length: L }, (_, l) => Array.from({ length: H }, (_, h) => sums![(l * H + h) * B + b]! / n));
    const perLayer = perHead.map((hs) => hs.reduce((s, x) => s + x, 0) / H);
    return { id, label: { ...label }, tokens: tok, shadowed: shad, perLayer, perHead, mean: perLayer.reduce((s, x) => s + x, 0) / L };
  };
  const regionEntries = regions.map((r, b) => entry(b, r.id, r.label, tokens[b]!, shadowed[b]!));
  const other = entry(R, 'other', OTHER_LABEL, owner.reduce((c, o) => c + (o < 0 ? 1 : 0), 0), 0);
  const generated = entry(R + 1, 'generated', GENERATED_LABEL, maxGenerated, 0);
  const all = [...regionEntries, other, generated];
  return {
    positions: rows.map((r) => r.position),
    layers: L,
    heads: H,
    regions: regionEntries,
    other,
    generated,
    sums: Array.from({ length: L }, (_, l) => all.reduce((s, e) => s + e.perLayer[l]!, 0)),
    maxSumError,
    futureMass,
  };
}

/**
 * Region masses of one query row (the decision position: prompt.ids.length − 1). `attention` is per layer
 * [heads, Q, K] (or [Q, K]) with row i at position rows[i] (default i: a whole prefill from position 0).
 */
export function regionMasses(attention: readonly Tensor[], prompt: Prompt, regions: readonly Region[], queryPosition: number, rows?: readonly number[]): RegionMasses {
  if (!attention.length) throw new RangeError('no attention layers given');
  const Q = dims3(attention[0]!, 'layer 0')[1];
  const row = rows ? rows.indexOf(queryPosition) : queryPosition;
  if (row < 0 || row >= Q || !Number.isInteger(row)) throw new RangeError(`position ${queryPosition} is not among the attention rows`);
  return regionMassesOverRows([{ position: queryPosition, attention, row }], prompt, regions);
}
