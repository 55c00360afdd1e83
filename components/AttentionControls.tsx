'use client';
// Layer / head / scale / γ / colour-map / hide-sink controls; writes straight to the persisted view settings.
import type { ViewSettings } from '../lib/state/store';
import { COLORMAP_NAMES, type ColormapName, type ScaleKind } from '../lib/view/colormap';
import { useT } from './i18n';

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
      <label>
        {t('control.layer')}{' '}
        <select data-control="layer" value={Math.min(view.layer, layers - 1)} onChange={(e) => onChange({ layer: Number(e.target.value) })}>
          {Array.from({ length: layers }, (_, l) => (
            <option key={l} value={l}>{l}</option>
          ))}
        </select>
      </label>
      <label>
        {t('control.head')}{' '}
        <select
          data-control="head"
          value={String(view.head)}
          onChange={(e) => onChange({ head: e.target.value === 'mean' || e.target.value === 'max' ? e.target.value : Number(e.target.value) })}
        >
          <option value="mean">{t('control.headMean')}</option>
          <option value="max">{t('control.headMax')}</option>
          {Array.from({ length: heads }, (_, h) => (
            <option key={h} value={h}>{h}</option>
          ))}
        </select>
      </label>
      <label>
        {t('control.scale')}{' '}
        <select data-control="scale" value={view.scale} onChange={(e) => onChange({ scale: e.target.value as ScaleKind })}>
          <option value="linear">{t('control.scaleLinear')}</option>
          <option value="log">{t('control.scaleLog')}</option>
          <option value="power">{t('control.scalePower')}</option>
        </select>
      </label>
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
