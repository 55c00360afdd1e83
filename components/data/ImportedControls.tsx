'use client';
// The imported-attention view's controls: call, layer, head (with what the file stores), colour scale, γ,
// colour map and hiding the sink column.
import type { ImportedAttention } from '../../lib/io/attention/types';
import { ColormapSelect, GammaSlider, HideSinkToggle, ScaleSelect } from '../common/ViewSelects';
import { useT } from '../common/i18n';
import { callLabel, layerName } from './importedParts';
import type { ImportedAttentionState } from './useImportedAttention';

export function ImportedControls({ attention, state }: { attention: ImportedAttention; state: ImportedAttentionState }) {
  const t = useT();
  const { own, call, setCall, shown: a, li, setLayerPick, choices, head, setHeadPick, meanOnlyLayer, scaleKind, setScaleKind, gamma, setGamma, map, setMap, hideSink, setHideSink } = state;
  return (
    <div data-role="imported-controls" style={{ display: 'flex', gap: 14, flexWrap: 'wrap', alignItems: 'center', padding: '8px 10px', background: '#f6f6f6', borderRadius: 4 }}>
      {attention.calls.length > 0 && (
        <label>
          {t('imported.call')}{' '}
          <select data-control="call" value={call} onChange={(e) => setCall(Number(e.target.value))}>
            {own && <option value={-1}>{t('imported.callOwn')}</option>}
            {attention.calls.map((c, i) => (
              <option key={i} value={i}>
                {callLabel(t, c)}
              </option>
            ))}
          </select>
        </label>
      )}
      <label>
        {t('control.layer')}{' '}
        <select data-control="layer" value={li} onChange={(e) => setLayerPick(Number(e.target.value))} disabled={a.layers.length < 2}>
          {a.layers.map((l, i) => (
            <option key={i} value={i}>
              {layerName(t, l)}
            </option>
          ))}
        </select>
        {a.layers.length < 2 && <span data-role="imported-one-layer" style={{ color: 'var(--c-muted)', marginLeft: 6 }}>{t('imported.onlyLayer')}</span>}
      </label>
      <label>
        {t('control.head')}{' '}
        <select
          data-control="head"
          value={String(head)}
          disabled={choices.length < 2}
          onChange={(e) => setHeadPick(e.target.value === 'mean' || e.target.value === 'max' ? e.target.value : Number(e.target.value))}
        >
          {choices.map((c) => (
            <option key={String(c)} value={String(c)}>
              {meanOnlyLayer ? t('imported.headMeanExported') : c === 'mean' ? t('control.headMean') : c === 'max' ? t('control.headMax') : c}
            </option>
          ))}
        </select>
        {meanOnlyLayer && <span data-role="imported-mean-only" style={{ color: 'var(--c-muted)', marginLeft: 6 }}>{t('imported.headNote')}</span>}
      </label>
      <ScaleSelect value={scaleKind} onChange={setScaleKind} />
      {scaleKind === 'power' && <GammaSlider value={gamma} onChange={setGamma} />}
      <ColormapSelect value={map} onChange={setMap} />
      <HideSinkToggle value={hideSink} onChange={setHideSink} />
    </div>
  );
}
