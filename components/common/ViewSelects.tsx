'use client';
// The layer / head / scale / γ / colour-map / hide-sink controls every attention view offers, labelled and translated in one place.
import type { HeadReduction } from '../../lib/analysis/attentionView';
import { COLORMAP_NAMES, type ColormapName, type ScaleKind } from '../../lib/view/colormap';
import { useT } from './i18n';

export function LayerSelect({ value, layers, onChange, control = 'layer' }: { value: number; layers: number; onChange: (l: number) => void; control?: string }) {
  const t = useT();
  return (
    <label>
      {t('control.layer')}{' '}
      <select data-control={control} value={value} onChange={(e) => onChange(Number(e.target.value))}>
        {Array.from({ length: layers }, (_, l) => (
          <option key={l} value={l}>{l}</option>
        ))}
      </select>
    </label>
  );
}

export function HeadSelect({ value, heads, onChange, control = 'head' }: { value: HeadReduction; heads: number; onChange: (h: HeadReduction) => void; control?: string }) {
  const t = useT();
  return (
    <label>
      {t('control.head')}{' '}
      <select data-control={control} value={String(value)} onChange={(e) => onChange(e.target.value === 'mean' || e.target.value === 'max' ? e.target.value : Number(e.target.value))}>
        <option value="mean">{t('control.headMean')}</option>
        <option value="max">{t('control.headMax')}</option>
        {Array.from({ length: heads }, (_, h) => (
          <option key={h} value={h}>{h}</option>
        ))}
      </select>
    </label>
  );
}

/** Linear / log / power; `gammaNote` appends the fixed γ when the view has no γ control of its own. */
export function ScaleSelect({ value, onChange, control = 'scale', gammaNote }: { value: ScaleKind; onChange: (k: ScaleKind) => void; control?: string; gammaNote?: number }) {
  const t = useT();
  return (
    <label>
      {t('control.scale')}{' '}
      <select data-control={control} value={value} onChange={(e) => onChange(e.target.value as ScaleKind)}>
        <option value="linear">{t('control.scaleLinear')}</option>
        <option value="log">{t('control.scaleLog')}</option>
        <option value="power">
          {t('control.scalePower')}
          {gammaNote !== undefined ? ` (γ ${gammaNote})` : ''}
        </option>
      </select>
    </label>
  );
}

/** γ of the power scale, 0.1…2. */
export function GammaSlider({ value, onChange }: { value: number; onChange: (g: number) => void }) {
  const t = useT();
  return (
    <label>
      {t('control.gamma')}{' '}
      <input data-control="gamma" type="range" min={0.1} max={2} step={0.05} value={value} onChange={(e) => onChange(Number(e.target.value))} style={{ verticalAlign: 'middle', width: 100 }} />{' '}
      <span style={{ fontVariantNumeric: 'tabular-nums' }}>{value.toFixed(2)}</span>
    </label>
  );
}

export function ColormapSelect({ value, onChange }: { value: ColormapName; onChange: (m: ColormapName) => void }) {
  const t = useT();
  return (
    <label>
      {t('control.colours')}{' '}
      <select data-control="colormap" value={value} onChange={(e) => onChange(e.target.value as ColormapName)}>
        {COLORMAP_NAMES.map((m) => (
          <option key={m} value={m}>{m}</option>
        ))}
      </select>
    </label>
  );
}

export function HideSinkToggle({ value, onChange }: { value: boolean; onChange: (hide: boolean) => void }) {
  const t = useT();
  return (
    <label>
      <input data-control="hide-sink" type="checkbox" checked={value} onChange={(e) => onChange(e.target.checked)} /> {t('control.hideSink')}
    </label>
  );
}
