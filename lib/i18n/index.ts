// Interface strings in English and 简体中文. Every visible label goes through `translate`, so a missing
// translation is a type error (the tables are `satisfies Dict`, which needs both languages).
import type { Dict, Entry, Lang } from './types';
import { commonStrings } from './common';
import { editorStrings } from './editor';
import { heatmapStrings } from './heatmap';
import { panelsStrings } from './panels';
import { kvStrings } from './kv';
import { economicsStrings } from './economics';
import { abStrings } from './ab';
import { stepStrings } from './step';
import { exportStrings } from './export';
import { runlogStrings } from './runlog';
import { importedStrings } from './imported';
import { dataStrings } from './data';
import { shellStrings } from './shell';
import { lessonsStrings } from './lessons';
import { streamingStrings } from './streaming';
import { loopStrings } from './loop';
import { lessonsAbStrings } from './lessonsAb';
import { lessonsSeedsStrings } from './lessonsSeeds';
import { modelsStrings } from './models';
import { storageStrings } from './storage';
import { msgImportStrings } from './msgImport';
import { msgModelStrings } from './msgModel';
import { msgEngineStrings } from './msgEngine';
import { copySourceStrings } from './copySource';

export type { Dict, Entry, Lang } from './types';
export { LANGS } from './types';

export const STRINGS = {
  ...commonStrings,
  ...editorStrings,
  ...heatmapStrings,
  ...panelsStrings,
  ...kvStrings,
  ...economicsStrings,
  ...abStrings,
  ...stepStrings,
  ...exportStrings,
  ...runlogStrings,
  ...importedStrings,
  ...dataStrings,
  ...shellStrings,
  ...lessonsStrings,
  ...streamingStrings,
  ...loopStrings,
  ...lessonsAbStrings,
  ...lessonsSeedsStrings,
  ...modelsStrings,
  ...storageStrings,
  ...msgImportStrings,
  ...msgModelStrings,
  ...msgEngineStrings,
  ...copySourceStrings,
} satisfies Dict;

export type StringKey = keyof typeof STRINGS;
export type Params = Record<string, string | number>;

/** The string for `key` in `lang` with `{name}` parameters filled in; an unknown parameter stays visible. */
export function translate(lang: Lang, key: StringKey, params?: Params): string {
  const entry: Entry = STRINGS[key];
  const text = entry[lang];
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

export function isLang(v: unknown): v is Lang {
  return v === 'en' || v === 'zh';
}
