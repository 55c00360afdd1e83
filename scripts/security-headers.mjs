#!/usr/bin/env node
// The site's response headers (public/_headers: the Content-Security-Policy, cross-origin isolation and two
// hardening headers; docs/SECURITY.md) made concrete for one build, and read back by scripts/serve.mjs.
//
// Next.js's static export writes a few inline <script>s into every page (the Turbopack bootstrap and the
// React Server Components payload). A strict script-src cannot allow them by 'unsafe-inline', so they are
// allowed by hash: after `next build`, `node scripts/security-headers.mjs out` hashes every inline script
// of every exported page and writes out/_headers from public/_headers with the hashes in place of
// {inline-script-hashes}. serve.mjs sends that file's `/*` headers; an out/ that skipped this step still
// gets the hashes, computed when the server starts.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const HASHES_TOKEN = '{inline-script-hashes}';
/** Headers that only make sense with cross-origin isolation (left out by `serve.mjs --no-isolation`). */
export const ISOLATION_HEADERS = ['cross-origin-opener-policy', 'cross-origin-embedder-policy', 'cross-origin-resource-policy'];
/** What serve.mjs adds to connect-src when it serves on loopback: local model mirrors and file servers over http. */
// (CSP has no source syntax for an IPv6 literal such as [::1]: browsers ignore it with a warning.)
export const LOOPBACK_CONNECT = ['http://127.0.0.1:*', 'http://localhost:*'];

function htmlFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? htmlFiles(join(dir, e.name)) : e.name.endsWith('.html') ? [join(dir, e.name)] : []));
}

/** The text of each inline (no src) script element of an HTML document, as the browser hashes it. */
export function inlineScripts(html) {
  const out = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\bsrc\s*=/i.test(m[1])) continue;
    out.push(m[2]);
  }
  return out;
}

/** CSP source expression of a script's text: 'sha256-<base64>' of its UTF-8 bytes. */
export function scriptHash(text) {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The hashes of every inline script in the .html files under `dir`, sorted, each once. */
export function inlineScriptHashes(dir) {
  const set = new Set();
  for (const f of htmlFiles(dir)) for (const s of inlineScripts(readFileSync(f, 'utf8'))) set.add(scriptHash(s));
  return [...set].sort();
}

/** A Netlify / Cloudflare Pages _headers file: `[{ path, headers: [[name, value]] }]` in file order. */
export function parseHeadersFile(text) {
  const rules = [];
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*(#|$)/.test(line)) continue;
    if (!/^\s/.test(line)) {
      rules.push({ path: line.trim(), headers: [] });
      continue;
    }
    const at = line.indexOf(':');
    const rule = rules.at(-1);
    if (at < 0 || !rule) throw new Error(`_headers: cannot read the line ${JSON.stringify(line)}`);
    rule.headers.push([line.slice(0, at).trim(), line.slice(at + 1).trim()]);
  }
  return rules;
}

/** The `/*` rule's headers of a _headers text, with the inline-script hashes of `dir` filled in. */
export function siteHeaders(text, dir) {
  const all = parseHeadersFile(text).find((r) => r.path === '/*');
  if (!all) throw new Error('_headers: no "/*" rule');
  const needsHashes = all.headers.some(([, v]) => v.includes(HASHES_TOKEN));
  const hashes = needsHashes ? inlineScriptHashes(dir).join(' ') : '';
  return all.headers.map(([k, v]) => [k, v.replaceAll(HASHES_TOKEN, hashes).replace(/\s{2,}/g, ' ')]);
}

/**
 * The headers serve.mjs sends for the site in `dir` (from its _headers), or null when `dir` has none (a
 * test harness page, say). `isolated: false` leaves out cross-origin isolation; `loopback: true` lets the
 * page connect to http servers on this machine (LOOPBACK_CONNECT).
 */
export function headersForDir(dir, { isolated = true, loopback = false } = {}) {
  const file = join(dir, '_headers');
  if (!existsSync(file)) return null;
  const out = {};
  for (const [k, v] of siteHeaders(readFileSync(file, 'utf8'), dir)) {
    if (!isolated && ISOLATION_HEADERS.includes(k.toLowerCase())) continue;
    out[k] = k.toLowerCase() === 'content-security-policy' && loopback ? withConnect(v, LOOPBACK_CONNECT) : v;
  }
  return out;
}

/** A policy with more sources on its connect-src directive. */
export function withConnect(policy, sources) {
  return policy
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean)
    .map((d) => (/^connect-src\s/i.test(d) ? `${d} ${sources.join(' ')}` : d))
    .join('; ');
}

/** The post-build step: `template` (public/_headers) → `dir`/_headers with this build's hashes. */
export function writeSiteHeaders(dir, template = 'public/_headers') {
  const text = readFileSync(template, 'utf8');
  const hashes = inlineScriptHashes(dir);
  if (hashes.length === 0) throw new Error(`security-headers: no inline scripts found in ${dir}/**/*.html — is the export there?`);
  // Header lines only: the template's comments may name the token too.
  const lines = text.split('\n').map((l) => (/^\s*#/.test(l) ? l : l.replaceAll(HASHES_TOKEN, hashes.join(' '))));
  writeFileSync(join(dir, '_headers'), lines.join('\n'));
  return hashes;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = process.argv[2] ?? 'out';
  const hashes = writeSiteHeaders(dir);
  console.log(`security-headers: ${dir}/_headers written; script-src allows ${hashes.length} inline script hashes`);
}
