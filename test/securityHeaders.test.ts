// scripts/security-headers.mjs and public/_headers: the policy is strict where it matters (no inline or
// eval'd script beyond WASM compilation, no plugins, no framing, no <base>), every inline script of a page
// is allowed by its hash, and scripts/serve.mjs sends exactly the headers a static host reads from
// out/_headers (isolation left out on request, loopback connections added on loopback).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
// @ts-expect-error: plain ES module without type declarations
import * as sh from '../scripts/security-headers.mjs';
import { serveStatic } from './helpers/staticServer';

const { HASHES_TOKEN, LOOPBACK_CONNECT, headersForDir, inlineScripts, parseHeadersFile, scriptHash, siteHeaders, writeSiteHeaders, withConnect } = sh as {
  HASHES_TOKEN: string;
  LOOPBACK_CONNECT: string[];
  headersForDir: (dir: string, o?: { isolated?: boolean; loopback?: boolean }) => Record<string, string> | null;
  inlineScripts: (html: string) => string[];
  parseHeadersFile: (text: string) => { path: string; headers: [string, string][] }[];
  scriptHash: (text: string) => string;
  siteHeaders: (text: string, dir: string) => [string, string][];
  writeSiteHeaders: (dir: string, template?: string) => string[];
  withConnect: (policy: string, sources: string[]) => string;
};

const TEMPLATE = readFileSync('public/_headers', 'utf8');

/** The directives of a policy: name → sources. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

test('public/_headers: one "/*" rule with a strict policy and the isolation headers', () => {
  const rules = parseHeadersFile(TEMPLATE);
  assert.deepEqual(
    rules.map((r) => r.path),
    ['/*'],
  );
  const h = new Map(rules[0]!.headers);
  assert.equal(h.get('Cross-Origin-Opener-Policy'), 'same-origin');
  assert.equal(h.get('Cross-Origin-Embedder-Policy'), 'require-corp');
  assert.equal(h.get('X-Content-Type-Options'), 'nosniff');
  const d = directives(h.get('Content-Security-Policy')!);
  assert.deepEqual(d.get('default-src'), ["'self'"]);
  assert.deepEqual(d.get('script-src'), ["'self'", "'wasm-unsafe-eval'", HASHES_TOKEN]);
  assert.deepEqual(d.get('worker-src'), ["'self'"]);
  assert.deepEqual(d.get('connect-src'), ["'self'", 'https:']);
  assert.deepEqual(d.get('object-src'), ["'none'"]);
  assert.deepEqual(d.get('base-uri'), ["'none'"]);
  assert.deepEqual(d.get('frame-ancestors'), ["'none'"]);
  for (const [name, sources] of d) {
    assert.ok(!sources.includes("'unsafe-eval'"), `${name} allows eval`);
    if (name !== 'style-src') assert.ok(!sources.includes("'unsafe-inline'"), `${name} allows inline code`);
  }
});

test('inline scripts are found and hashed as the browser hashes them (UTF-8 bytes, exact text)', () => {
  const html = '<html><script src="/a.js" async=""></script><script id="_R_">self.x=1</script><SCRIPT>\n  y("上海")\n</SCRIPT ><script type="module" src=/b.js></script></html>';
  assert.deepEqual(inlineScripts(html), ['self.x=1', '\n  y("上海")\n']);
  const want = `'sha256-${createHash('sha256').update(Buffer.from('\n  y("上海")\n', 'utf8')).digest('base64')}'`;
  assert.equal(scriptHash('\n  y("上海")\n'), want);
});

test('the post-build step writes the hashes of every page into _headers; serve.mjs sends them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kvscope-headers-'));
  try {
    mkdirSync(join(dir, 'lessons', 'one'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><script>a()</script><script>b()</script>');
    writeFileSync(join(dir, 'lessons', 'one', 'index.html'), '<!doctype html><script>a()</script><script>c()</script>');
    // Before the step (the template as Next.js copies it): the server computes the hashes itself.
    writeFileSync(join(dir, '_headers'), TEMPLATE);
    const early = headersForDir(dir)!;
    const hashes = writeSiteHeaders(dir);
    assert.deepEqual(hashes, ['a()', 'b()', 'c()'].map(scriptHash).sort());
    const written = readFileSync(join(dir, '_headers'), 'utf8');
    assert.ok(!written.split('\n').some((l) => !l.startsWith('#') && l.includes(HASHES_TOKEN)), 'no placeholder left in a header');
    const csp = headersForDir(dir)!['Content-Security-Policy']!;
    assert.equal(early['Content-Security-Policy'], csp);
    for (const h of hashes) assert.ok(directives(csp).get('script-src')!.includes(h), h);
    assert.deepEqual(siteHeaders(written, dir), siteHeaders(TEMPLATE, dir));

    // Without isolation: no COOP/COEP/CORP. On loopback: the local origins join connect-src.
    const plain = headersForDir(dir, { isolated: false })!;
    assert.equal(plain['Cross-Origin-Embedder-Policy'], undefined);
    assert.equal(plain['Content-Security-Policy'], csp);
    const local = headersForDir(dir, { loopback: true })!;
    assert.deepEqual(directives(local['Content-Security-Policy']!).get('connect-src'), ["'self'", 'https:', ...LOOPBACK_CONNECT]);
    assert.equal(withConnect("default-src 'self'; connect-src 'self'", ['x:']), "default-src 'self'; connect-src 'self' x:");

    const server = await serveStatic({ '/': dir }, { isolated: true });
    try {
      for (const path of ['/', '/lessons/one/', '/_headers']) {
        const res = await fetch(server.url + path);
        assert.equal(res.status, 200, path);
        assert.equal(res.headers.get('content-security-policy'), local['Content-Security-Policy'], path);
        assert.equal(res.headers.get('cross-origin-embedder-policy'), 'require-corp');
        assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
        await res.arrayBuffer();
      }
    } finally {
      await server.close();
    }
    // A folder without _headers (a test harness): isolation only, no policy.
    rmSync(join(dir, '_headers'));
    const bare = await serveStatic({ '/': dir }, { isolated: true });
    try {
      const res = await fetch(bare.url + '/');
      assert.equal(res.headers.get('content-security-policy'), null);
      assert.equal(res.headers.get('cross-origin-opener-policy'), 'same-origin');
      await res.arrayBuffer();
    } finally {
      await bare.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
