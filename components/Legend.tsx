'use client';
// Colour legend for a heatmap: the colour ramp with the scale's ticks. Ticks come from lib/view.
import { useEffect, useRef } from 'react';
import { useT } from './i18n';
import { sampleColormap, ticks, type ColormapName, type Scale } from '../lib/view/colormap';

export function Legend({ scale, map, width = 320 }: { scale: Scale; map: ColormapName; width?: number }) {
  const t = useT();
  const kind = t(scale.kind === 'linear' ? 'control.scaleLinear' : scale.kind === 'log' ? 'control.scaleLog' : 'control.scalePower');
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const c = ref.current;
    if (!c) return;
    const ctx = c.getContext('2d')!;
    for (let x = 0; x < width; x++) {
      const [r, g, b] = sampleColormap(map, x / (width - 1));
      ctx.fillStyle = `rgb(${r},${g},${b})`;
      ctx.fillRect(x, 0, 1, 14);
    }
  }, [map, width]);
  return (
    <div data-role="legend" style={{ width, font: '11px system-ui' }}>
      <div style={{ marginBottom: 2, color: '#333' }}>{t('legend.label', { kind })}{scale.kind === 'power' ? ` (γ ${scale.gamma})` : ''}</div>
      <canvas ref={ref} width={width} height={14} style={{ display: 'block' }} />
      <div style={{ position: 'relative', height: 16 }}>
        {ticks(scale, 5).map((t) => (
          <span key={t.value} style={{ position: 'absolute', left: `${t.t * 100}%`, transform: 'translateX(-50%)' }}>{t.label}</span>
        ))}
      </div>
    </div>
  );
}
