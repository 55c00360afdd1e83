// Model choices as the store keeps them (embedded id, `hub:org/name@rev`, `folder:label`), the runtime choice
// and the Load plan after preflight, the load line's number formats, reasons and errors in both languages, and
// picked folders.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  addRecent,
  canonicalModelChoice,
  cleanFolderLabel,
  formatModelChoice,
  hubChoice,
  loadPlan,
  modelDisplayName,
  parseModelChoice,
  resolveProvider,
  sanitizeEndpoint,
  sanitizeRecent,
} from '../lib/state/modelChoice';
import type { PreflightReason } from '../lib/model/preflight';
import { ModelSourceError } from '../lib/model/source/types';
import { describe, errorData, message } from '../lib/i18n/message';
import { isAbort, reasonSentence } from '../components/models/reasonText';
import { normaliseEntries, registerFolder, registeredFolder, workerFiles } from '../components/models/folderRegistry';
import { formatDuration, formatRate, progressParts } from '../components/models/progressText';

test('parseModelChoice: embedded ids, Hub repos with revisions, folders; anything else is null', () => {
  assert.deepEqual(parseModelChoice('kvscope-tiny'), { kind: 'embedded', id: 'kvscope-tiny' });
  assert.deepEqual(parseModelChoice('hub:Qwen/Qwen3-0.6B'), { kind: 'hub', repo: 'Qwen/Qwen3-0.6B', revision: 'main' });
  assert.deepEqual(parseModelChoice('hub:Qwen/Qwen3-0.6B@refs/pr/12'), { kind: 'hub', repo: 'Qwen/Qwen3-0.6B', revision: 'refs/pr/12' });
  assert.deepEqual(parseModelChoice('folder:  my model\n'), { kind: 'folder', label: 'my model' });
  for (const bad of ['gpt-5', '', 'hub:', 'hub:Qwen', 'hub:a/b/c', 'hub:a/b@', 'hub:a/b@x..y', 'hub:https://huggingface.co/a/b', 'folder:', 'folder: \t', 42, null, undefined]) {
    assert.equal(parseModelChoice(bad), null, String(bad));
  }
});

test('formatModelChoice round-trips and always writes the revision', () => {
  assert.equal(canonicalModelChoice('hub:Qwen/Qwen3-0.6B'), 'hub:Qwen/Qwen3-0.6B@main');
  assert.equal(canonicalModelChoice('hub: Qwen/Qwen3-0.6B@v2 '), 'hub:Qwen/Qwen3-0.6B@v2');
  assert.equal(hubChoice('HuggingFaceTB/SmolLM2-135M-Instruct'), 'hub:HuggingFaceTB/SmolLM2-135M-Instruct@main');
  for (const id of ['kvscope-tiny-sink', 'hub:a/b@main', 'folder:x y']) assert.equal(formatModelChoice(parseModelChoice(id)!), id);
  assert.equal(canonicalModelChoice('nope'), null);
  assert.equal(cleanFolderLabel('x'.repeat(300))!.length, 200);
});

test('modelDisplayName: repo without @main, with other revisions; the folder label; unknown text as is', () => {
  assert.equal(modelDisplayName('hub:Qwen/Qwen3-0.6B@main'), 'Qwen/Qwen3-0.6B');
  assert.equal(modelDisplayName('hub:Qwen/Qwen3-0.6B@abc123'), 'Qwen/Qwen3-0.6B@abc123');
  assert.equal(modelDisplayName('folder:my-qwen'), 'my-qwen');
  assert.equal(modelDisplayName('kvscope-tiny'), 'kvscope-tiny');
  assert.equal(modelDisplayName('??'), '??');
});

test('resolveProvider: auto follows the adapter; an explicit choice stands', () => {
  assert.equal(resolveProvider('auto', true), 'webgpu');
  assert.equal(resolveProvider('auto', false), 'wasm');
  assert.equal(resolveProvider('webgpu', false), 'webgpu');
  assert.equal(resolveProvider('wasm', true), 'wasm');
});

test('sanitizeEndpoint and the recent list', () => {
  assert.equal(sanitizeEndpoint('https://hf-mirror.com//'), 'https://hf-mirror.com');
  assert.equal(sanitizeEndpoint('http://127.0.0.1:8080/hub/'), 'http://127.0.0.1:8080/hub');
  assert.equal(sanitizeEndpoint('file:///etc'), 'https://huggingface.co');
  assert.equal(sanitizeEndpoint(3), 'https://huggingface.co');
  assert.deepEqual(sanitizeRecent('x'), []);
  assert.deepEqual(addRecent(['hub:a/b@main', 'hub:c/d@main'], 'hub:c/d@main'), ['hub:c/d@main', 'hub:a/b@main']);
  assert.equal(addRecent(Array.from({ length: 8 }, (_, i) => `hub:o/m${i}@main`), 'hub:n/n@main').length, 8);
});

test('progress text: rate, time left as a clock, bytes of total', () => {
  assert.equal(formatDuration(0), '0:00');
  assert.equal(formatDuration(7.4), '0:08');
  assert.equal(formatDuration(725), '12:05');
  assert.equal(formatDuration(3723), '1:02:03');
  assert.equal(formatRate(1.5 * 1024 * 1024), '1.5 MiB/s');
  assert.deepEqual(progressParts({ file: 'model.safetensors', loaded: 512 * 1024 ** 2, total: 1536 * 1024 ** 2, bytesPerSecond: 8 * 1024 ** 2, etaSeconds: 128, cached: false }), {
    file: 'model.safetensors',
    loaded: '512 MiB',
    total: '1.5 GiB',
    rate: '8 MiB/s',
    eta: '2:08',
    percent: '33%',
  });
  const unknown = progressParts({ file: 'a', loaded: 10, total: null, bytesPerSecond: 0, etaSeconds: null, cached: false });
  assert.equal(unknown.total, null);
  assert.equal(unknown.rate, null);
  assert.equal(unknown.eta, null);
  assert.equal(unknown.percent, null);
});

test('loadPlan: the resolved runtime when it can run it, else the other one, else refused with the reasons', () => {
  const r = (code: string, level: 'fail' | 'warn' | 'info') => ({ code, level, params: {}, text: code }) as PreflightReason;
  const report = (wasm: boolean, webgpu: boolean, supported = true) => ({
    supported,
    refusals: supported ? [] : [r('quantized', 'fail'), r('supported', 'fail')],
    verdicts: {
      wasm: { ok: wasm, reasons: [wasm ? r('wasm_fits', 'info') : r('wasm_too_large', 'fail')], maxTokens: wasm ? 2048 : null },
      webgpu: { ok: webgpu, reasons: [webgpu ? r('webgpu_tensor_fits', 'info') : r('webgpu_unavailable', 'fail')], maxTokens: webgpu ? 2048 : null },
    },
  });
  assert.deepEqual(loadPlan(report(true, true), 'auto', true), { ok: true, provider: 'webgpu', switchTo: null });
  assert.deepEqual(loadPlan(report(true, false), 'auto', false), { ok: true, provider: 'wasm', switchTo: null });
  assert.deepEqual(loadPlan(report(false, true), 'wasm', true), { ok: true, provider: 'webgpu', switchTo: 'webgpu' });
  assert.deepEqual(loadPlan(report(true, false), 'webgpu', true), { ok: true, provider: 'wasm', switchTo: 'wasm' });
  // WebGPU chosen in a browser without an adapter: the worker would fall back anyway; the plan says so.
  assert.deepEqual(loadPlan(report(true, true), 'webgpu', false), { ok: true, provider: 'wasm', switchTo: 'wasm' });
  const tooBig = loadPlan(report(false, false), 'auto', false);
  assert.equal(tooBig.ok, false);
  assert.deepEqual(!tooBig.ok && tooBig.reasons.map((x) => x.code), ['wasm_too_large']);
  const refused = loadPlan(report(true, true, false), 'auto', true);
  assert.deepEqual(!refused.ok && refused.reasons.map((x) => x.code), ['quantized', 'supported']);
});

test('reasons and source errors: the English sentence as lib/model wrote it; other languages from the message', () => {
  const fit: PreflightReason = {
    code: 'wasm_too_large',
    level: 'fail',
    params: { tokens: 1024, bytes: 5 * 1024 ** 3, budget: 3.5 * 1024 ** 3, heap: 4 * 1024 ** 3, margin: 512 * 1024 ** 2, maxTokens: 900 },
    message: message('msg.model.pf.wasmTooLarge', { tokens: '1,024', bytes: '5 GiB', budget: '3.5 GiB', heap: '4 GiB', margin: '512 MiB', maxTokens: '900' }),
    text: 'English as written',
  };
  assert.equal(reasonSentence('en', fit), 'English as written');
  assert.equal(reasonSentence('zh', fit), '1,024 个 token 时 WASM 堆约需 5 GiB，超过 3.5 GiB（4 GiB 的 WASM 堆减去 512 MiB 余量）；最多可容纳 900 个 token。');
  // A refusal that wraps an error (a header that cannot be read) shows that error's message, its place first.
  const corrupt: PreflightReason = { code: 'header_corrupt', level: 'fail', params: {}, message: message('msg.model.st.headerTooLong', { length: 1e9, max: 104857600 }, 'a.safetensors: safetensors'), text: '' };
  assert.equal(reasonSentence('zh', corrupt), 'a.safetensors: safetensors：文件头长度 1000000000 超过 104857600 字节');

  const gated = new ModelSourceError('gated', 'msg.model.hub.gated', { repo: 'Qwen/Gated', status: 401, url: 'https://huggingface.co/Qwen/Gated/resolve/main/config.json', file: 'config.json', revision: 'main' });
  assert.match(describe('en', gated), /^Qwen\/Gated answered HTTP 401 at https:.*huggingface-cli download Qwen\/Gated/);
  assert.equal(describe('en', gated), gated.message);
  assert.match(describe('zh', gated), /^Qwen\/Gated 在 https:\S+ 返回 HTTP 401：.*huggingface-cli download Qwen\/Gated/);
  assert.equal(gated.params.status, 401);
  const missing = new ModelSourceError('not_found', 'msg.model.src.folderMissing', { name: 'x', file: 'tokenizer.json' });
  assert.equal(missing.message, 'The folder x has no file tokenizer.json.');
  assert.equal(describe('zh', missing), '文件夹 x 中没有文件 tokenizer.json。');
  // Through a worker the error is plain data: its message survives.
  assert.equal(describe('zh', errorData(missing)), '文件夹 x 中没有文件 tokenizer.json。');
  assert.equal(describe('zh', new Error('plain')), 'plain');
  assert.equal(isAbort(new ModelSourceError('aborted', 'msg.model.src.readCancelled', { file: 'x' })), true);
  assert.equal(isAbort(new DOMException('x', 'AbortError')), true);
  assert.equal(isAbort(gated), false);
});

test('picked folders: the shared top folder is stripped; the worker gets the top-level files only', () => {
  const f = (name: string) => ({ name, size: 1, slice: () => ({ arrayBuffer: async () => new ArrayBuffer(1) }), arrayBuffer: async () => new ArrayBuffer(1), text: async () => '' });
  const { entries, top } = normaliseEntries([
    { path: 'my-qwen/config.json', file: f('config.json') },
    { path: 'my-qwen\\model.safetensors', file: f('model.safetensors') },
    { path: 'my-qwen/original/params.json', file: f('params.json') },
  ]);
  assert.equal(top, 'my-qwen');
  assert.deepEqual(entries.map((e) => e.path), ['config.json', 'model.safetensors', 'original/params.json']);
  const reg = registerFolder('my-qwen', entries);
  assert.equal(registeredFolder('my-qwen'), reg);
  assert.deepEqual(workerFiles(reg).map((x) => x.name), ['config.json', 'model.safetensors']);
  const again = registerFolder('my-qwen', entries.slice(0, 1));
  assert.ok(again.generation > reg.generation, 'picking the same folder again is a new load');
  assert.equal(registerFolder('other', []) && registeredFolder('my-qwen'), null, 'one folder at a time');
});
