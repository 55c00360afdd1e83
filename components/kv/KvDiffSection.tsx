'use client';
// The main figure of the KV-cache tab: one sentence saying what the maps show, the ΔK and ΔV maps (layers ×
// positions, sized to the panel) with their change marks and legend, exportable as picture or JSON, what the
// pointer is over, and the recompute sweep's controls and count.
import { useState } from 'react';
import { sweepPosition, type InvalidationFacts } from '../../lib/analysis/invalidation';
import type { KvDelta } from '../../lib/analysis/kvDiff';
import { matrixJson } from '../../lib/io/export';
import { formatTick } from '../../lib/view/scale';
import { ExportFrame } from '../common/ExportFrame';
import { useT } from '../common/i18n';
import type { PairAlignment } from './KvComparisonPicker';
import { KvDiffLegend, KvDiffMap, LAYER_LABEL_W } from './KvDiffMap';
import { KvStory } from './KvFacts';
import { TOL, type Compared } from './useKvComparison';
import { SWEEP_SPEEDS, useSweep } from './useSweep';

/** A difference to three significant digits (3.86, 0.0127, 1.19e-7). */
const fmt3 = (x: number) => formatTick(Number(x.toPrecision(3)));

/** The compared delta the maps show (token-aligned when chosen and offered), and where its reused prefix ends. */
export function shownDelta(result: Compared, alignment: PairAlignment): KvDelta {
  return alignment === 'token' && result.shifted ? result.shifted : result.delta;
}

/** Compared pairs whose A position is before the reused prefix's end (the prefix line's index). */
export function prefixIndex(shown: KvDelta, prefix: number): number {
  let n = 0;
  for (const x of shown.a) if (x < prefix) n++;
  return n;
}

export interface KvDiffSectionProps {
  result: Compared;
  shown: KvDelta;
  facts: InvalidationFacts;
  alignment: PairAlignment;
  /** Width available to the figure (the panel's content width), CSS px. */
  width: number;
}

export function KvDiffSection({ result, shown, facts, alignment, width }: KvDiffSectionProps) {
  const t = useT();
  const max = Math.max(...shown.perLayer.map((r) => Math.max(r.maxK, r.maxV)), TOL * 10);
  const pIndex = prefixIndex(shown, result.prefix);
  const sweep = useSweep(result);
  const { fraction } = sweep;
  const sweepAt = sweepPosition(facts, Math.round(fraction * facts.recomputedEntries));
  const sweepShown = fraction < 1 ? { from: pIndex, fraction } : null;
  const [hover, setHover] = useState<{ layer: number; index: number } | null>(null);
  // The maps leave room for the layer labels and a little slack (the export frame's own width).
  const mapWidth = Math.max(240, Math.floor(width - LAYER_LABEL_W - 4));
  // B's positions past the last compared pair (B appends to A): drawn as "only in B" right of the pairs.
  const extra = Math.max(0, result.bIds.length - (shown.positions > 0 ? shown.b[shown.positions - 1]! + 1 : 0));

  const json = () => ({
    kind: 'kv-diff',
    mode: result.mode,
    alignment,
    tol: TOL,
    max,
    prefix: result.prefix,
    prefixIndex: pIndex,
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

  const hovered = hover && hover.index < shown.positions ? hover : null;
  const hoverText = hovered
    ? (() => {
        const at = hovered.layer * shown.positions + hovered.index;
        const a = shown.a[hovered.index]!;
        const b = shown.b[hovered.index]!;
        return t('kv.hover', {
          layer: hovered.layer,
          a,
          b,
          ta: result.aLabels[a] ?? '',
          tb: result.bLabels[b] ?? '',
          k: fmt3(shown.maxK[at]!),
          v: fmt3(shown.maxV[at]!),
        });
      })()
    : t('kv.hoverHint');

  return (
    <div
      style={{ display: 'grid', gap: 'var(--sp-2)' }}
      data-role="kv-result"
      data-source={result.source.kind}
      data-prefix={result.prefix}
      data-a-tokens={result.aIds.length}
      data-b-tokens={result.bIds.length}
      data-recomputed={facts.recomputedTokens}
    >
      <KvStory facts={facts} result={result} alignment={alignment} />
      <ExportFrame name={`kv-diff-${result.mode}-${alignment}`} title={t('export.caption.kvDiff', { tol: TOL })} bodyStyle={{ display: 'grid', gap: 'var(--sp-1)' }} json={json}>
        {(
          [
            ['k', t('kv.mapK'), shown.maxK],
            ['v', t('kv.mapV'), shown.maxV],
          ] as const
        ).map(([tensor, title, delta]) => (
          <KvDiffMap
            key={tensor}
            tensor={tensor}
            title={title}
            delta={delta}
            layers={shown.layers}
            positions={shown.positions}
            aPositions={shown.a}
            tol={TOL}
            max={max}
            prefix={pIndex}
            extra={extra}
            sweep={sweepShown}
            width={mapWidth}
            axisTitle={tensor === 'v'}
            callouts={tensor === 'k'}
            onHover={setHover}
          />
        ))}
        <KvDiffLegend tol={TOL} max={max} extra={extra} />
      </ExportFrame>
      <div data-role="kv-hover" className="small" style={{ marginLeft: LAYER_LABEL_W, minHeight: '1.45em', fontFamily: 'var(--font-mono)', color: hovered ? 'var(--c-text)' : 'var(--c-muted)', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>
        {hoverText}
      </div>
      <div className="controls" style={{ marginLeft: LAYER_LABEL_W }}>
        <button type="button" data-control="kv-play" onClick={sweep.toggle}>
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
        <input type="range" min={0} max={1} step={0.001} value={fraction} aria-label={t('kv.sweepPosition')} onChange={(e) => sweep.seek(Number(e.target.value))} style={{ width: 200 }} />
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
    </div>
  );
}
