// Generated checkpoints in real shapes (lib/model/realShapes.ts, test/helpers/realCheckpoints.ts): the tiny
// variants load through loadCheckpoint with the real configs, tokenizers and chat templates; the full
// Qwen3-0.6B shape (1.2 GB, two BF16 shards + index) is generated once and checked header by header.
// KVSCOPE_SKIP_BIG=1 skips the full generation.
import assert from 'node:assert/strict';
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadTokenizerDir } from '../lib/cli/tokenizerDir';
import { loadCheckpoint } from '../lib/model/checkpoint';
import { expectedTensors, parseConfig } from '../lib/model/config';
import { preflight, WASM_HEAP_BYTES } from '../lib/model/preflight';
import { bf16Stream, planCheckpoint, QWEN2_5_CHAT_TEMPLATE, realShape, SMOLLM2_CHAT_TEMPLATE, TINY_LAYERS } from '../lib/model/realShapes';
import { parseSafetensorsHeader, readHeaderLength } from '../lib/model/safetensors';
import { encodeText, renderRequest } from '../lib/prompt/tokenizer';
import { ensureRealCheckpoint, folderFiles, QWEN3_TOKENIZER_DIR } from './helpers/realCheckpoints';

const readJson = (p: string) => JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>;

function stats(v: Float32Array): { mean: number; std: number } {
  let s = 0;
  let s2 = 0;
  for (const x of v) {
    s += x;
    s2 += x * x;
  }
  const mean = s / v.length;
  return { mean, std: Math.sqrt(s2 / v.length - mean * mean) };
}

const REAL = {
  'qwen3-0.6b': { family: 'qwen3', vocab: 151936, hidden: 1024, inter: 3072, heads: 16, kv: 8, headDim: 128, shards: ['model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors'] },
  'smollm2-135m': { family: 'llama', vocab: 49152, hidden: 576, inter: 1536, heads: 9, kv: 3, headDim: 64, shards: ['model.safetensors'] },
  'qwen2.5-0.5b': { family: 'qwen2', vocab: 151936, hidden: 896, inter: 4864, heads: 14, kv: 2, headDim: 64, shards: ['model.safetensors'] },
} as const;

for (const [name, want] of Object.entries(REAL) as [keyof typeof REAL, (typeof REAL)[keyof typeof REAL]][]) {
  test(`${name} (tiny): real widths and vocabulary, ${TINY_LAYERS} layers, loads with loadCheckpoint; BF16 values at the intended scale`, async () => {
    const dir = await ensureRealCheckpoint(name, { tiny: true });
    const configText = readFileSync(join(dir, 'config.json'), 'utf8');
    const c = parseConfig(configText);
    assert.deepEqual(
      [c.family, c.vocabSize, c.hiddenSize, c.intermediateSize, c.numHeads, c.numKvHeads, c.headDim, c.numLayers, c.tieWordEmbeddings],
      [want.family, want.vocab, want.hidden, want.inter, want.heads, want.kv, want.headDim, TINY_LAYERS, true],
    );
    assert.equal(readJson(join(dir, 'config.json')).torch_dtype, 'bfloat16');
    const ckpt = loadCheckpoint(configText, want.shards.map((f) => new Uint8Array(readFileSync(join(dir, f)))));
    assert.equal(ckpt.dtype, 'BF16');
    assert.equal(ckpt.tensors.size, expectedTensors(c).size);
    assert.equal(ckpt.storedBytes, planCheckpoint(realShape(name, { tiny: true })).tensorBytes);
    // Values: a projection's (the embedding has the same generator; converting all of it costs seconds).
    const w = stats(ckpt.get('model.layers.1.self_attn.q_proj.weight'));
    assert.ok(Math.abs(w.mean) < 1e-3 && Math.abs(w.std - 0.02) < 0.002, `q_proj mean ${w.mean}, std ${w.std}`);
    const embInfo = ckpt.tensors.get('model.embed_tokens.weight')!;
    const raw = embInfo.file.data.subarray(embInfo.file.tensors.get('model.embed_tokens.weight')!.begin);
    const head = new Uint16Array(4096);
    bf16Stream('model.embed_tokens.weight').fill(head);
    assert.deepEqual(new Uint16Array(raw.slice(0, 8192).buffer), head);
    const norm = stats(ckpt.get('model.layers.1.input_layernorm.weight'));
    assert.ok(Math.abs(norm.mean - 1) < 0.01 && norm.std < 0.03, `norm mean ${norm.mean}, std ${norm.std}`);
    if (c.qkvBias) assert.ok(stats(ckpt.get('model.layers.0.self_attn.k_proj.bias')).std > 0.01);
    // Different tensors get different streams.
    const a = ckpt.get('model.layers.0.mlp.up_proj.weight').subarray(0, 64);
    const b = ckpt.get('model.layers.0.mlp.gate_proj.weight').subarray(0, 64);
    assert.notDeepEqual([...a], [...b]);
  });
}

test('qwen3-0.6b and qwen2.5-0.5b folders carry Qwen3\'s tokenizer with their own chat templates', async () => {
  // Qwen3's files unchanged (test/prompt.test.ts renders Qwen3's template from these same files).
  const q3 = await ensureRealCheckpoint('qwen3-0.6b', { tiny: true });
  assert.ok(readFileSync(join(q3, 'tokenizer.json')).equals(readFileSync(join(QWEN3_TOKENIZER_DIR, 'tokenizer.json'))));
  assert.deepEqual(readJson(join(q3, 'tokenizer_config.json')), readJson(join(QWEN3_TOKENIZER_DIR, 'tokenizer_config.json')));
  assert.match(String(readJson(join(q3, 'tokenizer_config.json')).chat_template), /enable_thinking is defined and enable_thinking is false/);
  const msgs = { messages: [{ role: 'user' as const, content: 'Hi' }] };

  const q25 = await ensureRealCheckpoint('qwen2.5-0.5b', { tiny: true });
  assert.equal(readJson(join(q25, 'tokenizer_config.json')).chat_template, QWEN2_5_CHAT_TEMPLATE);
  const tok25 = loadTokenizerDir(q25);
  assert.equal(
    renderRequest(tok25, msgs, { addGenerationPrompt: true }),
    '<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n',
  );
  assert.deepEqual(encodeText(tok25, '<|im_start|>user\nHi<|im_end|>'), [151644, 872, 198, 13048, 151645]);
  const tools = [{ type: 'function', function: { name: 'get_time', description: 'Time now', parameters: { type: 'object', properties: {} } } }];
  const withTools = renderRequest(tok25, { ...msgs, tools } as Parameters<typeof renderRequest>[1], { addGenerationPrompt: true });
  assert.match(withTools, /^<\|im_start\|>system\nYou are Qwen, created by Alibaba Cloud\. You are a helpful assistant\.\n\n# Tools\n[\s\S]*"name": "get_time"[\s\S]*<\/tools>\n\nFor each function call/);
});

test('smollm2-135m folder: ChatML template with the default system prompt, <|im_start|> = 1 and <|im_end|> = 2, ids < 49152', async () => {
  const dir = await ensureRealCheckpoint('smollm2-135m', { tiny: true });
  const cfg = readJson(join(dir, 'tokenizer_config.json'));
  assert.equal(cfg.chat_template, SMOLLM2_CHAT_TEMPLATE);
  assert.equal(cfg.bos_token, '<|im_start|>');
  assert.equal(cfg.eos_token, '<|im_end|>');
  const tj = readJson(join(dir, 'tokenizer.json')) as { added_tokens: { id: number; content: string }[]; model: { vocab: Record<string, number> } };
  const ids = [...Object.values(tj.model.vocab), ...tj.added_tokens.map((a) => a.id)].sort((x, y) => x - y);
  ids.forEach((id, i) => assert.equal(id, i)); // compact, no collisions
  assert.ok(ids.length <= 49152);
  const tok = loadTokenizerDir(dir);
  const text = renderRequest(tok, { messages: [{ role: 'user', content: 'Hi' }] }, { addGenerationPrompt: true });
  assert.equal(text, '<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n');
  const enc = encodeText(tok, text);
  const config = parseConfig(readFileSync(join(dir, 'config.json'), 'utf8'));
  assert.equal(enc[0], config.bosTokenId);
  assert.equal(enc[0], 1);
  assert.deepEqual(config.eosTokenIds, [2]);
  assert.equal(enc.filter((i) => i === 2).length, 2); // two <|im_end|>
  assert.ok(enc.every((i) => i < config.vocabSize));
  // With its own system message, no default one.
  assert.equal(renderRequest(tok, { messages: [{ role: 'system', content: 'S' }, { role: 'user', content: 'U' }] }), '<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nU<|im_end|>\n');
});

function readRange(path: string, start: number, length: number): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const out = new Uint8Array(length);
    readSync(fd, out, 0, length, start);
    return out;
  } finally {
    closeSync(fd);
  }
}

test('qwen3-0.6b full shape: two BF16 shards and an index that agree, 596,049,920 parameters, bytes as generated', { skip: process.env.KVSCOPE_SKIP_BIG === '1' ? 'KVSCOPE_SKIP_BIG=1' : false }, async () => {
  const dir = await ensureRealCheckpoint('qwen3-0.6b');
  const shape = realShape('qwen3-0.6b');
  assert.deepEqual(readJson(join(dir, 'config.json')), shape.config);
  const c = parseConfig(readFileSync(join(dir, 'config.json'), 'utf8'));
  assert.deepEqual([c.numLayers, c.hiddenSize, c.intermediateSize, c.numHeads, c.numKvHeads, c.headDim, c.vocabSize, c.maxPositions, c.ropeTheta, c.rmsNormEps], [28, 1024, 3072, 16, 8, 128, 151936, 40960, 1e6, 1e-6]);
  const index = readJson(join(dir, 'model.safetensors.index.json')) as { metadata: { total_size: number }; weight_map: Record<string, string> };
  const expected = expectedTensors(c);
  assert.deepEqual(Object.keys(index.weight_map).sort(), [...expected.keys()].sort());
  let params = 0;
  let bytes = 0;
  for (const file of REAL['qwen3-0.6b'].shards) {
    const path = join(dir, file);
    const size = statSync(path).size;
    const n = readHeaderLength(readRange(path, 0, 8));
    const h = parseSafetensorsHeader(readRange(path, 0, 8 + n), size);
    assert.equal(n % 8, 0, 'data section 8-byte aligned');
    assert.equal(h.dataStart + h.dataEnd, size, `${file}: no bytes after the last tensor`);
    assert.equal(h.metadata.format, 'pt');
    for (const [name, t] of h.tensors) {
      assert.equal(index.weight_map[name], file, name);
      assert.equal(t.rawDtype, 'BF16');
      assert.deepEqual(t.shape, expected.get(name));
      params += t.shape.reduce((a, d) => a * d, 1);
      bytes += t.end - t.begin;
    }
    // Spot check: the first and last 4 KiB of a tensor are what the generator produces for it.
    const [name, t] = [...h.tensors].find(([k]) => k.endsWith('layers.27.mlp.down_proj.weight') || k === 'model.embed_tokens.weight')!;
    const stream = bf16Stream(name);
    const head = new Uint16Array(2048);
    stream.fill(head);
    assert.deepEqual(new Uint16Array(readRange(path, h.dataStart + t.begin, 4096).buffer), head, `${file}: ${name} head`);
  }
  assert.equal(params, 596_049_920);
  assert.equal(bytes, index.metadata.total_size);
  assert.equal(bytes, 596_049_920 * 2);

  // Preflight from disk reads the headers and nothing more.
  const files = folderFiles(dir);
  const r = await preflight(files, { webgpu: null, wasmHeapBytes: WASM_HEAP_BYTES });
  assert.equal(r.supported, true);
  assert.equal(r.parameters, 596_049_920);
  for (const s of r.shards) assert.ok(files.log.range.get(s.name)! < 1_000_000);
});
