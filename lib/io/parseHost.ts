// The parse worker's side (workers/parse.worker.ts serves it on `self`; tests on a worker thread's port):
// one job at a time, in order. A file's bytes are decoded in chunks, with progress after each and a yield
// between them, so a cancel that arrives meanwhile stops the job; then the reader runs in one piece
// (JSON.parse cannot be interrupted: the client terminates a worker that does not answer a cancel).
// The outcome is exactly what lib/io/importData or lib/io/runlog returns on the page.
import { importData, MAX_IMPORT_BYTES } from './importData';
import { looksLikeSafetensors } from './attention';
import { parseRunLog } from './runlog';
import { isToParser, toWire, type FromParser, type ParseRequest } from './parseProtocol';
import { errorData } from '../i18n/message';
import { en, msg } from './msg';

export interface ParsePort {
  postMessage(message: unknown, transfer: ArrayBuffer[]): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

export interface ParseHostOptions {
  /** Bytes decoded between two progress reports (and two chances to cancel). Default 4 MiB. */
  chunkBytes?: number;
}

export const DECODE_CHUNK_BYTES = 4 * 1024 * 1024;

const yieldToEvents = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

class Cancelled extends Error {}

export function serveParse(port: ParsePort, opts: ParseHostOptions = {}): void {
  const chunk = Math.max(1, opts.chunkBytes ?? DECODE_CHUNK_BYTES);
  const cancelled = new Set<number>();
  let queue: Promise<void> = Promise.resolve();
  const post = (m: FromParser, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

  port.addEventListener('message', (event) => {
    const m = event.data;
    if (!isToParser(m)) {
      const id = typeof (m as { id?: unknown } | null)?.id === 'number' ? (m as { id: number }).id : -1;
      post({ type: 'error', id, message: 'not a parse request' });
      return;
    }
    if (m.type === 'cancel') cancelled.add(m.id);
    else queue = queue.then(() => run(m));
  });

  const check = (id: number) => {
    if (cancelled.delete(id)) throw new Cancelled();
  };

  /** Text of `bytes` (UTF-8, fatal), decoded chunk by chunk; null when they are not UTF-8. */
  async function decode(id: number, bytes: Uint8Array): Promise<string | null> {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const parts: string[] = [];
    try {
      for (let at = 0; at < bytes.byteLength; at += chunk) {
        const end = Math.min(at + chunk, bytes.byteLength);
        parts.push(decoder.decode(bytes.subarray(at, end), { stream: end < bytes.byteLength }));
        post({ type: 'progress', id, stage: 'decode', done: end, total: bytes.byteLength });
        if (end < bytes.byteLength) {
          await yieldToEvents();
          check(id);
        }
      }
      if (bytes.byteLength === 0) parts.push(decoder.decode());
    } catch (e) {
      if (e instanceof Cancelled) throw e;
      return null; // invalid UTF-8: the reader says so in its own words
    }
    return parts.join('');
  }

  async function run(req: ParseRequest): Promise<void> {
    const { id } = req;
    try {
      check(id);
      const size = typeof req.input === 'string' ? req.input.length : req.input.byteLength;
      let input = req.input;
      // Bytes the reader takes as they are: a .safetensors file, or more than it reads at all.
      const asBytes = input instanceof Uint8Array && req.kind === 'import' && (input.byteLength > MAX_IMPORT_BYTES || looksLikeSafetensors(input));
      if (input instanceof Uint8Array && !asBytes) {
        const text = await decode(id, input);
        if (text !== null) input = text;
      }
      check(id);
      post({ type: 'progress', id, stage: 'parse', done: 0, total: size });
      if (req.kind === 'import') {
        const [outcome, transfer] = toWire(importData(input, req.hint));
        post({ type: 'result', id, kind: 'import', outcome }, transfer);
      } else {
        const notText = msg('msg.import.parse.notUtf8');
        const [outcome, transfer] = toWire(typeof input === 'string' ? parseRunLog(input) : { ok: false as const, error: en(notText), coded: notText });
        post({ type: 'result', id, kind: 'runlog', outcome }, transfer);
      }
    } catch (e) {
      if (e instanceof Cancelled) post({ type: 'cancelled', id });
      else {
        const { coded } = errorData(e);
        post({ type: 'error', id, message: e instanceof Error ? `${e.name}: ${e.message}` : String(e), ...(coded ? { coded } : {}) });
      }

    }
  }
}
