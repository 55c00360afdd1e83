// Which layers of a run hold per-head maps. The small models return every layer as [heads, Q, K]; a large
// model's graph (lib/engine/session.ts largeModelPlan, `headLayerInput`) returns every layer as its head mean
// [Q, K] and one layer, asked for per run, as [heads, Q, K] (all layers per head would be 7.5 GB at
// 28 × 16 × 2,048²). Views read the shapes through these helpers instead of assuming heads.
import type { Tensor } from '../tensor';
import type { HeadReduction } from './attentionView';
import type { Params, StringKey } from '../i18n';
import { CodedError } from '../i18n/message';

/** A run's attention tensors do not fit together (names the layer). */
export class AttentionShapeError extends CodedError {
  constructor(key: StringKey, params?: Params) {
    super(key, params);
    this.name = 'AttentionShapeError';
  }
}

/** [queries, keys] of a layer's tensor, or an AttentionShapeError naming the layer. */
function mapDims(t: Tensor, layer: number): [number, number] {
  if (t.dims.length === 3) return [t.dims[1]!, t.dims[2]!];
  if (t.dims.length === 2) return [t.dims[0]!, t.dims[1]!];
  throw new AttentionShapeError('msg.engine.heads.shape', { layer, dims: t.dims.join(',') });
}

/**
 * The layers whose attention is [heads, Q, K] (per head), ascending; every other layer is [Q, K], its head mean.
 * Checks that every layer has the same [Q, K] and the per-head layers the same number of heads.
 */
export function layersWithHeads(attention: readonly Tensor[]): number[] {
  const out: number[] = [];
  let qk: [number, number] | null = null;
  let heads: number | null = null;
  attention.forEach((t, l) => {
    const d = mapDims(t, l);
    if (qk && (d[0] !== qk[0] || d[1] !== qk[1])) throw new AttentionShapeError('msg.engine.heads.size', { layer: l, q: d[0], k: d[1], q0: qk[0], k0: qk[1] });
    qk ??= d;
    if (t.dims.length !== 3) return;
    const h = t.dims[0]!;
    if (heads !== null && h !== heads) throw new AttentionShapeError('msg.engine.heads.count', { layer: l, heads: h, first: String(out[0]), firstHeads: heads });
    heads = h;
    out.push(l);
  });
  return out;
}

/** A run's per-head layers: as recorded (lib/state/analysed `headLayers`), else read off its tensors. */
export function headLayersOf(run: { attention: readonly Tensor[]; headLayers?: readonly number[] }): readonly number[] {
  return run.headLayers ?? layersWithHeads(run.attention);
}

/** Heads per layer as the per-head layers hold them; 0 when no layer holds per-head maps (then unknown). */
export function headCount(attention: readonly Tensor[]): number {
  for (const t of attention) if (t.dims.length === 3) return t.dims[0]!;
  return 0;
}

/** What a view draws of one layer for the head choice the user made. */
export interface HeadShown {
  /** The reduction drawn: the choice, or 'mean' where the layer cannot give it. */
  head: HeadReduction;
  /** Whether the layer holds per-head maps (false: only the head mean came back). */
  perHead: boolean;
  /** What was asked for and could not be shown on this mean-only layer (the mean is shown instead); null if none. */
  unavailable: 'head' | 'max' | null;
}

/**
 * The head a view shows of `attention[layer]` when `want` is asked for. A per-head layer gives any choice (a
 * head index past the model's heads falls back to the mean, as before); a mean-only layer gives 'mean' only,
 * and says what it could not give, so the view can show the mean with a note instead of failing.
 */
export function headShown(attention: readonly Tensor[], layer: number, want: HeadReduction): HeadShown {
  const t = attention[layer];
  if (!t) return { head: 'mean', perHead: false, unavailable: null };
  if (t.dims.length === 3) {
    const head = typeof want === 'number' && (want >= t.dims[0]! || want < 0) ? 'mean' : want;
    return { head, perHead: true, unavailable: null };
  }
  return { head: 'mean', perHead: false, unavailable: want === 'mean' ? null : want === 'max' ? 'max' : 'head' };
}

/** Whole seconds (at least 1) a run as long as the last one (`ms`) takes again, for "≈ N s". */
export function rerunSeconds(ms: number): number {
  return Number.isFinite(ms) && ms > 0 ? Math.max(1, Math.round(ms / 1000)) : 1;
}
