'use client';
// The A/B tab's regions (docs/CONCEPTS.md#regions): each arm's own, with the ranges the user marks taken
// first, and the attention mass per region at the decision position (docs/CONCEPTS.md#decision-position)
// and over the generated tokens. The masses are lib/analysis/abCompare's.
import { useEffect, useMemo, useRef, useState } from 'react';
import { regionMasses, regionMassesOverRows, type Region, type RegionMasses } from '../../lib/analysis/abCompare';
import { withUserRanges, type UserRange } from '../../lib/analysis/abArms';
import type { SeedRun } from '../../lib/generate/abSeeds';
import type { GenResult } from './DecisionOutcomes';
import type { Arm, Prepared } from './useAbArms';

export interface ArmMasses {
  a: RegionMasses | null;
  b: RegionMasses | null;
}

export interface AbRegions {
  userRanges: UserRange[];
  addRange: (r: Omit<UserRange, 'id'>) => void;
  removeRange: (id: string) => void;
  /** Masses at each arm's decision position (null before the arms are prepared). */
  decision: { a: RegionMasses; b: RegionMasses } | null;
  /** Masses over the generated tokens' rows (null before anything was generated). */
  generated: ArmMasses | null;
}

export function useAbRegions(prepared: Prepared | null, preparedKey: string | null, gen: GenResult | null): AbRegions {
  const [userRanges, setUserRanges] = useState<UserRange[]>([]);
  const nextRange = useRef(1);
  useEffect(() => setUserRanges([]), [preparedKey]);
  const regions = useMemo(() => {
    if (!prepared) return null;
    const P = prepared.alignment.sharedPrefix;
    return {
      A: withUserRanges('A', prepared.base.A, userRanges, P, prepared.a.prompt),
      B: withUserRanges('B', prepared.base.B, userRanges, P, prepared.b.prompt),
    };
  }, [prepared, userRanges]);
  const decision = useMemo(() => {
    if (!prepared || !regions) return null;
    const m = (arm: Arm, rs: Region[]) => regionMasses(arm.attention, arm.prompt, rs, arm.prompt.ids.length - 1);
    return { a: m(prepared.a, regions.A), b: m(prepared.b, regions.B) };
  }, [prepared, regions]);
  const generated = useMemo(() => {
    if (!prepared || !regions || !gen) return null;
    const m = (arm: Arm, runs: SeedRun[], rs: Region[]): RegionMasses | null => {
      const rows = runs.flatMap((r) => r.rows);
      return rows.length ? regionMassesOverRows(rows, arm.prompt, rs) : null;
    };
    const a = m(prepared.a, gen.runs.A, regions.A);
    const b = m(prepared.b, gen.runs.B, regions.B);
    return a || b ? { a, b } : null;
  }, [prepared, regions, gen]);
  return {
    userRanges,
    addRange: (r) => setUserRanges((rs) => [...rs, { ...r, id: `user-${nextRange.current++}` }]),
    removeRange: (id) => setUserRanges((rs) => rs.filter((r) => r.id !== id)),
    decision,
    generated,
  };
}
