// End-to-end (issue 17, check d): the exported app in headless Chromium stays responsive on the seed run
// log. A PerformanceObserver for long tasks is registered before any page script runs (addInitScript,
// buffered), and each long task is attributed to the phase whose window holds its start: importing the seed
// run log (file picker), stepping on the Step tab (single steps, steps back, End, Home) and switching
// through every tab twice. Loading the page and the model is reported, not asserted.
//
// Wall-clock durations on a shared machine include time the page waited for a CPU, so a DevTools trace of
// the same phases also gives each main-thread task's own CPU time (thread time). The test asserts that no
// task of the three phases used 200 ms of main-thread CPU, and prints both figures; KVSCOPE_WALL_LIMIT=1 (a
// quiet machine) asserts the PerformanceObserver's wall-clock figure too; RESPONSIVE_TRACE=<file> saves the
// trace (open it in the DevTools Performance panel).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { launchChromium, trackedPage } from './helpers/browser';
import { mark, phaseTasks, startTrace, stopTrace } from './helpers/mainThread';
import { ensureBuiltOut } from './helpers/staticBuild';
import { serveStatic } from './helpers/staticServer';

const SEED = 'test/fixtures/runlog/translation-single-agent.page.txt';
const LIMIT_MS = 200;
const TABS = ['attention', 'step', 'ab', 'kv', 'data'] as const;
const PHASES = ['import', 'step', 'tabs'] as const;

let browser: Awaited<ReturnType<typeof launchChromium>>;
let server: Awaited<ReturnType<typeof serveStatic>>;

before(async () => {
  ensureBuiltOut();
  server = await serveStatic({ '/': 'out' }, { isolated: true });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

interface LongTask {
  start: number;
  duration: number;
}

/** Runs in the page before its own scripts: collects every long task from navigation on. */
function observeLongTasks() {
  const w = window as unknown as { __longTasks: { start: number; duration: number }[] };
  w.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
}

// A string, not a function: the test runner's transform would name an inner function (`__name`), which the page lacks.
const frames = (page: Page) => page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(null))))');

/** Waits until no long task has started for `quietMs` (what a phase set off has finished on the main thread). */
async function settle(page: Page, quietMs = 600): Promise<void> {
  await page.waitForFunction(
    (q) => {
      const w = window as unknown as { __longTasks: { start: number; duration: number }[] };
      const last = w.__longTasks.at(-1);
      return !last || performance.now() - (last.start + last.duration) > q;
    },
    quietMs,
    { timeout: 60_000, polling: 100 },
  );
}

async function stepTo(page: Page, key: string, want: number | null): Promise<number> {
  await page.focus('[data-role="stepper"]');
  await page.keyboard.press(key);
  await page.waitForFunction(
    (c) => {
      const e = document.querySelector('[data-role="step-lab"]');
      return !!e && (c === null || e.getAttribute('data-cursor') === String(c)) && e.getAttribute('data-idle') === 'true';
    },
    want,
    { timeout: 30_000 },
  );
  return Number(await page.getAttribute('[data-role="step-lab"]', 'data-cursor'));
}

test('importing, stepping and switching tabs on the seed run log: no main-thread task over 200 ms', async (t) => {
  const { page, errors } = await trackedPage(browser.context);
  await page.addInitScript(observeLongTasks);
  await page.setViewportSize({ width: 1400, height: 1000 });
  const windows: Record<string, [number, number]> = {};
  const phase = async (name: (typeof PHASES)[number], fn: () => Promise<void>) => {
    const from = await mark(page, name, 'start');
    await fn();
    await settle(page);
    windows[name] = [from, await mark(page, name, 'end')];
  };

  await page.goto(server.url + '/?lang=en');
  await page.waitForSelector('#status[data-ready="true"]', { timeout: 180_000 });
  await settle(page);
  windows.load = [0, await page.evaluate(() => performance.now())];

  const cdp = await startTrace(browser.context, page);

  await phase('import', async () => {
    await page.click('button[data-tab="data"]');
    await page.setInputFiles('[data-role="file-input"]', SEED);
    await page.waitForSelector('[data-role="import-note"][data-kind="ok"]', { timeout: 60_000 });
    await page.waitForSelector('[data-role="runlog-view"]');
    await frames(page);
  });
  assert.match((await page.textContent('[data-role="runlog-view"]')) ?? '', /94,355/);

  await phase('step', async () => {
    await page.click('button[data-tab="step"]');
    await page.waitForSelector('[data-role="step-lab"][data-idle="true"]', { timeout: 60_000 });
    let c = Number(await page.getAttribute('[data-role="step-lab"]', 'data-cursor'));
    for (let i = 0; i < 40; i++) c = await stepTo(page, 'ArrowRight', c + 1);
    for (let i = 0; i < 10; i++) c = await stepTo(page, 'ArrowLeft', c - 1);
    await stepTo(page, 'End', null);
    await stepTo(page, 'Home', 1);
    for (let i = 0; i < 10; i++) await stepTo(page, 'ArrowRight', i + 2);
  });

  await phase('tabs', async () => {
    for (let round = 0; round < 2; round++) {
      for (const tab of TABS) {
        await page.evaluate((n) => void performance.mark(`tab:${n}`), tab); // names the tab in a saved trace
        await page.click(`button[data-tab="${tab}"]`);
        await page.waitForSelector(`button[data-tab="${tab}"][aria-selected="true"]`);
        await frames(page);
        await settle(page, 400);
      }
    }
    await page.click('button[data-tab="data"]');
    await page.waitForSelector('[data-role="runlog-view"]');
  });

  const events = await stopTrace(cdp);
  if (process.env.RESPONSIVE_TRACE) writeFileSync(process.env.RESPONSIVE_TRACE, JSON.stringify(events));
  const trace = phaseTasks(events, PHASES);
  const tasks = (await page.evaluate(() => (window as unknown as { __longTasks: LongTask[] }).__longTasks)) as LongTask[];
  const wall: Record<string, number> = {};
  for (const [name, [from, to]] of Object.entries(windows)) {
    const mine = tasks.filter((x) => x.start >= from && x.start < to);
    wall[name] = Math.max(0, ...mine.map((x) => x.duration));
    const cpu = trace[name] ? `; trace: longest ${Math.round(trace[name].wall)} ms wall, ${Math.round(trace[name].cpu)} ms CPU` : '';
    t.diagnostic(`${name}: ${mine.length} long tasks, longest ${Math.round(wall[name])} ms (${Math.round(to - from)} ms phase)${cpu}`);
  }
  const worstWall = Math.max(...PHASES.map((p) => wall[p]!));
  const worstCpu = Math.max(...PHASES.map((p) => trace[p]!.cpu));
  t.diagnostic(`longest main-thread task while importing, stepping and switching tabs: ${Math.round(worstWall)} ms wall-clock (PerformanceObserver), ${Math.round(worstCpu)} ms CPU (trace); limit ${LIMIT_MS} ms`);
  // onnxruntime's console warnings about node placement are not errors of ours.
  assert.deepEqual(
    errors.filter((e) => !/\[W:onnxruntime/.test(e)),
    [],
  );
  assert.ok(worstCpu < LIMIT_MS, `a main-thread task used ${Math.round(worstCpu)} ms of CPU: ${JSON.stringify(trace)}`);
  if (process.env.KVSCOPE_WALL_LIMIT === '1') assert.ok(worstWall < LIMIT_MS, `longest task ${Math.round(worstWall)} ms wall-clock: ${JSON.stringify(wall)}`);
  await cdp.detach();
  await page.close();
});
