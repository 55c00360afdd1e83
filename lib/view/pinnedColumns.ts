// Pinned key columns (docs/CONCEPTS.md#pinned-columns): each is drawn as its own strip beside the heatmap at a
// readable width whatever the length and zoom, separated from the matrix by an axis break. This module says
// which columns are drawn, where each strip and the break go, and how pinning and unpinning change the list.
// Pure TS: no DOM, no React.

/** Columns pinned at most: lib/state/store's MAX_PINNED (a test keeps them equal; the store is not imported here). */
export const PIN_LIMIT = 4;

export interface PinnedStrip {
  key: number;
  /** Left edge and width in CSS px, from the start of the strips area. */
  x: number;
  width: number;
}

export interface PinnedLayout {
  strips: PinnedStrip[];
  /** Width of each strip (all equal), CSS px. */
  stripWidth: number;
  /** Where the axis-break mark starts and how wide it is (CSS px; 0 wide without strips). */
  breakX: number;
  breakWidth: number;
  /** The whole area: strips, gaps and break; the matrix starts this far after the area's start. */
  total: number;
}

export interface PinnedLayoutOptions {
  /** CSS px the strips (with their gaps, without the break) may take together. */
  budget: number;
  /** A strip is at most `max` wide (default 16) and never under `floor` (default 4), whatever the budget. */
  max?: number;
  floor?: number;
  gap?: number;
  breakWidth?: number;
}

/** The pinned keys that exist in a T-token matrix: whole numbers 0 ≤ k < T, unique, ascending. */
export function pinnedKeys(pinned: readonly number[], T: number): number[] {
  return [...new Set(pinned.filter((k) => Number.isInteger(k) && k >= 0 && k < T))].sort((a, b) => a - b);
}

/**
 * Strip positions for `keys` (already filtered, in drawing order): equal widths of (budget − gaps) / n rounded
 * down to whole CSS px, at most `max`, and never under `floor` (the area may then exceed the budget); then
 * the break. No keys: an empty area (no break either).
 */
export function pinnedLayout(keys: readonly number[], o: PinnedLayoutOptions): PinnedLayout {
  const max = o.max ?? 16;
  const floor = o.floor ?? 4;
  const gap = o.gap ?? 2;
  const breakWidth = o.breakWidth ?? 12;
  const n = keys.length;
  if (n === 0) return { strips: [], stripWidth: 0, breakX: 0, breakWidth: 0, total: 0 };
  const fair = Math.floor((o.budget - gap * (n - 1)) / n);
  const width = Math.max(floor, Math.min(max, fair));
  const strips = keys.map((key, i) => ({ key, x: i * (width + gap), width }));
  const breakX = n * width + (n - 1) * gap;
  return { strips, stripWidth: width, breakX, breakWidth, total: breakX + breakWidth };
}

/**
 * `pinned` with key k added (or removed when it is there), ascending. Adding to a full list (`max` keys)
 * changes nothing; returns the same array then, so callers can tell.
 */
export function togglePinned(pinned: readonly number[], k: number, max: number): readonly number[] {
  if (pinned.includes(k)) return pinned.filter((p) => p !== k);
  if (pinned.length >= max || !Number.isInteger(k) || k < 0) return pinned;
  return [...pinned, k].sort((a, b) => a - b);
}

/** The strip under x (CSS px from the strips area's start), or null in a gap, the break or outside. */
export function stripAt(layout: PinnedLayout, x: number): PinnedStrip | null {
  return layout.strips.find((s) => x >= s.x && x < s.x + s.width) ?? null;
}
