'use client';
// The result of one KV-cache comparison: its facts, the recompute sweep's controls and count, and the ΔK /
// ΔV maps (layers × positions) with their legend, exportable as picture or JSON.
import { useMemo } from 'react';
import { invalidationFacts, sweepPosition } from '../../lib/analysis/invalidation';
import { matrixJson } from '../../lib/io/export';
import { ExportFrame } from '../common/ExportFrame';
import { useT } from '../common/i18n';
import type { PairAlignment } from './KvComparisonPicker';
import { KvDiffLegend, KvDiffMap } from './KvDiffMap';
import { KvFacts } from './KvFacts';
import { TOL, type Compared } from './useKvComparison';
import { SWEEP_SPEEDS, useSweep } from './useSweep';

function countBelow(a: Int32Array, end: number): number {
  let n = 0;
  for (const x of a) if (x < end) n++;
  return n;
}

export function KvDiffSection({ result, alignment }: { result: Compared; alignment: PairAlignment }) {
  const t = useT();
  const shown = alignment === 'token' && result.shifted ? result.shifted : result.delta;
  const facts = useMemo(() => invalidationFacts(shown, result.aIds.length, result.bIds.length, result.prefix), [result, shown]);
  const max = Math.max(...shown.perLayer.map((r) => Math.max(r.maxK, r.maxV)), TOL * 10);
  const prefixIndex = countBelow(shown.a, result.prefix);
  const sweep = useSweep(result);
  const { fraction } = sweep;
  const sweepAt = sweepPosition(facts, Math.round(fraction * facts.recomputedEntries));
  const sweepShown = fraction < 1 ? { from: prefixIndex, fraction } : null;

  const json = () => ({
    kind: 'kv-diff',
    mode: result.mode,
    alignment,
    tol: TOL,
    max,
    prefix: result.prefix,
    prefixIndex,
    layers: shown.layers,
    positions: shown.positions,
    sweep: sweepShown,
    pairs: { a: shown.a, b: shown.b },
    tokens: { a: result.aLabels, b: result.bLabels },
    perLayer: shown.perLayer,
    maxK: matrixJson(shown.maxK, shown.layers, shown.positions),
    maxV: matrixJson(shown.maxV, shown.layers, shown.positions),
    bitEqual: Array.from({ length: shown.layers }, (_, l) => Array.from(shown.bitEqual.subarray(l * shown.positions, (l + 1) * shown.positions))),
    facts,
  });

  return (
    <div style={{ display: 'grid', gap: 10 }} data-role="kv-result" data-prefix={result.prefix} data-recomputed={facts.recomputedTokens}>
      <KvFacts result={result} facts={facts} alignment={alignment} />
      <div style={{ display: 'flex', gap: 12, alignItems: 'center', flexWrap: 'wrap' }}>
        <button data-control="kv-play" onClick={sweep.toggle}>
          {sweep.playing ? t('kv.pause') : t('kv.playSweep')}
        </button>
        <label>
          {t('kv.speed')}{' '}
          <select value={sweep.speed} onChange={(e) => sweep.setSpeed(Number(e.target.value))}>
            {SWEEP_SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </label>
        <input type="range" min={0} max={1} step={0.001} value={fraction} aria-label={t('kv.sweepPosition')} onChange={(e) => sweep.seek(Number(e.target.value))} style={{ width: 240 }} />
        <span data-role="kv-sweep-count" style={{ fontVariantNumeric: 'tabular-nums' }}>
          {sweepAt.layer < facts.layers
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
      <ExportFrame name={`kv-diff-${result.mode}-${alignment}`} title={t('export.caption.kvDiff', { tol: TOL })} bodyStyle={{ display: 'grid', gap: 10 }} json={json}>
        {(
          [
            [t('kv.mapK'), shown.maxK],
            [t('kv.mapV'), shown.maxV],
          ] as const
        ).map(([title, delta]) => (
          <KvDiffMap key={title} title={title} delta={delta} layers={shown.layers} positions={shown.positions} tol={TOL} max={max} prefix={prefixIndex} sweep={sweepShown} />
        ))}
        <KvDiffLegend tol={TOL} max={max} />
      </ExportFrame>
      <p style={{ margin: 0, color: '#555', fontSize: 12, maxWidth: 980 }}>{t('kv.mapNote')}</p>
    </div>
  );
}
