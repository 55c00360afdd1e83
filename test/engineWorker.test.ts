// The engine behind a worker (protocol, host, client): same tensors as a direct EngineSession, errors as values,
// cancellation, and recovery from a crashed worker with the cache replayed. Node worker_threads stand in for the browser Worker.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { MessageChannel } from 'node:worker_threads';
import { after, before, describe, test } from 'node:test';
import * as ort from 'onnxruntime-web';
import { EngineClient, EngineRequestError, type ClientEvents, type WorkerLike } from '../lib/engine/client';
import { serveEngine } from '../lib/engine/host';
import { chunkIds, checkRequest, collectTransfers, truncateChunks, type LoadParams } from '../lib/engine/protocol';
import { EngineSession } from '../lib/engine/session';
import type { Tensor } from '../lib/tensor';
import { loadCheckpoint } from '../lib/model/checkpoint';
import { describe as describeMessage, errorData } from '../lib/i18n/message';
import { startNodeWorker, type NodeWorkerHandle } from './helpers/nodeWorker';
import { TINY_VOCAB_SIZE } from './helpers/embeddedIds';

// A browser Worker must fit the client's WorkerLike (checked by the compiler only).
export const browserWorkerFits = (w: Worker): WorkerLike => w;

const DIR = 'public/models/kvscope-tiny';
const configText = fs.readFileSync(`${DIR}/config.json`, 'utf8');
const shard = new Uint8Array(fs.readFileSync(`${DIR}/model.safetensors`));
const loadParams = (): LoadParams => ({
  config: configText,
  shards: [shard],
  tokenizer: JSON.parse(fs.readFileSync(`${DIR}/tokenizer.json`, 'utf8')) as object,
  tokenizerConfig: JSON.parse(fs.readFileSync(`${DIR}/tokenizer_config.json`, 'utf8')) as object,
  numThreads: 1, // as the direct session below: exact equality is only promised for the same kernels
});
const ENTRY = new URL('./helpers/engineWorkerNode.ts', import.meta.url);
const ids = (n: number, seed: number): number[] => Array.from({ length: n }, (_, i) => (i * 131 + seed * 17 + 7) % 8900);

/** Bit-for-bit equality of two tensors. */
function same(a: Tensor | undefined, b: Tensor | undefined, what: string): void {
  assert.ok(a && b, `${what}: missing`);
  assert.deepEqual(a.dims, b.dims, `${what}: dims`);
  assert.ok(Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength).equals(Buffer.from(b.data.buffer, b.data.byteOffset, b.data.byteLength)), `${what}: values differ`);
}

async function rejectsWith(p: Promise<unknown>, code: string): Promise<EngineRequestError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof EngineRequestError, `expected an EngineRequestError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    return e;
  }
  assert.fail(`expected a rejection with ${code}`);
}

const once = <E extends keyof ClientEvents>(c: EngineClient, event: E): Promise<ClientEvents[E]> =>
  new Promise((resolve) => {
    const off = c.on(event, (e) => {
      off();
      resolve(e);
    });
  });

describe('engine worker', () => {
  let direct: EngineSession;
  let client: EngineClient;
  const clients: EngineClient[] = [];
  const threads = new Map<EngineClient, NodeWorkerHandle[]>(); // each client's workers, newest last
  const newClient = (): EngineClient => {
    const mine: NodeWorkerHandle[] = [];
    const c = new EngineClient(() => {
      const h = startNodeWorker(ENTRY);
      mine.push(h);
      return h;
    });
    threads.set(c, mine);
    clients.push(c);
    return c;
  };

  before(async () => {
    ort.env.wasm.numThreads = 1;
    direct = await EngineSession.create(ort, loadCheckpoint(configText, [shard]));
    client = newClient();
  });
  after(async () => {
    for (const c of clients) c.terminate();
    await direct?.dispose();
  });

  test('load reports progress; prefill, extend, fork, readKv, readAttention equal a direct session bit for bit', async () => {
    const stages: [string, number][] = [];
    const loaded = await client.load(loadParams(), { onProgress: (s, f) => stages.push([s, f]) });
    assert.equal(loaded.provider, 'wasm');
    assert.equal(loaded.config.numLayers, 4);
    assert.equal(loaded.hasTokenizer, true);
    assert.ok(stages.length >= 3, JSON.stringify(stages));
    assert.deepEqual(stages.map(([, f]) => f), [...stages.map(([, f]) => f)].sort((a, b) => a - b), 'fractions never go back');
    assert.equal(stages.at(-1)?.[1], 1);

    const prompt = ids(20, 1);
    const [w, d] = [await client.prefill(prompt), await direct.prefill(prompt)];
    same(w.logits, d.logits, 'prefill logits');
    assert.equal(w.attention.length, 4);
    w.attention.forEach((a, l) => same(a, d.attention[l], `prefill attention ${l}`));
    assert.deepEqual([w.pastLength, w.length, w.rows], [d.pastLength, d.length, d.rows]);

    const [w1, d1] = [await client.extend([42]), await direct.extend([42])];
    same(w1.logits, d1.logits, 'extend logits');
    w1.attention.forEach((a, l) => same(a, d1.attention[l], `extend attention ${l}`));

    assert.deepEqual(await client.fork(12), { length: 12 });
    direct.fork(12);
    const [w2, d2] = [await client.extend([5, 6, 7], { attention: 'keep' }), await direct.extend([5, 6, 7])];
    same(w2.logits, d2.logits, 'extend after fork');
    assert.equal(w2.attentionKept, true);
    assert.deepEqual(w2.attention, []);
    const head = await client.readAttention(1, 2);
    const full = d2.attention[1]!;
    const [, R, K] = full.dims as [number, number, number];
    same(head.attention, { data: full.data.slice(2 * R * K, 3 * R * K), dims: [R, K] }, 'kept attention, layer 1 head 2');
    assert.deepEqual(head.rows, [12, 13, 14]);
    same((await client.readAttention(3)).attention, d2.attention[3], 'kept attention, layer 3');

    for (const l of [0, 3]) {
      const kv = await client.readKv(l);
      const dkv = direct.kv(l);
      same(kv.k, dkv.k, `K layer ${l}`);
      same(kv.v, dkv.v, `V layer ${l}`);
    }
    assert.deepEqual(client.ids, direct.ids);
  });

  test('errors come back as values and leave the client in step with the worker', async () => {
    await client.prefill(ids(20, 2));
    const bad = await rejectsWith(client.extend([1, 99999]), 'engine');
    assert.match(bad.message, /vocabulary/);
    // The engine's coded message crosses the worker as data: the page shows it in its own language.
    assert.equal(bad.key, 'msg.engine.session.tokenOutside');
    assert.deepEqual(errorData(bad).coded, { key: 'msg.engine.session.tokenOutside', params: { id: 99999, last: TINY_VOCAB_SIZE - 1 } });
    assert.match(describeMessage('zh', bad), /token id 99999 不在词表范围内/);
    assert.equal(describeMessage('en', bad), bad.message);
    assert.equal(client.length, 20, 'a refused extend changes nothing');
    await rejectsWith(client.fork(21), 'engine');
    await rejectsWith(client.readKv(9), 'engine');
    await rejectsWith(client.call('explode' as never, {} as never), 'bad_request');
    await rejectsWith(client.call('prefill', { ids: 'abc' } as never), 'bad_request');
    // A refused prefill is refused before the cache is touched: the 20 cached tokens stay.
    await rejectsWith(client.prefill([3, -1]), 'engine');
    assert.equal(client.length, 20);
    assert.equal((await client.readKv(0)).k.dims[1], 20);

    const fresh = newClient();
    await rejectsWith(fresh.extend([1]), 'not_loaded');
    await rejectsWith(fresh.prompt({ messages: [] }), 'not_loaded');
    await rejectsWith(fresh.load({ ...loadParams(), config: '{"model_type":"gpt2"}' }), 'load_failed');
    assert.equal(fresh.loaded, false);
    fresh.terminate();
    await rejectsWith(fresh.fork(0), 'terminated');
  });

  test('a killed worker fails its in-flight requests, restarts, reloads and replays the cache exactly', async () => {
    // A history with a fork inside a chunk: replay must rerun that chunk whole to get the same bits.
    await client.prefill(ids(20, 3));
    await client.extend([5, 6, 7]);
    await client.fork(22);
    const before = await client.extend([42]);
    await client.fork(22);
    const cached = client.ids;
    assert.equal(cached.length, 22);

    const crashed = once(client, 'crashed');
    const restarted = once(client, 'restarted');
    const long = client.prefill(ids(500, 4));
    const queued = client.extend([1]);
    const failures = Promise.all([rejectsWith(long, 'worker_crashed'), rejectsWith(queued, 'worker_crashed')]);
    setTimeout(() => void threads.get(client)!.at(-1)!.raw.terminate(), 30); // behind the client's back, mid-prefill
    await failures;
    assert.deepEqual((await crashed).failed, [long.id, queued.id]);

    const next = client.extend([42]); // sent while the new worker is still loading: it waits for recovery
    const info = await restarted;
    assert.equal(info.reloaded, true);
    assert.equal(info.replayed, 22);
    assert.equal(info.error, undefined);
    const after = await next;
    same(after.logits, before.logits, 'logits after the restart');
    after.attention.forEach((a, l) => same(a, before.attention[l], `attention ${l} after the restart`));
    assert.deepEqual(client.ids, [...cached, 42]);
  });

  test('cancel: a queued request is removed, a running one is answered cancelled, an abort signal cancels', async () => {
    const a = client.prefill(ids(400, 5));
    const b = client.extend([1]);
    const bFails = rejectsWith(b, 'cancelled');
    assert.equal(await client.cancel(b.id), 'queued');
    await bFails;
    assert.equal((await a).length, 400);
    assert.equal(client.length, 400);

    const p = client.prompt({ messages: [] }, { wait: 5000 });
    const pFails = rejectsWith(p, 'cancelled');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(await client.cancel(p.id), 'running');
    await pFails;

    const ac = new AbortController();
    const q = client.prompt({ messages: [] }, { wait: 5000 }, { signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    await rejectsWith(q, 'cancelled');
    assert.deepEqual(await client.prompt({ n: 1 }), { tok: { hasConfig: true }, request: { n: 1 } });
    assert.equal(await client.cancel(12345), 'unknown');
  });
});

describe('engine host and client without a model', () => {
  test('an in-process host answers malformed and unwired requests with error values', async () => {
    const { port1, port2 } = new MessageChannel();
    serveEngine({ postMessage: (m, t) => port1.postMessage(m, t), addEventListener: (_t, l) => void port1.on('message', (data: unknown) => l({ data })) }, { ort });
    const answers: unknown[] = [];
    const got = new Promise<void>((resolve) =>
      port2.on('message', (m: unknown) => {
        answers.push(m);
        if (answers.length === 3) resolve();
      }),
    );
    port2.postMessage({ type: 'prefill', ids: [1] });
    port2.postMessage({ id: 1, type: 'prompt', request: {} });
    port2.postMessage({ id: 2, type: 'readAttention', layer: 0 });
    await got;
    port1.close();
    const byId = new Map(answers.map((a) => [(a as { id: number }).id, a as { ok: boolean; error: { code: string } }]));
    assert.equal(byId.get(-1)?.error.code, 'bad_request');
    assert.equal(byId.get(1)?.error.code, 'unsupported');
    assert.equal(byId.get(2)?.error.code, 'not_available');
  });

  test('a silent worker trips the watchdog; repeated failures give up with a clean error', async () => {
    let made = 0;
    const silent = (): WorkerLike => {
      made++;
      return { postMessage: () => undefined, addEventListener: () => undefined, terminate: () => undefined };
    };
    const c = new EngineClient(silent, { timeoutMs: 50 });
    const restarted = once(c, 'restarted');
    await rejectsWith(c.fork(0), 'worker_crashed');
    assert.deepEqual(await restarted, {
      reason: 'no message from the worker for 50 ms',
      reasonCoded: { key: 'msg.engine.client.silent', params: { ms: 50 } },
      reloaded: false,
      replayed: 0,
    });
    assert.equal(describeMessage('zh', { message: 'x', coded: (await restarted).reasonCoded }), 'worker 已有 50 ms 没有任何消息');
    assert.equal(made, 2);
    c.terminate();

    let tries = 0;
    const broken = new EngineClient(() => {
      if (tries++ === 0) return silent();
      throw new Error('no worker for you');
    }, { timeoutMs: 20, maxRestarts: 1 });
    const failed = once(broken, 'failed');
    const p = broken.fork(0);
    await rejectsWith(p, 'worker_crashed');
    assert.match((await failed).reason, /no worker for you/);
    assert.equal(broken.state, 'failed');
    await rejectsWith(broken.fork(0), 'worker_crashed');
    broken.terminate();
  });

  test('protocol helpers: chunk history, transfer lists, request checks', () => {
    const chunks = [
      { ids: [1, 2, 3], keep: 3 },
      { ids: [4, 5, 6], keep: 3 },
    ];
    assert.deepEqual(truncateChunks(chunks, 4), [
      { ids: [1, 2, 3], keep: 3 },
      { ids: [4, 5, 6], keep: 1 },
    ]);
    assert.deepEqual(chunkIds(truncateChunks(chunks, 4)), [1, 2, 3, 4]);
    assert.deepEqual(truncateChunks(chunks, 0), []);
    const a = new Float32Array(4);
    const b = new Float32Array(2);
    assert.deepEqual(collectTransfers({ logits: { data: a, dims: [4] }, attention: [{ data: b, dims: [2] }, { data: a, dims: [4] }], ids: new Int32Array(2) }), [a.buffer, b.buffer]);
    assert.equal(checkRequest({ id: 3, type: 'fork', length: 1.5 }).ok, false);
    assert.equal(checkRequest({ id: 3, type: 'fork', length: 1 }).ok, true);
  });
});

describe('the prompt request with the real builder (lib/engine/promptHook)', () => {
  test('renders and tokenizes in the host exactly as buildPrompt does; invalid requests come back as path-named errors', async () => {
    const { promptHook } = await import('../lib/engine/promptHook');
    const { buildPrompt } = await import('../lib/prompt/prompt');
    const { createTokenizer } = await import('../lib/prompt/tokenizer');
    const { VANCOUVER } = await import('../lib/scenarios/vancouver');
    const dir = 'public/models/kvscope-tiny';
    const tokenizer = JSON.parse(fs.readFileSync(`${dir}/tokenizer.json`, 'utf8'));
    const tokenizerConfig = JSON.parse(fs.readFileSync(`${dir}/tokenizer_config.json`, 'utf8'));
    const { port1, port2 } = new MessageChannel();
    serveEngine({ postMessage: (m, t) => port1.postMessage(m, t), addEventListener: (_t, l) => void port1.on('message', (data: unknown) => l({ data })) }, { ort, prompt: promptHook });
    const client = new EngineClient(() => ({
      postMessage: (m, t) => port2.postMessage(m, t as never),
      addEventListener: (type, l) => void (type === 'message' && port2.on('message', (data: unknown) => l({ data } as never))),
      terminate: () => port2.close(),
    }));
    await client.load({ config: fs.readFileSync(`${dir}/config.json`, 'utf8'), shards: [new Uint8Array(fs.readFileSync(`${dir}/model.safetensors`))], tokenizer, tokenizerConfig } as LoadParams);
    const got = (await client.prompt(VANCOUVER, { addGenerationPrompt: true })) as { ok: true; prompt: { ids: number[]; spans: unknown[] } };
    const want = buildPrompt(createTokenizer(tokenizer, tokenizerConfig), VANCOUVER, { addGenerationPrompt: true });
    assert.equal(got.ok, true);
    assert.deepEqual(got.prompt.ids, want.ids);
    assert.deepEqual(got.prompt.spans, want.spans);
    const bad = (await client.prompt({ messages: [{ role: 'tool', content: 'x' }] })) as { ok: false; errors: { path: string }[] };
    assert.equal(bad.ok, false);
    assert.equal(bad.errors[0]!.path, 'messages[0].tool_call_id');
    // Validation notes cross the worker as coded messages too (the page shows them in its language).
    const noted = (await client.prompt({ model: 'x', temperature: 0.2, messages: [{ role: 'user', content: 'hi' }] }, { addGenerationPrompt: true })) as { ok: true; notes: string[]; codedNotes: { key: string }[] };
    assert.equal(noted.ok, true);
    assert.ok(noted.codedNotes.some((m) => m.key === 'msg.import.req.noteIgnoredTop'), JSON.stringify(noted.codedNotes));
    assert.equal(noted.codedNotes.length, noted.notes.length);
    client.terminate();
    port1.close();
  });
});

describe('the streaming request (StreamingLLM experiment in the worker)', () => {
  // Compared with lib/analysis/streaming run in this thread on its own session of the same weights (same ORT
  // build, one thread each: the same kernels), so the NLL arrays must agree bit for bit.
  test('equals a direct streamingExperiment exactly, reports progress, leaves the main cache alone, cancels, checks its input', { timeout: 120_000 }, async () => {
    const { streamingExperiment } = await import('../lib/analysis/streaming');
    const c = new EngineClient(() => startNodeWorker(ENTRY));
    try {
      await rejectsWith(c.streaming(ids(10, 1), { window: 4, sink: 1 }), 'not_loaded');
      await c.load(loadParams());
      const cached = ids(20, 3);
      await c.prefill(cached);
      const kvBefore = await c.readKv(2);

      const text = ids(90, 9);
      const stages: [string, number][] = [];
      const got = await c.streaming(text, { window: 24, sink: 3 }, { onProgress: (s, f) => stages.push([s, f]) });
      ort.env.wasm.numThreads = 1;
      const own = await EngineSession.create(ort, loadCheckpoint(configText, [shard]), { graph: { logits: 'all', attention: 'none', presentKv: true } });
      const want = await streamingExperiment(own, text, { window: 24, sink: 3 });
      await own.dispose();
      for (const s of ['window', 'sink', 'full'] as const) {
        assert.equal(got.runs[s].nll.length, 89, s);
        assert.deepEqual(got.runs[s].nll, want.runs[s].nll, `${s}: NLL bit for bit`);
        assert.equal(got.runs[s].perplexityAfterFill, want.runs[s].perplexityAfterFill);
      }
      assert.notDeepEqual(got.runs.window.nll, got.runs.full.nll, 'eviction changed something (the test can fail)');
      assert.deepEqual([got.tokens, got.window, got.sink, got.firstEvictedQuery], [90, 24, 3, 24]);
      assert.equal(got.provider, 'wasm');
      assert.ok(got.buildMs > 0, 'first use builds the session');
      const order = [...new Set(stages.map(([s]) => s))];
      assert.deepEqual(order, ['building', 'window', 'sink', 'full', 'done'], JSON.stringify(stages));
      assert.deepEqual(stages.map(([, f]) => f), [...stages.map(([, f]) => f)].sort((a, b) => a - b), 'fractions never go back');

      // The main session's cache is untouched: same ids, K/V bit for bit, and the next extend continues it.
      assert.deepEqual(c.ids, cached);
      const kvAfter = await c.readKv(2);
      same(kvAfter.k, kvBefore.k, 'K after streaming');
      same(kvAfter.v, kvBefore.v, 'V after streaming');
      assert.equal((await c.extend([7])).pastLength, 20);

      // Second use: the session is reused (no build), the result is the same.
      const again = await c.streaming(text, { window: 24, sink: 3 });
      assert.equal(again.buildMs, 0);
      assert.deepEqual(again.runs.sink.nll, got.runs.sink.nll);

      // Cancel while running: answered 'cancelled' between tokens; the worker then serves the next request.
      const ac = new AbortController();
      let seen = false;
      const long = c.streaming(ids(600, 4), { window: 8, sink: 2 }, { signal: ac.signal, onProgress: (s) => s === 'window' && !seen && ((seen = true), ac.abort()) });
      await rejectsWith(long, 'cancelled');
      assert.ok(seen);
      assert.deepEqual((await c.streaming(text, { window: 24, sink: 3 })).runs.window.nll, got.runs.window.nll);

      // Input checks: as values, before anything runs.
      await rejectsWith(c.streaming(text, { window: 4, sink: 4 }), 'bad_request');
      await rejectsWith(c.streaming([1], { window: 4, sink: 1 }), 'bad_request');
      await rejectsWith(c.streaming([1, 99999], { window: 4, sink: 1 }), 'bad_request');
      await rejectsWith(c.streaming(ids(4097, 1), { window: 4, sink: 1 }), 'bad_request');
      assert.equal(checkRequest({ id: 1, type: 'streaming', ids: [1, 2], window: 2, sink: 1 }).ok, true);
      assert.equal(checkRequest({ id: 1, type: 'streaming', ids: [1, 2], window: 0, sink: 0 }).ok, false);
    } finally {
      c.terminate();
    }
  });
});
