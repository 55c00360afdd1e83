// File names for exported views: a stem from the view's name that is safe on every common file system
// (letters of any script, digits, '.', '_' and '-'; nothing that names a device on Windows), plus the
// extension. Pure; used by components/ExportFrame.

export type ExportExt = 'png' | 'svg' | 'json';

export const FALLBACK_STEM = 'kvscope-export';
export const MAX_STEM = 120;

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/**
 * A file-name stem from `name`: runs of anything but letters, digits, '.', '_' and '-' become one '-',
 * leading/trailing dots and dashes are dropped, at most MAX_STEM characters (whole code points), and
 * FALLBACK_STEM when nothing is left. A Windows device name (CON, NUL, COM1 …) gets a leading '_'.
 */
export function sanitizeFilename(name: string): string {
  let s = String(name ?? '')
    .normalize('NFC')
    .replace(/[^\p{L}\p{M}\p{N}._-]+/gu, '-')
    .replace(/-{2,}/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[.-]+|[.-]+$/g, '');
  const cps = Array.from(s);
  if (cps.length > MAX_STEM) s = cps.slice(0, MAX_STEM).join('').replace(/[.-]+$/g, '');
  if (!s) return FALLBACK_STEM;
  if (WINDOWS_RESERVED.test(s.split('.')[0]!)) s = `_${s}`;
  return s;
}

/** The download name of `name` as a .png, .svg or .json file. */
export function exportFilename(name: string, ext: ExportExt): string {
  return `${sanitizeFilename(name)}.${ext}`;
}
