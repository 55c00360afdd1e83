// training/py/model.py trains with chunked causal attention (query chunks read only the keys up to their last query)
// and reads attention out with the explicit [T, S] softmax. The two must be the same function: same logits, same
// gradients, with right padding. Skipped (explicitly) when /usr/bin/python3 has no torch.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { PY, pythonLacks } from './helpers/python';

const noTorch = pythonLacks('torch');

// float32, one thread. Logits: measured bitwise equal (the chunks skip only exact zeros). Gradients: the backward
// sums in another order, measured ~3e-7 of the largest gradient; the tolerance is 1e-5 of it.
/** A Python driver's opening: the training model, float32 on one thread, seeded, on a 300-token vocabulary. */
const modelSetup = (seed: number) => `
import json, sys, torch
sys.path.insert(0, "training/py")
import model as M
torch.set_num_threads(1)
torch.manual_seed(${seed})
m = M.Qwen3(M.Config(vocab_size=300))
`;

/** Runs a driver with one BLAS thread and returns what it printed as JSON. */
function runDriver<T>(src: string): T {
  const p = spawnSync(PY, ['-c', src], { encoding: 'utf8', env: { ...process.env, OMP_NUM_THREADS: '1', OPENBLAS_NUM_THREADS: '1' } });
  assert.equal(p.status, 0, p.stderr);
  return JSON.parse(p.stdout) as T;
}

const DRIVER = `${modelSetup(0)}
T = 3 * M.ATTN_CHUNK + 37
ids = torch.randint(0, 300, (3, T))
pad = torch.ones(3, T, dtype=torch.bool); pad[1, 2 * M.ATTN_CHUNK + 5:] = False; pad[2, M.ATTN_CHUNK - 9:] = False
calls = []
probs = M.Attention._probs
def counted(self, q, k, mask):
    calls.append(q.shape[2])
    return probs(self, q, k, mask)
M.Attention._probs = counted
out = {}
for need in (False, True):
    calls.clear()
    m.zero_grad()
    lg, att, _ = m(ids, pad_mask=pad, need_attn=need)
    sel = pad[:, 1:]
    torch.nn.functional.cross_entropy(lg[:, :-1][sel], ids[:, 1:][sel]).backward()
    out[need] = (lg.detach(), [p.grad.clone() for p in m.parameters()], list(calls), att[0] is None)
(a, ga, ca, na), (b, gb, cb, nb) = out[False], out[True]
print(json.dumps({
  "chunk_calls": ca, "explicit_calls": cb, "probs_none": [na, nb],
  "logit_diff": (a - b)[pad].abs().max().item(),
  "grad_diff": max((x - y).abs().max().item() for x, y in zip(ga, gb)),
  "grad_max": max(x.abs().max().item() for x in gb),
}))
`;

test('training attention: chunked (no read-out) equals explicit (read-out) in logits and gradients, with padding', (t) => {
  if (noTorch) return t.skip(`${noTorch}; install python3-torch (Debian) to check the training model`);
  const r = runDriver<{ chunk_calls: number[]; explicit_calls: number[]; probs_none: boolean[]; logit_diff: number; grad_diff: number; grad_max: number }>(DRIVER);
  // Per layer: 4 query chunks (3 full, one of 37 rows) without read-out, one full softmax with it.
  assert.deepEqual(r.chunk_calls.slice(0, 4), [256, 256, 256, 37]);
  assert.equal(r.chunk_calls.length, 4 * 4);
  assert.equal(r.explicit_calls.length, 4);
  assert.deepEqual(r.probs_none, [true, false]);
  assert.ok(r.logit_diff <= 1e-6, `logits differ by ${r.logit_diff}`);
  assert.ok(r.grad_max > 0 && r.grad_diff <= 1e-5 * r.grad_max, `gradients differ by ${r.grad_diff} (max ${r.grad_max})`);
});

// The seeded sink's loss reads only the last layer's attention to position 0 (model.py sink_col): from the chunked
// path, it must be the explicit matrix's column, with the same gradients through train.py's sink_loss.
const SINK_DRIVER = `${modelSetup(1)}
from train import HYPER, sink_loss
T = 2 * M.ATTN_CHUNK + 41
ids = torch.randint(0, 300, (2, T))
pad = torch.ones(2, T, dtype=torch.bool); pad[1, M.ATTN_CHUNK + 3:] = False
out = []
for col in (False, True):
    m.zero_grad()
    lg, att, _ = m(ids, pad_mask=pad, need_attn=not col, sink_col=col)
    loss, mean = sink_loss(att[-1], pad, HYPER)
    loss.backward()
    grads = [torch.zeros_like(p) if p.grad is None else p.grad.clone() for p in m.parameters()]  # the loss skips the unembedding
    out.append((att[-1][..., 0].detach(), grads, list(att[-1].shape), att[0] is None, float(loss)))
(a, ga, sa, na, la), (b, gb, sb, nb, lb) = out
print(json.dumps({"shapes": [sa, sb], "others_none": [na, nb], "col_diff": (a - b).abs().max().item(),
                  "loss": [la, lb], "grad_diff": max((x - y).abs().max().item() for x, y in zip(ga, gb)),
                  "grad_max": max(x.abs().max().item() for x in ga)}))
`;

test('training attention: the sink loss from the chunked column of key 0 equals the one from explicit matrices', (t) => {
  if (noTorch) return t.skip(`${noTorch}; install python3-torch (Debian) to check the training model`);
  const r = runDriver<{ shapes: number[][]; others_none: boolean[]; col_diff: number; loss: number[]; grad_diff: number; grad_max: number }>(SINK_DRIVER);
  const T = 2 * 256 + 41;
  assert.deepEqual(r.shapes, [[2, 4, T, T], [2, 4, T, 1]]);
  assert.deepEqual(r.others_none, [false, true], 'with sink_col no other layer returns attention');
  assert.ok(r.col_diff <= 1e-6, `column 0 differs by ${r.col_diff}`);
  assert.ok(r.loss[0]! > 0 && Math.abs(r.loss[0]! - r.loss[1]!) <= 1e-6, `sink losses ${r.loss}`);
  assert.ok(r.grad_max > 0 && r.grad_diff <= 1e-5 * r.grad_max, `gradients differ by ${r.grad_diff} (max ${r.grad_max})`);
});
