'use client';
// /lessons/: one card per lesson (title, one-line summary, number of steps) in the page's language.
import { LESSONS } from '../../lib/lessons';
import { useLang, useT } from '../common/i18n';
import { LessonShell } from './LessonShell';

export function LessonIndex() {
  return <LessonShell>{() => <Cards />}</LessonShell>;
}

function Cards() {
  const t = useT();
  const lang = useLang();
  return (
    <section data-role="lesson-index" style={{ display: 'grid', gap: 'var(--sp-3)' }}>
      <h2>{t('lessons.title')}</h2>
      <p style={{ maxWidth: 760, margin: 0 }}>{t('lessons.intro')}</p>
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(300px, 1fr))', gap: 'var(--sp-3)' }}>
        {LESSONS.map((l) => (
          <a key={l.slug} href={`/lessons/${l.slug}/`} data-lesson={l.slug} className="panel" style={{ display: 'grid', gap: 'var(--sp-2)', textDecoration: 'none', color: 'inherit' }}>
            <h3 style={{ margin: 0, color: 'var(--c-accent)' }}>{l.title[lang]}</h3>
            <span>{l.summary[lang]}</span>
            <span className="muted" data-role="lesson-steps" style={{ fontSize: 'var(--fs-sm)' }}>
              {t('lessons.steps', { n: l.steps.length })}
            </span>
          </a>
        ))}
      </div>
    </section>
  );
}
