'use client';
// The copy source of the Step tab's query row (docs/CONCEPTS.md#copy-source): the row at position cursor − 1
// predicts the timeline's token at the cursor (a prompt token or a generated one); lib/analysis/copySource finds
// the strongest attention, over every layer and head the row holds, to an earlier occurrence of that token.
import { useMemo } from 'react';
import { copySource, type CopyCoverage, type CopySource } from '../../lib/analysis/copySource';
import type { Row } from '../../lib/generate/stepSession';
import type { StepOps } from './useStepSession';

export interface StepCopySource {
  /** Null where the row predicts no token of the timeline (the cursor is at its end) or no row is cached. */
  copy: CopySource | null;
  /** What was searched: every layer and head of the row. */
  coverage: CopyCoverage;
}

export function useStepCopySource(ops: StepOps, row: Row | undefined): StepCopySource {
  const { session: s, cursor } = ops;
  const revision = s?.revision ?? 0;
  const copy = useMemo(() => {
    if (!s || !row || row.position !== cursor - 1 || cursor >= s.seq.length) return null;
    return copySource(row.attention, row.heads, row.position, s.seq, s.seq[cursor]!);
    // `revision` stands for s.seq (mutated in place by the session).
  }, [s, row, cursor, revision]); // eslint-disable-line react-hooks/exhaustive-deps
  const layers = row?.attention.length ?? 0;
  const heads = row?.heads ?? 0;
  const coverage = useMemo((): CopyCoverage => ({ kind: 'all', layers: Array.from({ length: layers }, (_, l) => l), heads, totalLayers: layers }), [layers, heads]);
  return { copy, coverage };
}
