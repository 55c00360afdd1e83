'use client';
// Colour legends: a ramp on a canvas with tick labels under it. Ticks come from lib/view.
import { useEffect, useRef } from 'react';
import { useT } from '../common/i18n';
import { sampleColormap, ticks, type ColormapName, type Scale } from '../../lib/view/colormap';

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

/** The ramp and its ticks; the sequential legend below and the A/B diverging legend share it. */
export function RampLegend({ role, caption, width, colour, colourKey, ticks: marks }: RampLegendProps) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const c = ref.current;
    if (!c) return;
    const ctx = c.getContext('2d')!;
    for (let x = 0; x < width; x++) {
      const [r, g, b] = colour(x / (width - 1));
      ctx.fillStyle = `rgb(${r},${g},${b})`;
      ctx.fillRect(x, 0, 1, 14);
    }
  }, [colourKey, width]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <div data-role={role} style={{ width, font: '11px system-ui' }}>
      <div style={{ marginBottom: 2, color: '#333' }}>{caption}</div>
      <canvas ref={ref} width={width} height={14} style={{ display: 'block' }} />
      <div style={{ position: 'relative', height: 16 }}>
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
