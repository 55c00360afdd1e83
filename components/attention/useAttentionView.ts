'use client';
// What the Attention tab shows of a run: the view settings clamped to the model's layers and heads, the
// reduced matrix (lib/analysis, nothing recomputed here) and its colour scale. A large model's run holds most
// layers as their head mean only (lib/analysis/headLayers): there the view shows the mean and says so.
import { useMemo } from 'react';
import { colourDomainMax, colourRanges, hideSinkColumn, reduceHeads, type ColourRanges, type HeadReduction } from '../../lib/analysis/attentionView';
import { headCount, headLayersOf, headShown } from '../../lib/analysis/headLayers';
import { DEFAULT_MIN_QUERY } from '../../lib/analysis/sink';
import type { Analysed } from '../../lib/state/analysed';
import type { ViewSettings } from '../../lib/state/store';
import { makeScale, type Scale } from '../../lib/view/colormap';
import type { T } from '../common/i18n';

export interface AttentionView {
  layers: number;
  /** The model's heads per layer (read off the per-head layers; 0 when none holds per-head maps). */
  heads: number;
  /** The chosen layer, clamped to the model's. */
  layer: number;
  /** The chosen head, or 'mean' where the model has fewer heads or the layer holds the head mean only. */
  head: HeadReduction;
  /** Whether `layer` holds per-head maps (false on a large model's other layers: only their mean came back). */
  perHead: boolean;
  /** What view.head asked for that this mean-only layer cannot show (the mean is shown instead); null if none. */
  unavailable: 'head' | 'max' | null;
  /** The layers of the run that hold per-head maps (all of them on the small models). */
  headLayers: readonly number[];
  /** Whether some layer of the run holds the head mean only (a large model's run): the views then say per layer. */
  meanOnlyLayers: boolean;
  /** [tokens × tokens] of `layer` reduced over heads (sink column hidden if asked); null without a run. */
  matrix: Float32Array | null;
  scale: Scale;
  /**
   * Top of the colour range as the matrix is and with key 0 hidden and rows renormalised (the scale uses the
   * one view.hideSink picks), so the view can say how much hiding the sink narrows it; null without a run.
   */
  ranges: ColourRanges | null;
}

export function useAttentionView(data: Analysed | null, view: ViewSettings): AttentionView {
  const layers = data?.attention.length ?? 0;
  const layer = Math.min(view.layer, Math.max(0, layers - 1));
  const attention = data?.attention;
  const heads = useMemo(() => (attention ? headCount(attention) : 0), [attention]);
  const headLayers = useMemo(() => (data ? headLayersOf(data) : []), [data]);
  const { head, perHead, unavailable } = headShown(attention ?? [], layer, view.head);
  const reduced = useMemo(() => {
    const a = data?.attention[layer];
    return a ? reduceHeads(a, head) : null;
  }, [data, layer, head]);
  const matrix = useMemo(() => {
    if (!reduced) return null;
    const T = reduced.dims[0]!;
    return view.hideSink ? hideSinkColumn(reduced.data, T, T, 0) : reduced.data;
  }, [reduced, view.hideSink]);
  const ranges = useMemo(() => {
    if (!reduced) return null;
    const T = reduced.dims[0]!;
    return T > 0 ? colourRanges(reduced.data, T, T, DEFAULT_MIN_QUERY, 0) : null;
  }, [reduced]);
  // Colour range from rows q ≥ minQuery: early rows see few keys and would push the rest into the dark end.
  const scale = useMemo(() => {
    const T = data?.tokens ?? 0;
    const max = matrix ? colourDomainMax(matrix, T, T, DEFAULT_MIN_QUERY) : 1;
    return makeScale({ kind: view.scale, gamma: view.gamma, min: 0, max: max || 1 });
  }, [matrix, view.scale, view.gamma, data]);
  const meanOnlyLayers = headLayers.length < layers;
  return { layers, heads, layer, head, perHead, unavailable, headLayers, meanOnlyLayers, matrix, scale, ranges };
}

/** The head as the status line and captions name it. */
export function headLabel(t: T, head: HeadReduction): string {
  return head === 'mean' ? t('head.mean') : head === 'max' ? t('head.max') : t('head.one', { head });
}

/**
 * The head a view shows, named: as headLabel on a per-head layer; "mean of 16 heads" on a layer that holds only
 * the mean (or "mean of heads" where the run says nothing of the count).
 */
export function shownHeadLabel(t: T, shown: Pick<AttentionView, 'head' | 'perHead' | 'heads'>): string {
  if (shown.perHead) return headLabel(t, shown.head);
  return shown.heads > 0 ? t('heatmap.meanOfHeads', { heads: shown.heads }) : t('head.mean');
}

/** "layer 27 · mean of 16 heads" / "layer 27 · head 3": what a view of the run shows. */
export function shownLabel(t: T, shown: Pick<AttentionView, 'layer' | 'head' | 'perHead' | 'heads'>): string {
  return t('heatmap.shows', { layer: shown.layer, head: shownHeadLabel(t, shown) });
}
