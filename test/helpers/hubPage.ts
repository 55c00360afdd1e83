// The app's "Open a model" dialog driven as a user drives it, shared by the fake-Hub e2e test and the browser
// model benchmark (bench/modelsBrowser.ts).
import type { Page } from 'playwright-core';

export async function openModelDialog(page: Page): Promise<void> {
  await page.click('[data-role="model-open"]');
  await page.waitForSelector('[data-role="model-dialog"]');
}

/** Types a repo id with `endpoint` (a fake Hub) as the Hub, runs the preflight and returns the report's text. */
export async function checkHubRepo(page: Page, endpoint: string, repo: string): Promise<string> {
  await openModelDialog(page);
  const field = page.locator('[data-role="hub-endpoint"]');
  if (!(await field.isVisible())) await page.click('[data-role="model-dialog"] details > summary');
  await field.fill(endpoint);
  await page.fill('[data-role="hub-repo"]', repo);
  await page.click('[data-role="hub-check"]');
  await page.waitForSelector('[data-role="preflight-report"], [data-role="model-error"]', { timeout: 60_000 });
  return (await page.locator('[data-role="preflight-report"], [data-role="model-error"]').first().textContent()) ?? '';
}
