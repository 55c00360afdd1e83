'use client';
// Colour legends: a ramp on a canvas (MatrixCanvas) with tick labels under it. Ticks come from lib/view.
import { useCallback, type CSSProperties } from 'react';
import { useT } from '../common/i18n';
import { sampleColormap, ticks, type ColormapName, type Scale } from '../../lib/view/colormap';
import { paintCells } from '../../lib/view/raster';
import { MatrixCanvas } from './MatrixCanvas';

const RAMP_H = 14;

export interface RampLegendProps {
  role: string;
  caption: string;
  width: number;
  /** RGB at f ∈ [0, 1] along the ramp. */
  colour: (f: number) => readonly number[];
  /** Changes when `colour` does (the ramp is repainted then, not on every render). */
  colourKey: string;
  ticks: readonly { t: number; label: string }[];
}

/** The ramp, `width` × `height` pixels, colour(x / (width − 1)) in column x; repainted when colourKey changes. */
export function Ramp({ width, height, colour, colourKey, style }: { width: number; height: number; colour: (f: number) => readonly number[]; colourKey: string; style?: CSSProperties }) {
  const paint = useCallback(
    (out: Uint8ClampedArray) => {
      const row = Array.from({ length: width }, (_, x) => colour(x / (width - 1)));
      paintCells(height, width, out, (_, x) => row[x]!);
    },
    [colourKey, width, height], // eslint-disable-line react-hooks/exhaustive-deps
  );
  return <MatrixCanvas rows={height} cols={width} paint={paint} style={{ display: 'block', width, height, ...style }} />;
}

/** The ramp and its ticks; the sequential legend below and the A/B diverging legend share it. */
export function RampLegend({ role, caption, width, colour, colourKey, ticks: marks }: RampLegendProps) {
  return (
    <div data-role={role} style={{ width, font: 'var(--fs-xs, 11px) var(--font-sans, system-ui, sans-serif)' }}>
      <div style={{ marginBottom: 2, color: 'var(--c-text, #333)' }}>{caption}</div>
      <Ramp width={width} height={RAMP_H} colour={colour} colourKey={colourKey} />
      <div style={{ position: 'relative', height: '1.4em' }}>
        {marks.map((m) => (
          <span key={m.t} style={{ position: 'absolute', left: `${m.t * 100}%`, transform: 'translateX(-50%)', whiteSpace: 'nowrap' }}>
            {m.label}
          </span>
        ))}
      </div>
    </div>
  );
}

export function Legend({ scale, map, width = 320 }: { scale: Scale; map: ColormapName; width?: number }) {
  const t = useT();
  const kind = t(scale.kind === 'linear' ? 'control.scaleLinear' : scale.kind === 'log' ? 'control.scaleLog' : 'control.scalePower');
  const caption = t('legend.label', { kind }) + (scale.kind === 'power' ? ` (γ ${scale.gamma})` : '');
  return <RampLegend role="legend" caption={caption} width={width} colour={(f) => sampleColormap(map, f)} colourKey={map} ticks={ticks(scale, 5)} />;
}
