// End-to-end (the exported app in headless Chromium): nothing the user made is lost. The localStorage state
// of older versions moves into IndexedDB; a half-typed scenario survives a reload; a full quota is reported
// in the user's language naming what was not saved, and what was saved before is intact; the engine worker
// killed in the middle of a prefill is restarted with a note that says what to try, and the text being
// edited is untouched; at the scenario limit the user is asked; the workspace file goes from one browser to
// another, merged with suffixes, and a broken file is refused with its place.
//
// The quota: a headless profile gets 10 GiB, and CDP's Storage.overrideQuotaForOrigin is accepted but has
// no effect in this Chromium (measured), so the test sets a quota of its own with an init script: puts that
// would pass it abort their transaction with a QuotaExceededError, as Chromium does at a real quota, and
// navigator.storage.estimate reports that quota. The app's code path is the production one throughout.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { launchChromium, trackedPage } from './helpers/browser';
import { serveStatic } from './helpers/staticServer';
import { ensureBuiltOut } from './helpers/staticBuild';
import { STRINGS } from '../lib/i18n';
import { MAX_CUSTOM } from '../lib/state/store';

let server: Awaited<ReturnType<typeof serveStatic>>;
const tmp = mkdtempSync(join(tmpdir(), 'kvscope-persist-'));

before(async () => {
  ensureBuiltOut();
  server = await serveStatic({ '/': 'out' }, { isolated: true });
});
after(async () => {
  await server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const EDITOR = '[data-role="editor-text"]';
const READY = '#status[data-ready="true"]';

/**
 * Writes the localStorage state an older version left, on this origin, before the app first runs: from a
 * blank page of the origin (the app itself would save its defaults to IndexedDB first, and the old state
 * would then be stale instead of moved).
 */
async function seedLegacy(page: Page, state: object): Promise<void> {
  await page.route('**/seed-page', (r) => r.fulfill({ contentType: 'text/html', body: '<!doctype html><link rel="icon" href="data:,"><title>seed</title>' }));
  await page.goto(server.url + '/seed-page');
  await page.evaluate((s) => localStorage.setItem('kvscope:state', JSON.stringify({ state: s, version: 1 })), state);
}

/** The scenario records in the app's database (only once the app has created it: opening creates it empty). */
function storedScenarios(page: Page): Promise<{ id: string; name: string; text: string }[]> {
  return page.evaluate(`new Promise((resolve, reject) => {
    const q = indexedDB.open('kvscope');
    q.onerror = () => reject(q.error);
    q.onsuccess = () => {
      const db = q.result;
      const tx = db.transaction('scenarios', 'readonly');
      const r = tx.objectStore('scenarios').getAll();
      tx.oncomplete = () => { db.close(); resolve(r.result.map((c) => ({ id: c.id, name: c.name, text: c.text }))); };
    };
  })`);
}

async function waitStored(page: Page, id: string, text: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const s = (await storedScenarios(page)).find((c) => c.id === id);
    if (s?.text === text) return;
    if (Date.now() > deadline) throw new Error(`scenario ${id} was not stored with the edited text (stored: ${JSON.stringify(s?.text?.slice(0, 80))})`);
    await page.waitForTimeout(100);
  }
}

const tokens = async (page: Page) => Number(await page.getAttribute('#status', 'data-tokens'));

/** Waits until the run is ready on a prompt whose token count passes `ok`; returns that count. */
async function readyWith(page: Page, ok: (n: number) => boolean): Promise<number> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ready = (await page.getAttribute('#status', 'data-ready')) === 'true';
    const n = await tokens(page);
    if (ready && ok(n)) return n;
    if (Date.now() > deadline) throw new Error(`no ready run with the expected prompt (ready ${ready}, ${n} tokens)`);
    await page.waitForTimeout(100);
  }
}

const request = (content: string) => JSON.stringify({ messages: [{ role: 'user', content }] }, null, 2);

test('the state older versions kept in localStorage moves into IndexedDB; a half-typed draft survives a reload', async () => {
  const browser = await launchChromium();
  try {
    const { page, errors } = await trackedPage(browser.context);
    const text = request('hello from the old version');
    await seedLegacy(page, { lang: 'zh', scenario: 'custom:old1', custom: [{ id: 'old1', name: '旧场景', text, lastGood: JSON.parse(text), createdAt: 1 }] });
    await page.goto(server.url + '/');
    await page.waitForSelector(EDITOR);
    assert.equal(await page.inputValue(EDITOR), text);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
    await page.waitForFunction(() => localStorage.getItem('kvscope:state') === null, null, { timeout: 10_000 });
    assert.deepEqual(await storedScenarios(page), [{ id: 'old1', name: '旧场景', text }]);

    // A draft that is not valid JSON yet: kept as typed, stored on edit, there after a reload.
    const draft = '{"messages": [{"role": "user", "content": "half typ';
    await page.fill(EDITOR, draft);
    await waitStored(page, 'old1', draft);
    await page.reload();
    await page.waitForSelector(EDITOR);
    assert.equal(await page.inputValue(EDITOR), draft);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
    assert.equal(await page.evaluate(() => localStorage.getItem('kvscope:state')), null, 'not written back to localStorage');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

/** The test's quota (see the top of the file): `window.__quotaLeft` bytes may still be put; unset, no quota. */
const QUOTA_SCRIPT = `(() => {
  const over = new WeakSet();
  const put = IDBObjectStore.prototype.put;
  const size = (v) => { try { return JSON.stringify(v).length; } catch { return 0; } };
  IDBObjectStore.prototype.put = function (value, key) {
    const req = key === undefined ? put.call(this, value) : put.call(this, value, key);
    if (typeof window.__quotaLeft === 'number') {
      const n = size(value);
      const tx = this.transaction;
      if (n > window.__quotaLeft && !over.has(tx)) {
        over.add(tx);
        req.addEventListener('success', () => tx.abort());
      } else window.__quotaLeft -= n;
    }
    return req;
  };
  // A real quota fails the commit too: an early commit() must not save the transaction from its abort.
  const commit = IDBTransaction.prototype.commit;
  IDBTransaction.prototype.commit = function () { if (!over.has(this)) commit.call(this); };
  const error = Object.getOwnPropertyDescriptor(IDBTransaction.prototype, 'error');
  Object.defineProperty(IDBTransaction.prototype, 'error', {
    configurable: true,
    get() { return over.has(this) ? new DOMException('The quota has been exceeded.', 'QuotaExceededError') : error.get.call(this); },
  });
  const estimate = StorageManager.prototype.estimate;
  StorageManager.prototype.estimate = function () {
    return typeof window.__quotaLeft === 'number' ? Promise.resolve({ usage: 4_800_000, quota: 5_000_000 }) : estimate.call(this);
  };
})();`;

test('a full quota: the notice names what was not saved and how full storage is, in both languages; what was saved before is intact', async () => {
  const browser = await launchChromium();
  try {
    const { page, errors } = await trackedPage(browser.context);
    await page.addInitScript(QUOTA_SCRIPT);
    const saved = request('saved before the quota was full');
    await seedLegacy(page, { scenario: 'custom:keep', custom: [{ id: 'keep', name: 'kept scenario', text: saved, lastGood: JSON.parse(saved), createdAt: 1 }] });
    await page.goto(server.url + '/');
    await page.waitForSelector(EDITOR);
    await waitStored(page, 'keep', saved);

    // Storage is nearly full: the next large edit does not fit.
    await page.evaluate(() => ((window as unknown as { __quotaLeft: number }).__quotaLeft = 20_000));
    const big = request('x'.repeat(60_000));
    await page.fill(EDITOR, big);
    const notice = page.locator('[data-role="storage-notice"][data-code="quota"]');
    await notice.waitFor({ timeout: 10_000 });
    const en = (await notice.textContent()) ?? '';
    assert.match(en, /Could not save the scenario “kept scenario”: the browser’s storage for kvscope is full \(4\.58 MiB of 4\.77 MiB used\)\. Everything saved before is kept/);
    assert.equal(await page.inputValue(EDITOR), big, 'the edit stays in the page');
    await page.click('button[data-lang="zh"]');
    await page.waitForFunction(() => document.querySelector('[data-role="storage-notice"]')?.textContent?.includes('无法保存场景“kept scenario”'));
    assert.match((await notice.textContent()) ?? '', /存储空间已满（已用 4\.58 MiB，共 4\.77 MiB）/);
    assert.deepEqual(
      (await storedScenarios(page)).map((c) => c.text),
      [saved],
      'nothing of the failed save was written',
    );

    // A reload (no quota left set): everything saved before is there; the language change did not fit either.
    await page.reload();
    await page.waitForSelector(EDITOR);
    assert.equal(await page.inputValue(EDITOR), saved);
    assert.equal(await page.locator('[data-role="storage-notice"]').count(), 0);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('the engine worker killed mid-prefill: restarted, the note says what happened and what to try, the edited messages intact', async () => {
  const browser = await launchChromium();
  try {
    const { page } = await trackedPage(browser.context);
    await page.goto(server.url + '/');
    await page.waitForSelector(READY, { timeout: 60_000 });
    const vancouver = await tokens(page);
    await page.click('[data-role="scenario-new"]');
    const first = request('What is the weather in Vancouver?');
    await page.fill(EDITOR, first);
    const firstTokens = await readyWith(page, (n) => n !== vancouver);
    // The engine worker (a Turbopack worker chunk), not ORT's own thread workers (/ort/…).
    const engineWorkers = () => page.workers().filter((w) => !new URL(w.url()).pathname.startsWith('/ort/'));
    assert.equal(engineWorkers().length, 1, `one engine worker among ${page.workers().map((w) => w.url()).join(', ')}`);
    // The worker dies on the next prefill it receives: the host has started it, then an uncaught error
    // (the way an out-of-memory abort surfaces) reaches the page's Worker and the client.
    await engineWorkers()[0]!.evaluate(`self.addEventListener('message', (e) => { if (e.data && e.data.type === 'prefill') throw new Error('simulated crash: out of memory'); }); 'armed'`);
    const edited = request('What is the weather in Vancouver, and should I take an umbrella to Stanley Park?');
    await page.fill(EDITOR, edited);
    const note = page.locator('[data-role="worker-note"][data-kind="restarted"]');
    await note.waitFor({ timeout: 30_000 });
    const text = (await note.textContent()) ?? '';
    assert.ok(text.includes(STRINGS['worker.hints'].en), text);
    assert.ok(text.includes(STRINGS['worker.memory'].en), text);
    assert.match(text, /simulated crash: out of memory/);
    assert.equal(await note.getAttribute('data-memory'), 'true');
    // The run is repeated on the new worker, on the edited messages.
    const editedTokens = await readyWith(page, (n) => n > firstTokens);
    assert.equal(await page.inputValue(EDITOR), edited, 'the edited text is intact');
    assert.ok(editedTokens > firstTokens, `the repeated run shows the edited prompt (${editedTokens} tokens)`);
    // Playwright drops a terminated worker from page.workers() when its 'close' arrives, which can come a moment
    // after the new worker's first run; a worker leaked beside the new one stays and fails this.
    for (const end = Date.now() + 10_000; engineWorkers().length !== 1 && Date.now() < end; ) await page.waitForTimeout(100);
    assert.equal(engineWorkers().length, 1, `the dead worker was replaced, not added to: ${page.workers().map((w) => w.url()).join(', ')}`);
    // In Chinese too, and dismissable.
    await page.click('button[data-lang="zh"]');
    assert.ok(((await note.textContent()) ?? '').includes(STRINGS['worker.hints'].zh));
    await page.click('[data-role="worker-note-dismiss"]');
    assert.equal(await page.locator('[data-role="worker-note"]').count(), 0);
    // Still there after a reload.
    await page.reload();
    await page.waitForSelector(EDITOR);
    assert.equal(await page.inputValue(EDITOR), edited);
  } finally {
    await browser.close();
  }
});

test(`at ${MAX_CUSTOM} scenarios, a new one asks before the oldest goes; cancelling changes nothing`, async () => {
  const browser = await launchChromium();
  try {
    const page = await browser.context.newPage();
    const custom = Array.from({ length: MAX_CUSTOM }, (_, i) => ({ id: `c${i}`, name: `mine ${i}`, text: '{}', lastGood: null, createdAt: 100 + i }));
    await seedLegacy(page, { scenario: 'custom:c3', custom });
    await page.goto(server.url + '/');
    await page.waitForSelector(EDITOR);
    const asked: string[] = [];
    let answer = false;
    page.on('dialog', (d) => {
      asked.push(d.message());
      void (answer ? d.accept() : d.dismiss());
    });
    const names = () => page.$$eval('[data-role="scenario-picker"] optgroup:last-of-type option', (os) => os.map((o) => o.textContent));
    await page.click('[data-role="scenario-new"]');
    assert.equal(asked.length, 1);
    assert.match(asked[0]!, /the most kvscope keeps\. Remove the oldest, “mine 0”/);
    assert.equal((await names()).length, MAX_CUSTOM);
    assert.equal((await names())[0], 'mine 0', 'nothing dropped');
    answer = true;
    await page.click('[data-role="scenario-new"]');
    await page.waitForFunction(() => document.querySelector('[data-role="scenario-picker"] optgroup:last-of-type option')?.textContent === 'mine 1');
    assert.equal((await names()).length, MAX_CUSTOM);
  } finally {
    await browser.close();
  }
});

test('the workspace file: exported from one browser, imported into another with a preview and suffixes; a broken file is refused with its place', async () => {
  const a = await launchChromium([], { acceptDownloads: true });
  let file = '';
  try {
    const page = await a.context.newPage();
    const text = request('exported scenario');
    await seedLegacy(page, { lang: 'en', scenario: 'custom:e1', custom: [{ id: 'e1', name: 'travel plan', text, lastGood: JSON.parse(text), createdAt: 1 }] });
    await page.goto(server.url + '/');
    await page.waitForSelector(EDITOR);
    await page.click('[data-tab="data"]');
    await page.fill('[data-role="paste-box"]', JSON.stringify([{ agent: 'Manager', prompt_tokens: 780, completion_tokens: 40, note: 'plan' }]));
    await page.fill('[data-role="paste-name"]', 'my run log');
    await page.click('[data-role="paste-import"]');
    await page.waitForSelector('[data-role="import-list"] [data-import-id]');
    const download = page.waitForEvent('download');
    await page.click('[data-role="workspace-export"]');
    const d = await download;
    file = join(tmp, d.suggestedFilename());
    await d.saveAs(file);
    assert.match((await page.textContent('[data-role="workspace-note"]')) ?? '', /1 scenarios and 1 imported files/);
  } finally {
    await a.close();
  }
  const ws = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(ws.format, 'kvscope-workspace');
  assert.equal(ws.version, 1);

  const b = await launchChromium();
  try {
    const { page, errors } = await trackedPage(b.context);
    const own = request('mine, here');
    await seedLegacy(page, { scenario: 'custom:h1', custom: [{ id: 'h1', name: 'travel plan', text: own, lastGood: JSON.parse(own), createdAt: 1 }] });
    await page.goto(server.url + '/');
    await page.waitForSelector(EDITOR);
    await page.click('[data-tab="data"]');

    const broken = join(tmp, 'broken.json');
    writeFileSync(broken, JSON.stringify({ ...ws, scenarios: [{ ...ws.scenarios[0], name: 42 }] }));
    await page.setInputFiles('[data-role="workspace-file"]', broken);
    const refused = page.locator('[data-role="workspace-note"][data-kind="refused"]');
    await refused.waitFor();
    assert.match((await refused.textContent()) ?? '', /broken\.json was not imported: at scenarios\[0\]\.name: expected a string, found a number\. Nothing was changed\./);

    await page.setInputFiles('[data-role="workspace-file"]', file);
    await page.waitForSelector('[data-role="workspace-preview"]');
    const changes = await page.$$eval('[data-role="workspace-changes"] li', (ls) => ls.map((l) => [l.getAttribute('data-status'), l.textContent]));
    assert.deepEqual(changes, [
      ['renamed', 'add the scenario “travel plan” as “travel plan (2)” (the name is taken here)'],
      ['add', 'add the imported file “my run log”'],
    ]);
    await page.click('[data-role="workspace-apply"]');
    await page.waitForSelector('[data-role="workspace-note"][data-kind="ok"]');
    assert.equal(await page.locator('[data-role="import-list"] [data-import-id]').count(), 1);
    const names = await page.$$eval('[data-role="scenario-picker"] optgroup:last-of-type option', (os) => os.map((o) => o.textContent));
    assert.deepEqual(names, ['travel plan', 'travel plan (2)']);
    // Both kept across a reload, the user's own scenario unchanged.
    await page.reload();
    await page.waitForSelector(EDITOR);
    assert.equal(await page.inputValue(EDITOR), own);
    assert.deepEqual((await storedScenarios(page)).map((c) => c.name).sort(), ['travel plan', 'travel plan (2)']);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});
