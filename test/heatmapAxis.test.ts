// The heatmap's axes (lib/view/heatmapAxis): token labels on every visible cell once cells are a label tall,
// index ticks otherwise (never blank, bounded), labels cut to the gutter with an ellipsis, the selected row's box.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { axisMarks, columnsIn, monoWidth, rowBox, truncateLabel } from '../lib/view/heatmapAxis';

test('axisMarks: a 17-token matrix at 560 px labels every token at its cell centre', () => {
  const a = axisMarks(0, 17, 17, 560, 12);
  assert.equal(a.mode, 'labels');
  assert.deepEqual(a.marks.map((m) => m.index), Array.from({ length: 17 }, (_, i) => i));
  assert.ok(Math.abs(a.marks[0]!.pos - 560 / 34) < 1e-9);
  assert.ok(Math.abs(a.marks[16]!.pos - (16.5 * 560) / 17) < 1e-9);
});

test('axisMarks: 478 tokens at full view are index ticks at 1/2/5 × 10^k steps; zooming in brings labels', () => {
  const full = axisMarks(0, 478, 478, 460, 12);
  assert.equal(full.mode, 'ticks');
  assert.ok(full.marks.length >= 2 && full.marks.length <= 460 / 40, `${full.marks.length} ticks`);
  const steps = full.marks.slice(1).map((m, i) => m.index - full.marks[i]!.index);
  assert.ok(steps.every((s) => s === steps[0] && [1, 2, 5, 10, 20, 50, 100].includes(s)), `steps ${steps}`);
  assert.equal(full.marks[0]!.index, 0);
  for (const m of full.marks) assert.ok(m.pos >= 0 && m.pos <= 460);
  // Zoomed to 30 cells across 460 px: 15.3 px per cell, every visible token labelled, bounded by px / minPx + 1.
  const zoomed = axisMarks(200.4, 30, 478, 460, 12);
  assert.equal(zoomed.mode, 'labels');
  assert.deepEqual(zoomed.marks.map((m) => m.index), Array.from({ length: 30 }, (_, i) => 200 + i));
  assert.ok(zoomed.marks.length <= 460 / 12 + 1);
  // Just too small for a label (11.9 px): ticks.
  assert.equal(axisMarks(0, 460 / 11.9, 478, 460, 12).mode, 'ticks');
  // Presentation mode's larger labels need larger cells.
  assert.equal(axisMarks(0, 30, 478, 460, 16).mode, 'ticks');
});

test('axisMarks: ticks stay inside the visible range and the window; degenerate input gives none', () => {
  const a = axisMarks(123.7, 200, 478, 300, 12);
  assert.equal(a.mode, 'ticks');
  for (const m of a.marks) {
    assert.ok(m.index >= 124 - 1 && m.index <= 323, `index ${m.index}`);
    assert.ok(m.pos >= -a.cell && m.pos <= 300 + a.cell, `pos ${m.pos}`);
    assert.ok(Number.isInteger(m.index));
  }
  assert.deepEqual(axisMarks(0, 0, 10, 100, 12).marks, []);
  assert.deepEqual(axisMarks(0, 10, 0, 100, 12).marks, []);
});

test('truncateLabel and monoWidth: columns counted, wide characters two, an ellipsis marks the cut', () => {
  assert.equal(monoWidth('abc'), 3);
  assert.equal(monoWidth('北京'), 4);
  assert.equal(monoWidth('␣↵'), 2);
  assert.equal(truncateLabel('␣Vancouver', 12), '␣Vancouver');
  assert.equal(truncateLabel('␣Vancouver', 6), '␣Vanc…');
  assert.equal(monoWidth(truncateLabel('<|im_start|>', 7)), 7);
  assert.equal(truncateLabel('北京天气', 5), '北京…');
  assert.equal(truncateLabel('abc', 0), '');
  assert.equal(truncateLabel('abcdef', 1), '…');
  assert.equal(columnsIn(84, 12), 11);
  assert.equal(columnsIn(84, 0), 0);
});

test('rowBox: the unmasked part of the selected row, clipped to the drawing; null when out of view or all masked', () => {
  // 17 tokens on 170 px (10 px cells): row 5 spans y 50–60 and keys 0–5 (x 0–60).
  assert.deepEqual(rowBox({ q0: 0, k0: 0, span: 17 }, 170, 5), { x: 0, y: 50, width: 60, height: 10 });
  // The last row runs the full width.
  assert.deepEqual(rowBox({ q0: 0, k0: 0, span: 17 }, 170, 16), { x: 0, y: 160, width: 170, height: 10 });
  // Zoomed: rows 10–19, keys 8–17 on 100 px; row 12's unmasked keys 8–12 = x 0–50.
  assert.deepEqual(rowBox({ q0: 10, k0: 8, span: 10 }, 100, 12), { x: 0, y: 20, width: 50, height: 10 });
  // Row above the window, below it, or entirely in the masked part of the window.
  assert.equal(rowBox({ q0: 10, k0: 8, span: 10 }, 100, 9), null);
  assert.equal(rowBox({ q0: 10, k0: 8, span: 10 }, 100, 20), null);
  assert.equal(rowBox({ q0: 0, k0: 8, span: 10 }, 100, 5), null);
  // Partly visible at the top edge: clipped.
  const b = rowBox({ q0: 10.5, k0: 0, span: 10 }, 100, 10)!;
  assert.deepEqual(b, { x: 0, y: 0, width: 100, height: 5 });
});

test('formatWeight: three significant digits, zeros trimmed', async () => {
  const { formatWeight } = await import('../lib/view/heatmapAxis');
  assert.equal(formatWeight(0.44721), '0.447');
  assert.equal(formatWeight(0.0620), '0.062');
  assert.equal(formatWeight(1), '1');
});
