'use client';
// Attention heatmap as a figure: the matrix on one canvas (never a DOM node per cell) with zoom (wheel at
// the pointer, + / − keys and buttons), pan (drag, arrow keys), reset (0 key, button); token labels on both
// axes where cells have room (index ticks otherwise); segment bands along both axes; the pinned key columns
// (key 0 by default) as wide strips before an axis break, for the rows in view; the selected query row
// outlined (click a cell to select its row); a hover tooltip naming query token, key token, the weight and
// the message and segment of each. The window maths is lib/view/viewport's, the axes lib/view/heatmapAxis's,
// the strips lib/view/pinnedColumns'; input is useHeatmapView's; this file lays the parts out.
import { useCallback, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { paintRgba, type ColormapName, type Scale } from '../../lib/view/colormap';
import { HEATMAP_PAINTED_MARK } from '../../lib/view/paintMark';
import { rowBox } from '../../lib/view/heatmapAxis';
import { PIN_LIMIT, pinnedKeys, pinnedLayout, stripAt, togglePinned, type PinnedLayout } from '../../lib/view/pinnedColumns';
import { MARK_COLORS, SEGMENT_COLORS } from '../../lib/view/palette';
import { COPY_MARK, markBox } from '../../lib/view/copySource';
import { cellAt, isPooled, rasterize, type Viewport } from '../../lib/view/viewport';
import type { Span } from '../../lib/prompt/prompt';
import { MatrixCanvas, useDevicePixelRatio } from '../charts/MatrixCanvas';
import { useT } from '../common/i18n';
import { AxisBreak, KeyAxis, QueryAxis } from './HeatmapAxes';
import { BAND, BandTip, bandText, HeatmapBand, messageStarts, spanIndexAt } from './HeatmapBands';
import { CellTooltip, PinnedList, WindowText, ZoomButtons } from './HeatmapToolbar';
import { PinnedStrips } from './PinnedStrips';
import { useHeatmapView } from './useHeatmapView';
import { useLabelPx } from './useLabelPx';

export interface HeatmapProps {
  /** The window the heatmap opens at (cell units; clamped), e.g. a lesson step's zoom; default the whole matrix. */
  initialView?: Viewport;
  /** size × size, row-major, rows = query tokens, columns = key tokens; cells k > q are masked. */
  matrix: Float32Array;
  size: number;
  /** Display text per token (visible whitespace): axis labels and tooltip. */
  labels: string[];
  scale: Scale;
  map: ColormapName;
  /** Spans tiling the tokens (Prompt.spans): segment bands along both axes and the tooltip's message and segment. */
  spans?: Span[];
  /** Prompt.messageCount: a span with this message index is the generation prompt. */
  messageCount?: number;
  /** CSS pixels of the drawn square. */
  px?: number;
  /**
   * Tooltip text for a NaN cell on or below the diagonal (e.g. a row an imported file does not contain); such
   * cells are drawn in the masked colour. Without it the tooltip prints the value as for any other cell.
   */
  absentText?: string;
  /** The selected query row (outlined); with onSelect the caller owns it, otherwise the heatmap keeps its own. */
  selected?: number | null;
  onSelect?: (q: number | null) => void;
  /** Pinned key columns; with onPinned the caller owns them, otherwise the heatmap keeps its own (key 0). */
  pinned?: readonly number[];
  onPinned?: (keys: number[]) => void;
  /** Drawn under the figure, before the window readout (e.g. the colour legend). */
  footer?: ReactNode;
  /** A cell ringed on the canvas (the copy source of the selected row, docs/CONCEPTS.md#copy-source), or null. */
  mark?: { q: number; k: number } | null;
}

const NO_PINS: readonly number[] = [];
/** Gap between a band and the matrix (CSS px). */
const GAP = 2;
/** CSS px the pinned strips may take together (one strip 16 px, four 10 px each). */
const PIN_BUDGET = 48;
/** The smallest side of the ring around a marked cell (CSS px). */
const MARK_MIN_PX = 10;
/** The selection outline: 2 px of MARK_COLORS.select with a 1 px white halo on both sides, 3 px off the row. */
const OUTLINE = 3;

/** The figure's parts in CSS px, from the label size, the bands and the pinned strips. */
export interface HeatmapFrame {
  /** Query-label gutter and key-label height. */
  gutter: number;
  keyH: number;
  band: number;
  gap: number;
  /** Where the pinned strips start and where the matrix starts (x), and the matrix's top (y). */
  stripsX: number;
  left: number;
  top: number;
}

export function heatmapFrame(labelPx: number, bands: boolean, layout: PinnedLayout): HeatmapFrame {
  const gutter = Math.round(7 * labelPx);
  const keyH = Math.round(5 * labelPx);
  const band = bands ? BAND : 0;
  const gap = bands ? GAP : 0;
  const stripsX = gutter + band + gap;
  return { gutter, keyH, band, gap, stripsX, left: stripsX + layout.total, top: keyH + band + gap };
}

const outlineStyle = (x: number, y: number, w: number, h: number) =>
  ({
    position: 'absolute',
    left: x - OUTLINE,
    top: y - OUTLINE,
    width: w + 2 * OUTLINE,
    height: h + 2 * OUTLINE,
    boxSizing: 'border-box',
    border: `2px solid ${MARK_COLORS.select}`,
    boxShadow: '0 0 0 1px #fff, inset 0 0 0 1px #fff',
    pointerEvents: 'none',
    zIndex: 2,
  }) as const;

export function Heatmap({ initialView, matrix, size, labels, scale, map, spans, messageCount, px = 640, absentText, selected, onSelect, pinned, onPinned, footer, mark = null }: HeatmapProps) {
  const t = useT();
  const labelPx = useLabelPx();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const raster = useRef<Float32Array | null>(null);

  // Selection and pins: the caller's when it passes a setter, the heatmap's own otherwise.
  const [ownSelected, setOwnSelected] = useState<number | null>(null);
  const sel = onSelect ? (selected ?? null) : ownSelected;
  const select = onSelect ?? setOwnSelected;
  const [ownPinned, setOwnPinned] = useState<readonly number[]>([0]);
  const pins = onPinned ? (pinned ?? NO_PINS) : ownPinned;
  const [pinFull, setPinFull] = useState(false);
  const toggle = (k: number) => {
    const next = togglePinned(pins, k, PIN_LIMIT);
    setPinFull(next === pins && !pins.includes(k));
    if (next === pins) return;
    if (onPinned) onPinned([...next]);
    else setOwnPinned(next);
  };
  const keys = useMemo(() => pinnedKeys(pins, size), [pins, size]);
  const layout = useMemo(() => pinnedLayout(keys, { budget: PIN_BUDGET }), [keys]);
  const f = heatmapFrame(labelPx, spans !== undefined, layout);

  const onTap = (p: { x: number; y: number }, v: { q0: number; k0: number; span: number }) => {
    const c = cellAt(v, px, p.x, p.y, size);
    if (c) select(c.q);
  };
  const { vp, update, hover, dragging, local, canvasHandlers, onKeyDown } = useHeatmapView(size, px, canvasRef, onTap, initialView);
  const dpr = useDevicePixelRatio();
  const dev = Math.max(1, Math.round(px * dpr));
  const [focusRing, setFocusRing] = useState(false);
  const [bandHover, setBandHover] = useState<{ text: string; x: number; y: number } | null>(null);
  const [stripHover, setStripHover] = useState<{ key: number; x: number; y: number } | null>(null);
  const [axisKey, setAxisKey] = useState<number | null>(null);
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

  // The marked cell: a ring of at least MARK_MIN_PX CSS px around it (a cell can be under a pixel wide) in COPY_MARK
  // on a white halo, and a notch over its column at the top edge, so it is found at any zoom.
  const markQ = mark?.q ?? -1;
  const markK = mark?.k ?? -1;
  const overlay = useCallback(
    (ctx: CanvasRenderingContext2D) => {
      if (markQ < 0 || markK < 0) return;
      const lw = Math.max(1, Math.round(dpr));
      const b = markBox({ q0: vp.q0, k0: vp.k0, span: vp.span }, dev, markQ, markK, MARK_MIN_PX * dpr);
      if (!b) return;
      const ring = (colour: string, width: number) => {
        ctx.strokeStyle = colour;
        ctx.lineWidth = width;
        ctx.strokeRect(b.x - lw, b.y - lw, b.w + 2 * lw, b.h + 2 * lw);
      };
      ring('#ffffff', 4 * lw);
      ring(COPY_MARK, 2 * lw);
      const cx = b.x + b.w / 2;
      const n = 5 * lw;
      ctx.fillStyle = COPY_MARK;
      ctx.beginPath();
      ctx.moveTo(cx - n, 0);
      ctx.lineTo(cx + n, 0);
      ctx.lineTo(cx, 1.6 * n);
      ctx.closePath();
      ctx.fill();
    },
    [markQ, markK, vp.q0, vp.k0, vp.span, dev, dpr],
  );

  const onBandMove = (vertical: boolean) => (e: PointerEvent<HTMLCanvasElement>) => {
    if (!spans) return;
    const p = local(e);
    const a = vertical ? p.y : p.x;
    const tok = Math.floor((vertical ? vp.q0 : vp.k0) + (a / px) * vp.span);
    const text = bandText(t, spans, tok, messageCount);
    setBandHover(text ? (vertical ? { text, x: f.gutter + f.band + 6, y: f.top + Math.min(p.y, px - 50) } : { text, x: f.left + Math.min(p.x, px - 260), y: f.keyH + f.band + 6 }) : null);
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

  // Strips: hover names the cell (row under the pointer, the strip's key); a click selects the row.
  const stripPoint = (e: PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return { x: ((e.clientX - r.left) / r.width) * layout.breakX, y: ((e.clientY - r.top) / r.height) * px };
  };
  const stripDown = useRef<{ x: number; y: number } | null>(null);
  const stripHandlers = {
    onPointerMove: (e: PointerEvent<HTMLCanvasElement>) => {
      const p = stripPoint(e);
      const s = stripAt(layout, p.x);
      setStripHover(s ? { key: s.key, x: p.x, y: p.y } : null);
    },
    onPointerLeave: () => setStripHover(null),
    onPointerDown: (e: PointerEvent<HTMLCanvasElement>) => {
      stripDown.current = { x: e.clientX, y: e.clientY };
    },
    onPointerUp: (e: PointerEvent<HTMLCanvasElement>) => {
      const d = stripDown.current;
      stripDown.current = null;
      if (!d || Math.abs(e.clientX - d.x) + Math.abs(e.clientY - d.y) >= 3) return;
      const q = Math.floor(vp.q0 + (stripPoint(e).y / px) * vp.span);
      if (q >= 0 && q < size) select(q);
    },
  };

  const cell = hover ? cellAt(vp, px, hover.x, hover.y, size) : null;
  const stripCell = stripHover ? { q: Math.min(size - 1, Math.max(0, Math.floor(vp.q0 + (stripHover.y / px) * vp.span))), k: stripHover.key } : null;
  // The column P pins or unpins: under the pointer on the matrix, a strip or a key label.
  const hoverKey = cell?.k ?? stripCell?.k ?? axisKey;
  const onRegionKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if ((e.key === 'p' || e.key === 'P') && !e.altKey && !e.ctrlKey && !e.metaKey) {
      if (hoverKey === null) return;
      e.preventDefault();
      toggle(hoverKey);
      return;
    }
    onKeyDown(e);
  };

  const pooled = isPooled(vp, dev);
  const W = f.left + px;
  const H = f.top + px;
  const row = sel !== null ? rowBox(vp, px, sel) : null;
  const rowY = sel !== null ? rowBox({ q0: vp.q0, k0: 0, span: vp.span }, px, sel) : null;
  const pinnedUpTo = sel !== null ? layout.strips.filter((s) => s.key <= sel).at(-1) : undefined;
  const tipProps = { matrix, size, labels, spans, messageCount, absentText };
  const abs = (x: number, y: number, w: number, h: number) => ({ position: 'absolute', left: x, top: y, width: w, height: h }) as const;

  return (
    <div data-role="heatmap-view" style={{ display: 'inline-block', font: 'var(--fs-sm, 13px) var(--font-sans, system-ui, sans-serif)', color: 'var(--c-text, #16181d)' }}>
      <div
        data-role="heatmap-region"
        tabIndex={0}
        role="group"
        aria-label={t('heatmap.regionAria')}
        aria-description={t('heatmap.help')}
        onKeyDown={onRegionKey}
        onFocus={(e) => setFocusRing(e.currentTarget === e.target && e.currentTarget.matches(':focus-visible'))}
        onBlur={() => setFocusRing(false)}
        onMouseDown={() => setFocusRing(false)}
        style={{ position: 'relative', width: W, height: H, outline: focusRing ? `2px solid ${MARK_COLORS.pin}` : 'none', outlineOffset: 4, borderRadius: 2 }}
      >
        {/* Corner: zoom buttons, then the axis titles pointing at the labels. */}
        <div style={{ ...abs(0, 0, f.gutter - 4, f.top), display: 'flex', flexDirection: 'column', justifyContent: 'space-between', alignItems: 'flex-start' }}>
          <ZoomButtons vp={vp} size={size} update={update} />
          <div style={{ alignSelf: 'stretch', textAlign: 'right', color: 'var(--c-muted, #5a616c)', fontSize: 'var(--fs-xs, 12px)', lineHeight: 1.25, whiteSpace: 'nowrap' }}>
            <div>{t('heatmap.axisKeys')}</div>
            <div>{t('heatmap.axisQueries')}</div>
          </div>
        </div>
        <div style={abs(f.stripsX, 0, layout.total + px, f.keyH)}>
          <KeyAxis vp={vp} size={size} labels={labels} px={px} height={f.keyH} labelPx={labelPx} layout={layout} pinned={keys} onToggle={toggle} onHoverKey={setAxisKey} />
        </div>
        {spans && (
          <>
            <div style={abs(f.left, f.keyH, px, f.band)}>{band(false)}</div>
            <div style={abs(f.gutter, f.top, f.band, px)}>{band(true)}</div>
            {layout.strips.map((s) => {
              const si = spanIndexAt(spans, s.key);
              return <div key={s.key} data-pinned-swatch={s.key} style={{ ...abs(f.stripsX + s.x, f.keyH, s.width, f.band), background: si >= 0 ? SEGMENT_COLORS[spans[si]!.segment] : 'transparent' }} />;
            })}
          </>
        )}
        <div style={abs(0, f.top, f.gutter, px)}>
          <QueryAxis vp={vp} size={size} labels={labels} px={px} width={f.gutter} labelPx={labelPx} selected={sel} />
        </div>
        {layout.strips.length > 0 && (
          <>
            <div style={abs(f.stripsX, f.top, layout.breakX, px)}>
              <PinnedStrips matrix={matrix} size={size} vp={vp} layout={layout} scale={scale} map={map} px={px} dpr={dpr} handlers={stripHandlers} />
            </div>
            <div style={abs(f.stripsX + layout.breakX, f.keyH, layout.breakWidth, f.band + f.gap + px)}>
              <AxisBreak width={layout.breakWidth} height={f.band + f.gap + px} />
            </div>
          </>
        )}
        <div style={abs(f.left, f.top, px, px)}>
          <MatrixCanvas
            canvasRef={canvasRef}
            rows={dev}
            cols={dev}
            paint={paint}
            overlay={overlay}
            mark={HEATMAP_PAINTED_MARK}
            data-role="heatmap"
            data-copy-mark={mark ? `${mark.q} ${mark.k}` : undefined}
            data-view={`${vp.q0} ${vp.k0} ${vp.span}`}
            aria-label={t('heatmap.aria')}
            style={{ display: 'block', width: px, height: px, imageRendering: 'pixelated', outline: '1px solid var(--c-border, #ccc)', cursor: dragging ? 'grabbing' : 'crosshair', touchAction: 'none' }}
            {...canvasHandlers}
          />
          {cell && hover && <CellTooltip cell={cell} at={hover} width={px} height={px} {...tipProps} />}
        </div>
        {row && <div data-role="heatmap-row-outline" data-row={sel!} style={outlineStyle(f.left + row.x, f.top + row.y, row.width, row.height)} />}
        {rowY && pinnedUpTo && (
          <div data-role="heatmap-row-outline-pinned" data-row={sel!} style={outlineStyle(f.stripsX, f.top + rowY.y, pinnedUpTo.x + pinnedUpTo.width, rowY.height)} />
        )}
        {stripCell && stripHover && <CellTooltip cell={stripCell} at={{ x: f.stripsX + stripHover.x, y: f.top + stripHover.y }} width={W} height={H} {...tipProps} />}
        {bandHover && <BandTip text={bandHover.text} x={bandHover.x} y={bandHover.y} />}
      </div>
      {/* Under the figure: the caller's footer (legend), the window and the pinned columns; width of the figure. */}
      <div style={{ width: 0, minWidth: '100%', boxSizing: 'border-box', paddingLeft: f.stripsX, marginTop: 6, display: 'flex', flexWrap: 'wrap', gap: '6px 16px', alignItems: 'flex-start' }}>
        {footer}
        <div style={{ display: 'grid', gap: 4, fontSize: 'var(--fs-xs, 12px)', color: 'var(--c-muted, #5a616c)' }}>
          <WindowText vp={vp} size={size} />
          <PinnedList keys={keys} labels={labels} full={pinFull} max={PIN_LIMIT} onUnpin={toggle} />
        </div>
      </div>
      <div style={{ width: 0, minWidth: '100%', boxSizing: 'border-box', paddingLeft: f.stripsX, marginTop: 4, fontSize: 'var(--fs-xs, 12px)', color: 'var(--c-muted, #5a616c)', lineHeight: 1.4 }}>
        {pooled && <div data-role="heatmap-pooled-note">{t('heatmap.pooledNote')}</div>}
        <div data-export-skip="" data-role="view-secondary">
          {t('heatmap.help')}
        </div>
      </div>
    </div>
  );
}
