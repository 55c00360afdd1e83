// The status-bar A/B in pure functions (lib/analysis/abCompare.ts): arm alignment on hand-built and real
// prompts, the shared-rows difference and region masses against independent brute-force restatements on
// random causal attention, and regions against the chat template's text (the status-bar region spells
// <agent_status>, the phone region the PHONE_EVENT records).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  alignArms,
  defaultRegions,
  rangeRegion,
  regionMasses,
  regionMassesOverRows,
  regionTokens,
  resolveRegions,
  SharedRowsAccumulator,
  sharedRowsDiff,
  type Region,
} from '../lib/analysis/abCompare';
import { commonPrefixLength } from '../lib/analysis/kvDiff';
import { armRegions } from '../lib/cli/ab';
import { readTokenizerFiles } from '../lib/cli/tokenizerDir';
import type { Tensor } from '../lib/tensor';
import { buildPrompt, TOOLS_MESSAGE, type Prompt, type Role, type Segment, type Span } from '../lib/prompt/prompt';
import { createTokenizer } from '../lib/prompt/tokenizer';
import { getScenario, scenarioRegions, scenarioRequest } from '../lib/scenarios/index';
import { Rng } from '../lib/util/rng';

// ---- hand-built prompts -------------------------------------------------------------------------------

type Part = [message: number, role: Role, segment: Segment, tokens: [id: number, text: string][]];

/** A Prompt from labelled token lists (one span per part), as buildPrompt would label it. */
function makePrompt(parts: Part[], messageCount: number): Prompt {
  const ids: number[] = [];
  const tokens: Prompt['tokens'] = [];
  const spans: Span[] = [];
  let text = '';
  for (const [message, role, segment, toks] of parts) {
    const start = ids.length;
    for (const [id, t] of toks) {
      ids.push(id);
      tokens.push({ id, text: t, bytes: new TextEncoder().encode(t), start: text.length, end: text.length + t.length, partial: false, special: t.startsWith('<|') });
      text += t;
    }
    spans.push({ start, end: ids.length, message, role, segment });
  }
  return { text, ids, tokens, spans, messageCount, notes: [] };
}

const IM_START: [number, string] = [1, '<|im_start|>'];
const IM_END: [number, string] = [2, '<|im_end|>'];
const NL: [number, string] = [3, '\n'];
const USER: [number, string] = [4, 'user'];
const ASSISTANT: [number, string] = [5, 'assistant'];
const SYSTEM: [number, string] = [6, 'system'];

/** System (with tools) and one user message: what both arms start with. */
const COMMON: Part[] = [
  [0, 'system', 'template', [IM_START, SYSTEM, NL]],
  [0, 'system', 'system', [[10, 'Be'], [11, ' brief']]],
  [TOOLS_MESSAGE, 'system', 'tools', [[12, '{tools}']]],
  [0, 'system', 'template', [IM_END, NL]],
  [1, 'user', 'template', [IM_START, USER, NL]],
  [1, 'user', 'user', [[20, 'Call'], [21, ' again']]],
  [1, 'user', 'template', [IM_END, NL]],
];

function armA(): Prompt {
  return makePrompt([...COMMON, [2, 'assistant', 'template', [IM_START, ASSISTANT, NL]]], 2);
}

/** Arm A plus one user message before the generation prompt (the status bar). */
function armB(statusText: [number, string][] = [[30, '<agent_status>'], [31, ' 3/3']]): Prompt {
  const a = armA();
  const parts: Part[] = [
    ...COMMON,
    [2, 'user', 'template', [IM_START, USER, NL]],
    [2, 'user', 'status_bar', statusText],
    [2, 'user', 'template', [IM_END, NL]],
    [3, 'assistant', 'template', [IM_START, ASSISTANT, NL]],
  ];
  assert.equal(a.ids.length, 18);
  return makePrompt(parts, 3);
}

test('alignArms: shared prefix, part statuses, decision positions (hand-built arms)', () => {
  const a = armA();
  const b = armB();
  const al = alignArms(a, b);
  assert.equal(al.sharedPrefix, 16); // <|im_start|> at 15 is shared; "assistant" vs "user" at 16
  assert.equal(al.firstDifference, 16);
  assert.deepEqual(al.tokens, { a: 18, b: 25 });
  const byName = Object.fromEntries(al.parts.map((p) => [p.part === 'message' ? `m${p.message.a ?? p.message.b}` : p.part, p]));
  assert.equal(byName.m0!.status, 'shared');
  assert.equal(byName.tools!.status, 'shared');
  assert.equal(byName.m1!.status, 'shared');
  assert.equal(byName.m2!.status, 'appended');
  assert.deepEqual(byName.m2!.message, { a: null, b: 2 });
  assert.deepEqual(byName.m2!.b, { start: 15, end: 22 });
  assert.equal(byName.generation!.status, 'same-tokens');
  assert.deepEqual(byName.generation!.message, { a: 2, b: 3 });
  assert.deepEqual(byName.generation!.a, { start: 15, end: 18 });
  assert.deepEqual(byName.generation!.b, { start: 22, end: 25 });
  // parts ordered by first token: message 0 (0), tools (5), message 1 (8), then A's generation prompt / B's message 2 at 15
  assert.deepEqual(al.parts.map((p) => p.part + (p.part === 'message' ? (p.message.a ?? p.message.b) : '')).slice(0, 3), ['message0', 'tools', 'message1']);
  // message 0 spans two spans around the tools block: its range is their hull
  assert.deepEqual(byName.m0!.a, { start: 0, end: 8 });
  // span shares: A's generation prompt has 1 of its 3 tokens in the prefix
  const genA = al.spans.a.find((s) => s.message === 2)!;
  assert.equal(genA.shared, 1);
  assert.ok(al.spans.a.slice(0, -1).every((s) => s.shared === s.end - s.start));
  assert.deepEqual(al.decision.a, { position: 17, id: 3, text: '\n', endsWithGenerationPrompt: true, generationPrompt: { start: 15, end: 18 } });
  assert.equal(al.decision.b.position, 24);
  assert.equal(al.decision.sameToken, true);
  assert.equal(al.decision.sameGenerationPrompt, true);
  assert.equal(al.decision.comparable, true);
  assert.deepEqual(al.decision.notes, []);
});

test('alignArms: changed and dropped parts, and a decision that is not comparable', () => {
  const a = armA();
  // B: the user text changed, and no generation prompt (the prompt ends with the user's <|im_end|>).
  const b = makePrompt(
    [
      [0, 'system', 'template', [IM_START, SYSTEM, NL]],
      [0, 'system', 'system', [[10, 'Be'], [11, ' brief']]],
      [TOOLS_MESSAGE, 'system', 'tools', [[12, '{tools}']]],
      [0, 'system', 'template', [IM_END, NL]],
      [1, 'user', 'template', [IM_START, USER, NL]],
      [1, 'user', 'user', [[20, 'Call'], [22, ' now']]],
      [1, 'user', 'template', [IM_END]],
    ],
    2,
  );
  const al = alignArms(a, b);
  assert.equal(al.sharedPrefix, 12);
  const status = Object.fromEntries(al.parts.map((p) => [p.part + (p.message.a ?? p.message.b), p.status]));
  assert.deepEqual(status, { message0: 'shared', 'tools-1': 'shared', message1: 'changed', generation2: 'dropped' });
  assert.equal(al.decision.b.endsWithGenerationPrompt, false);
  assert.equal(al.decision.b.generationPrompt, null);
  assert.equal(al.decision.sameToken, false);
  assert.equal(al.decision.comparable, false);
  assert.equal(al.decision.notes.length, 2);
  // One arm a prefix of the other: no first difference.
  const same = alignArms(a, armA());
  assert.equal(same.firstDifference, null);
  assert.equal(same.sharedPrefix, 18);
  assert.ok(same.parts.every((p) => p.status === 'shared'));
});

// ---- random causal attention --------------------------------------------------------------------------

/** Causal softmax rows: [H, Q, K] with row i at position rows[i], keys > position 0. */
function randomAttention(rng: Rng, H: number, rows: number[], K: number): Tensor {
  const Q = rows.length;
  const data = new Float32Array(H * Q * K);
  for (let h = 0; h < H; h++)
    for (let i = 0; i < Q; i++) {
      const q = rows[i]!;
      const w = Array.from({ length: q + 1 }, () => Math.exp(3 * rng.next()));
      const s = w.reduce((x, y) => x + y, 0);
      for (let k = 0; k <= q; k++) data[(h * Q + i) * K + k] = w[k]! / s;
    }
  return { data, dims: [H, Q, K] };
}
const range = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i);

/** Brute force: max |A−B| per layer over h, q < P, k ≤ q, reading both tensors by position. */
function bruteDiff(A: Tensor[], B: Tensor[], P: number): number[] {
  return A.map((ta, l) => {
    const tb = B[l]!;
    const [H, TA] = [ta.dims[0]!, ta.dims[2]!];
    const TB = tb.dims[2]!;
    let m = 0;
    for (let h = 0; h < H; h++) for (let q = 0; q < P; q++) for (let k = 0; k <= q; k++) m = Math.max(m, Math.abs(ta.data[(h * TA + q) * TA + k]! - tb.data[(h * TB + q) * TB + k]!));
    return m;
  });
}

test('sharedRowsDiff: max |A−B| over q < prefix, k ≤ q, per layer (vs brute force); differences elsewhere are ignored', () => {
  const rng = new Rng(7);
  const [H, TA, TB, P, L] = [3, 20, 26, 14, 3];
  const A = range(L).map(() => randomAttention(rng, H, range(TA), TA));
  // B: the same rows before P (copied into a longer tensor), anything after.
  const B = A.map((ta) => {
    const tb = randomAttention(rng, H, range(TB), TB);
    for (let h = 0; h < H; h++) for (let q = 0; q < P; q++) for (let k = 0; k <= q; k++) tb.data[(h * TB + q) * TB + k] = ta.data[(h * TA + q) * TA + k]!;
    return tb;
  });
  const same = sharedRowsDiff(A, B, P);
  assert.equal(same.bitIdentical, true);
  assert.equal(same.max, 0);
  assert.equal(same.rows, P);
  assert.deepEqual(same.perLayer.map((x) => x.compared), range(L).map(() => (H * P * (P + 1)) / 2));
  // Perturb: one entry inside the shared rows of layer 1, entries outside (q ≥ P; k > q) of layer 2.
  B[1]!.data[(2 * TB + 9) * TB + 4]! += 0.125;
  B[2]!.data[(0 * TB + P) * TB + 3]! += 0.5; // row P: not shared
  B[2]!.data[(1 * TB + 5) * TB + 6]! += 0.5; // key after the query: not compared
  const d = sharedRowsDiff(A, B, P);
  assert.deepEqual(d.perLayer.map((x) => x.maxAbs), bruteDiff(A, B, P));
  assert.ok(Math.abs(d.perLayer[1]!.maxAbs - 0.125) < 1e-6);
  assert.deepEqual(d.perLayer[1]!.at, { head: 2, query: 9, key: 4 });
  assert.equal(d.perLayer[0]!.bitIdentical, true);
  assert.equal(d.perLayer[2]!.bitIdentical, true);
  assert.equal(d.bitIdentical, false);
  assert.equal(d.max, d.perLayer[1]!.maxAbs);
  // Chunked in lockstep (rows 0–7 then 8–TA) gives the same result as whole tensors.
  const chunk = (t: Tensor, from: number, to: number): Tensor => {
    const [h, , K] = [t.dims[0]!, t.dims[1]!, t.dims[2]!];
    const Q = t.dims[1]!;
    const out = new Float32Array(h * (to - from) * K);
    for (let hh = 0; hh < h; hh++) out.set(t.data.subarray((hh * Q + from) * K, (hh * Q + to) * K), hh * (to - from) * K);
    return { data: out, dims: [h, to - from, K] };
  };
  const acc = new SharedRowsAccumulator(P);
  for (const [f, t] of [[0, 8], [8, TA]] as const) acc.add(A.map((x) => chunk(x, f, t)), B.map((x) => chunk(x, f, Math.min(t, TB))), range(t - f, f), range(Math.min(t, TB) - f, f));
  const c = acc.result();
  assert.deepEqual(c.perLayer.map((x) => x.maxAbs), d.perLayer.map((x) => x.maxAbs));
  assert.equal(c.rows, P);
  // Head-reduced [T, T] tensors work too; mismatched heads or layers are refused.
  const two = sharedRowsDiff([{ data: A[0]!.data.slice(0, TA * TA), dims: [TA, TA] }], [{ data: A[0]!.data.slice(0, TA * TA), dims: [TA, TA] }], P);
  assert.equal(two.bitIdentical, true);
  assert.throws(() => sharedRowsDiff(A, B.slice(0, 2), P), /layers/);
  assert.throws(() => sharedRowsDiff([A[0]!], [{ data: new Float32Array(TB * TB), dims: [TB, TB] }], P), /heads/);
});

/** Brute force region masses of one row: independent token → region lookup by scanning spans per token. */
function bruteMasses(att: Tensor[], rowIndex: number, position: number, prompt: Prompt, regions: Region[]) {
  const T = prompt.ids.length;
  const regionOf = (k: number): number => {
    if (k >= T) return -2;
    const msg = prompt.spans.find((s) => s.start <= k && k < s.end)!.message;
    for (let r = 0; r < regions.length; r++) {
      const reg = regions[r]!;
      if ((reg.messages ?? []).includes(msg) || (reg.ranges ?? []).some((x) => x.start <= k && k < x.end)) return r;
    }
    return -1;
  };
  const perLayer = att.map((t) => {
    const [H, Q, K] = [t.dims[0]!, t.dims[1]!, t.dims[2]!];
    const m = new Map<number, number>();
    for (let h = 0; h < H; h++) for (let k = 0; k <= position; k++) m.set(regionOf(k), (m.get(regionOf(k)) ?? 0) + t.data[(h * Q + rowIndex) * K + k]! / H);
    return m;
  });
  return perLayer;
}

test('regionMasses at the decision position: per layer head mean and mean over layers, vs brute force; sums to 1', () => {
  const rng = new Rng(11);
  const b = armB();
  const T = b.ids.length;
  const att = range(3).map(() => randomAttention(rng, 4, range(T), T));
  // Message regions, a range region listed first (it wins its tokens), the tools block by TOOLS_MESSAGE.
  const regions: Region[] = [
    rangeRegion(b, 16, 18, 'selected'),
    { id: 'status', label: { en: 'status', zh: '状态' }, messages: [2] },
    { id: 'tools', label: { en: 'tools', zh: '工具' }, messages: [TOOLS_MESSAGE] },
    { id: 'mixed', label: { en: 'mixed', zh: '混合' }, messages: [1], ranges: [{ start: 0, end: 2 }] },
  ];
  const m = regionMasses(att, b, regions, T - 1);
  const brute = bruteMasses(att, T - 1, T - 1, b, regions);
  regions.forEach((r, i) =>
    m.regions[i]!.perLayer.forEach((x, l) => assert.ok(Math.abs(x - (brute[l]!.get(i) ?? 0)) < 1e-9, `${r.id} layer ${l}: ${x} vs ${brute[l]!.get(i)}`)),
  );
  m.other.perLayer.forEach((x, l) => assert.ok(Math.abs(x - (brute[l]!.get(-1) ?? 0)) < 1e-9));
  assert.deepEqual(m.generated.perLayer, [0, 0, 0]);
  for (const e of [...m.regions, m.other]) assert.ok(Math.abs(e.mean - e.perLayer.reduce((s, x) => s + x, 0) / 3) < 1e-12);
  for (const e of m.regions) e.perHead.forEach((hs, l) => assert.ok(Math.abs(hs.reduce((s, x) => s + x, 0) / 4 - e.perLayer[l]!) < 1e-12));
  for (const s of m.sums) assert.ok(Math.abs(s - 1) < 1e-6);
  assert.ok(m.maxSumError < 1e-6);
  assert.equal(m.futureMass, 0);
  assert.deepEqual(m.positions, [T - 1]);
  // Token counts: the range wins 16–17 from message 2 (which then shadows 2 tokens); "mixed" holds message 1 (8–14) + 0–1.
  assert.deepEqual(m.regions.map((e) => [e.tokens, e.shadowed]), [[2, 0], [5, 2], [1, 0], [9, 0]]);
  assert.equal(m.other.tokens, T - 17);
  // An earlier row: only keys ≤ its position count.
  const early = regionMasses(att, b, regions, 9);
  const be = bruteMasses(att, 9, 9, b, regions);
  early.regions.forEach((e, i) => e.perLayer.forEach((x, l) => assert.ok(Math.abs(x - (be[l]!.get(i) ?? 0)) < 1e-9)));
  // Rows given as positions (an extend of the last 5 tokens): the same row, the same masses.
  const tail = att.map((t) => {
    const [H, Q, K] = [t.dims[0]!, t.dims[1]!, t.dims[2]!];
    const out = new Float32Array(H * 5 * K);
    for (let h = 0; h < H; h++) out.set(t.data.subarray((h * Q + Q - 5) * K, (h * Q + Q) * K), h * 5 * K);
    return { data: out, dims: [H, 5, K] };
  });
  const viaRows = regionMasses(tail, b, regions, T - 1, range(5, T - 5));
  assert.deepEqual(viaRows.regions.map((e) => e.perLayer), m.regions.map((e) => e.perLayer));
  assert.deepEqual(regionMasses(tail, b, regions, T - 3, range(5, T - 5)).regions.map((e) => e.perLayer), regionMasses(att, b, regions, T - 3).regions.map((e) => e.perLayer));
  assert.throws(() => regionMasses(att, b, regions, T + 3), /not among/);
});

test('regionMassesOverRows: generated rows, the generated bucket, and the mean of the rows', () => {
  const rng = new Rng(3);
  const a = armA();
  const T = a.ids.length;
  const regions = defaultRegions(a);
  // Three generated tokens at T, T+1, T+2; each row as an extend of one token gives [H, 1, position + 1].
  const steps = [0, 1, 2].map((g) => ({ position: T + g, attention: range(2).map(() => randomAttention(rng, 2, [T + g], T + g + 1)) }));
  const all = regionMassesOverRows(steps, a, regions);
  const single = steps.map((s) => regionMassesOverRows([s], a, regions));
  all.regions.forEach((e, i) => e.perLayer.forEach((x, l) => assert.ok(Math.abs(x - single.reduce((s, m) => s + m.regions[i]!.perLayer[l]!, 0) / 3) < 1e-12)));
  // Generated keys: row T sees itself (key T), later rows 2 and 3 of them.
  assert.equal(single[0]!.generated.tokens, 1);
  assert.ok(single[0]!.generated.mean > 0);
  assert.equal(all.generated.tokens, 3);
  const bruteGen = bruteMasses(steps[2]!.attention, 0, T + 2, a, regions);
  single[2]!.generated.perLayer.forEach((x, l) => assert.ok(Math.abs(x - (bruteGen[l]!.get(-2) ?? 0)) < 1e-9));
  for (const s of all.sums) assert.ok(Math.abs(s - 1) < 1e-6);
  // Default regions tile the prompt: nothing left for "other".
  assert.equal(all.other.tokens, 0);
  assert.deepEqual(all.other.perLayer, [0, 0]);
  assert.deepEqual(all.positions, [T, T + 1, T + 2]);
  assert.throws(() => regionMassesOverRows([], a, regions), /no query rows/);
  assert.throws(() => regionMassesOverRows([{ position: T }], a, regions), /no attention/);
});

test('defaultRegions, rangeRegion, resolveRegions: labels, tiling, validation', () => {
  const b = armB();
  const regions = defaultRegions(b);
  assert.deepEqual(regions.map((r) => r.id), ['tools', 'message-0', 'message-1', 'message-2', 'generation']);
  assert.deepEqual(regions[2]!.label, { en: 'message 1 (user)', zh: '消息 1（用户）' });
  const res = resolveRegions(b, regions);
  assert.ok(res.owner.every((o) => o >= 0));
  assert.equal(res.tokens.reduce((s, x) => s + x, 0), b.ids.length);
  assert.deepEqual(regionTokens(b, regions[0]!), [5]);
  const r = rangeRegion(b, 3, 6, 'pick');
  assert.deepEqual(r, { id: 'range-3-6', label: { en: 'pick', zh: 'pick' }, ranges: [{ start: 3, end: 6 }] });
  assert.throws(() => rangeRegion(b, 5, 5, 'empty'), /non-empty range/);
  assert.throws(() => rangeRegion(b, 0, b.ids.length + 1, 'long'), /inside/);
  assert.throws(() => resolveRegions(b, [r, r]), /two regions/);
  // A scenario's regions ({ id, label, messages }) are Regions as they are.
  const sr: Region[] = scenarioRegions('xfinity', 'with-status');
  assert.ok(sr.length >= 4);
});

// ---- the real template: regions point at the right tokens -----------------------------------------------

const files = readTokenizerFiles('public/models/kvscope-tiny');
const tok = createTokenizer(files.tokenizerJson, files.tokenizerConfig);
const pa = buildPrompt(tok, scenarioRequest('xfinity', 'without-status'), { addGenerationPrompt: true });
const pb = buildPrompt(tok, scenarioRequest('xfinity', 'with-status'), { addGenerationPrompt: true });
const joined = (p: Prompt, r: Region) => regionTokens(p, r).map((t) => p.tokens[t]!.text).join('');

test('xfinity regions select the right template text', () => {
  assert.deepEqual(pa.notes, []);
  const rb = Object.fromEntries(scenarioRegions('xfinity', 'with-status').map((r) => [r.id, r]));
  const ra = Object.fromEntries(scenarioRegions('xfinity', 'without-status').map((r) => [r.id, r]));
  assert.equal(ra.status_bar, undefined, 'arm A has no status bar');
  const status = joined(pb, rb.status_bar!);
  assert.ok(status.startsWith('<|im_start|>user\n<agent_status>\n'), status);
  assert.ok(status.includes('Maximum calls to Xfinity reached (3/3)'));
  assert.ok(status.endsWith('</agent_status><|im_end|>\n'));
  for (const [p, r] of [[pa, ra], [pb, rb]] as const) {
    const phone = joined(p, r.phone_history!);
    for (const n of [1, 2, 3]) assert.ok(phone.includes(`PHONE_EVENT_XFINITY_${n}`), `phone history holds call ${n}`);
    assert.equal((phone.match(/"name": "phone_call"/g) ?? []).length, 3);
    assert.ok(!phone.includes('DISTRACTOR') && !phone.includes('web_search'));
    const search = joined(p, r.search_distractors!);
    assert.ok(search.includes('DISTRACTOR_SEARCH_1') && search.includes('DISTRACTOR_SEARCH_2') && search.includes('"name": "web_search"'));
    assert.ok(!search.includes('PHONE_EVENT'));
    const latest = joined(p, r.latest_user_query!);
    assert.equal(latest, '<|im_start|>user\nCan you call Xfinity one more time to chase the refund?<|im_end|>\n');
  }
  // The tools block by TOOLS_MESSAGE holds both schemas.
  const tools = joined(pa, { id: 't', label: { en: 't', zh: 't' }, messages: [TOOLS_MESSAGE] });
  assert.ok(tools.includes('"name": "phone_call"') && tools.includes('"name": "web_search"') && tools.includes('<tools>'));
});

test('xfinity arms align as the brief says: everything before the status bar is shared, the decision token is the same', () => {
  const al = alignArms(pa, pb);
  assert.equal(al.sharedPrefix, commonPrefixLength(pa.ids, pb.ids));
  assert.equal(pa.tokens[al.sharedPrefix]!.text, 'assistant');
  assert.equal(pb.tokens[al.sharedPrefix]!.text, 'user');
  for (const p of al.parts) {
    if (p.part === 'generation') assert.equal(p.status, 'same-tokens');
    else if (p.message.b === 13) assert.equal(p.status, 'appended');
    else assert.equal(p.status, 'shared', `part ${p.part} ${p.message.a}`);
  }
  assert.equal(al.decision.comparable, true);
  assert.equal(al.decision.a.text, '\n');
  assert.equal(al.decision.a.position, pa.ids.length - 1);
  assert.equal(al.decision.b.position, pb.ids.length - 1);
  assert.equal(pa.text.slice(pa.tokens[al.decision.a.generationPrompt!.start]!.start), '<|im_start|>assistant\n');
});

test('the CLI regions of each arm tile the prompt: first token alone, scenario regions, the rest named', () => {
  const sc = getScenario('xfinity');
  for (const [p, v] of [[pa, 'without-status'], [pb, 'with-status']] as const) {
    const regions = armRegions(sc, v, p);
    const res = resolveRegions(p, regions);
    assert.ok(res.owner.every((o) => o >= 0), `${v}: every token in a region`);
    assert.deepEqual(regionTokens(p, regions[0]!), [0]);
    assert.equal(regions[0]!.id, 'first_token');
    const byId = Object.fromEntries(regions.map((r, i) => [r.id, i]));
    assert.ok(joined(p, regions[byId.system_tools!]!).includes('You are a customer-service agent'));
    assert.equal(joined(p, regions[byId.generation_prompt!]!), '<|im_start|>assistant\n');
    assert.equal(joined(p, regions[byId.other_messages!]!), '<|im_start|>user\nContact Xfinity about refund case RF-203 and keep me updated.<|im_end|>\n');
    assert.equal(res.shadowed[byId.system_tools!], 1, 'token 0 goes to the first-token region');
    assert.equal('status_bar' in byId, v === 'with-status');
  }
});
