// Browser benchmark (npm run bench:browser): (a) the exported app in headless Chromium, navigation start →
// first 'kvscope:heatmap-painted' mark, 5 page loads (the first in a fresh profile); (b) <Heatmap> alone
// with a synthetic 4,096×4,096 causal attention matrix: first paint, paint after a zoom step, hover.
//
//   npm run bench:browser                  # builds the app first when out/ is missing or older than the sources
//   npm run bench:browser -- --skip-app    # (b) only
//   npm run bench:browser -- --out DIR     # serve another export of the app for (a); never builds
//   npm run bench:browser -- --runs 5      # page loads in (a)
//
// Only loopback is used: the app and the harness are served by scripts/serve.mjs's server on 127.0.0.1.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM, launchChromium } from '../test/helpers/browser';
import { serveStatic } from '../test/helpers/staticServer';
import { serveHarness } from '../test/helpers/harness';
import type { HeatmapBenchResult } from './browser/heatmapBench';
import { option, PAINT_MARK } from './common';

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const RUNS = Number(option('--runs') ?? 5);
const TARGET_LOAD_MS = 2000;
const TARGET_FIRST_PAINT_MS = 100;
const TARGET_HOVER_MS = 16;

// ---- statistics and formatting ------------------------------------------------------------------------

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const min = (xs: number[]) => Math.min(...xs);
const max = (xs: number[]) => Math.max(...xs);
const ms = (x: number) => (Number.isFinite(x) ? (x >= 100 ? x.toFixed(0) : x.toFixed(1)) : 'n/a');
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

function table(head: string[], rows: string[][]): string {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => '| ' + r.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join(' | ') + ' |';
  return [line(head), '|' + w.map((n, i) => (i === 0 ? '-'.repeat(n + 2) : '-'.repeat(n + 1) + ':')).join('|') + '|', ...rows.map(line)].join('\n');
}

// ---- machine ------------------------------------------------------------------------------------------

function machine(): { cores: string; cpu: string; chromium: string; node: string; memGiB: string } {
  const sh = (cmd: string, a: string[]) => {
    try {
      return execFileSync(cmd, a, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return 'unknown';
    }
  };
  let cpu = cpus()[0]?.model ?? 'unknown';
  try {
    cpu = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpu;
  } catch {
    /* not Linux */
  }
  let memGiB = 'unknown';
  try {
    const kb = Number(/^MemTotal:\s+(\d+)/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1]);
    if (kb) memGiB = (kb / 1024 / 1024).toFixed(1);
  } catch {
    /* not Linux */
  }
  return { cores: sh('nproc', []), cpu, chromium: sh(CHROMIUM, ['--version']), node: process.version, memGiB };
}

// ---- (a) the app ---------------------------------------------------------------------------------------

/** Newest modification time under the app's source folders (what a build of out/ depends on). */
function newestSource(): number {
  let newest = 0;
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  for (const d of ['app', 'components', 'lib', 'workers', 'public']) walk(d);
  return newest;
}

function ensureBuild(): string {
  const given = option('--out');
  if (given) {
    if (!existsSync(join(given, 'index.html'))) throw new Error(`${given}/index.html not found`);
    return given;
  }
  const index = join('out', 'index.html');
  const reason = !existsSync(index) ? 'out/ is missing' : statSync(index).mtimeMs < newestSource() ? 'out/ is older than the sources' : null;
  if (reason) {
    console.log(`(a) ${reason}: npm run build …`);
    const t = Date.now();
    execFileSync('npm', ['run', 'build'], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
    console.log(`    built in ${((Date.now() - t) / 1000).toFixed(0)} s`);
  }
  return 'out';
}

interface LoadSample {
  run: number;
  profile: 'fresh' | 'reused';
  paintMs: number;
  modelFetchedMs: number;
  domContentLoadedMs: number;
}

async function benchApp(): Promise<LoadSample[]> {
  const dir = ensureBuild();
  const server = await serveStatic({ '/': dir }, { isolated: true });
  const browser = await launchChromium();
  const samples: LoadSample[] = [];
  try {
    for (let run = 1; run <= RUNS; run++) {
      const page = await browser.context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.setViewportSize({ width: 1400, height: 900 });
      await page.goto(server.url + '/');
      await page.waitForFunction((name) => performance.getEntriesByName(name).length > 0, PAINT_MARK, { timeout: 180_000, polling: 50 });
      const t = await page.evaluate((name) => {
        const mark = performance.getEntriesByName(name)[0]!;
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
        const model = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((r) => r.name.endsWith('/model.safetensors'));
        // Navigation start is the time origin (0) of the page's performance clock.
        return { paint: mark.startTime, model: model ? model.responseEnd : NaN, dcl: nav ? nav.domContentLoadedEventEnd : NaN };
      }, PAINT_MARK);
      if (errors.length) throw new Error(`page errors on load ${run}: ${errors.join('; ')}`);
      samples.push({ run, profile: run === 1 ? 'fresh' : 'reused', paintMs: t.paint, modelFetchedMs: t.model, domContentLoadedMs: t.dcl });
      console.log(`    load ${run}: first heatmap paint ${ms(t.paint)} ms (model file fetched at ${ms(t.model)} ms)`);
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return samples;
}

// ---- (b) the component alone ------------------------------------------------------------------------------

async function benchComponent(dprs: number[], pages: number): Promise<HeatmapBenchResult[]> {
  const server = await serveHarness('bench/browser/heatmapBench.ts', { minify: true });
  const browser = await launchChromium();
  const out: HeatmapBenchResult[] = [];
  try {
    for (const dpr of dprs) {
      for (let i = 0; i < pages; i++) {
        const page = await browser.context.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        await page.setViewportSize({ width: 1000, height: 900 });
        if (dpr !== 1) {
          const cdp = await browser.context.newCDPSession(page);
          await cdp.send('Emulation.setDeviceMetricsOverride', { width: 1000, height: 900, deviceScaleFactor: dpr, mobile: false });
        }
        await page.goto(server.url + '/index.html');
        await page.waitForFunction(() => 'runHeatmapBench' in self, undefined, { timeout: 30_000 });
        const r = await page.evaluate(() => (self as unknown as { runHeatmapBench: () => Promise<HeatmapBenchResult> }).runHeatmapBench());
        if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
        console.log(`    dpr ${dpr}, page ${i + 1}: first paint ${ms(r.firstPaintMs)} ms, zoom step median ${ms(median(r.zoomPaintMs))} ms, hover → tooltip mean ${ms(mean(r.hoverUpdateMs))} ms`);
        out.push(r);
        await page.close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return out;
}

// ---- main ---------------------------------------------------------------------------------------------------

const m = machine();
console.log('kvscope browser benchmark');
console.log(`machine: ${m.cores} CPUs (nproc), ${m.cpu}, ${m.memGiB} GiB RAM; ${m.chromium} (headless, ${CHROMIUM}); Node ${m.node}`);
console.log(`date: ${new Date().toISOString()}`);

if (!flag('--skip-app')) {
  console.log(`\n(a) exported app (out/), served cross-origin isolated on 127.0.0.1: navigation start → first '${PAINT_MARK}' mark, ${RUNS} page loads, each a fresh page; load 1 in a fresh profile, later loads in the same profile`);
  const s = await benchApp();
  const later = s.filter((x) => x.profile === 'reused').map((x) => x.paintMs);
  const all = s.map((x) => x.paintMs);
  const row = (label: string, xs: number[], fetched: number[]) => [label, String(xs.length), ms(median(xs)), ms(min(xs)), ms(max(xs)), ms(median(fetched)), verdict(median(xs) <= TARGET_LOAD_MS)];
  console.log(
    '\n' +
      table(
        ['(a) loads', 'n', 'median ms', 'min ms', 'max ms', 'model file fetched, median ms', `target ≤ ${TARGET_LOAD_MS} ms`],
        [
          row('first load, fresh profile', all.slice(0, 1), s.slice(0, 1).map((x) => x.modelFetchedMs)),
          ...(later.length ? [row('later loads, same profile', later, s.slice(1).map((x) => x.modelFetchedMs))] : []),
          row('all loads', all, s.map((x) => x.modelFetchedMs)),
        ],
      ),
  );
}

const dprs = (option('--dpr') ?? '1,2').split(',').map(Number);
const PAGES = Number(option('--pages') ?? 5);
console.log(`\n(b) <Heatmap> alone, SYNTHETIC 4,096×4,096 causal attention (random logits in [−4, 4], key 0 lifted by 4, softmax per row over k ≤ q; the embedded model is not what is timed here), 640 CSS px, power scale, segment bands on; ${PAGES} fresh pages per devicePixelRatio, timed in the page with performance.now()`);
const results = await benchComponent(dprs, PAGES);
const rows: string[][] = [];
const stat = (label: string, xs: number[], target = '') => [label, String(xs.length), ms(median(xs)), ms(mean(xs)), ms(min(xs)), ms(max(xs)), target];
for (const dpr of dprs) {
  const rs = results.filter((r) => r.dpr === dpr);
  if (!rs.length) continue;
  const tag = `dpr ${dpr}, ${rs[0]!.backingPx}² px`;
  const all = (f: (r: HeatmapBenchResult) => number[]) => rs.flatMap(f);
  const first = all((r) => [r.firstPaintMs]);
  const dispatch = all((r) => r.hoverDispatchMs);
  const update = all((r) => r.hoverUpdateMs);
  rows.push(stat(`first paint, setMatrix → painted mark (${tag})`, first, `≤ ${TARGET_FIRST_PAINT_MS} ms median: ${verdict(median(first) <= TARGET_FIRST_PAINT_MS)}; max: ${verdict(max(first) <= TARGET_FIRST_PAINT_MS)}`));
  rows.push(stat(`  setMatrix → next animation frame (${tag})`, all((r) => [r.firstFrameMs])));
  rows.push(stat(`paint after one wheel zoom step (${tag})`, all((r) => r.zoomPaintMs)));
  rows.push(stat(`paint after reset, 0 key (${tag})`, all((r) => [r.resetPaintMs])));
  rows.push(stat(`  rasterize alone, full view (${tag})`, all((r) => r.rasterMs)));
  rows.push(stat(`  paintRgba alone (${tag})`, all((r) => r.paintRgbaMs)));
  rows.push(stat(`hover: pointermove handler, inside dispatchEvent (${tag})`, dispatch, `< ${TARGET_HOVER_MS} ms: ${verdict(max(dispatch) < TARGET_HOVER_MS)}`));
  rows.push(stat(`hover: pointermove → tooltip text updated (${tag})`, update, `< ${TARGET_HOVER_MS} ms: ${verdict(max(update) < TARGET_HOVER_MS)}`));
}
console.log('\n' + table(['(b) measure', 'n', 'median ms', 'mean ms', 'min ms', 'max ms', 'target'], rows));
console.log(`\nzoom steps: 8 × wheel deltaY −100 (×1.25 in) at the centre, then 4 × +100 (out): the window goes from 4,096 down to 687 cells across, so every step pools (max over the cells under each pixel).`);
console.log(`synthetic matrix generated in ${ms(median(results.map((r) => r.matrixMs)))} ms median (not timed above); tooltip sample: ${JSON.stringify(results[0]?.tooltipSample ?? '')}`);
