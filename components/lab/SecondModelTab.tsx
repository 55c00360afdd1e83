'use client';
// The same tab on a second embedded model, below the first (docs/CONCEPTS.md#context): its own worker and
// engine, the same request and call, its own run — so the Step, A/B and KV tabs compare two models on the
// same prompt as the Attention tab does beside its heatmap. Mounted only while a second model is chosen.
import type { ChatRequest } from '../../lib/scenarios/types';
import type { ContextChoice, CustomScenario, Tab } from '../../lib/state/store';
import { AbLab } from '../ab/AbLab';
import { useDescribe, useT } from '../common/i18n';
import { KvLab } from '../kv/KvLab';
import { StepLab } from '../step/StepLab';
import { useAttentionRun } from './useAttentionRun';
import { useEngine } from './useEngine';

export interface SecondModelTabProps {
  tab: Extract<Tab, 'step' | 'ab' | 'kv'>;
  model: string;
  request: ChatRequest | null;
  context: ContextChoice;
  scenario: string;
  scenarioName: string;
  custom: CustomScenario[];
}

export function SecondModelTab({ tab, model, request, context, scenario, scenarioName, custom }: SecondModelTabProps) {
  const t = useT();
  const describe = useDescribe();
  const engine = useEngine(model);
  const { data } = useAttentionRun(engine, model, request, context);
  const client = engine.client && engine.phase.kind === 'ready' ? engine.client : null;
  return (
    <section data-role="second-model" data-model={model} aria-label={t('compare.second', { model })} style={{ display: 'grid', gap: 'var(--sp-3)', borderTop: '3px solid var(--c-border-strong)', paddingTop: 'var(--sp-3)' }}>
      <h2 style={{ margin: 0 }}>{t('compare.second', { model })}</h2>
      {engine.phase.kind === 'loading' && (
        <div aria-live="polite" className="muted small">
          <progress style={{ width: 90, verticalAlign: 'middle' }} /> {t('compare.loading', { model })}
        </div>
      )}
      {engine.phase.kind === 'failed' && <div role="alert">{t('error.prefix', { message: describe(engine.phase.failure) })}</div>}
      {client && tab === 'step' && (
        <StepLab client={client} analysed={data} vocab={engine.loaded?.vocab ?? null} generationConfig={engine.loaded?.generationConfig ?? null} model={model} scenario={scenario} custom={custom} />
      )}
      {client && tab === 'ab' && (
        <AbLab client={client} analysed={data} model={model} scenario={scenario} custom={custom} generationConfig={engine.loaded?.generationConfig ?? null} vocab={engine.loaded?.vocab ?? null} />
      )}
      {client && tab === 'kv' && <KvLab client={client} analysed={data} model={model} scenarioName={scenarioName} vocab={engine.loaded?.vocab ?? null} layers={data?.attention.length ?? 0} custom={custom} />}
    </section>
  );
}
