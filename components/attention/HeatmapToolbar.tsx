'use client';
// The heatmap's toolbar (zoom out, zoom in, reset, the visible rows and columns with the zoom factor) and
// the tooltip of the cell under the pointer (query token, key token, the exact weight).
import { fitAll, MIN_SPAN, visibleCells, zoomCentre, zoomFactor, type Cell, type Viewport } from '../../lib/view/viewport';
import { useT } from '../common/i18n';
import { STEP } from './useHeatmapView';

function formatZoom(z: number): string {
  return String(Number(z.toPrecision(z < 10 ? 2 : 3)));
}

/** Columns a string takes in a monospace font: CJK characters count two. */
function monoWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += ch.codePointAt(0)! >= 0x2e80 ? 2 : 1;
  return w;
}

const button = { font: 'inherit', padding: '2px 10px', minWidth: 32, border: '1px solid #bbb', borderRadius: 4, background: '#fff', cursor: 'pointer' } as const;

export function HeatmapToolbar({ vp, size, px, left, update }: { vp: Viewport; size: number; px: number; left: number; update: (f: (v: Viewport) => Viewport) => void }) {
  const t = useT();
  const win = visibleCells(vp, size);
  const full = vp.span >= size;
  return (
    <div style={{ display: 'flex', gap: 8, alignItems: 'center', marginLeft: left, marginBottom: 8, flexWrap: 'wrap', maxWidth: px }}>
      <button type="button" style={button} aria-label={t('heatmap.zoomOut')} title={t('heatmap.zoomOut')} disabled={full} onClick={() => update((v) => zoomCentre(v, size, 1 / STEP))}>
        −
      </button>
      <button type="button" style={button} aria-label={t('heatmap.zoomIn')} title={t('heatmap.zoomIn')} disabled={vp.span <= Math.min(MIN_SPAN, size)} onClick={() => update((v) => zoomCentre(v, size, STEP))}>
        +
      </button>
      <button type="button" data-role="heatmap-reset" style={button} disabled={full && vp.q0 === 0 && vp.k0 === 0} onClick={() => update(() => fitAll(size))}>
        {t('heatmap.resetZoom')}
      </button>
      <span data-role="heatmap-window" aria-live="polite" style={{ color: '#444', fontVariantNumeric: 'tabular-nums', marginLeft: 4 }}>
        {t('heatmap.window', { q0: win.q0, q1: win.q1, k0: win.k0, k1: win.k1 })} · {t('heatmap.zoomFactor', { z: formatZoom(zoomFactor(vp, size)) })}
      </span>
    </div>
  );
}

export interface CellTooltipProps {
  cell: Cell;
  /** Pointer position in CSS px of the px-wide drawing. */
  at: { x: number; y: number };
  px: number;
  matrix: Float32Array;
  size: number;
  labels: string[];
  absentText?: string;
}

export function CellTooltip({ cell, at, px, matrix, size, labels, absentText }: CellTooltipProps) {
  const t = useT();
  // 'query' and 'key' padded to one width so that the indices line up.
  const tipWidth = Math.max(monoWidth(t('heatmap.tipQuery')), monoWidth(t('heatmap.tipKey')));
  const tipWord = (w: string) => w + ' '.repeat(tipWidth - monoWidth(w));
  const v = matrix[cell.q * size + cell.k]!;
  const weight = cell.k > cell.q ? t('heatmap.tipMasked') : absentText !== undefined && Number.isNaN(v) ? absentText : t('heatmap.tipWeight', { w: v.toPrecision(6) });
  return (
    <div
      role="tooltip"
      data-role="heatmap-tooltip"
      style={{
        position: 'absolute',
        left: Math.max(0, Math.min(at.x + 14, px - 240)),
        top: at.y > px - 80 ? at.y - 66 : at.y + 14,
        background: '#111',
        color: '#fff',
        padding: '5px 9px',
        borderRadius: 4,
        font: '12px/1.45 ui-monospace, monospace',
        pointerEvents: 'none',
        whiteSpace: 'pre',
        maxWidth: 320,
        overflow: 'hidden',
        textOverflow: 'ellipsis',
        boxShadow: '0 2px 6px rgba(0,0,0,.25)',
        zIndex: 2,
      }}
    >
      {`${tipWord(t('heatmap.tipQuery'))} ${cell.q} ${labels[cell.q] ?? ''}\n${tipWord(t('heatmap.tipKey'))} ${cell.k} ${labels[cell.k] ?? ''}\n${weight}`}
    </div>
  );
}
