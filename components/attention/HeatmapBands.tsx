'use client';
// The heatmap's segment bands: one canvas along the keys (top) and one along the queries (left), each
// coloured by the segment of the tokens in the visible window with a dark tick where a new message starts,
// and the hover text naming the message and segment under the pointer.
import { useLayoutEffect, useRef, type PointerEvent } from 'react';
import type { Span } from '../../lib/prompt/prompt';
import { TOOLS_MESSAGE } from '../../lib/prompt/layout';
import { SEGMENT_COLORS } from '../../lib/view/palette';
import type { T } from '../common/i18n';

/** Thickness of the segment bands (CSS px). */
export const BAND = 10;
const TICK = '#222';

/** Index of the span holding token i (spans tile the tokens in order), or -1. */
export function spanIndexAt(spans: readonly Span[], i: number): number {
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
export function messageStarts(spans: Span[]): number[] {
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

/**
 * "message 1 (user), tokens 16–40\nsegment: user, tokens 16–30" for token `tok`, or null outside the spans;
 * the tools block and (given the prompt's messageCount) the generation prompt are named as such.
 */
export function bandText(t: T, spans: Span[], tok: number, messageCount?: number): string | null {
  const i = spanIndexAt(spans, tok);
  if (i < 0) return null;
  const s = spans[i]!;
  let a = i;
  let b = i;
  while (a > 0 && spans[a - 1]!.message === s.message) a--;
  while (b < spans.length - 1 && spans[b + 1]!.message === s.message) b++;
  const ma = spans[a]!.start;
  const mb = spans[b]!.end - 1;
  const head =
    s.message === TOOLS_MESSAGE
      ? t('heatmap.bandTools', { a: ma, b: mb })
      : messageCount !== undefined && s.message >= messageCount
        ? t('heatmap.bandGeneration', { a: ma, b: mb })
        : t('heatmap.bandMessage', { n: s.message, role: t(`role.${s.role}`), a: ma, b: mb });
  return `${head}\n${t('heatmap.bandSegment', { segment: t(`segment.${s.segment}`), a: s.start, b: s.end - 1 })}`;
}

export interface HeatmapBandProps {
  spans: Span[];
  starts: number[];
  /** The window along this band's axis: first token (may be fractional) and tokens across. */
  a0: number;
  span: number;
  /** CSS length of the band and device pixels per CSS pixel. */
  px: number;
  dpr: number;
  vertical: boolean;
  role: string;
  label: string;
  onPointerMove: (e: PointerEvent<HTMLCanvasElement>) => void;
  onPointerLeave: () => void;
}

/** One band on its canvas, repainted in the commit (before the matrix canvas, which comes later in the tree). */
export function HeatmapBand({ spans, starts, a0, span, px, dpr, vertical, role, label, onPointerMove, onPointerLeave }: HeatmapBandProps) {
  const ref = useRef<HTMLCanvasElement>(null);
  const dev = Math.max(1, Math.round(px * dpr));
  useLayoutEffect(() => {
    if (ref.current) drawBand(ref.current, spans, starts, a0, span, dev, Math.max(1, Math.round(BAND * dpr)), vertical, dpr);
  }, [spans, starts, a0, span, dev, vertical, dpr]);
  return (
    <canvas
      ref={ref}
      data-role={role}
      aria-label={label}
      style={{ display: 'block', width: vertical ? BAND : px, height: vertical ? px : BAND, imageRendering: 'pixelated' }}
      onPointerMove={onPointerMove}
      onPointerLeave={onPointerLeave}
    />
  );
}

export function BandTip({ text, x, y }: { text: string; x: number; y: number }) {
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
