// Hub sources against a loopback fake Hub: repo ids, endpoints, progress, resume after a cut, 404 / 401
// messages, range reads, the blob cache (a reload fetches nothing), sharded checkpoints and refusals.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCheckpoint } from '../lib/model/checkpoint';
import { browserBlobCache, CACHE_NAME, deleteCachedModel, listCachedModels, type CacheLike, type CacheStorageLike } from '../lib/model/source/browserCache';
import { readModelFiles, weightFiles } from '../lib/model/source/checkpointFiles';
import { DEFAULT_ENDPOINT, HubFiles, hubFileUrl, normaliseEndpoint, parseRepoId, RateMeter, type BlobCache } from '../lib/model/source/hub';
import { ModelSourceError, type FileProgress } from '../lib/model/source/types';
import { startFakeHub, writeModelFolder, type FakeHub } from './helpers/fakeHub';

const root = mkdtempSync(join(tmpdir(), 'kvscope-hub-'));
const files = {
  tiny: writeModelFolder(join(root, 'tiny'), { spec: { family: 'qwen3', seed: 3 } }),
  sharded: writeModelFolder(join(root, 'sharded'), { spec: { family: 'qwen3', seed: 3 }, shards: 2 }),
};
writeModelFolder(join(root, 'gguf'), { ggufOnly: true });
writeModelFolder(join(root, 'bin'), { ggufOnly: true });
writeFileSync(join(root, 'bin', 'pytorch_model.bin'), 'not really torch');
const REPOS = {
  'org/tiny': { dir: join(root, 'tiny') },
  'org/sharded': { dir: join(root, 'sharded'), revision: 'v2', commit: 'a'.repeat(40) },
  'org/gated': { dir: join(root, 'tiny'), gated: true },
  'org/gguf': { dir: join(root, 'gguf') },
  'org/bin': { dir: join(root, 'bin') },
};
after(() => rmSync(root, { recursive: true, force: true }));

/** Errors are checked by code and by the words a user needs to see. */
async function rejectsWith(p: Promise<unknown>, code: string, ...words: (string | RegExp)[]): Promise<ModelSourceError> {
  const e = await p.then(
    () => assert.fail(`expected a ${code} error`),
    (err: unknown) => err,
  );
  assert.ok(e instanceof ModelSourceError, `not a ModelSourceError: ${String(e)}`);
  assert.equal(e.code, code, e.message);
  for (const w of words) assert.ok(typeof w === 'string' ? e.message.includes(w) : w.test(e.message), `"${e.message}" lacks ${String(w)}`);
  return e;
}

function throwsWith(f: () => unknown, code: string, ...words: string[]): void {
  assert.throws(f, (e: unknown) => {
    assert.ok(e instanceof ModelSourceError);
    assert.equal(e.code, code, e.message);
    for (const w of words) assert.ok(e.message.includes(w), `"${e.message}" lacks ${w}`);
    return true;
  });
}

describe('repo ids and endpoints', () => {
  test('parseRepoId accepts ids, revisions and Hub URLs', () => {
    assert.deepEqual(parseRepoId('Qwen/Qwen3-0.6B'), { repo: 'Qwen/Qwen3-0.6B', revision: 'main' });
    assert.deepEqual(parseRepoId('  HuggingFaceTB/SmolLM2-135M-Instruct@v1.0 '), { repo: 'HuggingFaceTB/SmolLM2-135M-Instruct', revision: 'v1.0' });
    assert.deepEqual(parseRepoId('Qwen/Qwen2.5-0.5B-Instruct@refs/pr/3'), { repo: 'Qwen/Qwen2.5-0.5B-Instruct', revision: 'refs/pr/3' });
    assert.deepEqual(parseRepoId('https://huggingface.co/Qwen/Qwen3-0.6B'), { repo: 'Qwen/Qwen3-0.6B', revision: 'main', endpoint: 'https://huggingface.co' });
    assert.deepEqual(parseRepoId('https://huggingface.co/Qwen/Qwen3-0.6B/tree/c1899de2'), { repo: 'Qwen/Qwen3-0.6B', revision: 'c1899de2', endpoint: 'https://huggingface.co' });
    assert.deepEqual(parseRepoId('https://hf-mirror.com/Qwen/Qwen3-0.6B/tree/refs%2Fpr%2F1'), { repo: 'Qwen/Qwen3-0.6B', revision: 'refs/pr/1', endpoint: 'https://hf-mirror.com' });
    assert.deepEqual(parseRepoId('https://huggingface.co/Qwen/Qwen3-0.6B/blob/main/config.json').revision, 'main');
    assert.deepEqual(parseRepoId('https://huggingface.co/models/a_b/c.d').repo, 'a_b/c.d');
    assert.equal(parseRepoId(`${'o'.repeat(96)}/${'n'.repeat(96)}`).repo.length, 193);
  });

  test('parseRepoId refuses everything else with a sentence naming the accepted forms', () => {
    for (const bad of [
      '', 'Qwen', 'a/b/c', '-org/name', 'org/name-', '.org/name', 'org/na..me', 'org/na me', `org/${'x'.repeat(97)}`, 'org/name@',
      'org/name@a b', 'org/name@../x', 'ftp://huggingface.co/a/b', 'https://huggingface.co/datasets/a/b', 'https://huggingface.co/Qwen',
      'https://u:p@huggingface.co/a/b', 'https://huggingface.co/a/b/commits/main', 'org\\name',
    ]) {
      throwsWith(() => parseRepoId(bad), 'bad_repo_id', '`org/name`', '`org/name@revision`', 'https://huggingface.co/Qwen/Qwen3-0.6B');
    }
    throwsWith(() => parseRepoId('https://huggingface.co/spaces/a/b'), 'bad_repo_id', 'Space');
  });

  test('normaliseEndpoint keeps http(s) URLs, strips trailing slashes and refuses the rest', () => {
    assert.equal(normaliseEndpoint(undefined), DEFAULT_ENDPOINT);
    assert.equal(normaliseEndpoint('  '), 'https://huggingface.co');
    assert.equal(normaliseEndpoint('https://hf-mirror.com/'), 'https://hf-mirror.com');
    assert.equal(normaliseEndpoint('http://127.0.0.1:8080//'), 'http://127.0.0.1:8080');
    assert.equal(normaliseEndpoint('https://example.com/hub/'), 'https://example.com/hub');
    for (const bad of ['ftp://x.org', 'huggingface.co', 'https://u:p@x.com', 'https://x.com/?a=1', 'https://x.com/#f', 'javascript:alert(1)']) {
      throwsWith(() => normaliseEndpoint(bad), 'bad_endpoint', 'https://hf-mirror.com');
    }
  });

  test('hubFileUrl encodes the revision as one segment and each file segment', () => {
    assert.equal(hubFileUrl('https://h.co', 'a/b', 'refs/pr/1', 'onnx/model q.onnx'), 'https://h.co/a/b/resolve/refs%2Fpr%2F1/onnx/model%20q.onnx');
    assert.equal(hubFileUrl('https://h.co', 'a/b', 'main', 'config.json'), 'https://h.co/a/b/resolve/main/config.json');
  });

  test('RateMeter smooths over a 3 s window', () => {
    const m = new RateMeter();
    assert.equal(m.add(0, 0), 0);
    assert.equal(m.add(1000, 1000), 1000);
    assert.equal(m.add(2000, 3000), 1500);
    assert.equal(m.add(3000, 6000), 2000);
    // At t = 5 s the window starts at 2 s: (10000 − 3000) / 3 s.
    assert.equal(Math.round(m.add(5000, 10000)), 2333);
  });
});

describe('HubFiles against a fake Hub', () => {
  let hub: FakeHub;
  before(async () => {
    hub = await startFakeHub({ repos: REPOS });
  });
  after(() => hub.close());
  const open = (repo: string, o: Partial<ConstructorParameters<typeof HubFiles>[0]> = {}) => new HubFiles({ repo, endpoint: hub.url + '/', retryDelayMs: 1, progressIntervalMs: 0, ...o });

  test('size, text, range and bytes read the served files exactly', async () => {
    const h = open('org/tiny');
    assert.equal(h.label, 'org/tiny@main');
    const weights = files.tiny['model.safetensors']!;
    assert.equal(await h.size('model.safetensors'), weights.length);
    assert.equal(await h.size('nope.bin'), null);
    assert.equal(await h.text('config.json'), new TextDecoder().decode(files.tiny['config.json']));
    assert.equal(await h.text('README.md'), null);
    assert.deepEqual(await h.range('model.safetensors', 0, 8), weights.slice(0, 8));
    assert.deepEqual(await h.range('model.safetensors', 100, 1100), weights.slice(100, 1100));
    assert.equal(hub.stats.requestsFor('model.safetensors').filter((r) => r.range === 'bytes=100-1099').length, 1);
    assert.equal(h.commit?.length, 40);
    const seen: FileProgress[] = [];
    const got = await h.bytes('model.safetensors', (p) => seen.push(p));
    assert.deepEqual(got, weights);
    assert.ok(seen.length >= 2);
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i]!.loaded >= seen[i - 1]!.loaded, 'progress goes backwards');
    assert.ok(seen.every((p) => p.total === weights.length && p.file === 'model.safetensors' && !p.cached));
    assert.equal(seen.at(-1)!.loaded, weights.length);
  });

  test('a transfer cut twice mid-body resumes with Range requests and assembles the exact file', async () => {
    const cutHub = await startFakeHub({ repos: REPOS, cut: { path: 'org/tiny/resolve/main/model.safetensors', afterBytes: 5000, times: 2 } });
    try {
      const seen: FileProgress[] = [];
      const h = new HubFiles({ repo: 'org/tiny', endpoint: cutHub.url, retryDelayMs: 1, progressIntervalMs: 0 });
      const got = await h.bytes('model.safetensors', (p) => seen.push(p));
      assert.deepEqual(got, files.tiny['model.safetensors']);
      const gets = cutHub.stats.requestsFor('model.safetensors').filter((r) => r.method === 'GET');
      assert.deepEqual(gets.map((r) => r.range), [null, 'bytes=5000-', 'bytes=10000-']);
      assert.deepEqual(gets.map((r) => r.status), [200, 206, 206]);
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i]!.loaded >= seen[i - 1]!.loaded);
      assert.equal(seen.at(-1)!.loaded, files.tiny['model.safetensors']!.length);
    } finally {
      await cutHub.close();
    }
  });

  test('resume works through an LFS-style redirect, and gives up after the retries with a network error', async () => {
    const cutHub = await startFakeHub({ repos: REPOS, redirectLfs: true, cut: { path: 'model.safetensors', afterBytes: 3000, times: 1 } });
    try {
      const h = new HubFiles({ repo: 'org/tiny', endpoint: cutHub.url, retryDelayMs: 1 });
      assert.equal(await h.size('model.safetensors'), files.tiny['model.safetensors']!.length);
      assert.deepEqual(await h.bytes('model.safetensors'), files.tiny['model.safetensors']);
      assert.ok(cutHub.stats.requests.some((r) => r.path.startsWith('/__cdn/') && r.range === 'bytes=3000-' && r.status === 206));
    } finally {
      await cutHub.close();
    }
    const always = await startFakeHub({ repos: REPOS, cut: { path: 'model.safetensors', afterBytes: 10, times: 100 } });
    try {
      const h = new HubFiles({ repo: 'org/tiny', endpoint: always.url, retries: 2, retryDelayMs: 1 });
      await rejectsWith(h.bytes('model.safetensors'), 'network', `${always.url}/org/tiny/resolve/main/model.safetensors`, '2 resumed attempts');
      assert.equal(always.stats.requestsFor('model.safetensors').length, 3);
    } finally {
      await always.close();
    }
  });

  test('a server that ignores Range: range() slices the whole body, a cut download restarts from zero', async () => {
    const plain = await startFakeHub({ repos: REPOS, noRanges: true, cut: { path: 'model.safetensors', afterBytes: 4000, times: 1 } });
    try {
      const h = new HubFiles({ repo: 'org/tiny', endpoint: plain.url, retryDelayMs: 1 });
      assert.deepEqual(await h.bytes('model.safetensors'), files.tiny['model.safetensors']);
      assert.deepEqual(await h.range('model.safetensors', 10, 20), files.tiny['model.safetensors']!.slice(10, 20));
    } finally {
      await plain.close();
    }
  });

  test('404s name the repo, revision and file; a gated repo explains the token-free way out', async () => {
    await rejectsWith(open('org/tiny').bytes('missing.safetensors'), 'not_found', 'org/tiny@main', 'missing.safetensors', '404');
    await rejectsWith(open('org/unknown').bytes('config.json'), 'not_found', 'org/unknown was not found');
    // A missing file is null for size() and text(); a missing repo or revision is an error there too.
    await rejectsWith(open('org/unknown').size('config.json'), 'not_found', 'org/unknown was not found');
    await rejectsWith(open('org/unknown').text('config.json'), 'not_found', 'org/unknown was not found');
    await rejectsWith(open('org/tiny', { revision: 'nope' }).size('config.json'), 'not_found', 'no revision "nope"');
    await rejectsWith(open('org/tiny', { revision: 'nope' }).bytes('config.json'), 'not_found', 'no revision "nope"');
    const e = await rejectsWith(open('org/gated').bytes('config.json'), 'gated', 'gated or private', 'does not send Hub tokens', 'huggingface-cli download org/gated', 'open the folder');
    assert.equal(e.params.status, 401);
    await rejectsWith(open('org/gated').size('config.json'), 'gated');
    await rejectsWith(open('org/tiny', { endpoint: 'http://127.0.0.1:1' }).text('config.json'), 'network', 'http://127.0.0.1:1/org/tiny/resolve/main/config.json');
  });

  test('an abort mid-download rejects with aborted', async () => {
    const ac = new AbortController();
    const h = open('org/tiny');
    await rejectsWith(
      h.bytes('model.safetensors', (p) => p.loaded > 0 && ac.abort(), ac.signal),
      'aborted',
      'model.safetensors',
    );
    const pre = new AbortController();
    pre.abort();
    await rejectsWith(h.range('model.safetensors', 0, 8, pre.signal), 'aborted');
  });

  test('sharded checkpoints load through the index; the result equals the single-file checkpoint', async () => {
    const h = open('org/sharded', { revision: 'v2' });
    assert.deepEqual(await weightFiles(h), ['model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors']);
    const seen = new Set<string>();
    const m = await readModelFiles(h, (p) => seen.add(p.file));
    assert.deepEqual([...seen], m.shardNames);
    assert.deepEqual(m.shards[1], files.sharded['model-00002-of-00002.safetensors']);
    assert.equal(m.readme, null);
    assert.deepEqual(m.generationConfig, { temperature: 0.7, top_p: 0.9 });
    assert.equal((m.tokenizerConfig as { tokenizer_class?: unknown }) !== null, true);
    const sharded = loadCheckpoint(m.config, m.shards);
    const single = loadCheckpoint(new TextDecoder().decode(files.tiny['config.json']), [files.tiny['model.safetensors']!]);
    const name = 'model.layers.1.self_attn.k_proj.weight';
    assert.deepEqual(sharded.get(name), single.get(name));
    // The commit hash resolves too.
    assert.equal(await open('org/sharded', { revision: 'a'.repeat(40) }).size('model.safetensors.index.json'), files.sharded['model.safetensors.index.json']!.length);
  });

  test('repositories without safetensors are refused, naming what they hold', async () => {
    await rejectsWith(weightFiles(open('org/gguf')), 'unsupported', 'org/gguf@main', 'kvscope reads *.safetensors only');
    await rejectsWith(weightFiles(open('org/bin')), 'unsupported', 'pytorch_model.bin', 'kvscope reads *.safetensors only');
    await rejectsWith(readModelFiles(open('org/gguf')), 'unsupported', 'model.gguf');
  });
});

/** Cache Storage in memory: what the page's `caches` does, for the parts kvscope uses. */
function memoryCacheStorage(): CacheStorageLike & { names: string[] } {
  const stores = new Map<string, Map<string, { body: Uint8Array; headers: [string, string][] }>>();
  return {
    names: [],
    async open(name) {
      if (!stores.has(name)) {
        stores.set(name, new Map());
        this.names.push(name);
      }
      const s = stores.get(name)!;
      const cache: CacheLike = {
        async match(url) {
          const e = s.get(url);
          return e ? new Response(e.body.slice() as Uint8Array<ArrayBuffer>, { headers: e.headers }) : undefined;
        },
        async put(url, res) {
          s.set(url, { body: new Uint8Array(await res.arrayBuffer()), headers: [...res.headers] });
        },
        async delete(url) {
          return s.delete(url);
        },
        async keys() {
          return [...s.keys()].map((url) => ({ url }));
        },
      };
      return cache;
    },
  };
}

describe('blob cache', () => {
  let hub: FakeHub;
  before(async () => {
    hub = await startFakeHub({ repos: REPOS });
  });
  after(() => hub.close());

  test('a reload through the browser cache fetches nothing: no weight bytes, no config or tokenizer', async () => {
    const storage = memoryCacheStorage();
    const first = new HubFiles({ repo: 'org/sharded', revision: 'v2', endpoint: hub.url, cache: browserBlobCache(storage) });
    const a = await readModelFiles(first);
    assert.deepEqual(storage.names, [CACHE_NAME]);
    const weightBytes = () => hub.stats.bytesFor('.safetensors');
    assert.equal(weightBytes(), a.shards.reduce((n, s) => n + s.length, 0));

    hub.stats.reset();
    const seen: FileProgress[] = [];
    const reload = new HubFiles({ repo: 'org/sharded', revision: 'v2', endpoint: hub.url, cache: browserBlobCache(storage) });
    const b = await readModelFiles(reload, (p) => seen.push(p));
    assert.deepEqual(b.shards, a.shards);
    assert.equal(b.config, a.config);
    assert.equal(weightBytes(), 0);
    // Only the optional files the repo lacks (README.md) are asked for again.
    assert.deepEqual(hub.stats.requests.map((r) => r.path), ['/org/sharded/resolve/v2/README.md']);
    assert.deepEqual(seen.map((p) => [p.file, p.cached, p.loaded === p.total]), b.shardNames.map((n) => [n, true, true]));
    // Preflight on a reload: sizes and header ranges come from the cache too.
    assert.equal(await reload.size('model-00001-of-00002.safetensors'), a.shards[0]!.length);
    assert.deepEqual(await reload.range('model-00001-of-00002.safetensors', 0, 8), a.shards[0]!.slice(0, 8));
    assert.equal(hub.stats.requests.length, 1);
  });

  test('listCachedModels groups files by model; deleteCachedModel removes one model only', async () => {
    const storage = memoryCacheStorage();
    const cache = browserBlobCache(storage);
    await readModelFiles(new HubFiles({ repo: 'org/tiny', endpoint: hub.url, cache }));
    await readModelFiles(new HubFiles({ repo: 'org/sharded', revision: 'v2', endpoint: hub.url, cache }));
    const list = await listCachedModels(storage);
    assert.deepEqual(list.map((m) => [m.endpoint, m.repo, m.revision]), [[hub.url, 'org/sharded', 'v2'], [hub.url, 'org/tiny', 'main']]);
    const tiny = list[1]!;
    assert.deepEqual(tiny.files.map((f) => f.name), ['config.json', 'generation_config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json']);
    assert.equal(tiny.files.find((f) => f.name === 'model.safetensors')!.bytes, files.tiny['model.safetensors']!.length);
    assert.equal(tiny.bytes, Object.entries(files.tiny).reduce((n, [, b]) => n + b.length, 0));
    assert.equal(await deleteCachedModel(hub.url, 'org/tiny', 'main', storage), 5);
    assert.deepEqual((await listCachedModels(storage)).map((m) => m.repo), ['org/sharded']);
    hub.stats.reset();
    await new HubFiles({ repo: 'org/tiny', endpoint: hub.url, cache }).bytes('model.safetensors');
    assert.equal(hub.stats.bytesFor('model.safetensors'), files.tiny['model.safetensors']!.length);
  });

  test('without Cache Storage the cache is a no-op; a failing cache does not fail the load', async () => {
    assert.deepEqual(await listCachedModels(null), []);
    assert.equal(await deleteCachedModel('x', 'a/b', 'main', null), 0);
    const none = browserBlobCache(null);
    await none.put('http://x/a', new Uint8Array([1]));
    assert.equal(await none.get('http://x/a'), null);
    const broken: BlobCache = { get: async () => null, put: async () => Promise.reject(new Error('QuotaExceededError')) };
    const got = await new HubFiles({ repo: 'org/tiny', endpoint: hub.url, cache: broken }).bytes('model.safetensors');
    assert.deepEqual(got, files.tiny['model.safetensors']);
  });
});

test('HubFiles takes the revision from `org/name@rev` unless one is given', () => {
  assert.equal(new HubFiles({ repo: 'a/b@v1', endpoint: 'http://127.0.0.1:9' }).label, 'a/b@v1');
  assert.equal(new HubFiles({ repo: 'a/b@v1', revision: 'v2', endpoint: 'http://127.0.0.1:9' }).url('x/y z.json'), 'http://127.0.0.1:9/a/b/resolve/v2/x/y%20z.json');
  assert.equal(new HubFiles({ repo: 'a/b' }).url('config.json'), 'https://huggingface.co/a/b/resolve/main/config.json');
});

test('injected fetch: 401 RepoNotFound, HEAD refused (size from a one-byte range GET), 5xx retried', async () => {
  const calls: { url: string; method: string; range: string | null }[] = [];
  const body = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  let fails = 1;
  const fake = async (url: string, init?: RequestInit): Promise<Response> => {
    const range = new Headers(init?.headers).get('range');
    calls.push({ url, method: init?.method ?? 'GET', range });
    if (url.includes('/private/')) return new Response('no', { status: 401, headers: { 'x-error-code': 'RepoNotFound' } });
    if (init?.method === 'HEAD') return new Response(null, { status: 405 });
    if (range === 'bytes=0-0') return new Response(body.slice(0, 1), { status: 206, headers: { 'content-range': 'bytes 0-0/10' } });
    if (fails-- > 0) return new Response('busy', { status: 503 });
    return new Response(body, { status: 200, headers: { 'content-length': '10' } });
  };
  await rejectsWith(new HubFiles({ repo: 'org/private', fetch: fake }).size('config.json'), 'not_found', 'org/private was not found', 'kvscope does not send Hub tokens');
  const h = new HubFiles({ repo: 'org/x', fetch: fake, retryDelayMs: 1 });
  assert.equal(await h.size('model.safetensors'), 10);
  assert.deepEqual(calls.slice(-2).map((c) => [c.method, c.range]), [['HEAD', null], ['GET', 'bytes=0-0']]);
  assert.deepEqual(await h.bytes('model.safetensors'), body);
  assert.equal(calls.filter((c) => c.method === 'GET' && c.range === null).length, 2, 'the 503 is retried once');
});
