'use client';
// The heatmap's controls and readouts: zoom out / in / reset (in the figure's corner), the visible rows and
// columns with the zoom factor, the pinned columns with × to unpin, and the tooltip of the cell under the
// pointer (query token, key token, the exact weight, and the message and segment each token belongs to).
import type { Span } from '../../lib/prompt/prompt';
import { TOOLS_MESSAGE } from '../../lib/prompt/layout';
import { monoWidth, truncateLabel } from '../../lib/view/heatmapAxis';
import { MARK_COLORS } from '../../lib/view/palette';
import { fitAll, MIN_SPAN, visibleCells, zoomCentre, zoomFactor, type Cell, type Viewport } from '../../lib/view/viewport';
import { useT, type T } from '../common/i18n';
import { spanIndexAt } from './HeatmapBands';
import { STEP } from './useHeatmapView';

function formatZoom(z: number): string {
  return String(Number(z.toPrecision(z < 10 ? 2 : 3)));
}

/** Small square buttons: the corner of the figure has room for three. */
const small = { padding: '0 6px', minWidth: 24, minHeight: 24, lineHeight: '20px' } as const;

/** Zoom out, zoom in and reset, for the figure's top-left corner. */
export function ZoomButtons({ vp, size, update }: { vp: Viewport; size: number; update: (f: (v: Viewport) => Viewport) => void }) {
  const t = useT();
  const full = vp.span >= size;
  return (
    <div data-role="heatmap-zoom" style={{ display: 'flex', gap: 3 }}>
      <button type="button" style={small} aria-label={t('heatmap.zoomOut')} title={t('heatmap.zoomOut')} disabled={full} onClick={() => update((v) => zoomCentre(v, size, 1 / STEP))}>
        −
      </button>
      <button type="button" style={small} aria-label={t('heatmap.zoomIn')} title={t('heatmap.zoomIn')} disabled={vp.span <= Math.min(MIN_SPAN, size)} onClick={() => update((v) => zoomCentre(v, size, STEP))}>
        +
      </button>
      <button
        type="button"
        data-role="heatmap-reset"
        style={small}
        aria-label={t('heatmap.resetZoom')}
        title={t('heatmap.resetZoom')}
        disabled={full && vp.q0 === 0 && vp.k0 === 0}
        onClick={() => update(() => fitAll(size))}
      >
        ⟲
      </button>
    </div>
  );
}

/** "rows 0–477, cols 0–477 · zoom 1×". */
export function WindowText({ vp, size }: { vp: Viewport; size: number }) {
  const t = useT();
  const win = visibleCells(vp, size);
  return (
    <span data-role="heatmap-window" aria-live="polite" style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
      {t('heatmap.window', { q0: win.q0, q1: win.q1, k0: win.k0, k1: win.k1 })} · {t('heatmap.zoomFactor', { z: formatZoom(zoomFactor(vp, size)) })}
    </span>
  );
}

/** The pinned keys with their tokens, each with × to unpin; a note when the list is full. */
export function PinnedList({ keys, labels, full, max, onUnpin }: { keys: readonly number[]; labels: readonly string[]; full: boolean; max: number; onUnpin: (k: number) => void }) {
  const t = useT();
  return (
    <span data-role="heatmap-pinned-list" data-export-skip="" style={{ display: 'inline-flex', flexWrap: 'wrap', gap: 4, alignItems: 'center' }}>
      <span>{t('heatmap.pinned')}:</span>
      {keys.length === 0 && <span className="muted">{t('heatmap.pinnedNone')}</span>}
      {keys.map((k) => (
        <span
          key={k}
          data-pinned-key={k}
          style={{ display: 'inline-flex', alignItems: 'center', gap: 2, padding: '0 0 0 6px', border: `1px solid ${MARK_COLORS.pin}`, borderRadius: 4, color: MARK_COLORS.pin, fontFamily: 'var(--font-mono)', whiteSpace: 'pre' }}
        >
          {k} {truncateLabel(labels[k] ?? '', 12)}
          <button type="button" aria-label={t('heatmap.unpin', { k })} title={t('heatmap.unpin', { k })} onClick={() => onUnpin(k)} style={{ padding: '0 5px', minHeight: 0, lineHeight: '16px', border: 'none', background: 'none', color: 'inherit' }}>
            ×
          </button>
        </span>
      ))}
      {full && <span className="muted">{t('heatmap.pinFull', { max })}</span>}
    </span>
  );
}

/** "message 2 (user) · user", "tools block · tools", "generation prompt · template" for token i. */
export function tokenPlace(t: T, spans: readonly Span[] | undefined, messageCount: number | undefined, i: number): string | null {
  if (!spans) return null;
  const si = spanIndexAt(spans, i);
  if (si < 0) return null;
  const s = spans[si]!;
  const segment = t(`segment.${s.segment}`);
  if (s.message === TOOLS_MESSAGE) return t('heatmap.tipTools', { segment });
  if (messageCount !== undefined && s.message >= messageCount) return t('heatmap.tipGeneration', { segment });
  return t('heatmap.tipMessage', { n: s.message, role: t(`role.${s.role}`), segment });
}

export interface CellTooltipProps {
  cell: Cell;
  /** Pointer position in CSS px of the element the tooltip is placed in, and that element's size. */
  at: { x: number; y: number };
  width: number;
  height: number;
  matrix: Float32Array;
  size: number;
  labels: readonly string[];
  spans?: readonly Span[];
  messageCount?: number;
  absentText?: string;
}

export function CellTooltip({ cell, at, width, height, matrix, size, labels, spans, messageCount, absentText }: CellTooltipProps) {
  const t = useT();
  // 'query' and 'key' padded to one width so that the indices line up.
  const tipWidth = Math.max(monoWidth(t('heatmap.tipQuery')), monoWidth(t('heatmap.tipKey')));
  const tipWord = (w: string) => w + ' '.repeat(tipWidth - monoWidth(w));
  const v = matrix[cell.q * size + cell.k]!;
  const weight = cell.k > cell.q ? t('heatmap.tipMasked') : absentText !== undefined && Number.isNaN(v) ? absentText : t('heatmap.tipWeight', { w: v.toPrecision(6) });
  const place = (i: number) => {
    const p = tokenPlace(t, spans, messageCount, i);
    return p ? `\n${' '.repeat(tipWidth + 1)}${p}` : '';
  };
  const lines = `${tipWord(t('heatmap.tipQuery'))} ${cell.q} ${labels[cell.q] ?? ''}${place(cell.q)}\n${tipWord(t('heatmap.tipKey'))} ${cell.k} ${labels[cell.k] ?? ''}${place(cell.k)}\n${weight}`;
  const tall = spans ? 92 : 60;
  return (
    <div
      role="tooltip"
      data-role="heatmap-tooltip"
      style={{
        position: 'absolute',
        left: Math.max(0, Math.min(at.x + 14, width - 260)),
        top: at.y > height - tall - 20 ? Math.max(0, at.y - tall - 8) : at.y + 14,
        background: '#111',
        color: '#fff',
        padding: '5px 9px',
        borderRadius: 4,
        font: '12px/1.45 var(--font-mono, ui-monospace, monospace)',
        pointerEvents: 'none',
        whiteSpace: 'pre',
        maxWidth: 340,
        overflow: 'hidden',
        textOverflow: 'ellipsis',
        boxShadow: '0 2px 6px rgba(0,0,0,.25)',
        zIndex: 4,
      }}
    >
      {lines}
    </div>
  );
}
