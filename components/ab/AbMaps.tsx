'use client';
// The A/B maps side by side: arm A, arm B and B − A over one aligned axis (lib/view/abRaster alignAxis) —
// keys as columns, the last N query rows as rows, so that the same token faces the same token and the
// decision rows face each other at the bottom (outlined). What an arm lacks (built in: B's status message
// in A) is hatched as absent, never drawn as 0. Row labels are the tokens' text where rows have room;
// segment bands over the keys; zone brackets under them; one hover reads all three maps.
import { useCallback, useMemo, useState, type PointerEvent } from 'react';
import type { Segment } from '../../lib/prompt/prompt';
import { spanIndexAt } from '../../lib/prompt/prompt';
import { sampleColormap } from '../../lib/view/colormap';
import { divergingRgb } from '../../lib/view/diverging';
import { alignedSegments, bandSegments, labelledRows, onHatch, paintAligned, rowGeometry, HATCH_INK_RGB, HATCH_RGB, type AlignedAxis, type AxisZone, type ZoneKind } from '../../lib/view/abRaster';
import { hexRgb } from '../../lib/view/raster';
import { formatPercent1, formatSigned, linearMap } from '../../lib/view/scale';
import { MARK_COLORS, SEGMENT_COLORS } from '../../lib/view/palette';
import { MatrixCanvas } from '../charts/MatrixCanvas';
import { useT } from '../common/i18n';
import { partName } from './AbAlignment';
import { ARM_COLORS } from './RegionBars';
import { AB_MAP, type AbArmView, type AbMaps as Maps } from './useAbMaps';

/** Width of the row-label column (CSS px), the zone strip beside it, and the gap between maps. */
export const LABEL_W = 128;
const STRIP_W = 5;
const GAP = 12;
/** Most CSS px the maps take in height; more rows than this are pooled. */
const HEIGHT_BUDGET = 600;
const BAND_H = 8;
/** Height of the magnified decision row under each map. */
const DECISION_H = 26;

/** Colours of the zones of the aligned axis (brackets under the keys, the strip beside the rows). */
export const ZONE_COLORS: Record<ZoneKind, string> = { shared: '#a9b0ba', onlyA: ARM_COLORS.A, onlyB: ARM_COLORS.B, suffix: MARK_COLORS.ink };

type MapKey = 'a' | 'b' | 'd';

/** The width each of the three maps gets in a container `width` px wide (at least 120). */
export function mapWidth(width: number): number {
  return Math.max(120, Math.floor((width - LABEL_W - STRIP_W - 3 * GAP) / 3));
}

function labelPx(): number {
  if (typeof document === 'undefined') return 12;
  return parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--label-px')) || 12;
}

/** Segment band over the aligned keys: each pixel column the segment of its first key, hatched where the arm lacks them all. */
function Band({ segments, width, role }: { segments: (Segment | null)[]; width: number; role: string }) {
  const px = useMemo(() => bandSegments(segments, width), [segments, width]);
  const paint = useCallback(
    (out: Uint8ClampedArray) => {
      const rgb = px.map((s) => (s ? hexRgb(SEGMENT_COLORS[s]) : null));
      for (let y = 0, o = 0; y < BAND_H; y++)
        for (let x = 0; x < width; x++, o += 4) {
          const c = rgb[x] ?? (onHatch(x, y) ? HATCH_INK_RGB : HATCH_RGB);
          out[o] = c[0]!;
          out[o + 1] = c[1]!;
          out[o + 2] = c[2]!;
          out[o + 3] = 255;
        }
    },
    [px, width],
  );
  return <MatrixCanvas rows={BAND_H} cols={width} paint={paint} data-role={role} style={{ display: 'block', width, height: BAND_H }} />;
}

/** Brackets under a map's keys (`keys` columns): one per zone, labelled where it is wide enough. */
function ZoneBrackets({ zones, keys, width }: { zones: AxisZone[]; keys: number; width: number }) {
  const t = useT();
  const x = linearMap(0, keys, 0, width);
  return (
    <div style={{ position: 'relative', height: 18, width }} aria-hidden>
      {zones.map((z) => {
        const w = x(z.end) - x(z.start);
        return (
          <div
            key={z.kind}
            data-zone={z.kind}
            style={{ position: 'absolute', left: x(z.start), width: Math.max(1, w), top: 2, borderTop: `3px solid ${ZONE_COLORS[z.kind]}`, fontSize: 11, color: 'var(--c-muted)', overflow: 'hidden', whiteSpace: 'nowrap', textAlign: 'center' }}
          >
            {w >= 70 ? t(`ab.zone.${z.kind}`) : ''}
          </div>
        );
      })}
    </div>
  );
}

interface Hover {
  row: number;
  col: number;
  /** Pointer position in the figure (CSS px). */
  x: number;
  y: number;
}

export function AbMaps({ a, b, axis, maps, width, armTitles }: { a: AbArmView; b: AbArmView; axis: AlignedAxis; maps: Maps; width: number; armTitles: { A: string; B: string } }) {
  const t = useT();
  const { n, from, m: K, c0, zones, cells, absent, scale, dScale, decisionSums } = maps;
  const mapW = mapWidth(width);
  const { rowPx, height } = rowGeometry(n, HEIGHT_BUDGET);
  const rowH = height / n;
  const [hover, setHover] = useState<Hover | null>(null);
  const lpx = useMemo(() => labelPx(), [width]); // eslint-disable-line react-hooks/exhaustive-deps -- presentation mode changes the width too
  const labelled = useMemo(() => labelledRows(n, rowPx, lpx), [n, rowPx, lpx]);

  const seg = useMemo(() => {
    const sa = alignedSegments(axis, 'a', a.prompt.spans);
    const sb = alignedSegments(axis, 'b', b.prompt.spans);
    return { a: sa.slice(c0), b: sb.slice(c0), d: sb.map((s, j) => (s && sa[j] ? s : null)).slice(c0) };
  }, [axis, a.prompt, b.prompt, c0]);

  const colourAB = useCallback((v: number) => sampleColormap(AB_MAP, scale.norm(v)), [scale]);
  const colourD = useCallback((v: number) => divergingRgb(dScale.norm(v)), [dScale]);
  const painter = useCallback(
    (k: MapKey) => (out: Uint8ClampedArray) =>
      void paintAligned(
        { values: cells[k], rows: n, keys: K, absentRow: absent.rows[k], absentCol: absent.cols[k], width: mapW, height, reduce: k === 'd' ? 'maxAbs' : 'max', colour: k === 'd' ? colourD : colourAB },
        out,
      ),
    [cells, n, K, absent, mapW, height, colourAB, colourD],
  );
  const paints = useMemo(() => ({ a: painter('a'), b: painter('b'), d: painter('d') }), [painter]);
  // The decision row (the last aligned row) again, magnified: one row, DECISION_H px tall.
  const decisionPainter = useCallback(
    (k: MapKey) => (out: Uint8ClampedArray) =>
      void paintAligned(
        {
          values: cells[k].subarray((n - 1) * K, n * K),
          rows: 1,
          keys: K,
          absentRow: absent.rows[k].subarray(n - 1, n),
          absentCol: absent.cols[k],
          width: mapW,
          height: DECISION_H,
          reduce: k === 'd' ? 'maxAbs' : 'max',
          colour: k === 'd' ? colourD : colourAB,
        },
        out,
      ),
    [cells, n, K, absent, mapW, colourAB, colourD],
  );
  const decisionPaints = useMemo(() => ({ a: decisionPainter('a'), b: decisionPainter('b'), d: decisionPainter('d') }), [decisionPainter]);
  const rowToken = (i: number) => {
    const pa = axis.a[i]!;
    const pb = axis.b[i]!;
    return pb >= 0 ? (b.labels[pb] ?? '') : (a.labels[pa] ?? '');
  };
  const posText = (i: number) => {
    const pa = axis.a[i]!;
    const pb = axis.b[i]!;
    if (pa >= 0 && pb >= 0) return pa === pb ? String(pa) : t('ab.maps.pos', { a: pa, b: pb });
    return pa >= 0 ? t('ab.maps.posA', { a: pa }) : t('ab.maps.posB', { b: pb });
  };
  const whereText = (i: number) => {
    const pb = axis.b[i]!;
    const [p, pos] = pb >= 0 ? [b.prompt, pb] : [a.prompt, axis.a[i]!];
    const s = p.spans[spanIndexAt(p, pos)];
    return s ? `${t(`segment.${s.segment}`)} · ${partName(t, p, pos)}` : '';
  };
  const value = (k: MapKey, r: number, j: number) => {
    if (absent.rows[k][r] || absent.cols[k][j]) return t('ab.maps.absentVal');
    const v = cells[k][r * K + j]!;
    if (Number.isNaN(v)) return t('ab.maps.futureVal');
    return k === 'd' ? formatSigned(v) : v.toFixed(4);
  };

  const sumsText = (k: 'a' | 'b') =>
    axis.zones
      .map((z, i) => (z.kind !== (k === 'a' ? 'onlyB' : 'onlyA') ? `${t(`ab.zone.${z.kind}`)} ${formatPercent1(decisionSums[k][i]!)}` : null))
      .filter(Boolean)
      .join(' · ');
  const both = (k: 'a' | 'b') => axis.zones.reduce((s, z, i) => s + (z.kind === 'shared' || z.kind === 'suffix' ? decisionSums[k][i]! : 0), 0);
  const diffSumsText = t('ab.maps.diffSums', { a: formatPercent1(both('a')), b: formatPercent1(both('b')) });

  const onMove = (e: PointerEvent<HTMLCanvasElement>, left: number, decision = false) => {
    const r = e.currentTarget.getBoundingClientRect();
    const col = Math.min(K - 1, Math.max(0, Math.floor(((e.clientX - r.left) / r.width) * K)));
    const row = decision ? n - 1 : Math.min(n - 1, Math.max(0, Math.floor(((e.clientY - r.top) / r.height) * n)));
    setHover({ row, col, x: left + e.clientX - r.left, y: (decision ? height + GAP : 0) + e.clientY - r.top });
  };

  const columns: { k: MapKey; role: string; title: string; colour: string }[] = [
    { k: 'a', role: 'ab-map-A', title: `A · ${armTitles.A}`, colour: ARM_COLORS.A },
    { k: 'b', role: 'ab-map-B', title: `B · ${armTitles.B}`, colour: ARM_COLORS.B },
    { k: 'd', role: 'ab-map-diff', title: t('ab.maps.diffTitle'), colour: 'var(--c-text)' },
  ];
  const left0 = LABEL_W + STRIP_W + GAP;
  const leftOf = (c: number) => left0 + c * (mapW + GAP);
  const tip = hover && (
    <div
      role="tooltip"
      data-role="ab-maps-tip"
      style={{
        position: 'absolute',
        left: Math.max(0, Math.min(hover.x + 14, leftOf(2) + mapW - 340)),
        top: hover.y + 40,
        background: 'var(--c-text)',
        color: '#fff',
        padding: '4px 8px',
        borderRadius: 4,
        font: '12px var(--font-mono)',
        whiteSpace: 'pre',
        pointerEvents: 'none',
        zIndex: 2,
      }}
    >
      {t('ab.maps.tip', {
        row: posText(from + hover.row),
        rowToken: rowToken(from + hover.row),
        rowWhere: whereText(from + hover.row),
        key: posText(c0 + hover.col),
        keyToken: rowToken(c0 + hover.col),
        keyWhere: whereText(c0 + hover.col),
        a: value('a', hover.row, hover.col),
        b: value('b', hover.row, hover.col),
        d: value('d', hover.row, hover.col),
      })}
    </div>
  );

  return (
    <div style={{ position: 'relative', width: leftOf(3) - GAP }} data-role="ab-maps" data-rows={n} data-keys={K} data-key-from={c0} onPointerLeave={() => setHover(null)}>
      <div style={{ display: 'grid', gridTemplateColumns: `${LABEL_W}px ${STRIP_W}px repeat(3, ${mapW + GAP}px)`, columnGap: 0, rowGap: 2 }}>
        {/* titles */}
        <div style={{ gridColumn: '1 / 3', alignSelf: 'end', fontSize: 'var(--fs-xs)', color: 'var(--c-muted)', textAlign: 'right', paddingRight: GAP }}>{t('ab.maps.rowsAxis', { n })}</div>
        {columns.map((c) => (
          <div key={c.k} style={{ paddingLeft: GAP, fontSize: 'var(--fs-sm)', fontWeight: 600, color: c.colour, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }} title={c.title}>
            {c.title}
          </div>
        ))}
        {/* segment bands */}
        <div style={{ gridColumn: '1 / 3' }} />
        {columns.map((c) => (
          <div key={c.k} style={{ paddingLeft: GAP }}>
            <Band segments={seg[c.k]} width={mapW} role={`ab-band-${c.k}`} />
          </div>
        ))}
        {/* row labels, the zone strip, the maps */}
        <div style={{ position: 'relative', height }} data-role="ab-row-labels">
          {labelled.map((r) => {
            const i = from + r;
            const last = r === n - 1;
            const text = rowToken(i);
            return (
              <div
                key={r}
                data-row={r}
                title={`${posText(i)} “${text}”`}
                style={{
                  position: 'absolute',
                  right: 4,
                  top: (r + 0.5) * rowH,
                  transform: 'translateY(-50%)',
                  maxWidth: LABEL_W - 8,
                  overflow: 'hidden',
                  textOverflow: 'ellipsis',
                  whiteSpace: 'pre',
                  font: `${last ? 700 : 400} var(--label-px) var(--font-mono)`,
                  lineHeight: 1,
                  color: last ? MARK_COLORS.select : axis.a[i]! < 0 || axis.b[i]! < 0 ? 'var(--c-muted)' : 'var(--c-text)',
                }}
              >
                {last ? `${t('ab.maps.decisionLabel')} ▸ ${text}` : text}
              </div>
            );
          })}
        </div>
        <div style={{ position: 'relative', height }} aria-hidden>
          {axis.zones.map((z) => {
            const top = Math.max(0, z.start - from) * rowH;
            const bottom = Math.max(0, z.end - from) * rowH;
            return bottom > top ? <div key={z.kind} data-zone={z.kind} style={{ position: 'absolute', left: 0, width: STRIP_W - 1, top, height: bottom - top, background: ZONE_COLORS[z.kind] }} /> : null;
          })}
        </div>
        {columns.map((c, ci) => (
          <div key={c.k} style={{ paddingLeft: GAP }}>
           <div style={{ position: 'relative', width: mapW, height }}>
            <MatrixCanvas
              rows={height}
              cols={mapW}
              paint={paints[c.k]}
              data-role={c.role}
              data-rows={n}
              data-from={from}
              data-keys={K}
              data-key-from={c0}
              data-row-px={rowH}
              {...(c.k === 'd' ? { 'data-max': dScale.max } : { 'data-max': scale.max })}
              onPointerMove={(e) => onMove(e, leftOf(ci))}
              style={{ display: 'block', width: mapW, height, cursor: 'crosshair' }}
            />
            {/* The decision rows (the last aligned row: both arms' last token) outlined in every map; magnified below. */}
            <div aria-hidden data-role="ab-decision-outline" style={{ position: 'absolute', left: -2, width: mapW + 4, top: height - Math.max(3, rowH) - 2, height: Math.max(3, rowH) + 4, border: `2px solid ${MARK_COLORS.select}`, pointerEvents: 'none' }} />
            {hover && (
              <>
                <div aria-hidden style={{ position: 'absolute', left: 0, width: mapW, top: hover.row * rowH - 1, height: Math.max(2, rowH + 2), outline: `1px dashed ${MARK_COLORS.ink}`, pointerEvents: 'none' }} />
                <div aria-hidden style={{ position: 'absolute', top: 0, height, left: ((hover.col + 0.5) / K) * mapW, width: 0, borderLeft: `1px dashed ${MARK_COLORS.ink}`, pointerEvents: 'none' }} />
              </>
            )}
           </div>
          </div>
        ))}
        {/* the decision rows, magnified */}
        <div
          style={{ gridColumn: '1 / 3', alignSelf: 'center', textAlign: 'right', paddingRight: GAP, fontSize: 'var(--fs-xs)', fontWeight: 700, lineHeight: 1.15, color: MARK_COLORS.select, overflow: 'hidden', marginTop: GAP - 2 }}
          data-role="ab-decision-label"
          title={`${posText(from + n - 1)} “${rowToken(from + n - 1)}”`}
        >
          {t('ab.maps.decisionRow', { token: rowToken(from + n - 1) })}
        </div>
        {columns.map((c, ci) => (
          <div key={c.k} style={{ paddingLeft: GAP, marginTop: GAP - 2 }}>
            <MatrixCanvas
              rows={DECISION_H}
              cols={mapW}
              paint={decisionPaints[c.k]}
              data-role={`${c.role}-decision`}
              data-keys={K}
              onPointerMove={(e) => onMove(e, leftOf(ci), true)}
              style={{ display: 'block', width: mapW, height: DECISION_H, outline: `2px solid ${MARK_COLORS.select}`, outlineOffset: 1, cursor: 'crosshair' }}
            />
          </div>
        ))}
        {/* where each decision row's attention goes, per zone of the whole axis */}
        <div style={{ gridColumn: '1 / 3' }} />
        {columns.map((c) => (
          <div key={c.k} className="small" style={{ paddingLeft: GAP, marginTop: 2, lineHeight: 1.3 }} data-role={`${c.role}-sums`}>
            {c.k === 'd' ? diffSumsText : sumsText(c.k)}
          </div>
        ))}
        {/* zone brackets and the key axis */}
        <div style={{ gridColumn: '1 / 3' }} />
        {columns.map((c) => (
          <div key={c.k} style={{ paddingLeft: GAP }}>
            <ZoneBrackets zones={zones} keys={K} width={mapW} />
            <div style={{ fontSize: 'var(--fs-xs)', color: 'var(--c-muted)', textAlign: 'right' }}>{c0 > 0 ? t('ab.maps.keyAxisFrom', { n: K, total: axis.length }) : t('ab.maps.keyAxis', { n: K })}</div>
          </div>
        ))}
      </div>
      {tip}
    </div>
  );
}
