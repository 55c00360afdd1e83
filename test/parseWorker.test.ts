// The parse worker (lib/io/parseHost on a worker thread, lib/io/parseClient on this side): its outcomes equal
// lib/io/importData's and parseRunLog's on the main thread (the seed run log as text and as bytes, an
// attention .safetensors file, bytes that are not UTF-8); bytes are decoded in chunks with progress; a cancel
// between chunks stops the job and keeps the worker; a cancel inside one long JSON.parse terminates the
// worker and the job queued behind it still completes on a new one; a worker that dies fails its job with
// a clear error and the next job starts a new one; one that never starts says so (the page then reads on the
// main thread); a malformed message is answered with an error. A run log crosses in columns
// (lib/io/packedRunLog) and is rebuilt equal, in slices.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { importData } from '../lib/io/importData';
import { writeKvscopeAttention } from '../lib/io/attention/index';
import { ParseCancelledError, ParseClient, ParseStartError, ParseWorkerError, type JobProgress } from '../lib/io/parseClient';
import { serveParse } from '../lib/io/parseHost';
import { isToParser, type FromParser } from '../lib/io/parseProtocol';
import { packedBuffers, packRunLog, unpackRunLog, UNPACK_SLICE } from '../lib/io/packedRunLog';
import { parseRunLog, type RunLog } from '../lib/io/runlog';
import { startNodeWorker, type NodeWorkerHandle } from './helpers/nodeWorker';

const ENTRY = new URL('./helpers/parseWorkerNode.ts', import.meta.url);
const SEED = readFileSync('test/fixtures/runlog/translation-single-agent.page.txt', 'utf8');

function client(chunkBytes?: number, cancelGraceMs?: number): { c: ParseClient; handles: NodeWorkerHandle[] } {
  const handles: NodeWorkerHandle[] = [];
  const c = new ParseClient(
    () => {
      const h = startNodeWorker(ENTRY, { chunkBytes });
      handles.push(h);
      return h;
    },
    { cancelGraceMs },
  );
  return { c, handles };
}

/** A run log of `n` calls as one JSON text (22 MB at 100,000 calls: about a second of JSON.parse). */
function bigRunLog(n: number): string {
  const calls = Array.from({ length: n }, (_, i) => ({ agent: `A${i % 3}`, prompt_tokens: i, completion_tokens: 5, note: 'x'.repeat(150) }));
  return JSON.stringify({ tracker_calls: calls });
}

test('outcomes equal the main thread’s: seed as text and bytes (decoded in chunks, with progress), runlog kind, attention, not UTF-8', async () => {
  const { c } = client(16 * 1024);
  try {
    const bytes = new TextEncoder().encode(SEED);
    const progress: JobProgress[] = [];
    const viaBytes = await c.parseImport(bytes, null, { onProgress: (p) => progress.push(p) });
    assert.deepEqual(viaBytes, importData(bytes));
    assert.equal(viaBytes.ok && viaBytes.kind === 'runlog' && viaBytes.log.calls.length, 26);
    const decode = progress.filter((p) => p.stage === 'decode');
    assert.equal(decode.length, Math.ceil(bytes.byteLength / (16 * 1024)));
    assert.deepEqual(decode.at(-1), { stage: 'decode', done: bytes.byteLength, total: bytes.byteLength });
    assert.ok(decode.every((p, i) => i === 0 || p.done > decode[i - 1]!.done), 'decode progress only grows');
    assert.deepEqual(progress.at(-1), { stage: 'parse', done: 0, total: bytes.byteLength });

    assert.deepEqual(await c.parseImport(SEED, null), importData(SEED));
    assert.deepEqual(await c.parseRunLog(SEED), parseRunLog(SEED));
    assert.deepEqual(await c.parseRunLog(bytes), parseRunLog(SEED));

    const T = 5;
    const data = new Float32Array(2 * T * T);
    for (let h = 0; h < 2; h++) for (let q = 0; q < T; q++) for (let k = 0; k <= q; k++) data[(h * T + q) * T + k] = 1 / (q + 1);
    const st = writeKvscopeAttention({ source: 'kvscope-attention', tokens: ['a', 'b', 'c', 'd', 'e'], layers: [{ layer: 0, label: 'layer 0', heads: 2, queries: T, keys: T, data, queryPositions: [0, 1, 2, 3, 4] }], meta: {}, notes: [], calls: [] }, 'safetensors');
    const att = await c.parseImport(st, 'attention');
    assert.deepEqual(att, importData(st, 'attention'));
    assert.ok(att.ok && att.kind === 'attention' && att.attention.layers[0]!.data instanceof Float32Array);

    const bad = new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
    assert.deepEqual(await c.parseImport(bad, null), importData(bad));
    assert.deepEqual(await c.parseRunLog(bad), { ok: false, error: 'not UTF-8 text', coded: { key: 'msg.import.parse.notUtf8' } });

  } finally {
    c.dispose();
  }
});

test('a cancel between decode chunks stops the job and keeps the worker', async () => {
  const { c } = client(64 * 1024);
  try {
    const bytes = new TextEncoder().encode(bigRunLog(20_000)); // ~4.4 MB: about 70 chunks
    const ac = new AbortController();
    let chunks = 0;
    const job = c.parseImport(bytes, null, { signal: ac.signal, onProgress: (p) => p.stage === 'decode' && ++chunks === 3 && ac.abort() });
    await assert.rejects(job, ParseCancelledError);
    assert.equal(chunks, 3);
    const after = await c.parseImport(SEED, null);
    assert.equal(after.ok, true);
    assert.equal(c.started, 1, 'the same worker serves the next job');
    // Already aborted: rejected at once, nothing sent.
    await assert.rejects(c.parseImport(SEED, null, { signal: AbortSignal.abort() }), ParseCancelledError);
  } finally {
    c.dispose();
  }
});

test('a cancel inside one long JSON.parse terminates the worker; the job queued behind it completes on a new one', async () => {
  // A 20 ms grace: the worker is still inside JSON.parse of 22 MB (hundreds of ms) when it runs out.
  const { c, handles } = client(undefined, 20);
  try {
    const big = bigRunLog(100_000);
    const ac = new AbortController();
    const t0 = Date.now();
    const slow = c.parseImport(big, null, { signal: ac.signal, onProgress: (p) => p.stage === 'parse' && ac.abort() });
    const next = c.parseImport(SEED, null);
    await assert.rejects(slow, ParseCancelledError);
    const r = await next;
    assert.deepEqual(r, importData(SEED));
    assert.equal(c.started, 2, 'a new worker took over');
    assert.equal(handles.length, 2);
    assert.ok(Date.now() - t0 < 20_000);
  } finally {
    c.dispose();
  }
});

test('a worker that dies fails its job with a clear error; the next job starts a new worker', async () => {
  const { c, handles } = client();
  try {
    const job = c.parseImport(bigRunLog(100_000), null, { onProgress: (p) => p.stage === 'parse' && void handles[0]!.raw.terminate() });
    await assert.rejects(job, (e: Error) => e instanceof ParseWorkerError && !(e instanceof ParseStartError) && /the parser stopped/.test(e.message));
    assert.deepEqual(await c.parseImport(SEED, null), importData(SEED));
    assert.equal(c.started, 2);
  } finally {
    c.dispose();
  }
});

test('a worker that cannot start (the factory throws, or it dies before answering) gives ParseStartError', async () => {
  const throwing = new ParseClient(() => {
    throw new Error('blocked by the page’s policy');
  });
  await assert.rejects(throwing.parseImport(SEED, null), (e: Error) => e instanceof ParseStartError && /could not start \(blocked/.test(e.message));
  const missing = new ParseClient(() => startNodeWorker(new URL('./helpers/noSuchWorker.ts', import.meta.url)));
  await assert.rejects(missing.parseImport(SEED, null), ParseStartError);
  missing.dispose();
});

test('the host answers a malformed message with an error and checks requests strictly', async () => {
  const sent: FromParser[] = [];
  let listener: ((e: { data: unknown }) => void) | undefined;
  serveParse({ postMessage: (m) => void sent.push(m as FromParser), addEventListener: (_t, l) => void (listener = l) });
  listener!({ data: { type: 'parse', id: 7, kind: 'import', input: 42, hint: null } });
  listener!({ data: null });
  assert.deepEqual(sent, [
    { type: 'error', id: 7, message: 'not a parse request' },
    { type: 'error', id: -1, message: 'not a parse request' },
  ]);
  assert.equal(isToParser({ type: 'parse', id: 1, kind: 'import', input: 'x', hint: 'nonsense' }), false);
  assert.equal(isToParser({ type: 'parse', id: 1.5, kind: 'runlog', input: 'x' }), false);
  assert.equal(isToParser({ type: 'cancel', id: 3 }), true);
  listener!({ data: { type: 'parse', id: 8, kind: 'runlog', input: '[{"prompt_tokens": 1, "completion_tokens": 2}]' } });
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(sent.slice(2).map((m) => m.type), ['progress', 'result']);
});

test('the host stops a job at the next chunk when a cancel comes, and skips a queued job that was cancelled', async () => {
  const sent: FromParser[] = [];
  let listener: ((e: { data: unknown }) => void) | undefined;
  const send = (data: unknown) => listener!({ data });
  serveParse(
    {
      postMessage: (m) => {
        sent.push(m as FromParser);
        // The first progress report of job 1: cancel it (it is between chunks now), and job 2 before it starts.
        if (sent.length === 1) {
          send({ type: 'cancel', id: 1 });
          send({ type: 'cancel', id: 2 });
        }
      },
      addEventListener: (_t, l) => void (listener = l),
    },
    { chunkBytes: 1024 },
  );
  const bytes = new TextEncoder().encode(SEED); // 208 chunks of 1 KiB
  send({ type: 'parse', id: 1, kind: 'import', input: bytes, hint: null });
  send({ type: 'parse', id: 2, kind: 'import', input: SEED, hint: null });
  send({ type: 'parse', id: 3, kind: 'runlog', input: SEED });
  for (let i = 0; i < 200 && !sent.some((m) => m.id === 3 && m.type === 'result'); i++) await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(
    sent.map((m) => `${m.id}:${m.type}${m.type === 'progress' ? `:${m.stage}:${m.done}` : ''}`),
    ['1:progress:decode:1024', '1:cancelled', '2:cancelled', '3:progress:parse:0', '3:result'],
  );
});

test('a run log packed in columns and rebuilt in slices equals the original, odd strings included', async () => {
  const seed = parseRunLog(SEED);
  assert.ok(seed.ok);
  assert.deepStrictEqual(await unpackRunLog(packRunLog(seed.log)), seed.log);
  const odd: RunLog = {
    mode: 'orchestration',
    mainContextPeak: 7,
    agents: ['A', '\u0000', '😀'],
    calls: [
      { agent: 'A', promptTokens: 1, completionTokens: 0, note: '', latencySeconds: 0 },
      { agent: '\u0000', promptTokens: 2, completionTokens: 1, note: 'a\u0000b\ud800', provider: '\udfff', model: 'm', outcome: 'x' },
      { agent: '😀', promptTokens: 1e12, completionTokens: 3, outcome: '' },
      { agent: 'A', promptTokens: 4, completionTokens: 4, note: '😀😀', latencySeconds: 1.5 },
      { agent: 'A', promptTokens: 5, completionTokens: 5, note: 'long '.repeat(5000) }, // 25,000 units: several pieces
    ],
  };
  const packed = packRunLog(odd);
  assert.equal(packedBuffers(packed).length, 12);
  assert.deepStrictEqual(await unpackRunLog(structuredClone(packed)), odd);
  // Two slices and one call: three slices, two pauses between them.
  const many: RunLog = { agents: ['A'], calls: Array.from({ length: 2 * UNPACK_SLICE + 1 }, (_, i) => ({ agent: 'A', promptTokens: i, completionTokens: 1 })) };
  let pauses = 0;
  assert.deepStrictEqual(await unpackRunLog(packRunLog(many), async () => void pauses++), many);
  assert.equal(pauses, 2);
});
