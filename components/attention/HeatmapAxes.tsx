'use client';
// The heatmap's token axes as SVG (so exports keep the rotation): query labels left of the rows, key labels
// above the columns rotated −90°, both only for the visible cells and only once a cell is a label tall;
// index ticks otherwise. The selected query row's label is drawn in the selection colour (in tick mode as
// its own label), pinned columns' labels in the pin colour above their strips, and the axis-break mark.
// Which indices get a mark, and the cutting of labels, is lib/view/heatmapAxis's.
import type { PointerEvent } from 'react';
import { axisMarks, columnsIn, truncateLabel } from '../../lib/view/heatmapAxis';
import type { PinnedLayout } from '../../lib/view/pinnedColumns';
import { MARK_COLORS } from '../../lib/view/palette';
import type { Viewport } from '../../lib/view/viewport';
import { useT } from '../common/i18n';

const INK = MARK_COLORS.ink;
const MUTED = '#5a616c';
const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Noto Sans Mono CJK SC", monospace';
/** A cell has room for a label once it is this many label font sizes long (CJK glyphs fill the whole em). */
export const ROOM = 1.1;
/** Space between a label and the band or matrix it names (CSS px). */
const PAD = 5;

/** A tick's text kept inside the axis (its line stays at the true position): "0" is not cut in half. */
const clampTo = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));
/** Half the width of an index's digits at this font size, and a pixel to spare. */
const halfDigits = (i: number, fontPx: number) => String(i).length * 0.3 * fontPx + 1;

export interface QueryAxisProps {
  vp: Viewport;
  size: number;
  labels: readonly string[];
  px: number;
  width: number;
  labelPx: number;
  selected: number | null;
}

/** Query labels (or index ticks) right-aligned in a `width` px gutter beside the rows. */
export function QueryAxis({ vp, size, labels, px, width, labelPx, selected }: QueryAxisProps) {
  const t = useT();
  const a = axisMarks(vp.q0, vp.span, size, px, ROOM * labelPx);
  const cols = columnsIn(width - PAD - 2, labelPx);
  const x = width - PAD;
  const selPos = selected !== null ? (selected + 0.5 - vp.q0) * (px / vp.span) : null;
  const selVisible = selPos !== null && selPos >= 0 && selPos <= px;
  return (
    <svg
      data-role="heatmap-axis-queries"
      data-mode={a.mode}
      role="img"
      aria-label={t('heatmap.axisQueriesAria')}
      width={width}
      height={px}
      style={{ display: 'block', fontFamily: MONO, fontSize: labelPx, overflow: 'hidden' }}
    >
      {a.mode === 'labels'
        ? a.marks.map(({ index, pos }) => {
            const sel = index === selected;
            return (
              <text
                key={index}
                data-query-label={index}
                x={x}
                y={pos}
                textAnchor="end"
                dominantBaseline="central"
                fill={sel ? MARK_COLORS.select : INK}
                fontWeight={sel ? 700 : 400}
              >
                {truncateLabel(labels[index] ?? '', cols)}
              </text>
            );
          })
        : a.marks
            // A tick that would collide with the selected row's label gives way to it.
            .filter(({ pos }) => !(selVisible && Math.abs(pos - selPos!) < labelPx * 1.2))
            .map(({ index, pos }) => (
              <g key={index} data-tick={index}>
                <line x1={width - 4} x2={width} y1={pos} y2={pos} stroke={MUTED} />
                <text x={width - 6} y={clampTo(pos, labelPx * 0.6, px - labelPx * 0.6)} textAnchor="end" dominantBaseline="central" fill={MUTED} fontFamily="system-ui, sans-serif">
                  {index}
                </text>
              </g>
            ))}
      {a.mode === 'ticks' && selVisible && (
        <text
          data-role="heatmap-selected-label"
          data-row={selected!}
          x={x}
          y={selPos!}
          textAnchor="end"
          dominantBaseline="central"
          fill={MARK_COLORS.select}
          fontWeight={700}
          stroke="#fff"
          strokeWidth={3}
          paintOrder="stroke"
        >
          {truncateLabel(`${selected} ${labels[selected!] ?? ''}`, cols)}
        </text>
      )}
      {selVisible && <rect x={width - 3} y={Math.max(0, selPos! - Math.max(1, a.cell) / 2)} width={3} height={Math.max(2, a.cell)} fill={MARK_COLORS.select} />}
    </svg>
  );
}

export interface KeyAxisProps {
  vp: Viewport;
  size: number;
  labels: readonly string[];
  px: number;
  height: number;
  labelPx: number;
  /** The pinned strips before the matrix (their labels go above them) and the pinned keys. */
  layout: PinnedLayout;
  pinned: readonly number[];
  onToggle: (k: number) => void;
  onHoverKey: (k: number | null) => void;
}

/** Key labels (or index ticks) above the columns, and the pinned strips' labels above the strips. */
export function KeyAxis({ vp, size, labels, px, height, labelPx, layout, pinned, onToggle, onHoverKey }: KeyAxisProps) {
  const t = useT();
  const a = axisMarks(vp.k0, vp.span, size, px, ROOM * labelPx);
  const cols = columnsIn(height - PAD - 2, labelPx);
  const ox = layout.total;
  const rotated = (x: number) => `translate(${x} ${height - PAD}) rotate(-90)`;
  const hover = (k: number | null) => () => onHoverKey(k);
  return (
    <svg
      data-role="heatmap-axis-keys"
      data-mode={a.mode}
      role="group"
      aria-label={t('heatmap.axisKeysAria')}
      width={ox + px}
      height={height}
      style={{ display: 'block', fontFamily: MONO, fontSize: labelPx, overflow: 'hidden' }}
      onPointerLeave={hover(null)}
    >
      {layout.strips.map((s) => (
        <text
          key={`pin${s.key}`}
          data-role="heatmap-pinned-label"
          data-key={s.key}
          transform={rotated(s.x + s.width / 2)}
          dominantBaseline="central"
          fill={MARK_COLORS.pin}
          fontWeight={700}
          style={{ cursor: 'pointer' }}
          onClick={() => onToggle(s.key)}
          onPointerEnter={hover(s.key)}
        >
          {truncateLabel(`${s.key} ${labels[s.key] ?? ''}`, cols)}
        </text>
      ))}
      <g transform={`translate(${ox} 0)`}>
        {a.mode === 'labels'
          ? a.marks.map(({ index, pos }) => {
              const pin = pinned.includes(index);
              return (
                <text
                  key={index}
                  data-key-label={index}
                  data-pinned={pin ? 'true' : undefined}
                  transform={rotated(pos)}
                  dominantBaseline="central"
                  fill={pin ? MARK_COLORS.pin : INK}
                  fontWeight={pin ? 700 : 400}
                  style={{ cursor: 'pointer' }}
                  onClick={() => onToggle(index)}
                  onPointerEnter={hover(index)}
                >
                  {truncateLabel(labels[index] ?? '', cols)}
                </text>
              );
            })
          : a.marks.map(({ index, pos }) => (
              <g key={index} data-tick={index}>
                <line x1={pos} x2={pos} y1={height - 4} y2={height} stroke={MUTED} />
                <text x={clampTo(pos, halfDigits(index, labelPx), px - halfDigits(index, labelPx))} y={height - 7} textAnchor="middle" fill={MUTED} fontFamily="system-ui, sans-serif">
                  {index}
                </text>
              </g>
            ))}
      </g>
    </svg>
  );
}

/**
 * The axis break between the pinned strips and the matrix: two zigzags down the key band and the rows, in
 * the pin colour, so nobody reads the wide strips on the matrix's scale.
 */
export function AxisBreak({ width, height, onPointerMove }: { width: number; height: number; onPointerMove?: (e: PointerEvent<SVGSVGElement>) => void }) {
  const t = useT();
  const zig = (x: number) => {
    const pts: string[] = [];
    const amp = Math.max(1.5, width / 6);
    for (let y = 0, i = 0; y <= height; y += 5, i++) pts.push(`${x + (i % 2 === 0 ? -amp : amp)},${y}`);
    return pts.join(' ');
  };
  return (
    <svg data-role="heatmap-axis-break" role="img" aria-label={t('heatmap.breakAria')} width={width} height={height} style={{ display: 'block' }} onPointerMove={onPointerMove}>
      <polyline points={zig(width * 0.33)} fill="none" stroke={MARK_COLORS.pin} strokeWidth={1.5} />
      <polyline points={zig(width * 0.67)} fill="none" stroke={MARK_COLORS.pin} strokeWidth={1.5} />
    </svg>
  );
}
