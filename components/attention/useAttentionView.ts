'use client';
// What the Attention tab shows of a run: the view settings clamped to the model's layers and heads, the
// reduced matrix (lib/analysis, nothing recomputed here) and its colour scale.
import { useMemo } from 'react';
import { colourDomainMax, colourRanges, hideSinkColumn, reduceHeads, type ColourRanges, type HeadReduction } from '../../lib/analysis/attentionView';
import { DEFAULT_MIN_QUERY } from '../../lib/analysis/sink';
import type { Analysed } from '../../lib/state/analysed';
import type { ViewSettings } from '../../lib/state/store';
import { makeScale, type Scale } from '../../lib/view/colormap';
import type { T } from '../common/i18n';

export interface AttentionView {
  layers: number;
  heads: number;
  /** The chosen layer, clamped to the model's. */
  layer: number;
  /** The chosen head, or 'mean' where the model has fewer heads. */
  head: HeadReduction;
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
  const heads = data?.attention[0]?.dims[0] ?? 0;
  const head = typeof view.head === 'number' && view.head >= heads ? 'mean' : view.head;
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
  return { layers, heads, layer, head, matrix, scale, ranges };
}

/** The head as the status line and captions name it. */
export function headLabel(t: T, head: HeadReduction): string {
  return head === 'mean' ? t('head.mean') : head === 'max' ? t('head.max') : t('head.one', { head });
}
