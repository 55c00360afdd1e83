// lib/generate/genForm.ts: the generation form's fields, from generation_config.json and back.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { formFromSettings, MAX_NEW_TOKENS_LIMIT, readGenForm } from '../lib/generate/genForm';
import { parseGenerationConfig } from '../lib/generate/sampling';

const cfg = parseGenerationConfig(readFileSync('public/models/kvscope-tiny/generation_config.json', 'utf8'));

test('the embedded generation_config fills the form and reads back unchanged', () => {
  const f = formFromSettings(cfg, 42, 64);
  assert.deepEqual(f, { mode: 'sample', temperature: '0.6', topK: '20', topP: '0.95', seed: '42', maxNewTokens: '64' });
  const r = readGenForm(f, cfg.eosIds);
  assert.ok(r.ok);
  assert.deepEqual(r.sampling, cfg);
  assert.equal(r.seed, 42);
  assert.equal(r.maxNewTokens, 64);
  const g = readGenForm({ ...f, mode: 'greedy' }, [1]);
  assert.ok(g.ok && g.sampling.doSample === false && g.sampling.eosIds[0] === 1);
});

test('bad fields are named, all at once', () => {
  const f = formFromSettings(cfg, 1, 10);
  const r = readGenForm({ ...f, temperature: '0', topK: '2.5', topP: '1.5', seed: '-1', maxNewTokens: String(MAX_NEW_TOKENS_LIMIT + 1) }, []);
  assert.deepEqual(r, { ok: false, errors: ['temperature', 'topK', 'topP', 'seed', 'maxNewTokens'] });
  assert.deepEqual(readGenForm({ ...f, temperature: '', seed: 'abc' }, []), { ok: false, errors: ['temperature', 'seed'] });
  assert.deepEqual(readGenForm({ ...f, maxNewTokens: '0' }, []), { ok: false, errors: ['maxNewTokens'] });
  assert.ok(readGenForm({ ...f, topK: '0', topP: '1', seed: String(0xffffffff) }, []).ok);
});
