// A loopback-only static file server for browser tests, with or without the COOP/COEP headers that
// enable SharedArrayBuffer (multi-threaded WASM). Test-only.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm',
  '.json': 'application/json', '.css': 'text/css', '.safetensors': 'application/octet-stream', '.map': 'application/json',
};

/** Serves `mounts` (URL prefix → folder) on 127.0.0.1 at a free port. */
export async function serveStatic(mounts: Record<string, string>, opts: { isolated: boolean }): Promise<{ url: string; server: Server; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const prefix = Object.keys(mounts).sort((a, b) => b.length - a.length).find((p) => path.startsWith(p));
    if (prefix === undefined) return void res.writeHead(404).end();
    const root = resolve(mounts[prefix]!);
    const file = normalize(join(root, path.slice(prefix.length)));
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) return void res.writeHead(404).end('not found');
    const headers: Record<string, string> = { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-store' };
    if (opts.isolated) {
      headers['Cross-Origin-Opener-Policy'] = 'same-origin';
      headers['Cross-Origin-Embedder-Policy'] = 'require-corp';
      headers['Cross-Origin-Resource-Policy'] = 'same-origin';
    }
    res.writeHead(200, headers);
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return { url: `http://127.0.0.1:${port}`, server, close: () => new Promise((ok) => server.close(() => ok())) };
}
