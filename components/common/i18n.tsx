'use client';
// The interface language for every component below <LangProvider>; components call useT() and never
// hold their own strings (they live in lib/i18n).
import { createContext, useCallback, useContext, type ReactNode } from 'react';
import { translate, type Lang, type Params, type StringKey } from '../../lib/i18n';
import { describe } from '../../lib/i18n/message';

const LangContext = createContext<Lang>('en');

export function LangProvider({ lang, children }: { lang: Lang; children: ReactNode }) {
  return <LangContext.Provider value={lang}>{children}</LangContext.Provider>;
}

export type T = (key: StringKey, params?: Params) => string;

export function useT(): T {
  const lang = useContext(LangContext);
  return useCallback((key: StringKey, params?: Params) => translate(lang, key, params), [lang]);
}

export function useLang(): Lang {
  return useContext(LangContext);
}

/** Text for an error or note from lib/ in the interface language (its coded message, else its text). */
export function useDescribe(): (v: unknown) => string {
  const lang = useContext(LangContext);
  return useCallback((v: unknown) => describe(lang, v), [lang]);
}
