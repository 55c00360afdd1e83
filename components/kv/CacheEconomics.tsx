'use client';
// The cache economics of the KV-cache lab: the six request patterns of experiment 2-3 with their prefix tree
// and block hashes (docs/CONCEPTS.md#harmful-context-patterns), the think-block drop of a thinking model,
// and replace-vs-append for a status bar (docs/CONCEPTS.md#status-bar-economics). Every prompt is rendered
// with the page's chat template through `renderPrompt` (the engine worker on the page), once a model is
// loaded; the numbers come from lib/cache and lib/agent.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Prompt } from '../../lib/prompt/prompt';
import type { ChatRequest } from '../../lib/scenarios/types';
import type { Analysed } from '../../lib/state/analysed';
import { FONT } from './econParts';
import { PatternsPanel } from './PatternsPanel';
import { StatusEconomicsPanel } from './StatusEconomicsPanel';
import { ThinkDropPanel } from './ThinkDropPanel';
import { useT } from '../common/i18n';

export interface CacheEconomicsProps {
  /** The page's analysed scenario; null while no model is loaded (nothing can be rendered yet). */
  analysed: Analysed | null;
  /** Renders a request with the loaded model's chat template and the generation prompt. Need not be memoised. */
  renderPrompt: (request: ChatRequest) => Promise<Prompt>;
  /** Told whether all three panels have rendered their prompts (each change). */
  onSettled?: (settled: boolean) => void;
}

type Panel = 'patterns' | 'think' | 'status';

export function CacheEconomics({ analysed, renderPrompt, onSettled }: CacheEconomicsProps) {
  const t = useT();
  const [settled, setSettled] = useState<Record<Panel, boolean>>({ patterns: false, think: false, status: false });
  const report = useCallback((p: Panel) => (s: boolean) => setSettled((x) => (x[p] === s ? x : { ...x, [p]: s })), []);
  const reporters = useMemo(() => ({ patterns: report('patterns'), think: report('think'), status: report('status') }), [report]);
  const all = settled.patterns && settled.think && settled.status;
  useEffect(() => onSettled?.(all), [all, onSettled]);
  // Called through a ref, so that a new function identity (an inline arrow in the parent) starts nothing.
  // A model load sets analysed to null (every batch is dropped) and then to its first result (all render
  // again with the new tokenizer); any later analysed (a new scenario, a worker restart) only retries
  // batches that have not finished.
  const latest = useRef(renderPrompt);
  latest.current = renderPrompt;
  const render = useMemo(() => (analysed ? (r: ChatRequest) => latest.current(r) : null), [analysed]);
  // Each panel is its own card; the grid's one column is minmax(0, 1fr) so that no wide child can widen it.
  return (
    <section data-role="cache-economics" data-ready={all} aria-label={t('econ.title')} style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 'var(--sp-3)', font: FONT }}>
      <div style={{ display: 'grid', gap: 'var(--sp-1)' }}>
        <h2 style={{ margin: 0 }}>{t('econ.title')}</h2>
        <p style={{ margin: 0, maxWidth: '80em' }}>{t('econ.intro')}</p>
      </div>
      <PatternsPanel render={render} onSettled={reporters.patterns} />
      <ThinkDropPanel render={render} onSettled={reporters.think} />
      <StatusEconomicsPanel render={render} onSettled={reporters.status} />
    </section>
  );
}
