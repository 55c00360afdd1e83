'use client';
// Opening the page: settings read from storage, then a share link in the fragment applied on top, then a
// ?url= import. The model waits for `booted`, so a reload never loads the default model first.
// Both links come from strangers: the share link is size-capped and validated by lib/io/share, the ?url=
// address is checked by lib/io/linkPolicy before anything is fetched (another site only after the user
// confirmed its host) and read with its caps. Whatever a link carries is shown as text, never as HTML.
import { useEffect, useState } from 'react';
import { applyShare, decodeShare } from '../../lib/io/share';
import { checkLinkUrl, fetchLink, LINK_MAX_BYTES, type LinkRefusal } from '../../lib/io/linkPolicy';
import { formatBytes } from '../../lib/analysis/kvBytes';
import { formatCount } from '../../lib/prompt/request';
import { customOf, type KvscopeStore, type Tab } from '../../lib/state/store';
import type { Params, StringKey } from '../../lib/i18n';
import type { Message } from '../../lib/i18n/message';
import { useEngineTask } from '../hooks/useEngineTask';
import type { ImportNote } from '../hooks/useImports';

/** What a share link opened: the sentence the notice reads (the scenario's title is looked up in the page's language). */
export interface OpenedLink {
  /** The scenario ref now selected (a built-in one, or the custom scenario the link became). */
  scenario: string;
  /** The custom scenario's name; null for a built-in one. */
  name: string | null;
  tab: Tab;
  layer: number;
  /** The link made a new custom scenario (id), or selected one already saved (null). */
  created: string | null;
}

/**
 * What the share bar reports: a link opened, a link copied, or why neither worked. `lines`: details as
 * text. `key`/`params`: a refusal the page words itself (in the user's language).
 */
export type ShareNote = { kind: 'opened' | 'copied' | 'error'; lines: (string | Message)[]; opened?: OpenedLink; key?: StringKey; params?: Params };

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
    if (r.ok) {
      const opened: OpenedLink = { scenario: r.state.scenario, name: customOf(r.state, r.state.scenario)?.name ?? null, tab: r.state.tab, layer: r.state.view.layer, created: r.created };
      return { note: { kind: 'opened', lines: [...(d.ok ? (d.codedNotes ?? d.notes) : []), ...(r.codedNotes ?? r.notes)], opened } };
    }
    if (!d.ok && d.cap) {
      const key: StringKey = d.cap.code === 'tooLong' ? 'share.tooLong' : 'share.tooBig';
      return { note: { kind: 'error', lines: [], key, params: { size: formatCount(d.cap.size), limit: formatCount(d.cap.limit) } } };
    }
    return { note: { kind: 'error', lines: [r.coded ?? r.error] } };
  });
  const [shareNote, setShareNote] = useState<ShareNote | null>(null);
  const opened = boot.value?.note ?? null;
  useEffect(() => setShareNote(opened), [opened]);
  return { booted: boot.value !== null, shareNote, setShareNote };
}

/** A ?url= link to another site, waiting for the user: fetch from `host`, or cancel (nothing fetched). */
export interface LinkPrompt {
  host: string;
  url: string;
  /** The size cap, as the confirmation states it. */
  limit: string;
  fetch: () => void;
  cancel: () => void;
}

/** The import note for a refused link: its message (`link.<code>`) in the user's language. */
export function refusalNote(r: LinkRefusal): ImportNote {
  return { kind: 'error', key: r.key, params: r.params, lines: [] };
}


/** What useUrlImport needs of the page's imports (components/hooks/useImports). */
export interface UrlImportTarget {
  importInput: (input: string | Uint8Array, source: string) => Promise<void>;
  setNote: (n: ImportNote | null) => void;
}

/**
 * ?url=<file> imports that file once on opening (then leaves the address bar, so a reload does not repeat
 * it). The address is checked first (lib/io/linkPolicy); a file of this site is fetched at once, one of
 * another site only after the user confirmed its host (the returned prompt, which the page shows). A refusal
 * is a note; the user's scenarios and imports are untouched.
 */
export function useUrlImport(booted: boolean, imports: UrlImportTarget): LinkPrompt | null {
  const [prompt, setPrompt] = useState<LinkPrompt | null>(null);
  useEffect(() => {
    if (!booted) return;
    const params = new URLSearchParams(window.location.search);
    const raw = params.get('url');
    if (!raw) return;
    params.delete('url');
    const rest = params.toString();
    window.history.replaceState(null, '', window.location.pathname + (rest ? `?${rest}` : '') + window.location.hash);
    const { importInput, setNote } = imports;
    const page = window.location.href;
    const check = checkLinkUrl(raw, page);
    if (!check.ok) return setNote(refusalNote(check.refusal));
    const { url, host } = check;
    const limit = formatBytes(LINK_MAX_BYTES);
    const go = async () => {
      setPrompt(null);
      setNote({ kind: 'progress', key: 'link.fetching', params: { url: url.href, limit }, lines: [] });
      const r = await fetchLink(url, { page, cap: LINK_MAX_BYTES });
      if (r.ok) return importInput(r.bytes, url.href);
      setNote('refusal' in r ? refusalNote(r.refusal) : { kind: 'error', key: 'data.fetchFailed', params: { url: url.href, reason: r.failed }, lines: [] });
    };
    if (check.sameOrigin) return void go();
    setPrompt({
      host,
      url: url.href,
      limit,
      fetch: () => void go(),
      cancel: () => {
        setPrompt(null);
        setNote({ kind: 'ok', key: 'link.cancelled', params: { host }, lines: [] });
      },
    });
  }, [booted]); // eslint-disable-line react-hooks/exhaustive-deps -- once, when booted
  return prompt;
}
