'use client';
// The page's header (title, tagline, language switch) and the bar of tabs, which also holds the
// presentation-mode switch (the tab bar stays visible while presenting, so views can still be changed).
import type { ReactNode } from 'react';
import type { Lang } from '../../lib/i18n';
import type { Tab } from '../../lib/state/store';
import { useT } from '../common/i18n';

/** The tabs in the order the bar shows them (and presentation mode steps through). */
export const TAB_ORDER: readonly Tab[] = ['attention', 'step', 'ab', 'kv', 'data'];

export function TabBar({ value, onChange, present, onPresent }: { value: Tab; onChange: (t: Tab) => void; present: boolean; onPresent: (on: boolean) => void }) {
  const t = useT();
  return (
    <nav style={{ display: 'flex', alignItems: 'flex-end', gap: 'var(--sp-2)', borderBottom: '1px solid var(--c-border)' }}>
      <div role="tablist" style={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        {TAB_ORDER.map((id) => (
          <button
            key={id}
            role="tab"
            aria-selected={value === id}
            data-tab={id}
            onClick={() => onChange(id)}
            style={{
              padding: '6px 16px',
              border: 'none',
              borderRadius: 0,
              borderBottom: value === id ? '3px solid var(--c-accent)' : '3px solid transparent',
              background: 'none',
              color: value === id ? 'var(--c-text)' : 'var(--c-muted)',
              fontWeight: value === id ? 600 : 400,
              fontSize: 'var(--fs-md)',
            }}
          >
            {t(`tab.${id}`)}
          </button>
        ))}
      </div>
      <span style={{ marginLeft: 'auto', display: 'flex', gap: 'var(--sp-2)', alignItems: 'center', paddingBottom: 4 }}>
        {present && <span className="muted small">{t('present.keys')}</span>}
        <button type="button" data-role="present-toggle" aria-pressed={present} title={t('present.title')} onClick={() => onPresent(!present)}>
          {present ? t('present.off') : `▶ ${t('present.on')}`}
        </button>
      </span>
    </nav>
  );
}

/** Title and tagline; `children` (the run's status, the runtime) sit at the right, before the language switch. */
export function Header({ lang, onLang, children }: { lang: Lang; onLang: (l: Lang) => void; children?: ReactNode }) {
  const t = useT();
  return (
    <header style={{ display: 'flex', gap: 'var(--sp-3)', alignItems: 'center', flexWrap: 'wrap' }}>
      <h1>kvscope</h1>
      <span className="muted" style={{ flex: 1, fontSize: 'var(--fs-sm)' }}>
        {t('app.tagline')}
      </span>
      {children}
      <LanguageSwitch lang={lang} onChange={onLang} />
    </header>
  );
}

function LanguageSwitch({ lang, onChange }: { lang: Lang; onChange: (l: Lang) => void }) {
  const t = useT();
  const btn = (l: Lang, label: string, first: boolean) => (
    <button
      key={l}
      lang={l === 'zh' ? 'zh-CN' : 'en'}
      aria-pressed={lang === l}
      data-lang={l}
      onClick={() => onChange(l)}
      style={{ borderRadius: first ? 'var(--radius) 0 0 var(--radius)' : '0 var(--radius) var(--radius) 0', marginLeft: first ? 0 : -1 }}
    >
      {label}
    </button>
  );
  return (
    <div role="group" aria-label={t('app.language')} style={{ display: 'flex' }}>
      {btn('en', 'English', true)}
      {btn('zh', '简体中文', false)}
    </div>
  );
}
