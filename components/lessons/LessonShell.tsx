'use client';
// The frame of the lessons pages: the app's persisted store (the same language setting as the lab, read
// from IndexedDB as components/lab/Lab.tsx does), the header with the language switch, and
// presentation mode (?present=1; chrome marked data-chrome is hidden).
import { useEffect, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { Lang } from '../../lib/i18n';
import { createKvscopeStore, type KvscopeStore } from '../../lib/state/store';
import { LangProvider, useT } from '../common/i18n';
import { Header } from '../lab/TabBar';
import { usePresentation } from '../lab/usePresentation';
import { browserStoreOptions } from '../hooks/kvscopeDb';

const NO_TABS = ['attention'] as const;
const noop = () => {};

export function LessonShell({ children }: { children: (ctx: { lang: Lang; present: boolean }) => ReactNode }) {
  const [store] = useState<KvscopeStore>(() => createKvscopeStore(browserStoreOptions()));
  const lang = useStore(store, (s) => s.lang);
  const setLang = useStore(store, (s) => s.setLang);
  // Rehydration is explicit (lib/state/store): the saved language comes back after the first render.
  useEffect(() => {
    void store.persist.rehydrate();
  }, [store]);
  useEffect(() => {
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  }, [lang]);
  const { present, setPresent } = usePresentation(NO_TABS, 'attention', noop);
  return (
    <LangProvider lang={lang}>
      <main style={{ padding: 'var(--sp-3) var(--sp-5) 40px', display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 'var(--sp-3)', maxWidth: 1400 }}>
        <div data-chrome="">
          <Header lang={lang} onLang={setLang}>
            <ShellLinks present={present} onPresent={setPresent} />
          </Header>
        </div>
        {present && <ExitPresent onExit={() => setPresent(false)} />}
        {children({ lang, present })}
      </main>
    </LangProvider>
  );
}

function ShellLinks({ present, onPresent }: { present: boolean; onPresent: (on: boolean) => void }) {
  const t = useT();
  return (
    <span style={{ display: 'flex', gap: 'var(--sp-3)', alignItems: 'center' }}>
      <a href="/lessons/" data-role="lessons-home">
        {t('lessons.title')}
      </a>
      <a href="/">{t('lessons.lab')}</a>
      <button data-role="present" aria-pressed={present} onClick={() => onPresent(!present)}>
        {t('lessons.present')}
      </button>
    </span>
  );
}

/** In presentation mode the header is hidden: a small button (not chrome) leaves it. */
function ExitPresent({ onExit }: { onExit: () => void }) {
  const t = useT();
  return (
    <button data-role="exit-present" onClick={onExit} style={{ position: 'fixed', top: 6, right: 8, fontSize: 'var(--fs-xs)', opacity: 0.6, zIndex: 5 }}>
      {t('lessons.exitPresent')}
    </button>
  );
}
