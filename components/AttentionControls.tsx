'use client';
// Layer / head / scale / γ / colour-map / hide-sink controls; writes straight to the persisted view settings.
import type { ViewSettings } from '../lib/state/store';
import { COLORMAP_NAMES, type ColormapName } from '../lib/view/colormap';
import { useT } from './i18n';
import { HeadSelect, LayerSelect, ScaleSelect } from './ViewSelects';

export interface AttentionControlsProps {
  view: ViewSettings;
  layers: number;
  heads: number;
  onChange: (patch: Partial<ViewSettings>) => void;
}

export function AttentionControls({ view, layers, heads, onChange }: AttentionControlsProps) {
  const t = useT();
  return (
    <div data-role="attention-controls" style={{ display: 'flex', gap: 14, flexWrap: 'wrap', alignItems: 'center' }}>
      <LayerSelect value={Math.min(view.layer, layers - 1)} layers={layers} onChange={(layer) => onChange({ layer })} />
      <HeadSelect value={view.head} heads={heads} onChange={(head) => onChange({ head })} />
      <ScaleSelect value={view.scale} onChange={(scale) => onChange({ scale })} />
      {view.scale === 'power' && (
        <label>
          {t('control.gamma')}{' '}
          <input
            data-control="gamma"
            type="range"
            min={0.1}
            max={2}
            step={0.05}
            value={view.gamma}
            onChange={(e) => onChange({ gamma: Number(e.target.value) })}
            style={{ verticalAlign: 'middle', width: 100 }}
          />{' '}
          <span style={{ fontVariantNumeric: 'tabular-nums' }}>{view.gamma.toFixed(2)}</span>
        </label>
      )}
      <label>
        {t('control.colours')}{' '}
        <select data-control="colormap" value={view.colormap} onChange={(e) => onChange({ colormap: e.target.value as ColormapName })}>
          {COLORMAP_NAMES.map((m) => (
            <option key={m} value={m}>{m}</option>
          ))}
        </select>
      </label>
      <label>
        <input data-control="hide-sink" type="checkbox" checked={view.hideSink} onChange={(e) => onChange({ hideSink: e.target.checked })} /> {t('control.hideSink')}
      </label>
    </div>
  );
}
