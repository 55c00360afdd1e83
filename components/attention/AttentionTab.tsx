'use client';
// The Attention tab: a header saying what is shown (model, scenario, which call of the agent loop, tokens,
// layer, head) with the prompt picker; the heatmap figure sized to fit above the fold, beside the prompt's
// tokens and the attention-sink panel; then the agent loop call by call (the inspector, which also picks), and
// the loop run live on the model. On a large model's run most layers hold only the head mean: the views say
// so and HeadModeNote offers the layer's per-head maps (lib/analysis/headLayers).
import { useRef } from 'react';
import type { ChatRequest } from '../../lib/scenarios/types';
import type { Analysed } from '../../lib/state/analysed';
import type { ContextChoice, ViewSettings } from '../../lib/state/store';
import { contextLabel } from '../common/contextLabel';
import { useT } from '../common/i18n';
import { useFigurePx } from '../common/useFigurePx';
import { ViewHeader } from '../common/ViewHeader';
import { ContextPicker } from '../loop/ContextPicker';
import { LiveLoopPanel, type LiveLoopPanelProps } from '../loop/LiveLoopPanel';
import { MessageInspector } from '../loop/MessageInspector';
import type { HeadLayerRun } from '../lab/useAttentionRun';
import { AttentionControls } from './AttentionControls';
import { CompareFigure } from './CompareFigure';
import { HeadModeNote } from './HeadModeNote';
import { HeatmapSection } from './HeatmapSection';
import { SinkPanel } from './SinkPanel';
import { TokensSection } from './TokensSection';
import { shownHeadLabel, shownLabel, type AttentionView } from './useAttentionView';

export interface AttentionTabProps {
  data: Analysed | null;
  /** The reduced matrix and scale (the page computes them: its status line reads them too). */
  shown: AttentionView;
  view: ViewSettings;
  onView: (patch: Partial<ViewSettings>) => void;
  /** The selected query token, already checked against the run's length. */
  selected: number | null;
  onSelect: (i: number | null) => void;
  /** Names for the header, the export's file and caption. */
  model: string;
  scenario: string;
  scenarioName: string;
  context: ContextChoice;
  onContext: (c: ContextChoice) => void;
  /** The request shown (a second model runs it too). */
  request: ChatRequest | null;
  /** A second embedded model shown beside the first, or null; and the models it may be. */
  compare: string | null;
  onCompare: (model: string | null) => void;
  models: readonly string[];
  /** What the live agent loop needs from the page's engine (null while no model is ready). */
  loop: Pick<LiveLoopPanelProps, 'client' | 'vocab' | 'generationConfig' | 'contextLimit'> | null;
  /** A large model's per-head maps (useAttentionRun's `perHead`): the button that runs the prompt again for a layer. */
  headRun?: HeadLayerRun | null;
}

/** What HeatmapSection draws around the square (controls, labels, legend; beside: labels, bands, pinned strips). */
const FIGURE = { chromeV: 172, chromeH: 190, min: 360, max: 900 };
/** The side column's smallest width beside the figure. */
const ASIDE = 420;

export function AttentionTab(props: AttentionTabProps) {
  const { data, shown, view, onView, selected, onSelect, model, scenario, scenarioName, context, onContext, request, compare, onCompare, models, loop, headRun } = props;
  const t = useT();
  const figureRef = useRef<HTMLDivElement>(null);
  const second = compare !== null && compare !== model ? compare : null;
  // Two figures side by side take the row (the tokens and the sink panel go below); one leaves room beside it.
  const px = useFigurePx(figureRef, second ? { ...FIGURE, aside: 0, columns: 2, gap: 16 } : { ...FIGURE, aside: ASIDE }, `${data?.tokens}:${second}`);
  if (!data) return null;
  return (
    <>
      <ViewHeader
        title={t('attention.title')}
        facts={[
          { key: 'model', label: t('fact.model'), value: model },
          { key: 'scenario', label: t('fact.scenario'), value: scenarioName },
          { key: 'context', label: t('fact.context'), value: contextLabel(t, data.context) },
          { key: 'tokens', label: t('fact.tokens'), value: data.tokens },
          { key: 'layer', label: t('fact.layer'), value: shown.layer },
          { key: 'head', label: null, value: shownHeadLabel(t, shown) },
        ]}
      />
      <div className="controls" data-role="attention-toolbar">
        <ContextPicker data={data} onContext={onContext} />
        <AttentionControls view={view} layers={shown.layers} heads={shown.heads} perHead={shown.perHead} onChange={onView} />
        <label title={t('compare.title')}>
          {t('compare.label')}{' '}
          <select data-control="compare" value={second ?? ''} onChange={(e) => onCompare(e.target.value || null)}>
            <option value="">{t('compare.none')}</option>
            {models
              .filter((m) => m !== model)
              .map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
          </select>
        </label>
      </div>
      <HeadModeNote shown={shown} asked={view.head} run={headRun} />
      <div ref={figureRef} style={{ display: 'flex', gap: 'var(--sp-4)', alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <div style={{ flex: '0 0 auto', display: 'grid', gap: 'var(--sp-1)' }}>
          {second && <h3 style={{ margin: 0, fontSize: 'var(--fs-md)', lineHeight: 1 }}>{model}</h3>}
          {shown.matrix && (
            <HeatmapSection data={data} shown={shown} matrix={shown.matrix} view={view} onView={onView} model={model} scenario={scenario} selected={selected} onSelect={onSelect} px={px} copySource />
          )}
        </div>
        {second && (
          <div style={{ flex: '0 0 auto' }}>
            <CompareFigure model={second} request={request} context={context} view={view} onView={onView} selected={selected} onSelect={onSelect} scenario={scenario} px={px} />
          </div>
        )}
        <div style={{ flex: `1 1 ${ASIDE}px`, minWidth: 0, display: 'grid', gap: 'var(--sp-3)' }}>
          <div className="panel">
            <TokensSection data={data} matrix={shown.matrix} selected={selected} onSelect={onSelect} what={shown.meanOnlyLayers ? shownLabel(t, shown) : undefined} />
          </div>
          <div className="panel">
            <SinkPanel attention={data.attention} labels={data.labels} headLayers={shown.headLayers} />
          </div>
        </div>
      </div>
      <div className="panel">
        <MessageInspector run={data.run} prompts={data.callPrompts} shown={data.context} onShow={onContext} conversationTokens={data.conversationDiffers ? data.conversationTokens : null} />
      </div>
      {loop && (
        <div className="panel">
          <LiveLoopPanel {...loop} request={request} model={model} />
        </div>
      )}
    </>
  );
}
