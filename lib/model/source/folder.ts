// A model folder the user handed to the page: picked with <input webkitdirectory>, dropped, or opened with
// showDirectoryPicker. Files are read where they lie (File.slice), so a range read of a safetensors header
// never loads the weights. Types are structural, so lib/ needs no DOM lib and Node tests can pass fakes.

import { ModelSourceError, type FileProgress, type ModelFiles, type ProgressFn } from './types';

/** The part of a browser File used here. */
export interface FileLike {
  readonly name: string;
  readonly size: number;
  /** `my-model/config.json` for files from <input webkitdirectory>; empty or absent otherwise. */
  readonly webkitRelativePath?: string;
  slice(start?: number, end?: number): { arrayBuffer(): Promise<ArrayBuffer> };
  arrayBuffer(): Promise<ArrayBuffer>;
  text(): Promise<string>;
}

/** A file with the path it has inside the picked or dropped folder. */
export interface FolderEntry {
  path: string;
  file: FileLike;
}

/** The part of a FileSystemDirectoryHandle (showDirectoryPicker) used here. */
export interface DirectoryHandleLike {
  readonly kind: 'directory';
  readonly name: string;
  values(): AsyncIterable<DirectoryHandleLike | FileHandleLike>;
}

export interface FileHandleLike {
  readonly kind: 'file';
  readonly name: string;
  getFile(): Promise<FileLike>;
}

/** The part of a FileSystemEntry (DataTransferItem.webkitGetAsEntry() on a drop) used here. */
export interface DroppedEntryLike {
  readonly isFile: boolean;
  readonly isDirectory: boolean;
  readonly name: string;
  file?(success: (f: FileLike) => void, failure?: (e: unknown) => void): void;
  createReader?(): { readEntries(success: (entries: DroppedEntryLike[]) => void, failure?: (e: unknown) => void): void };
}

// A Hugging Face model folder is flat or one level deep (e.g. `onnx/`); deeper trees are not model files,
// and dot-folders (`.git`, `.cache/huggingface`) hold only metadata.
const MAX_DEPTH = 3;
const skipDir = (name: string) => name.startsWith('.');

/** Files of a directory handle (showDirectoryPicker), with paths relative to it. */
export async function filesFromDirectoryHandle(handle: DirectoryHandleLike, depth = 0, prefix = ''): Promise<FolderEntry[]> {
  const out: FolderEntry[] = [];
  for await (const child of handle.values()) {
    if (child.kind === 'file') out.push({ path: prefix + child.name, file: await child.getFile() });
    else if (depth + 1 < MAX_DEPTH && !skipDir(child.name)) out.push(...(await filesFromDirectoryHandle(child, depth + 1, `${prefix}${child.name}/`)));
  }
  return out;
}

/** Files of dropped entries (a dropped folder, or several dropped files), with paths from the drop's root. */
export async function filesFromDroppedEntries(entries: readonly DroppedEntryLike[], depth = 0, prefix = ''): Promise<FolderEntry[]> {
  const out: FolderEntry[] = [];
  for (const e of entries) {
    if (e.isFile && e.file) {
      const read = e.file.bind(e);
      out.push({ path: prefix + e.name, file: await new Promise<FileLike>((res, rej) => read(res, rej)) });
    } else if (e.isDirectory && e.createReader && depth < MAX_DEPTH && !skipDir(e.name)) {
      const reader = e.createReader();
      // readEntries returns the children in batches (100 in Chromium) until an empty batch.
      const children: DroppedEntryLike[] = [];
      for (;;) {
        const batch = await new Promise<DroppedEntryLike[]>((res, rej) => reader.readEntries(res, rej));
        if (batch.length === 0) break;
        children.push(...batch);
      }
      out.push(...(await filesFromDroppedEntries(children, depth + 1, `${prefix}${e.name}/`)));
    }
  }
  return out;
}

function isEntry(x: FileLike | FolderEntry): x is FolderEntry {
  return typeof (x as FolderEntry).path === 'string' && typeof (x as FolderEntry).file === 'object';
}

/** Removes the folder prefix every path shares, so `my-model/config.json` is read as `config.json`. */
export function stripCommonFolder(paths: readonly string[]): { top: string | null; strip: number } {
  if (paths.length === 0) return { top: null, strip: 0 };
  const split = paths.map((p) => p.split('/'));
  let n = 0;
  for (;;) {
    const seg = split[0]![n];
    // Only whole folders are stripped: every path must have a further segment after the shared one.
    if (seg === undefined || !split.every((s) => s.length > n + 1 && s[n] === seg)) break;
    n++;
  }
  return { top: n > 0 ? split[0]![n - 1]! : null, strip: n };
}

const CHUNK = 64 << 20;

export class FolderFiles implements ModelFiles {
  readonly kind = 'folder' as const;
  readonly label: string;
  /** The folder's name (the label without "folder "). */
  readonly folderName: string;
  private readonly files = new Map<string, FileLike>();

  /** `files` from <input webkitdirectory> (paths from webkitRelativePath), or entries with their paths. */
  constructor(files: Iterable<FileLike | FolderEntry>, name?: string, private readonly now: () => number = () => performance.now()) {
    const list = [...files].map((f) => (isEntry(f) ? f : { path: f.webkitRelativePath || f.name, file: f }));
    const paths = list.map((e) => e.path.replace(/\\/g, '/').replace(/^\/+/, ''));
    const { top, strip } = stripCommonFolder(paths);
    list.forEach((e, i) => this.files.set(paths[i]!.split('/').slice(strip).join('/'), e.file));
    this.folderName = name ?? top ?? 'files';
    this.label = `folder ${this.folderName}`;
  }

  /** Paths of every file, relative to the model folder. */
  async list(): Promise<string[]> {
    return [...this.files.keys()].sort();
  }

  private missing(name: string): ModelSourceError {
    return new ModelSourceError('not_found', 'msg.model.src.folderMissing', { name: this.folderName, file: name });
  }

  async size(name: string): Promise<number | null> {
    return this.files.get(name)?.size ?? null;
  }

  async text(name: string): Promise<string | null> {
    const f = this.files.get(name);
    return f ? f.text() : null;
  }

  async range(name: string, start: number, end: number, signal?: AbortSignal): Promise<Uint8Array> {
    const f = this.files.get(name);
    if (!f) throw this.missing(name);
    if (signal?.aborted) throw new ModelSourceError('aborted', 'msg.model.src.readCancelled', { file: name });
    const e = Math.min(end, f.size);
    return e <= start ? new Uint8Array(0) : new Uint8Array(await f.slice(start, e).arrayBuffer());
  }

  /** Reads in 64 MiB slices so a large shard reports progress and a cancel takes effect between slices. */
  async bytes(name: string, onProgress?: ProgressFn, signal?: AbortSignal): Promise<Uint8Array> {
    const f = this.files.get(name);
    if (!f) throw this.missing(name);
    const t0 = this.now();
    const out = new Uint8Array(f.size);
    const report = (loaded: number) => {
      const dt = (this.now() - t0) / 1000;
      const rate = dt > 0 ? loaded / dt : 0;
      const p: FileProgress = { file: name, loaded, total: f.size, bytesPerSecond: rate, etaSeconds: rate > 0 ? (f.size - loaded) / rate : null, cached: false };
      onProgress?.(p);
    };
    report(0);
    for (let o = 0; o < f.size; o += CHUNK) {
      if (signal?.aborted) throw new ModelSourceError('aborted', 'msg.model.src.readCancelled', { file: name });
      const part = new Uint8Array(await f.slice(o, Math.min(f.size, o + CHUNK)).arrayBuffer());
      out.set(part, o);
      report(o + part.length);
    }
    return out;
  }
}
