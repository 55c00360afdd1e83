// The trust check (docs/MODELS.md, "Checking kvscope against Transformers"): attention exported by
// tools/export_attention.py from PyTorch / Transformers, compared cell by cell with kvscope's engine run of the
// same token ids. Per layer: max and mean |Δ| over the cells both sides hold, and a verdict against a stated
// tolerance. Pure: no DOM, no engine — the caller runs the engine and passes its tensors.
//
// What "the same cell" means: the file's row i stands for position queryPositions[i]; the engine's row r for
// position rows[r] (0…T−1 after a plain prefill). Only keys k ≤ q of rows both hold count (the rest is causally
// masked: NaN in the file, 0 in the engine). Heads: compared one by one when both sides hold them, else on the
// head mean (a file exported with --heads mean, or an engine layer returned reduced — large models return every
// layer as its head mean and one layer per head).

import type { ImportedAttention, ImportedLayer } from '../io/attention/types';
import type { Tensor } from '../tensor';
import type { StringKey } from '../i18n';
import { CodedError, message, type Message } from '../i18n/message';

/**
 * Default tolerances on max |Δ| per layer, by the exporter's activation dtype (the file's `source.dtype`).
 * - float32 (the exporter's default; 16-bit checkpoints are upcast exactly): the same arithmetic as kvscope's
 *   engine, which casts 16-bit weights to float32 and computes in float32; what differs is summation order
 *   (kvscope-tiny: 1.2e-6 over 4 layers). 1e-4 leaves room for 28+ layers and large activations.
 * - 16-bit (--dtype bfloat16 / float16): PyTorch then rounds every activation to 8 (bf16) or 11 (fp16) bits.
 *   Measured on kvscope-tiny in bf16: up to 2.4e-2 per head, 6.8e-3 on the head mean after only 4 layers, so
 *   the bound is coarse (5e-2); it still catches what a real bug does (wrong RoPE, norm or mask: 1e-1 and more).
 */
export const TOLERANCE = { float32: 1e-4, half: 5e-2 } as const;

export type ToleranceBasis = 'float32' | 'half' | 'unknown' | 'given';

/** The default tolerance for a file, from the dtype its exporter recorded (unknown dtypes get the float32 one). */
export function defaultTolerance(meta: ImportedAttention['meta']): { tolerance: number; basis: ToleranceBasis } {
  const d = typeof meta.dtype === 'string' ? meta.dtype.toLowerCase().replace(/^torch\./, '') : null;
  if (d === 'float32' || d === 'fp32') return { tolerance: TOLERANCE.float32, basis: 'float32' };
  if (d === 'bfloat16' || d === 'float16' || d === 'bf16' || d === 'fp16' || d === 'half') return { tolerance: TOLERANCE.half, basis: 'half' };
  return { tolerance: TOLERANCE.float32, basis: 'unknown' };
}

export type RefusalCode = 'no-token-ids' | 'ids-differ' | 'unknown-layer' | 'no-such-layer' | 'heads-differ' | 'bad-engine-tensor' | 'no-layers' | 'no-overlap' | 'vocab' | 'too-long';

/**
 * Why a comparison cannot be made; `params` fill the page's translated sentence for `code`. The message is
 * coded too (lib/i18n/message.ts: `key`, the same `params` and more, `parts.who` the file), English in `.message`.
 */
export class CompareRefusal extends CodedError {
  override readonly params: Record<string, string | number>;
  constructor(
    readonly code: RefusalCode,
    key: StringKey,
    params: Record<string, string | number>,
    who: Message,
    parts: Record<string, Message> = {},
  ) {
    super(key, params, undefined, { who, ...parts });
    this.params = params;
    this.name = 'CompareRefusal';
  }
}

/** The engine's run of the file's token ids. */
export interface EngineAttention {
  /** The token ids the engine ran. */
  ids: number[];
  /** One tensor per model layer: [heads, rows, keys], or [rows, keys] = the head mean. */
  layers: Tensor[];
  /** Absolute position of each engine row (default 0…rows−1: a prefill from an empty cache). */
  rows?: number[];
}

export interface CompareOptions {
  /** Max |Δ| a layer may show and pass; default from `defaultTolerance(file.meta)`. */
  tolerance?: number;
  /** Names the file in refusals ("qwen3.safetensors: …"). */
  name?: string;
}

export interface WorstCell {
  /** Head index, or null when compared on the head mean. */
  head: number | null;
  query: number;
  key: number;
  file: number;
  engine: number;
}

export interface LayerComparison {
  layer: number;
  /** 'mean': compared on head means; a number: that many heads compared one by one. */
  heads: 'mean' | number;
  /** When compared on the mean: which side held only the mean ('both' when both did). */
  meanBecause: 'file' | 'engine' | 'both' | null;
  maxAbs: number;
  meanAbs: number;
  /** Cells compared (heads × present cells). */
  cells: number;
  worst: WorstCell | null;
  pass: boolean;
}

export interface ImportComparison {
  layers: LayerComparison[];
  tolerance: number;
  basis: ToleranceBasis;
  /** Worst over all layers. */
  maxAbs: number;
  pass: boolean;
  tokens: number;
  /** The model the file names (meta.model), or null. */
  fileModel: string | null;
}

/** Who the refusal is about: the file's name, or "the file". */
const where = (name: string | undefined): Message => (name ? message('msg.import.verbatim', { text: name }) : message('msg.import.cmp.theFile'));

/** The model facts the checks before a run need. */
export interface ModelFacts {
  numLayers: number;
  vocabSize: number;
  maxPositions: number;
}

/**
 * Whether the file can be compared with a model at all, before running anything: token ids present, every
 * layer index known and inside the model, ids inside its vocabulary, the sequence inside its context. Null: fine.
 */
export function compareBlocker(file: ImportedAttention, model: ModelFacts, name?: string): CompareRefusal | null {
  const w = where(name);
  const ids = file.tokenIds;
  if (!ids || ids.length === 0) return new CompareRefusal('no-token-ids', 'msg.import.cmp.noIds', {}, w);
  if (file.layers.length === 0) return new CompareRefusal('no-layers', 'msg.import.cmp.noLayers', {}, w);
  const unknown = file.layers.findIndex((l) => l.layer === null);
  if (unknown >= 0) {
    const l = file.layers[unknown]!;
    return new CompareRefusal('unknown-layer', 'msg.import.cmp.unknownLayer', { index: unknown }, w, { label: l.labelCoded ?? message('msg.import.verbatim', { text: l.label }) });
  }
  const beyond = file.layers.find((l) => l.layer! >= model.numLayers);
  if (beyond) return new CompareRefusal('no-such-layer', 'msg.import.cmp.noSuchLayer', { layer: beyond.layer!, layers: model.numLayers }, w);
  const bad = ids.findIndex((i) => i >= model.vocabSize);
  if (bad >= 0) return new CompareRefusal('vocab', 'msg.import.cmp.vocab', { index: bad, id: ids[bad]!, vocab: model.vocabSize }, w);
  if (ids.length > model.maxPositions) return new CompareRefusal('too-long', 'msg.import.cmp.tooLong', { tokens: ids.length, max: model.maxPositions }, w);
  return null;
}

/** Mean over heads of [H, R, K] (float64 sums), [R, K]. */
function headMean(data: Float32Array, H: number, R: number, K: number): Float64Array {
  const out = new Float64Array(R * K);
  for (let h = 0; h < H; h++) {
    const base = h * R * K;
    for (let i = 0; i < R * K; i++) out[i] = out[i]! + data[base + i]!;
  }
  for (let i = 0; i < out.length; i++) out[i] = out[i]! / H;
  return out;
}

interface Side {
  /** Per head [H][R·K], or one entry for the mean. */
  planes: ArrayLike<number>[];
  heads: 'mean' | number;
}

function fileSide(l: ImportedLayer, asMean: boolean): Side {
  const RK = l.queries * l.keys;
  if (l.heads === 'mean') return { planes: [l.data.subarray(0, RK)], heads: 'mean' };
  if (asMean) return { planes: [headMean(l.data, l.heads, l.queries, l.keys)], heads: 'mean' };
  return { planes: Array.from({ length: l.heads }, (_, h) => l.data.subarray(h * RK, (h + 1) * RK)), heads: l.heads };
}

function engineShape(t: Tensor, layer: number, T: number, name: string | undefined): { H: number | null; R: number; K: number } {
  const d = t.dims;
  const ok = (d.length === 3 || d.length === 2) && d.every((x) => Number.isInteger(x) && x > 0) && d.reduce((a, b) => a * b, 1) === t.data.length;
  const K = d[d.length - 1]!;
  if (!ok || K !== T) throw new CompareRefusal('bad-engine-tensor', 'msg.import.cmp.badShape', { layer, shape: d.join(', '), T }, where(name));
  return d.length === 3 ? { H: d[0]!, R: d[1]!, K } : { H: null, R: d[0]!, K };
}

/** Compares the file's layers with the engine's run of the same ids. Throws CompareRefusal when they cannot be compared. */
export function compareImported(file: ImportedAttention, engine: EngineAttention, opts: CompareOptions = {}): ImportComparison {
  const w = where(opts.name);
  const ids = file.tokenIds;
  const T = engine.ids.length;
  const blocked = compareBlocker(file, { numLayers: engine.layers.length, vocabSize: Infinity, maxPositions: Infinity }, opts.name);
  if (blocked) throw blocked;
  if (ids!.length !== T || ids!.some((v, i) => v !== engine.ids[i])) {
    const at = ids!.findIndex((v, i) => v !== engine.ids[i]);
    const first = at >= 0 && at < Math.min(ids!.length, T) ? at : Math.min(ids!.length, T);
    throw new CompareRefusal('ids-differ', 'msg.import.cmp.idsDiffer', { fileTokens: ids!.length, engineTokens: T, at: first }, w);
  }
  const def = defaultTolerance(file.meta);
  const tolerance = opts.tolerance ?? def.tolerance;
  const basis: ToleranceBasis = opts.tolerance === undefined ? def.basis : 'given';
  if (!(tolerance >= 0)) throw new RangeError(`tolerance must be a number ≥ 0, got ${tolerance}`);

  const layers = file.layers.map((fl): LayerComparison => {
    const li = fl.layer!;
    const et = engine.layers[li]!;
    const { H: eH, R, K: eK } = engineShape(et, li, T, opts.name);
    const eRows = engine.rows ?? Array.from({ length: R }, (_, i) => i);
    if (eRows.length !== R) throw new CompareRefusal('bad-engine-tensor', 'msg.import.cmp.badRows', { layer: li, shape: et.dims.join(', '), rows: R, positions: eRows.length }, w);
    const fH = fl.heads === 'mean' ? null : fl.heads;
    if (fH !== null && eH !== null && fH !== eH) throw new CompareRefusal('heads-differ', 'msg.import.cmp.headsDiffer', { layer: li, fileHeads: fH, engineHeads: eH }, w);
    const asMean = fH === null || eH === null;
    const f = fileSide(fl, asMean);
    const e: Side = asMean ? { planes: [eH === null ? et.data : headMean(et.data, eH, R, eK)], heads: 'mean' } : { planes: Array.from({ length: eH! }, (_, h) => et.data.subarray(h * R * eK, (h + 1) * R * eK)), heads: eH! };
    const meanBecause = !asMean ? null : fH === null && eH === null ? 'both' : fH === null ? 'file' : 'engine';

    // Rows both sides hold, by absolute position.
    const eRowOf = new Map(eRows.map((p, r) => [p, r]));
    const Kc = Math.min(fl.keys, eK);
    let max = 0, sum = 0, cells = 0;
    let worst: WorstCell | null = null;
    f.planes.forEach((fp, h) => {
      const ep = e.planes[h]!;
      fl.queryPositions.forEach((q, i) => {
        const r = eRowOf.get(q);
        if (r === undefined) return;
        for (let k = 0; k <= Math.min(q, Kc - 1); k++) {
          const a = fp[i * fl.keys + k]!;
          const b = ep[r * eK + k]!;
          if (Number.isNaN(a)) continue; // absent in the file
          const d = Math.abs(a - b);
          // A non-finite engine value is a failure, not a cell to skip.
          const dd = Number.isFinite(d) ? d : Infinity;
          sum += dd;
          cells++;
          if (worst === null || dd > max) {
            max = dd;
            worst = { head: asMean ? null : h, query: q, key: k, file: a, engine: b };
          }
        }
      });
    });
    if (cells === 0) throw new CompareRefusal('no-overlap', 'msg.import.cmp.noOverlap', { layer: li }, w);

    return { layer: li, heads: asMean ? 'mean' : f.heads, meanBecause, maxAbs: max, meanAbs: sum / cells, cells, worst, pass: max <= tolerance };
  });
  const maxAbs = layers.reduce((m, l) => Math.max(m, l.maxAbs), 0);
  const model = typeof file.meta.model === 'string' && file.meta.model !== '' ? file.meta.model : null;
  return { layers, tolerance, basis, maxAbs, pass: layers.every((l) => l.pass), tokens: T, fileModel: model };
}

/**
 * The layer whose per-head maps to ask a large-model engine for (it returns one layer per head, the rest as
 * head means): the first layer the file stores per head, else none (undefined: the engine's default).
 */
export function perHeadLayerToAsk(file: ImportedAttention): number | undefined {
  const l = file.layers.find((x) => x.heads !== 'mean' && x.layer !== null);
  return l?.layer ?? undefined;
}
