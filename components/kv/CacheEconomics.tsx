'use client';
// The cache economics of the KV-cache lab: the six request patterns of experiment 2-3 with their prefix tree
// and block hashes (docs/CONCEPTS.md#harmful-context-patterns), the think-block drop of a thinking model,
// and replace-vs-append for a status bar (docs/CONCEPTS.md#status-bar-economics). Every prompt is rendered
// with the page's chat template through `renderPrompt` (the engine worker on the page), once a model is
// loaded; the numbers come from lib/cache and lib/agent.
import { useMemo, useRef } from 'react';
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
}

export function CacheEconomics({ analysed, renderPrompt }: CacheEconomicsProps) {
  const t = useT();
  // Called through a ref, so that a new function identity (an inline arrow in the parent) starts nothing.
  // A model load sets analysed to null (every batch is dropped) and then to its first result (all render
  // again with the new tokenizer); any later analysed (a new scenario, a worker restart) only retries
  // batches that have not finished.
  const latest = useRef(renderPrompt);
  latest.current = renderPrompt;
  const render = useMemo(() => (analysed ? (r: ChatRequest) => latest.current(r) : null), [analysed]);
  const rule = <hr style={{ border: 0, borderTop: '1px solid #ddd', margin: '6px 0', width: '100%' }} />;
  return (
    <section data-role="cache-economics" aria-label={t('econ.title')} style={{ display: 'grid', gap: 14, font: FONT }}>
      <h2 style={{ fontSize: 17, margin: 0 }}>{t('econ.title')}</h2>
      <p style={{ margin: 0, color: '#444', maxWidth: 1100 }}>{t('econ.intro')}</p>
      <PatternsPanel render={render} />
      {rule}
      <ThinkDropPanel render={render} />
      {rule}
      <StatusEconomicsPanel render={render} />
    </section>
  );
}
