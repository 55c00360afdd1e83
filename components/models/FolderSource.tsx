'use client';
// A model folder on this computer: a directory input (every browser with webkitdirectory), a drop zone (a
// dropped folder, or its files), and showDirectoryPicker where the browser has it. Files are read where they
// lie: preflight slices the safetensors headers, and the worker reads the rest when the user clicks Load.
import { useRef, useState, type ReactNode } from 'react';
import { filesFromDirectoryHandle, filesFromDroppedEntries, type DirectoryHandleLike, type DroppedEntryLike, type FolderEntry } from '../../lib/model/source/folder';
import { cleanFolderLabel } from '../../lib/state/modelChoice';
import { useT } from '../common/i18n';
import { normaliseEntries } from './folderRegistry';

/** A picked folder: its label and every file with its path inside it (the shared top folder removed). */
export interface PickedFolder {
  label: string;
  entries: FolderEntry[];
}

/** Entries as picked, with their common folder stripped and a label: the folder's name, or the given one. */
export function pickedFolder(raw: readonly FolderEntry[], name?: string): PickedFolder | null {
  if (raw.length === 0) return null;
  const { entries, top } = normaliseEntries(raw);
  return { label: cleanFolderLabel(name ?? top ?? 'files') ?? 'files', entries };
}

type PickerWindow = Window & { showDirectoryPicker?: (o?: { mode?: 'read' }) => Promise<DirectoryHandleLike> };

export function FolderSource({ onPicked, onError, children }: { onPicked: (f: PickedFolder) => void; onError: (e: unknown) => void; children: ReactNode }) {
  const t = useT();
  const [over, setOver] = useState(false);
  const [reading, setReading] = useState(false);
  const [picked, setPicked] = useState<{ label: string; count: number } | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const hasPicker = typeof window !== 'undefined' && typeof (window as PickerWindow).showDirectoryPicker === 'function';

  const take = async (read: () => Promise<{ entries: FolderEntry[]; name?: string }>) => {
    setReading(true);
    try {
      const { entries, name } = await read();
      const f = pickedFolder(entries, name);
      if (!f) {
        setPicked(null);
        onError(new Error(t('models.folderEmpty')));
        return;
      }
      setPicked({ label: f.label, count: f.entries.length });
      onPicked(f);
    } catch (e) {
      // Closing the system picker is not an error.
      if (!(e instanceof Error && e.name === 'AbortError')) onError(e);
    } finally {
      setReading(false);
    }
  };

  return (
    <section aria-labelledby="model-folder-title" style={{ display: 'grid', gap: 'var(--sp-2)' }}>
      <h3 id="model-folder-title" style={{ margin: 0, fontSize: 'var(--fs-md)' }}>
        {t('models.folderTitle')}
      </h3>
      <div
        data-role="folder-drop"
        data-over={over ? 'true' : 'false'}
        className="controls"
        style={{ border: `2px dashed ${over ? 'var(--c-accent)' : 'var(--c-border-strong)'}`, background: over ? 'var(--c-accent-soft)' : 'transparent', borderRadius: 'var(--radius)', padding: 'var(--sp-2) var(--sp-3)' }}
        onDragOver={(e) => {
          e.preventDefault();
          e.stopPropagation();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          e.stopPropagation();
          setOver(false);
          // Entries must be taken during the event: the DataTransfer is emptied once the handler returns.
          const items = [...e.dataTransfer.items].map((i) => i.webkitGetAsEntry?.() ?? null).filter((x): x is FileSystemEntry => x !== null);
          const files = [...e.dataTransfer.files];
          void take(async () => {
            if (items.length === 0) return { entries: files.map((f) => ({ path: f.name, file: f })) };
            const only = items.length === 1 && items[0]!.isDirectory ? items[0]!.name : undefined;
            return { entries: await filesFromDroppedEntries(items as unknown as DroppedEntryLike[]), name: only };
          });
        }}
      >
        <label style={{ display: 'flex', gap: 'var(--sp-2)', alignItems: 'center' }}>
          {t('models.folderPick')}
          <input
            ref={input}
            type="file"
            multiple
            data-role="folder-input"
            // webkitdirectory is not in React's types; every current browser supports it.
            {...({ webkitdirectory: '', directory: '' } as Record<string, string>)}
            onChange={(e) => {
              const list = [...(e.target.files ?? [])];
              e.target.value = ''; // the same folder picked again fires a change
              void take(async () => ({ entries: list.map((f) => ({ path: f.webkitRelativePath || f.name, file: f })) }));
            }}
          />
        </label>
        {hasPicker && (
          <button
            type="button"
            data-role="folder-picker"
            onClick={() =>
              void take(async () => {
                const handle = await (window as PickerWindow).showDirectoryPicker!({ mode: 'read' });
                return { entries: await filesFromDirectoryHandle(handle), name: handle.name };
              })
            }
          >
            {t('models.folderPicker')}
          </button>
        )}
        <span className="muted small">{t('models.folderDrop')}</span>
      </div>
      {reading && (
        <div role="status" className="small">
          <progress style={{ width: 90, verticalAlign: 'middle' }} /> {t('models.folderReading')}
        </div>
      )}
      {picked && !reading && (
        <div className="small muted" data-role="folder-picked">
          {t('models.folderFiles', { label: picked.label, count: picked.count })}
        </div>
      )}
      {children}
    </section>
  );
}
