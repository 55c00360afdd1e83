'use client';
// The page's header (title, tagline, language switch) and the bar of tabs below the shared controls.
import type { Lang } from '../../lib/i18n';
import type { Tab } from '../../lib/state/store';
import { useT } from '../common/i18n';

const TABS: Tab[] = ['attention', 'step', 'ab', 'kv', 'data'];

export function TabBar({ value, onChange }: { value: Tab; onChange: (t: Tab) => void }) {
  const t = useT();
  return (
    <div role="tablist" style={{ display: 'flex', gap: 4, borderBottom: '1px solid #ccc' }}>
      {TABS.map((id) => (
        <button
          key={id}
          role="tab"
          aria-selected={value === id}
          data-tab={id}
          onClick={() => onChange(id)}
          style={{
            padding: '6px 16px',
            border: 'none',
            borderBottom: value === id ? '3px solid #333' : '3px solid transparent',
            background: 'none',
            fontWeight: value === id ? 600 : 400,
            fontSize: 15,
            cursor: 'pointer',
          }}
        >
          {t(`tab.${id}`)}
        </button>
      ))}
    </div>
  );
}

export function Header({ lang, onLang }: { lang: Lang; onLang: (l: Lang) => void }) {
  const t = useT();
  return (
    <header style={{ display: 'flex', gap: 16, alignItems: 'baseline', flexWrap: 'wrap' }}>
      <h1 style={{ margin: 0, fontSize: 22 }}>kvscope</h1>
      <span style={{ color: '#555', flex: 1 }}>{t('app.tagline')}</span>
      <LanguageSwitch lang={lang} onChange={onLang} />
    </header>
  );
}

function LanguageSwitch({ lang, onChange }: { lang: Lang; onChange: (l: Lang) => void }) {
  const t = useT();
  const btn = (l: Lang, label: string) => (
    <button
      key={l}
      lang={l === 'zh' ? 'zh-CN' : 'en'}
      aria-pressed={lang === l}
      data-lang={l}
      onClick={() => onChange(l)}
      style={{ padding: '2px 10px', border: '1px solid #888', background: lang === l ? '#333' : '#fff', color: lang === l ? '#fff' : '#333', cursor: 'pointer' }}
    >
      {label}
    </button>
  );
  return (
    <div role="group" aria-label={t('app.language')} style={{ display: 'flex', gap: 0 }}>
      {btn('en', 'English')}
      {btn('zh', '简体中文')}
    </div>
  );
}
