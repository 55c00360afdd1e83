// lib/model/reference.ts, the float64 oracle: against the PyTorch golden fixtures of the embedded Qwen3 model,
// against numpy fixtures of small random qwen2 / llama checkpoints (Hugging Face semantics), and against itself
// (prefill + extensions = one prefill; RoPE offsets move keys, never attention).
//
// test/fixtures/families/{qwen2,llama}/ (config.json, model.safetensors, expected.safetensors) are committed,
// so this runs without Python. To regenerate them: python3 training/py/family_fixtures.py (numpy; it first runs
// training/family_checkpoints.ts, which writes the checkpoints with lib/model/randomCheckpoint.ts).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { loadCheckpoint, type Checkpoint } from '../lib/model/checkpoint';
import { parseConfig, ropeInvFreq } from '../lib/model/config';
import { hfRopeInvFreq, referenceForward, type ReferenceResult } from '../lib/model/reference';
import { parseSafetensors, readFloat32, type SafetensorsFile } from '../lib/model/safetensors';
import { tinySpecialId } from './helpers/embeddedIds';

const MODEL = 'public/models/kvscope-tiny';
const FAMILIES = 'test/fixtures/families';

interface GoldenCase {
  name: string;
  ids: number[];
  tokens: number;
  rows: number[];
  logits_positions: number[];
}

function load(dir: string, configOverride?: (c: Record<string, unknown>) => void): Checkpoint {
  const config = JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8'));
  configOverride?.(config);
  return loadCheckpoint(config, [fs.readFileSync(path.join(dir, 'model.safetensors'))]);
}

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>, what: string): number {
  assert.equal(a.length, b.length, `${what}: length`);
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]!);
    if (!(d <= m)) m = d; // NaN sticks
  }
  return m;
}

function assertClose(a: ArrayLike<number>, b: ArrayLike<number>, tol: number, what: string): void {
  const d = maxAbsDiff(a, b, what);
  assert.ok(d <= tol, `${what}: max |diff| ${d} > ${tol}`);
}

/** Rows `rows` of an attention tensor [H, T, S] → [H, rows.length, S]. */
function pickRows(a: Float32Array, H: number, T: number, S: number, rows: number[]): Float32Array {
  const out = new Float32Array(H * rows.length * S);
  for (let h = 0; h < H; h++) rows.forEach((r, j) => out.set(a.subarray((h * T + r) * S, (h * T + r + 1) * S), (h * rows.length + j) * S));
  return out;
}

let tiny: Checkpoint | undefined;
const tinyModel = () => (tiny ??= load(MODEL));

// (a) Golden fixtures: PyTorch (training/py/model.py) in float64 from the shipped fp16 weights.
const golden = JSON.parse(fs.readFileSync('training/golden/cases.json', 'utf8')) as { model: string; cases: GoldenCase[] };
for (const gc of golden.cases) {
  test(`golden ${gc.name} (${gc.tokens} tokens): logits, attention rows, k, v within 1e-4 of PyTorch float64`, (t) => {
    assert.equal(golden.model, MODEL);
    const ckpt = tinyModel();
    const g = parseSafetensors(fs.readFileSync('training/golden/golden.safetensors'));
    const c = ckpt.config;
    const T = gc.ids.length;
    assert.equal(T, gc.tokens);
    const t0 = performance.now();
    const r = referenceForward(ckpt, gc.ids);
    t.diagnostic(`referenceForward on ${T} tokens: ${(performance.now() - t0).toFixed(0)} ms`);
    const V = c.vocabSize;
    const logits = new Float32Array(gc.logits_positions.length * V);
    gc.logits_positions.forEach((p, j) => logits.set(r.logits.subarray(p * V, (p + 1) * V), j * V));
    assertClose(logits, readFloat32(g, `${gc.name}.logits`), 1e-4, 'logits');
    for (let l = 0; l < c.numLayers; l++) {
      assertClose(pickRows(r.attn[l]!, c.numHeads, T, T, gc.rows), readFloat32(g, `${gc.name}.${l}.attn`), 1e-4, `layer ${l} attn`);
      assertClose(r.k[l]!, readFloat32(g, `${gc.name}.${l}.k`), 1e-4, `layer ${l} k`);
      assertClose(r.v[l]!, readFloat32(g, `${gc.name}.${l}.v`), 1e-4, `layer ${l} v`);
    }
  });
}

// (b) Incremental: the cache carries everything a later call needs.
function assertSameAsPrefill(ckpt: Checkpoint, ids: number[], split: number[], tol: number): void {
  const c = ckpt.config;
  const full = referenceForward(ckpt, ids);
  const S = ids.length;
  let past: ReferenceResult['cache'] | undefined;
  let at = 0;
  for (const end of [...split, S]) {
    const r = referenceForward(ckpt, ids.slice(at, end), { past });
    const T = end - at;
    assert.equal(r.cache.length, end);
    assertClose(r.logits, full.logits.subarray(at * c.vocabSize, end * c.vocabSize), tol, `logits of tokens ${at}..${end}`);
    for (let l = 0; l < c.numLayers; l++) {
      // This call's rows of attention, over the end tokens it can see, equal the full run's rows (zero-padded to S).
      const rows = pickRows(full.attn[l]!, c.numHeads, S, S, Array.from({ length: T }, (_, i) => at + i));
      const mine = new Float32Array(c.numHeads * T * S);
      for (let hr = 0; hr < c.numHeads * T; hr++) mine.set(r.attn[l]!.subarray(hr * end, (hr + 1) * end), hr * S);
      assertClose(mine, rows, tol, `layer ${l} attn of tokens ${at}..${end}`);
      const prefix = (a: Float32Array) => {
        const out = new Float32Array(c.numKvHeads * end * c.headDim);
        for (let g = 0; g < c.numKvHeads; g++) out.set(a.subarray(g * S * c.headDim, (g * S + end) * c.headDim), g * end * c.headDim);
        return out;
      };
      assertClose(r.k[l]!, prefix(full.k[l]!), tol, `layer ${l} k after ${end}`);
      assertClose(r.v[l]!, prefix(full.v[l]!), tol, `layer ${l} v after ${end}`);
    }
    past = r.cache;
    at = end;
  }
}

test('incremental: prefill, then +1 token, then +a chunk, equals one prefill (within 1e-9)', () => {
  const ids = golden.cases.find((gc) => gc.name === 'vancouver')!.ids.slice(0, 48);
  assertSameAsPrefill(tinyModel(), ids, [30, 31], 1e-9);
  assertSameAsPrefill(load(path.join(FAMILIES, 'llama')), [1, 40, 12, 7, 29, 52, 3, 40, 12, 18, 0, 44, 7, 29, 21, 40, 12, 9], [1, 2, 11], 1e-9);
});

test('incremental: a past cache is not modified, so one prefix can be extended two ways', () => {
  const ckpt = tinyModel();
  const pre = referenceForward(ckpt, [tinySpecialId('<|im_start|>'), 806, 198, 5483]);
  const before = pre.cache.k.map((k) => k.slice());
  const a = referenceForward(ckpt, [4916], { past: pre.cache });
  const b = referenceForward(ckpt, [4916, 4842], { past: pre.cache });
  pre.cache.k.forEach((k, l) => assert.deepEqual(k, before[l]));
  assertClose(a.logits, b.logits.subarray(0, ckpt.config.vocabSize), 0, 'same first new token');
});

test('positionOffset shifts RoPE positions only: attention and logits unchanged (exact RoPE, 1e-9), keys rotated', () => {
  const ckpt = tinyModel();
  const ids = golden.cases[0]!.ids;
  const a = referenceForward(ckpt, ids, { rope: 'float64' });
  const b = referenceForward(ckpt, ids, { rope: 'float64', positionOffset: 1000 });
  assertClose(a.logits, b.logits, 1e-9, 'logits');
  a.attn.forEach((x, l) => assertClose(x, b.attn[l]!, 1e-9, `layer ${l} attn`));
  assert.ok(maxAbsDiff(a.k[0]!, b.k[0]!, 'k') > 0.1, 'keys at other positions differ');
  // Without an offset, the positions continue from the past length.
  const past = referenceForward(ckpt, ids.slice(0, 5), { rope: 'float64' }).cache;
  const c = referenceForward(ckpt, ids.slice(5, 8), { rope: 'float64', past });
  const d = referenceForward(ckpt, ids.slice(5, 8), { rope: 'float64', past, positionOffset: 5 });
  assertClose(c.logits, d.logits, 0, 'default offset = past length');
});

test('hfRopeInvFreq: float32 inverse frequencies exactly as torch computes them, and within 1e-6 of ropeInvFreq', () => {
  const tinyInv = hfRopeInvFreq(tinyModel().config);
  // torch 1.13: 1.0 / (10000.0 ** (torch.arange(0, 32, 2, dtype=torch.float32) / 32))
  const torchValues = [1.0, 0.5623413324356079, 0.3162277638912201, 0.17782793939113617, 0.10000000149011612, 0.05623412877321243, 0.03162277862429619, 0.017782794311642647,
    0.009999999776482582, 0.005623413249850273, 0.003162277862429619, 0.0017782794311642647, 0.0010000000474974513, 0.000562341301701963, 0.0003162277862429619, 0.00017782794020604342];
  assert.deepEqual([...tinyInv], torchValues);
  for (const rope_scaling of [null, { rope_type: 'linear', factor: 4 }, { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 64 }]) {
    const c = parseConfig({ model_type: 'llama', vocab_size: 10, hidden_size: 64, intermediate_size: 8, num_hidden_layers: 1, num_attention_heads: 2, rope_theta: 500000, rope_scaling });
    const hf = hfRopeInvFreq(c);
    const exact = ropeInvFreq(c);
    hf.forEach((x, i) => assert.ok(Math.abs(x / exact[i]! - 1) < 1e-6, `${JSON.stringify(rope_scaling)} pair ${i}`));
  }
});

// (c) Families the golden module does not cover: numpy fixtures (training/py/family_fixtures.py).
function familyExpected(family: string): { f: SafetensorsFile; ids: number[] } {
  const f = parseSafetensors(fs.readFileSync(path.join(FAMILIES, family, 'expected.safetensors')));
  return { f, ids: JSON.parse(f.metadata.ids!) as number[] };
}

function compareFamily(ckpt: Checkpoint, family: string): number {
  const { f, ids } = familyExpected(family);
  const r = referenceForward(ckpt, ids);
  let worst = maxAbsDiff(r.logits, readFloat32(f, 'logits'), 'logits');
  for (let l = 0; l < ckpt.config.numLayers; l++) {
    for (const [name, got] of [['attn', r.attn[l]!], ['k', r.k[l]!], ['v', r.v[l]!]] as const) {
      worst = Math.max(worst, maxAbsDiff(got, readFloat32(f, `${l}.${name}`), `layer ${l} ${name}`));
    }
  }
  return worst;
}

test('family fixtures exercise what they claim (qwen2: q/k/v biases, tied, F16; llama: untied, q/k/v/o biases, llama3 RoPE)', () => {
  const q = load(path.join(FAMILIES, 'qwen2'));
  assert.deepEqual([q.config.family, q.config.qkvBias, q.config.oBias, q.config.qkNorm, q.config.tieWordEmbeddings, q.dtype], ['qwen2', true, false, false, true, 'F16']);
  const l = load(path.join(FAMILIES, 'llama'));
  assert.deepEqual([l.config.family, l.config.qkvBias, l.config.oBias, l.config.qkNorm, l.config.tieWordEmbeddings, l.config.ropeScaling.type], ['llama', true, true, false, false, 'llama3']);
  assert.notEqual(l.config.numHeads * l.config.headDim, l.config.hiddenSize);
  assert.ok(l.config.numKvHeads < l.config.numHeads);
});

for (const family of ['qwen2', 'llama']) {
  test(`${family} fixture: logits, attention, k, v within 1e-5 of numpy float64 (Hugging Face semantics)`, () => {
    const d = compareFamily(load(path.join(FAMILIES, family)), family);
    assert.ok(d <= 1e-5, `max |diff| ${d}`);
  });
}

test('family fixtures are sensitive: dropping biases, the llama3 scaling or the untied head moves them by > 1e-3', () => {
  const variants: Array<[string, (c: Record<string, unknown>) => void]> = [
    ['llama', (c) => (c.attention_bias = false)],
    ['llama', (c) => (c.rope_scaling = null)],
    ['llama', (c) => (c.tie_word_embeddings = true)],
    ['qwen2', (c) => Object.assign(c, { model_type: 'llama', attention_bias: false })],
  ];
  for (const [family, change] of variants) {
    const d = compareFamily(load(path.join(FAMILIES, family), change), family);
    assert.ok(d > 1e-3, `${family} ${change.toString()}: only ${d}`);
  }
});
