// What kvscope's attention views need, taken from attention computed elsewhere (ImportedLayer): a square K×K
// matrix for one head / the head mean / the head max with the rows the file lacks left NaN, and the sink,
// "where attention rests" and position-bias numbers over the rows the file does contain. Pure: no DOM, no React.
//
// An ImportedLayer holds Q query rows at absolute positions `queryPositions` (a full prefill: 0…K−1; an
// output_only trajectory: only the generated rows), K keys, and NaN for every absent cell (keys after the
// query's position). lib/analysis functions are used wherever their inputs fit:
//   - sinkScore reads only key 0 of rows q ≥ max(1, minQuery), all present and finite, and honours `rows`;
//   - uniformPositionBias depends only on the query positions, so it gives the baseline of exactly these rows;
//   - reduceHeads, hideSinkColumn, colourDomainMax, thirdsOf and topReceivers work on the present rows.
// attentionReceived / positionBias sum every key of a row, so an absent (NaN) cell would poison the sum: the
// variants below count it as 0 ("a query that cannot see k contributes 0", as lib/analysis defines it).

import { colourDomainMax, hideSinkColumn, reduceHeads, type HeadReduction } from './attentionView';
import { thirdsOf, uniformPositionBias, type PositionBias } from './positionBias';
import { DEFAULT_MIN_QUERY, sinkScore, topReceivers, type LayerAttention, type SinkScore } from './sink';
import type { ImportedAttention, ImportedLayer } from '../io/attention/types';

export type { HeadReduction } from './attentionView';

/** Heads stored for a layer: null when the file holds only their mean (averaged before export). */
export function storedHeads(l: ImportedLayer): number | null {
  return l.heads === 'mean' ? null : l.heads;
}

/** The head choices a layer supports: each head, mean and max when heads are present; only 'mean' otherwise. */
export function headChoices(l: ImportedLayer): HeadReduction[] {
  const H = storedHeads(l);
  return H === null ? ['mean'] : ['mean', 'max', ...Array.from({ length: H }, (_, h) => h)];
}

/** The layer as lib/analysis's LayerAttention (a 'mean' layer is one head); rows = its query positions. */
export function asLayerAttention(l: ImportedLayer): LayerAttention {
  return { data: l.data, heads: l.heads === 'mean' ? 1 : l.heads, queries: l.queries, keys: l.keys, rows: l.queryPositions };
}

/** Whether the layer holds every row 0…K−1 (a full prefill), i.e. no row is absent. */
export function isComplete(l: ImportedLayer): boolean {
  return l.queries === l.keys && l.queryPositions.every((q, i) => q === i);
}

/**
 * Reduces a layer to its present rows, [Q, K] row-major (absent cells NaN): one head, the mean, or the max.
 * A 'mean' layer only has its (exported) mean: any choice gives it.
 */
export function reducedRows(l: ImportedLayer, how: HeadReduction): Float32Array {
  if (l.heads === 'mean') return l.data.slice(0, l.queries * l.keys);
  return reduceHeads({ data: l.data, dims: [l.heads, l.queries, l.keys] }, how).data;
}

/**
 * hideSinkColumn (lib/analysis) for [Q, K] rows holding NaN for absent cells: absent cells are taken as 0 for
 * the renormalisation (they carry no attention) and stay NaN in the result. For a row without NaN this is
 * exactly hideSinkColumn.
 */
export function hideSinkColumnPresent(m: Float32Array, Q: number, K: number, key = 0): Float32Array {
  let any = false;
  for (let i = 0; i < m.length; i++) if (Number.isNaN(m[i]!)) { any = true; break; }
  if (!any) return hideSinkColumn(m, Q, K, key);
  const zeroed = m.map((v) => (Number.isNaN(v) ? 0 : v));
  const out = hideSinkColumn(zeroed, Q, K, key);
  for (let i = 0; i < m.length; i++) if (Number.isNaN(m[i]!)) out[i] = NaN;
  return out;
}

/**
 * The K×K matrix a Heatmap draws (row = absolute query position, column = key): the chosen reduction of the
 * present rows placed at their positions, every row the file does not contain NaN (drawn masked), and cells
 * after a row's position NaN as well. `hideSink` applies hideSinkColumnPresent to key 0 first.
 */
export function squareMatrix(l: ImportedLayer, how: HeadReduction, hideSink = false): Float32Array {
  const K = l.keys;
  let rows = reducedRows(l, how);
  if (hideSink && K > 0) rows = hideSinkColumnPresent(rows, l.queries, K, 0);
  if (isComplete(l)) return rows;
  const out = new Float32Array(K * K).fill(NaN);
  l.queryPositions.forEach((q, i) => {
    if (q < K) out.set(rows.subarray(i * K, (i + 1) * K), q * K);
  });
  return out;
}

/**
 * Top of the colour range for a square matrix from squareMatrix: colourDomainMax over rows ≥ fromRow; when no
 * present row lies there (e.g. a file holding only early rows), over all rows. NaN cells are ignored. 1 when
 * nothing is positive.
 */
export function colourMax(square: Float32Array, K: number, fromRow = DEFAULT_MIN_QUERY): number {
  return colourDomainMax(square, K, K, fromRow) || colourDomainMax(square, K, K, 0) || 1;
}

/**
 * minQuery for a file, as the engine's sink panel chooses it: DEFAULT_MIN_QUERY, lowered to max(1, p) when the
 * last present query position p (over all layers) is below it. For a full prefill of T tokens p = T − 1, so
 * this is the panel's rule "T ≤ DEFAULT_MIN_QUERY → max(1, T − 1)".
 */
export function importedMinQuery(layers: readonly ImportedLayer[]): { minQuery: number; lowered: boolean; lastRow: number } {
  let lastRow = -1;
  for (const l of layers) for (const q of l.queryPositions) if (q > lastRow) lastRow = q;
  if (lastRow < DEFAULT_MIN_QUERY) return { minQuery: Math.max(1, lastRow), lowered: true, lastRow };
  return { minQuery: DEFAULT_MIN_QUERY, lowered: false, lastRow };
}

/** Sink score of key 0 (lib/analysis sinkScore) over the present rows q ≥ max(1, minQuery). */
export function importedSinkScore(l: ImportedLayer, minQuery: number, key = 0): SinkScore {
  return sinkScore(asLayerAttention(l), key, minQuery);
}

/** Present rows at positions ≥ minQuery. */
export function qualifyingRows(l: ImportedLayer, minQuery: number): number {
  let n = 0;
  for (const q of l.queryPositions) if (q >= minQuery) n++;
  return n;
}

/**
 * Attention each key receives: mean over heads and over the present rows q ≥ minQuery of A[h, q, k], absent
 * cells counting as 0 (lib/analysis attentionReceived on a layer without absent rows). Null when no row qualifies.
 */
export function receivedPresent(l: ImportedLayer, minQuery: number): Float64Array | null {
  const H = l.heads === 'mean' ? 1 : l.heads;
  const { queries: Q, keys: K, data } = l;
  const sums = new Float64Array(K);
  let n = 0;
  for (let i = 0; i < Q; i++) {
    if (l.queryPositions[i]! < minQuery) continue;
    n++;
    for (let h = 0; h < H; h++) {
      const off = (h * Q + i) * K;
      for (let k = 0; k < K; k++) {
        const v = data[off + k]!;
        if (v === v) sums[k]! += v; // v === v: not NaN
      }
    }
  }
  if (n === 0 || H === 0) return null;
  const d = n * H;
  return sums.map((s) => s / d);
}

/** positionBias (lib/analysis) over the present rows q ≥ minQuery: thirds of receivedPresent over the K keys. */
export function positionBiasPresent(l: ImportedLayer, minQuery: number): PositionBias {
  const received = receivedPresent(l, minQuery);
  const [first, middle, last] = thirdsOf(received, l.keys);
  return { minQuery, tokens: l.keys, qualifyingQueries: received ? qualifyingRows(l, minQuery) : 0, first, middle, last };
}

/** What evenly spread causal attention would give for exactly these rows (lib/analysis uniformPositionBias). */
export function uniformPresent(l: ImportedLayer, minQuery: number): PositionBias {
  return uniformPositionBias({ queries: l.queries, keys: l.keys, rows: l.queryPositions }, minQuery);
}

export interface ImportedLayerSummary {
  /** Index in ImportedAttention.layers. */
  index: number;
  /** The model's layer index, or null when the file does not say. */
  layer: number | null;
  label: string;
  /** Stored heads; null = averaged over heads before export. */
  heads: number | null;
  presentRows: number;
  /** Sink score of key 0 per stored head (one entry, the exported mean, for a 'mean' layer). */
  sink: SinkScore;
  /** Share of attention on the first token: mean of A[q, 0] over heads and qualifying rows (= sink.headMean). */
  firstTokenShare: number | null;
  bias: PositionBias;
  /** Uniform position bias for this layer's rows. */
  uniform: PositionBias;
}

export interface ImportedSummary {
  /** Keys (= columns = side of the square matrix). */
  keys: number;
  minQuery: number;
  /** minQuery lowered below DEFAULT_MIN_QUERY because the file's rows end early. */
  lowered: boolean;
  /** Last present query position over all layers. */
  lastRow: number;
  layers: ImportedLayerSummary[];
  /** Most heads stored in any layer; 0 when every layer holds only the mean. */
  maxHeads: number;
  /** Every layer holds only the head mean. */
  meanOnly: boolean;
  /** Every layer has the same query positions (so one uniform reference fits all). */
  sameRows: boolean;
  /** Uniform position bias of the first layer's rows (the reference PositionBiasChart draws). */
  uniform: PositionBias | null;
  /** Keys receiving the most attention: received averaged over the layers that have a qualifying row. */
  top: { key: number; weight: number }[];
}

/** The sink / rests / position numbers of one ImportedAttention (its own layers; calls are separate). */
export function importedSummary(a: ImportedAttention, topN = 8): ImportedSummary {
  const { minQuery, lowered, lastRow } = importedMinQuery(a.layers);
  const keys = a.layers[0]?.keys ?? 0;
  const layers: ImportedLayerSummary[] = a.layers.map((l, index) => {
    const sink = importedSinkScore(l, minQuery);
    return {
      index,
      layer: l.layer,
      label: l.label,
      heads: storedHeads(l),
      presentRows: l.queries,
      sink,
      firstTokenShare: sink.headMean,
      bias: positionBiasPresent(l, minQuery),
      uniform: uniformPresent(l, minQuery),
    };
  });
  const received = a.layers.map((l) => receivedPresent(l, minQuery)).filter((r): r is Float64Array => r !== null);
  let top: { key: number; weight: number }[] = [];
  if (received.length > 0) {
    const K = Math.max(...received.map((r) => r.length));
    const mean = new Float64Array(K);
    for (const r of received) for (let k = 0; k < r.length; k++) mean[k]! += r[k]! / received.length;
    top = topReceivers(mean, topN);
  }
  const first = a.layers[0];
  const sameRows = a.layers.every((l) => l.keys === first!.keys && l.queryPositions.length === first!.queryPositions.length && l.queryPositions.every((q, i) => q === first!.queryPositions[i]));
  return {
    keys,
    minQuery,
    lowered,
    lastRow,
    layers,
    maxHeads: Math.max(0, ...a.layers.map((l) => storedHeads(l) ?? 0)),
    meanOnly: a.layers.every((l) => l.heads === 'mean'),
    sameRows,
    uniform: layers[0]?.uniform ?? null,
    top,
  };
}

/** The attention a call index stands for: -1 = the file's own attention, otherwise calls[i]. */
export function attentionOfCall(a: ImportedAttention, call: number): ImportedAttention {
  return call >= 0 && call < a.calls.length ? a.calls[call]!.attention : a;
}

/**
 * Whether the file's own attention is more than a copy of its first call (the trajectory reader shows the
 * first call as the file's attention when the run has no top-level attention_data).
 */
export function hasOwnAttention(a: ImportedAttention): boolean {
  return a.calls.length === 0 || a.layers !== a.calls[0]!.attention.layers;
}
