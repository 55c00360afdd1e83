'use client';
// The facts of one KV-cache comparison, phrased (docs/CONCEPTS.md#prefix-invalidation): where the two
// sequences part, what must be recomputed, whether the reused prefix is bit-identical, what changed in
// layer 0 and in each later layer; and, above the maps, the one sentence that says what they show
// (invalidationStory). Every number comes from lib/analysis/invalidation's invalidationFacts.
import { invalidationStory, type InvalidationFacts } from '../../lib/analysis/invalidation';
import { useT } from '../common/i18n';
import type { PairAlignment } from './KvComparisonPicker';
import { TOL, type Compared } from './useKvComparison';

const fmt = (x: number) => (x === 0 ? '0' : x.toExponential(2));

/** The facts of this comparison, phrased; every number comes from invalidationFacts. */
export function KvFacts({ result, facts, alignment }: { result: Compared; facts: InvalidationFacts; alignment: PairAlignment }) {
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
    <ul data-role="kv-facts" style={{ margin: 0, paddingLeft: 20, display: 'grid', gap: 3, maxWidth: '72em' }}>
      {items.map((s, i) => (
        <li key={i}>{s}</li>
      ))}
      <li className="muted">{t('kv.factTiming', { mode: result.mode === 'shared' ? t('kv.modeShared') : t('kv.modeSeparate'), computed: result.computedB, ms: result.ms.toFixed(0), tol: TOL.toExponential(0) })}</li>
    </ul>
  );
}

/** What the maps show, in one sentence (above them); the orange marks and the blue line are named as in the legend. */
export function KvStory({ facts, result, alignment }: { facts: InvalidationFacts; result: Compared; alignment: PairAlignment }) {
  const t = useT();
  const s = invalidationStory(facts);
  let text: string;
  if (s.kind === 'same') text = t('kv.storySame', { tokens: s.tokens });
  else if (s.kind === 'append') text = t('kv.storyAppend', { a: s.a, b: s.b, n: s.b - s.a });
  else if (s.kind === 'truncate') text = t('kv.storyTruncate', { a: s.a, b: s.b });
  else if (s.kind === 'inPlace')
    text = t(s.positions.length === 1 ? 'kv.storyInPlace' : 'kv.storyInPlaceFew', {
      positions: s.positions.join(', '),
      from: s.from,
      reused: s.from - 1,
      later: s.later,
      last: s.layers,
    });
  else if (s.kind === 'shifted') text = t(result.shifted && alignment === 'position' ? 'kv.storyShiftedSwitch' : 'kv.storyShifted', { count: s.count, first: s.first });
  else text = t('kv.storyOther', { prefix: s.prefix, recomputed: s.recomputed });
  return (
    <p data-role="kv-story" data-story={s.kind} style={{ margin: 0, fontSize: 'var(--fs-md)', maxWidth: '80em' }}>
      {text}
    </p>
  );
}
