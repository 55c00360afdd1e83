'use client';
// The KV-cache lab: prefix invalidation on the real model's K/V tensors (docs/CONCEPTS.md#prefix-invalidation).
// Picks two token sequences (consecutive calls of the scenario, a one-token edit, or two scenarios), has the
// worker compute both caches (sharing the prefix through the cache, or prefilling both separately), and shows
// where they differ, layer by layer, with the recompute sweep. The cache economics panels follow.
import { useCallback, useEffect, useState } from 'react';
import type { EngineClient } from '../../lib/engine/client';
import type { CompareMode } from '../../lib/engine/kvCompare';
import type { ChatRequest } from '../../lib/scenarios/types';
import type { Vocab } from '../../lib/prompt/vocab';
import type { CustomScenario } from '../../lib/state/store';
import type { Analysed } from '../../lib/state/analysed';
import { useT } from '../common/i18n';
import { CacheEconomics } from './CacheEconomics';
import { KvComparisonPicker, type PairAlignment } from './KvComparisonPicker';
import { KvDiffSection } from './KvDiffSection';
import { renderPrompt } from '../../lib/engine/renderPrompt';
import { useKvComparison, type Source } from './useKvComparison';

export interface KvLabProps {
  client: EngineClient;
  analysed: Analysed | null;
  vocab: Vocab | null;
  layers: number;
  /** The user's own scenarios (those with a valid version can be A). */
  custom: CustomScenario[];
}

export function KvLab({ client, analysed, vocab, layers, custom }: KvLabProps) {
  const t = useT();
  const calls = analysed?.callPrompts.length ?? 0;
  const [source, setSource] = useState<Source>({ kind: 'calls', call: 1 });
  const [mode, setMode] = useState<CompareMode>('shared');
  const [alignment, setAlignment] = useState<PairAlignment>('position');
  const cmp = useKvComparison(client, analysed, vocab, layers, custom, source, mode);
  const { result } = cmp;

  // Reset to a valid source when the scenario changes.
  useEffect(() => {
    setSource((s) => (s.kind === 'calls' && s.call >= calls ? { kind: 'calls', call: Math.max(0, calls - 1) } : s));
  }, [calls]);

  const render = useCallback((req: ChatRequest) => renderPrompt(client, req), [client]);

  return (
    <div style={{ display: 'grid', gap: 18 }} data-role="kv-lab">
      <section style={{ display: 'grid', gap: 10 }} aria-label={t('kv.invalidationTitle')}>
        <h2 style={{ fontSize: 17, margin: 0 }}>{t('kv.invalidationTitle')}</h2>
        <p style={{ margin: 0, color: '#444', maxWidth: 980 }}>{t('kv.invalidationIntro')}</p>
        <KvComparisonPicker
          source={source}
          onSource={setSource}
          mode={mode}
          onMode={setMode}
          alignment={result?.shifted ? alignment : null}
          onAlignment={setAlignment}
          calls={calls}
          prompt={analysed?.prompt ?? null}
          custom={custom}
          busy={cmp.busy}
          editError={cmp.editError}
        />
        {cmp.error && (
          <div role="alert" style={{ color: '#a00', background: '#fde2e1', padding: '6px 10px', borderRadius: 4 }}>
            {t('error.prefix', { message: cmp.error })}
          </div>
        )}
        {result && <KvDiffSection result={result} alignment={alignment} />}
      </section>
      <CacheEconomics analysed={analysed} renderPrompt={render} />
    </div>
  );
}
