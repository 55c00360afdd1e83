'use client';
// One query's attention over every key of the timeline, as a canvas strip (one pixel column per key or,
// when keys outnumber pixels, the largest weight of the keys a pixel covers), with a band of the keys'
// segments and message starts under it, the cache end marked, and a tooltip for the key under the pointer.
// Keys not in the cache yet are drawn grey. Draws what it is given; computes no attention itself.
import { useCallback, useMemo, useRef, useState } from 'react';
import type { Segment, Span } from '../../lib/prompt/prompt';
import { paintRgba, type ColormapName, type Scale } from '../../lib/view/colormap';
import { hexRgb, poolMatrix, poolSpan } from '../../lib/view/raster';
import { SEGMENT_COLORS } from '../../lib/view/palette';
import { MatrixCanvas, useDevicePixelRatio } from '../charts/MatrixCanvas';
import { useT } from '../common/i18n';

export interface AttentionStripProps {
  /** Weights of the current query over keys 0 … weights.length − 1 (the cache), or null while none. */
  weights: Float32Array | null;
  /** Keys on the strip: the whole timeline (those at ≥ weights.length are not cached yet). */
  total: number;
  spans: Span[];
  labels: string[];
  scale: Scale;
  map: ColormapName;
  /** CSS pixels. */
  width: number;
  /** Clicking a key. */
  onPick?: (key: number) => void;
}

const STRIP_H = 34;
const BAND_H = 9;

export function AttentionStrip({ weights, total, spans, labels, scale, map, width, onPick }: AttentionStripProps) {
  const t = useT();
  const ref = useRef<HTMLCanvasElement>(null);
  const [hover, setHover] = useState<{ x: number; key: number } | null>(null);
  const dpr = useDevicePixelRatio();
  const cached = weights?.length ?? 0;

  const segmentOf = useMemo(() => {
    const out: (Span | undefined)[] = new Array(total);
    for (const s of spans) for (let k = s.start; k < Math.min(s.end, total); k++) out[k] = s;
    return out;
  }, [spans, total]);

  const present = useMemo(() => (Object.keys(SEGMENT_COLORS) as Segment[]).filter((seg) => spans.some((s) => s.segment === seg && s.start < total)), [spans, total]);

  const W = Math.max(1, Math.round(width * dpr));
  const S = Math.round(STRIP_H * dpr);
  const B = Math.round(BAND_H * dpr);
  const paint = useCallback(
    (out: Uint8ClampedArray) => {
      // One value per pixel column: the largest weight of its cached keys, NaN (grey) if none is cached.
      const row = new Float32Array(total).fill(NaN);
      if (weights) row.set(weights.subarray(0, Math.min(cached, total)));
      const col = poolMatrix(row, 1, total, 1, W, 'max').data;
      paintRgba(col, 1, W, scale, map, out);
      for (let y = 1; y < S; y++) out.copyWithin(y * W * 4, 0, W * 4);
      // Segment band, with message starts in dark grey.
      let prevMsg: number | undefined;
      for (let x = 0; x < W; x++) {
        const [k0, k1] = poolSpan(x, total, W);
        const s = segmentOf[k0];
        let boundary = false;
        for (let k = k0; k < Math.min(k1, total); k++) {
          const m = segmentOf[k]?.message;
          if (k > 0 && m !== prevMsg) boundary = true;
          prevMsg = m;
        }
        const [r, g, b] = hexRgb(boundary ? '#222222' : s ? SEGMENT_COLORS[s.segment] : '#ffffff');
        for (let y = S; y < S + B; y++) out.set([r, g, b, 255], (y * W + x) * 4);
      }
    },
    [weights, cached, total, scale, map, W, S, B, segmentOf],
  );
  // The cache end: a line after the last cached key.
  const overlay = useCallback(
    (ctx: CanvasRenderingContext2D) => {
      if (cached > 0 && cached < total) {
        const x = Math.round((cached * W) / total);
        ctx.fillStyle = '#d00';
        ctx.fillRect(Math.max(0, x - Math.round(dpr)), 0, Math.max(2, Math.round(2 * dpr)), S);
      }
    },
    [cached, total, W, S, dpr],
  );

  const keyAt = (clientX: number): number | null => {
    const box = ref.current?.getBoundingClientRect();
    if (!box || total === 0) return null;
    const x = clientX - box.left;
    if (x < 0 || x >= box.width) return null;
    return Math.min(total - 1, Math.floor((x / box.width) * total));
  };

  const tip = (() => {
    if (!hover) return null;
    const k = hover.key;
    const s = segmentOf[k];
    const head = t('step.stripTipKey', { key: k, label: labels[k] ?? '' });
    const seg = s ? t(`segment.${s.segment}`) : '';
    const w = k < cached ? t('step.stripTipWeight', { w: weights![k]!.toPrecision(4) }) : t('step.stripTipFuture');
    return `${head}${seg ? ` · ${seg}` : ''}\n${w}`;
  })();

  return (
    <div style={{ position: 'relative', width }}>
      <MatrixCanvas
        canvasRef={ref}
        rows={total > 0 ? S + B : 0}
        cols={W}
        paint={paint}
        overlay={overlay}
        data-role="attention-strip"
        data-keys={total}
        data-cached={cached}
        role="img"
        aria-label={t('step.stripAria', { cached, total })}
        style={{ width, height: STRIP_H + BAND_H, display: 'block', cursor: onPick ? 'pointer' : 'default', outline: '1px solid #bbb' }}
        onMouseMove={(e) => {
          const k = keyAt(e.clientX);
          const box = ref.current!.getBoundingClientRect();
          setHover(k === null ? null : { x: e.clientX - box.left, key: k });
        }}
        onMouseLeave={() => setHover(null)}
        onClick={(e) => {
          const k = keyAt(e.clientX);
          if (k !== null) onPick?.(k);
        }}
      />
      <div style={{ display: 'flex', justifyContent: 'space-between', font: '11px system-ui', color: '#555', marginTop: 2 }}>
        <span>{t('step.stripStart')}</span>
        <span>{t('step.stripAxis', { total })}</span>
      </div>
      <div data-role="strip-segments" style={{ display: 'flex', flexWrap: 'wrap', gap: 10, font: '11px system-ui', color: '#333', marginTop: 2 }}>
        {present.map((seg) => (
          <span key={seg} style={{ display: 'inline-flex', alignItems: 'center', gap: 3 }}>
            <span style={{ width: 12, height: 9, background: SEGMENT_COLORS[seg], border: '1px solid #888' }} />
            {t(`segment.${seg}`)}
          </span>
        ))}
      </div>
      {tip && hover && (
        <div
          data-role="strip-tooltip"
          style={{
            position: 'absolute',
            top: STRIP_H + BAND_H + 4,
            left: Math.min(Math.max(0, hover.x - 120), width - 260),
            width: 250,
            background: 'rgba(255,255,255,0.97)',
            border: '1px solid #888',
            borderRadius: 3,
            padding: '3px 6px',
            font: '12px ui-monospace, monospace',
            whiteSpace: 'pre-wrap',
            pointerEvents: 'none',
            zIndex: 2,
          }}
        >
          {tip}
        </div>
      )}
    </div>
  );
}
