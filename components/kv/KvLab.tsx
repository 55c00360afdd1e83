'use client';
// The KV-cache lab: prefix invalidation on the real model's K/V tensors (docs/CONCEPTS.md#prefix-invalidation).
// Picks two token sequences (by default a one-token edit in the system prompt of the shown prompt; or
// consecutive calls of the scenario, of a request pattern, or two scenarios), has the worker compute both
// caches (sharing the prefix through the cache, or prefilling both separately), and shows where they differ,
// layer by layer, with the recompute sweep. The header says what is compared; the details and the cache
// economics panels follow below the maps.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { EngineClient } from '../../lib/engine/client';
import type { CompareMode } from '../../lib/engine/kvCompare';
import { defaultEdit, invalidationFacts } from '../../lib/analysis/invalidation';
import type { ChatRequest } from '../../lib/scenarios/types';
import { CATALOG } from '../../lib/scenarios/catalog';
import { visibleWhitespace } from '../../lib/prompt/label';
import { singleToken, type Vocab } from '../../lib/prompt/vocab';
import { customOf, type CustomScenario } from '../../lib/state/store';
import type { Analysed } from '../../lib/state/analysed';
import type { StringKey } from '../../lib/i18n';
import { contextLabel } from '../common/contextLabel';
import { useDescribe, useLang, useT, type T } from '../common/i18n';
import { ViewHeader, type ViewFact } from '../common/ViewHeader';
import { CacheEconomics } from './CacheEconomics';
import { KvComparisonPicker, KvEditTokens, type PairAlignment } from './KvComparisonPicker';
import { KvDiffSection, shownDelta } from './KvDiffSection';
import { KvFacts } from './KvFacts';
import { renderPrompt } from '../../lib/engine/renderPrompt';
import { useBoxWidth } from '../common/useBoxWidth';
import { MIN_MARK_PX } from '../../lib/view/kvMarks';
import { useKvComparison, type Compared, type Source } from './useKvComparison';

export interface KvLabProps {
  client: EngineClient;
  analysed: Analysed | null;
  vocab: Vocab | null;
  layers: number;
  /** The user's own scenarios (those with a valid version can be A). */
  custom: CustomScenario[];
  /** For the header: the model's id and the scenario's name (left out when not given). */
  model?: string;
  scenarioName?: string;
}

type EditSource = Extract<Source, { kind: 'edit' }>;

/** The default comparison for a prompt: defaultEdit's one-token replacement (in the system prompt when it has one). */
function defaultSource(analysed: Analysed | null, vocab: Vocab | null): EditSource & { segment: string } {
  const e = analysed ? defaultEdit(analysed.prompt, (s) => (vocab ? singleToken(vocab, s).ok : true)) : null;
  return { kind: 'edit', edit: 'replace', position: e?.position ?? 0, text: e?.text ?? ' the', segment: e?.segment ?? 'system' };
}

const SEGMENT_WHERE: Record<string, StringKey> = { system: 'kv.whereSystem', user: 'kv.whereUser' };

/** "call 1 (268 tokens)", "this prompt with one token replaced (411 tokens)" …: the two sides of a comparison. */
function sides(t: T, r: Compared, lang: 'en' | 'zh', custom: CustomScenario[]): { a: string; b: string } {
  const s = r.source;
  const n = (x: number) => t('kv.tokensN', { n: x });
  if (s.kind === 'calls') return { a: t('kv.sideCall', { call: s.call, tokens: n(r.aIds.length) }), b: t('kv.sideCall', { call: s.call + 1, tokens: n(r.bIds.length) }) };
  if (s.kind === 'pattern')
    return { a: t('kv.sidePattern', { mode: s.mode, call: s.call, tokens: n(r.aIds.length) }), b: t('kv.sidePattern', { mode: s.mode, call: s.call + 1, tokens: n(r.bIds.length) }) };
  if (s.kind === 'scenario') {
    const name = customOf({ custom }, s.ref)?.name ?? CATALOG.find((e) => e.ref === s.ref)?.title[lang] ?? s.ref;
    return { a: t('kv.sideNamed', { name, tokens: n(r.aIds.length) }), b: t('kv.sideShown', { tokens: n(r.bIds.length) }) };
  }
  const token = r.aLabels[s.position] ?? '';
  const key: StringKey = s.edit === 'replace' ? 'kv.sideReplace' : s.edit === 'insert' ? 'kv.sideInsert' : 'kv.sideDelete';
  return { a: t('kv.sideShown', { tokens: n(r.aIds.length) }), b: t(key, { position: s.position, from: token, to: visibleWhitespace(s.text), tokens: n(r.bIds.length) }) };
}

export function KvLab({ client, analysed, vocab, layers, custom, model, scenarioName }: KvLabProps) {
  const t = useT();
  const describe = useDescribe();
  const lang = useLang();
  const calls = analysed?.callPrompts.length ?? 0;
  // null: the default edit of the shown prompt (recomputed when the prompt changes).
  const [chosen, setChosen] = useState<Source | null>(null);
  const [mode, setMode] = useState<CompareMode>('shared');
  const [alignment, setAlignment] = useState<PairAlignment>('position');
  const fallback = useMemo(() => defaultSource(analysed, vocab), [analysed, vocab]);
  const source: Source = chosen ?? fallback;
  const cmp = useKvComparison(client, analysed, vocab, layers, custom, source, mode);
  const { result } = cmp;
  const [boxRef, width] = useBoxWidth(1100);
  // Ready (data-ready): the comparison shown is the one chosen, and the economics panels have rendered.
  const [econSettled, setEconSettled] = useState(false);

  // A new prompt: an edit's position belonged to the old one (back to the default); a call pair past the
  // last call moves to the last pair.
  const prompt = analysed?.prompt ?? null;
  useEffect(() => {
    setChosen((s) => (s?.kind === 'edit' ? null : s));
  }, [prompt]);
  useEffect(() => {
    setChosen((s) => (s?.kind === 'calls' && s.call >= calls ? { kind: 'calls', call: Math.max(1, calls - 1) } : s));
  }, [calls]);

  const onKind = (k: Source['kind']) => {
    if (k === 'edit') setChosen(null);
    else if (k === 'calls') setChosen({ kind: 'calls', call: Math.max(1, calls - 1) });
    else if (k === 'pattern') setChosen({ kind: 'pattern', mode: 'dynamic_system', call: 1 });
    else setChosen({ kind: 'scenario', ref: CATALOG[0]!.ref });
  };

  const shown = result ? shownDelta(result, alignment) : null;
  const facts = useMemo(() => (result && shown ? invalidationFacts(shown, result.aIds.length, result.bIds.length, result.prefix) : null), [result, shown]);
  const render = useCallback((req: ChatRequest) => renderPrompt(client, req), [client]);

  const headerFacts: ViewFact[] = [];
  if (model) headerFacts.push({ key: 'model', label: t('fact.model'), value: model });
  if (scenarioName) headerFacts.push({ key: 'scenario', label: t('fact.scenario'), value: scenarioName });
  if (analysed) headerFacts.push({ key: 'context', label: t('fact.context'), value: `${contextLabel(t, analysed.context)} · ${t('kv.tokensN', { n: analysed.tokens })}` });
  if (result) {
    const { a, b } = sides(t, result, lang, custom);
    headerFacts.push({ key: 'compare', label: t('kv.factCompare'), value: t('kv.aVsB', { a, b }) });
  }
  if (layers > 0) headerFacts.push({ key: 'layers', label: t('kv.factLayers'), value: layers });
  const where = source.kind === 'edit' && chosen === null ? t(SEGMENT_WHERE[fallback.segment] ?? 'kv.whereOther') : null;

  return (
    <div style={{ display: 'grid', gap: 'var(--sp-3)', minWidth: 0 }} data-role="kv-lab" data-ready={Boolean(result && !cmp.busy && !cmp.error && econSettled)}>
      <ViewHeader title={t('kv.viewTitle')} facts={headerFacts} />
      <section ref={boxRef} className="panel" data-role="kv-main" aria-label={t('kv.invalidationTitle')} style={{ display: 'grid', gap: 'var(--sp-2)' }}>
        <KvComparisonPicker
          source={source}
          onKind={onKind}
          onSource={setChosen}
          mode={mode}
          onMode={setMode}
          alignment={result?.shifted ? alignment : null}
          onAlignment={setAlignment}
          calls={calls}
          prompt={prompt}
          custom={custom}
          busy={cmp.busy}
          editError={cmp.editError}
        />
        {cmp.error && (
          <div role="alert" style={{ color: 'var(--c-error)', background: 'var(--c-error-soft)', padding: 'var(--sp-1) var(--sp-2)', borderRadius: 'var(--radius)' }}>
            {t('error.prefix', { message: describe(cmp.error) })}
          </div>
        )}
        {result && shown && facts && <KvDiffSection result={result} shown={shown} facts={facts} alignment={alignment} width={width} />}
      </section>
      <section className="panel" data-role="view-secondary" aria-label={t('kv.detailsTitle')} style={{ display: 'grid', gap: 'var(--sp-3)' }}>
        <div style={{ display: 'grid', gap: 'var(--sp-1)' }}>
          <h3 style={{ margin: 0 }}>{t('kv.invalidationTitle')}</h3>
          <p style={{ margin: 0, maxWidth: '80em' }}>{t('kv.invalidationIntro')}</p>
        </div>
        {result && facts && <KvFacts result={result} facts={facts} alignment={alignment} />}
        <p className="muted small" style={{ margin: 0, maxWidth: '80em' }}>
          {t('kv.mapNote', { px: MIN_MARK_PX })}
        </p>
        {where && (
          <p className="muted small" data-role="kv-default-note" style={{ margin: 0 }}>
            {t('kv.defaultNote', { where })}
          </p>
        )}
        {source.kind === 'edit' && prompt && <KvEditTokens source={source} prompt={prompt} onSource={setChosen} />}
      </section>
      <CacheEconomics analysed={analysed} renderPrompt={render} onSettled={setEconSettled} />
    </div>
  );
}
