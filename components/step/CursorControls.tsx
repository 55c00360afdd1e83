'use client';
// The Step tab's cursor: the move buttons, play / pause with its speed, the slider, and the status lines
// under them (cursor and query, the operation running, the last engine operation and the tab's counts);
// StepNotes says how the rows were computed (shown below the main visual).
import { nextBoundary, prevBoundary } from '../../lib/generate/stepper';
import type { Op, Row } from '../../lib/generate/stepSession';
import { useDescribe, useT, type T } from '../common/i18n';
import { SPEEDS, type Playback } from './usePlayback';
import { KEEP_ROWS, type StepOps } from './useStepSession';

export interface CursorControlsProps {
  ops: StepOps;
  play: Playback;
  /** Message starts, for the ⇤ / ⇥ moves. */
  starts: number[];
  /** No moves now (no session yet, a generation runs). */
  locked: boolean;
}

export function CursorControls({ ops, play, starts, locked }: CursorControlsProps) {
  const t = useT();
  const { cursor, length: N, move } = ops;
  const btn = (label: string, aria: string, onClick: () => void, disabled: boolean, role: string) => (
    <button type="button" data-step={role} aria-label={aria} title={aria} onClick={onClick} disabled={disabled} style={{ minWidth: 40 }}>
      {label}
    </button>
  );
  const atStart = locked || cursor <= 1;
  const atEnd = locked || cursor >= N;
  return (
    <div data-role="step-controls" className="controls" style={{ gap: 'var(--sp-2) var(--sp-2)' }}>
      {btn('|◀', t('step.btnStart'), () => move(1), atStart, 'start')}
      {btn('⇤', t('step.btnPrevMessage'), () => move(prevBoundary(starts, cursor)), atStart, 'prev-message')}
      {btn('◀', t('step.btnBack'), () => move(cursor - 1), atStart, 'back')}
      {btn('▶', t('step.btnForward'), () => move(cursor + 1), atEnd, 'forward')}
      {btn('⇥', t('step.btnNextMessage'), () => move(nextBoundary(starts, cursor, N)), atEnd, 'next-message')}
      {btn('▶|', t('step.btnEnd'), () => move(N), atEnd, 'end')}
      <button type="button" data-step="play" className="primary" onClick={() => play.setPlaying((p) => !p)} disabled={locked || (!play.playing && cursor >= N)} style={{ marginLeft: 'var(--sp-2)', minWidth: 84 }}>
        {play.playing ? t('step.pause') : t('step.play')}
      </button>
      <label>
        {t('step.speed')}{' '}
        <select data-control="speed" value={play.speed} onChange={(e) => play.setSpeed(Number(e.target.value))}>
          {SPEEDS.map((v) => (
            <option key={v} value={v}>
              {t('step.speedValue', { n: v })}
            </option>
          ))}
        </select>
      </label>
      <input
        type="range"
        aria-label={t('step.slider')}
        data-control="cursor"
        min={1}
        max={Math.max(1, N)}
        value={Math.max(1, cursor)}
        disabled={locked}
        onChange={(e) => move(Number(e.target.value))}
        style={{ flex: '1 1 200px', minWidth: 160 }}
      />
    </div>
  );
}

function opText(t: T, op: Op): string {
  const n = Math.abs(op.to - op.from);
  if (op.kind === 'prefill') return t(op.resync ? 'step.opResync' : 'step.opPrefill', { n: op.to, ms: Math.round(op.ms) });
  if (op.kind === 'fork') return t(op.via === 'redo' ? 'step.opForkRedo' : 'step.opFork', { from: op.from, to: op.to, ms: Math.round(op.ms) });
  if (n === 1) return t(op.via === 'generate' ? 'step.opGenerate' : op.via === 'redo' ? 'step.opRedo' : 'step.opStep', { position: op.from, to: op.to, ms: Math.round(op.ms) });
  return t('step.opJump', { n, from: op.from, to: op.to, ms: Math.round(op.ms) });
}

/** Where the cursor is, what runs, the last engine operation (and the tab's counts), errors. */
export function StepStatus({ ops, labels }: { ops: StepOps; labels: string[] }) {
  const t = useT();
  const describe = useDescribe();
  const { cursor, length: N, busy, error, session } = ops;
  // A re-decode that only restores the query's row (a step back past the rows kept) follows the move it
  // belongs to: show that move, and the re-decode beside it.
  const all = session?.ops ?? [];
  let shownAt = all.length - 1;
  while (shownAt > 0 && all[shownAt]!.via === 'redo') shownAt--;
  const lastOp = all[shownAt];
  const redo = all.slice(shownAt + 1).find((o) => o.kind === 'extend');
  const counts = session?.counts;
  return (
    <>
      <div data-role="step-status" aria-live="polite" style={{ fontSize: 'var(--fs-md)', fontVariantNumeric: 'tabular-nums' }}>
        {cursor > 0 ? (
          <>
            <b>{t('step.cursor', { c: cursor, n: N })}</b> · {t('step.query', { q: cursor - 1, label: labels[cursor - 1] ?? '' })}
            {cursor < N && <> · {t('step.nextToken', { position: cursor, label: labels[cursor] ?? '' })}</>}
          </>
        ) : (
          t('step.establishing')
        )}
        {busy && (
          <span data-role="step-busy" style={{ marginLeft: 'var(--sp-3)' }}>
            <progress style={{ width: 100, verticalAlign: 'middle' }} /> {busy}
          </span>
        )}
      </div>
      <div data-role="step-op" style={{ fontSize: 'var(--fs-xs)', fontFamily: 'var(--font-mono)' }}>
        {lastOp ? t('step.lastOp', { op: opText(t, lastOp) }) : ''}
        {redo && <span data-role="step-redo"> · {opText(t, redo)}</span>}
        {counts && (
          <span className="muted" style={{ marginLeft: 'var(--sp-3)' }}>
            {t('step.counts', { prefill: counts.prefill + counts.resync, step: counts.step, jump: counts.jump, fork: counts.fork, generate: counts.generate })}
          </span>
        )}
      </div>
      {error && (
        <div role="alert" style={{ color: 'var(--c-error)', background: 'var(--c-error-soft)', padding: '4px 8px', borderRadius: 'var(--radius)' }}>
          {t('error.prefix', { message: describe(error) })}
        </div>
      )}
    </>
  );
}

/** How the stepper works and where the query's row came from: below the main visual (secondary on a projector). */
export function StepNotes({ row }: { row: Row | undefined }) {
  const t = useT();
  return (
    <div style={{ display: 'grid', gap: 'var(--sp-1)', fontSize: 'var(--fs-xs)' }} className="muted">
      <div>{t('step.keysHelp')}</div>
      <div>{t('step.jumpNote', { keep: KEEP_ROWS })}</div>
      {row && row.via !== 'step' && <div data-role="row-source">{t(`step.rowVia.${row.via}`, { n: row.runTokens })}</div>}
    </div>
  );
}

/**
 * What a key does in the stepper: a cursor target, 'toggle' (play / pause), or null (not ours). ← → move by
 * one, ↑ ↓ (Page Up / Down) by message, Home / End to the ends, Space plays.
 */
export function keyTarget(key: string, cursor: number, N: number, starts: number[]): number | 'toggle' | null {
  switch (key) {
    case 'ArrowRight':
      return cursor + 1;
    case 'ArrowLeft':
      return cursor - 1;
    case 'PageDown':
    case 'ArrowDown':
      return nextBoundary(starts, cursor, N);
    case 'PageUp':
    case 'ArrowUp':
      return prevBoundary(starts, cursor);
    case 'Home':
      return 1;
    case 'End':
      return N;
    case ' ':
      return 'toggle';
    default:
      return null;
  }
}
