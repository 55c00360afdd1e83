'use client';
// Attention heatmap on one canvas (one pixel block per cell, never a DOM node per cell), with a hover
// tooltip giving query token, key token and the exact weight. Draws what lib/ computed; computes nothing.
import { useEffect, useRef, useState } from 'react';
import { paintRgba, type ColormapName, type Scale } from '../lib/view/colormap';
import { causalMask } from '../lib/analysis/attentionView';

export interface HeatmapProps {
  matrix: Float32Array;
  size: number;
  labels: string[];
  scale: Scale;
  map: ColormapName;
  /** CSS pixels of the drawn square. */
  px?: number;
}

export function Heatmap({ matrix, size, labels, scale, map, px = 640 }: HeatmapProps) {
  const ref = useRef<HTMLCanvasElement>(null);
  const [hover, setHover] = useState<{ q: number; k: number; x: number; y: number } | null>(null);
  useEffect(() => {
    const c = ref.current;
    if (!c) return;
    c.width = size;
    c.height = size;
    const ctx = c.getContext('2d')!;
    const img = ctx.createImageData(size, size);
    paintRgba(matrix, size, size, scale, map, img.data, causalMask());
    ctx.putImageData(img, 0, 0);
  }, [matrix, size, scale, map]);
  const onMove = (e: React.MouseEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    const q = Math.floor(((e.clientY - r.top) / r.height) * size);
    const k = Math.floor(((e.clientX - r.left) / r.width) * size);
    if (q < 0 || k < 0 || q >= size || k >= size) return setHover(null);
    setHover({ q, k, x: e.clientX - r.left, y: e.clientY - r.top });
  };
  return (
    <div style={{ position: 'relative', width: px, height: px }}>
      <canvas
        ref={ref}
        data-role="heatmap"
        aria-label="attention heatmap: rows are query tokens, columns are key tokens"
        style={{ width: px, height: px, imageRendering: 'pixelated', border: '1px solid #ccc' }}
        onMouseMove={onMove}
        onMouseLeave={() => setHover(null)}
      />
      {hover && (
        <div role="tooltip" data-role="heatmap-tooltip" style={{ position: 'absolute', left: Math.min(hover.x + 12, px - 220), top: hover.y + 12, background: '#111', color: '#fff', padding: '4px 8px', borderRadius: 4, font: '12px ui-monospace, monospace', pointerEvents: 'none', whiteSpace: 'pre' }}>
          {`query ${hover.q} ${labels[hover.q] ?? ''}\nkey   ${hover.k} ${labels[hover.k] ?? ''}\n${hover.k > hover.q ? 'masked (future)' : `weight ${matrix[hover.q * size + hover.k]!.toPrecision(6)}`}`}
        </div>
      )}
    </div>
  );
}
