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

/** Token-like labels with visible whitespace, some long (cut with an ellipsis on the axes), some Chinese. */
export function wordLabels(T: number): string[] {
  const words = ['<|im_start|>', 'system', '↵', 'You', '␣are', '␣a', '␣helpful', '␣assistant', '.', '<|im_end|>', '↵', '<|im_start|>', 'user', '↵', '北京', '天气', '␣Vancouver'];
  return Array.from({ length: T }, (_, i) => words[i % words.length]!);
}

/**
 * An agent prompt's spans over T tokens (messageCount 2): the tools block (message −1), a user message, an
 * assistant tool call, and the generation prompt (message 2 = messageCount) at the end.
 */
export function makeAgentSpans(T: number): Span[] {
  const a = Math.floor(T / 4);
  const b = Math.floor(T / 2);
  const c = T - 3;
  return [
    { start: 0, end: 3, message: -1, role: 'system', segment: 'template' },
    { start: 3, end: a, message: -1, role: 'system', segment: 'tools', part: 0 },
    { start: a, end: b, message: 0, role: 'user', segment: 'user' },
    { start: b, end: c, message: 1, role: 'assistant', segment: 'tool_call', part: 0 },
    { start: c, end: T, message: 2, role: 'assistant', segment: 'template' },
  ];
}

/** Attention [heads, T, T] of a sink model: every head puts `sink` of each row on key 0, the rest spread by a ramp. */
export function sinkAttention(T: number, heads: number, sink = 0.8): Float32Array {
  const out = new Float32Array(heads * T * T);
  for (let h = 0; h < heads; h++)
    for (let q = 0; q < T; q++) {
      const base = (h * T + q) * T;
      if (q === 0) {
        out[base] = 1;
        continue;
      }
      let sum = 0;
      for (let k = 1; k <= q; k++) sum += 1 + ((k * (h + 3) + q) % 7);
      out[base] = sink;
      for (let k = 1; k <= q; k++) out[base + k] = ((1 - sink) * (1 + ((k * (h + 3) + q) % 7))) / sum;
    }
  return out;
}
