'use client';
// Layer / head / scale / γ / colour-map / hide-sink controls; writes straight to the persisted view settings.
// Laid out as inline blocks (not a flex row) so that a float can keep the first line's right end free for
// the export buttons while later lines take the full width.
import type { ReactNode } from 'react';
import type { ViewSettings } from '../../lib/state/store';
import { useT } from '../common/i18n';
import { ColormapSelect, GammaSlider, HeadSelect, LayerSelect, ScaleSelect } from '../common/ViewSelects';

export interface AttentionControlsProps {
  view: ViewSettings;
  layers: number;
  heads: number;
  onChange: (patch: Partial<ViewSettings>) => void;
  /** CSS px kept free at the right end of the first line (e.g. for buttons overlapping it). */
  reserveRight?: number;
}

const LINE = 30;

export function AttentionControls({ view, layers, heads, onChange, reserveRight = 0 }: AttentionControlsProps) {
  const t = useT();
  const item = (key: string, node: ReactNode) => (
    <span key={key} style={{ display: 'inline-block', verticalAlign: 'middle', height: LINE, lineHeight: `${LINE}px`, marginRight: 'var(--sp-4)', marginBottom: 'var(--sp-1)', pointerEvents: 'auto', whiteSpace: 'nowrap' }}>
      {node}
    </span>
  );
  return (
    <div data-role="attention-controls" style={{ fontSize: 'var(--fs-sm)' }}>
      {reserveRight > 0 && <div aria-hidden="true" style={{ float: 'right', width: reserveRight, height: LINE, pointerEvents: 'none' }} />}
      {item('layer', <LayerSelect value={Math.min(view.layer, layers - 1)} layers={layers} onChange={(layer) => onChange({ layer })} />)}
      {item('head', <HeadSelect value={view.head} heads={heads} onChange={(head) => onChange({ head })} />)}
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
