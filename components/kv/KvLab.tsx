'use client';
// The KV-cache lab: prefix invalidation on the real model's K/V tensors. Picks two token sequences
// (consecutive calls of the scenario, a one-token edit, or two scenarios), has the worker compute both
// caches (sharing the prefix through the cache, or prefilling both separately), and shows where they
// differ, layer by layer, with the recompute sweep. The cache economics panels follow.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { EngineClient } from '../../lib/engine/client';
import { compareCaches, type CompareMode, type KvEngine } from '../../lib/engine/kvCompare';
import { kvDelta, suffixAlignment, tokenDelete, tokenEdit, tokenInsert, type Alignment, type KvDelta } from '../../lib/analysis/kvDiff';
import { invalidationFacts, sweepPosition, type EditKind } from '../../lib/analysis/invalidation';
import type { PromptResult } from '../../lib/engine/promptHook';
import type { Prompt } from '../../lib/prompt/prompt';
import { displayToken, visibleWhitespace } from '../../lib/prompt/label';
import { singleToken, type Vocab } from '../../lib/prompt/vocab';
import type { ChatRequest } from '../../lib/scenarios/types';
import { CATALOG } from '../../lib/scenarios/catalog';
import { PATTERN_CALLS, PATTERN_MODES, patternRun, type PatternMode } from '../../lib/agent/patterns';
import { customOf, type CustomScenario } from '../../lib/state/store';
import { parseScenarioRef, scenarioRequest } from '../../lib/scenarios';
import { matrixJson } from '../../lib/io/export';
import type { Analysed } from '../../lib/state/analysed';
import { ExportFrame } from '../common/ExportFrame';
import { KvDiffLegend, KvDiffMap } from './KvDiffMap';
import { TokenView } from '../attention/TokenView';
import { useT } from '../common/i18n';
import { CacheEconomics } from './CacheEconomics';
import { ScenarioOptions } from '../scenario/ScenarioOptions';

/** Differences at or below this count as floating-point noise (stated in the view). */
const TOL = 1e-6;

type Source =
  | { kind: 'calls'; call: number }
  | { kind: 'pattern'; mode: PatternMode; call: number }
  | { kind: 'edit'; edit: EditKind; position: number; text: string }
  | { kind: 'scenario'; ref: string };

interface Compared {
  aIds: number[];
  bIds: number[];
  aLabels: string[];
  bLabels: string[];
  prefix: number;
  mode: CompareMode;
  computedB: number;
  delta: KvDelta;
  /** Token-to-token pairing of the common suffix when the lengths differ (insertion/deletion). */
  shifted: KvDelta | null;
  ms: number;
}

export interface KvLabProps {
  client: EngineClient;
  analysed: Analysed | null;
  vocab: Vocab | null;
  layers: number;
  /** The user's own scenarios (those with a valid version can be A). */
  custom: CustomScenario[];
}

/** The page's EngineClient as compareCaches' engine: every call crosses to the worker. */
function clientEngine(client: EngineClient, numLayers: number): KvEngine {
  return {
    config: { numLayers },
    get length() {
      return client.length;
    },
    // Attention stays in the worker ('keep'): only K/V travel back.
    prefill: (ids) => client.prefill(ids, { attention: 'keep' }),
    extend: (ids) => client.extend(ids, { attention: 'keep' }),
    fork: (n) => client.fork(n),
    kv: async (l) => {
      const r = await client.readKv(l);
      return { k: r.k, v: r.v };
    },
  };
}

export function KvLab({ client, analysed, vocab, layers, custom }: KvLabProps) {
  const t = useT();
  const calls = analysed?.callPrompts ?? [];
  const [source, setSource] = useState<Source>({ kind: 'calls', call: 1 });
  const [mode, setMode] = useState<CompareMode>('shared');
  const [alignment, setAlignment] = useState<'position' | 'token'>('position');
  const [result, setResult] = useState<Compared | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Reset to a valid source when the scenario changes.
  useEffect(() => {
    setSource((s) => (s.kind === 'calls' && s.call >= calls.length ? { kind: 'calls', call: Math.max(0, calls.length - 1) } : s));
  }, [calls.length]);

  const basePrompt: Prompt | null = analysed?.prompt ?? null;
  // Scenario A when comparing two scenarios; only a change of that request (not of other custom scenarios) re-runs.
  const otherRef = source.kind === 'scenario' ? source.ref : null;
  const otherCustom = otherRef ? customOf({ custom }, otherRef) : null;
  const otherRequest: ChatRequest | null = useMemo(() => {
    if (!otherRef) return null;
    if (otherRef.startsWith('custom:')) return otherCustom?.lastGood ?? null;
    const { id, variant } = parseScenarioRef(otherRef);
    return scenarioRequest(id, variant);
  }, [otherRef, otherCustom?.lastGood]); // eslint-disable-line react-hooks/exhaustive-deps
  const editError = useMemo(() => {
    if (source.kind !== 'edit' || source.edit === 'delete') return null;
    if (!vocab) return t('kv.noVocab');
    const r = singleToken(vocab, source.text);
    return r.ok ? null : r.message;
  }, [source, vocab, t]);

  useEffect(() => {
    if (!analysed || !basePrompt || layers === 0) return;
    let stale = false;
    (async () => {
      let aIds: number[];
      let bIds: number[];
      let aLabels: string[];
      let bLabels: string[];
      if (source.kind === 'calls') {
        if (calls.length < 2) throw new Error(t('kv.oneCall'));
        const c = Math.min(Math.max(1, source.call), calls.length - 1);
        aIds = calls[c - 1]!.ids;
        bIds = calls[c]!.ids;
        aLabels = calls[c - 1]!.tokens.map(displayToken);
        bLabels = calls[c]!.tokens.map(displayToken);
      } else if (source.kind === 'edit') {
        aIds = basePrompt.ids;
        aLabels = basePrompt.tokens.map(displayToken);
        const p = Math.min(source.position, aIds.length - 1);
        if (source.edit === 'delete') {
          bIds = tokenDelete(aIds, p);
          bLabels = [...aLabels.slice(0, p), ...aLabels.slice(p + 1)];
        } else {
          if (!vocab) throw new Error(t('kv.noVocab'));
          const one = singleToken(vocab, source.text);
          if (!one.ok) return; // shown next to the field
          const label = visibleWhitespace(source.text);
          if (source.edit === 'replace') {
            bIds = tokenEdit(aIds, p, one.id);
            bLabels = aLabels.map((x, i) => (i === p ? label : x));
          } else {
            bIds = tokenInsert(aIds, p, [one.id]);
            bLabels = [...aLabels.slice(0, p), label, ...aLabels.slice(p)];
          }
        }
      } else if (source.kind === 'pattern') {
        // Two consecutive calls of one of experiment 2-3's modes (seed 1, as the economics panel below).
        const run = patternRun(source.mode, { seed: 1 });
        const c = Math.min(Math.max(1, source.call), run.calls.length - 1);
        const render = async (req: ChatRequest) => {
          const r = (await client.prompt(req, { addGenerationPrompt: true })) as PromptResult;
          if (!r.ok) throw new Error(r.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
          return r.prompt;
        };
        const pa = await render(run.calls[c - 1]!.request);
        const pb = await render(run.calls[c]!.request);
        aIds = pa.ids;
        bIds = pb.ids;
        aLabels = pa.tokens.map(displayToken);
        bLabels = pb.tokens.map(displayToken);
      } else {
        const other = otherRequest;
        if (!other) throw new Error(t('scenario.noValidYet'));
        const r = (await client.prompt(other, { addGenerationPrompt: true })) as PromptResult;
        if (!r.ok) throw new Error(r.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
        aIds = r.prompt.ids;
        aLabels = r.prompt.tokens.map(displayToken);
        bIds = basePrompt.ids;
        bLabels = basePrompt.tokens.map(displayToken);
      }
      if (stale) return;
      setBusy(true);
      setError(null);
      const pair = await compareCaches(clientEngine(client, layers), aIds, bIds, { mode });
      if (stale) return;
      const delta = kvDelta(pair.a, pair.b, { tol: TOL });
      const sa = suffixAlignment(aIds, bIds);
      const shifted = sa ? kvDelta(pair.a, pair.b, { tol: TOL, alignment: { shiftAfter: sa.shiftAfter, by: sa.by } as Alignment }) : null;
      setResult({ aIds, bIds, aLabels, bLabels, prefix: pair.prefix, mode, computedB: pair.computedB, delta, shifted, ms: pair.ms });
      setBusy(false);
    })().catch((e: Error) => {
      if (stale) return;
      setBusy(false);
      setError(e.message);
    });
    return () => {
      stale = true;
    };
  }, [analysed, source, mode, layers, client, vocab, otherRequest]); // eslint-disable-line react-hooks/exhaustive-deps

  const shown = result && alignment === 'token' && result.shifted ? result.shifted : result?.delta ?? null;
  const facts = useMemo(() => (result && shown ? invalidationFacts(shown, result.aIds.length, result.bIds.length, result.prefix) : null), [result, shown]);
  const max = shown ? Math.max(...shown.perLayer.map((r) => Math.max(r.maxK, r.maxV)), TOL * 10) : 1;
  const prefixIndex = shown ? countBelow(shown.a, result?.prefix ?? 0) : 0;

  // The recompute sweep, animated: fraction of the entries after the first difference recomputed so far.
  const [fraction, setFraction] = useState(1);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(1);
  const raf = useRef(0);
  useEffect(() => {
    if (!playing) return;
    let last = performance.now();
    const step = (now: number) => {
      const dt = (now - last) / 1000;
      last = now;
      setFraction((f) => {
        const next = f + (dt * speed) / 6; // a full sweep takes 6 s at 1×
        if (next >= 1) {
          setPlaying(false);
          return 1;
        }
        return next;
      });
      raf.current = requestAnimationFrame(step);
    };
    raf.current = requestAnimationFrame(step);
    return () => cancelAnimationFrame(raf.current);
  }, [playing, speed]);
  useEffect(() => {
    setFraction(1);
    setPlaying(false);
  }, [result]);

  const sweepAt = facts ? sweepPosition(facts, Math.round(fraction * facts.recomputedEntries)) : null;

  return (
    <div style={{ display: 'grid', gap: 18 }} data-role="kv-lab">
      <section style={{ display: 'grid', gap: 10 }} aria-label={t('kv.invalidationTitle')}>
        <h2 style={{ fontSize: 17, margin: 0 }}>{t('kv.invalidationTitle')}</h2>
        <p style={{ margin: 0, color: '#444', maxWidth: 980 }}>{t('kv.invalidationIntro')}</p>
        <div style={{ display: 'flex', gap: 14, flexWrap: 'wrap', alignItems: 'center' }}>
          <label>
            {t('kv.compare')}{' '}
            <select
              data-control="kv-source"
              value={source.kind}
              onChange={(e) => {
                const k = e.target.value as Source['kind'];
                setSource(
                  k === 'calls'
                    ? { kind: 'calls', call: Math.max(1, calls.length - 1) }
                    : k === 'pattern'
                      ? { kind: 'pattern', mode: 'dynamic_system', call: 1 }
                      : k === 'edit'
                        ? { kind: 'edit', edit: 'replace', position: Math.min(40, (basePrompt?.ids.length ?? 1) - 1), text: ' the' }
                        : { kind: 'scenario', ref: CATALOG[0]!.ref },
                );
              }}
            >
              <option value="calls">{t('kv.sourceCalls')}</option>
              <option value="pattern">{t('kv.sourcePattern')}</option>
              <option value="edit">{t('kv.sourceEdit')}</option>
              <option value="scenario">{t('kv.sourceScenario')}</option>
            </select>
          </label>
          {source.kind === 'calls' && (
            <label>
              {t('kv.callPair')}{' '}
              <select data-control="kv-call" value={source.call} onChange={(e) => setSource({ kind: 'calls', call: Number(e.target.value) })}>
                {calls.slice(1).map((_, i) => (
                  <option key={i + 1} value={i + 1}>
                    {t('kv.callVsCall', { a: i + 1, b: i + 2 })}
                  </option>
                ))}
              </select>
            </label>
          )}
          {source.kind === 'pattern' && (
            <>
              <label>
                {t('kv.patternMode')}{' '}
                <select data-control="kv-pattern" value={source.mode} onChange={(e) => setSource({ ...source, mode: e.target.value as PatternMode })}>
                  {PATTERN_MODES.map((m) => (
                    <option key={m} value={m}>{m}</option>
                  ))}
                </select>
              </label>
              <label>
                {t('kv.callPair')}{' '}
                <select data-control="kv-pattern-call" value={source.call} onChange={(e) => setSource({ ...source, call: Number(e.target.value) })}>
                  {Array.from({ length: PATTERN_CALLS - 1 }, (_, i) => (
                    <option key={i + 1} value={i + 1}>
                      {t('kv.callVsCall', { a: i + 1, b: i + 2 })}
                    </option>
                  ))}
                </select>
              </label>
            </>
          )}
          {source.kind === 'scenario' && (
            <label>
              {t('kv.otherScenario')}{' '}
              <select data-control="kv-other" value={source.ref} onChange={(e) => setSource({ kind: 'scenario', ref: e.target.value })}>
                <ScenarioOptions custom={custom} validOnly />
              </select>
            </label>
          )}
          <label>
            {t('kv.mode')}{' '}
            <select data-control="kv-mode" value={mode} onChange={(e) => setMode(e.target.value as CompareMode)}>
              <option value="shared">{t('kv.modeShared')}</option>
              <option value="separate">{t('kv.modeSeparate')}</option>
            </select>
          </label>
          {result?.shifted && (
            <label>
              {t('kv.alignment')}{' '}
              <select data-control="kv-alignment" value={alignment} onChange={(e) => setAlignment(e.target.value as 'position' | 'token')}>
                <option value="position">{t('kv.alignPosition')}</option>
                <option value="token">{t('kv.alignToken')}</option>
              </select>
            </label>
          )}
          {busy && (
            <span>
              <progress style={{ width: 100, verticalAlign: 'middle' }} /> {t('kv.computing')}
            </span>
          )}
        </div>
        {source.kind === 'edit' && basePrompt && (
          <div style={{ display: 'grid', gap: 6 }}>
            <div style={{ display: 'flex', gap: 12, alignItems: 'center', flexWrap: 'wrap' }}>
              <label>
                {t('kv.edit')}{' '}
                <select data-control="kv-edit" value={source.edit} onChange={(e) => setSource({ ...source, edit: e.target.value as EditKind })}>
                  <option value="replace">{t('kv.editReplace')}</option>
                  <option value="insert">{t('kv.editInsert')}</option>
                  <option value="delete">{t('kv.editDelete')}</option>
                </select>
              </label>
              <span>
                {t('kv.editAt', { position: source.position, token: basePrompt.tokens[source.position] ? displayToken(basePrompt.tokens[source.position]!) : '' })}
              </span>
              {source.edit !== 'delete' && (
                <label>
                  {t('kv.newToken')}{' '}
                  <input data-control="kv-token" value={source.text} onChange={(e) => setSource({ ...source, text: e.target.value })} style={{ width: 120, fontFamily: 'ui-monospace, monospace' }} />
                </label>
              )}
              {editError && <span role="alert" style={{ color: '#a00' }}>{editError}</span>}
            </div>
            <TokenView tokens={basePrompt.tokens} spans={basePrompt.spans} selected={source.position} onSelect={(i) => setSource({ ...source, position: i })} height={120} />
          </div>
        )}
        {error && (
          <div role="alert" style={{ color: '#a00', background: '#fde2e1', padding: '6px 10px', borderRadius: 4 }}>
            {t('error.prefix', { message: error })}
          </div>
        )}
        {result && facts && shown && (
          <div style={{ display: 'grid', gap: 10 }} data-role="kv-result" data-prefix={result.prefix} data-recomputed={facts.recomputedTokens}>
            <Facts result={result} facts={facts} alignment={alignment} />
            <div style={{ display: 'flex', gap: 12, alignItems: 'center', flexWrap: 'wrap' }}>
              <button
                data-control="kv-play"
                onClick={() => {
                  if (fraction >= 1) setFraction(0);
                  setPlaying((p) => !p);
                }}
              >
                {playing ? t('kv.pause') : t('kv.playSweep')}
              </button>
              <label>
                {t('kv.speed')}{' '}
                <select value={speed} onChange={(e) => setSpeed(Number(e.target.value))}>
                  {[0.5, 1, 2, 4].map((s) => (
                    <option key={s} value={s}>{s}×</option>
                  ))}
                </select>
              </label>
              <input
                type="range"
                min={0}
                max={1}
                step={0.001}
                value={fraction}
                aria-label={t('kv.sweepPosition')}
                onChange={(e) => {
                  setPlaying(false);
                  setFraction(Number(e.target.value));
                }}
                style={{ width: 240 }}
              />
              <span data-role="kv-sweep-count" style={{ fontVariantNumeric: 'tabular-nums' }}>
                {sweepAt && sweepAt.layer < facts.layers
                  ? t('kv.sweepCount', {
                      entries: Math.round(fraction * facts.recomputedEntries),
                      total: facts.recomputedEntries,
                      layer: sweepAt.layer,
                      tokens: sweepAt.tokens,
                      perLayer: facts.recomputedTokens,
                    })
                  : t('kv.sweepDone', { total: facts.recomputedEntries, tokens: facts.recomputedTokens, layers: facts.layers })}
              </span>
            </div>
            <ExportFrame
              name={`kv-diff-${result.mode}-${alignment}`}
              title={t('export.caption.kvDiff', { tol: TOL })}
              bodyStyle={{ display: 'grid', gap: 10 }}
              json={() => ({
                kind: 'kv-diff',
                mode: result.mode,
                alignment,
                tol: TOL,
                max,
                prefix: result.prefix,
                prefixIndex,
                layers: shown.layers,
                positions: shown.positions,
                sweep: fraction < 1 ? { from: prefixIndex, fraction } : null,
                pairs: { a: shown.a, b: shown.b },
                tokens: { a: result.aLabels, b: result.bLabels },
                perLayer: shown.perLayer,
                maxK: matrixJson(shown.maxK, shown.layers, shown.positions),
                maxV: matrixJson(shown.maxV, shown.layers, shown.positions),
                bitEqual: Array.from({ length: shown.layers }, (_, l) => Array.from(shown.bitEqual.subarray(l * shown.positions, (l + 1) * shown.positions))),
                facts,
              })}
            >
              {([
                [t('kv.mapK'), shown.maxK],
                [t('kv.mapV'), shown.maxV],
              ] as const).map(([title, delta]) => (
                <KvDiffMap
                  key={title}
                  title={title}
                  delta={delta}
                  layers={shown.layers}
                  positions={shown.positions}
                  tol={TOL}
                  max={max}
                  prefix={prefixIndex}
                  sweep={fraction < 1 ? { from: prefixIndex, fraction } : null}
                />
              ))}
              <KvDiffLegend tol={TOL} max={max} />
            </ExportFrame>
            <p style={{ margin: 0, color: '#555', fontSize: 12, maxWidth: 980 }}>{t('kv.mapNote')}</p>
          </div>
        )}
      </section>
      <CacheEconomics
        analysed={analysed}
        renderPrompt={async (req) => {
          const r = (await client.prompt(req, { addGenerationPrompt: true })) as PromptResult;
          if (!r.ok) throw new Error(r.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
          return r.prompt;
        }}
      />
    </div>
  );
}

function countBelow(a: Int32Array, end: number): number {
  let n = 0;
  for (const x of a) if (x < end) n++;
  return n;
}

const fmt = (x: number) => (x === 0 ? '0' : x.toExponential(2));

/** The facts of this comparison, phrased; every number comes from invalidationFacts. */
function Facts({ result, facts, alignment }: { result: Compared; facts: ReturnType<typeof invalidationFacts>; alignment: 'position' | 'token' }) {
  const t = useT();
  const p = result.prefix;
  const items: string[] = [];
  const same = result.aIds.length === result.bIds.length && p === result.aIds.length;
  if (same) items.push(t('kv.factSame'));
  else if (p === Math.min(result.aIds.length, result.bIds.length)) items.push(t('kv.factContinues', { a: result.aIds.length, b: result.bIds.length }));
  else items.push(t('kv.factFirstDiff', { p, a: result.aLabels[p] ?? '', b: result.bLabels[p] ?? '' }));
  items.push(t('kv.factRecompute', { reused: p, tokens: facts.recomputedTokens, entries: facts.recomputedEntries, layers: facts.layers, total: result.bIds.length }));
  if (p > 0) {
    items.push(
      facts.prefixBitIdentical
        ? result.mode === 'shared'
          ? t('kv.factPrefixShared', { p })
          : t('kv.factPrefixSeparateExact', { p })
        : t('kv.factPrefixSeparate', { p, k: fmt(facts.prefixMaxK), v: fmt(facts.prefixMaxV) }),
    );
  }
  if (!same) {
    const l0 = facts.layer0Changed;
    items.push(
      facts.layer0ChangedCount === 0
        ? t('kv.factLayer0None')
        : facts.layer0ChangedCount <= 3
          ? t('kv.factLayer0Few', { positions: l0.join(', '), n: facts.layer0ChangedCount })
          : t('kv.factLayer0Many', { n: facts.layer0ChangedCount, first: l0[0] ?? 0 }),
    );
    for (const r of facts.perLayer.slice(1)) {
      if (r.comparedAfterPrefix === 0) continue;
      items.push(
        t('kv.factLayer', {
          layer: r.layer,
          changed: r.changedAfterPrefix,
          compared: r.comparedAfterPrefix,
          min: r.minChangeAfterPrefix === null ? '—' : fmt(r.minChangeAfterPrefix),
        }),
      );
    }
  }
  if (result.shifted && alignment === 'token') {
    const l0 = facts.perLayer[0]!;
    items.push(t('kv.factTokenAligned', { v: fmt(l0.maxVAfterPrefix), kmin: fmt(l0.minKAfterPrefix ?? 0), kmax: fmt(l0.maxKAfterPrefix) }));
  } else if (result.shifted) items.push(t('kv.factPositionAligned'));
  return (
    <ul data-role="kv-facts" style={{ margin: 0, paddingLeft: 20, display: 'grid', gap: 3, maxWidth: 1000 }}>
      {items.map((s, i) => (
        <li key={i}>{s}</li>
      ))}
      <li style={{ color: '#666' }}>{t('kv.factTiming', { mode: result.mode === 'shared' ? t('kv.modeShared') : t('kv.modeSeparate'), computed: result.computedB, ms: result.ms.toFixed(0), tol: TOL.toExponential(0) })}</li>
    </ul>
  );
}
