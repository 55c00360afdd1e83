'use client';
// "Step & generate": walk the scenario's prompt token by token on the real K/V cache of the engine worker
// (lib/generate/stepSession: each step forward is ONE one-token extend, a jump ONE chunked extend, a step
// back ONE fork), and watch at each position what the current query attends to, how the cache grows and
// what the model predicts next; then generate from the cursor with the same views, the output read as
// reasoning / answer / tool calls. The hooks hold the session and its figures; the sections show them.
import type { EngineClient } from '../../lib/engine/client';
import type { Vocab } from '../../lib/prompt/vocab';
import type { Analysed } from '../../lib/state/analysed';
import { CursorControls, keyTarget, StepStatus } from './CursorControls';
import { GenerationPanel } from './GenerationPanel';
import { KvGrowth } from './KvGrowth';
import { QueryStrip, StripViewControls } from './QueryStrip';
import { StepTokens } from './StepTokens';
import { TopPredictions } from './TopPredictions';
import { useKvShape } from './useKvShape';
import { usePlayback } from './usePlayback';
import { useQueryView } from './useQueryView';
import { useStepGeneration } from './useStepGeneration';
import { useStepSession } from './useStepSession';
import { useTimeline } from './useTimeline';
import { useT } from '../common/i18n';

export interface StepLabProps {
  client: EngineClient;
  analysed: Analysed | null;
  vocab: Vocab | null;
  generationConfig: unknown | null;
}

const title = { fontSize: 13, fontWeight: 600 } as const;

export function StepLab({ client, analysed, vocab, generationConfig }: StepLabProps) {
  const t = useT();
  const ops = useStepSession(client, analysed);
  const play = usePlayback(ops);
  const gen = useStepGeneration(ops, generationConfig, () => play.setPlaying(false));
  const tl = useTimeline(analysed, ops, vocab);
  const query = useQueryView(analysed, ops);
  const generating = !!gen.run?.running;
  const kv = useKvShape(client, ops, query.settings.layers, !play.playing && !generating);

  const { session: s, cursor, length: N, genStart, busy } = ops;
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
    e.preventDefault();
    play.setPlaying(false);
    ops.move(to);
  };

  if (!analysed) return <div style={{ color: '#555' }}>{t('step.waiting')}</div>;

  const idle = !busy && !generating;
  return (
    <section
      data-role="step-lab"
      data-cursor={cursor}
      data-length={N}
      data-gen-start={genStart ?? ''}
      data-idle={idle && cursor > 0 ? 'true' : 'false'}
      aria-label={t('step.title')}
      style={{ display: 'grid', gap: 10, minWidth: 0 }}
    >
      <h2 style={{ fontSize: 16, margin: '4px 0 0' }}>{t('step.title')}</h2>
      <p style={{ margin: 0, color: '#333', fontSize: 13, maxWidth: 1100 }}>{t('step.intro')}</p>

      <div
        data-role="stepper"
        tabIndex={0}
        onKeyDown={onKeyDown}
        aria-label={t('step.regionAria')}
        style={{ display: 'grid', gap: 10, padding: 8, border: '1px solid #ddd', borderRadius: 4, outlineOffset: 2, minWidth: 0 }}
      >
        <CursorControls ops={ops} play={play} starts={tl.starts} locked={!s || generating || cursor === 0} />
        <StepStatus ops={ops} labels={tl.labels} row={query.row} />
        <StripViewControls settings={query.settings} />
        <QueryStrip query={query} timeline={tl.timeline} labels={tl.labels} cursor={cursor} total={N} />

        <div style={{ display: 'flex', gap: 20, flexWrap: 'wrap', alignItems: 'flex-start' }}>
          <div style={{ flex: '1 1 560px', minWidth: 420, display: 'grid', gap: 4 }}>
            <div style={title}>{t('step.tokensTitle')}</div>
            {tl.timeline && (
              <StepTokens
                tokens={tl.timeline.tokens}
                spans={tl.timeline.spans}
                cursor={cursor}
                weights={query.weights}
                scale={query.scale}
                map={query.settings.colormap}
                picked={query.settings.picked}
                genStart={genStart}
                height={360}
                onPick={query.settings.togglePick}
              />
            )}
          </div>
          <div style={{ flex: '0 1 420px', minWidth: 360, display: 'grid', gap: 14 }}>
            <div style={{ display: 'grid', gap: 4 }}>
              <div style={title}>{t('step.topTitle')}</div>
              <TopPredictions next={query.next} labelOf={tl.labelOf} position={cursor} atEnd={cursor >= N} nextGenerated={genStart !== null && cursor >= genStart} />
            </div>
            <div style={{ display: 'grid', gap: 4 }}>
              <div style={title}>{t('step.kvTitle')}</div>
              <KvGrowth cursor={cursor} total={N} shape={kv.shape} measured={kv.measured} />
            </div>
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
          query.settings.clearPick();
          gen.backToPrompt();
        }}
      />
    </section>
  );
}
