// Copies the onnxruntime-web runtime files (.mjs glue / .wasm) that the worker's ORT builds ask for from
// node_modules to public/ort, so the app serves them itself (ort.env.wasm.wasmPaths = '/ort/'). Local copy
// only: nothing is downloaded.
//
// The list is read from the code, not written down: each `onnxruntime-web/...` import of workers/*.ts is
// resolved as the bundler resolves it (next.config.js's turbopack.resolveAlias, then the package's
// exports), that file is scanned for ort-wasm-*.{mjs,wasm} names, and each named .mjs for the names it asks
// for in turn. Anything else in public/ort (an older version's files) is removed.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import config from '../next.config.js';
import { folderReader, ortSpecifiers, resolveBrowserImport, runtimeClosure, runtimeFilesIn } from './ort-runtime.mjs';

const WORKERS = 'workers';
const DEST = 'public/ort';
const resolveAlias = config.turbopack?.resolveAlias ?? {};
const mb = (n) => (n / 1e6).toFixed(1) + ' MB';

const want = new Map(); // runtime file name → its folder in node_modules
for (const f of readdirSync(WORKERS).filter((n) => /\.[cm]?[jt]sx?$/.test(n)).sort()) {
  const worker = join(WORKERS, f);
  for (const spec of ortSpecifiers(readFileSync(worker, 'utf8'))) {
    const bundle = resolveBrowserImport(spec, { resolveAlias });
    const dist = dirname(bundle);
    const asked = runtimeFilesIn(readFileSync(bundle, 'latin1'));
    if (asked.length === 0) throw new Error(`copy-ort: ${relative('.', bundle)} names no ort-wasm-*.{mjs,wasm} file; the scan no longer fits this onnxruntime-web build`);
    const { files, missing } = runtimeClosure(asked, folderReader(dist));
    if (missing.length) throw new Error(`copy-ort: ${relative('.', bundle)} asks for ${missing.join(', ')}, which ${relative('.', dist)} lacks`);
    console.log(`copy-ort: ${worker} imports ${spec} → ${relative('.', bundle)}: ${files.join(', ')}`);
    for (const name of files) {
      const prev = want.get(name);
      if (prev !== undefined && prev !== dist) throw new Error(`copy-ort: ${name} is asked for from both ${prev} and ${dist}`);
      want.set(name, dist);
    }
  }
}
if (want.size === 0) throw new Error(`copy-ort: no onnxruntime-web import found in ${WORKERS}/`);

mkdirSync(DEST, { recursive: true });
for (const name of readdirSync(DEST)) {
  if (want.has(name)) continue;
  rmSync(join(DEST, name), { recursive: true, force: true });
  console.log(`copy-ort: removed ${DEST}/${name} (no longer asked for)`);
}
let total = 0;
for (const [name, dist] of [...want].sort(([a], [b]) => a.localeCompare(b))) {
  const src = join(dist, name);
  const dst = join(DEST, name);
  const size = statSync(src).size;
  total += size;
  copyFileSync(src, dst);
  console.log(`copy-ort: ${dst} ${mb(size)}`);
}
console.log(`copy-ort: ${want.size} files, ${mb(total)} in ${DEST}/`);
