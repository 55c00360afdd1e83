// Fuzzing the attention readers (lib/io/attention, docs/ATTENTION_FORMAT.md, docs/FUZZING.md): the book's
// trajectory JSON and the kvscope-attention format as JSON (values, text, bytes) and as .safetensors bytes
// (mutated header text, mutated bytes). The only allowed outcome is a value or an ImportError whose path
// names the field (`layers[0].shape`, `__metadata__.tokens`), or, for the input as a whole, says what it is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ImportError, parseAttentionTrajectory, parseKvscopeAttention, writeKvscopeAttention, type ImportedAttention } from '../lib/io/attention/index';
import { Tally, atLeast, guard, fuzz, mutatedValue, mutatedText, mutatedBytes, hostileJson, jsonText, splitSafetensors, joinSafetensors, setOwn, deepValue, type Contract } from './helpers/fuzz';

/** Whole-input errors have no path; they say what the input is. */
const WHOLE = /^(not valid JSON|expected a (trajectory|kvscope-attention) object|input of|neither a safetensors|safetensors: )/;
const CONTRACT: Contract = { ours: (e) => e instanceof ImportError, place: (e) => (e as ImportError).path !== '' || WHOLE.test(e.message) };

function causalRow(q: number): number[] {
  const w = Array.from({ length: q + 1 }, (_, k) => (k === 0 ? 2 : 1));
  const s = w.reduce((a, b) => a + b, 0);
  return w.map((x) => x / s);
}
const toks = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);
function trajectory(T: number, outputOnly = false, ctx = 0) {
  const rows: number[][] = [];
  for (let q = outputOnly ? ctx : 0; q < T; q++) rows.push(q % 2 ? [...causalRow(q), ...Array(T - q - 1).fill(0)] : causalRow(q));
  return {
    id: 'run-1', timestamp: '2025-01-01', test_case: { category: 'sink', query: 'why?' }, response: 'because', tokens: toks(T),
    attention_data: { tokens: toks(T), attention_matrix: rows, num_layers: 28, num_heads: 16, layer: 3, output_only: outputOnly, ...(outputOnly ? { context_length: ctx } : {}) },
    metadata: { model: 'Qwen/Qwen3-8B', temperature: 0.7, device: 'cuda' },
  };
}
const react = { ...trajectory(4), attention_data: undefined, llm_calls: [{ step_num: 1, step_type: 'think', prompt: 'p', tokens: toks(3), attention_data: { attention_matrix: [causalRow(0), causalRow(1), causalRow(2)] } }, { step_num: 2, attention_data: null }] };

function attention(T: number, heads: 'mean' | number): ImportedAttention {
  const H = heads === 'mean' ? 1 : heads;
  const data = new Float32Array(H * T * T).fill(NaN);
  for (let h = 0; h < H; h++) for (let q = 0; q < T; q++) causalRow(q).forEach((v, k) => (data[(h * T + q) * T + k] = v));
  const layers = [
    { layer: 0, label: 'layer 0', heads, queries: T, keys: T, data, queryPositions: [...Array(T).keys()] },
    { layer: 2, label: 'layer 2', heads, queries: T, keys: T, data: data.slice(), queryPositions: [...Array(T).keys()] },
  ];
  return { source: 'kvscope-attention', tokens: toks(T), tokenIds: [...Array(T).keys()], layers, meta: { model: 'm', device: 'cpu' }, notes: [], calls: [] };
}

const TRAJ_VALUES: unknown[] = [trajectory(5), trajectory(6, true, 3), JSON.parse(JSON.stringify(react))];
const KV_TEXTS = [writeKvscopeAttention(attention(4, 'mean'), 'json'), writeKvscopeAttention(attention(3, 2), 'json')];
const KV_VALUES: unknown[] = KV_TEXTS.map((t) => JSON.parse(t));
const KV_FILES = [writeKvscopeAttention(attention(4, 'mean'), 'safetensors'), writeKvscopeAttention(attention(3, 2), 'safetensors')];
const KV_HEADERS = KV_FILES.map(splitSafetensors);
const FIELDS = ['format', 'version', 'model', 'tokens', 'token_ids', 'layers', 'layer', 'heads', 'shape', 'query_positions', 'dtype', 'data', 'source', 'tensor', 'attention_data', 'attention_matrix', 'output_only', 'context_length', 'num_layers', 'num_heads', 'llm_calls', 'step_num', 'step_type', 'test_case', 'metadata', 'id', 'response', 'kvscope-attention', 'float32', 'mean', '__metadata__', 'data_offsets', 'F32'];

test('fuzz: attention trajectories (values and text)', { timeout: 120_000 }, (t) => {
  const tally = new Tally();
  const run = (v: unknown) => guard(tally, CONTRACT, () => parseAttentionTrajectory(v));
  fuzz(5000, fc.constantFrom(...TRAJ_VALUES.keys()).chain((i) => mutatedValue(TRAJ_VALUES[i], FIELDS)), run);
  const texts = TRAJ_VALUES.map((v) => JSON.stringify(v));
  fuzz(3500, fc.constantFrom(...texts.keys()).chain((i) => mutatedText(texts[i]!)), run);
  fuzz(1500, hostileJson(FIELDS, 5), (v) => {
    run(v);
    const s = jsonText(v);
    if (s !== null) run(s);
  });
  t.diagnostic(tally.summary('parseAttentionTrajectory'));
  atLeast(tally, 10_000);
});

test('fuzz: kvscope-attention JSON and safetensors', { timeout: 120_000 }, (t) => {
  const tally = new Tally();
  const run = (v: unknown) => guard(tally, CONTRACT, () => parseKvscopeAttention(v));
  fuzz(3000, fc.constantFrom(...KV_VALUES.keys()).chain((i) => mutatedValue(KV_VALUES[i], FIELDS)), run);
  fuzz(2000, fc.constantFrom(...KV_TEXTS.keys()).chain((i) => mutatedText(KV_TEXTS[i]!)), (s) => {
    run(s);
    run(new TextEncoder().encode(s));
  });
  // safetensors: the header's JSON text mutated (length kept right), and raw byte mutations.
  fuzz(3000, fc.constantFrom(...KV_HEADERS.keys()).chain((i) => mutatedText(KV_HEADERS[i]!.header).map((h) => joinSafetensors(h, KV_HEADERS[i]!.data))), run);
  fuzz(2000, fc.constantFrom(...KV_FILES.keys()).chain((i) => mutatedBytes(KV_FILES[i]!)), run);
  t.diagnostic(tally.summary('parseKvscopeAttention'));
  atLeast(tally, 10_000);
});

test('fuzz regressions: attention readers on hostile fields', { timeout: 60_000 }, (t) => {
  const tally = new Tally();
  const doc = KV_VALUES[0] as Record<string, unknown>;
  const layer0 = (doc.layers as Record<string, unknown>[])[0]!;
  const withField = (over: Record<string, unknown>, l: Record<string, unknown> = {}) => ({ ...doc, ...over, layers: [{ ...layer0, ...l }] });
  const noPrimitive: Record<string, unknown> = {};
  setOwn(noPrimitive, 'toString', 1);
  setOwn(noPrimitive, 'valueOf', 1);
  const cases: [unknown, RegExp][] = [
    [withField({ version: noPrimitive }), /^version: unsupported version/],
    [withField({ format: deepValue(10_000, 'array') }), /^format: expected "kvscope-attention"/],
    [withField({ version: deepValue(10_000, 'object') }), /^version: unsupported version/],
    [withField({}, { dtype: deepValue(10_000, 'array') }), /^layers\[0\]\.dtype: expected "float32"/],
    [withField({}, { shape: deepValue(10_000, 'array') }), /^layers\[0\]\.shape: expected \[4,4\]/],
    [withField({}, { shape: [noPrimitive, 4] }), /^layers\[0\]\.shape: expected \[4,4\]/],
    // "16 float32 values" as strings passed join()-equality with [4,4].
    [withField({}, { shape: ['4', '4'] }), /^layers\[0\]\.shape: expected \[4,4\]/],
    // A few stray characters after the base64 data: the size guard let the layer through with no values (TypeError).
  ];
  // A few stray characters after the base64 data: the size guard let the layer through with no values (TypeError).
  const two = KV_VALUES[1] as Record<string, unknown>;
  const twoLayer = (two.layers as Record<string, unknown>[])[0]!;
  cases.push([{ ...two, layers: [{ ...twoLayer, data: (twoLayer.data as string) + 'AAAAA' }] }, /^layers\[0\]\.data: holds more than the 18 float32 values shape \[2,3,3\] needs/]);
  for (const [input, want] of cases) {
    const r = guard(tally, CONTRACT, () => parseKvscopeAttention(input));
    assert.ok(r.error, 'expected an ImportError');
    assert.match(r.error.message, want);
  }
  // safetensors: a dtype nested 10,000 deep overflowed JSON.stringify in the error message; __metadata__ must be strings.
  const { header, data } = KV_HEADERS[0]!;
  const h = JSON.parse(header) as Record<string, Record<string, unknown>>;
  const name = Object.keys(h).find((k) => k !== '__metadata__')!;
  const deepDtype = joinSafetensors(JSON.stringify({ ...h, [name]: { ...h[name], dtype: 0 } }).replace('"dtype":0', `"dtype":${'['.repeat(10_000)}${']'.repeat(10_000)}`), data);
  assert.match(guard(tally, CONTRACT, () => parseKvscopeAttention(deepDtype)).error!.message, /^safetensors: attention\.layer0: unsupported dtype a list/);
  const badMeta = joinSafetensors(JSON.stringify({ ...h, __metadata__: { ...h.__metadata__, tokens: { a: 1 } } }), data);
  assert.match(guard(tally, CONTRACT, () => parseKvscopeAttention(badMeta)).error!.message, /^safetensors: __metadata__\.tokens: expected a string, got an object/);
  // A metadata key "__proto__" is kept as data, and no prototype changes.
  const proto = { ...(KV_VALUES[0] as Record<string, unknown>), source: JSON.parse('{"__proto__": "x", "device": "cpu"}') as unknown };
  const a = guard(tally, CONTRACT, () => parseKvscopeAttention(proto)).value!;
  assert.equal(Object.getOwnPropertyDescriptor(a.meta, '__proto__')?.value, 'x');
  assert.equal(Object.getPrototypeOf(a.meta), Object.prototype);
  t.diagnostic(tally.summary('attention readers, fixed cases'));
});
