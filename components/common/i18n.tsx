'use client';
// The interface language for every component below <LangProvider>; components call useT() and never
// hold their own strings (they live in lib/i18n).
import { createContext, useCallback, useContext, type ReactNode } from 'react';
import { translate, type Lang, type Params, type StringKey } from '../../lib/i18n';

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
