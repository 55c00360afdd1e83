// Known matrices and spans for the heatmap harness (test/browser/heatmapHarness.ts), shared with the test
// so both sides agree on each cell's value without sending megabytes through the page boundary.
import type { Span } from '../../lib/prompt/prompt';

export type MatrixKind = 'ramp' | 'sink';

/**
 * Value of cell (q, k) for k ≤ q (0 above the diagonal, which is masked anyway).
 * ramp: 50 distinct levels in (0, 1] varying along both axes; sink: 0.9 in column 0, ≤ 0.005 elsewhere.
 */
export function cellValue(kind: MatrixKind, q: number, k: number): number {
  if (k > q) return 0;
  if (kind === 'ramp') return ((q * 7 + k * 13) % 50 + 1) / 51;
  return k === 0 ? 0.9 : 0.001 * (1 + ((q + k) % 5));
}

export function makeMatrix(kind: MatrixKind, T: number): Float32Array {
  const m = new Float32Array(T * T);
  for (let q = 0; q < T; q++) for (let k = 0; k <= q; k++) m[q * T + k] = cellValue(kind, q, k);
  return m;
}

/** Three messages tiling T tokens: system (tokens < T/4), user (< 5T/8), assistant (thinking then answer). */
export function makeSpans(T: number): Span[] {
  const a = Math.floor(T / 4);
  const b = Math.floor((5 * T) / 8);
  const c = b + Math.floor((T - b) / 3);
  const spans: Span[] = [
    { start: 0, end: 3, message: 0, role: 'system', segment: 'template' },
    { start: 3, end: a, message: 0, role: 'system', segment: 'system' },
    { start: a, end: a + 3, message: 1, role: 'user', segment: 'template' },
    { start: a + 3, end: b, message: 1, role: 'user', segment: 'user' },
    { start: b, end: b + 3, message: 2, role: 'assistant', segment: 'template' },
    { start: b + 3, end: c, message: 2, role: 'assistant', segment: 'think' },
    { start: c, end: T, message: 2, role: 'assistant', segment: 'answer' },
  ];
  return spans;
}
