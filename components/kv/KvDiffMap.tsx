'use client';
// Layer × position map of how much each cached K (or V) entry differs between two requests, on one canvas
// per tensor. Exact zero (reusable) and "within tolerance" get their own colours; larger differences a log
// colour scale. An optional sweep shows the recompute order: layer by layer, from the first differing
// position to the end; entries the sweep has not reached yet are hatched as stale.
import { useCallback } from 'react';
import { makeScale, sampleColormap, type Scale } from '../../lib/view/colormap';
import { paintCells, poolMatrix, poolSpan } from '../../lib/view/raster';
import { MatrixCanvas } from '../charts/MatrixCanvas';
import { Ramp } from '../charts/Legend';
import { useT } from '../common/i18n';

export const REUSABLE_RGB: readonly [number, number, number] = [166, 219, 160];
export const WITHIN_TOL_RGB: readonly [number, number, number] = [217, 240, 211];
const STALE_RGB: readonly [number, number, number] = [200, 200, 200];
const STALE_ALT_RGB: readonly [number, number, number] = [185, 185, 185];

export interface KvDiffMapProps {
  /** max |Δ| per [layer × positions], row-major. */
  delta: Float32Array;
  layers: number;
  positions: number;
  tol: number;
  /** Largest difference drawn at the top of the colour scale. */
  max: number;
  /**
   * The recompute sweep: entries at positions ≥ `from`, layer by layer, the fraction of them recomputed so
   * far (0…1); null draws everything as computed.
   */
  sweep: { from: number; fraction: number } | null;
  title: string;
  /** Compared positions before this index are the reused prefix: a line marks where it ends. */
  prefix: number;
  width?: number;
  rowHeight?: number;
  /** Called with (layer, position) under the pointer, or null. */
  onHover?: (cell: { layer: number; position: number } | null) => void;
}

export function diffScale(max: number, tol: number): Scale {
  return makeScale({ kind: 'log', min: 0, max: Math.max(max, tol * 10, 1e-12), logFloor: Math.max(tol, 1e-12) });
}

export function KvDiffMap({ delta, layers, positions, tol, max, sweep, title, prefix, width = 900, rowHeight = 26, onHover }: KvDiffMapProps) {
  const t = useT();
  // One canvas column per position when it fits, otherwise positions max-pooled into pixels so a single
  // changed position never disappears.
  const cols = Math.min(positions, width);
  const paint = useCallback(
    (out: Uint8ClampedArray) => {
      const pooled = poolMatrix(delta, layers, positions, layers, cols, 'max');
      const scale = diffScale(max, tol);
      const span = positions - (sweep?.from ?? 0);
      paintCells(layers, cols, out, (l, x) => {
        const m = pooled.data[l * cols + x]!;
        const last = poolSpan(x, positions, cols)[1] - 1;
        const stale = sweep !== null && last >= sweep.from && (l + (last - sweep.from + 1) / span) / layers > sweep.fraction + 1e-9;
        if (stale) return (x + l) % 2 === 0 ? STALE_RGB : STALE_ALT_RGB;
        if (m === 0) return REUSABLE_RGB;
        if (m <= tol) return WITHIN_TOL_RGB;
        return sampleColormap('magma', 0.15 + 0.85 * scale.norm(m));
      });
    },
    [delta, layers, positions, cols, tol, max, sweep],
  );
  return (
    <figure style={{ margin: 0 }}>
      <figcaption style={{ font: '13px system-ui', marginBottom: 2 }}>{title}</figcaption>
      <div style={{ display: 'flex', alignItems: 'stretch', gap: 6 }}>
        <div style={{ display: 'grid', gridTemplateRows: `repeat(${layers}, ${rowHeight}px)`, font: '11px ui-monospace, monospace', color: '#444', textAlign: 'right' }}>
          {Array.from({ length: layers }, (_, l) => (
            <span key={l} style={{ lineHeight: `${rowHeight}px` }}>{t('kv.layerShort', { layer: l })}</span>
          ))}
        </div>
        <div style={{ position: 'relative' }}>
        <MatrixCanvas
          rows={positions > 0 ? layers : 0}
          cols={cols}
          paint={paint}
          data-role="kv-diff-map"
          aria-label={title}
          style={{ width, height: layers * rowHeight, imageRendering: 'pixelated', outline: '1px solid #ccc' }}
          onMouseMove={(e) => {
            if (!onHover) return;
            const r = e.currentTarget.getBoundingClientRect();
            const layer = Math.floor(((e.clientY - r.top) / r.height) * layers);
            const position = Math.floor(((e.clientX - r.left) / r.width) * positions);
            onHover(layer >= 0 && layer < layers && position >= 0 && position < positions ? { layer, position } : null);
          }}
          onMouseLeave={() => onHover?.(null)}
        />
        {prefix > 0 && prefix < positions && (
          <div
            title={t('kv.prefixLine', { prefix })}
            style={{ position: 'absolute', top: -4, bottom: -4, left: (prefix / positions) * width - 1, width: 2, background: '#0057b7' }}
          />
        )}
        </div>
      </div>
      <div style={{ display: 'flex', justifyContent: 'space-between', marginLeft: 40, width, font: '11px system-ui', color: '#555' }}>
        <span>0</span>
        <span>{t('kv.positionAxis')}</span>
        <span>{positions - 1}</span>
      </div>
    </figure>
  );
}

/** The log scale's colours: magma from 0.15 up (the darkest blacks are left out). */
const magmaRamp = (f: number) => sampleColormap('magma', 0.15 + 0.85 * f);

/** Legend: reusable, within tolerance, stale (not yet recomputed), and the log scale of larger differences. */
export function KvDiffLegend({ tol, max }: { tol: number; max: number }) {
  const t = useT();
  const scale = diffScale(max, tol);
  const swatch = (rgb: readonly number[], label: string) => (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
      <span style={{ width: 14, height: 12, background: `rgb(${rgb.join(',')})`, border: '1px solid #999' }} />
      {label}
    </span>
  );
  return (
    <div data-role="kv-diff-legend" style={{ display: 'flex', gap: 14, alignItems: 'center', flexWrap: 'wrap', font: '12px system-ui' }}>
      {swatch(REUSABLE_RGB, t('kv.legendIdentical'))}
      {swatch(WITHIN_TOL_RGB, t('kv.legendWithinTol', { tol: tol.toExponential(0) }))}
      {swatch(STALE_RGB, t('kv.legendStale'))}
      <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
        <span style={{ width: 2, height: 14, background: '#0057b7' }} />
        {t('kv.legendPrefix')}
      </span>
      <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
        {t('kv.legendChanged')} {scale.logFloor.toExponential(0)}
        <Ramp width={160} height={12} colour={magmaRamp} colourKey="magma-diff" style={{ display: 'inline-block', border: '1px solid #999' }} />
        {scale.max.toExponential(1)}
      </span>
    </div>
  );
}
