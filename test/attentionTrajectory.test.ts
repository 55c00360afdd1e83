// lib/io/attention: the book's attention_visualization trajectory JSON (padded, ragged output_only, ReAct llm_calls,
// hostile inputs) and the kvscope-attention format (JSON and safetensors round trips, limits).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ImportError, LIMITS, toBase64, parseAttentionTrajectory, parseKvscopeAttention, writeKvscopeAttention, type ImportedAttention } from '../lib/io/attention/index';

/** Causal softmax-like rows: row q spreads 1 over keys 0..q with a little weight on key 0. */
function causalRow(q: number): number[] {
  const w = Array.from({ length: q + 1 }, (_, k) => (k === 0 ? 2 : 1));
  const s = w.reduce((a, b) => a + b, 0);
  return w.map((x) => x / s);
}
const toks = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);

function trajectory(T: number, opts: { outputOnly?: boolean; ctx?: number; padded?: boolean } = {}) {
  const rows: number[][] = [];
  const start = opts.outputOnly ? opts.ctx! : 0;
  for (let q = start; q < T; q++) {
    const r = causalRow(q);
    rows.push(opts.padded ? [...r, ...Array(T - r.length).fill(0)] : r);
  }
  return {
    id: 'run-1', timestamp: '2025-01-01T00:00:00', test_case: { category: 'sink', query: 'why?', description: 'd' }, response: 'because', tokens: toks(T),
    attention_data: { tokens: toks(T), attention_matrix: rows, num_layers: 28, num_heads: 16, output_only: !!opts.outputOnly, ...(opts.outputOnly ? { context_length: opts.ctx } : {}) },
    metadata: { model: 'Qwen/Qwen3-8B', temperature: 0.7, max_tokens: 256, device: 'cuda', total_llm_calls: 1 },
  };
}

test('full square, ragged and zero-padded rows: same normalized matrix', () => {
  const a = parseAttentionTrajectory(trajectory(6));
  const b = parseAttentionTrajectory(JSON.stringify(trajectory(6, { padded: true })));
  for (const x of [a, b]) {
    assert.equal(x.source, 'attention_visualization');
    assert.deepEqual(x.tokens, toks(6));
    const l = x.layers[0]!;
    assert.equal(l.heads, 'mean');
    assert.equal(l.layer, null);
    assert.match(l.label, /last layer \(assumed; the model has 28, so layer 27\)/);
    assert.deepEqual([l.queries, l.keys], [6, 6]);
    assert.deepEqual(l.queryPositions, [0, 1, 2, 3, 4, 5]);
    assert.ok(Math.abs(l.data[2 * 6 + 0]! - 0.5) < 1e-7);
    assert.ok(Number.isNaN(l.data[2 * 6 + 3]!), 'cells after the query are absent');
    assert.equal(x.meta.model, 'Qwen/Qwen3-8B');
    assert.equal(x.meta.device, 'cuda');
    assert.equal(x.meta['test_case.category'], 'sink');
    assert.ok(x.notes.some((n) => /rows sum to 1 within/.test(n)));
  }
  assert.deepEqual([...a.layers[0]!.data].map(String), [...b.layers[0]!.data].map(String));
});

test('output_only: ragged generated rows at positions context_length + i; padded variant too', () => {
  for (const padded of [false, true]) {
    const x = parseAttentionTrajectory(trajectory(9, { outputOnly: true, ctx: 6, padded }));
    const l = x.layers[0]!;
    assert.deepEqual(l.queryPositions, [6, 7, 8]);
    assert.deepEqual([l.queries, l.keys], [3, 9]);
    assert.ok(Math.abs(l.data[0]! - 2 / 8) < 1e-7); // row for q = 6: key 0 weight 2/8
    assert.ok(Number.isNaN(l.data[7]!));
  }
});

test('small row-sum deviations are a note, large ones an error', () => {
  const t = trajectory(4);
  t.attention_data.attention_matrix[3]![0]! += 0.004;
  const x = parseAttentionTrajectory(t);
  assert.ok(x.notes.some((n) => /within 4\.\d+e-3/.test(n)), x.notes.join('; '));
  t.attention_data.attention_matrix[3]![0]! += 0.3;
  assert.throws(() => parseAttentionTrajectory(t), /attention_data\.attention_matrix: rows do not sum to 1/);
});

test('ReAct llm_calls: one ImportedAttention per call with attention_data', () => {
  const t = trajectory(5) as Record<string, unknown>;
  const c1 = trajectory(7, { outputOnly: true, ctx: 5 }).attention_data;
  t.llm_calls = [
    { step_num: 1, step_type: 'thought', prompt: 'p', response: 'r', tokens: toks(5), input_tokens: 4, output_tokens: 1, attention_data: trajectory(5).attention_data, tool_info: null },
    { step_num: 2, step_type: 'action', prompt: 'p2', response: 'r2', tokens: toks(7), attention_data: null },
    { step_num: 3, step_type: 'answer', prompt: 'p3', response: 'r3', tokens: toks(7), attention_data: c1 },
  ];
  const x = parseAttentionTrajectory(t);
  assert.deepEqual(x.calls.map((c) => [c.index, c.stepNum, c.stepType]), [[0, 1, 'thought'], [2, 3, 'answer']]);
  assert.deepEqual(x.calls[1]!.attention.layers[0]!.queryPositions, [5, 6]);
  assert.equal(x.calls[1]!.attention.meta.step_type, 'answer');
  // no top-level attention_data: the first call stands in
  delete t.attention_data;
  const y = parseAttentionTrajectory(t);
  assert.equal(y.layers[0]!.queries, 5);
  assert.match(y.notes[0]!, /attention_data absent/);
  // a broken call is named by its path
  (t.llm_calls as { attention_data: { attention_matrix: number[][] } }[])[2]!.attention_data.attention_matrix[1] = [0.5, 0.5];
  assert.throws(() => parseAttentionTrajectory(t), /llm_calls\[2\]\.attention_data\.attention_matrix\[1\]: expected 7 entries, got 2/);
});

test('hostile trajectories fail with path-named errors', () => {
  const bad = (mut: (t: ReturnType<typeof trajectory>) => void, re: RegExp, T = 40) => {
    const t = trajectory(T);
    mut(t);
    assert.throws(() => parseAttentionTrajectory(t), (e: unknown) => e instanceof ImportError && re.test(e.message), String(re));
  };
  bad((t) => (t.attention_data.attention_matrix[12] = causalRow(6)), /^attention_data\.attention_matrix\[12\]: expected 13 or 40 entries, got 7$/);
  bad((t) => (t.attention_data.attention_matrix[3] = [...causalRow(3), 0, 0, 0, ...Array(40).fill(0)]), /attention_matrix\[3\]: expected 4 or 40 entries, got 47/);
  bad((t) => (t.attention_data.attention_matrix[2]![1] = NaN), /attention_matrix\[2\]\[1\]: expected a finite number, got NaN/);
  bad((t) => ((t.attention_data.attention_matrix[2] as unknown[])[1] = '0.3'), /attention_matrix\[2\]\[1\]: expected a finite number, got string/);
  bad((t) => (t.attention_data.attention_matrix[2]![1] = 1.5), /outside \[0, 1\]/);
  bad((t) => ((t.attention_data as Record<string, unknown>).attention_matrix = 'rows'), /attention_data\.attention_matrix: expected a list of rows, got string/);
  bad((t) => ((t.attention_data as Record<string, unknown>).attention_matrix = [[1]]), /expected 40 rows/);
  bad((t) => ((t.attention_data as Record<string, unknown>).output_only = 'yes'), /output_only: expected true or false/);
  bad((t) => ((t.attention_data as Record<string, unknown>).tokens = [1, 2]), /attention_data\.tokens\[0\]: expected a string, got number/);
  bad((t) => (t.attention_data.attention_matrix[5] = [...causalRow(5), 0.2, ...Array(33).fill(0)]), /attention_matrix\[5\]\[6\]: padding after the causal position 5 must be 0/);
  bad((t) => (t.response = 'x'.repeat(5 * 1024 * 1024)), /^response: string of 5242880 characters exceeds the limit of 1000000$/);
  bad((t) => (t.metadata.model = 'x'.repeat(5 * 1024 * 1024)), /^metadata\.model: string of 5242880 characters/);
  bad((t) => (t.attention_data.tokens[3] = 'x'.repeat(5 * 1024 * 1024)), /attention_data\.tokens\[3\]: string of 5242880 characters exceeds the limit of 4096/);
  bad((t) => Object.assign(t.attention_data, { output_only: true }), /context_length: expected an integer/);
  assert.throws(() => parseAttentionTrajectory(null), /expected a trajectory object, got null/);
  assert.throws(() => parseAttentionTrajectory([1]), /got array/);
  assert.throws(() => parseAttentionTrajectory('{"a":'), /not valid JSON/);
  assert.throws(() => parseAttentionTrajectory({ id: 'x' }), /attention_data: missing/);
  assert.throws(() => parseAttentionTrajectory({ llm_calls: 'x' }), /llm_calls: expected a list/);
});

function perHead(): ImportedAttention {
  const T = 5, H = 2;
  const data = new Float32Array(H * T * T).fill(NaN);
  for (let h = 0; h < H; h++) for (let q = 0; q < T; q++) causalRow(q).forEach((v, k) => (data[(h * T + q) * T + k] = h ? v : k === q ? 1 : 0));
  return {
    source: 'kvscope-attention', tokens: toks(T), tokenIds: [10, 11, 12, 13, 14],
    layers: [
      { layer: 3, label: 'layer 3', heads: H, queries: T, keys: T, data, queryPositions: [0, 1, 2, 3, 4] },
      { layer: 7, label: 'layer 7', heads: 'mean', queries: 2, keys: T, data: new Float32Array([...causalRow(2), NaN, NaN, ...causalRow(4)]), queryPositions: [2, 4] },
    ],
    meta: { model: 'm', device: 'cuda', n: 3 }, notes: [], calls: [],
  };
}

test('kvscope format: JSON and safetensors round trips keep everything', () => {
  const a = perHead();
  const json = writeKvscopeAttention(a, 'json');
  const st = writeKvscopeAttention(a, 'safetensors');
  for (const b of [parseKvscopeAttention(json), parseKvscopeAttention(JSON.parse(json)), parseKvscopeAttention(new TextEncoder().encode(json)), parseKvscopeAttention(st)]) {
    assert.equal(b.source, 'kvscope-attention');
    assert.deepEqual(b.tokens, a.tokens);
    assert.deepEqual(b.tokenIds, a.tokenIds);
    assert.deepEqual(b.meta, { model: 'm', device: 'cuda', n: 3 });
    assert.equal(b.layers.length, 2);
    for (const [i, l] of b.layers.entries()) {
      const w = a.layers[i]!;
      assert.deepEqual([l.layer, l.heads, l.queries, l.keys, l.queryPositions], [w.layer, w.heads, w.queries, w.keys, w.queryPositions]);
      assert.deepEqual([...l.data].map(String), [...w.data].map(String));
    }
  }
  // a trajectory converts to the kvscope format and back
  const t = parseAttentionTrajectory(trajectory(9, { outputOnly: true, ctx: 6 }));
  const back = parseKvscopeAttention(writeKvscopeAttention(t, 'safetensors'));
  assert.deepEqual(back.layers[0]!.queryPositions, [6, 7, 8]);
  assert.deepEqual([...back.layers[0]!.data].map(String), [...t.layers[0]!.data].map(String));
  assert.equal(back.meta.model, 'Qwen/Qwen3-8B');
});

test('kvscope format: hostile inputs and limits fail clearly', () => {
  const doc = () => JSON.parse(writeKvscopeAttention(perHead(), 'json')) as Record<string, any>;
  const bad = (mut: (d: Record<string, any>) => void, re: RegExp) => {
    const d = doc();
    mut(d);
    assert.throws(() => parseKvscopeAttention(d), (e: unknown) => e instanceof ImportError && re.test(e.message), String(re));
  };
  bad((d) => (d.format = 'other'), /^format: expected "kvscope-attention"/);
  bad((d) => (d.version = 2), /^version: unsupported version 2/);
  bad((d) => (d.layers[0].shape = [2, 5, 4]), /^layers\[0\]\.shape: expected \[2,5,5\]/);
  bad((d) => (d.layers[0].dtype = 'float16'), /layers\[0\]\.dtype: expected "float32"/);
  bad((d) => (d.layers[0].data = d.layers[0].data.slice(0, -12)), /layers\[0\]\.data: holds \d+ float32 values, shape \[2,5,5\] needs 50/);
  bad((d) => (d.layers[0].data = '!!!!' + d.layers[0].data.slice(4)), /invalid base64/);
  bad((d) => (d.layers[1].query_positions = [4, 2]), /query_positions\[1\]: positions must increase/);
  bad((d) => (d.layers[1].query_positions = [2, 5]), /query_positions\[1\]: position 5 is beyond the 5 tokens/);
  bad((d) => (d.token_ids = [1, 2]), /token_ids: has 2 entries but tokens has 5/);
  bad((d) => (d.tokens = Array(LIMITS.maxTokens + 1).fill('a')), /tokens: 32769 tokens exceed the limit of 32768/);
  bad((d) => (d.model = 'x'.repeat(5 * 1024 * 1024)), /^model: expected a string/);
  bad((d) => (d.layers[0].data = 'A'.repeat(5 * 1024 * 1024)), /layers\[0\]\.data: holds 983040 float32 values/);
  bad((d) => (d.layers = []), /layers: expected a non-empty list/);
  // NaN / out-of-range values inside the causal part, a non-zero masked cell
  const withValue = (idx: number, v: number) => {
    const a = perHead();
    const raw = a.layers[0]!.data.map((x) => (Number.isNaN(x) ? 0 : x));
    raw[idx] = v; // the writer turns NaN into 0, so encode the data by hand
    const d = doc();
    d.layers[0].data = toBase64(new Uint8Array(raw.buffer));
    return d;
  };
  assert.throws(() => parseKvscopeAttention(withValue(0, NaN)), /layers\[0\]\.data\[0, 0, 0\]: expected a finite number, got NaN/);
  assert.throws(() => parseKvscopeAttention(withValue(5 + 1, 7)), /layers\[0\]\.data\[0, 1, 1\]: attention weight 7 is outside \[0, 1\]/);
  assert.throws(() => parseKvscopeAttention(withValue(2, 0.5)), /key 2 is after query position 0 and must be 0/);
  // safetensors: truncated, missing metadata
  const st = writeKvscopeAttention(perHead(), 'safetensors');
  assert.throws(() => parseKvscopeAttention(st.subarray(0, st.length - 4)), /safetensors: .*truncated/);
  assert.throws(() => parseKvscopeAttention(new Uint8Array([0xff, 0xfe, 0x00])), /neither a safetensors file nor UTF-8 JSON/);
  assert.throws(() => parseKvscopeAttention(42), /expected a kvscope-attention object, got number/);
});
