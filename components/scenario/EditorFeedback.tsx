'use client';
// Below the request editor: the errors of the last check (each a button that puts the caret at its field)
// and the validator's notes; plus the editor's shared geometry (every line is LINE pixels, no wrapping).
import type { CSSProperties } from 'react';
import type { LocatedError } from '../../lib/prompt/editRequest';
import type { Message } from '../../lib/i18n/message';
import { useDescribe, useT } from '../common/i18n';

/** Every line is exactly this tall (no wrapping), so line n sits at PAD_Y + (n − 1) · LINE in all three layers. */
export const LINE = 20;
export const PAD_Y = 8;
export const PAD_X = 10;
export const FONT_FAMILY = 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", "DejaVu Sans Mono", monospace';
export const TEXT: CSSProperties = { fontFamily: FONT_FAMILY, fontSize: 'var(--fs-sm)', lineHeight: `${LINE}px`, tabSize: 4, letterSpacing: 'normal', whiteSpace: 'pre' };
export const ERROR_BAND = 'rgba(214, 48, 49, 0.13)';
export const ERROR_INK = '#b3261e';

/**
 * An error as the list and the gutter's tooltip word it: "path: text" (a syntax error: its reason), in the
 * interface's language through `describe` when the validator coded it.
 */
export function errorText(e: LocatedError, describe?: (v: unknown) => string): string {
  if (describe && e.key) return describe(e);
  return e.syntax ? e.message : `${e.path}: ${e.message}`;
}

export function ErrorList({ errors, onGoTo }: { errors: readonly LocatedError[]; onGoTo: (e: LocatedError) => void }) {
  const t = useT();
  const describe = useDescribe();
  return (
    <ul data-role="editor-errors" aria-live="polite" aria-label={t('editor.errorList')} style={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 2 }}>
      {errors.map((e, i) => (
        <li key={i}>
          <button
            type="button"
            data-role="editor-error"
            data-line={e.line}
            data-column={e.column}
            data-path={e.path}
            title={t('editor.goTo', { line: e.line })}
            onClick={() => onGoTo(e)}
            style={{ font: 'var(--fs-xs)/1.45 var(--font-sans)' + FONT_FAMILY, textAlign: 'left', width: '100%', padding: '3px 8px', border: 'none', borderLeft: `3px solid ${ERROR_INK}`, borderRadius: 3, background: '#fdf0ef', color: '#3b1210', cursor: 'pointer', overflowWrap: 'anywhere' }}
          >
            <span style={{ color: ERROR_INK, fontWeight: 600 }}>{e.syntax ? t('editor.atLineColumn', { line: e.line, column: e.column }) : t('editor.atLine', { line: e.line })}</span>
            {': '}
            {errorText(e, describe)}
          </button>
        </li>
      ))}
    </ul>
  );
}

export function NoteList({ notes }: { notes: readonly (string | Message)[] }) {
  const t = useT();
  const describe = useDescribe();
  if (notes.length === 0) return null;
  return (
    <ul data-role="editor-notes" aria-label={t('editor.noteList')} style={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 2 }}>
      {notes.map((n, i) => (
        <li key={i} data-role="editor-note" style={{ padding: '2px 8px', borderLeft: '3px solid #6e9bd1', background: '#f1f6fc', color: '#243b53', fontSize: 'var(--fs-xs)' }}>
          <span style={{ fontWeight: 600 }}>{t('editor.note')}:</span> {describe(n)}

        </li>
      ))}
    </ul>
  );
}
