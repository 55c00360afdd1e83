'use client';
// The imported-attention view's state: the call, layer, head, colour scale, colour map and sink-column
// choice, and what follows from them (the layer's square matrix, the colour scale over it, the summary of
// every layer). Every number comes from lib/analysis/importedViews.
import { useMemo, useState } from 'react';
import type { ImportedAttention, ImportedLayer } from '../../lib/io/attention/types';
import { attentionOfCall, colourMax, hasOwnAttention, headChoices, importedSummary, squareMatrix, type HeadReduction } from '../../lib/analysis/importedViews';
import { DEFAULT_MIN_QUERY } from '../../lib/analysis/sink';
import { visibleWhitespace } from '../../lib/prompt/label';
import { DEFAULT_COLORMAP, DEFAULT_GAMMA, makeScale, type ColormapName, type ScaleKind } from '../../lib/view/colormap';

/** Keys listed under "where attention rests". */
const TOP_N = 8;

export function useImportedAttention(attention: ImportedAttention) {
  const own = hasOwnAttention(attention);
  const [call, setCall] = useState<number>(own ? -1 : 0);
  const a = attentionOfCall(attention, call);
  const [layerPick, setLayerPick] = useState(0);
  const [headPick, setHeadPick] = useState<HeadReduction>('mean');
  const [scaleKind, setScaleKind] = useState<ScaleKind>('linear');
  const [gamma, setGamma] = useState(DEFAULT_GAMMA);
  const [map, setMap] = useState<ColormapName>(DEFAULT_COLORMAP);
  const [hideSink, setHideSink] = useState(false);

  const li = Math.min(layerPick, Math.max(0, a.layers.length - 1));
  const layer: ImportedLayer | undefined = a.layers[li];
  const choices = layer ? headChoices(layer) : ['mean' as const];
  const head: HeadReduction = choices.some((c) => c === headPick) ? headPick : 'mean';
  const meanOnlyLayer = layer?.heads === 'mean';
  const K = layer?.keys ?? 0;

  const summary = useMemo(() => importedSummary(a, TOP_N), [a]);
  const matrix = useMemo(() => (layer ? squareMatrix(layer, head, hideSink) : null), [layer, head, hideSink]);
  const scale = useMemo(
    () => makeScale({ kind: scaleKind, gamma, min: 0, max: matrix ? colourMax(matrix, K, DEFAULT_MIN_QUERY) : 1 }),
    [matrix, K, scaleKind, gamma],
  );
  const labels = useMemo(() => a.tokens.slice(0, K).map(visibleWhitespace), [a.tokens, K]);

  return {
    own,
    call,
    setCall,
    /** The attention shown: the file's own, or one call's. */
    shown: a,
    li,
    setLayerPick,
    layer,
    choices,
    head,
    setHeadPick,
    meanOnlyLayer,
    K,
    scaleKind,
    setScaleKind,
    gamma,
    setGamma,
    map,
    setMap,
    hideSink,
    setHideSink,
    summary,
    matrix,
    scale,
    labels,
  };
}

export type ImportedAttentionState = ReturnType<typeof useImportedAttention>;
