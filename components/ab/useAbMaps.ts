'use client';
// The data of the A/B maps (lib/view/abRaster): the axis both arms share, each arm's last `rows` query rows
// over it at one layer and head reduction, B − A, which rows and columns each map lacks, one colour scale
// for A and B, and the diverging scale of the difference, whose range comes from the rows that can differ
// (diffRange), not from the identical shared rows. Also the JSON the export carries.
import { useMemo } from 'react';
import type { Tensor } from '../../lib/tensor';
import type { Prompt } from '../../lib/prompt/prompt';
import { reduceHeads, type HeadReduction } from '../../lib/analysis/attentionView';
import { makeScale, type ScaleKind } from '../../lib/view/colormap';
import { absentCols, absentRows, alignAxis, alignedBlock, diffBlock, diffRange, finiteMax, sliceColumns, windowZones, zoneSums, type AlignedAxis } from '../../lib/view/abRaster';
import { makeDivergingScale } from '../../lib/view/diverging';
import { matrixJson } from '../../lib/io/export';

export interface AbArmView {
  name: 'A' | 'B';
  title: string;
  prompt: Prompt;
  labels: string[];
  attention: Tensor[];
}

/** Colour map of A and B (one legend for both arms). */
export const AB_MAP = 'viridis' as const;

export interface AbMapSettings {
  layer: number;
  head: HeadReduction;
  kind: ScaleKind;
  /** Query rows shown: the last `rows` of the aligned axis (clamped to 1 … its length). */
  rows: number;
  /** Keys shown: the last `keys` columns of the aligned axis (clamped to 1 … its length). */
  keys: number;
  diffGamma: number;
}

export interface AbMapCells {
  a: Float32Array;
  b: Float32Array;
  d: Float32Array;
}

export function useAlignedAxis(a: AbArmView, b: AbArmView, sharedPrefix: number): AlignedAxis {
  return useMemo(() => alignAxis(a.prompt.ids, b.prompt.ids, sharedPrefix), [a.prompt, b.prompt, sharedPrefix]);
}

export function useAbMaps(a: AbArmView, b: AbArmView, axis: AlignedAxis, { layer: l, head, kind, rows, keys, diffGamma }: AbMapSettings) {
  const Ta = a.prompt.ids.length;
  const Tb = b.prompt.ids.length;
  const K = axis.length;
  const n = Math.max(1, Math.min(K, Math.round(rows) || 1));
  const from = K - n;
  // The key window: the last m aligned columns, c0 … K − 1.
  const m = Math.max(1, Math.min(K, Math.round(keys) || 1));
  const c0 = K - m;
  const reduced = useMemo(() => ({ a: reduceHeads(a.attention[l]!, head).data, b: reduceHeads(b.attention[l]!, head).data }), [a, b, l, head]);
  const cells = useMemo((): AbMapCells => {
    const ca = sliceColumns(alignedBlock(reduced.a, Ta, axis, 'a', from, n), n, K, c0, K);
    const cb = sliceColumns(alignedBlock(reduced.b, Tb, axis, 'b', from, n), n, K, c0, K);
    return { a: ca, b: cb, d: diffBlock(ca, cb) };
  }, [reduced, Ta, Tb, axis, from, n, K, c0]);
  const absent = useMemo(
    () => ({
      rows: { a: absentRows(axis, ['a'], from, n), b: absentRows(axis, ['b'], from, n), d: absentRows(axis, ['a', 'b'], from, n) },
      cols: { a: absentCols(axis, ['a']).subarray(c0), b: absentCols(axis, ['b']).subarray(c0), d: absentCols(axis, ['a', 'b']).subarray(c0) },
    }),
    [axis, from, n, c0],
  );
  const zones = useMemo(() => windowZones(axis, c0, K), [axis, c0, K]);
  const scale = useMemo(() => {
    const max = Math.max(finiteMax(cells.a), finiteMax(cells.b));
    return makeScale({ kind, min: 0, max: max || 1, gamma: 0.5 });
  }, [cells, kind]);
  // Each arm's decision row (its last token: the last aligned row when the arms end alike), summed per zone
  // of the whole axis: how much of its attention goes to the shared prefix, to tokens only it has, and to
  // the common suffix.
  const decisionSums = useMemo(
    () => ({
      a: zoneSums(alignedBlock(reduced.a, Ta, axis, 'a', axis.a.lastIndexOf(Ta - 1), 1), axis.zones),
      b: zoneSums(alignedBlock(reduced.b, Tb, axis, 'b', axis.b.lastIndexOf(Tb - 1), 1), axis.zones),
    }),
    [reduced, Ta, Tb, axis],
  );
  const range = useMemo(() => diffRange(reduced.a, Ta, reduced.b, Tb, axis), [reduced, Ta, Tb, axis]);
  const dScale = useMemo(() => makeDivergingScale(range.max, diffGamma), [range, diffGamma]);

  // What the maps show: the aligned axis (each column's position in A and in B, −1 where absent), the rows
  // and keys drawn, A's and B's weights and B − A there (null where absent or in the future), both scales.
  const json = () => ({
    kind: 'ab-attention-rows',
    layer: l,
    head,
    scale: kind,
    gamma: kind === 'power' ? scale.gamma : 1,
    colormap: AB_MAP,
    range: { min: scale.min, max: scale.max },
    diffRange: { max: range.max, at: range.at, cells: range.cells, gamma: diffGamma },
    sharedPrefix: axis.sharedPrefix,
    commonSuffix: axis.commonSuffix,
    axis: { length: axis.length, zones: axis.zones, a: [...axis.a], b: [...axis.b] },
    decisionZoneSums: axis.zones.map((z, i) => ({ zone: z.kind, a: decisionSums.a[i], b: decisionSums.b[i] })),
    rows: { from, count: n },
    keys: { from: c0, count: m },
    arms: [a, b].map((arm) => ({ name: arm.name, title: arm.title, tokens: arm.labels, spans: arm.prompt.spans })),
    a: matrixJson(cells.a, n, m),
    b: matrixJson(cells.b, n, m),
    bMinusA: matrixJson(cells.d, n, m),
  });

  return { n, from, m, c0, zones, cells, absent, scale, range, dScale, decisionSums, json };
}

export type AbMaps = ReturnType<typeof useAbMaps>;
