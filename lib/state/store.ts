// The app's state: interface language, chosen model and scenario, view settings and the user's own
// scenarios. A zustand vanilla store (no React here) persisted either to IndexedDB (lib/state/db.ts: the
// browser, with a one-time move from the localStorage key older versions used) or to a string StateStorage
// (tests, and pages where IndexedDB is missing). It lives in the page, not the worker, so a worker crash or
// restart never touches it; a reload rehydrates it. Whatever comes back from storage is sanitised field by
// field: a corrupt or hand-edited entry falls back to defaults instead of breaking the page. A save that
// fails (full quota) is reported in `persistProblem` and changes nothing stored; nothing is ever dropped to
// make room.
import { createStore, type StoreApi } from 'zustand/vanilla';
import { createJSONStorage, persist, type PersistStorage, type StateStorage } from 'zustand/middleware';
import { isLang, type Lang } from '../i18n';
import { messageOf, type Message } from '../i18n/message';

import { COLORMAP_NAMES, DEFAULT_GAMMA, type ColormapName, type ScaleKind } from '../view/colormap';
import type { HeadReduction } from '../analysis/attentionView';
import type { ChatRequest } from '../scenarios/types';
import { validateRequest } from '../prompt/request';
import { EMBEDDED_MODELS, DEFAULT_MODEL } from '../model/embedded';
import { DEFAULT_ENDPOINT, normaliseEndpoint } from '../model/source/hub';
import { addRecent, canonicalModelChoice, isProviderChoice, parseModelChoice, sanitizeEndpoint, sanitizeRecent, type ProviderChoice } from './modelChoice';
import { isScenarioRef, DEFAULT_SCENARIO } from '../scenarios/catalog';
import { diffSnapshots, isQuotaError, moveLegacyState, readLegacyState, toStorageError, type KvscopeDb, type SaveDiff, type StateSnapshot, type StorageErrorCode, type StringStorageLike } from './db';

/** The persist name; also the localStorage key older versions kept the state under (moved to IndexedDB once). */
export const STORAGE_KEY = 'kvscope:state';
export const STATE_VERSION = 1;
/**
 * Custom scenarios one can create or add (a list to pick from stays short). Never enforced by dropping: at
 * the limit, creating asks to remove the oldest (components/scenario/ScenarioPicker.tsx) and additions from
 * links, imports and workspace files are refused with a message. A stored list above it is kept whole.
 */
export const MAX_CUSTOM = 50;

export interface ViewSettings {
  layer: number;
  head: HeadReduction;
  scale: ScaleKind;
  gamma: number;
  colormap: ColormapName;
  hideSink: boolean;
  /**
   * Key columns drawn at a readable minimum width beside the heatmap whatever the length and zoom
   * (docs/CONCEPTS.md#pinned-columns); key 0, the attention sink's position, by default.
   */
  pinned: number[];
}

/** Columns pinned at most (each takes its own strip beside the heatmap). */
export const MAX_PINNED = 4;

/**
 * Which prompt the attention run shows: the last call of the agent loop as it is sent (default, so its
 * token count matches the inspector's), one earlier call (0-based index), or the whole conversation.
 */
export type ContextChoice = 'last' | 'all' | number;

/** A user-made scenario: the editor's text as typed, and the last version that passed the validator. */
export interface CustomScenario {
  id: string;
  name: string;
  text: string;
  /** The view shows this; an invalid edit of `text` never replaces it. Null until the text first validates. */
  lastGood: ChatRequest | null;
  createdAt: number;
}

export interface PersistedState {
  lang: Lang;
  /**
   * An embedded model's id, `hub:<org>/<name>@<revision>` or `folder:<label>` (lib/state/modelChoice.ts). A
   * folder's files exist only in the page, so a stored folder choice comes back as the default model.
   */
  model: string;
  /** A built-in ref (`vancouver`, `xfinity:with-status`) or `custom:<id>`. */
  scenario: string;
  view: ViewSettings;
  custom: CustomScenario[];
  selectedToken: number | null;
  /** The agent-loop call (or the whole conversation) the attention run shows. */
  context: ContextChoice;
  /** A second embedded model shown side by side with `model` on the same prompt (Attention tab), or null. */
  compare: string | null;
  /** Which lab the page shows. */
  tab: Tab;
  /** Where Hub models are fetched from (like HF_ENDPOINT): the Hub, a mirror such as https://hf-mirror.com, or a local server. */
  hubEndpoint: string;
  /** The runtime asked for: auto (WebGPU where the browser has an adapter, else WASM), or one of them. */
  provider: ProviderChoice;
  /** Hub models the user loaded (canonical `hub:` choices), newest first: listed in the model picker. */
  recent: string[];
}

export type Tab = 'attention' | 'kv' | 'step' | 'ab' | 'data';
export const TABS: readonly Tab[] = ['attention', 'kv', 'step', 'ab', 'data'];

export interface Actions {
  setLang(lang: Lang): void;
  /** Accepts embedded ids, `hub:` and `folder:` choices (canonicalised); anything else is refused. A Hub model joins `recent`. */
  setModel(model: string): void;
  /** Normalised; returns false (and keeps the old one) when the text is not an http(s) URL. */
  setHubEndpoint(endpoint: string): boolean;
  setProvider(provider: ProviderChoice): void;
  forgetRecent(model: string): void;
  /** Clears the note that a folder model chosen before the reload could not be reopened. */
  clearLostFolder(): void;
  setScenario(ref: string): void;
  setView(patch: Partial<ViewSettings>): void;
  setSelectedToken(i: number | null): void;
  setContext(c: ContextChoice): void;
  setCompare(model: string | null): void;
  setTab(tab: Tab): void;
  /**
   * Adds a scenario and selects it; returns its id. At MAX_CUSTOM it adds nothing and returns null unless
   * `replace` names a scenario to remove in the same save (the user agreed to it).
   */
  createCustom(name: string, text: string, lastGood: ChatRequest | null, replace?: string): string | null;
  /** Keeps the text as typed (so nothing the user wrote is lost), whether or not it is valid. */
  editCustomText(id: string, text: string): void;
  /** Records a validated request as the scenario's last good state. */
  acceptCustom(id: string, request: ChatRequest): void;
  renameCustom(id: string, name: string): void;
  deleteCustom(id: string): void;
}

/** Why the last save or read failed, for a message in the user's language (components/lab/StorageNotice.tsx). */
export interface PersistProblem {
  /** 'read': what was saved could not be read (the page shows defaults); the others are failed saves. */
  code: StorageErrorCode | 'read';
  /** What the failed save would have written. */
  what: { kind: 'settings' } | { kind: 'scenario'; name: string } | { kind: 'scenarios'; count: number } | { kind: 'deletion' } | null;
  /** Bytes this site uses and may use, when the browser says (navigator.storage.estimate). */
  usage: number | null;
  quota: number | null;
  /** The browser's own words (or, for kvscope's own, `detailCoded` in English). */
  detail: string;
  /** The detail as a coded message when it is kvscope's own (lib/i18n/message.ts), for the interface's language. */
  detailCoded?: Message;
}

export type KvscopeState = PersistedState &
  Actions & {
    hydrated: boolean;
    /** The last storage failure in English (logs, tests); `persistProblem` is the same for the interface. */
    persistError: string | null;
    persistProblem: PersistProblem | null;
    /** The label of a folder model that was chosen before the reload (its files are gone), until dismissed. */
    lostFolder: string | null;
  };
export type KvscopeStore = StoreApi<KvscopeState> & { persist: { rehydrate(): Promise<void> | void }; flushed?: () => Promise<void> };

export const DEFAULT_VIEW: ViewSettings = { layer: 0, head: 'mean', scale: 'power', gamma: DEFAULT_GAMMA, colormap: 'viridis', hideSink: false, pinned: [0] };

export function defaultState(): PersistedState {
  return {
    lang: 'en',
    model: DEFAULT_MODEL,
    scenario: DEFAULT_SCENARIO,
    view: { ...DEFAULT_VIEW },
    custom: [],
    selectedToken: null,
    context: 'last',
    compare: null,
    tab: 'attention',
    hubEndpoint: DEFAULT_ENDPOINT,
    provider: 'auto',
    recent: [],
  };
}

const SCALES: readonly ScaleKind[] = ['linear', 'log', 'power'];
const isInt = (v: unknown, min = 0): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min;
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** View settings made safe: each invalid or missing field takes its default (also used for shared links). */
export function sanitizeView(v: unknown): ViewSettings {
  const d = DEFAULT_VIEW;
  if (!isObj(v)) return { ...d };
  const head = v.head === 'mean' || v.head === 'max' || isInt(v.head) ? (v.head as HeadReduction) : d.head;
  return {
    layer: isInt(v.layer) ? v.layer : d.layer,
    head,
    scale: SCALES.includes(v.scale as ScaleKind) ? (v.scale as ScaleKind) : d.scale,
    gamma: typeof v.gamma === 'number' && v.gamma > 0 && v.gamma <= 4 ? v.gamma : d.gamma,
    colormap: COLORMAP_NAMES.includes(v.colormap as ColormapName) ? (v.colormap as ColormapName) : d.colormap,
    hideSink: typeof v.hideSink === 'boolean' ? v.hideSink : d.hideSink,
    pinned: Array.isArray(v.pinned) ? [...new Set(v.pinned.filter((k) => isInt(k)))].sort((a, b) => a - b).slice(0, MAX_PINNED) : [...d.pinned],
  };
}

function sanitizeCustom(v: unknown): CustomScenario | null {
  if (!isObj(v) || typeof v.id !== 'string' || !/^[\w-]{1,64}$/.test(v.id) || typeof v.text !== 'string') return null;
  // The last good request is re-validated: storage is outside our control.
  let lastGood: ChatRequest | null = null;
  if (v.lastGood !== null && v.lastGood !== undefined) {
    const r = validateRequest(v.lastGood);
    if (r.ok) lastGood = r.request;
  }
  return {
    id: v.id,
    name: typeof v.name === 'string' && v.name.trim() ? v.name.slice(0, 200) : v.id,
    text: v.text,
    lastGood,
    createdAt: typeof v.createdAt === 'number' ? v.createdAt : 0,
  };
}

/** The persisted part of whatever storage held, made safe: unknown or invalid fields take their defaults. */
export function sanitizePersisted(raw: unknown): PersistedState {
  const d = defaultState();
  if (!isObj(raw)) return d;
  const custom: CustomScenario[] = [];
  const seen = new Set<string>();
  if (Array.isArray(raw.custom)) {
    for (const c of raw.custom) {
      const s = sanitizeCustom(c);
      if (s && !seen.has(s.id)) {
        seen.add(s.id);
        custom.push(s);
      }
    }
  }
  const customIds = new Set(custom.map((c) => c.id));
  const scenario = typeof raw.scenario === 'string' && isKnownRef(raw.scenario, customIds) ? raw.scenario : d.scenario;
  return {
    lang: isLang(raw.lang) ? raw.lang : d.lang,
    model: storedModel(raw.model) ?? d.model,
    scenario,
    view: sanitizeView(raw.view),
    custom,
    selectedToken: isInt(raw.selectedToken) ? raw.selectedToken : null,
    context: isContext(raw.context) ? raw.context : d.context,
    compare: typeof raw.compare === 'string' && EMBEDDED_MODELS.some((m) => m.id === raw.compare) ? raw.compare : null,
    tab: TABS.includes(raw.tab as Tab) ? (raw.tab as Tab) : d.tab,
    hubEndpoint: sanitizeEndpoint(raw.hubEndpoint),
    provider: isProviderChoice(raw.provider) ? raw.provider : d.provider,
    recent: sanitizeRecent(raw.recent),
  };
}

/** A stored model choice that can be reopened: embedded or Hub (canonical); folders and unknown values cannot. */
function storedModel(v: unknown): string | null {
  const c = parseModelChoice(v);
  return c && c.kind !== 'folder' ? canonicalModelChoice(v) : null;
}

/** The folder label of a stored folder choice (reported to the user, whose folder is not open any more). */
function lostFolderOf(raw: unknown): string | null {
  const c = isObj(raw) ? parseModelChoice(raw.model) : null;
  return c?.kind === 'folder' ? c.label : null;
}

export function isContext(v: unknown): v is ContextChoice {
  return v === 'last' || v === 'all' || isInt(v);
}

function isKnownRef(ref: string, customIds: ReadonlySet<string>): boolean {
  if (ref.startsWith('custom:')) return customIds.has(ref.slice('custom:'.length));
  return isScenarioRef(ref);
}

export function customRef(id: string): string {
  return `custom:${id}`;
}

/** The part of the state that is saved (and exported with the workspace). */
export function persistedOf(s: PersistedState): PersistedState {
  return {
    lang: s.lang,
    model: s.model,
    scenario: s.scenario,
    view: s.view,
    custom: s.custom,
    selectedToken: s.selectedToken,
    context: s.context,
    compare: s.compare,
    tab: s.tab,
    hubEndpoint: s.hubEndpoint,
    provider: s.provider,
    recent: s.recent,
  };
}

/** The custom scenario a ref names, or null for a built-in ref. */
export function customOf(state: Pick<PersistedState, 'custom'>, ref: string): CustomScenario | null {
  if (!ref.startsWith('custom:')) return null;
  const id = ref.slice('custom:'.length);
  return state.custom.find((c) => c.id === id) ?? null;
}

type Report = (msg: string | null, problem?: PersistProblem) => void;

const problemOf = (code: PersistProblem['code'], e: unknown, what: PersistProblem['what'] = null): PersistProblem => {
  const detailCoded = messageOf(e);
  return { code, what, usage: null, quota: null, detail: e instanceof Error ? e.message : String(e), ...(detailCoded ? { detailCoded } : {}) };
};


/** Storage errors (quota, private mode) are recorded in the state instead of thrown into React. */
function guarded(storage: StateStorage, report: Report): StateStorage {
  return {
    getItem: (name) => {
      try {
        return storage.getItem(name);
      } catch (e) {
        report(`could not read saved state: ${(e as Error).message}`, problemOf('read', e));
        return null;
      }
    },
    setItem: (name, value) => {
      try {
        storage.setItem(name, value);
        report(null);
      } catch (e) {
        report(`could not save: ${(e as Error).message}`, problemOf(isQuotaError(e) ? 'quota' : 'failed', e));
      }
    },
    removeItem: (name) => {
      try {
        storage.removeItem(name);
      } catch {
        /* nothing to keep */
      }
    },
  };
}

/** The IndexedDB side of the store (the browser's; tests pass one over fake-indexeddb). */
export interface DbPersistence {
  db: KvscopeDb;
  /** Where older versions kept the state (localStorage): moved into `db` on the first load. */
  legacy?: StringStorageLike;
  /** navigator.storage.estimate, to say how full the storage is when a save fails. */
  estimate?: () => Promise<{ usage?: number; quota?: number }>;
}

/**
 * zustand persists on every `set`; changes outside the persisted part (hydrated, persistError, …) are not
 * saved again. That also keeps a failed save's report from scheduling another save.
 */
function skipUnchanged(inner: PersistStorage<PersistedState>): PersistStorage<PersistedState> {
  let last: PersistedState | null = null;
  return {
    getItem: (name) => inner.getItem(name),
    removeItem: (name) => inner.removeItem(name),
    setItem: (name, value) => {
      const s = value.state;
      if (last && (Object.keys(s) as (keyof PersistedState)[]).every((k) => s[k] === last![k])) return;
      last = s;
      return inner.setItem(name, value);
    },
  };
}

export interface StoreOptions {
  /** A string storage (tests, or a page without IndexedDB); ignored when `db` is given. */
  storage?: StateStorage;
  db?: DbPersistence;
  /** For ids and timestamps; tests pass fixed ones. */
  now?: () => number;
}

/** What the failed save of `diff` would have written, named for the user. */
function whatOf(diff: SaveDiff): PersistProblem['what'] {
  if (diff.put.length === 1) {
    const c = diff.put[0]!;
    return { kind: 'scenario', name: typeof c.name === 'string' ? c.name : c.id };
  }
  if (diff.put.length > 1) return { kind: 'scenarios', count: diff.put.length };
  if (diff.deleted.length > 0) return { kind: 'deletion' };
  return diff.settings ? { kind: 'settings' } : null;
}

const toSnapshot = (state: PersistedState, version: number): StateSnapshot => {
  const { custom, ...settings } = state;
  return { version, settings: settings as unknown as Record<string, unknown>, custom: custom as unknown as StateSnapshot['custom'] };
};

/**
 * zustand's persist storage over IndexedDB. Reads once (moving the old localStorage state in on the way);
 * writes nothing before that read, so defaults never overwrite what is stored. Saves are coalesced: one
 * transaction in flight, and the newest state goes next (typing writes the edited scenario's record only).
 */
function dbStorage({ db, legacy, estimate }: DbPersistence, report: Report, pendingChanged: (p: Promise<void> | null) => void): PersistStorage<PersistedState> {
  let read = false;
  // A database that could not be read is never written: a save would replace what is stored with defaults.
  let readOnly = false;
  let written: StateSnapshot | null = null;
  let next: StateSnapshot | null = null;
  let flushing: Promise<void> | null = null;
  let shown: PersistProblem | null = null;

  const fail = (e: unknown, diff: SaveDiff) => {
    const err = toStorageError(e);
    const problem = (shown = problemOf(err.code, err, whatOf(diff)));
    report(`could not save: ${err.message}`, problem);
    // How full the storage is comes later (async); only a failure still shown is updated with it.
    void estimate?.()
      .then((est) => shown === problem && report(`could not save: ${err.message}`, { ...problem, usage: est.usage ?? null, quota: est.quota ?? null }))
      .catch(() => undefined);
  };

  const flush = async () => {
    while (next) {
      const snap = next;
      next = null;
      const diff = diffSnapshots(snap, written);
      try {
        await db.saveState(snap, written);
        written = snap;
        shown = null;
        report(null);
      } catch (e) {
        fail(e, diff); // `written` stays: the next save tries this change again
      }
    }
  };

  return {
    getItem: async () => {
      let snap: StateSnapshot | null = null;
      try {
        snap = await db.loadState();
        written = snap;
      } catch (e) {
        readOnly = true;
        const err = toStorageError(e);
        report(`could not read saved state: ${err.message}`, problemOf(err.code === 'unavailable' || err.code === 'blocked' ? err.code : 'read', err));
      }
      // Unreadable database: the old localStorage copy, if any, is shown (and kept).
      if (legacy && readOnly) snap = readLegacyState(legacy, STORAGE_KEY);
      if (legacy && !readOnly) {
        const moved = await moveLegacyState(db, legacy, STORAGE_KEY, snap);
        if (moved.kind === 'moved') snap = written = moved.snapshot;
        else if (moved.kind === 'failed') {
          // Shown from the old copy (kept); the next successful save writes it all.
          snap = moved.snapshot;
          written = null;
          fail(moved.error, { settings: true, put: [...moved.snapshot.custom], deleted: [] });
        }
      }
      read = true;
      return snap ? { state: { ...(snap.settings as unknown as PersistedState), custom: snap.custom as unknown as CustomScenario[] }, version: snap.version } : null;
    },
    setItem: (_name, value) => {
      if (!read || readOnly) return;
      next = toSnapshot(value.state, value.version ?? STATE_VERSION);
      if (!flushing) {
        flushing = flush().finally(() => {
          flushing = null;
          pendingChanged(null);
        });
        pendingChanged(flushing);
      }
    },
    removeItem: () => undefined,
  };
}

/**
 * Creates the store. Rehydration is explicit (`store.persist.rehydrate()`, called from an effect) so the
 * first client render equals the prerendered HTML; `hydrated` turns true once storage was read.
 */
export function createKvscopeStore({ storage, db, now = Date.now }: StoreOptions): KvscopeStore {
  let setError: Report = () => {};
  const report: Report = (msg, problem) => setError(msg, problem);
  let pending: Promise<void> | null = null;
  const persistStorage = skipUnchanged(
    db ? dbStorage(db, report, (p) => (pending = p)) : createJSONStorage<PersistedState>(() => guarded(storage ?? { getItem: () => null, setItem: () => {}, removeItem: () => {} }, report))!,
  );
  let counter = 0;
  const store = createStore<KvscopeState>()(
    persist(
      (set, get) => {
        setError = (msg, problem) => {
          const p = msg === null ? null : (problem ?? null);
          // The persisted part is unchanged, so this schedules no save (skipUnchanged).
          if (get().persistError !== msg || JSON.stringify(get().persistProblem) !== JSON.stringify(p)) set({ persistError: msg, persistProblem: p });
        };
        const updateCustom = (id: string, f: (c: CustomScenario) => CustomScenario) =>
          set({ custom: get().custom.map((c) => (c.id === id ? f(c) : c)) });
        return {
          ...defaultState(),
          hydrated: false,
          persistError: null,
          persistProblem: null,
          lostFolder: null,
          setLang: (lang) => set({ lang }),
          setModel: (model) => {
            const c = parseModelChoice(model);
            if (!c) return;
            const id = canonicalModelChoice(model)!;
            set(c.kind === 'hub' ? { model: id, recent: addRecent(get().recent, id) } : { model: id });
          },
          setHubEndpoint: (endpoint) => {
            try {
              set({ hubEndpoint: normaliseEndpoint(endpoint) });
              return true;
            } catch {
              return false;
            }
          },
          setProvider: (provider) => {
            if (isProviderChoice(provider)) set({ provider });
          },
          forgetRecent: (model) => set({ recent: get().recent.filter((m) => m !== model) }),
          clearLostFolder: () => set({ lostFolder: null }),
          setScenario: (ref) => {
            const ids = new Set(get().custom.map((c) => c.id));
            if (isKnownRef(ref, ids)) set({ scenario: ref, selectedToken: null, context: 'last' });
          },
          setView: (patch) => set({ view: sanitizeView({ ...get().view, ...patch }) }),
          setSelectedToken: (i) => set({ selectedToken: i }),
          setCompare: (model) => {
            if (model === null || EMBEDDED_MODELS.some((m) => m.id === model)) set({ compare: model });
          },
          setContext: (c) => {
            if (isContext(c)) set({ context: c, selectedToken: null });
          },
          setTab: (tab) => {
            if (TABS.includes(tab)) set({ tab });
          },
          createCustom: (name, text, lastGood, replace) => {
            const kept = get().custom.filter((c) => c.id !== replace);
            if (kept.length >= MAX_CUSTOM) return null;
            const ids = new Set(kept.map((c) => c.id));
            let id = '';
            while (!id || ids.has(id)) id = `c${now().toString(36)}${(counter++).toString(36)}`;
            const c: CustomScenario = { id, name: name.trim() || id, text, lastGood, createdAt: now() };
            set({ custom: [...kept, c], scenario: customRef(id), selectedToken: null, context: 'last' });
            return id;
          },
          editCustomText: (id, text) => updateCustom(id, (c) => ({ ...c, text })),
          acceptCustom: (id, request) => updateCustom(id, (c) => ({ ...c, lastGood: request })),
          renameCustom: (id, name) => updateCustom(id, (c) => ({ ...c, name: name.trim() ? name.slice(0, 200) : c.name })),
          deleteCustom: (id) => {
            const custom = get().custom.filter((c) => c.id !== id);
            const scenario = get().scenario === customRef(id) ? DEFAULT_SCENARIO : get().scenario;
            set({ custom, scenario });
          },
        };
      },
      {
        name: STORAGE_KEY,
        version: STATE_VERSION,
        storage: persistStorage,
        skipHydration: true,
        partialize: (s): PersistedState => persistedOf(s),
        // Older or newer versions: keep what still passes sanitising rather than dropping the user's scenarios.
        migrate: (persisted) => sanitizePersisted(persisted),
        merge: (persisted, current) => ({ ...current, ...sanitizePersisted(persisted), lostFolder: lostFolderOf(persisted) }),
        onRehydrateStorage: () => () => {
          store.setState({ hydrated: true });
        },
      },
    ),
  );
  return Object.assign(store as KvscopeStore, {
    /** Resolves once the saves scheduled so far are written (or failed and reported). */
    flushed: async () => {
      while (pending) await pending;
    },
  });
}
