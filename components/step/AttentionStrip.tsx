'use client';
// One query's attention over the keys in the cache, as a canvas strip whose x axis spans the CACHED part
// rounded up to a nice size (lib/view/stepStrip), so the cached keys fill most of it at every step; the
// headroom after the cache end stays pale, with a note of how many tokens are not cached yet. Over the strip
// an axis of key positions (d3-style nice ticks), under it a band of the keys' segments and message starts,
// then the keys' token texts (rotated; all of them where columns have room, a spaced subset otherwise), and
// a tooltip for the key under the pointer. Draws what it is given; computes no attention itself.
import { useCallback, useMemo, useRef, useState } from 'react';
import type { Segment, Span } from '../../lib/prompt/prompt';
import { paintRgba, type ColormapName, type Scale } from '../../lib/view/colormap';
import { hexRgb, poolSpan } from '../../lib/view/raster';
import { MARK_COLORS, SEGMENT_COLORS } from '../../lib/view/palette';
import { COPY_MARK } from '../../lib/view/copySource';
import { headroomStart, keyAtX, shortLabel, stripColumns, stripLabelKeys, stripLayout } from '../../lib/view/stepStrip';
import { MatrixCanvas, useDevicePixelRatio } from '../charts/MatrixCanvas';
import { useT } from '../common/i18n';

export interface AttentionStripProps {
  /** Weights of the current query over keys 0 … weights.length − 1 (the cache), or null while none. */
  weights: Float32Array | null;
  /** Keys on the timeline (those at ≥ weights.length are not cached yet). */
  total: number;
  spans: Span[];
  labels: string[];
  scale: Scale;
  map: ColormapName;
  /** CSS pixels. */
  width: number;
  /** Keys whose labels go first when not every key has room (the query, the most attended). */
  labelFirst?: number[];
  /** A picked key (outlined), or null. */
  picked?: number | null;
  /** The copy source of the query's prediction (outlined in COPY_MARK, docs/CONCEPTS.md#copy-source), or null. */
  source?: number | null;
  /** Clicking a key. */
  onPick?: (key: number) => void;
}

const AXIS_H = 16;
const STRIP_H = 40;
const BAND_H = 9;
/** Height of the rotated token labels' band at 12 px labels (it scales with --label-px), and the characters a label keeps. */
const LABEL_H = 70;
const LABEL_CHARS = 9;
/** A column narrower than this gets no label of its own (rotated labels are one line high). */
const LABEL_MIN_PX = 15;
/** Keys at least this wide get a thin gap between columns so neighbours read as separate keys. */
const GAP_MIN_PX = 8;
/** The headroom after the cache end: the panel's background (--c-bg), not a colour of the map. */
const HEADROOM = hexRgb('#f4f5f7');

export function AttentionStrip({ weights, total, spans, labels, scale, map, width, labelFirst = [], picked = null, source = null, onPick }: AttentionStripProps) {
  const t = useT();
  const ref = useRef<HTMLCanvasElement>(null);
  const [hover, setHover] = useState<{ x: number; key: number } | null>(null);
  const dpr = useDevicePixelRatio();
  const cached = weights?.length ?? 0;
  const layout = useMemo(() => stripLayout(cached, total, width), [cached, total, width]);
  const { domain } = layout;

  const segmentOf = useMemo(() => {
    const out: (Span | undefined)[] = new Array(total);
    for (const s of spans) for (let k = s.start; k < Math.min(s.end, total); k++) out[k] = s;
    return out;
  }, [spans, total]);

  const shownKeys = Math.min(domain, total);
  const present = useMemo(() => (Object.keys(SEGMENT_COLORS) as Segment[]).filter((seg) => spans.some((s) => s.segment === seg && s.start < shownKeys)), [spans, shownKeys]);

  const W = Math.max(1, Math.round(width * dpr));
  const S = Math.round(STRIP_H * dpr);
  const B = Math.round(BAND_H * dpr);
  const paint = useCallback(
    (out: Uint8ClampedArray) => {
      // One value per pixel column: the largest weight of its cached keys; the headroom in the background colour.
      paintRgba(stripColumns(weights, layout, W), 1, W, scale, map, out);
      const h0 = headroomStart(layout, W);
      for (let x = h0; x < W; x++) out.set([...HEADROOM, 255], x * 4);
      for (let y = 1; y < S; y++) out.copyWithin(y * W * 4, 0, W * 4);
      // Segment band, with message starts in dark grey; keys not cached yet faded toward white.
      let prevMsg: number | undefined;
      for (let x = 0; x < W; x++) {
        const [k0, k1] = poolSpan(x, domain, W);
        const s = segmentOf[k0];
        let boundary = false;
        for (let k = k0; k < Math.min(k1, total); k++) {
          const m = segmentOf[k]?.message;
          if (k > 0 && m !== prevMsg) boundary = true;
          prevMsg = m;
        }
        let [r, g, b] = hexRgb(boundary ? '#222222' : s && k0 < total ? SEGMENT_COLORS[s.segment] : '#ffffff');
        if (x >= h0) [r, g, b] = [(r + 255 * 2) / 3, (g + 255 * 2) / 3, (b + 255 * 2) / 3];
        for (let y = S; y < S + B; y++) out.set([r, g, b, 255], (y * W + x) * 4);
      }
    },
    [weights, layout, domain, total, scale, map, W, S, B, segmentOf],
  );
  // Gaps between wide columns, the query's column outlined (selection mark), a picked key (pin mark), the copy
  // source (COPY_MARK on a white halo, so it reads on any colour), the cache end.
  const overlay = useCallback(
    (ctx: CanvasRenderingContext2D) => {
      const px = layout.keyPx * dpr;
      const lw = Math.max(1, Math.round(dpr));
      if (layout.keyPx >= GAP_MIN_PX) {
        ctx.fillStyle = 'rgba(255,255,255,0.55)';
        for (let k = 1; k < cached; k++) ctx.fillRect(Math.round(k * px), 0, lw, S);
      }
      const box = (k: number, colour: string) => {
        const x0 = Math.round(k * px);
        const w = Math.max(Math.round(px), 2 * lw + 1);
        ctx.strokeStyle = colour;
        ctx.lineWidth = 2 * lw;
        ctx.strokeRect(x0 + lw, lw, Math.max(1, w - 2 * lw), S - 2 * lw);
      };
      if (picked !== null && picked < cached) box(picked, MARK_COLORS.pin);
      if (source !== null && source < cached) {
        const x0 = Math.round(source * px);
        const w = Math.max(Math.round(px), 2 * lw + 1);
        ctx.strokeStyle = '#ffffff';
        ctx.lineWidth = 4 * lw;
        ctx.strokeRect(x0 + lw, lw, Math.max(1, w - 2 * lw), S - 2 * lw);
        box(source, COPY_MARK);
      }
      if (cached > 0) box(cached - 1, MARK_COLORS.select);
      if (cached > 0 && cached < domain) {
        ctx.fillStyle = MARK_COLORS.ink;
        ctx.fillRect(Math.round(cached * px), 0, 2 * lw, S + B);
      }
    },
    [layout, cached, domain, picked, source, S, B, dpr],
  );

  const labelKeys = useMemo(() => stripLabelKeys(layout, LABEL_MIN_PX, labelFirst), [layout, labelFirst]);

  const keyAt = (clientX: number): number | null => {
    const box = ref.current?.getBoundingClientRect();
    if (!box || total === 0) return null;
    const k = keyAtX(layout, ((clientX - box.left) * layout.width) / Math.max(1, box.width));
    return k !== null && k < total ? k : null;
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
    <div data-role="strip-figure" style={{ position: 'relative', width }}>
      <div data-role="strip-axis" aria-hidden="true" style={{ position: 'relative', height: AXIS_H, font: 'var(--fs-xs) var(--font-sans)', color: 'var(--c-muted)', fontVariantNumeric: 'tabular-nums' }}>
        {layout.ticks.map((tk) => (
          <span key={tk.key}>
            {/* Centred on its key, except at the strip's ends, where a centred number would be cut off. */}
            <span style={{ position: 'absolute', left: tk.x < 8 ? 0 : tk.x, bottom: 4, lineHeight: 1, transform: tk.x < 8 ? undefined : tk.x > width - 8 ? 'translateX(-100%)' : 'translateX(-50%)' }}>{tk.key}</span>
            <span style={{ position: 'absolute', left: tk.x, bottom: 0, width: 1, height: 3, background: 'var(--c-border-strong)' }} />
          </span>
        ))}
      </div>
      <MatrixCanvas
        canvasRef={ref}
        rows={total > 0 ? S + B : 0}
        cols={W}
        paint={paint}
        overlay={overlay}
        data-role="attention-strip"
        data-keys={total}
        data-cached={cached}
        data-domain={domain}
        data-cached-px={Math.round(layout.cachedPx)}
        data-copy-source={source ?? ''}
        role="img"
        aria-label={t('step.stripAria', { cached, total, domain })}
        style={{ width, height: STRIP_H + BAND_H, display: 'block', cursor: onPick ? 'pointer' : 'default', outline: '1px solid var(--c-border-strong)' }}
        onMouseMove={(e) => {
          const k = keyAt(e.clientX);
          const box = ref.current!.getBoundingClientRect();
          setHover(k === null ? null : { x: e.clientX - box.left, key: k });
        }}
        onMouseLeave={() => setHover(null)}
        onClick={(e) => {
          const k = keyAt(e.clientX);
          if (k !== null && k < cached) onPick?.(k);
        }}
      />
      {/* An SVG, so the rotated labels travel into exported pictures as they are drawn (page CSS does not). */}
      <svg data-role="strip-labels" data-count={labelKeys.length} width={width} height={LABEL_H} style={{ display: 'block', height: `calc(var(--label-px, 12px) * ${LABEL_H / 12})`, fontFamily: 'var(--font-mono)', fontSize: 'var(--label-px, 12px)' }}>
        {labelKeys.map((k) => {
          const isQuery = k === cached - 1;
          const isPicked = k === picked;
          const isSource = k === source;
          return (
            <text
              key={k}
              data-key={k}
              transform={`translate(${(k + 0.5) * layout.keyPx} 3) rotate(-90)`}
              textAnchor="end"
              dominantBaseline="central"
              fill={isQuery ? MARK_COLORS.select : isPicked ? MARK_COLORS.pin : isSource ? COPY_MARK : MARK_COLORS.ink}
              fontWeight={isQuery || isPicked || isSource ? 700 : 400}
              style={{ whiteSpace: 'pre' }}
            >
              {shortLabel(labels[k] ?? '', LABEL_CHARS)}
            </text>
          );
        })}
      </svg>
      <div style={{ display: 'flex', justifyContent: 'space-between', gap: 'var(--sp-3)', font: 'var(--fs-xs) var(--font-sans)', color: 'var(--c-muted)' }}>
        <span data-role="strip-axis-title">{t('step.stripAxis', { domain })}</span>
        {layout.notCached > 0 && (
          <span data-role="strip-not-cached" data-count={layout.notCached} style={{ whiteSpace: 'nowrap' }}>
            {t('step.stripNotCached', { n: layout.notCached })}
          </span>
        )}
      </div>
      <div data-role="strip-segments" style={{ display: 'flex', flexWrap: 'wrap', gap: 'var(--sp-1) var(--sp-3)', font: 'var(--fs-xs) var(--font-sans)', color: 'var(--c-text)', marginTop: 2 }}>
        {present.map((seg) => (
          <span key={seg} style={{ display: 'inline-flex', alignItems: 'center', gap: 3 }}>
            <span style={{ width: 12, height: 9, background: SEGMENT_COLORS[seg], border: '1px solid var(--c-border-strong)' }} />
            {t(`segment.${seg}`)}
          </span>
        ))}
        <span style={{ display: 'inline-flex', alignItems: 'center', gap: 3 }}>
          <span style={{ width: 12, height: 9, border: `2px solid ${MARK_COLORS.select}` }} />
          {t('step.stripQueryMark')}
        </span>
        <span data-role="strip-copy-legend" style={{ display: 'inline-flex', alignItems: 'center', gap: 3 }}>
          <span style={{ width: 12, height: 9, border: `2px solid ${COPY_MARK}` }} />
          {t('copy.legend')}
        </span>
        {cached < domain && (
          <span style={{ display: 'inline-flex', alignItems: 'center', gap: 3 }}>
            <span style={{ width: 3, height: 11, background: MARK_COLORS.ink }} />
            {t('step.stripEndMark')}
          </span>
        )}
      </div>
      {tip && hover && (
        <div
          data-role="strip-tooltip"
          style={{
            position: 'absolute',
            top: AXIS_H + STRIP_H + BAND_H + 4,
            left: Math.min(Math.max(0, hover.x - 120), width - 260),
            width: 250,
            background: 'rgba(255,255,255,0.97)',
            border: '1px solid var(--c-border-strong)',
            borderRadius: 'var(--radius)',
            boxShadow: 'var(--shadow)',
            padding: '3px 6px',
            font: 'var(--fs-xs) var(--font-mono)',
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
