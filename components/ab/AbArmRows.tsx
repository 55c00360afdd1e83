'use client';
// One arm's attention rows on a canvas (max-pooled to at most MAX_ROWS × width pixels), the segment band
// over its key axis, the key of segment colours and the hover tooltip the A/B heatmaps share.
import { useCallback, useMemo, type PointerEvent } from 'react';
import type { Prompt, Segment } from '../../lib/prompt/prompt';
import { paintRgba, type Scale } from '../../lib/view/colormap';
import { poolMax } from '../../lib/view/abRaster';
import { hexRgb, poolSpan } from '../../lib/view/raster';
import { MatrixCanvas } from '../charts/MatrixCanvas';
import { SEGMENT_COLORS } from '../../lib/view/palette';
import { useT } from '../common/i18n';
import { AB_MAP, type AbArmView } from './useAbRasters';

/** Width of the label column left of the canvases (CSS px). */
export const GUTTER = 150;
/** Most canvas rows drawn per arm; more query rows are max-pooled. */
const MAX_ROWS = 360;

export interface Hover {
  text: string;
  x: number;
  y: number;
}

/** The tooltip of a hovered cell, kept inside the matrix area `width` px wide. */
export function HoverTip({ hover, width }: { hover: Hover | null; width: number }) {
  if (!hover) return null;
  return (
    <div
      role="tooltip"
      style={{ position: 'absolute', left: Math.min(hover.x + 14, GUTTER + width - 320), top: hover.y + 14, background: '#222', color: '#fff', padding: '4px 8px', borderRadius: 4, font: '12px ui-monospace, monospace', whiteSpace: 'pre', pointerEvents: 'none', zIndex: 2 }}
    >
      {hover.text}
    </div>
  );
}

/** Segment colour band along the key axis: each pixel column takes the segment of its first key (none past the prompt). */
export function SegmentBand({ prompt, keys, width }: { prompt: Prompt; keys: number; width: number }) {
  const cols = Math.min(keys, width);
  const paint = useCallback(
    (out: Uint8ClampedArray) => {
      const T = prompt.ids.length;
      let si = 0;
      for (let x = 0; x < cols; x++) {
        const k = poolSpan(x, keys, cols)[0];
        if (k >= T) {
          out.fill(0, x * 4, (x + 1) * 4);
          continue;
        }
        while (si < prompt.spans.length - 1 && prompt.spans[si]!.end <= k) si++;
        const s = prompt.spans[si];
        out.set([...hexRgb(s ? SEGMENT_COLORS[s.segment] : '#ffffff'), 255], x * 4);
      }
    },
    [prompt, keys, cols],
  );
  return <MatrixCanvas rows={1} cols={cols} paint={paint} data-role="ab-band" style={{ display: 'block', width, height: 8, imageRendering: 'pixelated' }} />;
}

export function SegmentKey({ prompts }: { prompts: Prompt[] }) {
  const t = useT();
  const present = new Set<Segment>();
  for (const p of prompts) for (const s of p.spans) present.add(s.segment);
  return (
    <div style={{ display: 'flex', gap: 10, flexWrap: 'wrap', fontSize: 11, color: '#333', alignItems: 'center' }}>
      <span>{t('ab.heat.bands')}</span>
      {[...present].map((s) => (
        <span key={s} style={{ display: 'inline-flex', alignItems: 'center', gap: 3 }}>
          <span style={{ width: 12, height: 10, background: SEGMENT_COLORS[s], display: 'inline-block', border: '1px solid #999' }} />
          {t(`segment.${s}`)}
        </span>
      ))}
    </div>
  );
}

export interface ArmRowsProps {
  arm: AbArmView;
  block: Float32Array;
  fromRow: number;
  keys: number;
  rowPx: number;
  width: number;
  scale: Scale;
  onHover: (h: Hover | null) => void;
}

/** One arm's rows [fromRow, T) × keys [0, keys), painted with `scale`; hover reads the exact weight. */
export function ArmRows({ arm, block, fromRow, keys, rowPx, width, scale, onHover }: ArmRowsProps) {
  const t = useT();
  const T = arm.prompt.ids.length;
  const rows = Math.max(0, T - fromRow);
  const height = Math.max(rowPx, rows * rowPx > MAX_ROWS * 2 ? MAX_ROWS * 2 : rows * rowPx);
  const pooled = useMemo(() => (rows > 0 ? poolMax(block, rows, keys, MAX_ROWS, width) : null), [block, rows, keys, width]);
  const paint = useCallback((out: Uint8ClampedArray) => void (pooled && paintRgba(pooled.data, pooled.rows, pooled.cols, scale, AB_MAP, out)), [pooled, scale]);
  const onMove = (e: PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    const k = Math.min(keys - 1, Math.max(0, Math.floor(((e.clientX - r.left) / r.width) * keys)));
    const row = Math.min(rows - 1, Math.max(0, Math.floor(((e.clientY - r.top) / r.height) * rows)));
    const q = fromRow + row;
    const v = block[row * keys + k]!;
    const weight = Number.isNaN(v) ? (k >= T ? t('ab.heat.pastEnd', { arm: arm.name }) : t('ab.heat.future')) : v.toFixed(5);
    onHover({
      text: t('ab.heat.tip', { arm: arm.name, q, qLabel: arm.labels[q] ?? '', k, kLabel: k < T ? (arm.labels[k] ?? '') : '—', weight }),
      x: e.clientX - r.left + GUTTER,
      y: e.clientY - r.top,
    });
  };
  if (!pooled) return <div style={{ marginLeft: GUTTER, color: '#555' }}>{t('ab.heat.noRows', { arm: arm.name })}</div>;
  return (
    <div style={{ display: 'flex', alignItems: 'flex-start' }}>
      <div style={{ width: GUTTER, flex: '0 0 auto', fontSize: 12, color: '#333', paddingRight: 6, boxSizing: 'border-box' }}>
        <div style={{ fontWeight: 600 }}>{arm.name}: {arm.title}</div>
        <div>{t('ab.heat.rows', { from: fromRow, to: T - 1, n: rows })}</div>
      </div>
      <div>
        <SegmentBand prompt={arm.prompt} keys={keys} width={width} />
        <MatrixCanvas
          rows={pooled.rows}
          cols={pooled.cols}
          paint={paint}
          data-role={`ab-rows-${arm.name}`}
          data-rows={rows}
          data-keys={keys}
          data-from={fromRow}
          onPointerMove={onMove}
          onPointerLeave={() => onHover(null)}
          style={{ display: 'block', width, height, imageRendering: 'pixelated', marginTop: 2, cursor: 'crosshair' }}
        />
      </div>
    </div>
  );
}
