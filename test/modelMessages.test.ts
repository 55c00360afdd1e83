// Errors from lib/model and lib/prompt/tokenizer carry a code ('msg.model.*') and parameters, so the page can
// show them in English or Chinese (lib/i18n/message.ts); their English `.message` is what it always was. The
// last test reads the input-facing sources: a plain `new Error(` there would reach the user untranslated.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CodedError, describe, errorData, messageText } from '../lib/i18n/message';
import { ConfigError, parseConfig } from '../lib/model/config';
import { parseSafetensors, SafetensorsError } from '../lib/model/safetensors';
import { shardsFromIndex } from '../lib/model/source/checkpointFiles';
import { FolderFiles } from '../lib/model/source/folder';
import { normaliseEndpoint, parseRepoId } from '../lib/model/source/hub';
import { ModelSourceError } from '../lib/model/source/types';
import { createTokenizer, TokenizerError } from '../lib/prompt/tokenizer';

const HAN = /\p{Script=Han}/u;

function thrown(f: () => unknown): CodedError {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof CodedError, `not a CodedError: ${String(e)}`);
    return e;
  }
  assert.fail('did not throw');
}

/** The English is the error's message; the Chinese is worded and keeps the parameters and the place. */
function bilingual(e: CodedError, english: string | RegExp, ...kept: string[]): string {
  assert.match(e.key, /^msg\.model\./);
  if (typeof english === 'string') assert.equal(e.message, english);
  else assert.match(e.message, english);
  assert.equal(messageText('en', e), e.message);
  const zh = describe('zh', e);
  assert.match(zh, HAN, zh);
  for (const k of kept) assert.ok(zh.includes(k), `${zh} lacks ${k}`);
  // Across a worker (postMessage), the plain data still words it.
  assert.equal(describe('zh', structuredClone(errorData(e))), zh);
  return zh;
}

test('ConfigError: "config.json: " and the key, in both languages', () => {
  const e = thrown(() => parseConfig({ model_type: 'qwen3', hidden_size: 64, num_attention_heads: 4, num_key_value_heads: 3 }));
  assert.ok(e instanceof ConfigError);
  assert.equal(e.name, 'ConfigError');
  const zh = bilingual(e, 'config.json: num_attention_heads (4) must be a multiple of num_key_value_heads (3)', 'config.json', 'num_attention_heads', '4', '3');
  assert.equal(zh, 'config.json：num_attention_heads（4）必须是 num_key_value_heads（3）的整数倍');
  bilingual(thrown(() => parseConfig({ model_type: 'gpt2' })), /^config\.json: unsupported architecture \(model_type "gpt2"\); supported: qwen3/, 'gpt2', 'Qwen3ForCausalLM');
});

test('SafetensorsError: "safetensors: " first, tensor names kept', () => {
  const header = new TextEncoder().encode(JSON.stringify({ w: { dtype: 'I8', shape: [2], data_offsets: [0, 2] } }));
  const bytes = new Uint8Array(8 + header.length + 2);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(header.length), true);
  bytes.set(header, 8);
  const e = thrown(() => parseSafetensors(bytes));
  assert.ok(e instanceof SafetensorsError);
  assert.equal(e.name, 'SafetensorsError');
  bilingual(e, 'safetensors: w: unsupported dtype "I8" (supported: F32, F16, BF16)', 'safetensors', 'w', '"I8"');
});

test('TokenizerError keeps file and path; the place is shown before the text', () => {
  const e = thrown(() => createTokenizer({ model: { type: 'BPE', vocab: [] } }, {}));
  assert.ok(e instanceof TokenizerError);
  assert.equal(e.name, 'TokenizerError');
  assert.equal(e.file, 'tokenizer.json');
  assert.equal(e.path, 'model.vocab');
  assert.equal(bilingual(e, 'tokenizer.json: model.vocab: expected an object of token → id, got a list'), 'tokenizer.json: model.vocab：应为 token → id 的对象，实际为 a list');
});

test('ModelSourceError: code and facts kept in params; Hub ids, endpoints, indexes and folders worded', () => {
  const repo = thrown(() => parseRepoId('https://huggingface.co/datasets/a/b'));
  assert.ok(repo instanceof ModelSourceError);
  assert.equal(repo.code, 'bad_repo_id');
  bilingual(repo, /^"https:\/\/huggingface\.co\/datasets\/a\/b" is not a Hub model repository \(that is a dataset, not a model\): expected `org\/name`/, '数据集');
  const ep = thrown(() => normaliseEndpoint('ftp://mirror'));
  assert.equal((ep as ModelSourceError).code, 'bad_endpoint');
  bilingual(ep, 'Hub endpoint "ftp://mirror" uses ftp; expected an http(s) URL such as https://huggingface.co or https://hf-mirror.com.', 'ftp://mirror');
  const folder = new FolderFiles([], 'my-model');
  const idx = thrown(() => shardsFromIndex('{"weight_map": {"a": "../x.safetensors"}}', folder));
  assert.equal((idx as ModelSourceError).params.key, 'a');
  bilingual(idx, 'model.safetensors.index.json in folder my-model: weight_map["a"] is "../x.safetensors", not a plain *.safetensors file name in the same folder.', '../x.safetensors');
  // The CLI's own English sentences stay as they are.
  const plain = ModelSourceError.plain('offline', 'HF_HUB_OFFLINE is set.', { repo: 'a/b' });
  assert.equal(plain.message, 'HF_HUB_OFFLINE is set.');
  assert.equal(plain.params.repo, 'a/b');
});

test('input-facing model code throws coded errors only (plain Errors are for invariants only a bug reaches)', () => {
  const files = [
    'lib/model/config.ts',
    'lib/model/safetensors.ts',
    'lib/model/checkpoint.ts',
    'lib/model/lazyBytes.ts',
    'lib/model/embedded.ts',
    'lib/model/fetchModel.ts',
    'lib/model/source/checkpointFiles.ts',
    'lib/model/source/folder.ts',
    'lib/model/source/disk.ts',
    'lib/model/source/hub.ts',
    'lib/model/source/open.ts',
    'lib/model/source/browserCache.ts',
    'lib/prompt/tokenizer.ts',
  ];
  for (const f of files) {
    const src = readFileSync(f, 'utf8');
    assert.doesNotMatch(src, /new (Range|Type)?Error\(/, `${f} throws a plain Error`);
  }
  // preflight: only the caller's own option check; everything about a checkpoint is a reason with a message.
  const pre = readFileSync('lib/model/preflight.ts', 'utf8').match(/new (Range|Type)?Error\(/g) ?? [];
  assert.equal(pre.length, 1);
});
