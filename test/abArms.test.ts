// lib/analysis/abArms.ts (the regions the page and `kvscope ab` share): user ranges go first and apply to
// both arms only inside the shared prefix; bar rows
// pair regions by id; the decision-row difference against a brute-force restatement; the names generated
// calls carry against the conversation's. Also lib/view/diverging.ts and lib/view/abRaster.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { alignArms, regionMasses, resolveRegions } from '../lib/analysis/abCompare';
import {
  barRows,
  conversationTargets,
  decisionRowDiff,
  generatedTargets,
  headRow,
  massAt,
  mentioning,
  regionsForRef,
  tallyDecisions,
  userRangeApplies,
  withUserRanges,
  type UserRange,
} from '../lib/analysis/abArms';
import type { Tensor } from '../lib/tensor';
import { parseAssistantText } from '../lib/prompt/assistantOutput';
import { buildPrompt } from '../lib/prompt/prompt';
import { createTokenizer } from '../lib/prompt/tokenizer';
import { CATALOG } from '../lib/scenarios/catalog';
import { getScenario, scenarioRequest } from '../lib/scenarios/index';
import { Rng } from '../lib/util/rng';
import { divergingRgb, divergingTicks, makeDivergingScale, paintDiverging, poolSignedColumns, DIVERGING_MASK_RGB } from '../lib/view/diverging';
import { finiteMax, poolMax, rowBlock } from '../lib/view/abRaster';

const dir = 'public/models/kvscope-tiny/';
const tok = createTokenizer(JSON.parse(readFileSync(dir + 'tokenizer.json', 'utf8')), JSON.parse(readFileSync(dir + 'tokenizer_config.json', 'utf8')));
const promptOf = (ref: string) => {
  const [id, variant] = ref.split(':') as [string, string | undefined];
  return buildPrompt(tok, scenarioRequest(id, variant), { addGenerationPrompt: true });
};

test('regionsForRef: the Xfinity arms get the scenario’s regions; other scenarios one region per message', () => {
  const pb = promptOf('xfinity:with-status');
  const rb = regionsForRef('xfinity:with-status', pb);
  assert.deepEqual(
    rb.map((r) => r.id),
    ['first_token', 'phone_history', 'search_distractors', 'latest_user_query', 'status_bar', 'system_tools', 'generation_prompt', 'other_messages'],
  );
  const pa = promptOf('xfinity:without-status');
  assert.ok(!regionsForRef('xfinity:without-status', pa).some((r) => r.id === 'status_bar'), 'arm A has no status bar');
  // Masses at the decision position sum to 1 with these regions (nothing double counted).
  const { owner } = resolveRegions(pb, rb);
  assert.equal([...owner].filter((o) => o < 0).length, 0, 'every Xfinity token is in a region');
  const pv = promptOf('vancouver');
  const rv = regionsForRef('vancouver', pv);
  assert.equal(rv[0]!.id, 'first_token');
  assert.ok(rv.some((r) => r.id === 'tools') && rv.some((r) => r.id === 'message-0') && rv.some((r) => r.id === 'generation'));
  const custom = regionsForRef('custom:abc', pv);
  assert.deepEqual(custom, rv, 'a custom scenario follows its spans');
  assert.throws(() => regionsForRef('nope', pv), /unknown scenario/);
});

test('user ranges: first in the list, both arms inside the shared prefix, only their arm past it', () => {
  const pa = promptOf('xfinity:without-status');
  const pb = promptOf('xfinity:with-status');
  const P = alignArms(pa, pb).sharedPrefix;
  const inside: UserRange = { id: 'user-1', name: 'the user asks', arm: 'A', start: 592, end: 600 };
  const past: UserRange = { id: 'user-2', name: 'status head', arm: 'B', start: P, end: P + 5 };
  assert.ok(inside.end <= P);
  assert.equal(userRangeApplies(inside, 'B', P), true);
  assert.equal(userRangeApplies(past, 'A', P), false);
  const base = regionsForRef('xfinity:with-status', pb);
  const rb = withUserRanges('B', base, [inside, past], P, pb);
  assert.deepEqual(rb.slice(0, 2).map((r) => r.id), ['user-1', 'user-2']);
  assert.deepEqual(rb[1]!.ranges, [{ start: P, end: P + 5 }]);
  const ra = withUserRanges('A', regionsForRef('xfinity:without-status', pa), [inside, past], P, pa);
  assert.deepEqual(ra.slice(0, 1).map((r) => r.id), ['user-1']);
  assert.ok(!ra.some((r) => r.id === 'user-2'));
  // The range takes its tokens from the latest-user-query region that also lists them.
  const { tokens } = resolveRegions(pb, rb);
  assert.equal(tokens[0], 8);
  const q = rb.findIndex((r) => r.id === 'latest_user_query');
  assert.equal(tokens[q], 18 - 8);
  // A range that does not fit the arm is left out rather than thrown.
  assert.ok(!withUserRanges('A', [], [{ ...past, arm: 'A', start: pa.ids.length - 1, end: pa.ids.length + 3 }], P, pa).length);
});

/** Random causal attention [H, T, T], rows summing to 1. */
function randomAttention(rng: Rng, H: number, T: number): Tensor {
  const data = new Float32Array(H * T * T);
  for (let h = 0; h < H; h++)
    for (let q = 0; q < T; q++) {
      let s = 0;
      for (let k = 0; k <= q; k++) s += data[(h * T + q) * T + k] = rng.next() + 0.01;
      for (let k = 0; k <= q; k++) data[(h * T + q) * T + k]! /= s;
    }
  return { data, dims: [H, T, T] };
}

test('headRow and decisionRowDiff against a brute-force restatement', () => {
  const rng = new Rng(7);
  const [H, Ta, Tb, P] = [3, 9, 12, 7];
  const A = [randomAttention(rng, H, Ta), randomAttention(rng, H, Ta)];
  const B = [randomAttention(rng, H, Tb), randomAttention(rng, H, Tb)];
  const at = (t: Tensor, T: number, h: number, q: number, k: number) => t.data[(h * T + q) * T + k]!;
  for (const how of ['mean', 'max', 1] as const) {
    const d = decisionRowDiff(A, B, Ta - 1, Tb - 1, P, how);
    assert.equal(d.layers, 2);
    assert.equal(d.keys, P);
    let max = 0;
    for (let l = 0; l < 2; l++) {
      for (let k = 0; k < P; k++) {
        const hs = [0, 1, 2];
        const red = (t: Tensor, T: number) => {
          const vals = hs.map((h) => at(t, T, h, T - 1, k));
          return how === 'mean' ? vals.reduce((s, x) => s + x, 0) / H : how === 'max' ? Math.max(...vals) : vals[how]!;
        };
        const a = red(A[l]!, Ta);
        const b = red(B[l]!, Tb);
        assert.ok(Math.abs(d.a[l * P + k]! - a) < 1e-6);
        assert.ok(Math.abs(d.diff[l * P + k]! - (b - a)) < 1e-6, `${how} l${l} k${k}`);
        max = Math.max(max, Math.abs(b - a));
      }
    }
    assert.ok(Math.abs(d.maxAbs - max) < 1e-6);
    assert.ok(d.at && Math.abs(Math.abs(d.diff[d.at.layer * P + d.at.key]!) - d.maxAbs) < 1e-7);
  }
  assert.deepEqual([...headRow({ data: Float32Array.from([1, 2, 3, 4]), dims: [2, 2] }, 1, 'mean')], [3, 4]);
  assert.throws(() => headRow(A[0]!, Ta, 'mean'), /outside/);
  assert.throws(() => decisionRowDiff(A, B, Ta - 1, Tb - 1, Ta + 1, 'mean'), /keys asked/);
});

test('barRows pairs regions by id (A’s order, then B’s), adds other/generated only when they hold something', () => {
  const pa = promptOf('xfinity:without-status');
  const pb = promptOf('xfinity:with-status');
  const rng = new Rng(3);
  const fake = (T: number) => [randomAttention(rng, 1, T)];
  const ma = regionMasses(fake(pa.ids.length), pa, regionsForRef('xfinity:without-status', pa), pa.ids.length - 1);
  const mb = regionMasses(fake(pb.ids.length), pb, regionsForRef('xfinity:with-status', pb), pb.ids.length - 1);
  const rows = barRows(ma, mb);
  assert.deepEqual(
    rows.map((r) => r.id),
    ['first_token', 'phone_history', 'search_distractors', 'latest_user_query', 'status_bar', 'system_tools', 'generation_prompt', 'other_messages'],
    'B’s status bar right after the region B lists before it',
  );
  const status = rows.find((r) => r.id === 'status_bar')!;
  assert.equal(status.a, null);
  assert.ok(status.b && status.b.tokens === 54);
  assert.equal(massAt(status.b!, 'mean'), status.b!.mean);
  assert.equal(massAt(status.b!, 0), status.b!.perLayer[0]);
  const sum = rows.reduce((s, r) => s + (r.b ? r.b.mean : 0), 0);
  assert.ok(Math.abs(sum - 1) < 1e-5, `B's rows sum to ${sum}`);
  assert.deepEqual(barRows(null, null), []);
  // Only B: B's order; B first in the list: at the start.
  assert.deepEqual(barRows(null, mb).map((r) => r.id).slice(0, 2), ['first_token', 'phone_history']);
  const onlyB = { ...mb, regions: [{ ...mb.regions[0]!, id: 'b_first' }, ...mb.regions] };
  assert.equal(barRows(ma, onlyB)[0]!.id, 'b_first');
});

test('conversation targets, generated targets, mentions and tallies', () => {
  const req = scenarioRequest('xfinity', 'with-status');
  assert.deepEqual(conversationTargets(req), ['Xfinity']);
  assert.deepEqual(conversationTargets(req, 'web_search'), ['Xfinity refund policy evidence batch 1', 'Xfinity refund policy evidence batch 2']);
  const outs = [
    '<think>\n\n</think>\n\n<tool_call>\n{"name": "phone_call", "arguments": {"company": "Paxia"}}\n</tool_call><|im_end|>',
    '<tool_call>\n{"name": "phone_call", "arguments": {"company": "xfinity"}}\n</tool_call><|im_end|>',
    '<tool_call>\n{"name": "phone_call", "arguments": {"company": "Paxia"}}\n</tool_call><|im_end|>',
    'I can’t call Xfinity again.<|im_end|>',
  ];
  const parsed = outs.map(parseAssistantText);
  assert.deepEqual(generatedTargets(parsed, ['Xfinity']), [
    { name: 'Paxia', count: 2, inConversation: false },
    { name: 'xfinity', count: 1, inConversation: true },
  ]);
  assert.equal(mentioning(outs, 'Xfinity'), 2);
  assert.equal(mentioning(outs, ''), 0);
  assert.deepEqual(tallyDecisions([{ decision: 'call' }, { decision: 'refuse' }, { decision: 'call' }]), { call: 2, refuse: 1 });
});

test('every catalog entry resolves to regions', () => {
  for (const e of CATALOG) {
    const p = promptOf(e.ref);
    const rs = regionsForRef(e.ref, p);
    assert.ok(rs.length >= 2, e.ref);
    assert.doesNotThrow(() => resolveRegions(p, rs), e.ref);
  }
  assert.ok(getScenario('xfinity').regions);
});

test('diverging scale: neutral at 0, blue below, red above, symmetric ticks, sign-preserving power', () => {
  assert.deepEqual(divergingRgb(0), [0xf7, 0xf7, 0xf7]);
  assert.deepEqual(divergingRgb(-1), [0x21, 0x66, 0xac]);
  assert.deepEqual(divergingRgb(1), [0xb2, 0x18, 0x2b]);
  assert.deepEqual(divergingRgb(5), divergingRgb(1));
  assert.deepEqual(divergingRgb(NaN), divergingRgb(0));
  const lin = makeDivergingScale(0.2);
  assert.equal(lin.norm(0.1), 0.5);
  assert.equal(lin.norm(-0.4), -1);
  const pow = makeDivergingScale(0.2, 0.5);
  assert.ok(Math.abs(pow.norm(-0.05) + 0.5) < 1e-12);
  assert.deepEqual(divergingTicks(lin).map((t) => [t.label, t.t]), [['−0.2', 0], ['−0.1', 0.25], ['0', 0.5], ['+0.1', 0.75], ['+0.2', 1]]);
  assert.deepEqual(divergingTicks(makeDivergingScale(0)), [{ value: 0, t: 0.5, label: '0' }]);
  assert.equal(divergingTicks(makeDivergingScale(2e-5))[4]!.label, '+2.0e−5');
  const px = paintDiverging(Float32Array.from([-0.2, 0, 0.2, NaN]), 1, 4, lin, new Uint8ClampedArray(16));
  assert.deepEqual([...px.slice(0, 3)], divergingRgb(-1));
  assert.deepEqual([...px.slice(8, 11)], divergingRgb(1));
  assert.deepEqual([...px.slice(12, 15)], [...DIVERGING_MASK_RGB]);
  assert.throws(() => makeDivergingScale(-1), /max ≥ 0/);
  // Pooling keeps the value of largest magnitude, sign included.
  assert.deepEqual([...poolSignedColumns(Float32Array.from([0.1, -0.3, 0.2, NaN, NaN, 0.05]), 1, 6, 3)], [Math.fround(-0.3), Math.fround(0.2), Math.fround(0.05)]);
  assert.equal(poolSignedColumns(Float32Array.from([NaN, NaN]), 1, 2, 1)[0], NaN);
});

test('rowBlock masks the future and keys past the arm; poolMax keeps the brightest cell', () => {
  const T = 4;
  const m = Float32Array.from({ length: T * T }, (_, i) => i);
  const b = rowBlock(m, T, 2, 6);
  // rows 2 and 3, keys 0..5: keys ≤ q from the matrix, the rest NaN.
  assert.deepEqual([...b].map((x) => (Number.isNaN(x) ? null : x)), [8, 9, 10, null, null, null, 12, 13, 14, 15, null, null]);
  assert.equal(rowBlock(m, T, 4, 4).length, 0);
  assert.throws(() => rowBlock(m, T, 5, 4), /first row/);
  const p = poolMax(b, 2, 6, 1, 3);
  assert.deepEqual([...p.data].map((x) => (Number.isNaN(x) ? null : x)), [13, 15, null]);
  assert.deepEqual(poolMax(b, 2, 6, 10, 10).data.length, 12);
  assert.equal(finiteMax(b), 15);
  assert.equal(finiteMax(Float32Array.from([NaN, -1])), 0);
});
