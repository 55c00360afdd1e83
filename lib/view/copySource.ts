// What the "copied from" line and marks show of a copy source (lib/analysis/copySource, docs/CONCEPTS.md#copy-source):
// the mark's colour, the source token in a few tokens of context, the weight against uniform as "×N", and the
// box the heatmap's overlay draws around the (row, source) cell. Display maths only: no DOM, no strings.
import type { Carrier, CopySource } from '../analysis/copySource';

/**
 * Outline colour of the copy source (strip column, token chip, heatmap cell): a red that none of the other marks
 * (lib/view/palette MARK_COLORS: magenta selection, blue pin, orange change) nor the default colour map uses. Views
 * draw it with a white halo, so it reads on any cell colour.
 */
export const COPY_MARK = '#D62828';

export interface ContextWindow {
  /** Position of the first token in `tokens`. */
  start: number;
  /** The labels of start … start + tokens.length − 1. */
  tokens: string[];
  /** Index of the source in `tokens`. */
  at: number;
  /** Tokens were left out before / after the window. */
  cutBefore: boolean;
  cutAfter: boolean;
}

/**
 * The source at `position` with up to `radius` tokens either side, cut at `end` (exclusive: the tokens the
 * query sees, row + 1) and at position 1 (position 0, the template's first token, is left out unless it is
 * the only one before).
 */
export function contextWindow(labels: readonly string[], position: number, radius: number, end: number = labels.length): ContextWindow {
  const last = Math.min(end, labels.length) - 1;
  if (!(position >= 0 && position <= last)) throw new RangeError(`contextWindow: position ${position} outside 0…${last}`);
  const start = Math.max(position === 0 ? 0 : 1, position - radius);
  const stop = Math.min(last, position + radius);
  return { start, tokens: labels.slice(start, stop + 1), at: position - start, cutBefore: start > 1, cutAfter: stop < last };
}

/** How many times uniform a weight is (weight × keys); 0 when the uniform weight is not positive. */
export function timesUniform(weight: number, uniform: number): number {
  return uniform > 0 ? weight / uniform : 0;
}

/** "×67", "×4.2", "×0.85": two significant digits below 10, whole numbers from 10 on. */
export function formatTimes(x: number): string {
  if (!Number.isFinite(x)) return '×?';
  if (x >= 9.95) return `×${Math.round(x)}`;
  return `×${Number(x.toPrecision(2))}`;
}

/** The figures the line prints for a copy source with a best head; null without one. */
export interface CopyFigures {
  position: number;
  layer: number;
  head: number;
  /** Weight, three significant digits. */
  weight: string;
  /** The uniform weight 1 / (row + 1), three significant digits. */
  uniform: string;
  times: string;
  /** Whether the head attends to the source most, and where it attends most otherwise. */
  argmax: boolean;
  argmaxPosition: number | null;
  /** Earlier occurrences of the token (positions 1 … row). */
  occurrences: number;
}

const sig3 = (v: number) => String(Number(v.toPrecision(3)));

export function copyFigures(c: CopySource): CopyFigures | null {
  if (!c.best) return null;
  return {
    position: c.best.position,
    layer: c.best.layer,
    head: c.best.head,
    weight: sig3(c.best.weight),
    uniform: sig3(c.uniform),
    times: formatTimes(timesUniform(c.best.weight, c.uniform)),
    argmax: c.bestIsHeadArgmax,
    argmaxPosition: c.bestHeadArgmax,
    occurrences: c.occurrences.length,
  };
}

export interface MarkBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * The box (backing-store px of a `dev` × `dev` canvas showing the window `vp`) around cell (q, k), at least
 * `minSide` px a side and centred on the cell; null when the cell is outside the window.
 */
export function markBox(vp: { q0: number; k0: number; span: number }, dev: number, q: number, k: number, minSide: number): MarkBox | null {
  if (!(vp.span > 0) || !(dev > 0)) return null;
  if (q + 1 <= vp.q0 || q >= vp.q0 + vp.span || k + 1 <= vp.k0 || k >= vp.k0 + vp.span) return null;
  const cell = dev / vp.span;
  const side = Math.max(cell, minSide);
  const cx = (k - vp.k0 + 0.5) * cell;
  const cy = (q - vp.q0 + 0.5) * cell;
  return { x: cx - side / 2, y: cy - side / 2, w: side, h: side };
}

/** The offset reading's figures, when the line shows it: a head reads a few positions after the occurrence more strongly than any head attends to the occurrence itself, or the strongest one there does not attend there most. */
export interface OffsetFigures {
  layer: number;
  head: number;
  position: number;
  occurrence: number;
  offset: number;
  weight: string;
  times: string;
  /** The head below that looks back from `position` to the occurrence, if the run holds the layers below. */
  carrier: { layer: number; head: number; weight: string; top: boolean } | null;
}

export function offsetFigures(c: CopySource, carrier: Carrier | null = null): OffsetFigures | null {
  const r = c.offsetReading;
  if (!r || !c.best || (c.bestIsHeadArgmax && c.best.weight >= r.weight)) return null;
  return {
    layer: r.layer,
    head: r.head,
    position: r.position,
    occurrence: r.occurrence,
    offset: r.offset,
    weight: sig3(r.weight),
    times: formatTimes(timesUniform(r.weight, c.uniform)),
    carrier: carrier && { layer: carrier.layer, head: carrier.head, weight: sig3(carrier.weight), top: carrier.isArgmax },
  };
}
