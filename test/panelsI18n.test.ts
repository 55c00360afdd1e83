// Every interface string table in lib/i18n (all areas, merged in STRINGS): both languages present,
// the same {parameters} in both, Chinese text wherever the English has words to translate, and no key
// defined by two area tables (a spread merge would silently keep only one of them).
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { LANGS, STRINGS, translate, type Entry, type StringKey } from '../lib/i18n';

const entries = Object.entries(STRINGS) as [StringKey, Entry][];
const params = (s: string) => [...new Set([...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!))].sort();

/**
 * Words that stay as they are in Chinese technical text: units, product and format names, identifiers.
 * Compared case-insensitively. An English string made only of these (and symbols, numbers, parameters)
 * may be identical in Chinese.
 */
const KEPT = new Set(
  ['ms', 'px', 'kb', 'mb', 'gb', 'kib', 'mib', 'gib', 'id', 'json', 'onnx', 'wasm', 'webgpu', 'gpu', 'cpu', 'kv', 'api', 'url', 'openai', 'qwen', 'utf'].map((w) => w.toLowerCase()),
);
const HAN = /\p{Script=Han}/u;

test('the string tables are not empty', () => {
  assert.ok(entries.length > 0);
});

test('every string has non-empty English and Chinese text', () => {
  const bad = entries.filter(([, e]) => LANGS.some((l) => typeof e[l] !== 'string' || e[l].trim() === '')).map(([k]) => k);
  assert.deepEqual(bad, [], `empty or missing text: ${bad.join(', ')}`);
});

test('English and Chinese use the same {parameters}', () => {
  const bad = entries.filter(([, e]) => params(e.en).join() !== params(e.zh).join()).map(([k, e]) => `${k}: en {${params(e.en)}} zh {${params(e.zh)}}`);
  assert.deepEqual(bad, [], bad.join('\n'));
});

test('Chinese text is translated wherever the English has words (symbols, units and kept names aside)', () => {
  const bad = entries
    .filter(([, e]) => {
      const words = e.en.replace(/\{\w+\}/g, ' ').match(/[A-Za-z]{2,}/g) ?? [];
      const translatable = words.filter((w) => !KEPT.has(w.toLowerCase()));
      return translatable.length > 0 && (!HAN.test(e.zh) || e.zh === e.en);
    })
    .map(([k, e]) => `${k}: ${JSON.stringify(e.zh)}`);
  assert.deepEqual(bad, [], `untranslated:\n${bad.join('\n')}`);
});

test('translate fills every parameter in both languages', () => {
  for (const [k, e] of entries) {
    const names = params(e.en);
    if (names.length === 0) continue;
    const values = Object.fromEntries(names.map((n, i) => [n, `<${i}>`]));
    for (const lang of LANGS) {
      const out = translate(lang, k, values);
      assert.doesNotMatch(out, /\{\w+\}/, `${lang} ${k}: ${out}`);
      for (const v of Object.values(values)) assert.ok(out.includes(v), `${lang} ${k} lacks ${v}: ${out}`);
    }
  }
});

test('each key is defined by exactly one area table, and index.ts merges every table', async () => {
  const dir = join(import.meta.dirname, '..', 'lib', 'i18n');
  const owners = new Map<string, string[]>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'index.ts' && f !== 'types.ts')) {
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as Record<string, unknown>;
    for (const [name, table] of Object.entries(mod)) {
      if (!table || typeof table !== 'object' || Array.isArray(table)) continue;
      for (const key of Object.keys(table)) owners.set(key, [...(owners.get(key) ?? []), `${file}:${name}`]);
    }
  }
  const twice = [...owners].filter(([, o]) => o.length > 1).map(([k, o]) => `${k} in ${o.join(' and ')}`);
  assert.deepEqual(twice, [], `keys defined twice:\n${twice.join('\n')}`);
  const unmerged = [...owners.keys()].filter((k) => !(k in STRINGS));
  assert.deepEqual(unmerged, [], `keys in a table that index.ts does not merge: ${unmerged.join(', ')}`);
});
