'use client';
// What the Step tab shows of the current query (the row of position cursor − 1): the view settings (layer,
// head, scale, colour map, hidden sink, a picked key), its attention reduced as chosen, the colour scale,
// the five most attended keys and the model's next-token figures. The figures are lib/generate/stepper's.
import { useEffect, useMemo, useRef, useState } from 'react';
import { hideSinkColumn, type HeadReduction } from '../../lib/analysis/attentionView';
import { nextTokenStats, reduceRow, type NextToken } from '../../lib/generate/stepper';
import type { Row } from '../../lib/generate/stepSession';
import { DEFAULT_GAMMA, makeScale, type ColormapName, type Scale, type ScaleKind } from '../../lib/view/colormap';
import type { Analysed } from '../../lib/state/analysed';
import type { StepOps } from './useStepSession';

export interface StripSettings {
  layer: number;
  layers: number;
  /** The user picked a layer (else the last one is shown). */
  setLayer: (l: number) => void;
  head: HeadReduction;
  heads: number;
  setHead: (h: HeadReduction) => void;
  scaleKind: ScaleKind;
  setScaleKind: (k: ScaleKind) => void;
  colormap: ColormapName;
  setColormap: (c: ColormapName) => void;
  hideSink: boolean;
  setHideSink: (h: boolean) => void;
  /** A key picked on the strip or in the tokens (outlined), or null. */
  picked: number | null;
  /** Picks `k`, or unpicks it when it is already picked. */
  togglePick: (k: number) => void;
  clearPick: () => void;
}

export interface QueryView {
  settings: StripSettings;
  /** The query's row (undefined before the first position is cached). */
  row: Row | undefined;
  /** Its attention over the cached keys, reduced over heads as chosen (sink column hidden if asked). */
  weights: Float32Array | null;
  scale: Scale;
  next: NextToken | null;
  topKeys: { k: number; w: number }[];
}

export function useQueryView(analysed: Analysed | null, ops: StepOps): QueryView {
  const { session: s, cursor } = ops;
  const layers = analysed?.attention.length ?? 0;
  const [layer, setLayer] = useState(() => Math.max(0, layers - 1));
  // Until the user picks a layer, show the last one (see docs/CONCEPTS.md#decision-position).
  const layerChosen = useRef(false);
  const [head, setHead] = useState<HeadReduction>('mean');
  const [scaleKind, setScaleKind] = useState<ScaleKind>('power');
  const [colormap, setColormap] = useState<ColormapName>('viridis');
  const [hideSink, setHideSink] = useState(false);
  const [picked, setPicked] = useState<number | null>(null);

  useEffect(() => {
    if (!analysed) return;
    setPicked(null);
    const last = Math.max(0, analysed.attention.length - 1);
    setLayer((l) => (layerChosen.current ? Math.min(l, last) : last));
  }, [analysed]);

  const row = s && cursor > 0 ? s.rows[cursor - 1] : undefined;
  const heads = row?.heads ?? analysed?.attention[0]?.dims[0] ?? 0;
  const headNow: HeadReduction = typeof head === 'number' && head >= heads ? 'mean' : head;
  const layerNow = Math.min(layer, Math.max(0, layers - 1));
  const weights = useMemo(() => {
    if (!row || !row.attention[layerNow]) return null;
    const w = reduceRow(row.attention[layerNow]!, row.heads, headNow);
    return hideSink && w.length > 1 ? hideSinkColumn(w, 1, w.length, 0) : w;
  }, [row, layerNow, headNow, hideSink]);
  const scale = useMemo(() => {
    let max = 0;
    if (weights) for (const v of weights) if (v > max) max = v;
    return makeScale({ kind: scaleKind, gamma: DEFAULT_GAMMA, min: 0, max: max || 1 });
  }, [weights, scaleKind]);
  const next = useMemo(() => {
    if (!row?.logits || !s) return null;
    return nextTokenStats(row.logits, cursor < s.seq.length ? s.seq[cursor]! : null, 5);
  }, [row, s, cursor]);
  const topKeys = useMemo(() => {
    if (!weights) return [];
    return Array.from(weights, (w, k) => ({ k, w }))
      .sort((a, b) => b.w - a.w || a.k - b.k)
      .slice(0, 5);
  }, [weights]);

  const settings: StripSettings = {
    layer: layerNow,
    layers,
    setLayer: (l) => {
      layerChosen.current = true;
      setLayer(l);
    },
    head: headNow,
    heads,
    setHead,
    scaleKind,
    setScaleKind,
    colormap,
    setColormap,
    hideSink,
    setHideSink,
    picked,
    togglePick: (k) => setPicked((p) => (p === k ? null : k)),
    clearPick: () => setPicked(null),
  };
  return { settings, row, weights, scale, next, topKeys };
}
