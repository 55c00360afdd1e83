#!/usr/bin/env node
// A loopback static server for the exported app (out/) and the browser tests. It sends the site's headers
// (out/_headers, written by `npm run build` from public/_headers: the Content-Security-Policy and the rest,
// docs/SECURITY.md), as static hosts that read that file do; COOP/COEP let onnxruntime-web run
// multi-threaded, and `--no-isolation` leaves them out to show the single-threaded fallback that any plain
// web server gives. A folder without _headers (a test harness page) gets COOP/COEP only, no policy.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { headersForDir } from './security-headers.mjs';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm',
  '.json': 'application/json', '.css': 'text/css', '.safetensors': 'application/octet-stream', '.map': 'application/json',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.txt': 'text/plain; charset=utf-8', '.md': 'text/markdown; charset=utf-8',
};

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/**
 * Serves `mounts` (URL prefix → folder) on `host` (default 127.0.0.1) at `port` (0: a free one). Every
 * response carries the headers of the '/' mount's _headers file (`site: false` leaves them out), read once
 * at start; on loopback the policy also lets the page connect to other local servers (a model mirror).
 */
export async function serveStatic(mounts, { isolated, port = 0, host = '127.0.0.1', site = true }) {
  const siteHeaders = site && mounts['/'] ? headersForDir(resolve(mounts['/']), { isolated, loopback: LOOPBACK.has(host) }) : null;
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const prefix = Object.keys(mounts).sort((a, b) => b.length - a.length).find((p) => path.startsWith(p));
    if (prefix === undefined) return void res.writeHead(404).end();
    const root = resolve(mounts[prefix]);
    let file = normalize(join(root, path.slice(prefix.length)));
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    else if (!existsSync(file) && existsSync(file + '.html')) file += '.html';
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) return void res.writeHead(404).end('not found');
    const headers = { ...siteHeaders, 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-store' };
    if (isolated && !siteHeaders) {
      headers['Cross-Origin-Opener-Policy'] = 'same-origin';
      headers['Cross-Origin-Embedder-Policy'] = 'require-corp';
      headers['Cross-Origin-Resource-Policy'] = 'same-origin';
    }
    res.writeHead(200, headers);
    createReadStream(file).pipe(res);
  });
  await new Promise((ok) => server.listen(port, host, ok));
  const addr = server.address();
  return { url: `http://${host}:${typeof addr === 'object' && addr ? addr.port : port}`, server, headers: siteHeaders ?? {}, close: () => new Promise((ok) => server.close(() => ok())) };
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
  const { url, headers } = await serveStatic({ '/': dir }, { isolated, port });
  const csp = Object.keys(headers).some((k) => k.toLowerCase() === 'content-security-policy');
  console.log(`kvscope: serving ${dir}/ at ${url} (${isolated ? 'cross-origin isolated: multi-threaded WASM' : 'no COOP/COEP: single-threaded WASM'}; ${csp ? 'Content-Security-Policy from _headers' : `no ${dir}/_headers: no Content-Security-Policy`})`);
}
