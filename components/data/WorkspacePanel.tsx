'use client';
// The workspace file on the "Your data" tab: export everything kept in this browser (settings, scenarios,
// imports) as one JSON file; import one — checked by lib/state/workspace (a refusal names the place), then a
// preview of what will be added (renamed where a name is taken, identical items skipped) before anything is
// written. Imports are stored in one transaction (all or none), then the scenarios join the store.
import { useRef, useState } from 'react';
import { formatBytes } from '../../lib/analysis/kvBytes';
import type { StringKey, Params } from '../../lib/i18n';
import { StorageError, toStorageError } from '../../lib/state/db';

import { persistedOf, type KvscopeStore, type PersistProblem } from '../../lib/state/store';
import { mergedScenarios, newImports, planMerge, readWorkspace, writeWorkspace, MAX_WORKSPACE_CHARS, type MergePlan, type Workspace, type WorkspaceError } from '../../lib/state/workspace';
import { useDescribe, useT, type T } from '../common/i18n';
import { listImports, readImport } from '../hooks/importsDb';
import type { Imports } from '../hooks/useImports';
import { browserDb, storageEstimate } from '../hooks/kvscopeDb';
import { problemText } from '../lab/StorageNotice';

type Note =
  | { kind: 'ok' | 'progress'; key: StringKey; params: Params }
  | { kind: 'refused'; file: string; error: WorkspaceError }
  | { kind: 'storage'; problem: PersistProblem; what: 'imports' | 'scenarios' }
  | { kind: 'failed'; key: StringKey; params: Params };

interface Preview {
  file: string;
  workspace: Workspace;
  plan: MergePlan;
}

const KINDS = ['object', 'array', 'string', 'number', 'boolean', 'null', 'missing'];

/** A refusal in the user's language, with the place in the file (`describe` words its coded detail). */
function refusalText(t: T, e: WorkspaceError, describe: (v: unknown) => string): string {
  const p: Params = { ...e.params };
  if (e.detailCoded) p.detail = describe(e.detailCoded);
  if (e.code === 'type') {
    for (const k of ['expected', 'found'] as const) if (KINDS.includes(String(p[k]))) p[k] = t(`workspace.kind.${p[k]}` as 'workspace.kind.object');
  }
  return t(`workspace.err.${e.code}` as 'workspace.err.type', p);
}

function noteText(t: T, n: Note, describe: (v: unknown) => string): string {
  if (n.kind === 'refused') return t('workspace.refused', { file: n.file, reason: refusalText(t, n.error, describe) });
  if (n.kind === 'storage') return problemText(t, n.problem, t(n.what === 'imports' ? 'storage.what.imports' : 'storage.what.changes'));
  return t(n.key, n.params);
}

async function storageProblem(e: unknown): Promise<PersistProblem> {
  const err = toStorageError(e);
  const { usage, quota } = await storageEstimate();
  return { code: err.code, what: null, usage, quota, detail: err.message, detailCoded: { key: err.key, ...(err.params ? { params: err.params } : {}) } };
}

export function WorkspacePanel({ store, imports }: { store: KvscopeStore; imports: Imports }) {
  const t = useT();
  const describe = useDescribe();
  const fileInput = useRef<HTMLInputElement>(null);
  const [note, setNote] = useState<Note | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [useSettings, setUseSettings] = useState(false);
  const [busy, setBusy] = useState(false);

  const exportWorkspace = async () => {
    setBusy(true);
    try {
      const metas = await listImports().catch(() => []);
      const items = (await Promise.all(metas.map((m) => readImport(m.id)))).filter((i) => i !== null);
      const text = writeWorkspace(persistedOf(store.getState()), items, new Date());
      const blob = new Blob([text], { type: 'application/json' });
      const file = `kvscope-workspace-${new Date().toISOString().slice(0, 10)}.json`;
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = file;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setNote({ kind: 'ok', key: 'workspace.exported', params: { file, scenarios: store.getState().custom.length, imports: items.length, size: formatBytes(blob.size) } });
    } catch (e) {
      setNote({ kind: 'failed', key: 'workspace.exportFailed', params: { reason: describe(e) } });
    } finally {
      setBusy(false);
    }
  };

  const readFile = async (f: File) => {
    setPreview(null);
    setNote({ kind: 'progress', key: 'workspace.reading', params: { file: f.name } });
    // Refused before reading: a file this large would be held several times over while parsing.
    if (f.size > MAX_WORKSPACE_CHARS) {
      const error: WorkspaceError = { code: 'tooLarge', place: '(file)', params: { size: f.size, max: MAX_WORKSPACE_CHARS }, message: 'too large' };
      return setNote({ kind: 'refused', file: f.name, error });
    }
    const r = readWorkspace(await f.text());
    if (!r.ok) return setNote({ kind: 'refused', file: f.name, error: r.error });
    const metas = await listImports().catch(() => imports.items);
    setPreview({ file: f.name, workspace: r.workspace, plan: planMerge({ custom: store.getState().custom, imports: metas }, r.workspace, Date.now()) });
    setNote(null);
  };

  const apply = async () => {
    if (!preview) return;
    setBusy(true);
    try {
      // Planned again on what is here now (a scenario may have been added since the preview).
      const metas = await listImports().catch(() => imports.items);
      const plan = planMerge({ custom: store.getState().custom, imports: metas }, preview.workspace, Date.now());
      if (plan.overCap) return setPreview({ ...preview, plan });
      const items = newImports(plan);
      const db = browserDb();
      if (items.length > 0) {
        try {
          if (!db) throw new StorageError('unavailable', 'msg.import.store.noIdb');
          await db.putImports(items); // all or none
        } catch (e) {
          return setNote({ kind: 'storage', problem: await storageProblem(e), what: 'imports' });
        }
      }
      const custom = mergedScenarios(store.getState().custom, plan);
      store.setState(useSettings ? { ...plan.settings, custom, selectedToken: null } : { custom });
      await store.flushed?.();
      await imports.refresh();
      const added = plan.scenarios.filter((s) => s.status !== 'same').length;
      setPreview(null);
      const problem = store.getState().persistProblem;
      if (problem) return setNote({ kind: 'storage', problem, what: 'scenarios' });
      setNote({ kind: 'ok', key: useSettings ? 'workspace.doneSettings' : 'workspace.done', params: { scenarios: added, imports: items.length } });
    } finally {
      setBusy(false);
    }
  };

  const plan = preview?.plan;
  const same = plan ? plan.scenarios.filter((s) => s.status === 'same').length + plan.imports.filter((i) => i.status === 'same').length : 0;
  const adds = plan ? [...plan.scenarios, ...plan.imports].filter((x) => x.status !== 'same').length : 0;

  return (
    <section className="panel" data-role="workspace" aria-label={t('workspace.title')} style={{ display: 'grid', gap: 8 }}>
      <h3 style={{ fontSize: 'var(--fs-md)', margin: '4px 0' }}>{t('workspace.title')}</h3>
      <p style={{ margin: 0, lineHeight: 1.45 }}>{t('workspace.intro')}</p>
      <div style={{ display: 'flex', gap: 10, flexWrap: 'wrap', alignItems: 'center' }}>
        <button type="button" data-role="workspace-export" disabled={busy} onClick={() => void exportWorkspace()}>
          {t('workspace.export')}
        </button>
        <button type="button" data-role="workspace-import" disabled={busy} onClick={() => fileInput.current?.click()}>
          {t('workspace.import')}
        </button>
        <input
          ref={fileInput}
          type="file"
          accept=".json,application/json"
          data-role="workspace-file"
          style={{ display: 'none' }}
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (f) void readFile(f);
          }}
        />
      </div>
      {note && (
        <div
          role={note.kind === 'ok' || note.kind === 'progress' ? 'status' : 'alert'}
          data-role="workspace-note"
          data-kind={note.kind}
          style={{ background: note.kind === 'ok' ? '#e6f4ea' : note.kind === 'progress' ? '#f3f3f3' : 'var(--c-error-soft)', padding: '6px 10px', borderRadius: 4, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
        >
          {noteText(t, note, describe)}

        </div>
      )}
      {preview && plan && (
        <div data-role="workspace-preview" style={{ border: '1px solid var(--c-border)', borderRadius: 6, padding: 10, display: 'grid', gap: 6 }}>
          <div>
            {t('workspace.preview', {
              file: preview.file,
              when: preview.workspace.exportedAt ?? t('workspace.unknownDate'),
              scenarios: preview.workspace.scenarios.length,
              imports: preview.workspace.imports.length,
            })}
          </div>
          <ul data-role="workspace-changes" style={{ margin: 0, paddingLeft: 20, maxHeight: 220, overflow: 'auto' }}>
            {plan.scenarios
              .filter((s) => s.status !== 'same')
              .map((s) => (
                <li key={`s${s.id}`} data-status={s.status} data-kind="scenario">
                  {s.status === 'renamed' ? t('workspace.addRenamed', { from: s.from, name: s.name }) : t('workspace.add', { name: s.name })}
                </li>
              ))}
            {plan.imports
              .filter((i) => i.status !== 'same')
              .map((i) => (
                <li key={`i${i.id}`} data-status={i.status} data-kind="import">
                  {i.status === 'renamed' ? t('workspace.addImportRenamed', { from: i.from, name: i.name }) : t('workspace.addImport', { name: i.name })}
                </li>
              ))}
            {same > 0 && <li data-status="same">{t('workspace.same', { count: same })}</li>}
            {adds === 0 && <li>{t('workspace.nothingNew')}</li>}
          </ul>
          <label>
            <input type="checkbox" data-role="workspace-settings" checked={useSettings} onChange={(e) => setUseSettings(e.target.checked)} /> {t('workspace.useSettings')}
          </label>
          {plan.overCap && (
            <div role="alert" data-role="workspace-over-cap" style={{ color: 'var(--c-error)' }}>
              {t('workspace.overCap', { total: plan.overCap.total, max: plan.overCap.max, excess: plan.overCap.excess })}
            </div>
          )}
          <div style={{ display: 'flex', gap: 10 }}>
            <button type="button" data-role="workspace-apply" disabled={busy || plan.overCap !== null || (adds === 0 && !useSettings)} onClick={() => void apply()}>
              {t('workspace.apply')}
            </button>
            <button type="button" data-role="workspace-cancel" disabled={busy} onClick={() => setPreview(null)}>
              {t('workspace.cancel')}
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
