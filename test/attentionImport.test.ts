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

const PY = process.env.KVSCOPE_TEST_PY ?? '/usr/bin/python3'; // override only to exercise the skip path
/** Max |exporter − engine| per cell, float32 PyTorch vs ONNX Runtime on the same fp16-stored weights. */
const TOL = 1e-5; // measured: about 1.2e-6

const torchCheck = spawnSync(PY, ['-c', 'import torch, numpy'], { encoding: 'utf8' });
const noTorch = torchCheck.error ? `${PY} not runnable (${torchCheck.error.message})` : torchCheck.status !== 0 ? `${PY} lacks torch/numpy (${torchCheck.stderr.trim().split('\n').pop()})` : null;

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
