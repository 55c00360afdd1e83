'use client';
// Small pieces shared by the cache-economics panels: colours, number formats, a legend swatch, the
// rendering-progress line and the SVG axis. Draws only.
import { useEffect, type CSSProperties, type ReactNode } from 'react';
import type { Batch } from '../hooks/usePromptBatch';
import { useDescribe, useT } from '../common/i18n';
import { formatInt, formatPercent1, formatTenths, tickLabel } from '../../lib/view/scale';
import { parseAlpha } from '../../lib/view/growthChart';

/** Paul Tol's "bright" scheme: cached (reused) blue, recomputed red; the two status strategies green and purple. */
export const ECON_COLORS = {
  cached: '#4477AA',
  recomputed: '#EE6677',
  partial: '#DDDDDD',
  noCache: '#BBBBBB',
  replace: '#228833',
  append: '#AA3377',
  crossover: '#444444',
} as const;

/** Paul Tol's "muted" scheme, one colour per call of a run (cycles after 9). */
const CALL_PALETTE = ['#332288', '#88CCEE', '#44AA99', '#117733', '#999933', '#DDCC77', '#CC6677', '#882255', '#AA4499'];
export const callColor = (call: number) => CALL_PALETTE[call % CALL_PALETTE.length]!;
/** Text colour readable on callColor(call). */
export const callInk = (call: number) => (['#88CCEE', '#44AA99', '#999933', '#DDCC77', '#CC6677'].includes(callColor(call)) ? '#000' : '#fff');

/** A literal stack (not a CSS variable): SVG attributes and exported pictures use it too. */
export const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';
export const FONT = 'var(--fs-sm) var(--font-sans)';

/** Integers with thousands separators (lib/view/scale, d3-format). */
export const fmtInt = formatInt;
/** Costs (units of one uncached token): one decimal, separators. */
export const fmtCost = formatTenths;
export const fmtPct = formatPercent1;

export function Swatch({ color, label, dashed, hatched }: { color: string; label: ReactNode; dashed?: boolean; hatched?: boolean }) {
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 5 }}>
      <span
        style={{
          width: 14,
          height: 12,
          background: hatched ? `repeating-linear-gradient(45deg, ${color} 0 3px, #fff 3px 5px)` : dashed ? '#fff' : color,
          border: dashed ? `1.5px dashed ${color}` : '1px solid rgba(0,0,0,0.35)',
          borderRadius: 2,
          flex: 'none',
        }}
      />
      {label}
    </span>
  );
}

export function LegendRow({ children, role }: { children: ReactNode; role?: string }) {
  const t = useT();
  return (
    <div data-role={role} role="group" aria-label={t('econ.legend')} style={{ display: 'flex', flexWrap: 'wrap', gap: '4px 16px', fontSize: 'var(--fs-xs)', color: 'var(--c-text)' }}>
      {children}
    </div>
  );
}

/** Whether a batch has settled: rendered (or failed) and not rendering again. */
export const batchSettled = (b: Batch): boolean => (b.ready !== null || b.error !== null) && !b.progress;

/** Tells `onSettled` (when given) whether a panel's batch has settled, each time that changes. */
export function useReportSettled(settled: boolean, onSettled?: (settled: boolean) => void): void {
  useEffect(() => onSettled?.(settled), [settled, onSettled]);
}

/** "rendering prompts 12 / 42" with a progress bar while a batch renders; the error when it failed. */
export function BatchStatus({ batch, what }: { batch: Batch; what: string }) {
  const t = useT();
  const describe = useDescribe();
  if (batch.error)
    return (
      <div role="alert" style={{ color: 'var(--c-error)', background: 'var(--c-error-soft)', padding: '4px 8px', borderRadius: 'var(--radius)' }}>
        {t('error.prefix', { message: describe(batch.failure ?? batch.error) })}
      </div>
    );
  if (!batch.progress) return null;
  const { done, total } = batch.progress;
  return (
    <span data-role="econ-progress" className="muted" style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
      <progress value={done} max={total} style={{ width: 120 }} />
      {t('econ.rendering', { what, done, total })}
    </span>
  );
}

export interface AxisProps {
  /** Pixel positions and labels of the ticks. */
  ticks: { at: number; value: number }[];
  orient: 'left' | 'bottom';
  /** The line's other coordinate: x of a left axis, y of a bottom axis. */
  pos: number;
  /** Gridlines across the plot, to this coordinate (x for left, y for bottom); none when undefined. */
  gridTo?: number;
  label: string;
  /** Where the axis label goes: x (left axis: centre of the plot's height as y) etc. */
  labelAt: { x: number; y: number };
  format?: (v: number) => string;
}

export function Axis({ ticks, orient, pos, gridTo, label, labelAt, format = tickLabel }: AxisProps) {
  return (
    <g fontSize={11} fill="#333">
      {ticks.map(({ at, value }) =>
        orient === 'left' ? (
          <g key={value}>
            {gridTo !== undefined && <line x1={pos} x2={gridTo} y1={at} y2={at} stroke="#eee" />}
            <line x1={pos - 4} x2={pos} y1={at} y2={at} stroke="#888" />
            <text x={pos - 7} y={at + 4} textAnchor="end">
              {format(value)}
            </text>
          </g>
        ) : (
          <g key={value}>
            {gridTo !== undefined && <line x1={at} x2={at} y1={pos} y2={gridTo} stroke="#eee" />}
            <line x1={at} x2={at} y1={pos} y2={pos + 4} stroke="#888" />
            <text x={at} y={pos + 16} textAnchor="middle">
              {format(value)}
            </text>
          </g>
        ),
      )}
      {orient === 'left' ? (
        <text x={labelAt.x} y={labelAt.y} textAnchor="middle" transform={`rotate(-90 ${labelAt.x} ${labelAt.y})`} fontSize={12}>
          {label}
        </text>
      ) : (
        <text x={labelAt.x} y={labelAt.y} textAnchor="middle" fontSize={12}>
          {label}
        </text>
      )}
    </g>
  );
}

/**
 * The price-ratio field (α, 0…1) of the economics panels and the run-log view: keeps the text as typed and
 * reports the parsed value (null while invalid, so the caller keeps its last good α).
 */
export function AlphaInput({ text, control, onChange, style }: { text: string; control: string; onChange: (text: string, alpha: number | null) => void; style?: CSSProperties }) {
  return (
    <input
      data-control={control}
      type="number"
      min={0}
      max={1}
      step={0.05}
      value={text}
      aria-invalid={parseAlpha(text) === null}
      onChange={(e) => onChange(e.target.value, parseAlpha(e.target.value))}
      style={style}
    />
  );
}
