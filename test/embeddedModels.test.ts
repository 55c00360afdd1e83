// The shipped checkpoints (issue 2): Hugging Face Qwen3 layout, tensors consistent with config.json,
// cards and metrics present, the seeded-sink variant labelled, golden fixtures consistent.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parseSafetensors } from '../lib/model/safetensors';

const MODELS = ['public/models/kvscope-tiny', 'public/models/kvscope-tiny-sink'];
const readJson = (p: string) => JSON.parse(fs.readFileSync(p, 'utf8'));

function expectedShapes(c: Record<string, number>): Map<string, number[]> {
  const m = new Map<string, number[]>([['model.embed_tokens.weight', [c.vocab_size!, c.hidden_size!]], ['model.norm.weight', [c.hidden_size!]]]);
  const q = c.num_attention_heads! * c.head_dim!;
  const kv = c.num_key_value_heads! * c.head_dim!;
  for (let l = 0; l < c.num_hidden_layers!; l++) {
    const p = `model.layers.${l}.`;
    m.set(p + 'input_layernorm.weight', [c.hidden_size!]);
    m.set(p + 'post_attention_layernorm.weight', [c.hidden_size!]);
    m.set(p + 'self_attn.q_proj.weight', [q, c.hidden_size!]);
    m.set(p + 'self_attn.k_proj.weight', [kv, c.hidden_size!]);
    m.set(p + 'self_attn.v_proj.weight', [kv, c.hidden_size!]);
    m.set(p + 'self_attn.o_proj.weight', [c.hidden_size!, q]);
    m.set(p + 'self_attn.q_norm.weight', [c.head_dim!]);
    m.set(p + 'self_attn.k_norm.weight', [c.head_dim!]);
    m.set(p + 'mlp.gate_proj.weight', [c.intermediate_size!, c.hidden_size!]);
    m.set(p + 'mlp.up_proj.weight', [c.intermediate_size!, c.hidden_size!]);
    m.set(p + 'mlp.down_proj.weight', [c.hidden_size!, c.intermediate_size!]);
  }
  return m;
}

for (const dir of MODELS) {
  test(`${dir}: Hugging Face Qwen3 layout with tensors matching config.json`, () => {
    for (const f of ['config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json', 'generation_config.json', 'README.md', 'metrics.json']) {
      assert.ok(fs.existsSync(path.join(dir, f)), f);
    }
    const c = readJson(path.join(dir, 'config.json'));
    assert.deepEqual(c.architectures, ['Qwen3ForCausalLM']);
    assert.equal(c.model_type, 'qwen3');
    assert.equal(c.tie_word_embeddings, true);
    assert.ok(c.max_position_embeddings >= 2048);
    const tj = readJson(path.join(dir, 'tokenizer.json'));
    assert.equal(c.vocab_size, Object.keys(tj.model.vocab).length + tj.added_tokens.length);
    const bytes = fs.readFileSync(path.join(dir, 'model.safetensors'));
    assert.ok(bytes.length <= 10 * 1024 * 1024, `model.safetensors is ${bytes.length} bytes`);
    const file = parseSafetensors(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    const want = expectedShapes(c);
    assert.deepEqual([...file.tensors.keys()].sort(), [...want.keys()].sort(), 'exactly the Qwen3 tensors (tied: no lm_head)');
    for (const [name, shape] of want) assert.deepEqual(file.tensors.get(name)!.shape, shape, name);
    const gen = readJson(path.join(dir, 'generation_config.json'));
    const imEnd = tj.added_tokens.find((a: { content: string }) => a.content === '<|im_end|>').id;
    assert.ok(gen.eos_token_id.includes(imEnd));
  });

  test(`${dir}: card and metrics`, () => {
    const m = readJson(path.join(dir, 'metrics.json'));
    for (const k of ['parameters', 'val_loss', 'call_limit', 'sink', 'training']) assert.ok(k in m, k);
    for (const arm of ['without_status', 'with_status']) {
      assert.equal(m.call_limit[arm].n, 300);
      assert.ok(m.call_limit[arm].accuracy >= 0 && m.call_limit[arm].accuracy <= 1);
    }
    const c = readJson(path.join(dir, 'config.json'));
    assert.equal(m.sink.per_layer_head.length, c.num_hidden_layers);
    const card = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
    assert.match(card, /^---\ndescription: ".+"/);
    const seeded = dir.endsWith('-sink');
    assert.equal(m.training.seeded_sink, seeded);
    if (seeded) assert.match(card, /ENGINEERED/);
    else assert.doesNotMatch(card, /engineered: true/);
    // Every headline number in the card is the one in metrics.json.
    assert.ok(card.includes(`Gap: **${m.call_limit.gap_points.toFixed(1)} points**`), "gap in the card");
  });
}

test('golden fixtures: shapes follow cases.json and the default config; one case has ≥ 512 tokens', () => {
  const cases = readJson('training/golden/cases.json');
  const c = readJson('public/models/kvscope-tiny/config.json');
  const bytes = fs.readFileSync('training/golden/golden.safetensors');
  assert.ok(bytes.length <= 5 * 1024 * 1024);
  const g = parseSafetensors(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  assert.equal(cases.cases.length, 3);
  assert.ok(cases.cases.some((k: { tokens: number }) => k.tokens >= 512));
  for (const k of cases.cases) {
    assert.equal(k.ids.length, k.tokens);
    assert.ok(k.ids.every((i: number) => i >= 0 && i < c.vocab_size));
    assert.ok(k.rows.includes(k.tokens - 1), 'the last row is kept');
    assert.deepEqual(g.tensors.get(`${k.name}.logits`)!.shape, [Math.min(4, k.tokens), c.vocab_size]);
    for (let l = 0; l < c.num_hidden_layers; l++) {
      assert.deepEqual(g.tensors.get(`${k.name}.${l}.attn`)!.shape, [c.num_attention_heads, k.rows.length, k.tokens]);
      assert.deepEqual(g.tensors.get(`${k.name}.${l}.k`)!.shape, [c.num_key_value_heads, k.tokens, c.head_dim]);
      assert.deepEqual(g.tensors.get(`${k.name}.${l}.v`)!.shape, [c.num_key_value_heads, k.tokens, c.head_dim]);
    }
  }
});
