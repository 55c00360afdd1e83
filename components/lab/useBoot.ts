'use client';
// Opening the page: settings read from storage, then a share link in the fragment applied on top, then a
// ?url= import. The model waits for `booted`, so a reload never loads the default model first.
import { useEffect, useState } from 'react';
import { applyShare, decodeShare } from '../../lib/io/share';
import type { KvscopeStore } from '../../lib/state/store';
import { useEngineTask } from '../hooks/useEngineTask';

/** What the share bar reports: a link opened, a link copied, or why neither worked. */
export type ShareNote = { kind: 'opened' | 'copied' | 'error'; lines: string[] };

export interface Boot {
  booted: boolean;
  shareNote: ShareNote | null;
  setShareNote: (n: ShareNote | null) => void;
}

/** A shared custom scenario becomes a new scenario of the user's, never written over one. */
export function useShareBoot(store: KvscopeStore): Boot {
  const boot = useEngineTask<{ note: ShareNote | null }, never>('boot', async ({ stale }) => {
    await store.persist.rehydrate();
    if (stale() || !/(^#|&)s=/.test(window.location.hash)) return { note: null };
    const d = await decodeShare(window.location.hash);
    // A boot cut short (React's dev double mount) leaves the link for the one that replaces it.
    if (stale()) return { note: null };
    const r = d.ok ? applyShare(store.getState(), d.payload, Date.now()) : d;
    if (r.ok) store.setState(r.state);
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
    return { note: r.ok ? { kind: 'opened', lines: [...(d.ok ? d.notes : []), ...r.notes] } : { kind: 'error', lines: [r.error] } };
  });
  const [shareNote, setShareNote] = useState<ShareNote | null>(null);
  const opened = boot.value?.note ?? null;
  useEffect(() => setShareNote(opened), [opened]);
  return { booted: boot.value !== null, shareNote, setShareNote };
}

/** ?url=<file> imports that file once on opening (then leaves the address bar, so a reload does not repeat it). */
export function useUrlImport(booted: boolean, importUrl: (url: string) => Promise<void>): void {
  useEffect(() => {
    if (!booted) return;
    const params = new URLSearchParams(window.location.search);
    const url = params.get('url');
    if (!url) return;
    params.delete('url');
    const rest = params.toString();
    window.history.replaceState(null, '', window.location.pathname + (rest ? `?${rest}` : '') + window.location.hash);
    void importUrl(url);
  }, [booted]); // eslint-disable-line react-hooks/exhaustive-deps -- once, when booted
}
