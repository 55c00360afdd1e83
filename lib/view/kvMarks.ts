// Layout of the KV difference maps (components/kv/KvDiffMap): where the changed cells are marked, where their
// callouts go, the position axis and the end-of-prefix line, in CSS pixels of a map `width` px wide. Pure TS:
// no DOM, no React.
//
// A changed cell can be narrower than a pixel (400 positions on 900 px is 2.25 px a cell; 5,000 positions
// pool several into one pixel), and the cell right after the reused prefix is where the end-of-prefix line
// runs. So every run of changed cells gets a box at least `minWidth` px wide, drawn above the line, and the
// few layer-0 runs of an in-place edit get a text callout above the map.
import { linearMap, niceStep, stepTicks } from './scale';

/** Consecutive compared positions of one layer whose difference exceeds the tolerance; `to` is exclusive. */
export interface ChangedRun {
  layer: number;
  from: number;
  to: number;
}

/**
 * Per layer (in order), the runs of compared positions whose value in `values` ([layers × positions],
 * layer-major) is above `tol`. NaN counts as changed (kvDelta reports NaN differences as Infinity anyway).
 */
export function changedRuns(values: Float32Array, layers: number, positions: number, tol: number): ChangedRun[] {
  if (values.length < layers * positions) throw new RangeError(`changedRuns: ${values.length} values for ${layers} × ${positions}`);
  const out: ChangedRun[] = [];
  for (let l = 0; l < layers; l++) {
    let start = -1;
    for (let i = 0; i <= positions; i++) {
      const v = i < positions ? values[l * positions + i]! : 0;
      const changed = i < positions && !(v <= tol);
      if (changed && start < 0) start = i;
      else if (!changed && start >= 0) {
        out.push({ layer: l, from: start, to: i });
        start = -1;
      }
    }
  }
  return out;
}

/** A marker box over one or more runs of one layer, in CSS px from the map's left edge. */
export interface ChangeMark {
  layer: number;
  /** Compared positions covered: the first run's start, the last run's end (exclusive). */
  from: number;
  to: number;
  /** Changed cells inside (runs merged into one box may leave unchanged cells between them). */
  changed: number;
  runs: number;
  x: number;
  width: number;
}

/** The narrowest change mark, CSS px: wide enough to see from the back of a room, wider than the 2 px prefix line. */
export const MIN_MARK_PX = 8;

export interface MarkOptions {
  /** Narrowest box in CSS px (default MIN_MARK_PX). */
  minWidth?: number;
  /** Boxes of one layer closer than this many px are merged into one (default 2). */
  gap?: number;
}

/** The x of the boundary before compared position `index` (0…positions), on a map `width` px wide. */
export function boundaryX(index: number, positions: number, width: number): number {
  return positions > 0 ? (index / positions) * width : 0;
}

/**
 * Boxes for `runs` on a map of `positions` columns drawn `width` px wide: each run covers its cells, widened
 * symmetrically to `minWidth` and kept inside the map; boxes of one layer that then touch (within `gap` px)
 * become one box, so the count stays bounded by the width, not by the number of positions.
 */
export function layoutChangeMarks(runs: readonly ChangedRun[], positions: number, width: number, opts: MarkOptions = {}): ChangeMark[] {
  const minWidth = Math.min(opts.minWidth ?? MIN_MARK_PX, width);
  const gap = opts.gap ?? 2;
  const out: ChangeMark[] = [];
  const sorted = [...runs].sort((a, b) => a.layer - b.layer || a.from - b.from);
  for (const r of sorted) {
    const x0 = boundaryX(r.from, positions, width);
    const x1 = boundaryX(r.to, positions, width);
    let w = x1 - x0;
    let x = x0;
    if (w < minWidth) {
      x = Math.min(Math.max(0, (x0 + x1) / 2 - minWidth / 2), width - minWidth);
      w = minWidth;
    }
    const last = out[out.length - 1];
    if (last && last.layer === r.layer && x <= last.x + last.width + gap) {
      const right = Math.max(last.x + last.width, x + w);
      last.to = r.to;
      last.changed += r.to - r.from;
      last.runs++;
      last.width = right - last.x;
      continue;
    }
    out.push({ layer: r.layer, from: r.from, to: r.to, changed: r.to - r.from, runs: 1, x, width: w });
  }
  return out;
}

/** Rough width of a label in px: CJK characters about one em, everything else about 0.6 em. */
export function labelWidth(text: string, fontPx: number): number {
  let w = 0;
  for (const ch of text) w += /[\u2e80-\u9fff\uac00-\ud7af\uff00-\uffef]/.test(ch) ? fontPx : 0.6 * fontPx;
  return Math.ceil(w);
}

/** A callout label: its box's left edge, and the x of the mark it points at. */
export interface CalloutPlace {
  left: number;
  width: number;
  anchor: number;
}

/**
 * Left edges for labels pointing at `anchors` (px, in any order) on a lane `width` px wide: each label is
 * centred on its anchor, then pushed right past the previous label (by `gap`), and kept inside the lane
 * (the last ones pushed back left). Labels wider than the lane start at 0.
 */
export function placeCallouts(items: readonly { anchor: number; width: number }[], width: number, gap = 8): CalloutPlace[] {
  const order = items.map((it, i) => ({ ...it, i })).sort((a, b) => a.anchor - b.anchor);
  const left: number[] = [];
  let next = 0;
  for (const it of order) {
    const l = Math.max(next, it.anchor - it.width / 2);
    left.push(l);
    next = l + it.width + gap;
  }
  // Back inside the lane, from the right: a label never ends past the lane or overlaps the one after it.
  let limit = width;
  for (let k = order.length - 1; k >= 0; k--) {
    const l = Math.max(0, Math.min(left[k]!, limit - order[k]!.width));
    left[k] = l;
    limit = l - gap;
  }
  const out: CalloutPlace[] = new Array(items.length);
  order.forEach((it, k) => (out[it.i] = { left: left[k]!, width: it.width, anchor: it.anchor }));
  return out;
}

/** Which marks get a callout: every layer-0 mark when there are at most `max` of them (an in-place edit), else none. */
export function calloutMarks(marks: readonly ChangeMark[], max = 3): ChangeMark[] {
  const first = marks.filter((m) => m.layer === 0);
  return first.length > 0 && first.length <= max ? first : [];
}

/**
 * Ticks for the position axis: integer positions at a 1, 2 or 5 × 10^k step, about one per `spacing` px,
 * each at the centre of its cell. Position `positions − 1` is not forced in (the axis says how many there are).
 */
export function positionTicks(positions: number, width: number, spacing = 90): { value: number; x: number }[] {
  if (positions < 1 || !(width > 0)) return [];
  const n = Math.max(2, Math.floor(width / spacing));
  const step = Math.max(1, niceStep((positions - 1) / (n - 1) || 1, [1, 2, 5]));
  const x = linearMap(0, positions, 0, width);
  return stepTicks(0, positions - 1, step).map((v) => ({ value: v, x: x(v + 0.5) }));
}
