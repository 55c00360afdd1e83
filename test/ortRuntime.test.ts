// scripts/ort-runtime.mjs, which scripts/copy-ort.mjs uses to pick public/ort's files: the names it finds in
// onnxruntime-web's code, and how it resolves the worker's imports (next.config.js's aliases first). No build.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { test } from 'node:test';
import { folderReader, ortSpecifiers, resolveBrowserImport, runtimeClosure, runtimeFilesIn } from '../scripts/ort-runtime.mjs';

const CONFIG = '../next.config.js';
const resolveAlias = async () => ((await import(CONFIG)) as { default: { turbopack?: { resolveAlias?: Record<string, string> } } }).default.turbopack?.resolveAlias ?? {};

test('runtime names: literal names only, not paths, hashed copies or names built at run time', () => {
  assert.deepEqual(runtimeFilesIn('s="ort-wasm-simd-threaded.asyncify.mjs";x=fa+"ort-wasm-simd-threaded.wasm";y="ort-wasm-simd-threaded.wasm"'), [
    'ort-wasm-simd-threaded.asyncify.mjs',
    'ort-wasm-simd-threaded.wasm',
  ]);
  assert.deepEqual(runtimeFilesIn('e.q("/_next/static/media/ort-wasm-simd-threaded.asyncify.0phdreyubz4lg.wasm")'), []);
  assert.deepEqual(runtimeFilesIn('`${e}ort-wasm-simd-threaded${t}.mjs`; name:"ort-wasm-proxy-worker"'), []);
});

test('a runtime .mjs brings in the names it asks for; absent files are reported', () => {
  const files: Record<string, string> = { 'a.mjs': '"ort-wasm-x.wasm"', 'ort-wasm-x.mjs': 'h.locateFile("ort-wasm-x.wasm")', 'ort-wasm-x.wasm': '' };
  const read = (n: string) => files[n];
  assert.deepEqual(runtimeClosure(['ort-wasm-x.mjs'], read), { files: ['ort-wasm-x.mjs', 'ort-wasm-x.wasm'], missing: [] });
  assert.deepEqual(runtimeClosure(['ort-wasm-y.mjs', 'ort-wasm-x.wasm'], read), { files: ['ort-wasm-x.wasm'], missing: ['ort-wasm-y.mjs'] });
});

test('specifiers: value imports of onnxruntime-web, static or dynamic; type imports are not', () => {
  const src = [
    "import type { Ort } from 'onnxruntime-web';",
    "import * as ort from 'onnxruntime-web';",
    "const a = import('onnxruntime-web/webgpu');",
    'const b = want ? import("onnxruntime-web/webgpu") : import("onnxruntime-web/wasm");',
  ].join('\n');
  assert.deepEqual(ortSpecifiers(src), ['onnxruntime-web', 'onnxruntime-web/webgpu', 'onnxruntime-web/wasm']);
});

test("the worker's ORT imports resolve, through next.config.js, to builds that leave the runtime to wasmPaths", async () => {
  const specs = ortSpecifiers(readFileSync('workers/engine.worker.ts', 'utf8'));
  assert.ok(specs.includes('onnxruntime-web/wasm') && specs.includes('onnxruntime-web/webgpu'), specs.join(', '));
  const alias = await resolveAlias();
  for (const spec of specs) {
    const file = resolveBrowserImport(spec, { resolveAlias: alias });
    const text = readFileSync(file, 'latin1');
    const asks = runtimeFilesIn(text);
    // The build names only its glue .mjs; the .wasm is named by the glue, which is loaded from wasmPaths.
    assert.ok(asks.length > 0 && asks.every((n) => n.endsWith('.mjs')), `${spec} → ${basename(file)} asks for ${asks.join(', ')}`);
    assert.ok(!/new URL\("ort-wasm-[^"]*\.wasm",\s*import\.meta\.url\)/.test(text), `${basename(file)} has a bundler-visible .wasm URL`);
    const { files, missing } = runtimeClosure(asks, folderReader(dirname(file)));
    assert.deepEqual(missing, []);
    assert.ok(files.some((f) => f.endsWith('.wasm')), files.join(', '));
    // Without the alias the package's default export is the build that embeds the glue and its .wasm URL.
    const plain = resolveBrowserImport(spec);
    assert.match(basename(plain), /\.bundle\.min\.mjs$/);
    assert.match(readFileSync(plain, 'latin1'), /new URL\("ort-wasm-[^"]*\.wasm",\s*import\.meta\.url\)/);
  }
});
