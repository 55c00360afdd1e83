// Which context token a predicted token was copied from (docs/CONCEPTS.md#copy-source). The row at position p
// predicts the token at p + 1. When that token already occurs earlier in the context (positions j ≤ p with the
// same id), a copying head at row p attends to such a j: it reads the token there and writes it out (the second
// half of an induction circuit). This module finds, over every layer and head, the strongest attention from
// row p to an earlier occurrence of the predicted token. It reports what the weights are, not a verdict: a
// weight near uniform (1 / (p + 1)) means no head singled the occurrence out. `copySourceOfRun` does the same on
// a full run's tensors (the Attention tab), over the layers that hold per-head maps.
import type { Tensor } from '../tensor';

export interface CopyCandidate {
  /** Position of the earlier occurrence. */
  position: number;
  layer: number;
  head: number;
  /** Attention weight from row p to `position` in that layer and head. */
  weight: number;
}

export interface CopySource {
  /** The row (query position) whose prediction is examined. */
  row: number;
  /** The predicted token's id (the token at row + 1). */
  token: number;
  /** Earlier positions holding the same token id, oldest first. */
  occurrences: number[];
  /** The strongest (layer, head, occurrence), or null when the token does not occur before. */
  best: CopyCandidate | null;
  /** Whether, in the best head, the occurrence is also the position that head attends to most. */
  bestIsHeadArgmax: boolean;
  /** The position the best head attends to most (position 0 included), or null without a best. */
  bestHeadArgmax: number | null;
  /** The strongest occurrence weight per layer and head ([layer][head]), 0 where none occurs. */
  perHead: number[][];
  /** What a head spreading evenly would give each key: 1 / (row + 1). */
  uniform: number;
}

/**
 * `attention[l]` holds the row's weights for layer l as [heads, row + 1] (heads × keys, row-major, as
 * lib/generate/stepSession keeps them). `predicted` is the token at row + 1; `ids` the timeline (at least
 * row + 1 ids). Only positions 1 … row count as occurrences: position 0 is the template's first token, a
 * special token, never copied content.
 */
export function copySource(attention: readonly Float32Array[], heads: number, row: number, ids: readonly number[], predicted: number): CopySource {
  const keys = row + 1;
  if (ids.length < keys) throw new RangeError(`copySource: ${ids.length} ids for row ${row}`);
  const occurrences: number[] = [];
  for (let j = 1; j <= row; j++) if (ids[j] === predicted) occurrences.push(j);
  const perHead = attention.map((layer, l) => {
    if (layer.length < heads * keys) throw new RangeError(`copySource: layer ${l} holds ${layer.length} weights, needs ${heads * keys}`);
    return Array.from({ length: heads }, (_, h) => occurrences.reduce((m, j) => Math.max(m, layer[h * keys + j]!), 0));
  });
  let best: CopyCandidate | null = null;
  for (let l = 0; l < attention.length; l++) {
    const layer = attention[l]!;
    for (let h = 0; h < heads; h++) {
      for (const j of occurrences) {
        const w = layer[h * keys + j]!;
        if (!best || w > best.weight) best = { position: j, layer: l, head: h, weight: w };
      }
    }
  }
  let bestHeadArgmax: number | null = null;
  if (best) {
    const layer = attention[best.layer]!;
    let arg = 0;
    for (let j = 1; j < keys; j++) if (layer[best.head * keys + j]! > layer[best.head * keys + arg]!) arg = j;
    bestHeadArgmax = arg;
  }
  return { row, token: predicted, occurrences, best, bestIsHeadArgmax: best !== null && bestHeadArgmax === best.position, bestHeadArgmax, perHead, uniform: 1 / keys };
}

/**
 * What a run's copy source was searched over: every layer's heads ('all'); only the layers that hold per-head
 * maps, the others being their head mean only ('headLayers', a large model's run); or, where no layer holds
 * per-head maps, each layer's head mean as one head ('mean').
 */
export interface CopyCoverage {
  kind: 'all' | 'headLayers' | 'mean';
  /** The model's layers searched, ascending. */
  layers: number[];
  /** Heads per searched layer (1 for 'mean': the head mean). */
  heads: number;
  /** The model's layers. */
  totalLayers: number;
}

export interface RunCopySource extends CopySource {
  coverage: CopyCoverage;
}

/**
 * copySource for query `row` of a full run: `attention[l]` is [heads, T, T] (per head) or [T, T] (head mean),
 * `headLayers` the per-head layers (lib/analysis/headLayers headLayersOf), `ids` the run's T token ids. The
 * predicted token is ids[row + 1]; null when the row is the last (it predicts nothing of the run) or out of
 * range. `best.layer` is the MODEL's layer; `perHead` is indexed like `coverage.layers`. With 'mean' coverage
 * `best.head` is 0 and stands for the head mean.
 */
export function copySourceOfRun(attention: readonly Tensor[], headLayers: readonly number[], row: number, ids: readonly number[]): RunCopySource | null {
  const T = ids.length;
  if (!Number.isInteger(row) || row < 0 || row + 1 >= T || attention.length === 0) return null;
  const keys = row + 1;
  const perHead = headLayers.length > 0;
  const layers = perHead ? [...headLayers] : attention.map((_, l) => l);
  const heads = perHead ? attention[layers[0]!]!.dims[0]! : 1;
  const rows = layers.map((l) => {
    const a = attention[l]!;
    const threeD = a.dims.length === 3;
    const H = threeD ? a.dims[0]! : 1;
    const [R, K] = threeD ? [a.dims[1]!, a.dims[2]!] : [a.dims[0]!, a.dims[1]!];
    if (H !== heads || row >= R || keys > K) throw new RangeError(`copySourceOfRun: layer ${l} is [${a.dims.join(', ')}], row ${row} of ${heads} heads`);
    const out = new Float32Array(heads * keys);
    for (let h = 0; h < heads; h++) out.set(a.data.subarray((h * R + row) * K, (h * R + row) * K + keys), h * keys);
    return out;
  });
  const c = copySource(rows, heads, row, ids, ids[row + 1]!);
  const kind: CopyCoverage['kind'] = !perHead ? 'mean' : layers.length === attention.length ? 'all' : 'headLayers';
  return {
    ...c,
    best: c.best && { ...c.best, layer: layers[c.best.layer]! },
    coverage: { kind, layers, heads, totalLayers: attention.length },
  };
}
