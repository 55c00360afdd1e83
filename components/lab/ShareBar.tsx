'use client';
// The share-link button (settings and the shown scenario, packed into the URL fragment and copied) and the
// note saying what was copied, opened from a link, or why that failed.
import { encodeShare, shareFromState } from '../../lib/io/share';
import type { KvscopeStore } from '../../lib/state/store';
import { useT } from '../common/i18n';
import type { ShareNote } from './useBoot';

export function ShareButton({ store, onNote }: { store: KvscopeStore; onNote: (n: ShareNote | null) => void }) {
  const t = useT();
  const copy = async () => {
    const p = shareFromState(store.getState());
    const e = p.ok ? await encodeShare(p.payload) : p;
    if (!e.ok) return onNote({ kind: 'error', lines: [e.error] });
    const url = window.location.origin + window.location.pathname + e.fragment;
    try {
      await navigator.clipboard.writeText(url);
      onNote({ kind: 'copied', lines: [url, ...(p.ok ? p.notes : [])] });
    } catch {
      onNote({ kind: 'copied', lines: [t('share.copyByHand'), url] });
    }
  };
  return (
    <button data-role="share-link" title={t('share.title')} onClick={copy}>
      {t('share.button')}
    </button>
  );
}

/** What was copied, opened from a link, or why that failed. */
export function ShareNoteView({ note, onNote }: { note: ShareNote | null; onNote: (n: ShareNote | null) => void }) {
  const t = useT();
  if (!note) return null;
  return (
    <div role="status" data-role="share-note" data-kind={note.kind} style={{ fontSize: 'var(--fs-sm)', color: note.kind === 'error' ? 'var(--c-error)' : 'var(--c-text)', overflowWrap: 'anywhere' }}>
      <strong>{t(note.kind === 'opened' ? 'share.opened' : note.kind === 'copied' ? 'share.copied' : 'share.error')}</strong> {note.lines.join(' · ')}{' '}
      <button onClick={() => onNote(null)} aria-label={t('share.dismiss')} style={{ border: 'none', background: 'none', minHeight: 0, padding: '0 4px' }}>
        ✕
      </button>
    </div>
  );
}
