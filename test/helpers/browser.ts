// Launches Debian's headless Chromium through playwright-core with the project's required flags and a
// fresh profile. Test-only; nothing here reaches the network beyond loopback.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.KVSCOPE_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--enable-unsafe-webgpu',
];

/**
 * A persistent context in a throwaway profile directory; close() removes the directory too.
 * opts.acceptDownloads: save downloads (page.waitForEvent('download'), download.path()); unset leaves
 * playwright's default.
 */
export async function launchChromium(extraFlags: string[] = [], opts: { acceptDownloads?: boolean } = {}): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'kvscope-chromium-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_FLAGS, ...extraFlags],
    ...(opts.acceptDownloads === undefined ? {} : { acceptDownloads: opts.acceptDownloads }),
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A new page that records what a test must see none of: uncaught page errors and console errors (in
 * `errors`), and dialogs (`dialogs`: their messages; each is dismissed, as playwright does unasked).
 */
export async function trackedPage(context: BrowserContext): Promise<{ page: Page; errors: string[]; dialogs: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  const dialogs: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return { page, errors, dialogs };
}
