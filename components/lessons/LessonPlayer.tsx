'use client';
// /lessons/<slug>/: one step at a time. The step's request runs on each of its models (one worker and
// engine per model: useEngine + useAttentionRun, side by side when there are two); the callouts are computed
// from those runs by the lesson's pure functions (lib/lessons). ← / → and the buttons move between steps;
// ?step=N (1-based) opens a step and is kept in the URL, so each step has a link.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { lessonBySlug, stepFromQuery, calloutParts, type Callout, type Lesson } from '../../lib/lessons';
import { parseScenarioRef, scenarioRequest } from '../../lib/scenarios';
import { resolveContext } from '../../lib/state/context';
import type { Analysed } from '../../lib/state/analysed';
import { runOf } from '../../lib/agent/run';
import { useDescribe, useLang, useT } from '../common/i18n';
import { useAttentionRun, type AttentionRun } from '../lab/useAttentionRun';
import { useEngine, type Engine } from '../lab/useEngine';
import { LessonShell } from './LessonShell';
import { StepView } from './StepViews';
import { useStepExtra, type StepExtra } from './useStepExtra';
import { useStreamingExtra } from './useStreamingRun';

export function LessonPlayer({ slug }: { slug: string }) {
  const lesson = lessonBySlug(slug);
  return <LessonShell>{() => (lesson ? <Player lesson={lesson} /> : <NotFound slug={slug} />)}</LessonShell>;
}

function NotFound({ slug }: { slug: string }) {
  const t = useT();
  return <p role="alert">{t('lessons.notFound', { slug })}</p>;
}

function inField(e: KeyboardEvent): boolean {
  const el = e.target as HTMLElement | null;
  return !!el && (el.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName));
}

function Player({ lesson }: { lesson: Lesson }) {
  const t = useT();
  const lang = useLang();
  const n = lesson.steps.length;
  const [index, setIndex] = useState(0);
  useEffect(() => setIndex(stepFromQuery(window.location.search, n)), [n]);
  const go = useCallback(
    (i: number) => {
      const next = Math.max(0, Math.min(n - 1, i));
      setIndex(next);
      const url = new URL(window.location.href);
      url.searchParams.set('step', String(next + 1));
      window.history.replaceState(window.history.state, '', url);
    },
    [n],
  );
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey || inField(e)) return;
      if (e.key === 'ArrowRight') go(index + 1);
      else if (e.key === 'ArrowLeft') go(index - 1);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go, index]);

  const step = lesson.steps[index]!;
  const view = step.view;
  const request = useMemo(() => {
    const { id, variant } = parseScenarioRef(view.scenario);
    return scenarioRequest(id, variant);
  }, [view.scenario]);
  // One engine per model slot: the first model, and the second for a side-by-side step.
  const engineA = useEngine(view.models[0] ?? null);
  const engineB = useEngine(view.models[1] ?? null);
  const runA = useAttentionRun(engineA, view.models[0] ?? '', request, view.context);
  const runB = useAttentionRun(engineB, view.models[1] ?? '', view.models[1] ? request : null, view.context);
  const slots: { model: string; engine: Engine; run: AttentionRun }[] = view.models.map((model, i) => ({ model, engine: i === 0 ? engineA : engineB, run: i === 0 ? runA : runB }));

  // A run counts for this step only when it is of this step's request and context (a finished run of the
  // previous step stays in the hook while the next one runs).
  const requestKey = useMemo(() => JSON.stringify(request), [request]);
  const want = useMemo(() => resolveContext(runOf(request), view.context), [request, view.context]);
  const fresh = (r: AttentionRun): Analysed | null => {
    const d = r.data;
    if (!d || r.stage !== null) return null;
    if (JSON.stringify(d.run.conversation) !== requestKey) return null;
    if (d.context.kind !== want.kind || (d.context.kind === 'call' && want.kind === 'call' && d.context.index !== want.index)) return null;
    return d;
  };
  const runs = slots.map((s) => fresh(s.run));
  const ready = runs.every((r) => r !== null);
  const [r0, r1] = runs;
  // What the view computes besides the runs (a 'kv' step's K/V comparison), on the first model's engine.
  const stepExtra = useStepExtra(view, engineA, r0 ?? null);
  // A 'streaming' step's StreamingLLM experiment, on each model's own engine.
  const streaming = useStreamingExtra(view, [engineA, engineB]);
  const extra = useMemo(() => (stepExtra.ready && streaming.ready ? { ...stepExtra.extra, ...streaming.extra } : null), [stepExtra.ready, stepExtra.extra, streaming.ready, streaming.extra]);
  const callouts = useMemo(() => (ready && extra ? step.callouts([r0, r1].slice(0, view.models.length) as Analysed[], extra) : null), [ready, extra, step, view.models.length, r0, r1]);

  return (
    <article data-role="lesson" data-lesson={lesson.slug} data-step={index + 1} style={{ display: 'grid', gap: 'var(--sp-3)' }}>
      <nav data-role="lesson-nav" style={{ display: 'flex', gap: 'var(--sp-3)', alignItems: 'center', flexWrap: 'wrap' }}>
        <span data-chrome="">
          <a href="/lessons/">{t('lessons.all')}</a>
        </span>
        <h2 style={{ margin: 0 }}>{lesson.title[lang]}</h2>
        <span className="muted" data-role="step-counter">
          {t('lessons.stepOf', { i: index + 1, n })}
        </span>
        <span style={{ marginLeft: 'auto', display: 'flex', gap: 'var(--sp-2)', alignItems: 'center' }}>
          <a data-role="step-link" data-chrome="" href={`?step=${index + 1}`} onClick={(e) => e.preventDefault()}>
            {t('lessons.link')}
          </a>
          <button data-role="step-prev" onClick={() => go(index - 1)} disabled={index === 0}>
            {t('lessons.prev')}
          </button>
          <button data-role="step-next" onClick={() => go(index + 1)} disabled={index === n - 1}>
            {t('lessons.next')}
          </button>
        </span>
      </nav>
      <ol data-chrome="" data-role="step-list" style={{ display: 'flex', gap: 'var(--sp-2)', flexWrap: 'wrap', listStyle: 'none', padding: 0, margin: 0, fontSize: 'var(--fs-sm)' }}>
        {lesson.steps.map((s, i) => (
          <li key={s.id}>
            <a href={`?step=${i + 1}`} aria-current={i === index ? 'step' : undefined} onClick={(e) => (e.preventDefault(), go(i))} style={{ fontWeight: i === index ? 'bold' : 'normal' }}>
              {i + 1}. {s.title[lang]}
            </a>
          </li>
        ))}
      </ol>
      <div style={{ display: 'grid', gridTemplateColumns: 'minmax(280px, 340px) minmax(0, 1fr)', gap: 'var(--sp-4)', alignItems: 'start' }}>
        <div style={{ display: 'grid', gap: 'var(--sp-3)' }}>
          <h3 data-role="step-title" style={{ margin: 0 }}>
            {step.title[lang]}
          </h3>
          <p data-role="step-body" style={{ margin: 0, lineHeight: 1.5 }}>
            {step.body[lang]}
          </p>
          <Callouts callouts={callouts} slots={slots} extra={stepExtra} />
          <span className="muted" data-chrome="" style={{ fontSize: 'var(--fs-xs)' }}>
            {t('lessons.keys')}
          </span>
        </div>
        <StepView key={`${lesson.slug}:${step.id}`} view={view} runs={runs} models={view.models} extra={extra} streaming={streaming.runs} />
      </div>
    </article>
  );
}

function Callouts({ callouts, slots, extra }: { callouts: Callout[] | null; slots: { model: string; engine: Engine; run: AttentionRun }[]; extra?: StepExtra }) {
  const t = useT();
  const lang = useLang();
  return (
    <section className="panel" data-role="lesson-callouts" data-ready={callouts ? 'true' : 'false'} aria-label={t('lessons.notice')} style={{ display: 'grid', gap: 'var(--sp-2)', borderLeft: '4px solid var(--c-accent)' }}>
      <h4 style={{ margin: 0 }}>{t('lessons.notice')}</h4>
      {callouts === null ? (
        <Progress slots={slots} extra={extra} />
      ) : (
        <ul style={{ margin: 0, paddingLeft: '1.1em', display: 'grid', gap: 'var(--sp-2)' }}>
          {callouts.map((c) => (
            <li key={c.id} data-callout={c.id} data-missing={c.missing ? 'true' : undefined} style={{ lineHeight: 1.45 }}>
              {c.missing && (
                <span data-role="missing-tag" style={{ color: 'var(--c-warn)', fontSize: 'var(--fs-xs)', marginRight: 6 }}>
                  [{t('lessons.missingTag')}]
                </span>
              )}
              {calloutParts(c, lang).map((p, i) =>
                p.kind === 'value' ? (
                  <b key={i} data-value={p.key} data-raw={c.values[p.key]!.value}>
                    {p.text}
                  </b>
                ) : p.kind === 'word' ? (
                  <code key={i} data-word={p.key}>
                    {p.text}
                  </code>
                ) : (
                  <span key={i}>{p.text}</span>
                ),
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Progress({ slots, extra }: { slots: { model: string; engine: Engine; run: AttentionRun }[]; extra?: StepExtra }) {
  const t = useT();
  const describe = useDescribe();
  const lines = slots.map(({ model, engine, run }) => {
    const p = engine.phase;
    if (p.kind === 'failed') return t('lessons.failed', { message: describe(p.failure) });
    if (run.error) return t('lessons.failed', { message: describe(run.error) });
    if (p.kind === 'loading') return t('lessons.loading', { model, pct: Math.round(100 * p.fraction) });
    return run.stage ? t('lessons.running', { model }) : t('lessons.computing');
  });
  if (extra?.error) lines.push(t('lessons.failed', { message: describe(extra.error) }));
  return (
    <div role="status" className="muted" style={{ fontSize: 'var(--fs-sm)' }}>
      {lines.map((l, i) => (
        <div key={i}>{l}</div>
      ))}
    </div>
  );
}
