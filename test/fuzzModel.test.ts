// Fuzzing the model readers (docs/FUZZING.md): config.json (parseConfig, and what reads a parsed config:
// expectedTensors, ropeInvFreq), safetensors headers (parseSafetensors, parseSafetensorsHeader,
// readHeaderLength) on real small checkpoints with mutated header text and mutated bytes, and preflight over
// an in-memory ModelFiles whose config, index and shards are all hostile. Allowed: a value, a ConfigError
// ("config.json: <key> …"), a SafetensorsError ("safetensors: <tensor or header> …"); preflight never rejects
// and states every refusal as a reason with a code.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { ConfigError, expectedTensors, parseConfig, ropeInvFreq } from '../lib/model/config';
import { parseSafetensors, parseSafetensorsHeader, readHeaderLength, SafetensorsError } from '../lib/model/safetensors';
import { preflight, WASM_HEAP_BYTES, type BrowserBudget } from '../lib/model/preflight';
import { REAL_SHAPE_NAMES, realShape } from '../lib/model/realShapes';
import type { ModelFiles } from '../lib/model/source/types';
import { Tally, atLeast, guard, guardAsync, expect, fuzz, fuzzAsync, mutatedValue, mutatedText, mutatedBytes, hostileJson, jsonText, splitSafetensors, joinSafetensors, safetensorsFrom, setOwn, deepText, NEVER_THROWS, type Contract } from './helpers/fuzz';

const CONFIG: Contract = { ours: (e) => e instanceof ConfigError, place: (e) => /^config\.json: \S/.test(e.message) };
/** Safetensors errors name a tensor, the header, the file's length or __metadata__. */
const SAFETENSORS: Contract = { ours: (e) => e instanceof SafetensorsError, place: (e) => /^safetensors: (header|file is|no tensor|__metadata__|\S+[: ]|.+ overlaps )/.test(e.message) };

const read = (p: string) => readFileSync(p, 'utf8');
const CONFIGS: unknown[] = [
  JSON.parse(read('public/models/kvscope-tiny/config.json')),
  JSON.parse(read('test/fixtures/families/llama/config.json')),
  JSON.parse(read('test/fixtures/families/qwen2/config.json')),
  ...REAL_SHAPE_NAMES.map((n) => realShape(n).config),
];
const CONFIG_TEXTS = CONFIGS.map((c) => JSON.stringify(c, null, 2));
const CONFIG_FIELDS = ['model_type', 'architectures', 'vocab_size', 'hidden_size', 'intermediate_size', 'num_hidden_layers', 'num_attention_heads', 'num_key_value_heads', 'head_dim', 'max_position_embeddings', 'rms_norm_eps', 'rope_theta', 'rope_scaling', 'rope_parameters', 'rope_type', 'type', 'factor', 'low_freq_factor', 'high_freq_factor', 'original_max_position_embeddings', 'tie_word_embeddings', 'attention_bias', 'hidden_act', 'use_sliding_window', 'mlp_bias', 'bos_token_id', 'eos_token_id', 'quantization_config', 'quant_method', 'qwen3', 'qwen2', 'llama', 'llama3', 'linear', 'silu'];

const SHARDS = ['test/fixtures/families/qwen2/model.safetensors', 'test/fixtures/families/llama/model.safetensors'].map((p) => new Uint8Array(readFileSync(p)));
const PARTS = SHARDS.map(splitSafetensors);
const BIG = splitSafetensors(new Uint8Array(readFileSync('public/models/kvscope-tiny/model.safetensors')));
const BIG_SIZE = 8 + new TextEncoder().encode(BIG.header).length + BIG.data.length;

test('fuzz: parseConfig, and expectedTensors / ropeInvFreq on what it accepts', { timeout: 120_000 }, (t) => {
  const tally = new Tally();
  const run = (input: unknown) => {
    const r = guard(tally, CONFIG, () => parseConfig(input));
    if (r.value) {
      const c = r.value;
      guard(tally, NEVER_THROWS, () => expectedTensors(c));
      const inv = guard(tally, NEVER_THROWS, () => ropeInvFreq(c)).value!;
      expect(inv.every((x) => Number.isFinite(x) && x > 0) ? null : 'ropeInvFreq gave a non-finite or non-positive frequency');
    }
  };
  fuzz(4000, fc.constantFrom(...CONFIGS.keys()).chain((i) => mutatedValue(CONFIGS[i], CONFIG_FIELDS)), run);
  fuzz(2500, fc.constantFrom(...CONFIG_TEXTS.keys()).chain((i) => mutatedText(CONFIG_TEXTS[i]!)), run);
  fuzz(1500, hostileJson(CONFIG_FIELDS, 4), (v) => {
    run(v);
    run({ ...(CONFIGS[0] as object), ...(typeof v === 'object' && v !== null && !Array.isArray(v) ? v : {}) });
  });
  t.diagnostic(tally.summary('parseConfig'));
  atLeast(tally, 10_000);
});

test('fuzz: safetensors headers and files', { timeout: 120_000 }, (t) => {
  const tally = new Tally();
  const all = (bytes: Uint8Array, size: number) => {
    guard(tally, SAFETENSORS, () => readHeaderLength(bytes.subarray(0, 8)));
    guard(tally, SAFETENSORS, () => parseSafetensorsHeader(bytes, size));
    guard(tally, SAFETENSORS, () => parseSafetensorsHeader(bytes));
  };
  // The header's JSON text mutated (length kept right): duplicate keys, wrong types, prototype keys, deep values.
  fuzz(3000, fc.constantFrom(...PARTS.keys()).chain((i) => mutatedText(PARTS[i]!.header).map((h) => joinSafetensors(h, PARTS[i]!.data))), (file) => {
    guard(tally, SAFETENSORS, () => parseSafetensors(file));
    all(file, file.length);
  });
  // Header values mutated as JSON (dtype "constructor", shapes of huge numbers, overlapping offsets, …).
  const headers = PARTS.map((p) => JSON.parse(p.header) as unknown);
  fuzz(1500, fc.constantFrom(...headers.keys()).chain((i) => mutatedValue(headers[i], ['dtype', 'shape', 'data_offsets', '__metadata__', 'format', 'F32', 'F16', 'BF16', 'I8', 'F8_E4M3', 'model.embed_tokens.weight'])), (h) => {
    const text = jsonText(h);
    if (text === null) return;
    const file = joinSafetensors(text, PARTS[0]!.data);
    guard(tally, SAFETENSORS, () => parseSafetensors(file));
    all(file, file.length);
  });
  // Raw bytes: cut, flipped, invalid UTF-8 in the header, a wrong or huge length.
  fuzz(1200, fc.constantFrom(...SHARDS.keys()).chain((i) => mutatedBytes(SHARDS[i]!)), (file) => {
    guard(tally, SAFETENSORS, () => parseSafetensors(file));
    all(file, file.length);
  });
  // A real 3.7 MB checkpoint: its header only, against its true and wrong file sizes.
  fuzz(600, mutatedText(BIG.header), fc.constantFrom(BIG_SIZE, 0, 8, 100, BIG_SIZE - 1, 2 ** 53), (h, size) => all(joinSafetensors(h, new Uint8Array(0)), size));
  t.diagnostic(tally.summary('safetensors'));
  atLeast(tally, 10_000);
});

const BUDGET: BrowserBudget = { webgpu: { maxBufferSize: 2 ** 31, maxStorageBufferBindingSize: 2 ** 30 }, wasmHeapBytes: WASM_HEAP_BYTES, deviceMemoryGiB: 8 };

/** A file preflight reads only the head of: its first bytes, and the size it claims (the rest reads as zeros). */
interface Sparse {
  head: Uint8Array;
  size: number;
}
type Entry = string | Uint8Array | Sparse;

/** An in-memory model folder (a Map: a file named "__proto__" is just a file). */
function memFiles(entries: Map<string, Entry>): ModelFiles {
  const bytes = (v: Entry) => (typeof v === 'string' ? new TextEncoder().encode(v) : v instanceof Uint8Array ? v : v.head);
  const size = (v: Entry) => (typeof v === 'object' && !(v instanceof Uint8Array) ? v.size : bytes(v).length);
  return {
    label: 'memory',
    kind: 'folder',
    async size(name) {
      const v = entries.get(name);
      return v === undefined ? null : size(v);
    },
    async text(name) {
      const v = entries.get(name);
      return v === undefined ? null : typeof v === 'string' ? v : new TextDecoder().decode(bytes(v));
    },
    async bytes(name) {
      const v = entries.get(name);
      if (v === undefined) throw new Error(`no ${name}`);
      return bytes(v);
    },
    async range(name, start, end) {
      const v = entries.get(name);
      if (v === undefined) throw new Error(`no ${name}`);
      const out = new Uint8Array(Math.max(0, Math.min(end, size(v)) - start));
      out.set(bytes(v).subarray(start, start + out.length));
      return out;
    },
  };
}

test('fuzz: preflight over hostile config.json, index and shard headers', { timeout: 180_000 }, async (t) => {
  const tally = new Tally();
  const configText = read('test/fixtures/families/qwen2/config.json');
  const shard = SHARDS[0]!;
  const shardHead: Sparse = { head: safetensorsFrom(PARTS[0]!.header, 0), size: shard.length };
  const names = Object.keys(JSON.parse(PARTS[0]!.header) as object).filter((k) => k !== '__metadata__');
  const index = JSON.stringify({ metadata: {}, weight_map: Object.fromEntries(names.map((n, i) => [n, i % 2 ? 'model-00002-of-00002.safetensors' : 'model-00001-of-00002.safetensors'])) });
  const run = async (files: Map<string, Entry>) => {
    const r = (await guardAsync(tally, NEVER_THROWS, () => preflight(memFiles(files), BUDGET))).value!;
    for (const x of r.refusals) expect(x.code && x.text ? null : `refusal without a code or text: ${JSON.stringify(x)}`);
  };
  const fileOps = fc.record({
    config: fc.oneof(mutatedText(configText), fc.constant(configText), fc.constant(null)),
    header: fc.oneof(mutatedText(PARTS[0]!.header), fc.constant(PARTS[0]!.header)),
    bytes: fc.oneof({ weight: 1, arbitrary: mutatedBytes(shard) }, { weight: 3, arbitrary: fc.constant(null) }),
    index: fc.oneof(fc.constant(null), fc.constant(index), mutatedText(index)),
  });
  await fuzzAsync(5800, fileOps, async (o) => {
    const files = new Map<string, Entry>();
    if (o.config !== null) files.set('config.json', o.config);
    const head = safetensorsFrom(o.header, 0);
    const file: Entry = o.bytes ?? { head, size: head.length + PARTS[0]!.data.length };
    if (o.index === null) files.set('model.safetensors', file);
    else {
      files.set('model.safetensors.index.json', o.index);
      files.set('model-00001-of-00002.safetensors', file);
      files.set('model-00002-of-00002.safetensors', shardHead);
    }
    await run(files);
  });
  // Configs of every shape (wrong types, huge sizes, quantisation) over a good shard.
  await fuzzAsync(5000, fc.constantFrom(...CONFIGS.keys()).chain((i) => mutatedValue(CONFIGS[i], CONFIG_FIELDS)), async (c) => {
    const text = jsonText(c);
    if (text !== null) await run(new Map<string, Entry>([['config.json', text], ['model.safetensors', shardHead]]));
  });
  t.diagnostic(tally.summary('preflight'));
  atLeast(tally, 10_000);
});

test('fuzz regressions: config, safetensors and preflight on hostile values', { timeout: 60_000 }, async (t) => {
  const tally = new Tally();
  const base = CONFIGS[0] as Record<string, unknown>;
  const noPrimitive: Record<string, unknown> = {};
  setOwn(noPrimitive, 'toString', 1);
  const configCases: [unknown, RegExp][] = [
    // num_hidden_layers 1e7 made expectedTensors build 120 million map entries (2.5 minutes, then a RangeError).
    [{ ...base, num_hidden_layers: 1e7 }, /^config\.json: num_hidden_layers must be a positive integer up to 512 \(got 10000000\)/],
    [{ ...base, head_dim: 2 ** 30 }, /^config\.json: head_dim must be a positive integer up to 1024/],
    [{ ...base, hidden_act: noPrimitive }, /^config\.json: hidden_act an object is not supported/],
    [{ ...base, hidden_size: JSON.parse(deepText(10_000, 'array')) }, /^config\.json: hidden_size must be a positive integer \(got a list\)/],
    [{ ...base, rope_scaling: { rope_type: JSON.parse(deepText(10_000, 'array')), factor: 2 } }, /^config\.json: rope_scaling\.rope_type must be a string/],
    [{ ...base, rope_scaling: { rope_type: 'llama3', factor: 8, low_freq_factor: 4, high_freq_factor: 4 } }, /^config\.json: rope_scaling\.high_freq_factor \(4\) must be greater than low_freq_factor \(4\)/],
    // A denormal scaling factor: the first rotary frequency became Infinity (every attention score NaN).
    [{ ...base, rope_scaling: { rope_type: 'linear', factor: 1e-320 } }, /^config\.json: rope_theta \(10000\) and rope_scaling give rotary frequencies that are not finite positive numbers/],
  ];
  for (const [input, want] of configCases) {
    const r = guard(tally, CONFIG, () => parseConfig(input));
    assert.ok(r.error, `expected a ConfigError for ${want}`);
    assert.match(r.error.message, want);
  }
  const header = JSON.parse(PARTS[0]!.header) as Record<string, { dtype: unknown }>;
  const first = Object.keys(header).find((k) => k !== '__metadata__')!;
  const st = (h: unknown) => joinSafetensors(JSON.stringify(h), PARTS[0]!.data);
  const stCases: [Uint8Array, RegExp][] = [
    // A dtype named like an Object.prototype member passed `in` and a plain table lookup ("expected NaN" bytes).
    [st({ ...header, [first]: { ...header[first], dtype: 'constructor' } }), new RegExp(`^safetensors: ${first.replace(/\./g, '\\.')}: unsupported dtype "constructor"`)],
    [joinSafetensors(JSON.stringify({ ...header, [first]: { ...header[first], dtype: 0 } }).replace('"dtype":0', `"dtype":${deepText(10_000, 'array')}`), PARTS[0]!.data), /unsupported dtype a list/],
    [st({ ...header, __metadata__: 'x' }), /^safetensors: __metadata__: expected an object of strings/],
    [st({ ...header, __metadata__: { format: 1 } }), /^safetensors: __metadata__\.format: expected a string, got 1/],
  ];
  for (const [file, want] of stCases) {
    const r = guard(tally, SAFETENSORS, () => parseSafetensors(file));
    assert.ok(r.error, `expected a SafetensorsError for ${want}`);
    assert.match(r.error.message, want);
  }
  // preflight: an index whose shard names leave the folder, a null index, a deep weight_map value.
  const configText = read('test/fixtures/families/qwen2/config.json');
  for (const [indexText, want] of [
    ['{"weight_map": {"a": "../other/model.safetensors"}}', /weight_map\["a"\] is "\.\.\/other\/model\.safetensors", not a plain \*\.safetensors file name/],
    ['null', /no weight_map object/],
    [`{"weight_map": {"a": ${deepText(10_000, 'array')}}}`, /weight_map\["a"\] is a list, not a plain \*\.safetensors file name/],
  ] as const) {
    const r = (await guardAsync(tally, NEVER_THROWS, () => preflight(memFiles(new Map([['config.json', configText], ['model.safetensors.index.json', indexText]])), BUDGET))).value!;
    const hit = r.refusals.find((x) => x.code === 'index_invalid');
    assert.ok(hit, JSON.stringify(r.refusals.map((x) => x.code)));
    assert.match(hit.text, want);
  }
  t.diagnostic(tally.summary('model readers, fixed cases'));
});
