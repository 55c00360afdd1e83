'use client';
// Layer × position map of how much each cached K (or V) entry differs between two requests, on one canvas
// per tensor, sized to its container. Exact zero (reusable) and "within tolerance" get their own colours;
// larger differences a log colour scale. Every run of changed cells is marked by a box at least MIN_MARK_PX wide
// (lib/view/kvMarks) drawn above the end-of-prefix line, so the one changed layer-0 cell of an in-place
// edit shows at any length, with a callout naming it. An optional sweep shows the recompute order: layer by
// layer, from the first differing position to the end; entries the sweep has not reached yet are hatched.
import { useCallback, useMemo } from 'react';
import { makeScale, sampleColormap, ticks, type Scale } from '../../lib/view/colormap';
import { boundaryX, MIN_MARK_PX, calloutMarks, changedRuns, labelWidth, layoutChangeMarks, placeCallouts, positionTicks } from '../../lib/view/kvMarks';
import { MARK_COLORS } from '../../lib/view/palette';
import { paintCells, poolMatrix, poolSpan } from '../../lib/view/raster';
import { MatrixCanvas } from '../charts/MatrixCanvas';
import { RampLegend } from '../charts/Legend';
import { useT } from '../common/i18n';

export const REUSABLE_RGB: readonly [number, number, number] = [166, 219, 160];
export const WITHIN_TOL_RGB: readonly [number, number, number] = [217, 240, 211];
const STALE_RGB: readonly [number, number, number] = [200, 200, 200];
const STALE_ALT_RGB: readonly [number, number, number] = [185, 185, 185];
/** B’s positions past the compared ones (B appends): nothing to compare, computed fresh. Light blue. */
export const NEW_RGB: readonly [number, number, number] = [198, 219, 239];
/** The end-of-prefix line (drawn under the change marks). */
export const PREFIX_COLOR = '#0057b7';

/** Width of the layer-label column left of each map, in CSS px. */
export const LAYER_LABEL_W = 64;
const LANE_H = 22;
const CALLOUT_FONT = 12;

export interface KvDiffMapProps {
  /** max |Δ| per [layer × positions], row-major. */
  delta: Float32Array;
  layers: number;
  positions: number;
  /** A's position of each compared pair (named by the change marks and callouts). */
  aPositions: Int32Array;
  tol: number;
  /** Largest difference drawn at the top of the colour scale. */
  max: number;
  /**
   * The recompute sweep: entries at positions ≥ `from`, layer by layer, the fraction of them recomputed so
   * far (0…1); null draws everything as computed.
   */
  sweep: { from: number; fraction: number } | null;
  title: string;
  /** Which tensor (data-map on the figure and its marks). */
  tensor: 'k' | 'v';
  /** Compared positions before this index are the reused prefix: a line marks where it ends. */
  prefix: number;
  /** B's positions after the compared ones (B is longer): drawn right of them as "only in B", computed fresh. */
  extra?: number;
  /** Width of the map itself (the canvas), CSS px. */
  width: number;
  rowHeight?: number;
  /** Show the axis title under the ticks (the last map of a stack). */
  axisTitle?: boolean;
  /** Label the layer-0 marks with callouts above the map (the first map of a stack; the others only mark). */
  callouts?: boolean;
  /** Called with (layer, compared position) under the pointer, or null. */
  onHover?: (cell: { layer: number; index: number } | null) => void;
}

export function diffScale(max: number, tol: number): Scale {
  return makeScale({ kind: 'log', min: 0, max: Math.max(max, tol * 10, 1e-12), logFloor: Math.max(tol, 1e-12) });
}

/** Row height for `layers` rows: about 90 px in all, 14…24 px a row. */
export function mapRowHeight(layers: number): number {
  return Math.max(14, Math.min(24, Math.floor(96 / Math.max(1, layers))));
}

export function KvDiffMap({ delta, layers, positions: compared, aPositions, tol, max, sweep, title, tensor, prefix, extra = 0, width, rowHeight = mapRowHeight(layers), axisTitle = false, callouts: withCallouts = true, onHover }: KvDiffMapProps) {
  const t = useT();
  // Columns: the compared positions, then B's own (NaN: nothing to compare).
  const positions = compared + extra;
  const values = useMemo(() => {
    if (extra === 0) return delta;
    const out = new Float32Array(layers * positions).fill(NaN);
    for (let l = 0; l < layers; l++) out.set(delta.subarray(l * compared, (l + 1) * compared), l * positions);
    return out;
  }, [delta, layers, compared, extra, positions]);
  // One canvas column per position when it fits, otherwise positions max-pooled into pixels so a single
  // changed position never disappears (its mark is drawn on top anyway).
  const cols = Math.max(1, Math.min(positions, Math.round(width)));
  const paint = useCallback(
    (out: Uint8ClampedArray) => {
      const pooled = poolMatrix(values, layers, positions, layers, cols, 'max');
      const scale = diffScale(max, tol);
      const span = positions - (sweep?.from ?? 0);
      paintCells(layers, cols, out, (l, x) => {
        const m = pooled.data[l * cols + x]!;
        const last = poolSpan(x, positions, cols)[1] - 1;
        const stale = sweep !== null && last >= sweep.from && (l + (last - sweep.from + 1) / span) / layers > sweep.fraction + 1e-9;
        if (stale) return (x + l) % 2 === 0 ? STALE_RGB : STALE_ALT_RGB;
        if (Number.isNaN(m)) return NEW_RGB;
        if (m === 0) return REUSABLE_RGB;
        if (m <= tol) return WITHIN_TOL_RGB;
        return sampleColormap('magma', 0.15 + 0.85 * scale.norm(m));
      });
    },
    [values, layers, positions, cols, tol, max, sweep],
  );
  const marks = useMemo(() => layoutChangeMarks(changedRuns(delta, layers, compared, tol), positions, width), [delta, layers, compared, positions, tol, width]);
  const callouts = useMemo(() => {
    const chosen = withCallouts ? calloutMarks(marks) : [];
    const texts = chosen.map((m) => {
      const from = aPositions[m.from] ?? m.from;
      const to = aPositions[m.to - 1] ?? m.to - 1;
      return m.to - m.from === 1 ? t('kv.calloutOne', { layer: m.layer, position: from }) : t('kv.calloutRange', { layer: m.layer, from, to });
    });
    const places = placeCallouts(
      chosen.map((m, i) => ({ anchor: m.x + m.width / 2, width: labelWidth(texts[i]!, CALLOUT_FONT) + 12 })),
      width,
    );
    return chosen.map((m, i) => ({ mark: m, text: texts[i]!, place: places[i]! }));
  }, [marks, aPositions, width, t, withCallouts]);
  const axis = useMemo(() => positionTicks(positions, width), [positions, width]);
  const height = layers * rowHeight;
  const showPrefix = prefix > 0 && prefix < positions;

  const cellAt = (e: React.MouseEvent<HTMLDivElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    const layer = Math.floor(((e.clientY - r.top) / r.height) * layers);
    const index = Math.floor(((e.clientX - r.left) / r.width) * positions);
    return layer >= 0 && layer < layers && index >= 0 && index < compared ? { layer, index } : null;
  };

  return (
    <figure data-role="kv-map" data-map={tensor} style={{ margin: 0 }}>
      <figcaption style={{ fontSize: 'var(--fs-sm)', fontWeight: 600, marginLeft: LAYER_LABEL_W }}>{title}</figcaption>
      <div style={{ display: 'grid', gridTemplateColumns: `${LAYER_LABEL_W}px ${width}px` }}>
        <div />
        {/* Callouts for the few layer-0 changes of an in-place edit, each with a stem down to its mark. */}
        <div data-role="kv-callouts" style={{ position: 'relative', height: callouts.length ? LANE_H : 6 }}>
          {callouts.map(({ mark, text, place }) => (
            <div key={`${mark.layer}:${mark.from}`}>
              <span
                data-role="kv-callout"
                data-layer={mark.layer}
                data-from={mark.from}
                style={{
                  position: 'absolute',
                  top: 0,
                  left: place.left,
                  width: place.width,
                  height: 16,
                  lineHeight: '15px',
                  fontSize: CALLOUT_FONT,
                  fontWeight: 600,
                  textAlign: 'center',
                  whiteSpace: 'nowrap',
                  color: '#fff',
                  background: MARK_COLORS.change,
                  borderRadius: 3,
                  zIndex: 3,
                }}
              >
                {text}
              </span>
              <span aria-hidden style={{ position: 'absolute', top: 16, height: LANE_H - 16, left: place.anchor - 1, width: 2, background: MARK_COLORS.change, zIndex: 3 }} />
            </div>
          ))}
        </div>
        <div aria-hidden style={{ display: 'grid', gridTemplateRows: `repeat(${layers}, ${rowHeight}px)`, fontSize: 'var(--fs-xs)', fontFamily: 'var(--font-mono)', color: 'var(--c-muted)', textAlign: 'right', paddingRight: 6 }}>
          {Array.from({ length: layers }, (_, l) => (
            <span key={l} style={{ lineHeight: `${rowHeight}px`, whiteSpace: 'nowrap' }}>
              {t('kv.layerShort', { layer: l })}
            </span>
          ))}
        </div>
        <div
          data-role="kv-map-area"
          style={{ position: 'relative', width, height }}
          onMouseMove={onHover ? (e) => onHover(cellAt(e)) : undefined}
          onMouseLeave={onHover ? () => onHover(null) : undefined}
        >
          <MatrixCanvas
            rows={positions > 0 ? layers : 0}
            cols={cols}
            paint={paint}
            data-role="kv-diff-map"
            data-map={tensor}
            aria-label={title}
            style={{ display: 'block', width, height, imageRendering: 'pixelated', outline: '1px solid var(--c-border-strong)' }}
          />
          {/* Under the marks (z 1 < 2): a mark on the first recomputed position is never hidden by it. */}
          {showPrefix && (
            <div
              data-role="kv-prefix-line"
              title={t('kv.prefixLine', { prefix })}
              style={{ position: 'absolute', top: -6, bottom: -6, left: boundaryX(prefix, positions, width) - 1, width: 2, background: PREFIX_COLOR, zIndex: 1 }}
            />
          )}
          {marks.map((m) => {
            const narrow = m.width < 12;
            return (
              <div
                key={`${m.layer}:${m.from}`}
                data-role="kv-changed-marker"
                data-map={tensor}
                data-layer={m.layer}
                data-from={m.from}
                data-to={m.to}
                data-position={aPositions[m.from] ?? m.from}
                data-changed={m.changed}
                title={t('kv.markTitle', { layer: m.layer, from: aPositions[m.from] ?? m.from, to: aPositions[m.to - 1] ?? m.to - 1, n: m.changed })}
                style={{
                  position: 'absolute',
                  left: m.x,
                  width: m.width,
                  top: m.layer * rowHeight + 1,
                  height: rowHeight - 2,
                  boxSizing: 'border-box',
                  border: `2px solid ${MARK_COLORS.change}`,
                  background: narrow ? MARK_COLORS.change : 'transparent',
                  boxShadow: '0 0 0 1px #fff',
                  borderRadius: 2,
                  zIndex: 2,
                }}
              />
            );
          })}
        </div>
        <div />
        <div aria-hidden style={{ position: 'relative', height: axisTitle ? 32 : 16, fontSize: 'var(--fs-xs)', color: 'var(--c-muted)' }}>
          {axis.map((tk) => (
            <span key={tk.value} style={{ position: 'absolute', top: 1, left: tk.x, transform: 'translateX(-50%)', fontVariantNumeric: 'tabular-nums' }}>
              {tk.value}
            </span>
          ))}
          {axisTitle && (
            <span style={{ position: 'absolute', top: 16, left: 0, right: 0, textAlign: 'center' }}>
              {extra > 0 ? t('kv.positionAxisExtra', { n: compared, extra }) : t('kv.positionAxis', { n: compared })}
            </span>
          )}
        </div>
      </div>
    </figure>
  );
}

/** The log scale's colours: magma from 0.15 up (the darkest blacks are left out). */
const magmaRamp = (f: number) => sampleColormap('magma', 0.15 + 0.85 * f);

/** Legend: reusable, within tolerance, stale, the change marks, the prefix line, and the log scale of larger differences. */
export function KvDiffLegend({ tol, max, extra = 0 }: { tol: number; max: number; extra?: number }) {
  const t = useT();
  const scale = diffScale(max, tol);
  const swatch = (rgb: readonly number[], label: string) => (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
      <span style={{ width: 14, height: 12, background: `rgb(${rgb.join(',')})`, border: '1px solid var(--c-border-strong)' }} />
      {label}
    </span>
  );
  return (
    <div data-role="kv-diff-legend" style={{ display: 'flex', gap: 'var(--sp-2) var(--sp-4)', alignItems: 'center', flexWrap: 'wrap', fontSize: 'var(--fs-xs)', marginLeft: LAYER_LABEL_W }}>
      {swatch(REUSABLE_RGB, t('kv.legendIdentical'))}
      {swatch(WITHIN_TOL_RGB, t('kv.legendWithinTol', { tol: tol.toExponential(0) }))}
      <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
        <span style={{ width: 14, height: 12, border: `2px solid ${MARK_COLORS.change}`, borderRadius: 2 }} />
        {t('kv.legendMark', { px: MIN_MARK_PX })}
      </span>
      <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
        <span style={{ width: 2, height: 14, background: PREFIX_COLOR }} />
        {t('kv.legendPrefix')}
      </span>
      {extra > 0 && swatch(NEW_RGB, t('kv.legendNew'))}
      {swatch(STALE_RGB, t('kv.legendStale'))}
      <RampLegend role="kv-diff-ramp" caption={t('kv.legendChanged')} width={180} colour={magmaRamp} colourKey="magma-diff" ticks={ticks(scale, 4)} />
    </div>
  );
}
