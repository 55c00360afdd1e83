// A one-file React page for component tests and benchmarks: bundles `entry` with esbuild (production
// React), writes an index.html next to it and serves the folder on loopback. close() removes it all.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { serveStatic } from './staticServer';

export async function serveHarness(entry: string, opts: { isolated?: boolean; minify?: boolean } = {}): Promise<{ url: string; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'kvscope-harness-'));
  await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    minify: opts.minify ?? false,
    outfile: join(dir, 'harness.js'),
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><body style="margin:20px"><script type="module" src="harness.js"></script>');
  const server = await serveStatic({ '/': dir }, { isolated: opts.isolated ?? false });
  return {
    url: server.url,
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
