// Attention computed elsewhere (another machine, a bigger model), normalized so kvscope can show it.
// Pure data: no DOM, no engine.
import type { Params, StringKey } from '../../i18n';
import { CodedError, type Message } from '../../i18n/message';

/** One layer's attention: [H, Q, K] row-major when heads is a count, [Q, K] when it is 'mean'. NaN marks absent cells. */
export interface ImportedLayer {
  /** Model layer index, or null when the source does not say which layer this is. */
  layer: number | null;
  /** Human-readable: "layer 27", "last layer (assumed; model has 28)". */
  label: string;
  /** The label as a message, for the interface's language (absent in layers made elsewhere: `label` then). */
  labelCoded?: Message;
  /** 'mean': already averaged over heads; a number: that many heads, stored head-major. */
  heads: 'mean' | number;
  queries: number;
  keys: number;
  data: Float32Array;
  /** Absolute token position each row stands for (row i → queryPositions[i]). */
  queryPositions: number[];
}

export interface ImportedCall {
  index: number;
  stepNum: number | null;
  stepType: string | null;
  attention: ImportedAttention;
}

export interface ImportedAttention {
  source: 'attention_visualization' | 'kvscope-attention';
  tokens: string[];
  tokenIds?: number[];
  layers: ImportedLayer[];
  /** Source metadata (model, device, temperature, query, …): scalars only. */
  meta: Record<string, string | number | boolean | null>;
  /** Things worth knowing that did not justify rejecting the file (row-sum deviation, assumed layer, …). */
  notes: string[];
  /** The same notes as messages, for the interface's language (absent in attention made elsewhere: `notes` then). */
  codedNotes?: Message[];
  /** ReAct runs: one entry per llm_call that carried attention_data. */
  calls: ImportedCall[];
}

/** A refusal of the input, with the JSON path of the problem (shown first: "layers[0].shape: expected …"). */
export class ImportError extends CodedError {
  constructor(
    readonly path: string,
    key: StringKey,
    params?: Params,
    parts?: Record<string, Message>,
  ) {
    super(key, params, path || undefined, parts);
    this.name = 'ImportError';
  }

  /** Another reader's message (the safetensors parser's) as an ImportError at `path`. */
  static of(path: string, m: Message): ImportError {
    const where = [path, m.where].filter(Boolean).join(': ');
    const e = new ImportError(where, m.key, m.params, m.parts);
    return e;
  }
}


/**
 * Sets a metadata entry as an own property, whatever its key: a plain assignment to `meta["__proto__"]`
 * would set meta's prototype (or be ignored) instead of keeping the file's field.
 */
export function putMeta(meta: ImportedAttention['meta'], key: string, value: string | number | boolean | null): void {
  Object.defineProperty(meta, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Limits shared by both importers (documented in docs/ATTENTION_FORMAT.md). */
export const LIMITS = {
  /** Tokens per sequence. */
  maxTokens: 32768,
  /** Attention cells over all layers and heads (256 MiB as float32). */
  maxCells: 64 * 1024 * 1024,
  /** Input size: JSON text or safetensors bytes. */
  maxBytes: 512 * 1024 * 1024,
  /** One token string. */
  maxTokenChars: 4096,
  /** Any other string field (prompt, response, model, …). */
  maxStringChars: 1_000_000,
  /** ReAct llm_calls. */
  maxCalls: 1000,
  /** Layers in one file. */
  maxLayers: 1024,
} as const;

/** Tolerance on probabilities: values in [-TOL, 1 + TOL]; masked/padded cells must be within TOL of 0. */
export const VALUE_TOL = 1e-3;
/** Row sums further than this from 1 reject the file; smaller deviations only produce a note. */
export const ROW_SUM_REJECT = 0.05;

/** Max |row sum − 1| over a layer's present cells, per head and row. */
export function maxRowSumDeviation(l: ImportedLayer): number {
  const H = l.heads === 'mean' ? 1 : l.heads;
  let worst = 0;
  for (let h = 0; h < H; h++)
    for (let q = 0; q < l.queries; q++) {
      let s = 0;
      const base = (h * l.queries + q) * l.keys;
      for (let k = 0; k < l.keys; k++) {
        const v = l.data[base + k]!;
        if (!Number.isNaN(v)) s += v;
      }
      worst = Math.max(worst, Math.abs(s - 1));
    }
  return worst;
}
