'use client';
// Attention heatmap on one canvas (never a DOM node per cell) with zoom (wheel at the pointer, + / − keys
// and buttons), pan (drag, arrow keys), reset (0 key, button), segment bands along both axes and a hover
// tooltip giving query token, key token and the exact weight. The window into the matrix and the pixels
// come from lib/view/viewport (max pooling when zoomed out); this file only draws and handles input.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { paintRgba, type ColormapName, type Scale } from '../../lib/view/colormap';
import {
  cellAt,
  fitAll,
  isPooled,
  MIN_SPAN,
  pan,
  pointAt,
  rasterize,
  visibleCells,
  zoomAt,
  zoomCentre,
  zoomFactor,
  type Viewport,
} from '../../lib/view/viewport';
import type { Span } from '../../lib/prompt/prompt';
import { TOOLS_MESSAGE } from '../../lib/prompt/layout';
import { SEGMENT_COLORS } from './TokenView';
import { useT, type T } from '../common/i18n';

export interface HeatmapProps {
  /** size × size, row-major, rows = query tokens, columns = key tokens; cells k > q are masked. */
  matrix: Float32Array;
  size: number;
  labels: string[];
  scale: Scale;
  map: ColormapName;
  /** Spans tiling the tokens (Prompt.spans): drawn as segment bands along both axes when given. */
  spans?: Span[];
  /** CSS pixels of the drawn square. */
  px?: number;
  /**
   * Tooltip text for a NaN cell on or below the diagonal (e.g. a row an imported file does not contain); such
   * cells are drawn in the masked colour. Without it the tooltip prints the value as for any other cell.
   */
  absentText?: string;
}

/** Thickness of the segment bands, gap between band and matrix, and the left gutter for the axis label (CSS px). */
const BAND = 10;
const GAP = 3;
const GUTTER = 76;
/** Zoom per + / − key or button press, and per 100 px of wheel delta (exponential in between). */
const STEP = 1.5;
const WHEEL_PER_PX = Math.log(1.25) / 100;
const TICK = '#222';

/** Columns a string takes in a monospace font: CJK characters count two. */
function monoWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += ch.codePointAt(0)! >= 0x2e80 ? 2 : 1;
  return w;
}

function formatZoom(z: number): string {
  return String(Number(z.toPrecision(z < 10 ? 2 : 3)));
}

/** Index of the span holding token i (spans tile the tokens in order), or -1. */
function spanIndexAt(spans: Span[], i: number): number {
  let lo = 0;
  let hi = spans.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = spans[mid]!;
    if (i < s.start) hi = mid - 1;
    else if (i >= s.end) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/** Token indices where a new message starts (the message changes from the previous span). */
function messageStarts(spans: Span[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < spans.length; i++) if (spans[i]!.message !== spans[i - 1]!.message) out.push(spans[i]!.start);
  return out;
}

/** Paints one band (horizontal for keys, vertical for queries) for the window [a0, a0 + span). */
function drawBand(c: HTMLCanvasElement, spans: Span[], starts: number[], a0: number, span: number, lengthDev: number, thickDev: number, vertical: boolean, dpr: number): void {
  const w = vertical ? thickDev : lengthDev;
  const h = vertical ? lengthDev : thickDev;
  if (c.width !== w) c.width = w;
  if (c.height !== h) c.height = h;
  const ctx = c.getContext('2d');
  if (!ctx) return;
  ctx.clearRect(0, 0, w, h);
  const toDev = (tok: number) => ((tok - a0) / span) * lengthDev;
  const rect = (from: number, len: number) => (vertical ? ctx.fillRect(0, from, thickDev, len) : ctx.fillRect(from, 0, len, thickDev));
  let i = Math.max(0, spanIndexAt(spans, Math.max(0, Math.floor(a0))));
  for (; i < spans.length; i++) {
    const s = spans[i]!;
    if (s.start >= a0 + span) break;
    const x0 = Math.max(0, Math.floor(toDev(s.start)));
    const x1 = Math.min(lengthDev, Math.ceil(toDev(s.end)));
    if (x1 <= x0) continue;
    ctx.fillStyle = SEGMENT_COLORS[s.segment];
    rect(x0, x1 - x0);
  }
  ctx.fillStyle = TICK;
  const tw = Math.max(1, Math.round(dpr));
  for (const b of starts) {
    if (b <= a0 || b >= a0 + span) continue;
    rect(Math.round(toDev(b)) - (tw >> 1), tw);
  }
}

function bandText(t: T, spans: Span[], tok: number): string | null {
  const i = spanIndexAt(spans, tok);
  if (i < 0) return null;
  const s = spans[i]!;
  let a = i;
  let b = i;
  while (a > 0 && spans[a - 1]!.message === s.message) a--;
  while (b < spans.length - 1 && spans[b + 1]!.message === s.message) b++;
  const ma = spans[a]!.start;
  const mb = spans[b]!.end - 1;
  const head = s.message === TOOLS_MESSAGE
    ? t('heatmap.bandTools', { a: ma, b: mb })
    : t('heatmap.bandMessage', { n: s.message, role: t(`role.${s.role}`), a: ma, b: mb });
  return `${head}\n${t('heatmap.bandSegment', { segment: t(`segment.${s.segment}`), a: s.start, b: s.end - 1 })}`;
}

export function Heatmap({ matrix, size, labels, scale, map, spans, px = 640, absentText }: HeatmapProps) {
  const t = useT();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const topRef = useRef<HTMLCanvasElement>(null);
  const leftRef = useRef<HTMLCanvasElement>(null);
  const painted = useRef(0);
  const raster = useRef<Float32Array | null>(null);
  const pixels = useRef<ImageData | null>(null);
  const drag = useRef<{ id: number; x: number; y: number; vp: Viewport } | null>(null);

  // The window belongs to the matrix size it was made for; a new size starts from the full view.
  const [view, setView] = useState<{ T: number; vp: Viewport }>(() => ({ T: size, vp: fitAll(size) }));
  const vp = view.T === size ? view.vp : fitAll(size);
  const vpRef = useRef(vp);
  vpRef.current = vp;
  const update = useCallback((f: (v: Viewport) => Viewport) => setView((s) => ({ T: size, vp: f(s.T === size ? s.vp : fitAll(size)) })), [size]);

  const [dpr, setDpr] = useState(() => (typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1));
  useEffect(() => {
    const onResize = () => setDpr(window.devicePixelRatio || 1);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  const dev = Math.max(1, Math.round(px * dpr));

  const [hover, setHover] = useState<{ x: number; y: number } | null>(null);
  const [dragging, setDragging] = useState(false);
  const [focusRing, setFocusRing] = useState(false);
  const [bandHover, setBandHover] = useState<{ text: string; x: number; y: number; vertical: boolean } | null>(null);
  const starts = useMemo(() => (spans ? messageStarts(spans) : []), [spans]);

  // Drawing runs as layout effects: in the commit itself, so the canvas never shows a frame older than the
  // text around it (passive effects of a non-discrete update may wait for the next frame). Segment bands
  // first, so that the painted mark below comes after everything is drawn.
  useLayoutEffect(() => {
    if (!spans) return;
    const thick = Math.max(1, Math.round(BAND * dpr));
    if (topRef.current) drawBand(topRef.current, spans, starts, vp.k0, vp.span, dev, thick, false, dpr);
    if (leftRef.current) drawBand(leftRef.current, spans, starts, vp.q0, vp.span, dev, thick, true, dpr);
  }, [spans, starts, vp.q0, vp.k0, vp.span, dev, dpr]);

  useLayoutEffect(() => {
    const c = canvasRef.current;
    if (!c) return;
    if (c.width !== dev) c.width = dev;
    if (c.height !== dev) c.height = dev;
    const ctx = c.getContext('2d');
    if (!ctx) return;
    ctx.imageSmoothingEnabled = false;
    const buf = raster.current && raster.current.length === dev * dev ? raster.current : new Float32Array(dev * dev);
    raster.current = buf;
    rasterize(matrix, size, { q0: vp.q0, k0: vp.k0, span: vp.span }, dev, buf);
    const img = pixels.current && pixels.current.width === dev ? pixels.current : ctx.createImageData(dev, dev);
    pixels.current = img;
    paintRgba(buf, dev, dev, scale, map, img.data);
    ctx.putImageData(img, 0, 0);
    painted.current += 1;
    c.dataset.painted = String(painted.current);
    performance.mark('kvscope:heatmap-painted');
  }, [matrix, size, scale, map, vp.q0, vp.k0, vp.span, dev]);

  // Wheel zoom around the pointer: a native listener, because React's wheel listener is passive.
  useEffect(() => {
    const c = canvasRef.current;
    if (!c) return;
    const onWheel = (e: WheelEvent) => {
      const dy = e.deltaY * (e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? px : 1);
      const cur = vpRef.current;
      // Nothing to zoom (out at the full view, in at the smallest window): let the page scroll.
      if (!dy || (dy > 0 && cur.span >= size) || (dy < 0 && cur.span <= Math.min(MIN_SPAN, size))) return;
      e.preventDefault();
      const r = c.getBoundingClientRect();
      const x = ((e.clientX - r.left) / r.width) * px;
      const y = ((e.clientY - r.top) / r.height) * px;
      const factor = Math.exp(-dy * WHEEL_PER_PX);
      update((v) => zoomAt(v, size, factor, pointAt(v, px, x, y)));
    };
    c.addEventListener('wheel', onWheel, { passive: false });
    return () => c.removeEventListener('wheel', onWheel);
  }, [px, size, update]);

  const local = (e: PointerEvent<HTMLElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return { x: ((e.clientX - r.left) / r.width) * px, y: ((e.clientY - r.top) / r.height) * px };
  };
  const onPointerDown = (e: PointerEvent<HTMLCanvasElement>) => {
    if (e.button !== 0) return;
    drag.current = { id: e.pointerId, x: e.clientX, y: e.clientY, vp };
    e.currentTarget.setPointerCapture?.(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLCanvasElement>) => {
    const d = drag.current;
    if (d && d.id === e.pointerId) {
      const r = e.currentTarget.getBoundingClientRect();
      const dx = e.clientX - d.x;
      const dy = e.clientY - d.y;
      if (!dragging && Math.abs(dx) + Math.abs(dy) < 3) return setHover(local(e));
      if (!dragging) setDragging(true);
      setHover(null);
      const s = d.vp.span;
      update(() => pan(d.vp, size, -(dy / r.height) * s, -(dx / r.width) * s));
      return;
    }
    setHover(local(e));
  };
  const endDrag = (e: PointerEvent<HTMLCanvasElement>) => {
    if (drag.current?.id !== e.pointerId) return;
    drag.current = null;
    setDragging(false);
    e.currentTarget.releasePointerCapture?.(e.pointerId);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const s = vp.span;
    const stepPan = (e.shiftKey ? 0.5 : 0.1) * s;
    let f: ((v: Viewport) => Viewport) | null = null;
    switch (e.key) {
      case '+':
      case '=':
        f = (v) => zoomCentre(v, size, STEP);
        break;
      case '-':
      case '_':
        f = (v) => zoomCentre(v, size, 1 / STEP);
        break;
      case '0':
        f = () => fitAll(size);
        break;
      case 'ArrowUp':
        f = (v) => pan(v, size, -stepPan, 0);
        break;
      case 'ArrowDown':
        f = (v) => pan(v, size, stepPan, 0);
        break;
      case 'ArrowLeft':
        f = (v) => pan(v, size, 0, -stepPan);
        break;
      case 'ArrowRight':
        f = (v) => pan(v, size, 0, stepPan);
        break;
    }
    if (!f || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    update(f);
  };

  const onBandMove = (vertical: boolean) => (e: PointerEvent<HTMLCanvasElement>) => {
    if (!spans) return;
    const p = local(e);
    const a = vertical ? p.y : p.x;
    const tok = Math.floor((vertical ? vp.q0 : vp.k0) + (a / px) * vp.span);
    const text = bandText(t, spans, tok);
    setBandHover(text ? { text, x: vertical ? BAND + 6 : p.x, y: vertical ? p.y : BAND + 6, vertical } : null);
  };

  const cell = hover && !dragging ? cellAt(vp, px, hover.x, hover.y, size) : null;
  const win = visibleCells(vp, size);
  const zoom = zoomFactor(vp, size);
  const pooled = isPooled(vp, dev);
  const full = vp.span >= size;
  // 'query' and 'key' padded to one width so that the indices line up.
  const tipWidth = Math.max(monoWidth(t('heatmap.tipQuery')), monoWidth(t('heatmap.tipKey')));
  const tipWord = (w: string) => w + ' '.repeat(tipWidth - monoWidth(w));
  const band = spans ? BAND : 0;
  const left = GUTTER + band + GAP;
  const button = { font: 'inherit', padding: '2px 10px', minWidth: 32, border: '1px solid #bbb', borderRadius: 4, background: '#fff', cursor: 'pointer' } as const;

  return (
    <div data-role="heatmap-view" style={{ display: 'inline-block', font: '13px system-ui, sans-serif', color: '#222' }}>
      <div style={{ display: 'flex', gap: 8, alignItems: 'center', marginLeft: left, marginBottom: 8, flexWrap: 'wrap', maxWidth: px }}>
        <button type="button" style={button} aria-label={t('heatmap.zoomOut')} title={t('heatmap.zoomOut')} disabled={full} onClick={() => update((v) => zoomCentre(v, size, 1 / STEP))}>
          −
        </button>
        <button type="button" style={button} aria-label={t('heatmap.zoomIn')} title={t('heatmap.zoomIn')} disabled={vp.span <= Math.min(MIN_SPAN, size)} onClick={() => update((v) => zoomCentre(v, size, STEP))}>
          +
        </button>
        <button type="button" data-role="heatmap-reset" style={button} disabled={full && vp.q0 === 0 && vp.k0 === 0} onClick={() => update(() => fitAll(size))}>
          {t('heatmap.resetZoom')}
        </button>
        <span data-role="heatmap-window" aria-live="polite" style={{ color: '#444', fontVariantNumeric: 'tabular-nums', marginLeft: 4 }}>
          {t('heatmap.window', { q0: win.q0, q1: win.q1, k0: win.k0, k1: win.k1 })} · {t('heatmap.zoomFactor', { z: formatZoom(zoom) })}
        </span>
      </div>
      <div
        data-role="heatmap-region"
        tabIndex={0}
        role="group"
        aria-label={t('heatmap.regionAria')}
        aria-description={t('heatmap.help')}
        onKeyDown={onKeyDown}
        onFocus={(e) => setFocusRing(e.currentTarget === e.target && e.currentTarget.matches(':focus-visible'))}
        onBlur={() => setFocusRing(false)}
        onMouseDown={() => setFocusRing(false)}
        style={{
          display: 'grid',
          gridTemplateColumns: `${GUTTER}px ${band}px ${px}px`,
          gridTemplateRows: `auto ${band}px ${px}px`,
          columnGap: spans ? GAP : 0,
          rowGap: spans ? GAP : 0,
          alignItems: 'end',
          outline: focusRing ? '2px solid #1a66d6' : 'none',
          outlineOffset: 4,
          borderRadius: 2,
          width: 'max-content',
        }}
      >
        <div />
        <div />
        <div style={{ color: '#444', paddingBottom: 4 }}>{t('heatmap.axisKeys')}</div>
        <div />
        <div />
        <div style={{ position: 'relative', height: band }}>
          {spans && (
            <canvas
              ref={topRef}
              data-role="heatmap-band-keys"
              aria-label={t('heatmap.bandKeys')}
              style={{ display: 'block', width: px, height: BAND, imageRendering: 'pixelated' }}
              onPointerMove={onBandMove(false)}
              onPointerLeave={() => setBandHover(null)}
            />
          )}
          {bandHover && !bandHover.vertical && <BandTip text={bandHover.text} x={Math.min(bandHover.x, px - 260)} y={bandHover.y} />}
        </div>
        <div style={{ alignSelf: 'start', color: '#444', textAlign: 'right', paddingRight: 6, lineHeight: 1.3 }}>{t('heatmap.axisQueries')}</div>
        <div style={{ position: 'relative', alignSelf: 'start', height: px }}>
          {spans && (
            <canvas
              ref={leftRef}
              data-role="heatmap-band-queries"
              aria-label={t('heatmap.bandQueries')}
              style={{ display: 'block', width: BAND, height: px, imageRendering: 'pixelated' }}
              onPointerMove={onBandMove(true)}
              onPointerLeave={() => setBandHover(null)}
            />
          )}
          {bandHover && bandHover.vertical && <BandTip text={bandHover.text} x={bandHover.x} y={Math.min(bandHover.y, px - 50)} />}
        </div>
        <div style={{ position: 'relative', width: px, height: px }}>
          <canvas
            ref={canvasRef}
            data-role="heatmap"
            data-view={`${vp.q0} ${vp.k0} ${vp.span}`}
            aria-label={t('heatmap.aria')}
            style={{ display: 'block', width: px, height: px, imageRendering: 'pixelated', outline: '1px solid #ccc', cursor: dragging ? 'grabbing' : 'crosshair', touchAction: 'none' }}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={endDrag}
            onPointerCancel={endDrag}
            onPointerLeave={() => setHover(null)}
          />
          {cell && hover && (
            <div
              role="tooltip"
              data-role="heatmap-tooltip"
              style={{
                position: 'absolute',
                left: Math.max(0, Math.min(hover.x + 14, px - 240)),
                top: hover.y > px - 80 ? hover.y - 66 : hover.y + 14,
                background: '#111',
                color: '#fff',
                padding: '5px 9px',
                borderRadius: 4,
                font: '12px/1.45 ui-monospace, monospace',
                pointerEvents: 'none',
                whiteSpace: 'pre',
                maxWidth: 320,
                overflow: 'hidden',
                textOverflow: 'ellipsis',
                boxShadow: '0 2px 6px rgba(0,0,0,.25)',
                zIndex: 2,
              }}
            >
              {`${tipWord(t('heatmap.tipQuery'))} ${cell.q} ${labels[cell.q] ?? ''}\n${tipWord(t('heatmap.tipKey'))} ${cell.k} ${labels[cell.k] ?? ''}\n${
                cell.k > cell.q
                  ? t('heatmap.tipMasked')
                  : absentText !== undefined && Number.isNaN(matrix[cell.q * size + cell.k])
                    ? absentText
                    : t('heatmap.tipWeight', { w: matrix[cell.q * size + cell.k]!.toPrecision(6) })
              }`}
            </div>
          )}
        </div>
      </div>
      <div style={{ marginLeft: left, marginTop: 6, maxWidth: px, fontSize: 12, color: '#555', lineHeight: 1.5 }}>
        {pooled && (
          <div data-role="heatmap-pooled-note">{t('heatmap.pooledNote')}</div>
        )}
        <div>{t('heatmap.help')}</div>
      </div>
    </div>
  );
}

function BandTip({ text, x, y }: { text: string; x: number; y: number }) {
  return (
    <div
      role="tooltip"
      data-role="heatmap-band-tooltip"
      style={{ position: 'absolute', left: Math.max(0, x), top: y, background: '#111', color: '#fff', padding: '4px 8px', borderRadius: 4, font: '12px/1.4 system-ui, sans-serif', pointerEvents: 'none', whiteSpace: 'pre', zIndex: 3 }}
    >
      {text}
    </div>
  );
}
