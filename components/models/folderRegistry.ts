// Folder models' files, kept for the page's lifetime: File objects cannot be persisted, so the store only
// names a folder (`folder:<label>`) and the engine finds its files here. Each registration gets a new
// generation, so picking a folder with the same name again loads the new files.
import { stripCommonFolder, type FolderEntry } from '../../lib/model/source/folder';

export interface RegisteredFolder {
  label: string;
  /** Every file with its path inside the folder (for the page's preflight). */
  entries: FolderEntry[];
  /** Bumped on each registration. */
  generation: number;
}

const folders = new Map<string, RegisteredFolder>();
let generation = 0;

export function registerFolder(label: string, entries: FolderEntry[]): RegisteredFolder {
  const f = { label, entries, generation: ++generation };
  // One folder at a time: a tab cannot hold two large checkpoints, and the old File objects can go.
  folders.clear();
  folders.set(label, f);
  return f;
}

export function registeredFolder(label: string): RegisteredFolder | null {
  return folders.get(label) ?? null;
}

/** The folder open in this page, if any (listed in the model picker after the user switched away from it). */
export function currentFolder(): RegisteredFolder | null {
  return [...folders.values()][0] ?? null;
}

/**
 * The files the worker reads: the folder's top-level files as File objects. Structured clone keeps a File's
 * name but not its webkitRelativePath, and every file a checkpoint needs sits at the top of its folder, so
 * names alone are unambiguous there (a subfolder such as `original/` could otherwise shadow them).
 */
export function workerFiles(f: RegisteredFolder): File[] {
  const top = f.entries.filter((e) => !e.path.includes('/'));
  return top.map((e) => e.file as File);
}

/** Entries with the folder every path shares removed (`my-model/config.json` → `config.json`), and that folder's name. */
export function normaliseEntries(entries: readonly FolderEntry[]): { entries: FolderEntry[]; top: string | null } {
  const paths = entries.map((e) => e.path.replace(/\\/g, '/').replace(/^\/+/, ''));
  const { top, strip } = stripCommonFolder(paths);
  return { entries: entries.map((e, i) => ({ path: paths[i]!.split('/').slice(strip).join('/'), file: e.file })), top };
}
