// lib/io/linkPolicy: which ?url= addresses may be fetched (before any fetch), the Content-Type and size
// rules while the response comes in (a fake fetch and a real loopback server), the share link's size caps,
// and every refusal worded in English and 简体中文 with all its parameters filled in.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, test } from 'node:test';
import { checkLinkUrl, contentTypeRefusal, fetchLink, LINK_MAX_BYTES, LINK_MAX_CHARS, readCapped, shownUrl, type LinkRefusal } from '../lib/io/linkPolicy';
import { decodeShare, deflateRaw, toBase64Url, MAX_FRAGMENT_CHARS, MAX_INFLATED_BYTES } from '../lib/io/share';
import { STRINGS, translate, type StringKey } from '../lib/i18n';

const PAGE = 'https://kvscope.example/app/';
const LOCAL_PAGE = 'http://127.0.0.1:3000/';

function refusal(raw: string, page = PAGE): LinkRefusal {
  const r = checkLinkUrl(raw, page);
  assert.equal(r.ok, false, `${JSON.stringify(raw)} should be refused`);
  return (r as { refusal: LinkRefusal }).refusal;
}

function accepted(raw: string, page = PAGE) {
  const r = checkLinkUrl(raw, page);
  assert.ok(r.ok, `${JSON.stringify(raw)} should be accepted: ${JSON.stringify(r)}`);
  return r;
}

test('same-origin paths are fetched without asking; other https hosts need the confirmation', () => {
  for (const [raw, href] of [
    ['data/run.json', 'https://kvscope.example/app/data/run.json'],
    ['/fixtures/a.json', 'https://kvscope.example/fixtures/a.json'],
    ['https://kvscope.example/x.txt', 'https://kvscope.example/x.txt'],
    ['  ./a.json  ', 'https://kvscope.example/app/a.json'],
  ]) {
    const r = accepted(raw!);
    assert.equal(r.url.href, href);
    assert.equal(r.sameOrigin, true, raw);
  }
  const hub = accepted('https://huggingface.co/datasets/x/resolve/main/run.json');
  assert.equal(hub.sameOrigin, false);
  assert.equal(hub.host, 'huggingface.co');
  // Tricks that change the host: the confirmation names the host the URL parser sees.
  assert.equal(accepted('/\\evil.example/a.json').host, 'evil.example');
  assert.equal(accepted('//evil.example:8443/a.json').host, 'evil.example:8443');
  // A look-alike letter (Cyrillic а) is shown as punycode, not as "example.com".
  assert.match(accepted('https://exаmple.com/a.json').host, /^xn--/);
});

test('forbidden schemes are refused whatever their spelling', () => {
  const cases: [string, string][] = [
    ['javascript:alert(1)', 'javascript:'],
    ['  JaVaScRiPt:alert(document.domain)', 'javascript:'],
    ['java\tscript:alert(1)', 'javascript:'],
    ['\u0000javascript:alert(1)', 'javascript:'],
    ['data:text/html,<script>alert(1)</script>', 'data:'],
    ['data:application/json,{"messages":[]}', 'data:'],
    ['file:///etc/passwd', 'file:'],
    ['blob:https://kvscope.example/4b1c-uuid', 'blob:'],
    ['ftp://ftp.example.com/run.json', 'ftp:'],
    ['ws://example.com/', 'ws:'],
    ['view-source:https://example.com/', 'view-source:'],
    ['chrome://settings', 'chrome:'],
  ];
  for (const [raw, scheme] of cases) {
    const r = refusal(raw);
    assert.equal(r.code, 'scheme', raw);
    assert.equal(r.params.scheme, scheme, raw);
  }
});

test('credentials in the URL are refused, and the refusal does not repeat the password', () => {
  for (const raw of ['https://user:secret@example.com/a.json', 'https://user@example.com/a.json', '//u:secret@example.com/a', 'https://u:secret@kvscope.example/app/a.json']) {
    const r = refusal(raw);
    assert.equal(r.code, 'credentials', raw);
    assert.ok(!r.params.url!.includes('secret'), r.params.url);
  }
});

test('plain http only between loopback origins', () => {
  assert.equal(refusal('http://example.com/a.json').code, 'insecure');
  assert.equal(refusal('http://127.0.0.1:8000/a.json').code, 'insecure', 'an https page does not read the visitor’s loopback');
  assert.equal(refusal('http://example.com/a.json', LOCAL_PAGE).code, 'insecure');
  assert.equal(refusal('http://127.0.0.1.example.com/a', LOCAL_PAGE).code, 'insecure');
  assert.equal(refusal('http://[::1]:9999/a.json', LOCAL_PAGE).code, 'insecure', 'no CSP source can name [::1]');
  for (const raw of ['http://127.0.0.1:9999/a.json', 'http://localhost:9999/a.json', 'http://2130706433:9999/a.json']) {
    const r = accepted(raw, LOCAL_PAGE);
    assert.equal(r.sameOrigin, false, raw);
  }
  assert.equal(accepted('/fixtures/a.json', LOCAL_PAGE).sameOrigin, true);
  assert.equal(accepted('https://example.com/a.json', LOCAL_PAGE).sameOrigin, false);
});

test('addresses that are not URLs, or far too long, are refused', () => {
  for (const raw of ['', '   ', 'https://', 'http://[::1', 'https://exa mple.com/']) assert.equal(refusal(raw).code, 'invalid', JSON.stringify(raw));
  const long = refusal('https://example.com/' + 'a'.repeat(LINK_MAX_CHARS));
  assert.equal(long.code, 'tooLong');
  assert.ok(long.params.url!.length <= 200);
  assert.equal(shownUrl('a\nb\u2028c\u0007d'), 'a b c d');
});

test('Content-Type: JSON, text and bytes are read; web pages and other types are refused', () => {
  for (const t of [null, '', 'application/json; charset=utf-8', 'TEXT/PLAIN', 'text/markdown', 'application/octet-stream', 'binary/octet-stream', 'application/vnd.api+json', 'application/x-ndjson']) {
    assert.equal(contentTypeRefusal(t, 'x'), null, String(t));
  }
  for (const t of ['text/html; charset=utf-8', 'application/xhtml+xml', 'image/svg+xml', 'text/xml']) assert.equal(contentTypeRefusal(t, 'x')?.code, 'webPage', t);
  for (const t of ['application/javascript', 'text/javascript', 'text/css', 'image/png', 'application/zip']) assert.equal(contentTypeRefusal(t, 'x')?.code, 'contentType', t);
});

/** A body of `chunks` chunks of `size` bytes, counting what was pulled and whether it was cancelled. */
function countingBody(size: number, chunks = Infinity) {
  const seen = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (seen.pulled >= chunks) return c.close();
      seen.pulled++;
      c.enqueue(new Uint8Array(size));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { body, seen };
}

test('readCapped stops at the cap and cancels the stream', async () => {
  const { body, seen } = countingBody(1000);
  const r = await readCapped(body, 10_500);
  assert.equal(r.ok, false);
  assert.equal(seen.cancelled, true);
  assert.ok(seen.pulled <= 13, `pulled ${seen.pulled} chunks for a cap of 10.5 chunks`);
  const small = countingBody(1000, 3);
  const ok = await readCapped(small.body, 10_500);
  assert.ok(ok.ok && ok.bytes.byteLength === 3000);
});

interface FakeResponse {
  ok?: boolean;
  status?: number;
  redirected?: boolean;
  url?: string;
  headers?: Record<string, string>;
  body?: ReadableStream<Uint8Array> | null;
}

function fakeFetch(r: FakeResponse, calls: RequestInit[] = []): typeof fetch {
  return (async (_url: string | URL | Request, init?: RequestInit) => {
    calls.push(init ?? {});
    const status = r.status ?? 200;
    return { ok: r.ok ?? (status >= 200 && status < 300), status, redirected: r.redirected ?? false, url: r.url ?? '', headers: new Headers(r.headers ?? {}), body: r.body ?? null } as unknown as Response;
  }) as typeof fetch;
}

const target = new URL('https://files.example/run.json');

test('fetchLink: no credentials or referrer; refusals for type, announced size, streamed size and redirects', async () => {
  const calls: RequestInit[] = [];
  const good = await fetchLink(target, { page: PAGE, fetchImpl: fakeFetch({ headers: { 'content-type': 'application/json' }, body: new Blob(['{"messages":[]}']).stream() }, calls) });
  assert.ok(good.ok);
  assert.equal(new TextDecoder().decode((good as { bytes: Uint8Array }).bytes), '{"messages":[]}');
  assert.equal(calls[0]!.credentials, 'omit');
  assert.equal(calls[0]!.referrerPolicy, 'no-referrer');

  const html = countingBody(100);
  const r1 = await fetchLink(target, { page: PAGE, fetchImpl: fakeFetch({ headers: { 'content-type': 'text/html' }, body: html.body }) });
  assert.deepEqual(!r1.ok && 'refusal' in r1 && r1.refusal.code, 'webPage');
  assert.equal(html.seen.pulled <= 1, true, 'a web page is not read');

  const announced = countingBody(1000);
  const r2 = await fetchLink(target, { page: PAGE, cap: 5000, fetchImpl: fakeFetch({ headers: { 'content-type': 'application/octet-stream', 'content-length': '999999999' }, body: announced.body }) });
  assert.ok(!r2.ok && 'refusal' in r2 && r2.refusal.code === 'tooLarge');
  assert.equal((r2 as { refusal: LinkRefusal }).refusal.params.size, '954 MiB');
  assert.ok(announced.seen.pulled <= 1, 'nothing read when Content-Length is over the cap');

  const endless = countingBody(1000);
  const r3 = await fetchLink(target, { page: PAGE, cap: 5000, fetchImpl: fakeFetch({ headers: { 'content-type': 'text/plain' }, body: endless.body }) });
  assert.ok(!r3.ok && 'refusal' in r3 && r3.refusal.code === 'tooLargeRead');
  assert.ok(endless.seen.cancelled && endless.seen.pulled <= 8, `pulled ${endless.seen.pulled}`);

  const r4 = await fetchLink(target, { page: PAGE, fetchImpl: fakeFetch({ redirected: true, url: 'http://evil.example/x', headers: { 'content-type': 'text/plain' }, body: new Blob(['x']).stream() }) });
  assert.ok(!r4.ok && 'refusal' in r4 && r4.refusal.code === 'redirected');
  assert.equal((r4 as { refusal: LinkRefusal }).refusal.params.to, 'http://evil.example/x');

  const r5 = await fetchLink(target, { page: PAGE, fetchImpl: fakeFetch({ status: 404 }) });
  assert.deepEqual(r5, { ok: false, failed: 'HTTP 404' });
  const r6 = await fetchLink(target, { page: PAGE, fetchImpl: (async () => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch });
  assert.deepEqual(r6, { ok: false, failed: 'Failed to fetch' });
  assert.equal(LINK_MAX_BYTES, 100 * 1024 * 1024);
});

// ---- a real server on loopback: chunked (no Content-Length) and announced bodies -----------------------

let server: Server;
let base = '';
const sent = { bytes: 0 };
before(async () => {
  server = createServer((req, res) => {
    if (req.url === '/endless') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const write = () => {
        while (!res.destroyed && sent.bytes < 64 * 1024 * 1024) {
          sent.bytes += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', write);
        }
        res.end();
      };
      write();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '3' }).end('abc');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const a = server.address();
  base = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
});
after(() => new Promise<void>((ok) => server.close(() => ok())));

test('over a real connection the read stops near the cap, and the server stops sending', async () => {
  const page = `${base}/app/`;
  const ok = await fetchLink(accepted(`${base}/small`, page).url, { page });
  assert.ok(ok.ok);
  const cap = 1024 * 1024;
  const r = await fetchLink(accepted(`${base}/endless`, page).url, { page, cap });
  assert.ok(!r.ok && 'refusal' in r && r.refusal.code === 'tooLargeRead');
  await new Promise((ok) => setTimeout(ok, 200));
  assert.ok(sent.bytes < 32 * 1024 * 1024, `the server sent ${sent.bytes} bytes for a 1 MiB cap`);
});

// ---- share links: the size caps, named so the page can word them -----------------------------------------

test('a share link over its caps is refused with the cap it broke', async () => {
  const long = await decodeShare('#s=' + 'A'.repeat(MAX_FRAGMENT_CHARS));
  assert.ok(!long.ok && long.cap?.code === 'tooLong' && long.cap.limit === MAX_FRAGMENT_CHARS);
  // A zip bomb: 3 MB of spaces deflate to a few KB but inflate past the 2 MiB cap.
  const bomb = toBase64Url(await deflateRaw(new TextEncoder().encode(' '.repeat(MAX_INFLATED_BYTES + 1_000_000))));
  const r = await decodeShare(`#s=${bomb}`);
  assert.ok(!r.ok && r.cap?.code === 'tooBig' && r.cap.limit === MAX_INFLATED_BYTES, JSON.stringify(r));
  const bad = await decodeShare('#s=%%%');
  assert.ok(!bad.ok && bad.cap === undefined);
});

// ---- every refusal, in both languages ------------------------------------------------------------------------

test('every refusal code has a sentence in English and 简体中文 with all its parameters filled', async () => {
  const refusals: LinkRefusal[] = [
    refusal(''),
    refusal('https://example.com/' + 'a'.repeat(LINK_MAX_CHARS)),
    refusal('javascript:alert(1)'),
    refusal('http://example.com/a'),
    refusal('https://u:p@example.com/a'),
    contentTypeRefusal('text/html', 'https://example.com/a')!,
    contentTypeRefusal('image/png', 'https://example.com/a')!,
  ];
  const viaFetch = async (r: FakeResponse, cap?: number) => {
    const out = await fetchLink(target, { page: PAGE, cap, fetchImpl: fakeFetch(r) });
    assert.ok(!out.ok && 'refusal' in out);
    return out.refusal;
  };
  refusals.push(await viaFetch({ headers: { 'content-length': '10' } }, 5));
  refusals.push(await viaFetch({ body: countingBody(10).body }, 5));
  refusals.push(await viaFetch({ redirected: true, url: 'ftp://x/' }));
  const codes = new Set(refusals.map((r) => r.code));
  assert.deepEqual([...codes].sort(), ['contentType', 'credentials', 'insecure', 'invalid', 'redirected', 'scheme', 'tooLarge', 'tooLargeRead', 'tooLong', 'webPage']);
  for (const r of refusals) {
    const key = `link.${r.code}` as StringKey;
    assert.ok(STRINGS[key], key);
    for (const lang of ['en', 'zh'] as const) {
      const text = translate(lang, key, r.params);
      assert.doesNotMatch(text, /\{\w+\}/, `${key} (${lang}): ${text}`);
      assert.match(text, lang === 'en' ? /[.)]$/ : /[。）]$/, `${key} (${lang}) ends as a sentence: ${text}`);
    }
  }
  for (const key of ['share.tooLong', 'share.tooBig'] as const) {
    for (const lang of ['en', 'zh'] as const) assert.doesNotMatch(translate(lang, key, { size: '9,000', limit: '8,000' }), /\{\w+\}/);
  }
});
