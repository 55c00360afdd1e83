// Launches Debian's headless Chromium through playwright-core with the project's required flags and a
// fresh profile. Test-only; nothing here reaches the network beyond loopback.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

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
