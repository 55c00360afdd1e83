'use client';
// The "Your data" tab: the import box (files, drop, paste), the list of imported run logs and attention
// files kept in this browser, and the selected one's view. Reading and checking happen in lib/io/importData
// (through useImports); this file only lays them out.
import { useRef, useState } from 'react';
import { formatBytes } from '../../lib/analysis/kvBytes';
import { useDescribe, useT, type T } from '../common/i18n';
import { ViewHeader } from '../common/ViewHeader';
import type { Imports, ImportNote } from '../hooks/useImports';
import { RunLogView } from './RunLogView';
import { ImportedAttentionView } from './ImportedAttentionView';
import { ParseProgress } from './ParseProgress';
import type { CompareEngine } from './useImportCompare';

/** `engine`: the page's engine and its loaded model, for the imported view's "Compare with the engine" (null: none ready). */
export function DataLab({ imports, engine = null }: { imports: Imports; engine?: CompareEngine | null }) {
  const t = useT();
  const describe = useDescribe();
  const fileInput = useRef<HTMLInputElement>(null);
  const { paste, setPaste } = imports;
  const [over, setOver] = useState(false);
  const { items, selected, loaded } = imports;
  const current = items.find((i) => i.id === selected) ?? null;

  return (
    <section aria-label={t('data.title')} data-role="data-lab" style={{ display: 'grid', gap: 'var(--sp-3)' }}>
      <ViewHeader
        title={t('data.title')}
        facts={current ? [{ key: 'shown', label: null, value: current.name }, { key: 'kind', label: null, value: t(current.kind === 'runlog' ? 'data.kind.runlog' : 'data.kind.attention') }] : []}
      />
      {/* The shown import first (the tab's main visual); importing and the list below it. */}
      {current && (
        <div className="panel" data-role="data-view">
        {current && (!loaded || loaded.id !== current.id) && (
          <div aria-live="polite">
            <progress style={{ width: 120, verticalAlign: 'middle' }} /> {t('data.loading', { name: current.name })}
            {imports.note?.kind !== 'progress' && <ParseProgress />}
          </div>
        )}
        {current && loaded && loaded.id === current.id && (
          'error' in loaded ? (
            <div role="alert" style={{ color: 'var(--c-error)' }}>{t('data.loadFailed', { name: current.name, reason: describe(loaded.failure ?? loaded.error) })}</div>
          ) : !loaded.outcome.ok ? (
            <div role="alert" style={{ color: 'var(--c-error)', whiteSpace: 'pre-wrap' }}>{t('data.loadFailed', { name: current.name, reason: describe(loaded.outcome.coded ?? loaded.outcome.error) })}</div>
          ) : loaded.outcome.kind === 'runlog' ? (
            <RunLogView key={current.id} log={loaded.outcome.log} name={current.name} notes={loaded.outcome.codedNotes ?? loaded.outcome.notes} />
          ) : loaded.outcome.kind === 'attention' ? (
            <ImportedAttentionView key={current.id} attention={loaded.outcome.attention} name={current.name} engine={engine} />
          ) : null
        )}
        </div>
      )}
      <div data-role={current ? 'view-secondary' : undefined} style={{ display: 'flex', gap: 'var(--sp-3)', flexWrap: 'wrap', alignItems: 'flex-start' }}>
      <div className="panel" style={{ display: 'grid', gap: 8, flex: '1 1 480px', minWidth: 0 }}>
        <p style={{ margin: 0, lineHeight: 1.45 }}>{t('data.intro')}</p>
        <div
          data-role="drop-zone"
          onDragOver={(e) => {
            if (!e.dataTransfer.types.includes('Files')) return;
            e.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={(e) => {
            e.preventDefault();
            e.stopPropagation();
            setOver(false);
            void imports.importFiles(e.dataTransfer.files);
          }}
          style={{ border: `2px dashed ${over ? '#4477AA' : '#aaa'}`, background: over ? '#eef4fb' : '#fafafa', borderRadius: 6, padding: 12, display: 'grid', gap: 8 }}
        >
          <div style={{ display: 'flex', gap: 10, alignItems: 'center', flexWrap: 'wrap' }}>
            <button data-role="choose-files" onClick={() => fileInput.current?.click()}>
              {t('data.choose')}
            </button>
            <span style={{ color: 'var(--c-muted)' }}>{t('data.dropHere')}</span>
            <input
              ref={fileInput}
              type="file"
              multiple
              accept=".json,.txt,.safetensors,application/json,text/plain"
              data-role="file-input"
              style={{ display: 'none' }}
              onChange={(e) => {
                if (e.target.files) void imports.importFiles(e.target.files);
                e.target.value = '';
              }}
            />
          </div>
          <label style={{ display: 'grid', gap: 4 }}>
            <span>{t('data.pasteLabel')}</span>
            <textarea
              data-role="paste-box"
              value={paste.text}
              onChange={(e) => setPaste({ ...paste, text: e.target.value })}
              rows={6}
              spellCheck={false}
              placeholder={t('data.pastePlaceholder')}
              style={{ font: 'var(--fs-xs) var(--font-mono)', width: '100%', boxSizing: 'border-box' }}
            />
          </label>
          <div style={{ display: 'flex', gap: 10, alignItems: 'center', flexWrap: 'wrap' }}>
            <label>
              {t('data.pasteName')}{' '}
              <input data-role="paste-name" value={paste.name} placeholder={t('data.pasteDefaultName')} onChange={(e) => setPaste({ ...paste, name: e.target.value })} style={{ width: 220 }} />
            </label>
            <button data-role="paste-import" disabled={!paste.text.trim()} onClick={() => void imports.importInput(paste.text, paste.name.trim() || t('data.pasteDefaultName'))}>
              {t('data.pasteButton')}
            </button>
          </div>
          <div style={{ fontSize: 'var(--fs-xs)', color: 'var(--c-muted)', lineHeight: 1.4 }}>{t('data.formats')}</div>
        </div>
      </div>

      <div className="panel" style={{ display: 'grid', gap: 6, flex: '1 1 480px', minWidth: 0, overflowX: 'auto' }}>
        <h3 style={{ fontSize: 'var(--fs-md)', margin: '4px 0' }}>
          {t('data.list')} <span style={{ fontWeight: 400, fontSize: 'var(--fs-xs)', color: 'var(--c-muted)' }}>— {t('data.listNote')}</span>
        </h3>
        {imports.dbError && <div style={{ color: 'var(--c-warn)', fontSize: 'var(--fs-sm)' }}>{t('data.notKept', { reason: describe(imports.dbError) })}</div>}
        {items.length === 0 ? (
          <div style={{ color: 'var(--c-muted)' }}>{t('data.empty')}</div>
        ) : (
          <table data-role="import-list" style={{ borderCollapse: 'collapse', fontSize: 'var(--fs-sm)' }}>
            <tbody>
              {items.map((i) => (
                <tr key={i.id} data-import-id={i.id} aria-selected={i.id === selected} style={{ background: i.id === selected ? '#eef4fb' : undefined }}>
                  <td style={{ padding: '3px 8px' }}>
                    <button data-role="import-show" onClick={() => imports.select(i.id)} aria-pressed={i.id === selected}>
                      {t('data.show')}
                    </button>
                  </td>
                  <td style={{ padding: '3px 8px' }}>
                    <NameInput key={i.name} value={i.name} label={t('data.rename')} onCommit={(n) => void imports.rename(i.id, n)} />
                  </td>
                  <td style={{ padding: '3px 8px', color: 'var(--c-muted)' }}>{t(i.kind === 'runlog' ? 'data.kind.runlog' : 'data.kind.attention')}</td>
                  <td style={{ padding: '3px 8px', color: 'var(--c-muted)', textAlign: 'right' }}>{formatBytes(i.size)}</td>
                  <td style={{ padding: '3px 8px', color: 'var(--c-muted)' }}>{new Date(i.createdAt).toISOString().slice(0, 16).replace('T', ' ')}</td>
                  <td style={{ padding: '3px 8px' }}>
                    <button data-role="import-delete" onClick={() => window.confirm(t('data.deleteConfirm', { name: i.name })) && void imports.remove(i.id)}>
                      {t('data.delete')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>

      </div>
    </section>
  );
}

/** A name field that writes on blur or Enter: one storage write per rename, not one per keystroke. */
function NameInput({ value, label, onCommit }: { value: string; label: string; onCommit: (name: string) => void }) {
  const [v, setV] = useState(value);
  const commit = () => v.trim() && v !== value && onCommit(v);
  return (
    <input
      data-role="import-name"
      aria-label={label}
      value={v}
      onChange={(e) => setV(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => e.key === 'Enter' && commit()}
      style={{ width: 260 }}
    />
  );
}

/** The outcome of the last import, shown near the top of the page whatever the tab. */
export function ImportNoteView({ note, onDismiss, onOpenAnyway }: { note: ImportNote; onDismiss: () => void; onOpenAnyway: (name: string, text: string) => void }) {
  const t = useT();
  const describe = useDescribe();
  return (
    <div
      role={note.kind === 'error' ? 'alert' : 'status'}
      data-role="import-note"
      data-kind={note.kind}
      style={{ background: note.kind === 'error' ? '#fde2e1' : note.kind === 'ok' ? '#e6f4ea' : '#f3f3f3', padding: '6px 10px', borderRadius: 4, fontSize: 'var(--fs-sm)', maxWidth: 1100 }}
    >
      {note.kind === 'progress' && <progress style={{ width: 80, verticalAlign: 'middle', marginRight: 6 }} />}
      <strong>{translateNote(t, note)}</strong>{' '}
      <button onClick={onDismiss} aria-label={t('data.dismiss')} style={{ border: 'none', background: 'none', cursor: 'pointer', float: 'right' }}>
        ✕
      </button>
      {note.kind === 'progress' && <ParseProgress />}
      {note.lines.length > 0 && (
        <div data-role="import-note-lines" style={{ whiteSpace: 'pre-wrap', fontFamily: 'ui-monospace, monospace', fontSize: 'var(--fs-xs)', marginTop: 4, maxHeight: 180, overflow: 'auto', overflowWrap: 'anywhere' }}>
          {note.lines.map(describe).join('\n')}

        </div>
      )}
      {note.openAnyway && (
        <button data-role="open-anyway" style={{ marginTop: 6 }} onClick={() => onOpenAnyway(note.openAnyway!.name, note.openAnyway!.text)}>
          {t('data.openAnyway')}
        </button>
      )}
    </div>
  );
}

function translateNote(t: T, note: ImportNote): string {
  const params = { ...note.params };
  if (note.key === 'data.importedRunlog' && typeof params.form === 'string') {
    const key = `data.form.${params.form}` as 'data.form.list';
    params.form = ['result-json', 'page-capture', 'list'].includes(params.form) ? t(key) : params.form;
  }
  return t(note.key, params);
}
