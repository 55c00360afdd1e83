// tools/export_attention.py against kvscope's own engine: the exporter's writer, fed the training pipeline's PyTorch
// module (training/py/model.py, which returns attention probabilities with need_attn=True) loaded with the shipped
// kvscope-tiny weights, must produce a kvscope-attention file that parseKvscopeAttention reads back and that
// matches the ONNX engine's attention for the same token ids. Skipped (explicitly) when /usr/bin/python3 has no torch.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readModelDir } from '../lib/cli/modelDir';
import { nodeOrt } from '../lib/cli/ort';
import { EngineSession } from '../lib/engine/session';
import { parseKvscopeAttention } from '../lib/io/attention/index';
import { createTokenizer, encodeText } from '../lib/prompt/tokenizer';
import { PY, pythonLacks } from './helpers/python';

/** Max |exporter − engine| per cell, float32 PyTorch vs ONNX Runtime on the same fp16-stored weights. */
const TOL = 1e-5; // measured: about 1.2e-6

const noTorch = pythonLacks('torch, numpy');

const DRIVER = `
import json, sys, torch
sys.path.insert(0, "training/py"); sys.path.insert(0, "tools")
from shipped import load_shipped
from export_attention import write_kvscope_attention
ids, tokens, out, heads = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3], sys.argv[4]
torch.set_num_threads(1)
model = load_shipped("kvscope-tiny", torch.float32)
with torch.no_grad():
    _, attns, _ = model(torch.tensor([ids]), need_attn=True)
n = len(attns)
write_kvscope_attention(out, [a[0] for a in attns], tokens, layer_indices=list(range(n)), heads=heads, token_ids=ids,
                        model="kvscope-tiny", source={"exporter": "tools/export_attention.py", "device": "cpu"})
`;

test('export_attention.py on kvscope-tiny matches the engine (JSON per-head and safetensors mean)', async (t) => {
  if (noTorch) return t.skip(`${noTorch}; install python3-torch (Debian) to compare the exporter with the engine`);
  const model = readModelDir('public/models/kvscope-tiny');
  const tok = createTokenizer(model.tokenizerJson!, model.tokenizerConfig!);
  const ids = encodeText(tok, 'The cache keeps every key and value; attention decides what the model reads.');
  const tokens = ids.map((i) => tok.decode([i]));
  const T = ids.length;
  const dir = mkdtempSync(join(tmpdir(), 'kvscope-attn-'));
  const engine = await EngineSession.create(nodeOrt(1), model.checkpoint, { graph: { logits: 'last', attention: 'full', presentKv: true } });
  try {
    const r = await engine.prefill(ids);
    const L = r.attention.length;
    let worst = 0;
    for (const [file, heads] of [['a.json', 'all'], ['a.safetensors', 'mean']] as const) {
      const out = join(dir, file);
      const p = spawnSync(PY, ['-c', DRIVER, JSON.stringify(ids), JSON.stringify(tokens), out, heads], { encoding: 'utf8' });
      assert.equal(p.status, 0, p.stderr);
      const a = parseKvscopeAttention(new Uint8Array(readFileSync(out)));
      assert.deepEqual(a.tokenIds, ids);
      assert.deepEqual(a.tokens, tokens);
      assert.equal(a.meta.model, 'kvscope-tiny');
      assert.equal(a.layers.length, L);
      for (const [l, layer] of a.layers.entries()) {
        const e = r.attention[l]!;
        const [H, Q, K] = e.dims as [number, number, number];
        assert.equal(Q, T);
        assert.equal(K, T);
        assert.equal(layer.layer, l);
        assert.deepEqual(layer.queryPositions, ids.map((_, i) => i));
        assert.equal(layer.heads, heads === 'mean' ? 'mean' : H);
        for (let q = 0; q < T; q++)
          for (let k = 0; k < T; k++) {
            const hs = heads === 'mean' ? [0] : Array.from({ length: H }, (_, h) => h);
            for (const h of hs) {
              let want = 0;
              if (heads === 'mean') for (let hh = 0; hh < H; hh++) want += e.data[(hh * Q + q) * K + k]! / H;
              else want = e.data[(h * Q + q) * K + k]!;
              const got = layer.data[(h * Q + q) * K + k]!;
              if (k > q) assert.ok(Number.isNaN(got), `layer ${l} head ${h} [${q}, ${k}] masked → NaN`);
              else worst = Math.max(worst, Math.abs(got - want));
            }
          }
      }
    }
    console.log(`# export_attention.py vs engine: max |Δ| = ${worst.toExponential(2)} over ${T} tokens, tolerance ${TOL}`);
    assert.ok(worst < TOL, `max |exporter − engine| = ${worst} ≥ ${TOL}`);
  } finally {
    await engine.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---- the trust check (lib/analysis/importCompare, docs/MODELS.md "Checking kvscope against Transformers") ----
// The exporter's file for a prompt, compared with the engine's run of its token ids: within tolerance on every
// layer, per head against a full-attention graph and on head means against the large-model graph (every layer
// reduced, one per head). A file whose attention comes from a different prompt but claims these ids fails the
// verdict; one that records its own (different) ids is refused. Also the exporter's --model helpers, and its main()
// end to end (a stand-in for transformers over the reference model): token ids, model name, dtype recorded.
const COMPARE_DRIVER = `
import json, os, sys, torch
sys.path.insert(0, "training/py"); sys.path.insert(0, "tools")
from shipped import load_shipped
from export_attention import write_kvscope_attention, model_label, model_spec, chat_ids
ids, other, tokens, out_dir = json.loads(sys.argv[1]), json.loads(sys.argv[2]), json.loads(sys.argv[3]), sys.argv[4]
torch.set_num_threads(1)
model = load_shipped("kvscope-tiny", torch.float32)
def attn(x):
    with torch.no_grad():
        _, attns, _ = model(torch.tensor([x]), need_attn=True)
    return [a[0] for a in attns]
n = len(attn(ids))
src = {"exporter": "tools/export_attention.py", "device": "cpu", "dtype": "float32"}
write_kvscope_attention(os.path.join(out_dir, "right.json"), attn(ids), tokens, layer_indices=list(range(n)), heads="all",
                        token_ids=ids, model="kvscope-tiny", source=src)
# Another prompt's attention under this prompt's ids (a mislabelled file), and under its own ids.
write_kvscope_attention(os.path.join(out_dir, "wrong.safetensors"), attn(other), tokens, layer_indices=list(range(n)),
                        heads="mean", token_ids=ids, model="kvscope-tiny", source=src)
write_kvscope_attention(os.path.join(out_dir, "other.json"), attn(other)[-1:], tokens, layer_indices=[n - 1],
                        heads="mean", token_ids=other, model="kvscope-tiny", source=src)
snap = os.path.join(out_dir, "hub", "models--Qwen--Qwen3-0.6B", "snapshots", "0123abc")
os.makedirs(snap)
class Tok:
    def apply_chat_template(self, msgs, add_generation_prompt, tokenize, **kw):
        return {"input_ids": [[len(msgs), len(kw.get("tools", []))]]}
# main() end to end with a stand-in for transformers (not installable here) over the same reference model: a local
# folder as --model, a request body as --messages, the chat template returning transformers 5's BatchEncoding.
import types, export_attention
seen = {}
class FakeTok:
    @staticmethod
    def from_pretrained(path, **kw):
        seen["tok"] = path
        return FakeTok()
    def apply_chat_template(self, msgs, add_generation_prompt, tokenize, **kw):
        seen["messages"], seen["tools"] = len(msgs), len(kw.get("tools", []))
        return {"input_ids": [list(ids)]}
    def decode(self, x):
        return tokens[ids.index(x[0])]
class FakeOut:
    def __init__(self, attentions):
        self.attentions = attentions
class FakeModel:
    config = types.SimpleNamespace(_commit_hash=None)
    @staticmethod
    def from_pretrained(path, attn_implementation=None, **kw):
        seen["model"], seen["attn"], seen["dtype"] = path, attn_implementation, str(kw.get("dtype"))
        return FakeModel()
    def to(self, device):
        return self
    def eval(self):
        return self
    def __call__(self, x, output_attentions, use_cache):
        with torch.no_grad():
            _, attns, _ = model(x, need_attn=True)
        return FakeOut(tuple(attns))
fake = types.ModuleType("transformers")
fake.__version__, fake.AutoTokenizer, fake.AutoModelForCausalLM = "5.0.0", FakeTok, FakeModel
sys.modules["transformers"] = fake
folder = os.path.join(out_dir, "kvscope-tiny")
os.makedirs(folder)
req = os.path.join(out_dir, "req.json")
with open(req, "w") as f:
    json.dump({"messages": [{"role": "user", "content": "hi"}], "tools": [{"type": "function"}]}, f)
export_attention.main(["--model", folder, "--messages", req, "--layers", "all", "--heads", "mean", "--device", "cpu",
                       "--out", os.path.join(out_dir, "main.safetensors")])
res = {"main": seen, "hub": model_label("Qwen/Qwen3-0.6B"), "snap": model_label(snap), "folder": model_label(out_dir)[0] == os.path.basename(out_dir),
       "kind": model_spec(out_dir)[0], "chat": chat_ids(Tok(), {"messages": [{"role": "user", "content": "hi"}], "tools": [{}, {}]})}
try:
    model_spec("./no/such/folder"); res["refused"] = False
except SystemExit as e:
    res["refused"] = str(e)
print(json.dumps(res))
`;

test('importCompare: the exporter’s file vs the engine on kvscope-tiny passes per layer; a wrong prompt fails or is refused', async (t) => {
  if (noTorch) return t.skip(`${noTorch}; install python3-torch (Debian) to compare the exporter with the engine`);
  const { compareImported, CompareRefusal, TOLERANCE } = await import('../lib/analysis/importCompare');
  const model = readModelDir('public/models/kvscope-tiny');
  const tok = createTokenizer(model.tokenizerJson!, model.tokenizerConfig!);
  const ids = encodeText(tok, 'Attention decides which cached keys each new token reads, layer by layer.');
  const other = [...ids].reverse();
  assert.notDeepEqual(other, ids);
  const tokens = ids.map((i) => tok.decode([i]));
  const dir = mkdtempSync(join(tmpdir(), 'kvscope-cmp-'));
  const full = await EngineSession.create(nodeOrt(1), model.checkpoint, { graph: { logits: 'last', attention: 'full', presentKv: true } });
  // The large-model plan's attention outputs: every layer as its head mean, the layer asked for per head.
  const large = await EngineSession.create(nodeOrt(1), model.checkpoint, { graph: { logits: 'last', attention: 'mean', headLayerInput: true, presentKv: true } });
  try {
    const p = spawnSync(PY, ['-c', COMPARE_DRIVER, JSON.stringify(ids), JSON.stringify(other), JSON.stringify(tokens), dir], { encoding: 'utf8' });
    assert.equal(p.status, 0, p.stderr);
    const helpers = JSON.parse(p.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
    assert.deepEqual(helpers.hub, ['Qwen/Qwen3-0.6B', null]);
    assert.deepEqual(helpers.snap, ['Qwen/Qwen3-0.6B', '0123abc']);
    assert.equal(helpers.folder, true);
    assert.equal(helpers.kind, 'folder');
    assert.deepEqual(helpers.chat, [1, 2]);
    assert.match(String(helpers.refused), /\.\/no\/such\/folder is neither a folder on this machine nor a Hub repo id/);

    const read = (f: string) => parseKvscopeAttention(new Uint8Array(readFileSync(join(dir, f))));
    const right = read('right.json');
    const L = full.config.numLayers;
    const H = full.config.numHeads;

    // main(): what it asked of transformers, and what it recorded.
    assert.deepEqual(helpers.main, { tok: join(dir, 'kvscope-tiny'), messages: 1, tools: 1, model: join(dir, 'kvscope-tiny'), attn: 'eager', dtype: 'torch.float32' });
    const viaMain = read('main.safetensors');
    assert.deepEqual(viaMain.tokenIds, ids);
    assert.deepEqual(viaMain.tokens, tokens);
    assert.equal(viaMain.meta.model, 'kvscope-tiny');
    assert.equal(viaMain.meta.dtype, 'float32');
    assert.equal(viaMain.meta.attn_implementation, 'eager');
    assert.equal(viaMain.meta.model_source, 'folder');
    assert.equal(viaMain.meta.num_layers, L);
    assert.deepEqual(viaMain.layers.map((l) => [l.layer, l.heads]), Array.from({ length: L }, (_, l) => [l, 'mean']));

    const a = await full.prefill(ids);
    const fromMain = compareImported(viaMain, { ids, layers: a.attention, rows: a.rows });
    assert.ok(fromMain.pass && fromMain.layers.every((r) => r.heads === 'mean' && r.meanBecause === 'file'), `main(): max |Δ| ${fromMain.maxAbs}`);
    const perHead = compareImported(right, { ids, layers: a.attention, rows: a.rows }, { name: 'right.json' });
    assert.equal(perHead.tolerance, TOLERANCE.float32);
    assert.equal(perHead.basis, 'float32');
    assert.equal(perHead.fileModel, 'kvscope-tiny');
    assert.deepEqual(perHead.layers.map((r) => r.layer), Array.from({ length: L }, (_, l) => l));
    for (const r of perHead.layers) {
      assert.equal(r.heads, H);
      assert.equal(r.cells, (H * ids.length * (ids.length + 1)) / 2);
      assert.ok(r.pass, `layer ${r.layer}: max |Δ| ${r.maxAbs} > ${perHead.tolerance}`);
    }
    console.log(`# importCompare per head: max |Δ| = ${perHead.maxAbs.toExponential(2)} (tolerance ${perHead.tolerance})`);

    const headLayer = 2;
    const b = await large.prefill(ids, undefined, headLayer);
    assert.deepEqual(b.attention.map((x) => x.dims.length), Array.from({ length: L }, (_, l) => (l === headLayer ? 3 : 2)));
    const reduced = compareImported(right, { ids, layers: b.attention, rows: b.rows });
    assert.deepEqual(reduced.layers.map((r) => r.heads), Array.from({ length: L }, (_, l) => (l === headLayer ? H : 'mean')));
    assert.ok(reduced.pass, `large-model outputs: max |Δ| ${reduced.maxAbs}`);

    const wrong = compareImported(read('wrong.safetensors'), { ids, layers: a.attention, rows: a.rows });
    assert.equal(wrong.pass, false);
    // Layer 0 too: a different prompt changes every layer's attention by far more than the tolerance.
    for (const r of wrong.layers) assert.ok(r.maxAbs > 100 * wrong.tolerance, `layer ${r.layer}: ${r.maxAbs}`);
    console.log(`# importCompare on a mislabelled prompt: max |Δ| = ${wrong.maxAbs.toExponential(2)}`);

    assert.throws(
      () => compareImported(read('other.json'), { ids, layers: a.attention, rows: a.rows }, { name: 'other.json' }),
      (e: unknown) => e instanceof CompareRefusal && e.code === 'ids-differ' && /^other\.json: its \d+ token ids differ/.test(e.message),
    );
  } finally {
    await full.dispose();
    await large.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});
