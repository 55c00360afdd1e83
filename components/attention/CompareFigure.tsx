'use client';
// A second embedded model on the same prompt, beside the first (docs/CONCEPTS.md#context): its own worker
// and engine (mounted only while a comparison is asked for), the same request, call and view settings, its own
// heatmap. What it computes is its own run; nothing is shared with the first model but the inputs. A large second
// model returns the layer looked at per head and the others as head means: its own note and button say so.
import type { ChatRequest } from '../../lib/scenarios/types';
import type { ContextChoice, ViewSettings } from '../../lib/state/store';
import { useDescribe, useT } from '../common/i18n';
import { useAttentionRun } from '../lab/useAttentionRun';
import { useEngine } from '../lab/useEngine';
import { HeadModeNote } from './HeadModeNote';
import { HeatmapSection } from './HeatmapSection';
import { useAttentionView } from './useAttentionView';

export interface CompareFigureProps {
  model: string;
  request: ChatRequest | null;
  context: ContextChoice;
  view: ViewSettings;
  onView: (patch: Partial<ViewSettings>) => void;
  selected: number | null;
  onSelect: (i: number | null) => void;
  scenario: string;
  px: number;
}

export function CompareFigure({ model, request, context, view, onView, selected, onSelect, scenario, px }: CompareFigureProps) {
  const t = useT();
  const describe = useDescribe();
  const engine = useEngine(model);
  const { data, stage, error, perHead } = useAttentionRun(engine, model, request, context, view.layer);
  const shown = useAttentionView(data, view);
  const busy = engine.phase.kind === 'loading' || stage !== null;
  return (
    <div data-role="compare-figure" data-model={model} data-ready={data && shown.matrix && !busy ? 'true' : 'false'} data-tokens={data?.tokens ?? 0} style={{ display: 'grid', gap: 'var(--sp-1)' }}>
      <h3 style={{ margin: 0, fontSize: 'var(--fs-md)', lineHeight: 1 }}>{model}</h3>
      {engine.phase.kind === 'failed' && <div role="alert">{t('error.prefix', { message: describe(engine.phase.failure) })}</div>}
      {error && <div role="alert">{t('error.prefix', { message: describe(error) })}</div>}
      {busy && !data && (
        <div aria-live="polite" className="muted small">
          <progress style={{ width: 90, verticalAlign: 'middle' }} /> {t(engine.phase.kind === 'loading' ? 'compare.loading' : 'run.running', { model })}
        </div>
      )}
      {data && <HeadModeNote shown={shown} asked={view.head} run={perHead} />}
      {data && shown.matrix && (
        <HeatmapSection data={data} shown={shown} matrix={shown.matrix} view={view} onView={onView} model={model} scenario={scenario} selected={selected !== null && selected < data.tokens ? selected : null} onSelect={onSelect} px={px} />
      )}
    </div>
  );
}
