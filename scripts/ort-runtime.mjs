// Which onnxruntime-web runtime files (ort-wasm-*.mjs / ort-wasm-*.wasm) a piece of JavaScript asks for, and
// where a bare `onnxruntime-web/...` import lands the way the app's bundler resolves it (next.config.js's
// turbopack.resolveAlias first, then the package's "exports" with browser conditions). Shared by
// scripts/copy-ort.mjs (what to copy into public/ort) and the tests of the built site (what out/ort must hold).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * A runtime file name as it appears in onnxruntime-web's code: "ort-wasm-simd-threaded.asyncify.mjs",
 * "ort-wasm-simd-threaded.wasm". A name inside a path or URL (a bundler's hashed copy,
 * "/_next/static/media/ort-wasm-simd-threaded.asyncify.0phdreyubz4lg.wasm") and names built at run time
 * (`ort-wasm-simd-threaded${t}.mjs`) do not match.
 */
const RUNTIME_NAME = /(?<![\w/.-])ort-wasm-[a-z0-9-]+(?:\.[a-z0-9]+)*?\.(?:wasm|mjs)\b/g;

/** The runtime file names `text` contains, sorted, each once. */
export function runtimeFilesIn(text) {
  return [...new Set(text.match(RUNTIME_NAME) ?? [])].sort();
}

/**
 * `names` plus every runtime file a named .mjs asks for in turn (the Emscripten glue names its .wasm).
 * `read(name)` returns a runtime file's text, or undefined when there is no such file; those are `missing`.
 */
export function runtimeClosure(names, read) {
  const files = new Set();
  const missing = new Set();
  const queue = [...names];
  while (queue.length) {
    const name = queue.shift();
    if (files.has(name) || missing.has(name)) continue;
    if (!name.endsWith('.mjs')) {
      if (read(name) === undefined) missing.add(name);
      else files.add(name);
      continue;
    }
    const text = read(name);
    if (text === undefined) {
      missing.add(name);
      continue;
    }
    files.add(name);
    queue.push(...runtimeFilesIn(text));
  }
  return { files: [...files].sort(), missing: [...missing].sort() };
}

/** A reader for runtimeClosure over a folder: the text of `dir/name`, or undefined when it is absent. */
export function folderReader(dir) {
  return (name) => {
    const p = join(dir, name);
    return existsSync(p) ? readFileSync(p, 'latin1') : undefined;
  };
}

/** The `onnxruntime-web[/sub]` specifiers a source file imports as values (static or `import()`), in order. */
export function ortSpecifiers(source) {
  const specs = [];
  const re = /\bimport\(\s*['"](onnxruntime-web(?:\/[\w.-]+)?)['"]\s*\)|^\s*import\s+(?!type\b)[^'";]*?\bfrom\s+['"](onnxruntime-web(?:\/[\w.-]+)?)['"]/gm;
  for (const m of source.matchAll(re)) {
    const spec = m[1] ?? m[2];
    if (!specs.includes(spec)) specs.push(spec);
  }
  return specs;
}

/** Picks a target from a package.json "exports" value under `conditions` (in the value's own key order). */
function pickExport(value, conditions) {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    for (const v of value) {
      const hit = pickExport(v, conditions);
      if (hit) return hit;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === 'default' || conditions.includes(key)) {
        const hit = pickExport(v, conditions);
        if (hit) return hit;
      }
    }
  }
  return undefined;
}

/** The conditions Turbopack resolves a browser chunk's `import` with (no custom ones are configured). */
export const BROWSER_CONDITIONS = ['browser', 'import', 'module', 'production'];

/**
 * The file a browser chunk gets for `spec` ("onnxruntime-web/wasm"): an exact key of `resolveAlias` (a
 * string, or an object whose "browser" or "default" entry is one), taken relative to `root` when it starts
 * with "./"; else the package's "exports" entry under BROWSER_CONDITIONS. Absolute path.
 */
export function resolveBrowserImport(spec, { root = process.cwd(), resolveAlias = {} } = {}) {
  let alias = resolveAlias[spec];
  if (alias && typeof alias === 'object' && !Array.isArray(alias)) alias = alias.browser ?? alias.default;
  if (Array.isArray(alias)) alias = alias[0];
  if (typeof alias === 'string') {
    if (alias.startsWith('./') || alias.startsWith('../')) return resolve(root, alias);
    spec = alias;
  }
  const m = /^((?:@[^/]+\/)?[^/]+)(\/.*)?$/.exec(spec);
  if (!m) throw new Error(`not a package import: ${spec}`);
  const pkgDir = join(root, 'node_modules', m[1]);
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const sub = '.' + (m[2] ?? '');
  const exp = pkg.exports;
  let entry;
  if (exp === undefined) entry = sub === '.' ? (pkg.module ?? pkg.main) : sub;
  else if (typeof exp === 'object' && !Array.isArray(exp) && Object.keys(exp).some((k) => k.startsWith('.'))) entry = exp[sub];
  else entry = sub === '.' ? exp : undefined;
  const target = entry === undefined ? undefined : pickExport(entry, BROWSER_CONDITIONS);
  if (!target) throw new Error(`${spec}: no browser export in ${join(pkgDir, 'package.json')}`);
  return resolve(pkgDir, target);
}

