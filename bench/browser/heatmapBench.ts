// Runs in headless Chromium (bundled by bench/browser.ts): <Heatmap> with a synthetic 4,096×4,096 causal
// attention matrix (random logits, softmax per row over k ≤ q), timed in the page with performance.now().
// The embedded model is not involved: this times drawing and interaction only.
import { createElement, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Heatmap } from '../../components/attention/Heatmap';
import { makeScale, paintRgba } from '../../lib/view/colormap';
import { colourDomainMax } from '../../lib/analysis/attentionView';
import { fitAll, rasterize } from '../../lib/view/viewport';
import type { Span } from '../../lib/prompt/prompt';
import { uniform } from '../../lib/util/rng';
import { HEATMAP_PAINTED_MARK } from '../../lib/view/paintMark';

export interface HeatmapBenchResult {
  T: number;
  px: number;
  dpr: number;
  backingPx: number;
  matrixMs: number;
  /** setMatrix → HEATMAP_PAINTED_MARK (React render, effects, rasterize, paintRgba, putImageData, bands). */
  firstPaintMs: number;
  /** setMatrix → the first requestAnimationFrame callback after the painted mark. */
  firstFrameMs: number;
  /** Each wheel step (zoom in ×1.25 at the centre, then back out): dispatch → painted mark. */
  zoomPaintMs: number[];
  /** '0' key → painted mark, from the deepest zoom back to the full view. */
  resetPaintMs: number;
  /** rasterize + paintRgba alone, full view, 5 runs. */
  rasterMs: number[];
  paintRgbaMs: number[];
  /** 200 pointermove events over distinct cells: time inside dispatchEvent, and dispatch → tooltip text changed. */
  hoverDispatchMs: number[];
  hoverUpdateMs: number[];
  tooltipSample: string;
}

const rng = uniform;

/** Random logits (uniform in [−4, 4], key 0 lifted by 4 like an attention sink), softmax over k ≤ q per row. */
function syntheticAttention(T: number): Float32Array {
  const r = rng(1234);
  const m = new Float32Array(T * T);
  const row = new Float64Array(T);
  for (let q = 0; q < T; q++) {
    let max = -Infinity;
    for (let k = 0; k <= q; k++) {
      const l = (r() * 2 - 1) * 4 + (k === 0 ? 4 : 0);
      row[k] = l;
      if (l > max) max = l;
    }
    let sum = 0;
    for (let k = 0; k <= q; k++) sum += row[k] = Math.exp(row[k]! - max);
    for (let k = 0; k <= q; k++) m[q * T + k] = row[k]! / sum;
  }
  return m;
}

/** About one message per 100 tokens, each a template opener then a body, roles cycling like an agent loop. */
function syntheticSpans(T: number): Span[] {
  const spans: Span[] = [];
  const kinds = [
    { role: 'system', segment: 'system' },
    { role: 'user', segment: 'user' },
    { role: 'assistant', segment: 'think' },
    { role: 'assistant', segment: 'tool_call' },
    { role: 'tool', segment: 'tool_result' },
  ] as const;
  let start = 0;
  for (let msg = 0; start < T; msg++) {
    const len = Math.min(T - start, 60 + ((msg * 37) % 80));
    const kind = kinds[msg === 0 ? 0 : 1 + ((msg - 1) % 4)]!;
    const head = Math.min(3, len);
    spans.push({ start, end: start + head, message: msg, role: kind.role, segment: 'template' });
    if (len > head) spans.push({ start: start + head, end: start + len, message: msg, role: kind.role, segment: kind.segment });
    start += len;
  }
  return spans;
}

function nextPaint(): Promise<number> {
  return new Promise((resolve) => {
    const obs = new PerformanceObserver((list) => {
      const e = list.getEntries().find((x) => x.name === HEATMAP_PAINTED_MARK);
      if (!e) return;
      obs.disconnect();
      resolve(e.startTime);
    });
    obs.observe({ type: 'mark' });
  });
}

function tooltipChange(host: HTMLElement, before: string): Promise<number> {
  return new Promise((resolve) => {
    const read = () => host.querySelector('[data-role="heatmap-tooltip"]')?.textContent ?? '';
    if (read() !== before) return resolve(performance.now());
    const obs = new MutationObserver(() => {
      if (read() === before) return;
      obs.disconnect();
      resolve(performance.now());
    });
    obs.observe(host, { subtree: true, childList: true, characterData: true });
  });
}

const frame = () => new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 0)));

async function run(T = 4096, px = 640): Promise<HeatmapBenchResult> {
  const t0 = performance.now();
  const matrix = syntheticAttention(T);
  const matrixMs = performance.now() - t0;
  const spans = syntheticSpans(T);
  const labels = Array.from({ length: T }, (_, i) => `tok${i}`);
  const scale = makeScale({ kind: 'power', min: 0, max: colourDomainMax(matrix, T, T, 64) || 1 });

  let setMatrix: (m: Float32Array) => void = () => undefined;
  function App() {
    const [m, set] = useState<Float32Array | null>(null);
    setMatrix = set;
    return m ? createElement(Heatmap, { matrix: m, size: T, labels, scale, map: 'viridis', px, spans }) : null;
  }
  const host = document.createElement('div');
  document.body.append(host);
  createRoot(host).render(createElement(App));
  await frame();

  const painted = nextPaint();
  const tSet = performance.now();
  setMatrix(matrix);
  const firstPaintMs = (await painted) - tSet;
  await new Promise<void>((r) => requestAnimationFrame(() => r()));
  const firstFrameMs = performance.now() - tSet;
  await frame();

  const canvas = host.querySelector('canvas[data-role="heatmap"]') as HTMLCanvasElement;
  const region = host.querySelector('[data-role="heatmap-region"]') as HTMLElement;
  const box = canvas.getBoundingClientRect();
  const zoomPaintMs: number[] = [];
  for (const dir of [-1, -1, -1, -1, -1, -1, -1, -1, 1, 1, 1, 1]) {
    const p = nextPaint();
    const t = performance.now();
    canvas.dispatchEvent(new WheelEvent('wheel', { deltaY: 100 * dir, clientX: box.left + box.width / 2, clientY: box.top + box.height / 2, bubbles: true, cancelable: true }));
    zoomPaintMs.push((await p) - t);
    await frame();
  }
  region.focus();
  const pr = nextPaint();
  const tr = performance.now();
  region.dispatchEvent(new KeyboardEvent('keydown', { key: '0', bubbles: true, cancelable: true }));
  const resetPaintMs = (await pr) - tr;
  await frame();

  const dev = canvas.width;
  const buf = new Float32Array(dev * dev);
  const rgba = new Uint8ClampedArray(dev * dev * 4);
  const rasterMs: number[] = [];
  const paintRgbaMs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const a = performance.now();
    rasterize(matrix, T, fitAll(T), dev, buf);
    const b = performance.now();
    paintRgba(buf, dev, dev, scale, 'viridis', rgba);
    paintRgbaMs.push(performance.now() - b);
    rasterMs.push(b - a);
  }

  const hoverDispatchMs: number[] = [];
  const hoverUpdateMs: number[] = [];
  const r = rng(99);
  let tooltipSample = '';
  for (let i = 0; i < 200; i++) {
    const x = box.left + 1 + r() * (box.width - 2);
    const y = box.top + 1 + r() * (box.height - 2);
    const before = host.querySelector('[data-role="heatmap-tooltip"]')?.textContent ?? '';
    const changed = tooltipChange(host, before);
    const a = performance.now();
    canvas.dispatchEvent(new PointerEvent('pointermove', { clientX: x, clientY: y, bubbles: true, pointerId: 1, pointerType: 'mouse', isPrimary: true }));
    hoverDispatchMs.push(performance.now() - a);
    const done = await Promise.race([changed, new Promise<number>((res) => setTimeout(() => res(NaN), 1000))]);
    // Two random points in the same cell leave the text as it was: those samples are dropped.
    if (!Number.isNaN(done)) hoverUpdateMs.push(done - a);
    if (i === 0) tooltipSample = host.querySelector('[data-role="heatmap-tooltip"]')?.textContent ?? '';
  }
  return { T, px, dpr: devicePixelRatio, backingPx: dev, matrixMs, firstPaintMs, firstFrameMs, zoomPaintMs, resetPaintMs, rasterMs, paintRgbaMs, hoverDispatchMs, hoverUpdateMs, tooltipSample };
}

(self as unknown as { runHeatmapBench: typeof run }).runHeatmapBench = run;
