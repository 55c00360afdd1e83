// Which context token a predicted token was copied from (docs/CONCEPTS.md#copy-source). The row at position p
// predicts the token at p + 1. When that token already occurs earlier in the context (positions j ≤ p with the
// same id), a copying head at row p attends to such a j: it reads the token there and writes it out (the second
// half of an induction circuit). This module finds, over every layer and head, the strongest attention from
// row p to an earlier occurrence of the predicted token. It reports what the weights are, not a verdict: a
// weight near uniform (1 / (p + 1)) means no head singled the occurrence out. `copySourceOfRun` does the same on
// a full run's tensors (the Attention tab), over the layers that hold per-head maps.
//
// A head can also read a copied token a few positions AFTER its occurrence, where an earlier layer's head that
// looks a fixed distance back has carried it (training run 7's models copy this way: training/py/copy_circuit.py,
// docs/CONCEPTS.md#copy-source). `offsetReading` reports the strongest head whose top key lies 1 … MAX_READ_OFFSET
// positions after an occurrence; on a full run, `carrier` says whether an earlier layer's head at that key looks
// back to the occurrence.
import type { Tensor } from '../tensor';

/** How far after an occurrence a head's top key may lie to count as reading it at an offset (docs/CONCEPTS.md#copy-source). */
export const MAX_READ_OFFSET = 8;

export interface CopyCandidate {
  /** Position of the earlier occurrence. */
  position: number;
  layer: number;
  head: number;
  /** Attention weight from row p to `position` in that layer and head. */
  weight: number;
}

/** A head whose top key lies a few positions after an occurrence of the predicted token. */
export interface OffsetReading {
  layer: number;
  head: number;
  /** The key the head attends to most in the row. */
  position: number;
  weight: number;
  /** The nearest occurrence before `position`, and `position − occurrence` (1 … MAX_READ_OFFSET). */
  occurrence: number;
  offset: number;
}

/** In a layer below the offset reading's, the head whose row `position` attends most strongly to the occurrence. */
export interface Carrier {
  layer: number;
  head: number;
  /** Attention from row `reading.position` to `reading.occurrence`. */
  weight: number;
  /** Whether the occurrence is that head's top key in that row. */
  isArgmax: boolean;
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
  /** The strongest head whose top key is 1 … MAX_READ_OFFSET after an occurrence; null when none is. */
  offsetReading: OffsetReading | null;
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
  const bestHeadArgmax = best ? argmaxIn(attention[best.layer]!, best.head * keys, keys) : null;
  return {
    row,
    token: predicted,
    occurrences,
    best,
    bestIsHeadArgmax: best !== null && bestHeadArgmax === best.position,
    bestHeadArgmax,
    perHead,
    uniform: 1 / keys,
    offsetReading: offsetReadingOf(attention, heads, keys, occurrences),
  };
}

/** Index of the largest of a[from … from + n − 1], relative to `from`; the first on ties. */
function argmaxIn(a: ArrayLike<number>, from: number, n: number): number {
  let arg = 0;
  for (let j = 1; j < n; j++) if (a[from + j]! > a[from + arg]!) arg = j;
  return arg;
}

function offsetReadingOf(attention: readonly Float32Array[], heads: number, keys: number, occurrences: readonly number[]): OffsetReading | null {
  if (!occurrences.length) return null;
  let out: OffsetReading | null = null;
  for (let l = 0; l < attention.length; l++) {
    for (let h = 0; h < heads; h++) {
      const position = argmaxIn(attention[l]!, h * keys, keys);
      let occurrence = -1;
      for (const j of occurrences) if (j < position) occurrence = j; // ascending: the last one before is the nearest
      const offset = position - occurrence;
      if (occurrence < 0 || offset > MAX_READ_OFFSET) continue;
      const weight = attention[l]![h * keys + position]!;
      if (!out || weight > out.weight) out = { layer: l, head: h, position, weight, occurrence, offset };
    }
  }
  return out;
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
  /** For the offset reading: the searched layer below it whose head at row `position` attends most to the occurrence (null without a reading or a layer below). */
  carrier: Carrier | null;
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
    const [H, R, K] = headsRowsKeys(a);
    if (H !== heads || row >= R || keys > K) throw new RangeError(`copySourceOfRun: layer ${l} is [${a.dims.join(', ')}], row ${row} of ${heads} heads`);
    const out = new Float32Array(heads * keys);
    for (let h = 0; h < heads; h++) out.set(a.data.subarray((h * R + row) * K, (h * R + row) * K + keys), h * keys);
    return out;
  });
  const c = copySource(rows, heads, row, ids, ids[row + 1]!);
  const kind: CopyCoverage['kind'] = !perHead ? 'mean' : layers.length === attention.length ? 'all' : 'headLayers';
  const reading = c.offsetReading && { ...c.offsetReading, layer: layers[c.offsetReading.layer]! };
  return {
    ...c,
    best: c.best && { ...c.best, layer: layers[c.best.layer]! },
    offsetReading: reading,
    coverage: { kind, layers, heads, totalLayers: attention.length },
    carrier: reading && carrierOf(attention, layers.filter((l) => l < reading.layer), heads, reading),
  };
}

/** [heads, rows, keys] of a layer's attention: [heads, T, T] per head, or [T, T] (its head mean) as one head. */
function headsRowsKeys(a: Tensor): [number, number, number] {
  return a.dims.length === 3 ? [a.dims[0]!, a.dims[1]!, a.dims[2]!] : [1, a.dims[0]!, a.dims[1]!];
}

/** Over `layers` (each [heads, T, T] or [T, T]), the head whose row reading.position gives reading.occurrence the most weight. */
function carrierOf(attention: readonly Tensor[], layers: readonly number[], heads: number, reading: OffsetReading): Carrier | null {
  let out: Carrier | null = null;
  for (const l of layers) {
    const a = attention[l]!;
    const [, R, K] = headsRowsKeys(a);
    if (reading.position >= R) continue;
    for (let h = 0; h < heads; h++) {
      const from = (h * R + reading.position) * K;
      const weight = a.data[from + reading.occurrence]!;
      if (!out || weight > out.weight) out = { layer: l, head: h, weight, isArgmax: argmaxIn(a.data, from, reading.position + 1) === reading.occurrence };
    }
  }
  return out;
}
