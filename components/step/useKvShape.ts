'use client';
// The K/V shape the Step tab's cache-growth panel shows, read from the worker's real cache (layer 0's K is
// [kvHeads, length, headDim]) once the tab is quiet: not while playing or generating.
import { useMemo, useState } from 'react';
import type { EngineClient } from '../../lib/engine/client';
import type { KvShape } from '../../lib/analysis/kvBytes';
import { useEngineTask } from '../hooks/useEngineTask';
import type { StepOps } from './useStepSession';

/** Waits this long after the last move before reading, so a burst of key presses reads once. */
const SETTLE_MS = 150;

export interface KvShapeView {
  shape: KvShape | null;
  /** The dims read, as they came. */
  measured: number[] | null;
}

export function useKvShape(client: EngineClient, ops: StepOps, layers: number, quiet: boolean): KvShapeView {
  const { session, sessionNo, cursor } = ops;
  // While busy the key holds still (no read, the last figures stay): a null key would drop them.
  const want = session && cursor > 0 && layers > 0 && quiet ? `${sessionNo}:${cursor}:${session.revision}:${layers}` : null;
  const [key, setKey] = useState<string | null>(null);
  if (want !== null && want !== key) setKey(want);
  const task = useEngineTask<number[]>(key, async ({ signal, stale }) => {
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    if (stale()) return [];
    const r = await client.readKv(0, { signal });
    return [...r.k.dims];
  });
  const measured = task.value;
  const [kvHeads, , headDim] = measured ?? [];
  const shape = useMemo(
    () => (kvHeads !== undefined && headDim !== undefined ? { layers, kvHeads, headDim, bytesPerValue: 4 } : null),
    [layers, kvHeads, headDim],
  );
  return { shape, measured };
}
