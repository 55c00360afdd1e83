'use client';
// The pinned key columns as strips on one canvas beside the heatmap: each strip is its column over the rows
// in view (lib/view/viewport rasterizeColumn: the same rows and the same max pooling as the matrix), painted
// with the matrix's scale and colours at the strip width lib/view/pinnedColumns gives, so a key-0 sink stays
// visible at any length and zoom. Gaps between strips are transparent.
import { useCallback } from 'react';
import { paintRgba, type ColormapName, type Scale } from '../../lib/view/colormap';
import type { PinnedLayout } from '../../lib/view/pinnedColumns';
import { rasterizeColumn, type Viewport } from '../../lib/view/viewport';
import { MatrixCanvas } from '../charts/MatrixCanvas';
import { useT } from '../common/i18n';

export interface PinnedStripsProps {
  matrix: Float32Array;
  size: number;
  vp: Viewport;
  layout: PinnedLayout;
  scale: Scale;
  map: ColormapName;
  /** CSS px height (the matrix's) and device pixels per CSS px. */
  px: number;
  dpr: number;
  handlers: {
    onPointerMove: (e: React.PointerEvent<HTMLCanvasElement>) => void;
    onPointerLeave: () => void;
    onPointerDown: (e: React.PointerEvent<HTMLCanvasElement>) => void;
    onPointerUp: (e: React.PointerEvent<HTMLCanvasElement>) => void;
  };
}

export function PinnedStrips({ matrix, size, vp, layout, scale, map, px, dpr, handlers }: PinnedStripsProps) {
  const t = useT();
  const rows = Math.max(1, Math.round(px * dpr));
  const cols = Math.max(1, Math.round(layout.breakX * dpr));
  const keys = layout.strips.map((s) => s.key).join(' ');
  const paint = useCallback(
    (out: Uint8ClampedArray) => {
      out.fill(0);
      const column = new Float32Array(rows);
      const rgba = new Uint8ClampedArray(rows * 4);
      for (const s of layout.strips) {
        rasterizeColumn(matrix, size, s.key, vp.q0, vp.span, rows, column);
        paintRgba(column, rows, 1, scale, map, rgba);
        const x0 = Math.round(s.x * dpr);
        const x1 = Math.min(cols, Math.round((s.x + s.width) * dpr));
        for (let y = 0; y < rows; y++) {
          const src = y * 4;
          for (let x = x0; x < x1; x++) out.set(rgba.subarray(src, src + 4), (y * cols + x) * 4);
        }
      }
    },
    [matrix, size, vp.q0, vp.span, layout, scale, map, rows, cols, dpr],
  );
  return (
    <MatrixCanvas
      rows={rows}
      cols={cols}
      paint={paint}
      data-role="heatmap-pinned"
      data-columns={keys}
      data-strip-width={layout.stripWidth}
      aria-label={t('heatmap.pinnedAria', { keys })}
      style={{ display: 'block', width: layout.breakX, height: px, imageRendering: 'pixelated', cursor: 'crosshair', touchAction: 'none' }}
      {...handlers}
    />
  );
}
