// Types of scripts/ort-runtime.mjs (a plain ES module that scripts/copy-ort.mjs runs without a compiler).
export function runtimeFilesIn(text: string): string[];
export function runtimeClosure(names: Iterable<string>, read: (name: string) => string | undefined): { files: string[]; missing: string[] };
export function folderReader(dir: string): (name: string) => string | undefined;
export function ortSpecifiers(source: string): string[];
export const BROWSER_CONDITIONS: string[];
export function resolveBrowserImport(
  spec: string,
  opts?: { root?: string; resolveAlias?: Record<string, false | string | string[] | Record<string, false | string | string[]>> },
): string;
