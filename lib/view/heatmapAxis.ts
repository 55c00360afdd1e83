// The heatmap's axes: which rows / columns get a token label (every visible one once a cell is at least a
// label's height), index ticks otherwise (so an axis is never blank), labels cut to a fixed gutter, and the
// box of the selected query row. Pure TS: no DOM, no React.
import { format } from 'd3-format';
import { ticksInside } from './scale';

/** One mark along an axis: a token index and the CSS px of its cell centre from the axis start. */
export interface AxisMark {
  index: number;
  pos: number;
}

export interface AxisMarks {
  /** 'labels': one token label per visible cell; 'ticks': index ticks at nice steps. */
  mode: 'labels' | 'ticks';
  marks: AxisMark[];
  /** CSS px per cell along the axis. */
  cell: number;
}

/** Index steps of the ticks: 1, 2 or 5 × 10^k (tokens are whole). */
const INDEX_STEPS: readonly number[] = [1, 2, 5];

/**
 * Marks along one axis of a window [a0, a0 + span) of a T-token matrix drawn `px` CSS px long. With cells at
 * least `minPx` long every token whose cell centre is inside the drawing gets a label (so at most
 * px / minPx + 1 of them); otherwise about px / tickSpacing index ticks at 1, 2, 5 × 10^k steps, placed at
 * their cell's centre.
 */
export function axisMarks(a0: number, span: number, T: number, px: number, minPx: number, tickSpacing = 56): AxisMarks {
  if (!(T > 0) || !(span > 0) || !(px > 0)) return { mode: 'ticks', marks: [], cell: 0 };
  const cell = px / span;
  const pos = (i: number) => (i + 0.5 - a0) * cell;
  const first = Math.max(0, Math.ceil(a0 - 0.5));
  const last = Math.min(T - 1, Math.ceil(a0 + span - 0.5) - 1);
  if (cell >= minPx) {
    const marks: AxisMark[] = [];
    for (let i = first; i <= last; i++) marks.push({ index: i, pos: pos(i) });
    return { mode: 'labels', marks, cell };
  }
  const n = Math.max(2, Math.floor(px / tickSpacing));
  const marks = ticksInside(first, last, n, INDEX_STEPS)
    .filter((v) => Number.isInteger(v))
    .map((index) => ({ index, pos: pos(index) }));
  return { mode: 'ticks', marks, cell };
}

/** Columns a string takes in a monospace font: wide (CJK, fullwidth) characters count two. */
export function monoWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += isWide(ch.codePointAt(0)!) ? 2 : 1;
  return w;
}

function isWide(cp: number): boolean {
  return (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) || (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x20000 && cp <= 0x3fffd);
}

/** `s` cut to at most `cols` monospace columns, an ellipsis marking the cut ("" when cols < 1). */
export function truncateLabel(s: string, cols: number): string {
  if (monoWidth(s) <= cols) return s;
  if (cols < 1) return '';
  let out = '';
  let w = 0;
  for (const ch of s) {
    const cw = isWide(ch.codePointAt(0)!) ? 2 : 1;
    if (w + cw > cols - 1) break;
    out += ch;
    w += cw;
  }
  return out + '…';
}

/** Monospace columns that fit in `length` CSS px at font size `fontPx` (a monospace glyph is about 0.6 em wide). */
export function columnsIn(length: number, fontPx: number): number {
  return fontPx > 0 ? Math.max(0, Math.floor(length / (0.6 * fontPx))) : 0;
}

/** A rectangle in CSS px of the drawing. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The unmasked part of query row q (keys 0…q) inside the window { q0, k0, span } of a px-wide drawing, clipped
 * to the drawing; null when the row is outside the window or all of its visible cells are masked.
 */
export function rowBox(vp: { q0: number; k0: number; span: number }, px: number, q: number): Box | null {
  if (!(vp.span > 0) || !(px > 0)) return null;
  const cell = px / vp.span;
  const y0 = (q - vp.q0) * cell;
  const y1 = y0 + cell;
  const x1 = Math.min(px, (q + 1 - vp.k0) * cell);
  if (y1 <= 0 || y0 >= px || x1 <= 0) return null;
  const top = Math.max(0, y0);
  return { x: 0, y: top, width: x1, height: Math.min(px, y1) - top };
}

const sig3 = format('.3~r');

/** A weight or colour-range end in readouts: three significant digits, trailing zeros trimmed (0.447, 0.062). */
export function formatWeight(v: number): string {
  return sig3(v);
}
