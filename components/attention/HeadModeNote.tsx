'use client';
// Under a large model's views (lib/analysis/headLayers): on a layer that holds only the head mean, says so in
// words, says which head choice could not be shown, and offers to run the prompt again for this layer's
// per-head maps; while that runs, progress (the head means stay shown). Renders nothing for the small models.
import { rerunSeconds } from '../../lib/analysis/headLayers';
import type { HeadReduction } from '../../lib/analysis/attentionView';
import { useT } from '../common/i18n';
import type { HeadLayerRun } from '../lab/useAttentionRun';
import { headLabel, type AttentionView } from './useAttentionView';

export interface HeadModeNoteProps {
  shown: Pick<AttentionView, 'layer' | 'layers' | 'heads' | 'perHead' | 'unavailable' | 'headLayers'>;
  /** The head the view settings ask for (named when this layer cannot show it). */
  asked: HeadReduction;
  /** The run's per-head control (useAttentionRun's `perHead`); null or absent: no button. */
  run?: HeadLayerRun | null;
}

export function HeadModeNote({ shown, asked, run }: HeadModeNoteProps) {
  const t = useT();
  const running = run?.running ?? null;
  if (shown.layers === 0 || (shown.perHead && running === null)) return null;
  const { layer, heads, headLayers, unavailable } = shown;
  const s = rerunSeconds(run?.lastMs ?? 0);
  return (
    <div data-role="head-layers" data-layer={layer} data-per-head-layers={headLayers.join(',')} style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 'var(--sp-1) var(--sp-3)', fontSize: 'var(--fs-sm)' }}>
      {!shown.perHead && (
        <span data-role="head-mode-note" data-unavailable={unavailable ?? undefined}>
          {heads > 0 && headLayers.length > 0 ? t('heatmap.meanOnlyNote', { layer, heads, perHead: headLayers.join(', ') }) : t('heatmap.meanOnlyNoteNone', { layer })}
          {unavailable && (
            <>
              {' '}
              <b>{t('heatmap.unavailableShown', { head: headLabel(t, unavailable === 'max' ? 'max' : asked) })}</b>
            </>
          )}
        </span>
      )}
      {run && running === null && !shown.perHead && (
        <button type="button" data-role="head-layer-run" data-layer={layer} title={t('heatmap.headLayerRunTitle', { layer })} onClick={() => run.run(layer)}>
          {t('heatmap.headLayerRun', { layer, s })}
        </button>
      )}
      {running !== null && (
        <span data-role="head-layer-running" data-layer={running} aria-live="polite" className="muted">
          <progress style={{ width: 90, verticalAlign: 'middle' }} /> {t('heatmap.headLayerRunning', { layer: running, s })}
        </span>
      )}
    </div>
  );
}
