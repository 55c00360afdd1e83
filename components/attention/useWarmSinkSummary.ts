'use client';
// Computes a run's sink summary in idle time as soon as the run arrives, so that opening the Attention tab
// finds it memoised (lib/analysis/sinkSummary) instead of paying every layer's passes inside the click
// (issue 17: no main-thread task over 200 ms; docs/BENCHMARKS.md, responsive tab switching).
import { useEffect } from 'react';
import { headLayersOf } from '../../lib/analysis/headLayers';
import { sinkSummaryOf } from '../../lib/analysis/sinkSummary';
import type { Analysed } from '../../lib/state/analysed';

export function useWarmSinkSummary(data: Analysed | null): void {
  useEffect(() => {
    if (!data) return;
    // The same key SinkPanel asks with (useAttentionView's headLayers are headLayersOf(data)).
    const warm = () => void sinkSummaryOf(data.attention, headLayersOf(data));
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(warm, { timeout: 2000 });
      return () => cancelIdleCallback(id);
    }
    const id = setTimeout(warm, 50);
    return () => clearTimeout(id);
  }, [data]);
}
