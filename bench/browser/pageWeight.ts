// Weight of the static export: what out/ holds on disk, what the main page downloads on first load before
// any worker starts, and what the worker adds until the embedded model is loaded (headless Chromium, served
// cross-origin isolated by scripts/serve.mjs on loopback). JS sizes are the files' bytes and their gzip size
// at zlib's default level, i.e. what a gzip-serving host transfers (scripts/serve.mjs itself sends them raw).
//
//   node --import tsx bench/browser/pageWeight.ts              # builds first when out/ is missing or stale
//   node --import tsx bench/browser/pageWeight.ts --out DIR    # another export; never builds
//   node --import tsx bench/browser/pageWeight.ts --json FILE  # also write the figures as JSON
import { writeFileSync } from 'node:fs';
import { launchChromium } from '../../test/helpers/browser';
import { serveStatic } from '../../test/helpers/staticServer';
import { diskUse, ensureBuiltOut, fullLoad, isWorkerOnly, jsTotals, pageOwnLoad, type Fetched } from '../../test/helpers/staticBuild';
import { option } from '../common';

const kb = (n: number) => (n / 1024).toFixed(1) + ' KiB';
const mb = (n: number) => (n / 1024 / 1024).toFixed(1) + ' MiB';
const what = (f: Fetched) =>
  !f.content ? '' : [f.content.transformers ? 'transformers.js' : '', ...f.content.ortBuilds.map((b) => `ORT ${b}`), f.content.ortRuntime.length && !f.content.ortBuilds.length ? 'names ORT runtime' : ''].filter(Boolean).join(', ');

function jsTable(xs: Fetched[]): string[] {
  const js = [...new Map(xs.filter((f) => f.content !== null).map((f) => [f.path, f])).values()].sort((a, b) => b.bytes - a.bytes);
  return js.map((f) => `  ${f.path.padEnd(52)} ${kb(f.bytes).padStart(11)} ${kb(f.gzip).padStart(11)} gz  ${what(f)}`);
}

async function main() {
  const given = option('--out');
  const dir = given ?? ensureBuiltOut((l) => console.log(l));
  const disk = diskUse(dir);
  const server = await serveStatic({ '/': dir }, { isolated: true });
  const browser = await launchChromium();
  try {
    const own = await pageOwnLoad(browser.context, server.url + '/', dir);
    const full = await fullLoad(browser.context, server.url + '/', dir);
    const ownPaths = new Set(own.fetched.map((f) => f.path));
    const workerJs = full.fetched.filter((f) => !ownPaths.has(f.path) && f.content !== null);
    const ort = full.fetched.filter((f) => f.path.startsWith('/ort/'));
    const ownTotals = jsTotals(own.fetched);
    const ownWorkerOnly = jsTotals(own.fetched.filter((f) => f.content && isWorkerOnly(f.content)));
    const result = {
      dir,
      disk,
      page: { ...ownTotals, workerOnly: ownWorkerOnly, workersStarted: own.workers },
      worker: { ...jsTotals(workerJs), ort: ort.map((f) => ({ path: f.path, status: f.status, bytes: f.bytes })) },
      provider: full.provider,
      errors: full.errors,
    };

    console.log(`${dir}/: ${mb(disk.bytes)}, ${disk.files} files`);
    for (const [k, v] of Object.entries(disk.byEntry).sort((a, b) => b[1].bytes - a[1].bytes)) console.log(`  ${k.padEnd(20)} ${mb(v.bytes).padStart(10)} ${String(v.files).padStart(4)} files`);
    console.log(`  .wasm outside ort/: ${disk.strayWasm.length ? disk.strayWasm.join(', ') : 'none'}`);
    console.log(`\nmain page, first load, no worker started: ${ownTotals.files} JS files, ${kb(ownTotals.bytes)} (${kb(ownTotals.gzip)} gzip)`);
    console.log(`  of which worker-only (ORT / transformers.js): ${ownWorkerOnly.files} files, ${kb(ownWorkerOnly.bytes)} (${kb(ownWorkerOnly.gzip)} gzip)`);
    for (const l of jsTable(own.fetched)) console.log(l);
    console.log(`\nthe worker until the model is loaded (${full.provider || 'provider not shown'}): ${result.worker.files} more JS files, ${kb(result.worker.bytes)} (${kb(result.worker.gzip)} gzip)`);
    for (const l of jsTable(workerJs)) console.log(l);
    for (const f of ort) console.log(`  ${f.path.padEnd(52)} ${mb(f.bytes).padStart(11)}  HTTP ${f.status}`);
    if (full.errors.length) console.log(`\npage errors: ${full.errors.join(' | ')}`);
    const json = option('--json');
    if (json) writeFileSync(json, JSON.stringify(result, null, 2) + '\n');
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
