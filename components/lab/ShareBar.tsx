'use client';
// The share-link button (settings and the shown scenario, packed into the URL fragment and copied) and the
// note saying what was copied, opened from a link, or why that failed.
import { encodeShare, shareFromState } from '../../lib/io/share';
import { CATALOG } from '../../lib/scenarios/catalog';
import type { Lang } from '../../lib/i18n';
import type { KvscopeStore } from '../../lib/state/store';
import { useDescribe, useLang, useT, type T } from '../common/i18n';
import type { ShareNote } from './useBoot';

export function ShareButton({ store, onNote }: { store: KvscopeStore; onNote: (n: ShareNote | null) => void }) {
  const t = useT();
  const copy = async () => {
    const p = shareFromState(store.getState());
    const e = p.ok ? await encodeShare(p.payload) : p;
    if (!e.ok) return onNote({ kind: 'error', lines: [e.coded ?? e.error] });
    const url = window.location.origin + window.location.pathname + e.fragment;
    try {
      await navigator.clipboard.writeText(url);
      onNote({ kind: 'copied', lines: [url, ...(p.ok ? (p.codedNotes ?? p.notes) : [])] });
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

/** The notice's sentence: what a link opened (scenario, tab, layer), a refusal in the user's language, or the heading for `lines`. */
function noteHeading(t: T, lang: Lang, note: ShareNote): string {
  const o = note.opened;
  if (note.kind === 'opened' && o) {
    const scenario = o.name ?? CATALOG.find((e) => e.ref === o.scenario)?.title[lang] ?? o.scenario;
    const sentence = t('share.openedSentence', { scenario, tab: t(`tab.${o.tab}`), layer: o.layer });
    return o.created && o.name ? `${sentence} ${t('share.openedNew', { name: o.name })}` : sentence;
  }
  if (note.key) return t(note.key, note.params);
  return t(note.kind === 'opened' ? 'share.opened' : note.kind === 'copied' ? 'share.copied' : 'share.error');
}

/** What was copied, opened from a link, or why that failed: one sentence (link data as text only) and a dismiss button. */
export function ShareNoteView({ note, onNote }: { note: ShareNote | null; onNote: (n: ShareNote | null) => void }) {
  const t = useT();
  const lang = useLang();
  const describe = useDescribe();
  if (!note) return null;
  const lines = note.lines.map(describe).join(' · ');
  const details = note.lines.length > 0 ? (note.kind === 'opened' ? `${t('share.notesTitle')} ${lines}` : lines) : '';

  return (
    <div role="status" data-role="share-note" data-kind={note.kind} style={{ fontSize: 'var(--fs-sm)', color: note.kind === 'error' ? 'var(--c-error)' : 'var(--c-text)', overflowWrap: 'anywhere' }}>
      <strong data-role="share-note-text">{noteHeading(t, lang, note)}</strong>
      {details && <span data-role="share-note-details"> {details}</span>}{' '}
      <button type="button" data-role="share-note-dismiss" onClick={() => onNote(null)} style={{ minHeight: 0, padding: '0 6px', fontSize: 'var(--fs-xs)' }}>
        {t('share.dismiss')}
      </button>
    </div>
  );
}
