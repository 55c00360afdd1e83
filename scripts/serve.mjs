#!/usr/bin/env node
// A loopback static server for the exported app (out/) and the browser tests. It sends COOP/COEP so
// onnxruntime-web can run multi-threaded; `--no-isolation` shows the single-threaded fallback that
// any plain web server gives.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm',
  '.json': 'application/json', '.css': 'text/css', '.safetensors': 'application/octet-stream', '.map': 'application/json',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.txt': 'text/plain; charset=utf-8', '.md': 'text/markdown; charset=utf-8',
};

/** Serves `mounts` (URL prefix → folder) on `host` (default 127.0.0.1) at `port` (0: a free one). */
export async function serveStatic(mounts, { isolated, port = 0, host = '127.0.0.1' }) {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const prefix = Object.keys(mounts).sort((a, b) => b.length - a.length).find((p) => path.startsWith(p));
    if (prefix === undefined) return void res.writeHead(404).end();
    const root = resolve(mounts[prefix]);
    let file = normalize(join(root, path.slice(prefix.length)));
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    else if (!existsSync(file) && existsSync(file + '.html')) file += '.html';
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) return void res.writeHead(404).end('not found');
    const headers = { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-store' };
    if (isolated) {
      headers['Cross-Origin-Opener-Policy'] = 'same-origin';
      headers['Cross-Origin-Embedder-Policy'] = 'require-corp';
      headers['Cross-Origin-Resource-Policy'] = 'same-origin';
    }
    res.writeHead(200, headers);
    createReadStream(file).pipe(res);
  });
  await new Promise((ok) => server.listen(port, host, ok));
  const addr = server.address();
  return { url: `http://${host}:${typeof addr === 'object' && addr ? addr.port : port}`, server, close: () => new Promise((ok) => server.close(() => ok())) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const isolated = !args.includes('--no-isolation');
  const port = Number(process.env.PORT ?? 3000);
  const dir = args.find((a) => !a.startsWith('--')) ?? 'out';
  if (!existsSync(join(dir, 'index.html'))) {
    console.error(`kvscope: ${dir}/index.html not found — build the app first (npm run build)`);
    process.exit(1);
  }
  const { url } = await serveStatic({ '/': dir }, { isolated, port });
  console.log(`kvscope: serving ${dir}/ at ${url} (${isolated ? 'cross-origin isolated: multi-threaded WASM' : 'no COOP/COEP: single-threaded WASM'})`);
}
