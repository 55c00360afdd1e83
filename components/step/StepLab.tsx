'use client';
// "Step & generate": walk the shown prompt token by token on the real K/V cache of the engine worker
// (lib/generate/stepSession: each step forward is ONE one-token extend, a jump ONE chunked extend, a step
// back ONE fork), and watch at each position what the current query attends to, how the cache grows and
// what the model predicts next; then generate from the cursor with the same views, the output read as
// reasoning / answer / tool calls. The tab opens at the start of the prompt (useStepSession OPEN_AT). First
// a header saying what is shown, then the main visual (controls and the attention strip), then the sequence,
// predictions and cache, generation, and the explanations last. The hooks hold the session and its figures.
import type { EngineClient } from '../../lib/engine/client';
import type { Vocab } from '../../lib/prompt/vocab';
import type { Analysed } from '../../lib/state/analysed';
import { CATALOG } from '../../lib/scenarios/catalog';
import { customOf, type CustomScenario } from '../../lib/state/store';
import { CopySourceLine } from './CopySourceLine';
import { CursorControls, keyTarget, StepNotes, StepStatus } from './CursorControls';
import { GenerationPanel } from './GenerationPanel';
import { KvGrowth } from './KvGrowth';
import { QueryStrip, StripViewControls } from './QueryStrip';
import { StepTokens } from './StepTokens';
import { TopPredictions } from './TopPredictions';
import { useStepCopySource } from './useCopySource';
import { useKvShape } from './useKvShape';
import { usePlayback } from './usePlayback';
import { useQueryView } from './useQueryView';
import { useStepGeneration } from './useStepGeneration';
import { useStepSession } from './useStepSession';
import { useTimeline } from './useTimeline';
import { useLang, useT, type T } from '../common/i18n';
import { ViewHeader, type ViewFact } from '../common/ViewHeader';

export interface StepLabProps {
  client: EngineClient;
  analysed: Analysed | null;
  vocab: Vocab | null;
  generationConfig: unknown | null;
  /** The model's id, for the header (omitted when not given). */
  model?: string;
  /** The scenario's ref (`vancouver`, `xfinity:with-status`, `custom:<id>`), for the header. */
  scenario?: string;
  /** The user's scenarios, to name a custom ref. */
  custom?: CustomScenario[];
}

const sectionTitle = { fontSize: 'var(--fs-md)', margin: 0 } as const;

/** Which prompt of the agent loop the tab steps through, in words. */
function contextText(t: T, a: Analysed): string {
  const c = a.context;
  if (!c || c.kind === 'conversation') return t('context.conversation');
  return t(c.index === c.calls - 1 ? 'context.lastCall' : 'context.call', { n: c.index + 1, calls: c.calls });
}

export function StepLab({ client, analysed, vocab, generationConfig, model, scenario, custom = [] }: StepLabProps) {
  const t = useT();
  const lang = useLang();
  const ops = useStepSession(client, analysed);
  const play = usePlayback(ops);
  const gen = useStepGeneration(ops, generationConfig, () => play.setPlaying(false));
  const tl = useTimeline(analysed, ops, vocab);
  const query = useQueryView(analysed, ops);
  const copy = useStepCopySource(ops, query.row);
  const generating = !!gen.run?.running;
  const kv = useKvShape(client, ops, query.settings.layers, !play.playing && !generating);

  const { session: s, cursor, length: N, genStart, busy, pending } = ops;
  const onKeyDown = (e: React.KeyboardEvent<HTMLElement>) => {
    const tag = (e.target as HTMLElement).tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return;
    if (!s || generating) return;
    const to = keyTarget(e.key, cursor, N, tl.starts);
    if (to === null) return;
    if (to === 'toggle') {
      if (e.target !== e.currentTarget) return; // a focused button handles its own Space
      e.preventDefault();
      play.setPlaying((p) => !p);
      return;
    }
    // A key the focused stepper uses is not also the page's (presentation mode's PageUp / PageDown change views).
    e.stopPropagation();
    e.preventDefault();
    play.setPlaying(false);
    ops.move(to);
  };

  if (!analysed) return <div className="muted">{t('step.waiting')}</div>;

  const v = query.settings;
  const headText = v.head === 'mean' ? t('head.mean') : v.head === 'max' ? t('head.max') : t('head.one', { head: v.head });
  const scenarioName = scenario === undefined ? null : (customOf({ custom }, scenario)?.name ?? CATALOG.find((e) => e.ref === scenario)?.title[lang] ?? scenario);
  const facts: ViewFact[] = [
    ...(model ? [{ key: 'model', label: t('fact.model'), value: model }] : []),
    ...(scenarioName ? [{ key: 'scenario', label: t('fact.scenario'), value: scenarioName }] : []),
    { key: 'context', label: t('fact.context'), value: contextText(t, analysed) },
    { key: 'tokens', label: t('fact.tokens'), value: analysed.prompt.ids.length },
    { key: 'cache', label: t('step.factCache'), value: `${cursor} / ${N}` },
    { key: 'layer', label: t('fact.layer'), value: v.layer },
    { key: 'head', label: t('fact.head'), value: headText },
  ];

  // Idle: no operation in flight at all (not only none past the busy line's delay), so a move asked for now runs.
  const idle = !busy && !pending && !generating;
  // The copy source of the query's prediction, marked in the strip and the tokens (docs/CONCEPTS.md#copy-source).
  const source = copy.copy?.best?.position ?? null;
  return (
    <section
      data-role="step-lab"
      data-cursor={cursor}
      data-length={N}
      data-gen-start={genStart ?? ''}
      data-idle={idle && cursor > 0 ? 'true' : 'false'}
      aria-label={t('step.title')}
      style={{ display: 'grid', gap: 'var(--sp-3)', minWidth: 0 }}
    >
      <ViewHeader title={t('step.title')} facts={facts} />

      <div data-role="stepper" tabIndex={0} onKeyDown={onKeyDown} aria-label={t('step.regionAria')} style={{ display: 'grid', gap: 'var(--sp-3)', outlineOffset: 2, minWidth: 0 }}>
        {/* The main visual: the cursor's controls and the attention strip, above the fold. */}
        <div className="panel" data-role="step-main" style={{ display: 'grid', gap: 'var(--sp-2)' }}>
          <CursorControls ops={ops} play={play} starts={tl.starts} locked={!s || generating || cursor === 0} />
          <StepStatus ops={ops} labels={tl.labels} />
          <StripViewControls settings={v} />
          <QueryStrip query={query} timeline={tl.timeline} labels={tl.labels} cursor={cursor} total={N} source={source} />
          {query.row && (
            <CopySourceLine
              copy={copy.copy}
              labels={tl.labels}
              coverage={copy.coverage}
              markedIn="strip"
              empty={{ kind: 'end' }}
              onGoto={(p) => {
                play.setPlaying(false);
                ops.move(p + 1);
              }}
              gotoDisabled={!idle}
            />
          )}
        </div>

        <div style={{ display: 'flex', gap: 'var(--sp-3)', flexWrap: 'wrap', alignItems: 'flex-start' }}>
          <section className="panel" style={{ flex: '1 1 540px', minWidth: 0, display: 'grid', gap: 'var(--sp-2)' }}>
            <h3 style={sectionTitle}>{t('step.tokensTitle')}</h3>
            {tl.timeline && (
              <StepTokens
                tokens={tl.timeline.tokens}
                spans={tl.timeline.spans}
                cursor={cursor}
                weights={query.weights}
                scale={query.scale}
                map={v.colormap}
                picked={v.picked}
                source={source}
                genStart={genStart}
                height={360}
                onPick={v.togglePick}
              />
            )}
          </section>
          <div style={{ flex: '1 1 340px', minWidth: 0, maxWidth: 560, display: 'grid', gap: 'var(--sp-3)' }}>
            <section className="panel" style={{ display: 'grid', gap: 'var(--sp-2)' }}>
              <h3 style={sectionTitle}>{t('step.topTitle')}</h3>
              <TopPredictions next={query.next} labelOf={tl.labelOf} position={cursor} atEnd={cursor >= N} nextGenerated={genStart !== null && cursor >= genStart} />
            </section>
            <section className="panel" style={{ display: 'grid', gap: 'var(--sp-2)' }}>
              <h3 style={sectionTitle}>{t('step.kvTitle')}</h3>
              <KvGrowth cursor={cursor} total={N} shape={kv.shape} measured={kv.measured} />
            </section>
          </div>
        </div>
      </div>

      <GenerationPanel
        form={gen.form}
        onForm={gen.setForm}
        errors={gen.formRead.ok ? [] : gen.formRead.errors}
        cursor={cursor}
        promptLength={analysed.prompt.ids.length}
        configNote={gen.configNote}
        run={gen.run}
        genStart={genStart}
        parsed={tl.parsed}
        rawText={tl.timeline?.genText ?? ''}
        disabled={!s || cursor === 0 || !!busy || !tl.canDecode}
        onGenerate={() => void gen.generate()}
        onStop={gen.stop}
        onBackToPrompt={() => {
          v.clearPick();
          gen.backToPrompt();
        }}
      />

      {/* Explanations: nothing a projector needs (presentation mode hides them). */}
      <section className="panel" data-role="view-secondary" style={{ display: 'grid', gap: 'var(--sp-2)' }}>
        <h3 style={sectionTitle}>{t('step.notesTitle')}</h3>
        <p style={{ margin: 0, fontSize: 'var(--fs-sm)', maxWidth: 1100 }}>{t('step.intro')}</p>
        <div className="muted small">{t('step.stripNote')}</div>
        <div className="muted small">{t('copy.note')}</div>
        <StepNotes row={query.row} />
      </section>
    </section>
  );
}
