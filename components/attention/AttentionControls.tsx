'use client';
// Layer / head / scale / γ / colour-map / hide-sink controls; writes straight to the persisted view settings.
// Inline blocks of one line height, so that they wrap evenly in the tab's toolbar. On a layer that holds only the
// head mean (a large model's run, lib/analysis/headLayers) the head control offers the mean alone and says why.
import type { ReactNode } from 'react';
import type { ViewSettings } from '../../lib/state/store';
import { useT } from '../common/i18n';
import { ColormapSelect, GammaSlider, HeadSelect, LayerSelect, ScaleSelect } from '../common/ViewSelects';

export interface AttentionControlsProps {
  view: ViewSettings;
  layers: number;
  heads: number;
  /** Whether the layer shown holds per-head maps (default true: every layer of the small models does). */
  perHead?: boolean;
  onChange: (patch: Partial<ViewSettings>) => void;
}

/**
 * The head control of a mean-only layer: the mean, named with the count and the reason, and max disabled (it
 * needs the heads). view.head is left as it is, so the head chosen comes back on a layer that has it.
 */
function MeanOnlyHeadSelect({ heads }: { heads: number }) {
  const t = useT();
  const why = t('heatmap.meanOnlyOption', { heads });
  return (
    <label title={why}>
      {t('control.head')}{' '}
      <select data-control="head" data-mean-only="true" value="mean" onChange={() => {}}>
        <option value="mean">{heads > 0 ? t('heatmap.meanOfHeads', { heads }) : t('control.headMean')}</option>
        <option value="max" disabled title={t('heatmap.maxNeedsHeads')}>
          {t('control.headMax')} ({t('heatmap.maxNeedsHeadsShort')})
        </option>
      </select>
    </label>
  );
}

const LINE = 30;

export function AttentionControls({ view, layers, heads, perHead = true, onChange }: AttentionControlsProps) {
  const t = useT();
  const item = (key: string, node: ReactNode) => (
    <span key={key} style={{ display: 'inline-block', verticalAlign: 'middle', height: LINE, lineHeight: `${LINE}px`, marginRight: 'var(--sp-4)', marginBottom: 'var(--sp-1)', whiteSpace: 'nowrap' }}>
      {node}
    </span>
  );
  return (
    <div data-role="attention-controls" style={{ fontSize: 'var(--fs-sm)' }}>
      {item('layer', <LayerSelect value={Math.min(view.layer, layers - 1)} layers={layers} onChange={(layer) => onChange({ layer })} />)}
      {item('head', perHead ? <HeadSelect value={view.head} heads={heads} onChange={(head) => onChange({ head })} /> : <MeanOnlyHeadSelect heads={heads} />)}
      {item('scale', <ScaleSelect value={view.scale} onChange={(scale) => onChange({ scale })} />)}
      {view.scale === 'power' && item('gamma', <GammaSlider value={view.gamma} onChange={(gamma) => onChange({ gamma })} />)}
      {item('colormap', <ColormapSelect value={view.colormap} onChange={(colormap) => onChange({ colormap })} />)}
      {item(
        'hide-sink',
        // The short label fits the figure's width; the title keeps the full wording.
        <label title={t('control.hideSink')}>
          <input data-control="hide-sink" type="checkbox" checked={view.hideSink} onChange={(e) => onChange({ hideSink: e.target.checked })} /> {t('heatmap.hideSinkShort')}
        </label>,
      )}
    </div>
  );
}
