// Messages between the page and the parse worker (workers/parse.worker.ts, served by lib/io/parseHost.ts;
// the page's side is lib/io/parseClient.ts). Reading a large input — a run log of tens of MB, a pasted
// request of 10k tokens — is one long JSON.parse plus checks; in the worker it never blocks the page, which
// shows the progress and can cancel. The readers are lib/io/importData's and lib/io/runlog's, unchanged.
// Pure types and small helpers: no DOM, no Node APIs.
import type { ImportKind, ImportOutcome } from './importData';
import { packedBuffers, packRunLog, unpackRunLog, type PackedRunLog } from './packedRunLog';
import type { ParseRunLogResult } from './runlog';
import type { Message } from '../i18n/message';

/** What the user gave: text (pasted, a JSON file read as text) or a file's bytes. */
export type ParseInput = string | Uint8Array;

/** `import`: lib/io/importData (decides the kind; `hint` breaks ties). `runlog`: lib/io/runlog parseRunLog only. */
export type ParseRequest =
  | { type: 'parse'; id: number; kind: 'import'; input: ParseInput; hint: ImportKind | null }
  | { type: 'parse'; id: number; kind: 'runlog'; input: ParseInput };

/** Stops job `id` if the worker is between chunks; a worker inside one JSON.parse is terminated by the client instead. */
export interface CancelRequest {
  type: 'cancel';
  id: number;
}

export type ToParser = ParseRequest | CancelRequest;

/** `decode`: bytes to text, in chunks (done/total in bytes); `parse`: the reader runs (one step: done = 0). */
export type ParseStage = 'decode' | 'parse';

export interface ParseProgress {
  type: 'progress';
  id: number;
  stage: ParseStage;
  done: number;
  total: number;
}

type Packed<T> = T extends { ok: true; log: unknown } ? Omit<T, 'log'> & { packed: PackedRunLog } : T;

/** An outcome as it is posted: a run log travels in columns (lib/io/packedRunLog), the rest as it is. */
export type Wire<T extends ImportOutcome | ParseRunLogResult> = Packed<T>;

export type ParseResult = { type: 'result'; id: number; kind: 'import'; outcome: Wire<ImportOutcome> } | { type: 'result'; id: number; kind: 'runlog'; outcome: Wire<ParseRunLogResult> };

/** The reader threw (a bug, or out of memory): the message, never a stack; `coded` when it is one of ours. */
export interface ParseFailure {
  type: 'error';
  id: number;
  message: string;
  coded?: Message;
}


export interface ParseCancelled {
  type: 'cancelled';
  id: number;
}

export type FromParser = ParseProgress | ParseResult | ParseFailure | ParseCancelled;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const HINTS: readonly (ImportKind | null)[] = ['request', 'runlog', 'attention', null];

/** Whether `v` is a well-formed message to the worker (anything else is answered with an error or ignored). */
export function isToParser(v: unknown): v is ToParser {
  if (!isObj(v) || typeof v.id !== 'number' || !Number.isInteger(v.id)) return false;
  if (v.type === 'cancel') return true;
  if (v.type !== 'parse') return false;
  if (typeof v.input !== 'string' && !(v.input instanceof Uint8Array)) return false;
  if (v.kind === 'runlog') return true;
  return v.kind === 'import' && HINTS.includes(v.hint as ImportKind | null);
}

/** Whether `v` is a message from the worker the client understands. */
export function isFromParser(v: unknown): v is FromParser {
  return isObj(v) && typeof v.id === 'number' && (v.type === 'progress' || v.type === 'result' || v.type === 'error' || v.type === 'cancelled');
}

/**
 * Buffers of an import's attention arrays that can move to the page instead of being copied: each layer's
 * own, whole buffer, once (a view into a larger buffer, such as the input's, is left to be copied).
 */
export function transferablesOf(outcome: ImportOutcome): ArrayBuffer[] {
  if (!outcome.ok || outcome.kind !== 'attention') return [];
  const seen = new Set<ArrayBuffer>();
  const layers = [...outcome.attention.layers, ...outcome.attention.calls.flatMap((c) => c.attention.layers)];
  for (const l of layers) {
    const b = l.data.buffer;
    if (b instanceof ArrayBuffer && l.data.byteOffset === 0 && l.data.byteLength === b.byteLength) seen.add(b);
  }
  return [...seen];
}

/** The outcome to post, and the buffers to move with it (a packed run log's columns, an import's attention). */
export function toWire<T extends ImportOutcome | ParseRunLogResult>(outcome: T): [Wire<T>, ArrayBuffer[]] {
  if (outcome.ok && 'log' in outcome) {
    const { log, ...rest } = outcome;
    const packed = packRunLog(log);
    return [{ ...rest, packed } as unknown as Wire<T>, packedBuffers(packed)];
  }
  const transfer = 'kind' in outcome ? transferablesOf(outcome as ImportOutcome) : [];
  return [outcome as Wire<T>, transfer];
}

/** The outcome again, a packed run log rebuilt with `pause` between slices. */
export async function fromWire<T extends ImportOutcome | ParseRunLogResult>(wire: Wire<T>, pause?: () => Promise<void>): Promise<T> {
  if (wire.ok && 'packed' in wire) {
    const { packed, ...rest } = wire as { packed: PackedRunLog };
    return { ...rest, log: await unpackRunLog(packed, pause) } as unknown as T;
  }
  return wire as T;
}
