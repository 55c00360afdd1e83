// What the app keeps in a browser profile, for browser tests: its state lives in the IndexedDB database
// `kvscope` (lib/state/db.ts), not in localStorage, so emptying localStorage no longer resets the app.
import type { Page } from 'playwright-core';

/**
 * Empties what the app keeps on the origin of `base` (the `kvscope` database and localStorage: older
 * versions' state, the Data tab's selection) from a blank page of that origin, so no running copy of the app
 * writes its state back in between. The page is left on the blank page: go to the app next.
 */
export async function resetAppStorage(page: Page, base: string): Promise<void> {
  await page.route('**/__blank-for-reset', (r) => r.fulfill({ contentType: 'text/html', body: '<!doctype html><link rel="icon" href="data:,"><title>reset</title>' }));
  await page.goto(new URL('/__blank-for-reset', base).href);
  await page.evaluate(`new Promise((resolve, reject) => {
    localStorage.clear();
    const r = indexedDB.deleteDatabase('kvscope');
    r.onsuccess = () => resolve(true);
    r.onerror = () => reject(r.error);
    r.onblocked = () => resolve(false);
  })`);
  await page.unroute('**/__blank-for-reset');
}

/**
 * The saved state as JSON text (settings and scenario records), '' before the app first saved — what
 * `localStorage.getItem('kvscope:state')` gave for older versions. For waitForFunction-style polling.
 */
export async function savedStateText(page: Page): Promise<string> {
  return page.evaluate(`(async () => {
    if (indexedDB.databases && !(await indexedDB.databases()).some((d) => d.name === 'kvscope')) return '';
    return new Promise((resolve, reject) => {
      const q = indexedDB.open('kvscope');
      q.onerror = () => reject(q.error);
      q.onsuccess = () => {
        const db = q.result;
        if (!db.objectStoreNames.contains('scenarios')) { db.close(); return resolve(''); }
        const tx = db.transaction(['settings', 'scenarios'], 'readonly');
        const s = tx.objectStore('settings').get('state');
        const c = tx.objectStore('scenarios').getAll();
        tx.oncomplete = () => { db.close(); resolve(JSON.stringify({ settings: s.result ?? null, scenarios: c.result })); };
      };
    });
  })()`);
}
