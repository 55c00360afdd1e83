'use client';
// The page's imports: files dropped or chosen, pasted text, a ?url= link. Each goes through lib/io/importData
// (one reader per format). A request body becomes a new named scenario in the store (never over the user's
// own); run logs and attention files are kept in IndexedDB and listed on the Data tab. Every outcome is
// reported in `note` — nothing is changed when an import fails.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { hintFromName, importData, nameFromSource, type ImportOutcome } from '../../lib/io/importData';
import { addScenario } from '../../lib/state/addScenario';
import { customOf, type KvscopeStore } from '../../lib/state/store';
import type { ChatRequest } from '../../lib/scenarios/types';
import type { StringKey, Params } from '../../lib/i18n';
import { useEngineTask } from './useEngineTask';
import { deleteImport, listImports, putImport, readImport, renameImport, type ImportMeta, type StoredImport } from './importsDb';

export interface ImportNote {
  kind: 'ok' | 'error' | 'progress';
  key: StringKey;
  params: Params;
  lines: string[];
  /** A request body that failed validation: the user may still open it in the editor to fix it. */
  openAnyway?: { name: string; text: string };
}

export type Loaded = { id: string; outcome: ImportOutcome } | { id: string; error: string } | null;

const SELECTED_KEY = 'kvscope-data-selected';

function readSelected(): string | null {
  try {
    return window.localStorage.getItem(SELECTED_KEY);
  } catch {
    return null;
  }
}

export function useImports(store: KvscopeStore) {
  const [items, setItems] = useState<ImportMeta[]>([]);
  const [note, setNote] = useState<ImportNote | null>(null);
  const [selected, setSelectedState] = useState<string | null>(null);
  // Items IndexedDB refused (private mode, quota): kept for this page's lifetime only.
  const memory = useRef(new Map<string, StoredImport>());
  const [dbError, setDbError] = useState<string | null>(null);
  // The paste box lives here, not in the tab, so switching tabs does not lose what the user pasted.
  const [paste, setPaste] = useState({ text: '', name: '' });

  const refresh = useCallback(async () => {
    let stored: ImportMeta[] = [];
    try {
      stored = await listImports();
    } catch (e) {
      setDbError((e as Error).message);
    }
    const mem = [...memory.current.values()].map(({ input: _i, ...m }) => m);
    setItems([...stored, ...mem].sort((a, b) => a.createdAt - b.createdAt));
  }, []);

  const select = useCallback((id: string | null) => {
    setSelectedState(id);
    try {
      if (id) window.localStorage.setItem(SELECTED_KEY, id);
      else window.localStorage.removeItem(SELECTED_KEY);
    } catch {
      // the selection is a convenience; losing it is harmless
    }
  }, []);

  useEffect(() => {
    setSelectedState(readSelected());
    void refresh();
  }, [refresh]);

  // The selected item is read back from storage and parsed again by the same reader — only once the Data
  // tab is shown (not at every page load), and not again when the tab is revisited: away from the tab the
  // task keeps the key it had, so a new selection waits for the tab.
  const dataTab = useStore(store, (s) => s.tab === 'data');
  const [readKey, setReadKey] = useState<string | null>(null);
  const wanted = selected === null ? null : dataTab ? selected : readKey;
  if (wanted !== readKey) setReadKey(wanted);
  const read = useEngineTask<ImportOutcome | null, never>(wanted, async ({ stale }) => {
    const item = memory.current.get(wanted!) ?? (await readImport(wanted!));
    if (!item || stale()) return null;
    await new Promise((r) => setTimeout(r, 0)); // let the "reading…" state paint before a long parse
    return stale() ? null : importData(item.input, item.kind);
  });
  const loaded: Loaded =
    read.error !== null && read.key !== null
      ? { id: read.key, error: read.error }
      : read.value && read.valueKey !== null
        ? { id: read.valueKey, outcome: read.value }
        : null;

  /** Adds a new "<name> (imported)" scenario (or selects an identical saved one) and shows it; null when refused. */
  const addToScenarios = useCallback(
    (name: string, request: ChatRequest | null, text: string) => {
      const added = addScenario(store.getState().custom, { name, label: 'imported', request, text, now: Date.now(), idPrefix: 'i', action: 'import this request' });
      if (!added.ok) {
        setNote({ kind: 'error', key: 'data.failed', params: { name }, lines: [added.error] });
        return null;
      }
      store.setState({ custom: added.custom, scenario: added.scenario, selectedToken: null, tab: 'attention' });
      return added;
    },
    [store],
  );

  /** Imports one input; `source` is a file name, a URL or the paste box's name. */
  const importInput = useCallback(
    async (input: string | Uint8Array, source: string) => {
      const name = nameFromSource(source, 'import');
      setNote({ kind: 'progress', key: 'data.reading', params: { name }, lines: [] });
      await new Promise((r) => setTimeout(r, 0));
      const r = importData(input, hintFromName(source));
      if (!r.ok) {
        setNote({ kind: 'error', key: 'data.failed', params: { name }, lines: [r.error], openAnyway: r.kind === 'request' && r.text ? { name, text: r.text } : undefined });
        return;
      }
      if (r.kind === 'request') {
        const added = addToScenarios(name, r.request, r.text);
        if (!added) return;
        const scenarioName = customOf({ custom: added.custom }, added.scenario)?.name ?? name;
        setNote({ kind: 'ok', key: added.created ? 'data.importedRequest' : 'data.requestKnown', params: { source: name, name: scenarioName }, lines: [...added.notes, ...r.notes] });
        return;
      }
      const item: StoredImport = {
        id: `d${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
        name,
        kind: r.kind,
        createdAt: Date.now(),
        input,
        size: typeof input === 'string' ? input.length : input.byteLength,
      };
      const lines = [...r.notes];
      try {
        await putImport(item);
      } catch (e) {
        memory.current.set(item.id, item);
        lines.unshift(`not kept across reloads: ${(e as Error).message}`);
      }
      await refresh();
      select(item.id);
      store.getState().setTab('data');
      if (r.kind === 'runlog') setNote({ kind: 'ok', key: 'data.importedRunlog', params: { name, calls: r.log.calls.length, form: r.form }, lines });
      else setNote({ kind: 'ok', key: 'data.importedAttention', params: { name, tokens: r.attention.tokens.length, layers: r.attention.layers.length }, lines });
    },
    [store, refresh, select, addToScenarios],
  );

  const importFiles = useCallback(
    async (files: FileList | File[]) => {
      for (const f of Array.from(files)) {
        const bytes = new Uint8Array(await f.arrayBuffer());
        await importInput(bytes, f.name);
      }
    },
    [importInput],
  );

  /** ?url=… : fetched once on opening (loopback or any server that allows it). */
  const importUrl = useCallback(
    async (url: string) => {
      setNote({ kind: 'progress', key: 'data.fetching', params: { url }, lines: [] });
      let bytes: Uint8Array;
      try {
        const res = await fetch(url);
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        bytes = new Uint8Array(await res.arrayBuffer());
      } catch (e) {
        setNote({ kind: 'error', key: 'data.fetchFailed', params: { url, reason: (e as Error).message }, lines: [] });
        return;
      }
      await importInput(bytes, url);
    },
    [importInput],
  );

  const openAnyway = useCallback(
    (name: string, text: string) => {
      if (addToScenarios(name, null, text)) setNote(null);
    },
    [addToScenarios],
  );

  const remove = useCallback(
    async (id: string) => {
      memory.current.delete(id);
      try {
        await deleteImport(id);
      } catch (e) {
        setDbError((e as Error).message);
      }
      if (selected === id) select(null);
      await refresh();
    },
    [refresh, select, selected],
  );

  const rename = useCallback(
    async (id: string, name: string) => {
      const clean = name.slice(0, 120);
      if (!clean.trim()) return;
      const m = memory.current.get(id);
      if (m) memory.current.set(id, { ...m, name: clean });
      else await renameImport(id, clean).catch((e: Error) => setDbError(e.message));
      setItems((xs) => xs.map((x) => (x.id === id ? { ...x, name: clean } : x)));
    },
    [],
  );

  return { paste, setPaste, items, note, setNote, selected, select, loaded, dbError, importInput, importFiles, importUrl, openAnyway, remove, rename };
}

export type Imports = ReturnType<typeof useImports>;
