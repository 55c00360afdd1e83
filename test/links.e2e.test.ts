// End-to-end: hostile links against the exported app (out/, served with its own headers: the
// Content-Security-Policy included) in headless Chromium. ?url= with each forbidden scheme or with
// credentials is refused before anything is fetched; another origin is fetched only after the
// confirmation that names its host (Cancel: nothing fetched); a body over the cap is refused while it
// streams, a web page is refused by its type, and nothing of either is rendered; share links over their
// caps are refused, a hostile one opens as text only, and the notice is a sentence. Every refusal is
// checked word for word in English and once in 简体中文; the user's scenarios stay as they were. Finally
// the app runs under the policy with no violation: the model loads and paints, and the worker starts ORT
// with two threads (its pthread workers are same-origin module workers).
//
// "Nothing fetched" is proven twice: by every request the page and its workers make (page.on('request'),
// only the app's own origin) and by the request log of the loopback file server.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { launchChromium, trackedPage } from './helpers/browser';
import { serveStatic } from './helpers/staticServer';
import { ensureBuiltOut } from './helpers/staticBuild';
import { translate, type Lang, type Params, type StringKey } from '../lib/i18n';
import { deflateRaw, encodeShare, toBase64Url, MAX_FRAGMENT_CHARS, MAX_INFLATED_BYTES, type SharePayload } from '../lib/io/share';
import { LINK_MAX_BYTES } from '../lib/io/linkPolicy';
import { formatBytes } from '../lib/analysis/kvBytes';
import { formatCount } from '../lib/prompt/request';
import { DEFAULT_VIEW } from '../lib/state/store';
import { DEFAULT_MODEL } from '../lib/model/embedded';
import { CATALOG } from '../lib/scenarios/catalog';

let browser: Awaited<ReturnType<typeof launchChromium>>;
let app: Awaited<ReturnType<typeof serveStatic>>;
let files: { url: string; host: string; log: { path: string; headers: IncomingHttpHeaders }[]; sent: number; close: () => Promise<void> };
let fixtures: string;

const PAYLOAD = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
const LIMIT = formatBytes(LINK_MAX_BYTES);
const REQUEST = { messages: [{ role: 'user', content: 'What time is it in Lisbon?' }] };

/** A file server on another loopback port (another origin), logging every request it gets. */
async function startFiles(): Promise<typeof files> {
  const log: { path: string; headers: IncomingHttpHeaders }[] = [];
  const state = { sent: 0 };
  const server: Server = createServer((req, res) => {
    log.push({ path: req.url ?? '', headers: req.headers });
    const cors = { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store' };
    if (req.url === '/lisbon.json') return void res.writeHead(200, { ...cors, 'Content-Type': 'application/json' }).end(JSON.stringify(REQUEST));
    if (req.url === '/endless.txt') {
      // No Content-Length: only counting while reading can stop it. Markup inside, as text/plain.
      res.writeHead(200, { ...cors, 'Content-Type': 'text/plain' });
      const chunk = Buffer.from(PAYLOAD.padEnd(64 * 1024, ' '));
      const write = () => {
        while (!res.destroyed && state.sent < 4 * LINK_MAX_BYTES) {
          state.sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', write);
        }
        res.end();
      };
      write();
      return;
    }
    if (req.url === '/announced.json') {
      res.writeHead(200, { ...cors, 'Content-Type': 'application/json', 'Content-Length': String(2 * LINK_MAX_BYTES) });
      res.write('{"messages": [');
      state.sent += 14;
      return; // never finished: the page must not wait for it
    }
    res.writeHead(404, cors).end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const a = server.address();
  const port = typeof a === 'object' && a ? a.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    log,
    get sent() {
      return state.sent;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

before(async () => {
  ensureBuiltOut();
  fixtures = mkdtempSync(join(tmpdir(), 'kvscope-links-'));
  writeFileSync(join(fixtures, 'lisbon.json'), JSON.stringify(REQUEST));
  app = await serveStatic({ '/': 'out', '/fixtures/': fixtures }, { isolated: true });
  files = await startFiles();
  browser = await launchChromium();
  // Every page records policy violations (the console shows them too).
  await browser.context.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
});
after(async () => {
  await browser?.close();
  await app?.close();
  await files?.close();
  if (fixtures) rmSync(fixtures, { recursive: true, force: true });
});

let n = 0;
/** A fresh load (a new query each time, so a changed fragment alone is never a same-document navigation). */
const appUrl = (query: string, hash = '') => `${app.url}/?n=${++n}${query ? `&${query}` : ''}${hash}`;

/** Every request the page and its workers make to anywhere but the app itself. */
function foreignRequests(page: Page): string[] {
  const out: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(app.url + '/')) out.push(r.url());
  });
  return out;
}

/** What the user has: the selected scenario and every scenario in the picker, once saved state has been read
 *  (before that the picker shows the built-ins only, missing what earlier tests saved in this browser). */
async function scenarios(page: Page): Promise<{ selected: string; all: string[] }> {
  await page.waitForSelector('main[data-booted="true"]', { state: 'attached', timeout: 60_000 });
  await page.waitForSelector('[data-role="scenario-picker"] select option', { state: 'attached', timeout: 60_000 });
  return {
    selected: await page.inputValue('[data-role="scenario-picker"] select'),
    all: await page.locator('[data-role="scenario-picker"] select option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)),
  };
}

async function noteText(page: Page, kind: 'error' | 'ok'): Promise<string> {
  await page.waitForSelector(`[data-role="import-note"][data-kind="${kind}"]`, { timeout: 60_000 });
  return ((await page.textContent('[data-role="import-note"] strong')) ?? '').trim();
}

const say = (lang: Lang, key: StringKey, params: Params) => translate(lang, key, params);

/** Nothing from a link ran or became markup. */
async function nothingRendered(page: Page): Promise<void> {
  assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined, 'no script from a link ran');
  assert.equal(await page.locator('img[src="x"]').count(), 0, 'no element made from link data');
}

let baseline: { selected: string; all: string[] };

test('?url= with a forbidden scheme or credentials: a refusal in words, nothing fetched, nothing changed', async () => {
  const { page, errors, dialogs } = await trackedPage(browser.context);
  const foreign = foreignRequests(page);
  await page.goto(appUrl(''));
  baseline = await scenarios(page);
  const cases: { raw: string; key: StringKey; params: Params }[] = [
    { raw: 'javascript:window.__pwned=1', key: 'link.scheme', params: { scheme: 'javascript:' } },
    { raw: ' JaVa\tScRiPt:window.__pwned=1', key: 'link.scheme', params: { scheme: 'javascript:' } },
    { raw: `data:text/html,${PAYLOAD}`, key: 'link.scheme', params: { scheme: 'data:' } },
    { raw: 'file:///etc/passwd', key: 'link.scheme', params: { scheme: 'file:' } },
    { raw: `blob:${app.url}/0b9c1f7e-6a1d-4d43-9d3e-1b2c3d4e5f60`, key: 'link.scheme', params: { scheme: 'blob:' } },
    { raw: `ftp://${files.host}/lisbon.json`, key: 'link.scheme', params: { scheme: 'ftp:' } },
    { raw: `http://user:secret@${files.host}/lisbon.json`, key: 'link.credentials', params: { url: `${files.url}/lisbon.json` } },
    { raw: `${app.url.replace('http://', 'http://me:secret@')}/fixtures/lisbon.json`, key: 'link.credentials', params: { url: `${app.url}/fixtures/lisbon.json` } },
    { raw: 'http://example.com/run.json', key: 'link.insecure', params: { host: 'example.com' } },
  ];
  for (const c of cases) {
    await page.goto(appUrl(`url=${encodeURIComponent(c.raw)}`));
    const text = await noteText(page, 'error');
    const params = { url: c.raw.trim(), ...c.params };
    if (c.key === 'link.scheme') assert.ok(text.startsWith(say('en', c.key, params).split('“')[0]!), `${c.raw}: ${text}`);
    else assert.equal(text, say('en', c.key, params), c.raw);
    assert.ok(!text.includes('secret'), 'the password is not shown');
    assert.match(text, /nothing was fetched\.$/);
    assert.equal(await page.locator('[data-role="link-confirm"]').count(), 0);
    assert.equal(new URL(page.url()).searchParams.get('url'), null, 'the link leaves the address bar');
    assert.deepEqual(await scenarios(page), baseline, c.raw);
    await nothingRendered(page);
  }
  // The whole text of one refusal, word for word.
  await page.goto(appUrl(`url=${encodeURIComponent('file:///etc/passwd')}`));
  assert.equal(await noteText(page, 'error'), say('en', 'link.scheme', { scheme: 'file:', url: 'file:///etc/passwd' }));
  // And in Chinese.
  await page.click('button[data-lang="zh"]');
  await page.goto(appUrl(`url=${encodeURIComponent('javascript:alert(1)')}`));
  assert.equal(await noteText(page, 'error'), say('zh', 'link.scheme', { scheme: 'javascript:', url: 'javascript:alert(1)' }));
  await page.click('button[data-lang="en"]');
  assert.deepEqual(foreign, [], 'no request left the app');
  assert.equal(files.log.length, 0, 'the file server got no request');
  assert.deepEqual(dialogs, []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('another origin: the confirmation names the host and the cap; Cancel fetches nothing; Fetch imports', async () => {
  const { page, errors } = await trackedPage(browser.context);
  const foreign = foreignRequests(page);
  files.log.length = 0;
  await page.goto(appUrl(`url=${encodeURIComponent(`${files.url}/lisbon.json`)}`));
  const box = page.locator('[data-role="link-confirm"]');
  await box.waitFor({ timeout: 60_000 });
  assert.equal(await box.getAttribute('data-host'), files.host);
  assert.equal(((await box.locator('p').textContent()) ?? '').trim(), say('en', 'link.confirm', { host: files.host, limit: LIMIT }));
  assert.equal(await box.locator('[data-role="link-confirm-url"]').textContent(), `${files.url}/lisbon.json`);
  assert.equal(await box.locator('[data-role="link-fetch"]').textContent(), say('en', 'link.confirmFetch', { host: files.host }));
  // Cancel has the focus: Enter without reading fetches nothing.
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-role')), 'link-cancel');
  await page.waitForTimeout(300);
  assert.equal(files.log.length, 0, 'nothing fetched while the question is open');
  await page.keyboard.press('Enter');
  assert.equal(await noteText(page, 'ok'), say('en', 'link.cancelled', { host: files.host }));
  assert.equal(await box.count(), 0);
  await page.waitForTimeout(300);
  assert.equal(files.log.length, 0, 'nothing fetched after Cancel');
  assert.deepEqual(foreign, []);
  assert.deepEqual(await scenarios(page), baseline);

  // Fetch: one GET, without cookies or a referrer; the request becomes a new scenario.
  await page.goto(appUrl(`url=${encodeURIComponent(`${files.url}/lisbon.json`)}`));
  await page.click('[data-role="link-fetch"]');
  assert.match(await noteText(page, 'ok'), /^Imported “lisbon” as the new scenario/);
  assert.deepEqual(
    files.log.map((r) => r.path),
    ['/lisbon.json'],
  );
  assert.equal(files.log[0]!.headers.cookie, undefined);
  assert.equal(files.log[0]!.headers.referer, undefined);
  const now = await scenarios(page);
  assert.equal(now.all.length, baseline.all.length + 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a body over the cap is refused while it streams; one announced over the cap is not read; nothing rendered', async () => {
  const { page, errors } = await trackedPage(browser.context);
  await page.goto(appUrl(''));
  const before = await scenarios(page);
  files.log.length = 0;
  await page.goto(appUrl(`url=${encodeURIComponent(`${files.url}/endless.txt`)}`));
  await page.click('[data-role="link-fetch"]', { timeout: 60_000 });
  assert.equal(await noteText(page, 'error'), say('en', 'link.tooLargeRead', { url: `${files.url}/endless.txt`, limit: LIMIT }));
  await page.waitForTimeout(500);
  assert.ok(files.sent < 2 * LINK_MAX_BYTES, `the server sent ${formatBytes(files.sent)} before the page stopped reading`);
  await nothingRendered(page);
  assert.ok(!((await page.textContent('body')) ?? '').includes('onerror'), 'the body is not shown, even as text');
  assert.deepEqual(await scenarios(page), before);

  await page.goto(appUrl(`url=${encodeURIComponent(`${files.url}/announced.json`)}`));
  await page.click('[data-role="link-fetch"]', { timeout: 60_000 });
  assert.equal(await noteText(page, 'error'), say('en', 'link.tooLarge', { url: `${files.url}/announced.json`, size: formatBytes(2 * LINK_MAX_BYTES), limit: LIMIT }));
  assert.deepEqual(await scenarios(page), before);
  // A web page (this site's own index.html) is refused by its type, without asking: it is same-origin.
  await page.goto(appUrl(`url=${encodeURIComponent('/')}`));
  assert.equal(await noteText(page, 'error'), say('en', 'link.webPage', { url: `${app.url}/`, type: 'text/html' }));
  assert.deepEqual(await scenarios(page), before);
  assert.deepEqual(errors, []);
  await page.close();
});

test('share links: over the caps refused in words; a hostile one opens as text; the notice is a sentence', async () => {
  const { page, errors, dialogs } = await trackedPage(browser.context);
  const foreign = foreignRequests(page);
  await page.goto(appUrl(''));
  const before = await scenarios(page);
  const note = page.locator('[data-role="share-note"]');

  await page.goto(appUrl('', `#s=${'A'.repeat(MAX_FRAGMENT_CHARS + 10)}`));
  await note.waitFor({ timeout: 60_000 });
  assert.equal(await note.getAttribute('data-kind'), 'error');
  assert.equal(await note.locator('[data-role="share-note-text"]').textContent(), say('en', 'share.tooLong', { size: formatCount(MAX_FRAGMENT_CHARS + 13), limit: formatCount(MAX_FRAGMENT_CHARS) }));
  assert.deepEqual(await scenarios(page), before);

  const bomb = toBase64Url(await deflateRaw(new TextEncoder().encode(' '.repeat(MAX_INFLATED_BYTES + 1_000_000))));
  await page.goto(appUrl('', `#s=${bomb}`));
  await note.waitFor();
  assert.equal(await note.locator('[data-role="share-note-text"]').textContent(), say('en', 'share.tooBig', { size: formatCount(MAX_INFLATED_BYTES + 1), limit: formatCount(MAX_INFLATED_BYTES) }));
  assert.deepEqual(await scenarios(page), before);

  // A built-in scenario: "Opened a shared link: the scenario “…” on the KV cache tab, layer 1." and a dismiss button in words.
  const ref = CATALOG[0]!;
  const builtIn: SharePayload = { v: 1, model: DEFAULT_MODEL, tab: 'kv', view: { ...DEFAULT_VIEW, layer: 1 }, scenario: { ref: ref.ref } };
  const e1 = await encodeShare(builtIn);
  assert.ok(e1.ok);
  await page.goto(appUrl('', e1.fragment));
  await note.waitFor();
  assert.equal(await note.locator('[data-role="share-note-text"]').textContent(), say('en', 'share.openedSentence', { scenario: ref.title.en, tab: say('en', 'tab.kv', {}), layer: 1 }));
  assert.equal(await note.locator('button').textContent(), say('en', 'share.dismiss', {}));
  assert.ok(!((await note.textContent()) ?? '').includes('✕'));
  await note.locator('button').click();
  assert.equal(await note.count(), 0);

  // Hostile text in the scenario's name and messages: it arrives as text, never as markup.
  const hostile: SharePayload = { v: 1, model: DEFAULT_MODEL, tab: 'attention', view: { ...DEFAULT_VIEW }, scenario: { name: PAYLOAD, request: { messages: [{ role: 'user', content: PAYLOAD }] } } };
  const e2 = await encodeShare(hostile);
  assert.ok(e2.ok);
  await page.goto(appUrl('', e2.fragment));
  await note.waitFor();
  const sentence = (await note.locator('[data-role="share-note-text"]').textContent()) ?? '';
  assert.ok(sentence.startsWith(`Opened a shared link: the scenario “${PAYLOAD}`), sentence);
  assert.ok(sentence.includes(PAYLOAD), 'the name is shown as the text it is');
  await nothingRendered(page);
  const after = await scenarios(page);
  assert.equal(after.all.length, before.all.length + 1, 'the link became one new scenario');
  assert.ok(before.all.every((s) => after.all.includes(s)), 'the user’s scenarios are all still there');
  assert.deepEqual(foreign, []);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the app runs under its Content-Security-Policy: model loads and paints, two WASM threads, no violation', async () => {
  const { page, errors } = await trackedPage(browser.context);
  const workerConsole: string[] = [];
  page.on('worker', (w) => w.on('console', (m) => m.type() === 'error' && workerConsole.push(m.text())));
  await page.addInitScript(() => {
    const w = window as unknown as { __workers: string[]; Worker: typeof Worker };
    w.__workers = [];
    const Real = w.Worker;
    w.Worker = class extends Real {
      constructor(u: string | URL, o?: WorkerOptions) {
        super(u, o);
        w.__workers.push(String(u));
      }
    };
  });
  const res = await page.goto(appUrl(''));
  const csp = res!.headers()['content-security-policy'] ?? '';
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval' 'sha256-/);
  assert.doesNotMatch(csp, /'unsafe-eval'|script-src[^;]*'unsafe-inline'/);
  await page.waitForSelector('#status[data-ready="true"]', { timeout: 120_000 });
  assert.equal(await page.evaluate(() => crossOriginIsolated), true);
  // The app's own worker again, with two threads: ORT starts a pthread worker (a same-origin module worker).
  const workerUrl = (await page.evaluate(() => (window as unknown as { __workers: string[] }).__workers))[0]!;
  const load = await page.evaluate(async (workerUrl) => {
    const w = new Worker(workerUrl);
    const [config, shard] = await Promise.all([fetch('/models/kvscope-tiny/config.json').then((r) => r.text()), fetch('/models/kvscope-tiny/model.safetensors').then((r) => r.arrayBuffer())]);
    try {
      return await new Promise<unknown>((resolve) => {
        const timer = setTimeout(() => resolve({ timeout: true }), 90_000);
        w.onmessage = (e) => {
          if (e.data?.kind === 'response' && e.data.id === 1) {
            clearTimeout(timer);
            resolve(e.data);
          }
        };
        w.onerror = (e) => resolve({ workerError: e.message });
        w.postMessage({ id: 1, type: 'load', config, shards: [shard], provider: 'wasm', numThreads: 2 });
      });
    } finally {
      w.terminate();
    }
  }, workerUrl);
  const r = load as { ok?: boolean; result?: { numThreads: number; provider: string } };
  assert.ok(r.ok, JSON.stringify(load));
  assert.equal(r.result!.numThreads, 2);
  assert.equal(r.result!.provider, 'wasm');
  const violated = () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
  assert.deepEqual(await violated(), []);
  // The lessons pages run under the same policy.
  await page.goto(`${app.url}/lessons/`);
  await page.waitForLoadState('networkidle');
  assert.deepEqual(await violated(), []);
  const violations = [...errors, ...workerConsole].filter((e) => /Content Security Policy|Refused to/i.test(e));
  assert.deepEqual(violations, []);
  assert.deepEqual(errors, []);
  await page.close();
});
