'use client';
// The page's imports: files dropped or chosen, pasted text, a ?url= link. Each goes through lib/io/importData
// (one reader per format). A request body becomes a new named scenario in the store (never over the user's
// own); run logs and attention files are kept in IndexedDB and listed on the Data tab. Every outcome is
// reported in `note` — nothing is changed when an import fails.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { hintFromName, nameFromSource, type ImportOutcome } from '../../lib/io/importData';
import { parseImport, wasCancelled } from './useParseWorker';
import { addScenario } from '../../lib/state/addScenario';
import { customOf, type KvscopeStore } from '../../lib/state/store';
import type { ChatRequest } from '../../lib/scenarios/types';
import type { StringKey, Params } from '../../lib/i18n';
import { message, messageOf, type Message } from '../../lib/i18n/message';
import { useEngineTask } from './useEngineTask';
import { deleteImport, listImports, putImport, readImport, renameImport, type ImportMeta, type StoredImport } from './importsDb';

export interface ImportNote {
  kind: 'ok' | 'error' | 'progress';
  key: StringKey;
  params: Params;
  /** Details: coded messages from lib/ (shown in the interface's language with describe()) or text as it is. */
  lines: (string | Message)[];
  /** A request body that failed validation: the user may still open it in the editor to fix it. */
  openAnyway?: { name: string; text: string };
}

/** `error` in English; `failure` the same as plain data with its coded message (shown with describe()). */
export type Loaded = { id: string; outcome: ImportOutcome } | { id: string; error: string; failure?: unknown } | null;

/** An error as a note line: its coded message when it has one, else its text. */
export function errorLine(e: unknown): string | Message {
  return messageOf(e) ?? (e instanceof Error ? e.message : String(e));
}

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
  const [dbError, setDbError] = useState<string | Message | null>(null);
  // The paste box lives here, not in the tab, so switching tabs does not lose what the user pasted.
  const [paste, setPaste] = useState({ text: '', name: '' });

  const refresh = useCallback(async () => {
    let stored: ImportMeta[] = [];
    try {
      stored = await listImports();
    } catch (e) {
      setDbError(errorLine(e));
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
    // Read in the parse worker (off the main thread); a stored item is parsed again on every visit.
    return stale() ? null : parseImport(item.input, item.kind, item.name);
  });
  const loaded: Loaded =
    read.error !== null && read.key !== null
      ? { id: read.key, error: read.error, failure: read.failure }

      : read.value && read.valueKey !== null
        ? { id: read.valueKey, outcome: read.value }
        : null;

  /** Adds a new "<name> (imported)" scenario (or selects an identical saved one) and shows it; null when refused. */
  const addToScenarios = useCallback(
    (name: string, request: ChatRequest | null, text: string) => {
      const added = addScenario(store.getState().custom, { name, label: 'imported', request, text, now: Date.now(), idPrefix: 'i', action: 'import this request' });
      if (!added.ok) {
        setNote({ kind: 'error', key: 'data.failed', params: { name }, lines: [added.coded ?? added.error] });
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
      const r = await parseImport(input, hintFromName(source), name);
      if (!r.ok && wasCancelled(r)) {
        setNote({ kind: 'ok', key: 'data.cancelled', params: { name }, lines: [] });
        return;
      }
      if (!r.ok) {
        setNote({ kind: 'error', key: 'data.failed', params: { name }, lines: [r.coded ?? r.error], openAnyway: r.kind === 'request' && r.text ? { name, text: r.text } : undefined });
        return;
      }
      if (r.kind === 'request') {
        const added = addToScenarios(name, r.request, r.text);
        if (!added) return;
        const scenarioName = customOf({ custom: added.custom }, added.scenario)?.name ?? name;
        setNote({ kind: 'ok', key: added.created ? 'data.importedRequest' : 'data.requestKnown', params: { source: name, name: scenarioName }, lines: [...(added.codedNotes ?? added.notes), ...(r.codedNotes ?? r.notes)] });
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
      const lines: (string | Message)[] = [...(r.codedNotes ?? r.notes)];
      try {
        await putImport(item);
      } catch (e) {
        memory.current.set(item.id, item);
        const error = errorLine(e);
        lines.unshift(message('msg.import.store.notKept', undefined, undefined, { error: typeof error === 'string' ? message('msg.import.verbatim', { text: error }) : error }));
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
        setDbError(errorLine(e));
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
      else await renameImport(id, clean).catch((e: unknown) => setDbError(errorLine(e)));

      setItems((xs) => xs.map((x) => (x.id === id ? { ...x, name: clean } : x)));
    },
    [],
  );

  return { paste, setPaste, items, note, setNote, selected, select, loaded, dbError, importInput, importFiles, openAnyway, remove, rename, refresh };
}

export type Imports = ReturnType<typeof useImports>;
