// The status-bar A/B as the page shows it (docs/CONCEPTS.md#status-bar-ab), pure: which regions each arm
// is measured on (the CLI's armRegions, here without Node imports so that the page can use it), regions
// the user marks on a token range, the rows of the grouped region bars, the decision row of B minus A
// over the shared keys, and what the sampled continuations decided and named. No engine, no DOM, no I/O.

import type { Tensor } from '../tensor';
import { TOOLS_MESSAGE, type Prompt } from '../prompt/prompt';
import { getScenario, parseScenarioRef, scenarioRegions, type Scenario } from '../scenarios/index';
import type { ChatRequest } from '../scenarios/types';
import type { Decision, ParsedAssistant } from '../prompt/assistantOutput';
import { defaultRegions, rangeRegion, type MassEntry, type Region, type RegionLabel, type RegionMasses } from './abCompare';
import type { HeadReduction } from './attentionView';

// ---------------------------------------------------------------------------------------------------
// Regions of an arm

/** The first token on its own: the attention sink (docs/CONCEPTS.md#sink-score). */
export function firstTokenRegion(): Region {
  return { id: 'first_token', label: { en: 'first token (sink)', zh: '首 token（汇聚）' }, ranges: [{ start: 0, end: 1 }] };
}

/**
 * The regions reported for one arm of a built-in scenario — the same as `armRegions` in lib/cli/ab.ts
 * (that module imports Node APIs, so the page cannot import it; test/abArms.test.ts checks both agree):
 * the first token (the attention sink) on its own, then the scenario's regions (or one per message when it
 * has none), system prompt + tools block, the generation prompt, and any message still unclaimed. A token
 * goes to the first region listing it (resolveRegions), so the masses plus "other" sum to 1.
 */
export function armRegions(scenario: Scenario, variant: string | undefined, prompt: Prompt): Region[] {
  const regions: Region[] = [];
  if (prompt.ids.length) regions.push(firstTokenRegion());
  const own = scenario.regions ? scenarioRegions(scenario.id, variant) : [];
  regions.push(...own);
  const listed = new Set(own.flatMap((r) => r.messages));
  const present = new Set(prompt.spans.map((s) => s.message));
  const sys = prompt.spans.find((s) => s.message === 0)?.role === 'system' ? [0] : [];
  const sysTools = [...sys, TOOLS_MESSAGE].filter((m) => present.has(m) && !listed.has(m));
  if (sysTools.length) regions.push({ id: 'system_tools', label: { en: 'system prompt + tools', zh: '系统提示 + 工具' }, messages: sysTools });
  if (present.has(prompt.messageCount)) regions.push({ id: 'generation_prompt', label: { en: 'generation prompt', zh: '生成提示' }, messages: [prompt.messageCount] });
  const rest: number[] = [];
  for (let i = 0; i < prompt.messageCount; i++) if (present.has(i) && !listed.has(i) && !sysTools.includes(i)) rest.push(i);
  if (rest.length) {
    const which = rest.map((i) => `#${i}`).join(', ');
    regions.push({ id: 'other_messages', label: { en: `other messages (${which})`, zh: `其他消息（${which}）` }, messages: rest });
  }
  return regions;
}

/**
 * Regions of the arm whose scenario ref is `ref` (built-in `id[:variant]` or `custom:<id>`): a built-in
 * scenario with named regions gets armRegions; anything else (the user's own scenarios, built-ins without
 * regions) gets the first token and one region per message, following the spans (defaultRegions).
 */
export function regionsForRef(ref: string, prompt: Prompt): Region[] {
  if (!ref.startsWith('custom:')) {
    const { id, variant } = parseScenarioRef(ref);
    const scenario = getScenario(id);
    if (scenario.regions?.length) return armRegions(scenario, variant, prompt);
  }
  return [...(prompt.ids.length ? [firstTokenRegion()] : []), ...defaultRegions(prompt)];
}

/** A token range the user marked on one arm's tokens and named. */
export interface UserRange {
  id: string;
  name: string;
  /** The arm whose tokens were selected. */
  arm: 'A' | 'B';
  /** Token indices in that arm, end exclusive. */
  start: number;
  end: number;
}

/**
 * Whether a user range applies to `arm`: always to the arm it was selected in; to the other arm too when
 * it lies inside the shared prefix (the same tokens at the same positions in both arms).
 */
export function userRangeApplies(r: UserRange, arm: 'A' | 'B', sharedPrefix: number): boolean {
  return r.arm === arm || r.end <= sharedPrefix;
}

/**
 * An arm's regions with the user's ranges first (so that they take their tokens from the broader regions
 * that also list them: resolveRegions gives a token to the first region listing it). Ranges that do not
 * apply to this arm, or do not fit its tokens, are left out.
 */
export function withUserRanges(arm: 'A' | 'B', base: readonly Region[], user: readonly UserRange[], sharedPrefix: number, prompt: Prompt): Region[] {
  const own: Region[] = [];
  for (const r of user) {
    if (!userRangeApplies(r, arm, sharedPrefix) || r.end > prompt.ids.length) continue;
    own.push({ ...rangeRegion(prompt, r.start, r.end, r.name), id: r.id });
  }
  return [...own, ...base];
}

// ---------------------------------------------------------------------------------------------------
// Rows of the grouped bars

export type LayerChoice = 'mean' | number;

/** One row of the grouped bars: a region (or "other", "generated") with its entry in each arm. */
export interface BarRow {
  id: string;
  kind: 'region' | 'other' | 'generated';
  /** A's label, else B's. */
  label: RegionLabel;
  /** B's label where it differs from A's (the same id can name different messages in two scenarios). */
  labelB: RegionLabel | null;
  a: MassEntry | null;
  b: MassEntry | null;
}

/** The mass of an entry at one layer (head mean) or averaged over layers. */
export function massAt(e: MassEntry, layer: LayerChoice): number {
  return layer === 'mean' ? e.mean : (e.perLayer[layer] ?? NaN);
}

/**
 * Bar rows for two arms' masses (either may be missing): regions in A's order, each region only B has
 * placed right after the region B lists before it (at the start when none); then "other" when either arm
 * has tokens or mass there, and "generated" when either arm has mass there.
 */
export function barRows(a: RegionMasses | null, b: RegionMasses | null): BarRow[] {
  const ids: string[] = (a?.regions ?? []).map((e) => e.id);
  let prev: string | null = null;
  for (const e of b?.regions ?? []) {
    if (!ids.includes(e.id)) ids.splice(prev === null ? 0 : ids.indexOf(prev) + 1, 0, e.id);
    prev = e.id;
  }
  const find = (m: RegionMasses | null, id: string) => m?.regions.find((e) => e.id === id) ?? null;
  const same = (x: RegionLabel, y: RegionLabel) => x.en === y.en && x.zh === y.zh;
  const rows: BarRow[] = ids.map((id) => {
    const ea = find(a, id);
    const eb = find(b, id);
    const label = (ea ?? eb)!.label;
    return { id, kind: 'region', label, labelB: ea && eb && !same(ea.label, eb.label) ? eb.label : null, a: ea, b: eb };
  });
  const pick = (kind: 'other' | 'generated') => [a?.[kind] ?? null, b?.[kind] ?? null] as const;
  const [oa, ob] = pick('other');
  if ((oa && (oa.tokens > 0 || oa.mean > 0)) || (ob && (ob.tokens > 0 || ob.mean > 0))) rows.push({ id: 'other', kind: 'other', label: (oa ?? ob)!.label, labelB: null, a: oa, b: ob });
  const [ga, gb] = pick('generated');
  if ((ga && ga.mean > 0) || (gb && gb.mean > 0)) rows.push({ id: 'generated', kind: 'generated', label: (ga ?? gb)!.label, labelB: null, a: ga, b: gb });
  return rows;
}

// ---------------------------------------------------------------------------------------------------
// Attention rows

function dims3(t: Tensor): [number, number, number] {
  if (t.dims.length === 3) return [t.dims[0]!, t.dims[1]!, t.dims[2]!];
  if (t.dims.length === 2) return [1, t.dims[0]!, t.dims[1]!];
  throw new RangeError(`attention must be [heads, queries, keys] or [queries, keys], got [${t.dims}]`);
}

/** Row `row` of one layer's attention reduced over heads (mean, max, or one head): a fresh array of K values. */
export function headRow(t: Tensor, row: number, how: HeadReduction): Float32Array {
  const [H, Q, K] = dims3(t);
  if (!Number.isInteger(row) || row < 0 || row >= Q) throw new RangeError(`row ${row} is outside the ${Q} rows`);
  const out = new Float32Array(K);
  if (typeof how === 'number') {
    if (!Number.isInteger(how) || how < 0 || how >= H) throw new RangeError(`head ${how} out of range 0…${H - 1}`);
    out.set(t.data.subarray((how * Q + row) * K, (how * Q + row + 1) * K));
    return out;
  }
  for (let h = 0; h < H; h++) {
    const off = (h * Q + row) * K;
    for (let k = 0; k < K; k++) {
      const v = t.data[off + k]!;
      if (how === 'mean') out[k]! += v / H;
      else if (h === 0 || v > out[k]!) out[k] = v;
    }
  }
  return out;
}

export interface DecisionRowDiff {
  layers: number;
  /** Keys compared: 0 … keys − 1 (the shared prefix: the same tokens at the same positions in both arms). */
  keys: number;
  /** [layers, keys] row-major: A's and B's decision row, and B − A. */
  a: Float32Array;
  b: Float32Array;
  diff: Float32Array;
  /** max |B − A| over everything compared, and where. */
  maxAbs: number;
  at: { layer: number; key: number } | null;
  /** Per layer: Σ_k A and Σ_k B over the compared keys (the mass the shared prefix gets). */
  sumA: number[];
  sumB: number[];
}

/**
 * The decision row of arm B minus that of arm A, per layer, over keys 0 … keys − 1 (normally the shared
 * prefix, where key k is the same token at the same position in both arms; keys past it have no
 * counterpart). Rows are given as indices into each arm's attention tensors.
 */
export function decisionRowDiff(attA: readonly Tensor[], attB: readonly Tensor[], rowA: number, rowB: number, keys: number, how: HeadReduction): DecisionRowDiff {
  if (attA.length !== attB.length) throw new RangeError(`the arms have ${attA.length} and ${attB.length} layers`);
  const L = attA.length;
  const a = new Float32Array(L * keys);
  const b = new Float32Array(L * keys);
  const diff = new Float32Array(L * keys);
  let maxAbs = 0;
  let at: DecisionRowDiff['at'] = null;
  const sumA: number[] = [];
  const sumB: number[] = [];
  for (let l = 0; l < L; l++) {
    const ra = headRow(attA[l]!, rowA, how);
    const rb = headRow(attB[l]!, rowB, how);
    if (keys > ra.length || keys > rb.length) throw new RangeError(`layer ${l}: ${keys} keys asked, the rows hold ${ra.length} and ${rb.length}`);
    let sa = 0;
    let sb = 0;
    for (let k = 0; k < keys; k++) {
      const x = ra[k]!;
      const y = rb[k]!;
      a[l * keys + k] = x;
      b[l * keys + k] = y;
      const d = y - x;
      diff[l * keys + k] = d;
      sa += x;
      sb += y;
      if (Math.abs(d) > maxAbs || (at === null && keys > 0)) {
        maxAbs = Math.max(maxAbs, Math.abs(d));
        at = { layer: l, key: k };
      }
    }
    sumA.push(sa);
    sumB.push(sb);
  }
  return { layers: L, keys, a, b, diff, maxAbs, at, sumA, sumB };
}

// ---------------------------------------------------------------------------------------------------
// What the sampled continuations did

export interface DecisionTally {
  call: number;
  refuse: number;
}

export function tallyDecisions(runs: readonly { decision: Decision }[]): DecisionTally {
  return { call: runs.filter((r) => r.decision === 'call').length, refuse: runs.filter((r) => r.decision === 'refuse').length };
}

function stringValues(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(stringValues);
  if (typeof v === 'object' && v !== null) return Object.values(v).flatMap(stringValues);
  return [];
}

function parseArgs(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** String argument values of the request's own calls to `tool` (e.g. the companies already called). */
export function conversationTargets(request: ChatRequest, tool = 'phone_call'): string[] {
  const out: string[] = [];
  for (const m of request.messages) {
    if (m.role !== 'assistant') continue;
    for (const c of m.tool_calls ?? []) if (c.function.name === tool) for (const s of stringValues(parseArgs(c.function.arguments))) if (!out.includes(s)) out.push(s);
  }
  return out;
}

export interface CallTarget {
  /** A string argument value of a generated call (e.g. a company). */
  name: string;
  /** Generated calls that name it. */
  count: number;
  /** It is one of the conversation's own targets (exact match, case-insensitive). */
  inConversation: boolean;
}

/** The string argument values of the generated calls to `tool`, with how often each was named. */
export function generatedTargets(parsed: readonly ParsedAssistant[], conversation: readonly string[], tool = 'phone_call'): CallTarget[] {
  const known = new Set(conversation.map((s) => s.toLowerCase()));
  const counts = new Map<string, number>();
  for (const p of parsed) for (const c of p.toolCalls) if (c.name === tool) for (const s of stringValues(c.arguments)) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].map(([name, count]) => ({ name, count, inConversation: known.has(name.toLowerCase()) }));
}

/** How many outputs mention `name` anywhere (think, answer or calls; case-insensitive). */
export function mentioning(texts: readonly string[], name: string): number {
  const n = name.toLowerCase();
  return n ? texts.filter((t) => t.toLowerCase().includes(n)).length : 0;
}
