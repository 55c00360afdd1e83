'use client';
// The page's notices above the tabs: model load progress, errors, the worker's restart note, the run's
// status line (#status, which tests and users wait on) and the overlay shown while files are dragged in.
import { useState, type ReactNode } from 'react';
import { useDescribe, useT, type T } from '../common/i18n';
import type { RunStage } from './useAttentionRun';
import type { WorkerNote } from './useEngine';

export function Alert({ children }: { children: ReactNode }) {
  return (
    <div role="alert" style={{ color: 'var(--c-error)', background: 'var(--c-error-soft)', padding: '6px 10px', borderRadius: 'var(--radius)', whiteSpace: 'pre-wrap' }}>
      {children}
    </div>
  );
}

const STAGES = ['downloading', 'loading runtime', 'reading checkpoint', 'building graph', 'compiling graph', 'ready'];

/** A load stage in the page's language; stages the strings do not know are shown as the worker named them. */
function stageLabel(t: T, stage: string): string {
  return STAGES.includes(stage) ? t(`stage.${stage}` as 'stage.ready') : stage;
}

export function LoadProgress({ model, stage, fraction }: { model: string; stage: string; fraction: number }) {
  const t = useT();
  return (
    <div aria-live="polite" data-role="load-progress">
      <progress value={fraction} max={1} style={{ width: 320 }} /> <span>{t('model.loading', { model, stage: stageLabel(t, stage) })}</span>
    </div>
  );
}

/** Messages of a worker that ran out of memory: V8's, WASM's (Emscripten's abort), ORT's and WebGPU's words for it. */
const OUT_OF_MEMORY = /out of memory|\boom\b|allocation failed|memory access out of bounds|could not allocate|failed to allocate|cannot enlarge memory/i;

/** What happened to the worker, what was kept, and what to try (shorter context, WASM, a smaller model). */
export function WorkerNotice({ note, onRestart }: { note: WorkerNote; onRestart: () => void }) {
  const t = useT();
  // Dismissing hides this note only: the next crash is a new note and shows again.
  const [dismissed, setDismissed] = useState<WorkerNote | null>(null);
  const describe = useDescribe();
  if (dismissed === note) return null;
  // Matched on the English texts (the browser's and the runtime's words); shown in the page's language.
  const memory = OUT_OF_MEMORY.test(`${note.reason} ${note.reloadError ?? ''}`);
  const reason = describe({ message: note.reason, coded: note.reasonCoded });
  return (
    <div role="alert" data-role="worker-note" data-kind={note.kind} data-memory={memory} style={{ background: note.kind === 'failed' ? '#fde2e1' : '#fff3cd', padding: '6px 10px', borderRadius: 4 }}>
      {note.kind === 'restarted' ? t('worker.restarted', { reason }) : t('worker.failed', { reason })}
      {note.reloadError && <> {t('worker.reloadFailed', { detail: describe({ message: note.reloadError, coded: note.reloadCoded }) })}</>}
      {memory && <> {t('worker.memory')}</>} <span data-role="worker-hints">{t('worker.hints')}</span>{' '}
      {note.kind === 'failed' && <button onClick={onRestart}>{t('error.restart')}</button>}{' '}
      <button type="button" data-role="worker-note-dismiss" onClick={() => setDismissed(note)}>
        {t('worker.dismiss')}
      </button>
    </div>
  );
}

export interface RunStatusProps {
  ready: boolean;
  tokens: number | null;
  layer: number;
  stage: RunStage | null;
  /** Which prompt of the agent loop the run shows, as the page names it. */
  context: string;
  /** Whether the shown tab reads this run (the A/B and data tabs show other prompts: the line stays blank there). */
  relevant: boolean;
}

/** One line: what the run is doing, or which prompt the views were computed on. */
export function RunStatus({ ready, tokens, layer, stage, context, relevant }: RunStatusProps) {
  const t = useT();
  return (
    <div id="status" className="small" data-ready={ready ? 'true' : 'false'} data-tokens={tokens ?? 0} data-layer={layer} style={{ minHeight: 20, whiteSpace: 'nowrap' }} aria-live="polite">
      {stage ? (
        <span>
          <progress style={{ width: 90, verticalAlign: 'middle' }} /> {t(stage === 'running' ? 'run.running' : 'run.rendering')}
        </span>
      ) : tokens !== null && relevant ? (
        t('status.context', { tokens, context })
      ) : (
        ''
      )}
    </div>
  );
}

export function DropOverlay() {
  const t = useT();
  return (
    <div data-role="drop-overlay" style={{ position: 'fixed', inset: 0, background: 'rgba(68,119,170,0.15)', border: '4px dashed #4477AA', display: 'grid', placeItems: 'center', fontSize: 'var(--fs-xl)', zIndex: 50, pointerEvents: 'none' }}>
      <span style={{ background: 'var(--c-panel)', padding: '10px 18px', borderRadius: 6 }}>{t('data.dropOverlay')}</span>
    </div>
  );
}
