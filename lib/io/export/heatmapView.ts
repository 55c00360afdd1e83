// The JSON of an attention heatmap view (the main heatmap of components/lab/Lab.tsx): what is drawn and how
// (model, scenario, layer, head reduction, colour scale and map, whether the sink column is hidden), the
// token texts and message spans along both axes, and the T × T matrix as drawn (matrixJson). Pure.
import type { ColormapName, ScaleKind } from '../../view/colormap';
import type { Span } from '../../prompt/prompt';
import { matrixJson, type MatrixJson } from './matrix';

export interface HeatmapViewArgs {
  /** Model id or name. */
  model: string;
  /** Scenario id or title. */
  scenario: string;
  layer: number;
  /** Head reduction: mean or max over heads, or one head's index. */
  head: 'mean' | 'max' | number;
  scale: ScaleKind;
  /** Exponent of the power scale (stored whatever the scale). */
  gamma: number;
  colormap: ColormapName;
  hideSink: boolean;
  /** Display text per token (index = position). */
  tokens: readonly string[];
  spans: readonly Span[];
  /** The matrix as drawn, row-major, size × size (query rows, key columns). */
  matrix: Float32Array;
  /** T; default tokens.length. */
  size?: number;
  /** The colour scale's range in effect, when known (e.g. scale.min / scale.max). */
  range?: { min: number; max: number };
}

/** The view settings as given; tokens, spans and the matrix as JSON-ready copies. */
export type HeatmapViewJson = Omit<HeatmapViewArgs, 'tokens' | 'spans' | 'matrix' | 'size'> & {
  kind: 'attention-heatmap';
  tokens: string[];
  spans: Span[];
  matrix: MatrixJson;
};

export function heatmapViewJson(args: HeatmapViewArgs): HeatmapViewJson {
  const T = args.size ?? args.tokens.length;
  const out: HeatmapViewJson = {
    kind: 'attention-heatmap',
    model: args.model,
    scenario: args.scenario,
    layer: args.layer,
    head: args.head,
    scale: args.scale,
    gamma: args.gamma,
    colormap: args.colormap,
    hideSink: args.hideSink,
    tokens: [...args.tokens],
    // Plain copies: JSON-ready whatever the caller's objects carry (undefined fields dropped).
    spans: args.spans.map((s) => JSON.parse(JSON.stringify(s)) as Span),
    matrix: matrixJson(args.matrix, T, T),
  };
  if (args.range) out.range = { min: args.range.min, max: args.range.max };
  return out;
}
