// The engine's resident K/V cache (EngineOptions.residentKv, on by default on WebGPU): the present K/V outputs
// are fed back as the next call's past without a copy through JS. On WASM the same code path runs with CPU
// tensors, so it is checked here against the engine with the cache in JS: identical logits and attention
// (same graph, same inputs: exact equality), and `fork` / `kv` refuse until `syncCache` brings the cache back.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as ort from 'onnxruntime-web';
import { EngineSession } from '../lib/engine/session';
import { loadCheckpoint } from '../lib/model/checkpoint';

ort.env.logLevel = 'error';
const DIR = 'public/models/kvscope-tiny';
const ck = loadCheckpoint(readFileSync(`${DIR}/config.json`, 'utf8'), [new Uint8Array(readFileSync(`${DIR}/model.safetensors`))]);
const ids = Array.from({ length: 30 }, (_, i) => (i * 131 + 7) % ck.config.vocabSize);

test('resident K/V: prefill, +1, +chunk give the same numbers as the cache in JS; fork and kv need syncCache', async () => {
  const a = await EngineSession.create(ort, ck, { residentKv: true });
  const b = await EngineSession.create(ort, ck, { residentKv: false });
  assert.equal(a.residentKv, true);
  assert.equal(b.residentKv, false);
  for (const [from, to] of [[0, 20], [20, 21], [21, 30]] as const) {
    const part = ids.slice(from, to);
    const ra = from === 0 ? await a.prefill(part) : await a.extend(part);
    const rb = from === 0 ? await b.prefill(part) : await b.extend(part);
    assert.deepEqual(ra.logits!.data, rb.logits!.data);
    assert.deepEqual(ra.attention[3]!.data, rb.attention[3]!.data);
    assert.equal(ra.length, to);
    assert.equal(a.cacheResident, true);
  }
  assert.throws(() => a.kv(0), /syncCache/);
  assert.throws(() => a.fork(10), /syncCache/);
  await a.syncCache();
  assert.equal(a.cacheResident, false);
  assert.deepEqual(a.kv(2).k.data, b.kv(2).k.data);
  a.fork(10);
  b.fork(10);
  const ra = await a.extend(ids.slice(10, 12));
  const rb = await b.extend(ids.slice(10, 12));
  assert.deepEqual(ra.logits!.data, rb.logits!.data);
  // Emptying needs no sync; a new prefill starts from nothing.
  a.fork(0);
  assert.equal(a.length, 0);
  const again = await a.prefill(ids.slice(0, 20));
  const ref = await b.prefill(ids.slice(0, 20));
  assert.deepEqual(again.logits!.data, ref.logits!.data);
  await a.dispose();
  await b.dispose();
});
