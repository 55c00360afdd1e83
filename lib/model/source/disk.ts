// A model folder on disk, for the CLI (Node only: imported by CLI code, never by the page or the worker).
// Range reads go through a file descriptor, so reading a safetensors header does not read the weights.

import { open, readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { ModelSourceError, type ModelFiles, type ProgressFn } from './types';

const CHUNK = 64 << 20;

export class DiskFiles implements ModelFiles {
  readonly kind = 'disk' as const;
  readonly label: string;
  readonly dir: string;

  constructor(dir: string, label?: string, private readonly now: () => number = () => performance.now()) {
    this.dir = resolve(dir);
    this.label = label ?? dir;
  }

  /** The file's path, refusing names that would leave the folder (`..`, absolute paths). */
  private path(name: string): string {
    const segs = name.split(/[\\/]/);
    if (name === '' || name.startsWith('/') || /^[A-Za-z]:/.test(name) || segs.some((s) => s === '..' || s === '')) {
      throw new ModelSourceError('not_found', 'msg.model.src.diskBadName', { file: name, dir: this.dir });
    }
    return join(this.dir, ...segs);
  }

  private missing(name: string): ModelSourceError {
    return new ModelSourceError('not_found', 'msg.model.src.diskMissing', { path: join(this.dir, name), file: name, dir: this.dir });
  }

  async size(name: string): Promise<number | null> {
    try {
      const s = await stat(this.path(name));
      return s.isFile() ? s.size : null;
    } catch {
      return null;
    }
  }

  async text(name: string): Promise<string | null> {
    if ((await this.size(name)) === null) return null;
    return readFile(this.path(name), 'utf8');
  }

  async range(name: string, start: number, end: number, signal?: AbortSignal): Promise<Uint8Array> {
    if (signal?.aborted) throw new ModelSourceError('aborted', 'msg.model.src.readCancelled', { file: name });
    const size = await this.size(name);
    if (size === null) throw this.missing(name);
    const e = Math.min(end, size);
    if (e <= start) return new Uint8Array(0);
    const fh = await open(this.path(name), 'r');
    try {
      const out = new Uint8Array(e - start);
      let got = 0;
      while (got < out.length) {
        const { bytesRead } = await fh.read(out, got, out.length - got, start + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      return got === out.length ? out : out.slice(0, got);
    } finally {
      await fh.close();
    }
  }

  /** Reads in 64 MiB pieces into one buffer, reporting progress and honouring a cancel between pieces. */
  async bytes(name: string, onProgress?: ProgressFn, signal?: AbortSignal): Promise<Uint8Array> {
    const size = await this.size(name);
    if (size === null) throw this.missing(name);
    const fh = await open(this.path(name), 'r');
    const t0 = this.now();
    try {
      const out = new Uint8Array(size);
      let got = 0;
      const report = () => {
        const dt = (this.now() - t0) / 1000;
        const rate = dt > 0 ? got / dt : 0;
        onProgress?.({ file: name, loaded: got, total: size, bytesPerSecond: rate, etaSeconds: rate > 0 ? (size - got) / rate : null, cached: false });
      };
      report();
      while (got < size) {
        if (signal?.aborted) throw new ModelSourceError('aborted', 'msg.model.src.readCancelled', { file: name });
        const { bytesRead } = await fh.read(out, got, Math.min(CHUNK, size - got), got);
        if (bytesRead === 0) throw new ModelSourceError('network', 'msg.model.src.diskShort', { path: join(this.dir, name), got, size, file: name });
        got += bytesRead;
        report();
      }
      return out;
    } finally {
      await fh.close();
    }
  }

  /** Every file under the folder (one level of subfolders, dot-folders skipped), relative paths. */
  async list(): Promise<string[]> {
    const out: string[] = [];
    const walk = async (dir: string, prefix: string, depth: number) => {
      for (const d of await readdir(dir, { withFileTypes: true })) {
        if (d.name.startsWith('.')) continue;
        if (d.isDirectory()) {
          if (depth < 2) await walk(join(dir, d.name), `${prefix}${d.name}/`, depth + 1);
        } else if (d.isFile() || d.isSymbolicLink()) out.push(prefix + d.name);
      }
    };
    await walk(this.dir, '', 0);
    return out.sort();
  }

  get name(): string {
    return basename(this.dir);
  }
}
