// Prefix invalidation (docs/CONCEPTS.md#prefix-invalidation) on the embedded model's real K/V caches
// (kvscope-tiny, 4 layers, 2 kv-heads × 32 dims, fp32 on onnxruntime-web WASM): the prefix before the
// first differing token is reusable; an in-place edit changes only its own position at layer 0 but every
// later position from layer 1 up; an insertion or deletion shifts positions, so RoPE'd layer-0 K changes
// for every shifted token while layer-0 V (no RoPE) of the same token does not.
//
// Tolerances (measured on this model, WASM, 4 threads):
// - TOL = 1e-6 for "unchanged": shared-cache prefixes are bit-identical (same entries); separate prefills
//   gave a max prefix difference of 0 here (bit-identical as well), the issue allows ≤ 1e-6. Recomputed
//   layer-0 entries of unchanged tokens also came out at 0.
// - CHANGED = 0.1 for "really changed" at layer 0: an edited token's own K differs by 2–4 and a RoPE shift of
//   one position moves layer-0 K by ≥ 0.6 (max over heads/dims); 0.1 is far above noise and far below both.
// - LATE = 1e-5 for positions after an edit at layers ≥ 1: the smallest measured max |ΔK| or |ΔV| there was
//   1.4e-4 (far positions attend to the edit weakly), so 1e-5 is 10× TOL and 14× below the smallest.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { commonPrefixLength, kvClass, kvDelta, prefixDelta, tokenDelete, tokenEdit, tokenInsert, type KvDelta } from '../lib/analysis/kvDiff';
import { readModelDir } from '../lib/cli/modelDir';
import { nodeOrt } from '../lib/cli/ort';
import { compareCaches, type CompareMode } from '../lib/engine/kvCompare';
import { EngineSession } from '../lib/engine/session';
import { buildPrompt } from '../lib/prompt/prompt';
import { validateRequest } from '../lib/prompt/request';
import { createTokenizer } from '../lib/prompt/tokenizer';

const TOL = 1e-6;
const CHANGED = 0.1;
const LATE = 1e-5;

const model = readModelDir('public/models/kvscope-tiny');
const tok = createTokenizer(model.tokenizerJson, model.tokenizerConfig);
const engine = await EngineSession.create(nodeOrt(), model.checkpoint, { graph: { logits: 'none', attention: 'none', presentKv: true } });
after(() => engine.dispose());
const L = model.checkpoint.config.numLayers;

function promptIds(file: string): number[] {
  const v = validateRequest(readFileSync(`examples/requests/${file}.json`, 'utf8'));
  if (!v.ok) throw new Error(`${file}: invalid request`);
  return buildPrompt(tok, v.request, { addGenerationPrompt: true }).ids;
}

const vancouver = promptIds('vancouver');
/** Two plain tokens to edit or insert with (" the", " assistant"); the test picks one that differs from what is there. */
const SUBSTITUTES = [279, 3887];
const other = (id: number) => SUBSTITUTES.find((x) => x !== id)!;

async function delta(a: number[], b: number[], mode: CompareMode, alignment?: { shiftAfter: number; by: number }): Promise<KvDelta> {
  const r = await compareCaches(engine, a, b, { mode });
  return kvDelta(r.a, r.b, { tol: TOL, alignment });
}

/** Every compared pair as { a, b, k, v } at `layer`. */
function pairs(d: KvDelta, layer: number) {
  return Array.from({ length: d.positions }, (_, i) => ({ i, a: d.a[i]!, b: d.b[i]!, k: d.maxK[layer * d.positions + i]!, v: d.maxV[layer * d.positions + i]! }));
}

test('prefix identity: bit-identical in shared-cache mode, within 1e-6 with separate prefills', async (t) => {
  const cases: [string, number[], number[]][] = [
    ['xfinity without → with status bar', promptIds('xfinity-without-status'), promptIds('xfinity-with-status')],
    ['vancouver, token 100 edited', vancouver, tokenEdit(vancouver, 100, other(vancouver[100]!))],
  ];
  for (const [name, a, b] of cases) {
    const p = commonPrefixLength(a, b);
    assert.ok(p > 50 && p < Math.min(a.length, b.length), `${name}: they part at ${p}`);
    const shared = await compareCaches(engine, a, b, { mode: 'shared' });
    assert.equal(shared.prefix, p);
    assert.equal(shared.computedB, b.length - p, 'shared mode computes only B after the first differing token');
    const ds = kvDelta(shared.a, shared.b, { tol: 0 });
    assert.deepEqual(prefixDelta(ds, p), { positions: p, maxK: 0, maxV: 0, bitIdentical: true }, `${name}: shared prefix`);
    const dsep = await delta(a, b, 'separate');
    const sep = prefixDelta(dsep, p);
    t.diagnostic(`${name}: separate prefills, prefix of ${p} positions: max |ΔK| ${sep.maxK}, max |ΔV| ${sep.maxV}, bit-identical ${sep.bitIdentical}`);
    assert.ok(sep.maxK <= TOL && sep.maxV <= TOL, `${name}: separate prefix within ${TOL}`);
    // The first differing token itself really changes, at every layer and in both modes.
    for (const d of [ds, dsep])
      for (let l = 0; l < L; l++) {
        assert.equal(d.perLayer[l]!.first?.a, p, `${name}: layer ${l} first changed position`);
        const at = d.perLayer[l]!.first!;
        assert.ok(Math.max(at.maxK, at.maxV) > CHANGED, `${name}: layer ${l} change at ${p} is ${at.maxK}/${at.maxV}`);
      }
  }
});

for (const mode of ['shared', 'separate'] as const) {
  test(`in-place edit (${mode}): layer 0 changes only the edited position; layers ≥ 1 change every position from it on`, async (t) => {
    for (const p of [37, 200]) {
      const b = tokenEdit(vancouver, p, other(vancouver[p]!));
      assert.equal(b.length, vancouver.length);
      const d = await delta(vancouver, b, mode);
      assert.equal(d.positions, vancouver.length);
      for (const x of pairs(d, 0)) {
        if (x.a === p) assert.ok(x.k > CHANGED && x.v > CHANGED / 10, `layer 0, the edited position ${p}: |ΔK| ${x.k}, |ΔV| ${x.v}`);
        else assert.ok(x.k <= TOL && x.v <= TOL, `layer 0 position ${x.a} moved by ${x.k}/${x.v}`);
      }
      assert.equal(d.perLayer[0]!.changed, 1);
      let smallest = Infinity;
      for (let l = 1; l < L; l++)
        for (const x of pairs(d, l)) {
          if (x.a < p) assert.equal(kvClass(d, l, x.i), 'identical', `layer ${l} position ${x.a} before the edit`);
          else {
            assert.ok(x.k > LATE && x.v > LATE, `layer ${l} position ${x.a} after the edit moved only ${x.k}/${x.v}`);
            smallest = Math.min(smallest, x.k, x.v);
          }
        }
      t.diagnostic(`edit at ${p}: layer-0 |ΔK| at ${p} ${pairs(d, 0)[p]!.k.toFixed(3)}; smallest max |ΔK|/|ΔV| at layers ≥ 1 after it ${smallest.toExponential(2)}; per-layer max |ΔK| ${d.perLayer.map((x) => x.maxK.toFixed(3)).join(' ')}`);
    }
  });
}

/** Layer-0 checks of a shift (insertion `by` = 1, deletion `by` = −1) at p, in both alignments. */
function checkShift(a: number[], b: number[], p: number, by: number, pos: KvDelta, tokAligned: KvDelta, t: { diagnostic(s: string): void }) {
  // Position-aligned: before p nothing changes at any layer; from p on, layer 0 compares different tokens at
  // the same position, so K and V differ wherever the tokens differ, and agree where a repeated token lands on itself.
  let differ = 0;
  for (let l = 0; l < L; l++) for (const x of pairs(pos, l)) if (x.a < p) assert.equal(kvClass(pos, l, x.i), 'identical');
  for (const x of pairs(pos, 0)) {
    if (x.a < p) continue;
    if (a[x.a] !== b[x.b]) {
      differ++;
      assert.ok(x.k > CHANGED, `position-aligned layer 0 K at ${x.a}: ${x.k}`);
    } else assert.ok(x.k <= TOL && x.v <= TOL, `position ${x.a} holds the same token in both: ${x.k}/${x.v}`);
  }
  assert.ok(differ >= pos.positions - p - 3, `${differ} of ${pos.positions - p} shifted positions hold a different token`);
  // Token-aligned: the same token, one position later (or earlier). V at layer 0 is the same; K is rotated.
  let minK = Infinity;
  let maxV = 0;
  for (const x of pairs(tokAligned, 0)) {
    assert.equal(a[x.a], b[x.b], 'token alignment pairs a token with itself');
    if (x.a < p) {
      assert.equal(x.b, x.a);
      assert.equal(kvClass(tokAligned, 0, x.i), 'identical');
      continue;
    }
    assert.equal(x.b, x.a + by);
    assert.ok(x.v <= TOL, `token-aligned layer 0 V of token at ${x.a}: ${x.v}`);
    assert.ok(x.k > CHANGED, `token-aligned layer 0 K of token at ${x.a} (RoPE shift): ${x.k}`);
    minK = Math.min(minK, x.k);
    maxV = Math.max(maxV, x.v);
  }
  // From layer 1 up, even V of the shifted tokens changes: they now attend over a different context.
  for (let l = 1; l < L; l++) for (const x of pairs(tokAligned, l)) if (x.a >= p) assert.ok(x.v > LATE, `layer ${l} V of shifted token at ${x.a}: ${x.v}`);
  t.diagnostic(`shift ${by > 0 ? '+' : ''}${by} at ${p}: token-aligned layer 0 min |ΔK| ${minK.toFixed(3)}, max |ΔV| ${maxV}`);
}

test('insertion of one token: position-aligned layer-0 K changes from p on; token-aligned layer-0 V is identical while K differs (RoPE)', async (t) => {
  for (const p of [5, 150]) {
    const b = tokenInsert(vancouver, p, [SUBSTITUTES[0]!]);
    const pos = await delta(vancouver, b, 'shared');
    const tokAligned = await delta(vancouver, b, 'shared', { shiftAfter: p, by: 1 });
    assert.equal(tokAligned.positions, vancouver.length, 'every token of A has its partner in B');
    checkShift(vancouver, b, p, 1, pos, tokAligned, t);
  }
});

test('deletion of one token: the same, shifted the other way', async (t) => {
  for (const p of [5, 150]) {
    const b = tokenDelete(vancouver, p);
    const pos = await delta(vancouver, b, 'shared');
    const tokAligned = await delta(vancouver, b, 'shared', { shiftAfter: p, by: -1 });
    assert.equal(tokAligned.positions, vancouver.length - 1, 'every token but the deleted one has its partner');
    assert.ok(![...tokAligned.a].includes(p), 'the deleted token has no partner');
    checkShift(vancouver, b, p, -1, pos, tokAligned, t);
  }
});
