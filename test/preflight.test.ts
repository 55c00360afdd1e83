// Preflight (lib/model/preflight.ts): what a checkpoint costs before its weights are fetched. The full
// real shapes are read from their headers alone (the test files have no weights, and reads past a header
// fail); small in-memory checkpoints cover every refusal; the tiny generated folders are read from disk.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expectedTensors, parseConfig } from '../lib/model/config';
import { preflight, SUPPORTED_SENTENCE, WASM_HEAP_BYTES, WASM_SAFETY_MARGIN_BYTES, type BrowserBudget, type PreflightReport } from '../lib/model/preflight';
import { randomConfigJson } from '../lib/model/randomCheckpoint';
import { realShape } from '../lib/model/realShapes';
import { parseSafetensorsHeader, readHeaderLength } from '../lib/model/safetensors';
import type { ModelFiles } from '../lib/model/source/types';
import { ensureRealCheckpoint, folderFiles, planFiles } from './helpers/realCheckpoints';
import { messageText } from '../lib/i18n/message';

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;
const BIG_GPU: BrowserBudget = { webgpu: { maxBufferSize: 4 * GiB, maxStorageBufferBindingSize: 2 * GiB, adapterInfo: 'test adapter' }, wasmHeapBytes: WASM_HEAP_BYTES };
/** WebGPU's default limits (what a device gets without asking for more). */
const DEFAULT_GPU: BrowserBudget = { webgpu: { maxBufferSize: 256 * MiB, maxStorageBufferBindingSize: 128 * MiB }, wasmHeapBytes: WASM_HEAP_BYTES };

// ---- small in-memory checkpoints -------------------------------------------------------------------

const DTYPE_BYTES: Record<string, number> = { F32: 4, F16: 2, BF16: 2, I8: 1, F8_E4M3: 1, I32: 4 };

/** A safetensors file with zero data: header from (name, dtype, shape) entries. */
function shardBytes(entries: { name: string; dtype: string; shape: number[] }[]): Uint8Array {
  const header: Record<string, unknown> = { __metadata__: { format: 'pt' } };
  let off = 0;
  for (const e of entries) {
    const n = e.shape.reduce((a, d) => a * d, 1) * DTYPE_BYTES[e.dtype]!;
    header[e.name] = { dtype: e.dtype, shape: e.shape, data_offsets: [off, off + n] };
    off += n;
  }
  const h = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(8 + h.length + off);
  new DataView(out.buffer).setBigUint64(0, BigInt(h.length), true);
  out.set(h, 8);
  return out;
}

function tensorsOf(config: Record<string, unknown>, dtype = 'F16'): { name: string; dtype: string; shape: number[] }[] {
  return [...expectedTensors(parseConfig(config))].map(([name, shape]) => ({ name, dtype, shape }));
}

/** An in-memory ModelFiles that counts the bytes each method hands out. */
function memFiles(entries: Record<string, string | Uint8Array>): ModelFiles & { rangeBytes: Map<string, number>; wholeReads: string[] } {
  const rangeBytes = new Map<string, number>();
  const wholeReads: string[] = [];
  const get = (name: string) => entries[name];
  const asBytes = (v: string | Uint8Array) => (typeof v === 'string' ? new TextEncoder().encode(v) : v);
  return {
    label: 'memory',
    kind: 'folder',
    rangeBytes,
    wholeReads,
    async size(name) {
      const v = get(name);
      return v === undefined ? null : asBytes(v).length;
    },
    async text(name) {
      const v = get(name);
      if (v === undefined) return null;
      return typeof v === 'string' ? v : new TextDecoder().decode(v);
    },
    async bytes(name) {
      wholeReads.push(name);
      const v = get(name);
      if (v === undefined) throw new Error(`no ${name}`);
      return asBytes(v);
    },
    async range(name, start, end, signal) {
      signal?.throwIfAborted();
      const v = get(name);
      if (v === undefined) throw new Error(`no ${name}`);
      const b = asBytes(v).slice(start, end);
      rangeBytes.set(name, (rangeBytes.get(name) ?? 0) + b.length);
      return b;
    },
  };
}

const small = randomConfigJson({ family: 'qwen3' });

/**
 * Every reason carries its message: in English it is the reason's text (a wrapped error's text adds a full
 * stop), and in Chinese it is worded, not left in English.
 */
function assertWorded(r: PreflightReport): void {
  for (const x of [...r.refusals, ...r.notes, ...r.verdicts.wasm.reasons, ...r.verdicts.webgpu.reasons]) {
    const en = messageText('en', x.message);
    assert.ok(x.text === en || x.text === `${en}.`, `${x.code}: text ${JSON.stringify(x.text)} is not its message ${JSON.stringify(en)}`);
    const zh = messageText('zh', x.message);
    assert.match(zh, /\p{Script=Han}/u, `${x.code}: ${zh}`);
  }
}

function assertRefused(r: PreflightReport, code: string, text: RegExp): void {
  assertWorded(r);
  assert.equal(r.supported, false, `expected a refusal ${code}`);
  const hit = r.refusals.find((x) => x.code === code);
  assert.ok(hit, `refusals ${JSON.stringify(r.refusals.map((x) => x.code))} lack ${code}`);
  assert.match(hit.text, text);
  assert.equal(hit.level, 'fail');
  const last = r.refusals[r.refusals.length - 1]!;
  assert.equal(last.code, 'supported');
  assert.equal(last.text, SUPPORTED_SENTENCE);
  assert.match(SUPPORTED_SENTENCE, /Qwen3, Qwen2\/Qwen2\.5 and Llama \(SmolLM2, TinyLlama, Llama 3\.x\).*safetensors.*F32, F16 or BF16/);
  for (const v of [r.verdicts.wasm, r.verdicts.webgpu]) {
    assert.equal(v.ok, false);
    assert.ok(v.reasons.some((x) => x.code === code));
  }
}

// ---- full real shapes, headers only ------------------------------------------------------------------

test('qwen3-0.6b, two shards: numbers from the headers alone, only header bytes read', async () => {
  const files = planFiles(realShape('qwen3-0.6b'));
  const r = await preflight(files, BIG_GPU);
  assertWorded(r);
  assert.equal(r.supported, true, JSON.stringify(r.refusals));
  assert.deepEqual(r.model, {
    family: 'qwen3', modelType: 'qwen3', architecture: 'Qwen3ForCausalLM', layers: 28, heads: 16, kvHeads: 8, headDim: 128,
    hidden: 1024, intermediate: 3072, vocab: 151936, maxPositions: 40960, tiedEmbeddings: true,
  });
  // Independent arithmetic: embedding + 28 × (q, k, v, o, gate/up/down, two norms, q/k norms) + final norm.
  const layer = 2048 * 1024 + 2 * 1024 * 1024 + 1024 * 2048 + 3 * 3072 * 1024 + 2 * 1024 + 2 * 128;
  assert.equal(151936 * 1024 + 28 * layer + 1024, 596_049_920);
  assert.equal(r.parameters, 596_049_920);
  assert.equal(r.parametersFromConfig, 596_049_920);
  assert.deepEqual(r.dtypes, ['BF16']);
  // Only header bytes: 8 + N per shard (planFiles rejects any read past the header), nothing read whole but JSON.
  assert.equal(r.shards.length, 2);
  for (const s of r.shards) {
    assert.equal(s.bytesRead, 8 + s.headerLength!);
    assert.ok(s.bytesRead < 1_000_000, `${s.name}: ${s.bytesRead} bytes read`);
    assert.equal(files.log.range.get(s.name), s.bytesRead);
    assert.equal(files.log.whole.get(s.name), undefined);
  }
  assert.deepEqual([...files.log.whole.keys()].sort(), ['config.json', 'model.safetensors.index.json']);
  assert.ok(!files.log.calls.some((c) => c.startsWith('bytes ')));
  const shardSizes = files.plan.shards.reduce((a, s) => a + s.size, 0);
  assert.equal(r.shards.reduce((a, s) => a + s.size!, 0), shardSizes);
  assert.equal(r.downloadBytes, shardSizes + [...r.files].filter((f) => !f.name.endsWith('.safetensors')).reduce((a, f) => a + f.size!, 0));
  assert.ok(r.downloadBytes > 1_192_099_840 && r.downloadBytes < 1_192_099_840 + 100_000);
  // Weights: stored BF16, 16-bit in the engine; the largest buffer is the embedding, 151936 × 1024 × 2 B.
  assert.equal(r.weights!.storedBytes, 596_049_920 * 2);
  assert.equal(r.weights!.engineBytes, 596_049_920 * 2);
  assert.notEqual(r.weights!.engineType, 'float32');
  assert.deepEqual(r.weights!.largestTensor, { name: 'model.embed_tokens.weight', shape: [151936, 1024], bytes: 311_164_928 });
  // Cache and attention.
  assert.equal(r.kvBytesPer1kTokens, 28 * 2 * 8 * 128 * 4 * 1000);
  assert.deepEqual(r.attention, [
    { tokens: 1024, allLayersReduced: 28 * 1024 * 1024 * 4, oneLayerPerHead: 16 * 1024 * 1024 * 4 },
    { tokens: 2048, allLayersReduced: 28 * 2048 * 2048 * 4, oneLayerPerHead: 16 * 2048 * 2048 * 4 },
  ]);
  assert.match(r.notes.find((n) => n.code === 'kv_held_twice')!.text, /219 MiB per 1,000 tokens.*WASM heap and in JS/);
  assert.match(r.notes.find((n) => n.code === 'attention_quadratic')!.text, /112 MiB at 1,024 tokens and 448 MiB at 2,048.*64 MiB and 256 MiB/);
  assert.ok(r.notes.some((n) => n.code === 'bf16_kept' || n.code === 'bf16_to_fp16'));
  // Estimates grow with the context; both fit the WASM budget, and the verdict says how far it goes.
  assert.deepEqual(r.estimates.map((e) => e.tokens), [1024, 2048]);
  const [e1, e2] = r.estimates;
  assert.equal(e1!.kvCache, 28 * 2 * 8 * 128 * 4 * 1024);
  assert.ok(e1!.weights >= 596_049_920 * 2);
  assert.ok(e2!.wasmHeap > e1!.wasmHeap && e2!.wasmHeap <= WASM_HEAP_BYTES - WASM_SAFETY_MARGIN_BYTES);
  assert.equal(e1!.tab, e1!.wasmHeap + e1!.js);
  assert.equal(r.verdicts.wasm.ok, true);
  assert.equal(r.verdicts.wasm.reasons[0]!.code, 'wasm_fits');
  assert.ok(r.verdicts.wasm.maxTokens! >= 2048 && r.verdicts.wasm.maxTokens! < 40960);
  assert.equal(r.verdicts.webgpu.ok, true);
  assert.equal(r.verdicts.webgpu.reasons[0]!.code, 'webgpu_tensor_fits');
});

test('WebGPU: the embedding does not fit the default 128 MiB binding; no adapter; a small WASM heap; low device memory', async () => {
  const r = await preflight(planFiles(realShape('qwen3-0.6b')), { ...DEFAULT_GPU, deviceMemoryGiB: 2 });
  assertWorded(r);
  assert.equal(r.supported, true);
  assert.equal(r.verdicts.webgpu.ok, false);
  const why = r.verdicts.webgpu.reasons[0]!;
  assert.equal(why.code, 'webgpu_tensor_too_large');
  assert.equal(why.params.tensor, 'model.embed_tokens.weight');
  assert.equal(why.params.limitName, 'maxStorageBufferBindingSize');
  assert.match(why.text, /model\.embed_tokens\.weight \[151936, 1024\].*297 MiB.*maxStorageBufferBindingSize is 128 MiB/);
  // WASM still fits, but the tab at 2,048 tokens is more than 2 GiB of device memory.
  assert.equal(r.verdicts.wasm.ok, true);
  assert.ok(r.verdicts.wasm.reasons.some((x) => x.code === 'device_memory_low' && x.level === 'warn'));

  const none = await preflight(planFiles(realShape('qwen3-0.6b')), { webgpu: null, wasmHeapBytes: 1 * GiB });
  assertWorded(none);
  assert.deepEqual(none.verdicts.webgpu.reasons.map((x) => x.code), ['webgpu_unavailable']);
  assert.equal(none.verdicts.wasm.ok, false);
  assert.equal(none.verdicts.wasm.reasons[0]!.code, 'wasm_too_large');
  assert.match(none.verdicts.wasm.reasons[0]!.text, /weights alone need about 1\.\d+ GiB.*512 MiB \(the 1 GiB WASM heap less a 512 MiB margin\)/);
  assert.equal(none.verdicts.wasm.maxTokens, 0);
});

test('smollm2-135m: float32 embedding fits 128 MiB, but one layer of attention at 2,048 tokens does not', async () => {
  const r = await preflight(planFiles(realShape('smollm2-135m')), DEFAULT_GPU);
  assertWorded(r);
  assert.equal(r.supported, true, JSON.stringify(r.refusals));
  assert.equal(r.parameters, 134_515_008); // SmolLM2-135M's published count
  assert.equal(r.weights!.engineType, 'float32');
  assert.equal(r.weights!.largestTensor.bytes, 49152 * 576 * 4);
  assert.equal(r.verdicts.webgpu.ok, true);
  const lim = r.verdicts.webgpu.reasons.find((x) => x.code === 'webgpu_attention_limit')!;
  assert.equal(lim.params.tokens, 2048);
  // 9 heads × T² × 4 B ≤ 128 MiB ⇔ T ≤ 1930.
  assert.equal(r.verdicts.webgpu.maxTokens, 1930);
  assert.match(lim.text, /up to 1,930 tokens fit/);
  assert.ok(!r.verdicts.webgpu.reasons.some((x) => x.code === 'webgpu_attention_limit' && x.params.tokens === 1024));
});

test('qwen2.5-0.5b: q/k/v biases counted, one shard', async () => {
  const r = await preflight(planFiles(realShape('qwen2.5-0.5b')), BIG_GPU);
  assert.equal(r.supported, true, JSON.stringify(r.refusals));
  assert.equal(r.model!.family, 'qwen2');
  // Qwen2.5-0.5B's published count: 494,032,768.
  assert.equal(r.parameters, 494_032_768);
  assert.deepEqual(r.shards.map((s) => s.name), ['model.safetensors']);
  assert.equal(r.kvBytesPer1kTokens, 24 * 2 * 2 * 64 * 4 * 1000);
});

// ---- refusals ------------------------------------------------------------------------------------------

test('refuses an unsupported architecture, a quantised config and a config the parser rejects', async () => {
  const arch = await preflight(planFiles(realShape('qwen3-0.6b'), { overrides: { 'config.json': JSON.stringify({ ...realShape('qwen3-0.6b').config, model_type: 'gemma2', architectures: ['Gemma2ForCausalLM'] }) } }), BIG_GPU);
  assertRefused(arch, 'unsupported_architecture', /model_type "gemma2", architecture Gemma2ForCausalLM/);
  assert.equal(arch.parameters, 596_049_920); // the headers were still read

  const quant = await preflight(planFiles(realShape('qwen3-0.6b'), { overrides: { 'config.json': JSON.stringify({ ...realShape('qwen3-0.6b').config, quantization_config: { quant_method: 'gptq', bits: 4 } }) } }), BIG_GPU);
  assertRefused(quant, 'quantized', /quant_method "gptq"/);
  assert.equal(quant.refusals.find((x) => x.code === 'quantized')!.params.quantMethod, 'gptq');

  const sliding = await preflight(memFiles({ 'config.json': JSON.stringify({ ...small, use_sliding_window: true }), 'model.safetensors': shardBytes(tensorsOf(small)) }), BIG_GPU);
  assertRefused(sliding, 'config_invalid', /use_sliding_window/);

  const notJson = await preflight(memFiles({ 'config.json': '{', 'model.safetensors': shardBytes(tensorsOf(small)) }), BIG_GPU);
  assertRefused(notJson, 'config_invalid', /config\.json is not valid JSON/);
});

test('refuses dtypes other than F32/F16/BF16, naming the tensors', async () => {
  const entries = tensorsOf(small).map((t) => (t.name.endsWith('q_proj.weight') ? { ...t, dtype: 'F8_E4M3' } : t.name.endsWith('k_proj.weight') ? { ...t, dtype: 'I8' } : t));
  const files = memFiles({ 'config.json': JSON.stringify(small), 'model.safetensors': shardBytes(entries) });
  const r = await preflight(files, BIG_GPU);
  assertRefused(r, 'unsupported_dtype', /model\.layers\.0\.self_attn\.q_proj\.weight \(F8_E4M3\), model\.layers\.0\.self_attn\.k_proj\.weight \(I8\), model\.layers\.1\.self_attn\.q_proj\.weight \(F8_E4M3\) and 1 more/);
  assert.deepEqual(r.dtypes, ['F16', 'F8_E4M3', 'I8']);
  assert.equal(r.refusals.find((x) => x.code === 'unsupported_dtype')!.params.count, 4);
  assert.deepEqual(files.wholeReads, []);
});

test('refuses missing tensors and wrong shapes, naming the first few', async () => {
  const all = tensorsOf(small);
  const missing = await preflight(memFiles({ 'config.json': JSON.stringify(small), 'model.safetensors': shardBytes(all.filter((t) => !t.name.endsWith('mlp.up_proj.weight') && t.name !== 'model.norm.weight')) }), BIG_GPU);
  assertRefused(missing, 'missing_tensors', /Missing 3 tensors that a qwen3 config with 2 layers needs: model\.layers\.0\.mlp\.up_proj\.weight, model\.layers\.1\.mlp\.up_proj\.weight, model\.norm\.weight/);

  const wrong = await preflight(memFiles({ 'config.json': JSON.stringify(small), 'model.safetensors': shardBytes(all.map((t) => (t.name === 'model.embed_tokens.weight' ? { ...t, shape: [96, 64] } : t))) }), BIG_GPU);
  assertRefused(wrong, 'wrong_shapes', /model\.embed_tokens\.weight is \[96, 64\], config\.json implies \[97, 64\]/);
});

test('refuses corrupt or truncated shard headers with the safetensors message', async () => {
  const good = shardBytes(tensorsOf(small));
  const badJson = good.slice();
  badJson[8] = 0x5d; // "]" where "{" was
  const r1 = await preflight(memFiles({ 'config.json': JSON.stringify(small), 'model.safetensors': badJson }), BIG_GPU);
  assertRefused(r1, 'header_corrupt', /^model\.safetensors: safetensors: header is not valid JSON/);

  const truncated = good.slice(0, good.length - 10);
  const r2 = await preflight(memFiles({ 'config.json': JSON.stringify(small), 'model.safetensors': truncated }), BIG_GPU);
  assertRefused(r2, 'header_corrupt', /data section has \d+ bytes \(truncated\?\)/);

  const hugeLength = good.slice();
  new DataView(hugeLength.buffer).setBigUint64(0, 1n << 40n, true);
  const r3 = await preflight(memFiles({ 'config.json': JSON.stringify(small), 'model.safetensors': hugeLength }), BIG_GPU);
  assertRefused(r3, 'header_corrupt', /header length \d+ exceeds/);
});

test('refuses a folder without safetensors (PyTorch .bin, GGUF) and bad or inconsistent indexes', async () => {
  const bin = await preflight(memFiles({ 'config.json': JSON.stringify(small), 'pytorch_model.bin': new Uint8Array(16) }), BIG_GPU, undefined, { fileNames: ['config.json', 'pytorch_model.bin'] });
  assertRefused(bin, 'no_safetensors', /No model\.safetensors or model\.safetensors\.index\.json; the weights here are pytorch_model\.bin/);

  const gguf = await preflight(memFiles({ 'qwen3-0.6b-q4_k_m.gguf': new Uint8Array(16) }), BIG_GPU, undefined, { fileNames: ['qwen3-0.6b-q4_k_m.gguf'] });
  assertRefused(gguf, 'no_config', /only GGUF files \(qwen3-0\.6b-q4_k_m\.gguf\); GGUF is not supported/);

  const badIndex = await preflight(planFiles(realShape('qwen3-0.6b'), { overrides: { 'model.safetensors.index.json': '{"metadata": {}}' } }), BIG_GPU);
  assertRefused(badIndex, 'index_invalid', /no weight_map object/);

  const shape = realShape('qwen3-0.6b');
  const plan = planFiles(shape).plan;
  const moved = { ...plan.index!, weight_map: { ...plan.index!.weight_map, 'model.norm.weight': 'model-00003-of-00003.safetensors' } };
  const missingShard = await preflight(planFiles(shape, { overrides: { 'model.safetensors.index.json': JSON.stringify(moved) } }), BIG_GPU);
  assertRefused(missingShard, 'shard_missing', /model-00003-of-00003\.safetensors, listed in model\.safetensors\.index\.json, is missing/);

  const swapped = { ...plan.index!, weight_map: { ...plan.index!.weight_map, 'model.embed_tokens.weight': 'model-00002-of-00002.safetensors' } };
  const mismatch = await preflight(planFiles(shape, { overrides: { 'model.safetensors.index.json': JSON.stringify(swapped) } }), BIG_GPU);
  assertRefused(mismatch, 'index_mismatch', /model\.embed_tokens\.weight \(in model-00002-of-00002\.safetensors per the index, model-00001-of-00002\.safetensors\)/);
});

test('an aborted signal rejects', async () => {
  const ac = new AbortController();
  ac.abort();
  await assert.rejects(preflight(planFiles(realShape('qwen3-0.6b')), BIG_GPU, ac.signal), (e: Error) => e.name === 'AbortError');
});

// ---- header parsing (lib/model/safetensors.ts additions) ------------------------------------------------

test('parseSafetensorsHeader reports unsupported dtypes and the data section; readHeaderLength reads 8 bytes', () => {
  const bytes = shardBytes([
    { name: 'a', dtype: 'I8', shape: [3] },
    { name: 'b', dtype: 'BF16', shape: [2, 2] },
  ]);
  const n = readHeaderLength(bytes.subarray(0, 8));
  const h = parseSafetensorsHeader(bytes.subarray(0, 8 + n), bytes.length);
  assert.equal(h.headerLength, n);
  assert.equal(h.dataStart, 8 + n);
  assert.equal(h.dataEnd, 3 + 8);
  assert.deepEqual(h.tensors.get('a'), { dtype: null, rawDtype: 'I8', shape: [3], begin: 0, end: 3 });
  assert.deepEqual(h.tensors.get('b'), { dtype: 'BF16', rawDtype: 'BF16', shape: [2, 2], begin: 3, end: 11 });
  assert.throws(() => parseSafetensorsHeader(bytes.subarray(0, 8 + n), bytes.length - 1), /data ends at byte 11 but the data section has 10 bytes \(truncated\?\)/);
  assert.throws(() => parseSafetensorsHeader(bytes.subarray(0, 8 + n - 1)), /only \d+ were given/);
  assert.throws(() => readHeaderLength(new Uint8Array(5)), /shorter than the 8-byte header length/);
});

// ---- the tiny generated folders, from disk --------------------------------------------------------------

test('tiny generated folders: preflight from disk reads only the headers and agrees with the plan', async () => {
  for (const name of ['qwen3-0.6b', 'smollm2-135m', 'qwen2.5-0.5b'] as const) {
    const dir = await ensureRealCheckpoint(name, { tiny: true });
    const files = folderFiles(dir);
    const r = await preflight(files, BIG_GPU);
    assert.equal(r.supported, true, `${name}: ${JSON.stringify(r.refusals)}`);
    assert.equal(r.model!.layers, 2);
    const plan = planFiles(realShape(name, { tiny: true })).plan;
    assert.equal(r.parameters, plan.parameters);
    assert.equal(r.shards.length, realShape(name).shards);
    for (const s of r.shards) {
      assert.equal(files.log.range.get(s.name), 8 + s.headerLength!);
      assert.ok(files.log.range.get(s.name)! < 1_000_000);
      assert.equal(files.log.whole.get(s.name), undefined);
    }
    // tokenizer files exist in the folder, so their sizes count.
    assert.ok(r.files.some((f) => f.name === 'tokenizer.json' && f.size! > 0), name);
  }
});
