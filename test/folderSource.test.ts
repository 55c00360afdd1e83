// Folder sources: files picked with <input webkitdirectory>, a directory handle, dropped entries (all as
// structural fakes of the browser objects), and a folder on disk for the CLI; plus the refusals that
// checkpointFiles gives for folders without usable safetensors weights.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { loadCheckpoint } from '../lib/model/checkpoint';
import { readModelFiles, weightFiles } from '../lib/model/source/checkpointFiles';
import { DiskFiles } from '../lib/model/source/disk';
import { FolderFiles, filesFromDirectoryHandle, filesFromDroppedEntries, stripCommonFolder, type DirectoryHandleLike, type DroppedEntryLike, type FileHandleLike, type FileLike } from '../lib/model/source/folder';
import { ModelSourceError, type FileProgress, type ModelFiles } from '../lib/model/source/types';
import { writeModelFolder } from './helpers/fakeHub';

const root = mkdtempSync(join(tmpdir(), 'kvscope-folder-'));
after(() => rmSync(root, { recursive: true, force: true }));
const model = writeModelFolder(join(root, 'my-model'), { spec: { family: 'llama', seed: 5 } });
const sharded = writeModelFolder(join(root, 'sharded'), { spec: { family: 'qwen2', seed: 6, attentionBias: true }, shards: 3 });

/** A browser File in memory, counting how many bytes were read through it. */
class FakeFile implements FileLike {
  read = 0;
  constructor(readonly name: string, private readonly data: Uint8Array, readonly webkitRelativePath = '') {}
  get size() {
    return this.data.length;
  }
  slice(a = 0, b = this.data.length) {
    const part = this.data.slice(a, b);
    return { arrayBuffer: async () => ((this.read += part.length), part.buffer as ArrayBuffer) };
  }
  async arrayBuffer() {
    this.read += this.data.length;
    return this.data.slice().buffer as ArrayBuffer;
  }
  async text() {
    return new TextDecoder().decode(this.data);
  }
}

const pickedFiles = (top: string, contents: Record<string, Uint8Array>) => Object.entries(contents).map(([n, b]) => new FakeFile(n.split('/').pop()!, b, `${top}/${n}`));

async function rejectsWith(p: Promise<unknown>, code: string, ...words: string[]): Promise<void> {
  const e = await p.then(() => assert.fail(`expected ${code}`), (x: unknown) => x);
  assert.ok(e instanceof ModelSourceError, String(e));
  assert.equal(e.code, code, e.message);
  for (const w of words) assert.ok(e.message.includes(w), `"${e.message}" lacks ${w}`);
}

test('stripCommonFolder strips whole shared folders only', () => {
  assert.deepEqual(stripCommonFolder(['m/config.json', 'm/model.safetensors']), { top: 'm', strip: 1 });
  assert.deepEqual(stripCommonFolder(['a/b/config.json', 'a/b/onnx/x.onnx']), { top: 'b', strip: 2 });
  assert.deepEqual(stripCommonFolder(['config.json', 'model.safetensors']), { top: null, strip: 0 });
  assert.deepEqual(stripCommonFolder(['m/config.json', 'n/config.json']), { top: null, strip: 0 });
  assert.deepEqual(stripCommonFolder([]), { top: null, strip: 0 });
});

test('a folder picked with webkitdirectory reads as a model: paths stripped, checkpoint loads, progress reported', async () => {
  const picked = pickedFiles('my-model', model);
  const f = new FolderFiles(picked);
  assert.equal(f.label, 'folder my-model');
  assert.equal(f.kind, 'folder');
  assert.deepEqual(await f.list(), Object.keys(model).sort());
  assert.equal(await f.size('model.safetensors'), model['model.safetensors']!.length);
  assert.equal(await f.size('my-model/config.json'), null);
  const weights = picked.find((p) => p.name === 'model.safetensors')!;
  assert.deepEqual(await f.range('model.safetensors', 0, 8), model['model.safetensors']!.slice(0, 8));
  assert.equal(weights.read, 8, 'a header read must not read the whole file');
  const seen: FileProgress[] = [];
  const m = await readModelFiles(f, (p) => seen.push(p));
  assert.deepEqual(m.shardNames, ['model.safetensors']);
  assert.deepEqual(m.shards[0], model['model.safetensors']);
  assert.equal(loadCheckpoint(m.config, m.shards).config.modelType, 'llama');
  assert.deepEqual(seen.map((p) => [p.file, p.loaded, p.total, p.cached]), [
    ['model.safetensors', 0, weights.size, false],
    ['model.safetensors', weights.size, weights.size, false],
  ]);
  await rejectsWith(f.bytes('nope.bin'), 'not_found', 'folder my-model', 'nope.bin');
});

test('a directory handle (showDirectoryPicker) is walked with subfolders; dot-folders skipped', async () => {
  const fileHandle = (name: string, data: Uint8Array): FileHandleLike => ({ kind: 'file', name, getFile: async () => new FakeFile(name, data) });
  const dir = (name: string, children: (DirectoryHandleLike | FileHandleLike)[]): DirectoryHandleLike => ({
    kind: 'directory',
    name,
    async *values() {
      yield* children;
    },
  });
  const handle = dir('sharded', [
    ...Object.entries(sharded).map(([n, b]) => fileHandle(n, b)),
    dir('.git', [fileHandle('HEAD', new Uint8Array(3))]),
    dir('onnx', [fileHandle('model.onnx', new Uint8Array(4))]),
  ]);
  const entries = await filesFromDirectoryHandle(handle);
  assert.deepEqual(entries.map((e) => e.path).sort(), [...Object.keys(sharded), 'onnx/model.onnx'].sort());
  const f = new FolderFiles(entries, handle.name);
  assert.equal(f.label, 'folder sharded');
  const m = await readModelFiles(f);
  assert.equal(m.shards.length, 3);
  const ck = loadCheckpoint(m.config, m.shards);
  assert.equal(ck.config.modelType, 'qwen2');
  assert.ok(ck.tensors.has('model.layers.0.self_attn.q_proj.bias'));
});

test('dropped entries (a dropped folder) are read in readEntries batches', async () => {
  const fileEntry = (name: string, data: Uint8Array): DroppedEntryLike => ({ isFile: true, isDirectory: false, name, file: (ok) => ok(new FakeFile(name, data)) });
  const children = Object.entries(model).map(([n, b]) => fileEntry(n, b));
  const folder: DroppedEntryLike = {
    isFile: false,
    isDirectory: true,
    name: 'my-model',
    createReader() {
      const batches = [children.slice(0, 2), children.slice(2), []];
      return { readEntries: (ok) => ok(batches.shift() ?? []) };
    },
  };
  const entries = await filesFromDroppedEntries([folder]);
  assert.deepEqual(entries.map((e) => e.path).sort(), Object.keys(model).map((n) => `my-model/${n}`).sort());
  const f = new FolderFiles(entries);
  assert.equal(f.label, 'folder my-model');
  assert.deepEqual(await weightFiles(f), ['model.safetensors']);
});

const folderOf = (contents: Record<string, Uint8Array | string>) =>
  new FolderFiles(Object.entries(contents).map(([n, b]) => new FakeFile(n, typeof b === 'string' ? new TextEncoder().encode(b) : b, `bad/${n}`)));

test('folders without safetensors weights are refused, naming what they hold', async () => {
  const base = { 'config.json': model['config.json']!, 'tokenizer.json': model['tokenizer.json']!, 'tokenizer_config.json': model['tokenizer_config.json']! };
  await rejectsWith(weightFiles(folderOf({ ...base, 'qwen3-0.6b-q8_0.gguf': 'GGUF' })), 'unsupported', 'folder bad', 'qwen3-0.6b-q8_0.gguf', 'kvscope reads *.safetensors only');
  await rejectsWith(weightFiles(folderOf({ ...base, 'pytorch_model.bin': 'x' })), 'unsupported', 'pytorch_model.bin', '*.safetensors only');
  await rejectsWith(readModelFiles(folderOf(base)), 'unsupported', 'has no model.safetensors');
  for (const [map, word] of [
    [{ a: '../evil.safetensors' }, '../evil.safetensors'],
    [{ a: 'sub/x.safetensors' }, 'sub/x.safetensors'],
    [{ a: 'x.bin' }, 'x.bin'],
    [{ a: 3 }, 'weight_map["a"] is not a file name'],
    [[], 'no weight_map object'],
    [{}, 'empty weight_map'],
  ] as const) {
    await rejectsWith(weightFiles(folderOf({ ...base, 'model.safetensors.index.json': JSON.stringify({ weight_map: map }) })), 'unsupported', word);
  }
  await rejectsWith(weightFiles(folderOf({ ...base, 'model.safetensors.index.json': '{oops' })), 'unsupported', 'model.safetensors.index.json in folder bad is not valid JSON');
});

test('missing or broken required files get errors naming the file', async () => {
  const w = { 'model.safetensors': model['model.safetensors']! };
  await rejectsWith(readModelFiles(folderOf({ ...w, 'tokenizer.json': '{}', 'tokenizer_config.json': '{}' })), 'not_found', 'no config.json');
  await rejectsWith(readModelFiles(folderOf({ ...w, 'config.json': '{}', 'tokenizer.model': 'sp', 'tokenizer_config.json': '{}' })), 'not_found', 'tokenizer.json', 'tokenizer.model');
  await rejectsWith(readModelFiles(folderOf({ ...w, 'config.json': '{}', 'tokenizer.json': '{}' })), 'not_found', 'tokenizer_config.json');
  await rejectsWith(readModelFiles(folderOf({ ...w, 'config.json': '{}', 'tokenizer.json': '{x', 'tokenizer_config.json': '{}' })), 'unsupported', 'tokenizer.json in folder bad is not valid JSON');
});

test('DiskFiles reads a folder on disk: ranges without whole-file reads, progress, list, no escaping the folder', async () => {
  const dir = join(root, 'my-model');
  writeFileSync(join(root, 'secret.txt'), 'outside');
  const d: ModelFiles & { list(): Promise<string[]> } = new DiskFiles(dir);
  assert.equal(d.kind, 'disk');
  assert.equal(d.label, dir);
  assert.deepEqual(await d.list(), Object.keys(model).sort());
  assert.equal(await d.size('model.safetensors'), model['model.safetensors']!.length);
  assert.equal(await d.size('nope'), null);
  assert.equal(await d.text('nope'), null);
  assert.deepEqual(await d.range('model.safetensors', 8, 40), model['model.safetensors']!.slice(8, 40));
  assert.equal((await d.range('config.json', 0, 1e9)).length, model['config.json']!.length);
  const seen: FileProgress[] = [];
  assert.deepEqual(await d.bytes('model.safetensors', (p) => seen.push(p)), new Uint8Array(readFileSync(join(dir, 'model.safetensors'))));
  assert.deepEqual(seen.at(-1)!.loaded, model['model.safetensors']!.length);
  assert.equal(await d.size('../secret.txt'), null);
  await rejectsWith(d.bytes('../secret.txt'), 'not_found');
  await rejectsWith(d.bytes('/etc/passwd'), 'not_found');
  const m = await readModelFiles(d);
  assert.deepEqual(m.generationConfig, { temperature: 0.7, top_p: 0.9 });
});
