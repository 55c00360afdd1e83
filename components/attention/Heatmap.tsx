'use client';
// Attention heatmap on one canvas (never a DOM node per cell) with zoom (wheel at the pointer, + / − keys
// and buttons), pan (drag, arrow keys), reset (0 key, button), segment bands along both axes and a hover
// tooltip giving query token, key token and the exact weight. The window into the matrix and the pixels
// come from lib/view/viewport (max pooling when zoomed out) and lib/view/colormap; input is useHeatmapView's,
// the canvas MatrixCanvas; this file lays the parts out.
import { useCallback, useMemo, useRef, useState, type PointerEvent } from 'react';
import { paintRgba, type ColormapName, type Scale } from '../../lib/view/colormap';
import { cellAt, isPooled, rasterize } from '../../lib/view/viewport';
import type { Span } from '../../lib/prompt/prompt';
import { MatrixCanvas, useDevicePixelRatio } from '../charts/MatrixCanvas';
import { useT } from '../common/i18n';
import { BAND, BandTip, bandText, HeatmapBand, messageStarts } from './HeatmapBands';
import { CellTooltip, HeatmapToolbar } from './HeatmapToolbar';
import { useHeatmapView } from './useHeatmapView';

export interface HeatmapProps {
  /** size × size, row-major, rows = query tokens, columns = key tokens; cells k > q are masked. */
  matrix: Float32Array;
  size: number;
  labels: string[];
  scale: Scale;
  map: ColormapName;
  /** Spans tiling the tokens (Prompt.spans): drawn as segment bands along both axes when given. */
  spans?: Span[];
  /** CSS pixels of the drawn square. */
  px?: number;
  /**
   * Tooltip text for a NaN cell on or below the diagonal (e.g. a row an imported file does not contain); such
   * cells are drawn in the masked colour. Without it the tooltip prints the value as for any other cell.
   */
  absentText?: string;
}

/** Gap between band and matrix, and the left gutter for the axis label (CSS px). */
const GAP = 3;
const GUTTER = 76;

export function Heatmap({ matrix, size, labels, scale, map, spans, px = 640, absentText }: HeatmapProps) {
  const t = useT();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const raster = useRef<Float32Array | null>(null);
  const { vp, update, hover, dragging, local, canvasHandlers, onKeyDown } = useHeatmapView(size, px, canvasRef);
  const dpr = useDevicePixelRatio();
  const dev = Math.max(1, Math.round(px * dpr));
  const [focusRing, setFocusRing] = useState(false);
  const [bandHover, setBandHover] = useState<{ text: string; x: number; y: number; vertical: boolean } | null>(null);
  const starts = useMemo(() => (spans ? messageStarts(spans) : []), [spans]);

  // The window as dev × dev matrix values (max-pooled when cells are smaller than pixels), then colours.
  const paint = useCallback(
    (out: Uint8ClampedArray) => {
      const buf = raster.current && raster.current.length === dev * dev ? raster.current : new Float32Array(dev * dev);
      raster.current = buf;
      rasterize(matrix, size, { q0: vp.q0, k0: vp.k0, span: vp.span }, dev, buf);
      paintRgba(buf, dev, dev, scale, map, out);
    },
    [matrix, size, scale, map, vp.q0, vp.k0, vp.span, dev],
  );

  const onBandMove = (vertical: boolean) => (e: PointerEvent<HTMLCanvasElement>) => {
    if (!spans) return;
    const p = local(e);
    const a = vertical ? p.y : p.x;
    const tok = Math.floor((vertical ? vp.q0 : vp.k0) + (a / px) * vp.span);
    const text = bandText(t, spans, tok);
    setBandHover(text ? { text, x: vertical ? BAND + 6 : p.x, y: vertical ? p.y : BAND + 6, vertical } : null);
  };
  const band = (vertical: boolean) =>
    spans && (
      <HeatmapBand
        spans={spans}
        starts={starts}
        a0={vertical ? vp.q0 : vp.k0}
        span={vp.span}
        px={px}
        dpr={dpr}
        vertical={vertical}
        role={vertical ? 'heatmap-band-queries' : 'heatmap-band-keys'}
        label={t(vertical ? 'heatmap.bandQueries' : 'heatmap.bandKeys')}
        onPointerMove={onBandMove(vertical)}
        onPointerLeave={() => setBandHover(null)}
      />
    );

  const cell = hover ? cellAt(vp, px, hover.x, hover.y, size) : null;
  const pooled = isPooled(vp, dev);
  const bandPx = spans ? BAND : 0;
  const left = GUTTER + bandPx + GAP;

  return (
    <div data-role="heatmap-view" style={{ display: 'inline-block', font: '13px system-ui, sans-serif', color: '#222' }}>
      <HeatmapToolbar vp={vp} size={size} px={px} left={left} update={update} />
      <div
        data-role="heatmap-region"
        tabIndex={0}
        role="group"
        aria-label={t('heatmap.regionAria')}
        aria-description={t('heatmap.help')}
        onKeyDown={onKeyDown}
        onFocus={(e) => setFocusRing(e.currentTarget === e.target && e.currentTarget.matches(':focus-visible'))}
        onBlur={() => setFocusRing(false)}
        onMouseDown={() => setFocusRing(false)}
        style={{
          display: 'grid',
          gridTemplateColumns: `${GUTTER}px ${bandPx}px ${px}px`,
          gridTemplateRows: `auto ${bandPx}px ${px}px`,
          columnGap: spans ? GAP : 0,
          rowGap: spans ? GAP : 0,
          alignItems: 'end',
          outline: focusRing ? '2px solid #1a66d6' : 'none',
          outlineOffset: 4,
          borderRadius: 2,
          width: 'max-content',
        }}
      >
        <div />
        <div />
        <div style={{ color: '#444', paddingBottom: 4 }}>{t('heatmap.axisKeys')}</div>
        <div />
        <div />
        <div style={{ position: 'relative', height: bandPx }}>
          {band(false)}
          {bandHover && !bandHover.vertical && <BandTip text={bandHover.text} x={Math.min(bandHover.x, px - 260)} y={bandHover.y} />}
        </div>
        <div style={{ alignSelf: 'start', color: '#444', textAlign: 'right', paddingRight: 6, lineHeight: 1.3 }}>{t('heatmap.axisQueries')}</div>
        <div style={{ position: 'relative', alignSelf: 'start', height: px }}>
          {band(true)}
          {bandHover && bandHover.vertical && <BandTip text={bandHover.text} x={bandHover.x} y={Math.min(bandHover.y, px - 50)} />}
        </div>
        <div style={{ position: 'relative', width: px, height: px }}>
          <MatrixCanvas
            canvasRef={canvasRef}
            rows={dev}
            cols={dev}
            paint={paint}
            mark="kvscope:heatmap-painted"
            data-role="heatmap"
            data-view={`${vp.q0} ${vp.k0} ${vp.span}`}
            aria-label={t('heatmap.aria')}
            style={{ display: 'block', width: px, height: px, imageRendering: 'pixelated', outline: '1px solid #ccc', cursor: dragging ? 'grabbing' : 'crosshair', touchAction: 'none' }}
            {...canvasHandlers}
          />
          {cell && hover && <CellTooltip cell={cell} at={hover} px={px} matrix={matrix} size={size} labels={labels} absentText={absentText} />}
        </div>
      </div>
      <div style={{ marginLeft: left, marginTop: 6, maxWidth: px, fontSize: 12, color: '#555', lineHeight: 1.5 }}>
        {pooled && <div data-role="heatmap-pooled-note">{t('heatmap.pooledNote')}</div>}
        <div>{t('heatmap.help')}</div>
      </div>
    </div>
  );
}
