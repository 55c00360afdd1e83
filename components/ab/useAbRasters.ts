'use client';
// The data of the A/B heatmaps: per arm the attention rows from the shared prefix on over one key axis
// (lib/view/abRaster rowBlock), one colour scale for both arms, and the decision-row difference per layer
// over the shared keys (lib/analysis/abArms) with its diverging scale; also the JSON each export carries.
import { useMemo } from 'react';
import type { Tensor } from '../../lib/tensor';
import type { Prompt } from '../../lib/prompt/prompt';
import type { ArmAlignment } from '../../lib/analysis/abCompare';
import { reduceHeads, type HeadReduction } from '../../lib/analysis/attentionView';
import { decisionRowDiff } from '../../lib/analysis/abArms';
import { makeScale, type ScaleKind } from '../../lib/view/colormap';
import { finiteMax, rowBlock } from '../../lib/view/abRaster';
import { makeDivergingScale } from '../../lib/view/diverging';
import { matrixJson } from '../../lib/io/export';

export interface AbArmView {
  name: 'A' | 'B';
  title: string;
  prompt: Prompt;
  labels: string[];
  attention: Tensor[];
}

/** Colour map of the rows (one legend for both arms). */
export const AB_MAP = 'viridis' as const;

export interface AbRasterSettings {
  layer: number;
  head: HeadReduction;
  kind: ScaleKind;
  diffGamma: number;
}

export function useAbRasters(a: AbArmView, b: AbArmView, alignment: ArmAlignment, { layer: l, head, kind, diffGamma }: AbRasterSettings) {
  const P = alignment.sharedPrefix;
  const Ta = a.prompt.ids.length;
  const Tb = b.prompt.ids.length;
  const keys = Math.max(Ta, Tb);
  const blocks = useMemo(() => {
    const one = (arm: AbArmView, T: number) => rowBlock(reduceHeads(arm.attention[l]!, head).data, T, Math.min(P, T), keys);
    return { a: one(a, Ta), b: one(b, Tb) };
  }, [a, b, l, head, P, keys, Ta, Tb]);
  const scale = useMemo(() => {
    const max = Math.max(finiteMax(blocks.a), finiteMax(blocks.b));
    return makeScale({ kind, min: 0, max: max || 1, gamma: 0.5 });
  }, [blocks, kind]);
  // The difference view: decision rows over the shared keys, every layer.
  const diff = useMemo(() => (P > 0 ? decisionRowDiff(a.attention, b.attention, Ta - 1, Tb - 1, P, head) : null), [a, b, Ta, Tb, P, head]);
  const dScale = useMemo(() => makeDivergingScale(diff?.maxAbs ?? 0, diffGamma), [diff, diffGamma]);

  // The rows drawn, per arm (query rows from the shared prefix on × the common key axis; null where a key is
  // in the row's future or past the arm's end), with the view's settings and one colour range.
  const rowsJson = () => ({
    kind: 'ab-attention-rows',
    layer: l,
    head,
    scale: kind,
    gamma: kind === 'power' ? scale.gamma : 1,
    colormap: AB_MAP,
    range: { min: scale.min, max: scale.max },
    sharedPrefix: P,
    keys,
    arms: [
      { arm: a, block: blocks.a, T: Ta },
      { arm: b, block: blocks.b, T: Tb },
    ].map(({ arm, block, T }) => {
      const fromRow = Math.min(P, T);
      return { name: arm.name, title: arm.title, fromRow, rows: T - fromRow, tokens: arm.labels, spans: arm.prompt.spans, matrix: matrixJson(block, T - fromRow, keys) };
    }),
  });
  // The difference view: A's and B's decision rows and B − A per layer over the shared keys.
  const diffJson = () =>
    diff && {
      kind: 'ab-decision-diff',
      head,
      sharedPrefix: P,
      queries: { A: Ta - 1, B: Tb - 1 },
      layers: diff.layers,
      keys: diff.keys,
      gamma: diffGamma,
      maxAbs: diff.maxAbs,
      at: diff.at,
      tokens: a.labels.slice(0, diff.keys),
      sumA: diff.sumA,
      sumB: diff.sumB,
      diff: matrixJson(diff.diff, diff.layers, diff.keys),
      a: matrixJson(diff.a, diff.layers, diff.keys),
      b: matrixJson(diff.b, diff.layers, diff.keys),
    };

  return { P, Ta, Tb, keys, blocks, scale, diff, dScale, rowsJson, diffJson };
}
