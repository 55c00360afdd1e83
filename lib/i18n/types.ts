// Shapes shared by the string tables. Each area of the interface keeps its own table (one file per area)
// so that parallel work on different views never edits the same file; index.ts merges them.
export type Lang = 'en' | 'zh';
export const LANGS: readonly Lang[] = ['en', 'zh'];
/** One interface string in both languages. `{name}` marks a parameter filled in by `translate`. */
export interface Entry {
  en: string;
  zh: string;
}
export type Dict = Record<string, Entry>;
