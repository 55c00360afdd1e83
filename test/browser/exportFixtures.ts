// Known data for the export harness (test/browser/exportHarness.ts), shared with test/exportBrowser.test.ts so
// both sides agree on the numbers a JSON export must hold.
import type { PositionBias } from '../../lib/analysis/positionBias';
import { makeMatrix } from './heatmapMatrices';

export const EXPORT_T = 24;
export const EXPORT_PX = 240;
/** The caption of the heatmap frame: markup and an ampersand that must end up as text. */
export const EVIL_CAPTION = 'Layer 1 · mean <script>alert(1)</script> & "co"';

/** The ramp matrix of the heatmap tests with one NaN cell (drawn grey, exported as null). */
export function exportMatrix(): Float32Array {
  const m = makeMatrix('ramp', EXPORT_T);
  m[5 * EXPORT_T + 2] = NaN;
  return m;
}

function third(from: number, to: number, mean: number | null) {
  return { from, to, keys: to - from, mean };
}

/** Made-up position bias of four layers (layer 2 has no qualifying query) and the uniform reference. */
export function exportBias(): { bias: PositionBias[]; uniform: PositionBias } {
  const T = 30;
  const layer = (q: number, a: number | null, b: number | null, c: number | null): PositionBias => ({
    minQuery: 4,
    tokens: T,
    qualifyingQueries: q,
    first: third(0, 10, a),
    middle: third(10, 20, b),
    last: third(20, 30, c),
  });
  return {
    bias: [layer(26, 0.071, 0.012, 0.033), layer(26, 0.052, 0.021, 0.041), layer(0, null, null, null), layer(26, 0.09, 0.004, 0.027)],
    uniform: layer(26, 0.045, 0.03, 0.028),
  };
}
