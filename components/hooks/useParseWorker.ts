'use client';
// Reading what a user brings (files, pasted text, ?url= links, stored imports) in the parse worker
// (workers/parse.worker.ts through lib/io/parseClient), off the page's main thread. `parseImport` is
// lib/io/importData made asynchronous: the same outcome, never a throw; a cancelled job gives a failed
// outcome that `wasCancelled` recognises. The jobs running now are kept here for the progress line and its
// Cancel button (useParseJobs). Where a browser has no Worker, the reader runs on the page as before.
import { useSyncExternalStore } from 'react';
import { importData, type ImportKind, type ImportOutcome } from '../../lib/io/importData';
import { ParseCancelledError, ParseClient, ParseStartError, type JobProgress, type ParseWorkerLike } from '../../lib/io/parseClient';
import type { ParseInput } from '../../lib/io/parseProtocol';
import { message, messageOf, messageText } from '../../lib/i18n/message';

/** A job's progress line shows once it has run this long. */
export const SHOW_PROGRESS_AFTER_MS = 500;

export interface ParseJob {
  id: number;
  /** The import's name (file name, URL or the paste box's name). */
  name: string;
  /** Input size in bytes or characters. */
  size: number;
  /** performance.now() when it was asked for. */
  startedAt: number;
  /** null until the worker reports (queued behind another job, or starting). */
  progress: JobProgress | null;
  cancel: () => void;
}

let client: ParseClient | null = null;
/** A worker could not be started here (blocked, missing): read on the page from then on. */
let noWorker = false;
let jobs: readonly ParseJob[] = [];
const listeners = new Set<() => void>();
const cancelledOutcomes = new WeakSet<ImportOutcome>();
let nextJob = 1;

// The bundler finds the worker by this exact expression (as the engine's in components/lab/useEngine.ts).
let factory = (): ParseWorkerLike => new Worker(new URL('../../workers/parse.worker.ts', import.meta.url), { type: 'module' }) as unknown as ParseWorkerLike;

function shared(): ParseClient | null {
  if (noWorker || typeof Worker === 'undefined') return null;
  client ??= new ParseClient(factory);
  return client;
}

/** Where the worker comes from: a test page serves its own bundle of workers/parse.worker.ts. */
export function setParseWorkerFactory(f: () => ParseWorkerLike): void {
  client?.dispose();
  client = null;
  factory = f;
}

function publish(next: readonly ParseJob[]): void {
  jobs = next;
  for (const l of listeners) l();
}

function update(id: number, progress: JobProgress): void {
  publish(jobs.map((j) => (j.id === id ? { ...j, progress } : j)));
}

/** importData(input, hint) in the parse worker; `name` labels the progress line. Never rejects. */
export async function parseImport(input: ParseInput, hint: ImportKind | null, name = ''): Promise<ImportOutcome> {
  const c = shared();
  if (!c) return readHere(input, hint);
  const id = nextJob++;
  const ac = new AbortController();
  const size = typeof input === 'string' ? input.length : input.byteLength;
  publish([...jobs, { id, name, size, startedAt: performance.now(), progress: null, cancel: () => ac.abort() }]);
  try {
    return await c.parseImport(input, hint, { signal: ac.signal, onProgress: (p) => update(id, p) });
  } catch (e) {
    if (e instanceof ParseStartError) {
      noWorker = true;
      return readHere(input, hint);
    }
    const cancelled = e instanceof ParseCancelledError;
    const coded = cancelled ? message('msg.import.parse.cancelledNote') : (messageOf(e) ?? message('msg.import.verbatim', { text: e instanceof Error ? e.message : String(e) }));
    const outcome: ImportOutcome = { ok: false, kind: hint, error: messageText('en', coded), coded };

    if (cancelled) cancelledOutcomes.add(outcome);
    return outcome;
  } finally {
    publish(jobs.filter((j) => j.id !== id));
  }
}

/** Without a worker: the reader on the page, as before the worker existed. */
async function readHere(input: ParseInput, hint: ImportKind | null): Promise<ImportOutcome> {
  await new Promise((r) => setTimeout(r, 0)); // let a "reading…" line paint first
  return importData(input, hint);
}

/** Whether an outcome of parseImport is a job the user cancelled (not a failure to report as one). */
export function wasCancelled(outcome: ImportOutcome): boolean {
  return cancelledOutcomes.has(outcome);
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => void listeners.delete(l);
};
const NONE: readonly ParseJob[] = [];

/** The parse jobs running now, oldest first. */
export function useParseJobs(): readonly ParseJob[] {
  return useSyncExternalStore(
    subscribe,
    () => jobs,
    () => NONE,
  );
}
