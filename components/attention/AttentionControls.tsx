'use client';
// Layer / head / scale / γ / colour-map / hide-sink controls; writes straight to the persisted view settings.
import type { ViewSettings } from '../../lib/state/store';
import { ColormapSelect, GammaSlider, HeadSelect, HideSinkToggle, LayerSelect, ScaleSelect } from '../common/ViewSelects';

export interface AttentionControlsProps {
  view: ViewSettings;
  layers: number;
  heads: number;
  onChange: (patch: Partial<ViewSettings>) => void;
}

export function AttentionControls({ view, layers, heads, onChange }: AttentionControlsProps) {
  return (
    <div data-role="attention-controls" style={{ display: 'flex', gap: 14, flexWrap: 'wrap', alignItems: 'center' }}>
      <LayerSelect value={Math.min(view.layer, layers - 1)} layers={layers} onChange={(layer) => onChange({ layer })} />
      <HeadSelect value={view.head} heads={heads} onChange={(head) => onChange({ head })} />
      <ScaleSelect value={view.scale} onChange={(scale) => onChange({ scale })} />
      {view.scale === 'power' && <GammaSlider value={view.gamma} onChange={(gamma) => onChange({ gamma })} />}
      <ColormapSelect value={view.colormap} onChange={(colormap) => onChange({ colormap })} />
      <HideSinkToggle value={view.hideSink} onChange={(hideSink) => onChange({ hideSink })} />
    </div>
  );
}
