// The CLI's `--model`: folders as is, repo ids from the Hugging Face cache (huggingface_hub's layout), a
// download into that cache from a fake Hub, offline reuse, and HF_HUB_OFFLINE refusals.
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hubCacheDir, isOffline, isTruthy, progressLine, repoCacheFolder, resolveModelArg } from '../lib/cli/hfCache';
import { readModelFiles } from '../lib/model/source/checkpointFiles';
import { DiskFiles } from '../lib/model/source/disk';
import type { FetchFn } from '../lib/model/source/hub';
import { ModelSourceError, type FileProgress } from '../lib/model/source/types';
import { startFakeHub, writeModelFolder, type FakeHub } from './helpers/fakeHub';

const root = mkdtempSync(join(tmpdir(), 'kvscope-hfcache-'));
after(() => rmSync(root, { recursive: true, force: true }));
const tiny = writeModelFolder(join(root, 'src', 'tiny'), { spec: { family: 'qwen3', seed: 11 } });
const sharded = writeModelFolder(join(root, 'src', 'sharded'), { spec: { family: 'llama', seed: 12 }, shards: 2, generationConfig: false });
writeModelFolder(join(root, 'src', 'gguf'), { ggufOnly: true });
const COMMIT = '0123456789abcdef0123456789abcdef01234567';
const REPOS = {
  'org/tiny': { dir: join(root, 'src', 'tiny'), commit: COMMIT },
  'org/sharded': { dir: join(root, 'src', 'sharded') },
  'org/gguf': { dir: join(root, 'src', 'gguf') },
};

/** A fetch that fails the test if called: proves a lookup stayed in the cache. */
const noNetwork: FetchFn = async (url) => assert.fail(`unexpected fetch of ${url}`);

async function rejectsWith(p: Promise<unknown>, code: string, ...words: string[]): Promise<void> {
  const e = await p.then(() => assert.fail(`expected ${code}`), (x: unknown) => x);
  assert.ok(e instanceof ModelSourceError, String(e));
  assert.equal(e.code, code, e.message);
  for (const w of words) assert.ok(e.message.includes(w), `"${e.message}" lacks ${w}`);
}

let n = 0;
const freshCache = () => join(root, `cache-${++n}`);

describe('where the cache is', () => {
  test('HF_HUB_CACHE, then HF_HOME/hub, then XDG_CACHE_HOME/huggingface/hub, then ~/.cache/huggingface/hub', () => {
    assert.equal(hubCacheDir({ HF_HUB_CACHE: '/a', HF_HOME: '/b' }), '/a');
    assert.equal(hubCacheDir({ HF_HOME: '/b', XDG_CACHE_HOME: '/c' }), '/b/hub');
    assert.equal(hubCacheDir({ HF_HOME: '~/hf' }), join(homedir(), 'hf', 'hub'));
    assert.equal(hubCacheDir({ XDG_CACHE_HOME: '/c' }), '/c/huggingface/hub');
    assert.equal(hubCacheDir({}), join(homedir(), '.cache', 'huggingface', 'hub'));
    assert.equal(repoCacheFolder('/c', 'Qwen/Qwen3-0.6B'), '/c/models--Qwen--Qwen3-0.6B');
  });

  test('offline flags read like huggingface_hub', () => {
    for (const v of ['1', 'true', 'TRUE', 'yes', 'On']) assert.equal(isTruthy(v), true, v);
    for (const v of [undefined, '', '0', 'false', 'no', 'off', '2']) assert.equal(isTruthy(v), false, String(v));
    assert.equal(isOffline({ HF_HUB_OFFLINE: '1' }), true);
    assert.equal(isOffline({ TRANSFORMERS_OFFLINE: 'yes' }), true);
    assert.equal(isOffline({ HF_HUB_OFFLINE: '0' }), false);
  });

  test('progressLine reads as one line', () => {
    const p: FileProgress = { file: 'model.safetensors', loaded: 3 << 20, total: 10 << 20, bytesPerSecond: 1 << 20, etaSeconds: 7, cached: false };
    assert.equal(progressLine(p), 'model.safetensors  3.0 MiB / 10.0 MiB  1.0 MiB/s  7 s left');
    assert.equal(progressLine({ ...p, cached: true, loaded: 10 << 20 }), 'model.safetensors  10.0 MiB (cached)');
  });
});

describe('resolveModelArg', () => {
  let hub: FakeHub;
  before(async () => {
    hub = await startFakeHub({ repos: REPOS, redirectLfs: true });
  });
  after(() => hub.close());

  test('an existing folder is used as is; other text must be a repo id', async () => {
    const dir = join(root, 'src', 'tiny');
    assert.equal(await resolveModelArg(dir, {}, noNetwork), dir);
    // Written as a path: a folder that is not there (never looked up on the Hub).
    await rejectsWith(resolveModelArg(join(root, 'no-such-dir'), {}, noNetwork), 'not_found', 'model folder not found');
    await rejectsWith(resolveModelArg('not a repo', {}, noNetwork), 'bad_repo_id', 'no such folder', 'org/name');
  });

  test('a model downloaded with Python (refs → snapshot symlinks → blobs) is found without the network', async () => {
    const cache = freshCache();
    const repoDir = join(cache, 'models--Qwen--Qwen3-0.6B');
    const snap = join(repoDir, 'snapshots', COMMIT);
    mkdirSync(join(repoDir, 'blobs'), { recursive: true });
    mkdirSync(snap, { recursive: true });
    mkdirSync(join(repoDir, 'refs'), { recursive: true });
    writeFileSync(join(repoDir, 'refs', 'main'), COMMIT + '\n');
    for (const [name, bytes] of Object.entries(tiny)) {
      const sha = createHash('sha256').update(bytes).digest('hex');
      writeFileSync(join(repoDir, 'blobs', sha), bytes);
      symlinkSync(join('..', '..', 'blobs', sha), join(snap, name));
    }
    assert.equal(await resolveModelArg('Qwen/Qwen3-0.6B', { HF_HUB_CACHE: cache }, noNetwork), snap);
    assert.equal(await resolveModelArg('https://huggingface.co/Qwen/Qwen3-0.6B', { HF_HOME: join(cache, '..', 'nope'), HF_HUB_CACHE: cache }, noNetwork), snap);
    // A 40-hex revision is the snapshot folder itself, no ref needed.
    assert.equal(await resolveModelArg(`Qwen/Qwen3-0.6B@${COMMIT}`, { HF_HUB_CACHE: cache, HF_HUB_OFFLINE: '1' }, noNetwork), snap);
    // HF_HOME/hub is the same cache when HF_HUB_CACHE is unset.
    const home = join(root, `home-${++n}`);
    mkdirSync(home);
    symlinkSync(cache, join(home, 'hub'));
    assert.equal(await resolveModelArg('Qwen/Qwen3-0.6B', { HF_HOME: home }, noNetwork), join(home, 'hub', 'models--Qwen--Qwen3-0.6B', 'snapshots', COMMIT));
  });

  test('HF_HUB_OFFLINE refuses a model that is not cached, naming the path looked at', async () => {
    const cache = freshCache();
    await rejectsWith(resolveModelArg('org/tiny', { HF_HUB_CACHE: cache, HF_HUB_OFFLINE: '1' }, noNetwork), 'offline', 'HF_HUB_OFFLINE', join(cache, 'models--org--tiny', 'refs', 'main'));
    // A ref whose snapshot lacks the weights is incomplete: refused too, naming the snapshot and what is missing.
    const repoDir = join(cache, 'models--org--tiny');
    mkdirSync(join(repoDir, 'refs'), { recursive: true });
    mkdirSync(join(repoDir, 'snapshots', COMMIT), { recursive: true });
    writeFileSync(join(repoDir, 'refs', 'main'), COMMIT);
    writeFileSync(join(repoDir, 'snapshots', COMMIT, 'config.json'), tiny['config.json']!);
    await rejectsWith(resolveModelArg('org/tiny', { HF_HUB_CACHE: cache, HF_HUB_OFFLINE: 'true' }, noNetwork), 'offline', join(repoDir, 'snapshots', COMMIT), 'tokenizer.json', 'model.safetensors');
  });

  test('downloads into the cache like huggingface_hub, then reuses it offline without fetching', async () => {
    const cache = freshCache();
    const env = { HF_HUB_CACHE: cache, HF_ENDPOINT: hub.url + '/' };
    const seen: FileProgress[] = [];
    const logs: string[] = [];
    const snap = await resolveModelArg('org/tiny', env, undefined, { onProgress: (p) => seen.push(p), log: (l) => logs.push(l) });
    const repoDir = join(cache, 'models--org--tiny');
    assert.equal(snap, join(repoDir, 'snapshots', COMMIT));
    assert.equal(readFileSync(join(repoDir, 'refs', 'main'), 'utf8'), COMMIT);
    // Weights are symlinks to blobs named by their sha256 (the LFS etag the redirect carried).
    const sha = createHash('sha256').update(tiny['model.safetensors']!).digest('hex');
    assert.ok(lstatSync(join(snap, 'model.safetensors')).isSymbolicLink());
    assert.equal(readlinkSync(join(snap, 'model.safetensors')), join('..', '..', 'blobs', sha));
    assert.deepEqual(new Uint8Array(readFileSync(join(repoDir, 'blobs', sha))), tiny['model.safetensors']);
    // Other files' blobs are named by their ETag (the fake Hub's is a sha1, as git's are), not re-hashed.
    const configSha1 = createHash('sha1').update(tiny['config.json']!).digest('hex');
    assert.equal(readlinkSync(join(snap, 'config.json')), join('..', '..', 'blobs', configSha1));
    // The weights' metadata came from the redirect's X-Linked-* headers: no HEAD went to the CDN.
    assert.ok(hub.stats.requests.some((r) => r.method === 'HEAD' && r.path === '/org/tiny/resolve/main/model.safetensors' && r.status === 302));
    assert.ok(!hub.stats.requests.some((r) => r.method === 'HEAD' && r.path.startsWith('/__cdn/')));
    // The optional README.md the repo lacks is marked as huggingface_hub marks it.
    assert.ok(existsSync(join(repoDir, '.no_exist', COMMIT, 'README.md')));
    assert.ok(!existsSync(join(snap, 'README.md')));
    const m = await readModelFiles(new DiskFiles(snap));
    assert.deepEqual(m.shards[0], tiny['model.safetensors']);
    assert.equal(m.config, new TextDecoder().decode(tiny['config.json']));
    assert.ok(seen.some((p) => p.file === 'model.safetensors' && p.loaded === p.total));
    assert.ok(logs.some((l) => l.includes(hub.url)));

    assert.equal(await resolveModelArg('org/tiny', { ...env, HF_HUB_OFFLINE: '1' }, noNetwork), snap);
    assert.equal(await resolveModelArg('org/tiny', env, noNetwork), snap, 'a complete snapshot needs no network even online');
  });

  test('a sharded repo downloads its index and every shard; a dropped transfer resumes', async () => {
    const cutHub = await startFakeHub({ repos: REPOS, cut: { path: 'model-00002-of-00002.safetensors', afterBytes: 2000, times: 1 } });
    try {
      const cache = freshCache();
      const snap = await resolveModelArg('org/sharded@main', { HF_HUB_CACHE: cache, HF_ENDPOINT: cutHub.url }, undefined, { retryDelayMs: 1 });
      assert.deepEqual(cutHub.stats.requestsFor('model-00002-of-00002.safetensors').filter((r) => r.method === 'GET').map((r) => r.range), [null, 'bytes=2000-']);
      const m = await readModelFiles(new DiskFiles(snap));
      assert.deepEqual(m.shardNames, ['model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors']);
      assert.deepEqual(m.shards, [sharded['model-00001-of-00002.safetensors'], sharded['model-00002-of-00002.safetensors']]);
      assert.equal(m.generationConfig, null);
      assert.ok(existsSync(join(cache, 'models--org--sharded', '.no_exist', createHash('sha1').update('org/sharded').digest('hex'), 'generation_config.json')));
    } finally {
      await cutHub.close();
    }
  });

  test('without X-Repo-Commit the snapshot name is a stable hash of endpoint, repo and revision', async () => {
    const plain = await startFakeHub({ repos: REPOS, noCommitHeader: true });
    try {
      const cache = freshCache();
      const env = { HF_HUB_CACHE: cache, HF_ENDPOINT: plain.url };
      const snap = await resolveModelArg('org/tiny', env);
      const expected = createHash('sha1').update(`${plain.url}\norg/tiny\nmain`).digest('hex');
      assert.equal(snap, join(cache, 'models--org--tiny', 'snapshots', expected));
      assert.equal(await resolveModelArg('org/tiny', { ...env, HF_HUB_OFFLINE: '1' }, noNetwork), snap);
    } finally {
      await plain.close();
    }
  });

  test('repos that are missing or hold no safetensors are refused', async () => {
    const env = { HF_HUB_CACHE: freshCache(), HF_ENDPOINT: hub.url };
    await rejectsWith(resolveModelArg('org/gguf', env), 'unsupported', 'org/gguf@main', 'kvscope reads *.safetensors only');
    await rejectsWith(resolveModelArg('org/missing', env), 'not_found', '--model org/missing: no folder of that name', 'org/missing was not found');
    await rejectsWith(resolveModelArg('org/tiny', { ...env, HF_ENDPOINT: 'ftp://x' }), 'bad_endpoint', 'ftp://x');
  });
});
