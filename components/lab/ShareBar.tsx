'use client';
// The share-link button (settings and the shown scenario, packed into the URL fragment and copied) and the
// note saying what was copied, opened from a link, or why that failed.
import { encodeShare, shareFromState } from '../../lib/io/share';
import type { KvscopeStore } from '../../lib/state/store';
import { useT } from '../common/i18n';
import type { ShareNote } from './useBoot';

export function ShareBar({ store, note, onNote }: { store: KvscopeStore; note: ShareNote | null; onNote: (n: ShareNote | null) => void }) {
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
    <div style={{ display: 'flex', gap: 10, alignItems: 'baseline', flexWrap: 'wrap' }}>
      <button data-role="share-link" title={t('share.title')} onClick={copy}>
        {t('share.button')}
      </button>
      {note && (
        <div role="status" data-role="share-note" data-kind={note.kind} style={{ fontSize: 13, color: note.kind === 'error' ? '#a00' : '#333', maxWidth: 1100, overflowWrap: 'anywhere' }}>
          <strong>{t(note.kind === 'opened' ? 'share.opened' : note.kind === 'copied' ? 'share.copied' : 'share.error')}</strong> {note.lines.join(' · ')}{' '}
          <button onClick={() => onNote(null)} aria-label={t('share.dismiss')} style={{ border: 'none', background: 'none', cursor: 'pointer' }}>
            ✕
          </button>
        </div>
      )}
    </div>
  );
}
