'use client';
// Position bias ("lost in the middle") as a chart: per layer, the mean attention per key token in the first,
// middle and last third of the context (lib/analysis/positionBias), one small line per layer plus the mean
// over layers, on a shared log axis (lib/view/scale: d3 scaleLog and its ticks), against what evenly spread
// causal attention would give. Draws only; sized to its container's width (a side column at 1280 px is about
// 460–560 px), scrolling sideways only when many layers cannot get a readable group width.
import { useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { extent } from 'd3-array';
import type { PositionBias, PositionThird } from '../../lib/analysis/positionBias';
import { formatSig2, logMap, logTicks } from '../../lib/view/scale';
import { ExportFrame } from '../common/ExportFrame';
import { useT } from '../common/i18n';

export interface PositionBiasChartProps {
  /** One per layer (positionBias of that layer). */
  bias: PositionBias[];
  /** uniformPositionBias for the same query rows, keys and minQuery; null to leave the reference out. */
  uniform: PositionBias | null;
  minQuery: number;
  /** File-name stem of the chart's exports (default "position-bias"). */
  exportName?: string;
  /** Caption of the exported picture (default: what the chart shows, translated). */
  exportTitle?: string;
  /** CSS px to fit into; default: the container's width, followed as it changes. */
  width?: number;
}

/** The content width of the element `ref` holds, in CSS px (`fallback` until measured), followed on resize. */
export function useContentWidth(ref: RefObject<HTMLElement | null>, fallback: number): number {
  const [w, setW] = useState(fallback);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const cs = getComputedStyle(el);
      const v = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
      if (v > 0) setW(Math.floor(v));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return w;
}

/** Narrowest group per layer (three dots side by side) before the chart scrolls instead of shrinking. */
const MIN_GROUP = 10;

/** Paul Tol's "bright" blue, red, green: first, middle, last third. */
export const THIRD_COLORS = ['#4477AA', '#EE6677', '#228833'] as const;
const UNIFORM_COLOR = '#777';
const MEAN_BAND = '#eef3fb';
const mono = 'ui-monospace, monospace';

type Triple = [number | null, number | null, number | null];

const thirdsOf = (b: PositionBias): [PositionThird, PositionThird, PositionThird] => [b.first, b.middle, b.last];
const means = (b: PositionBias): Triple => [b.first.mean, b.middle.mean, b.last.mean];

function fmt(v: number | null, na: string): string {
  return v === null ? na : v.toPrecision(3);
}

export function PositionBiasChart({ bias, uniform, minQuery, exportName = 'position-bias', exportTitle, width }: PositionBiasChartProps) {
  const t = useT();
  const boxRef = useRef<HTMLDivElement>(null);
  const boxWidth = useContentWidth(boxRef, 560);
  const avail = width ?? boxWidth;
  const na = t('panels.na');
  const measured = bias.filter((b) => b.qualifyingQueries > 0);
  // Mean over the layers that have a value, third by third.
  const meanOver: Triple = [0, 1, 2].map((i) => {
    const vs = measured.map((b) => means(b)[i]!).filter((v): v is number => v !== null);
    return vs.length > 0 ? vs.reduce((a, b) => a + b, 0) / vs.length : null;
  }) as Triple;
  const ref: Triple | null = uniform && uniform.qualifyingQueries > 0 ? means(uniform) : null;

  const values = [...measured.flatMap(means), ...meanOver, ...(ref ?? [])].filter((v): v is number => v !== null && v > 0);
  if (bias.length === 0 || values.length === 0)
    return (
      <div data-role="position-bias-chart" ref={boxRef}>
        <p style={{ margin: 0, color: '#888' }}>{t('bias.none', { minQuery })}</p>
      </div>
    );

  // Shared log axis, padded a little beyond the data.
  const [vMin, vMax] = extent(values) as [number, number];
  let lo = vMin / 1.3;
  let hi = vMax * 1.3;
  if (hi / lo < 4) {
    const mid = Math.sqrt(lo * hi);
    lo = mid / 2;
    hi = mid * 2;
  }
  const ticks = logTicks(lo, hi);

  const n = bias.length;
  // Right margin: room for the value label beside the mean line’s last point.
  const m = { l: 68, r: 30, t: 14, b: 50 };
  const gap = 14;
  // The mean group gets about a quarter of the width; the layers share the rest, up to 80 px each.
  const meanW = Math.round(Math.max(110, Math.min(170, avail * 0.25)));
  const gw = Math.max(MIN_GROUP, Math.min(80, (avail - m.l - m.r - gap - meanW) / n));
  const ph = 190;
  const W = m.l + n * gw + gap + meanW + m.r;
  const H = m.t + ph + m.b;
  const bottom = m.t + ph;
  const y = logMap(lo, hi, bottom, m.t);
  /** x of the first / middle / last point in a group starting at x0 of width w. */
  const xs = (x0: number, w: number) => [x0 + w * 0.2, x0 + w * 0.5, x0 + w * 0.8];
  // A layer number every ~16 px at least.
  const labelEvery = Math.max(1, Math.ceil(16 / gw));
  const thirds = thirdsOf(bias[0]!);
  const legendNames = ['bias.first', 'bias.middle', 'bias.last'] as const;
  const shortNames = ['bias.shortFirst', 'bias.shortMiddle', 'bias.shortLast'] as const;
  const values3 = (v: Triple) => ({ first: fmt(v[0], na), middle: fmt(v[1], na), last: fmt(v[2], na) });
  const uniformTip = ref ? '\n' + t('bias.tipUniform', values3(ref)) : '';

  /** Line and dots of one triple; null points are skipped. */
  const line = (v: Triple, x: number[], o: { stroke: string; width: number; r: number; dash?: string; dots: boolean }) => {
    const pts = v.map((val, i) => (val === null ? null : ([x[i]!, y(val)] as const))).filter((p) => p !== null);
    return (
      <>
        <polyline points={pts.map(([a, b]) => `${a},${b}`).join(' ')} fill="none" stroke={o.stroke} strokeWidth={o.width} strokeDasharray={o.dash} strokeLinejoin="round" />
        {o.dots &&
          v.map((val, i) =>
            val === null ? null : (
              <circle key={i} cx={x[i]} cy={y(val)} r={o.r} fill={val > 0 ? THIRD_COLORS[i] : '#fff'} stroke={val > 0 ? '#fff' : THIRD_COLORS[i]} strokeWidth={1} />
            ),
          )}
      </>
    );
  };

  // Drawn in passes: bands, grid, lines, then a transparent hover target per group carrying its tooltip.
  const bands: ReactNode[] = [];
  const marks: ReactNode[] = [];
  const hovers: ReactNode[] = [];
  bias.forEach((b, l) => {
    const x0 = m.l + l * gw;
    const x = xs(x0, gw);
    const has = b.qualifyingQueries > 0;
    bands.push(<rect key={l} x={x0} y={m.t} width={gw} height={ph} fill={l % 2 === 1 ? '#f4f4f4' : '#fff'} />);
    marks.push(
      <g key={l} data-layer={l}>
        {ref && has && line(ref, x, { stroke: UNIFORM_COLOR, width: 1.2, r: 0, dash: '3 3', dots: false })}
        {has ? (
          line(means(b), x, { stroke: '#555', width: 1.5, r: 3.5, dots: true })
        ) : (
          <text x={x0 + gw / 2} y={m.t + ph / 2} textAnchor="middle" fill="#999">
            {na}
          </text>
        )}
        {l % labelEvery === 0 && (
          <text x={x0 + gw / 2} y={bottom + 13} textAnchor="middle" fill="#555">
            {l}
          </text>
        )}
      </g>,
    );
    hovers.push(
      <rect key={l} x={x0} y={m.t} width={gw} height={ph} fill="transparent">
        <title>{has ? t('bias.tipLayer', { layer: l, ...values3(means(b)) }) + uniformTip : t('bias.tipNa', { layer: l, minQuery })}</title>
      </rect>,
    );
  });

  const mx0 = m.l + n * gw + gap;
  const mxs = xs(mx0, meanW);
  const meanHas = meanOver.some((v) => v !== null);

  // The numbers drawn: per layer the three thirds (key ranges and mean per key token), their mean over the
  // layers that have a value, and the evenly spread reference.
  const exportJson = () => ({
    kind: 'position-bias',
    minQuery,
    tokens: bias[0]?.tokens ?? 0,
    layers: bias.map((b, layer) => ({ layer, qualifyingQueries: b.qualifyingQueries, first: b.first, middle: b.middle, last: b.last })),
    meanOverLayers: { layers: measured.length, first: meanOver[0], middle: meanOver[1], last: meanOver[2] },
    uniform: ref ? { first: ref[0], middle: ref[1], last: ref[2] } : null,
    axis: { kind: 'log', min: lo, max: hi },
  });

  return (
    <ExportFrame name={exportName} title={exportTitle ?? t('export.caption.positionBias', { minQuery })} json={exportJson}>
      <div data-role="position-bias-chart" ref={boxRef} style={{ display: 'flex', flexDirection: 'column', gap: 4, minWidth: 0 }}>
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: '4px 14px', font: '12px system-ui, sans-serif', color: '#333' }}>
          {thirds.map((th, i) => (
            <span key={i} style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
              <svg width={10} height={10} aria-hidden="true">
                <circle cx={5} cy={5} r={4} fill={THIRD_COLORS[i]} />
              </svg>
              {t(legendNames[i]!, { from: th.from, to: th.to })}
            </span>
          ))}
          <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
            <svg width={22} height={10} aria-hidden="true">
              <line x1={1} x2={21} y1={5} y2={5} stroke="#555" strokeWidth={1.5} />
            </svg>
            {t('bias.layers')}
          </span>
          <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
            <svg width={22} height={10} aria-hidden="true">
              <line x1={1} x2={21} y1={5} y2={5} stroke="#000" strokeWidth={2.5} />
            </svg>
            {t('bias.meanLegend')}
          </span>
          {ref && (
            <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
              <svg width={22} height={10} aria-hidden="true">
                <line x1={1} x2={21} y1={5} y2={5} stroke={UNIFORM_COLOR} strokeWidth={1.2} strokeDasharray="3 3" />
              </svg>
              {t('bias.uniform')}
            </span>
          )}
        </div>
        <div style={{ overflowX: 'auto' }}>
          <svg width={W} height={H} role="img" aria-label={t('bias.aria')} style={{ font: `10px ${mono}`, display: 'block' }}>
            {bands}
            {meanHas && <rect x={mx0} y={m.t} width={meanW} height={ph} fill={MEAN_BAND} />}
            {ticks.map(({ value: v, label }) => (
              <g key={v}>
                <line x1={m.l} x2={W - m.r} y1={y(v)} y2={y(v)} stroke={label ? '#dcdcdc' : '#ececec'} strokeWidth={0.8} />
                <line x1={m.l - 4} x2={m.l} y1={y(v)} y2={y(v)} stroke="#888" />
                {label && (
                  <text x={m.l - 6} y={y(v) + 3} textAnchor="end" fill="#555">
                    {formatSig2(v)}
                  </text>
                )}
              </g>
            ))}
            {marks}
            {meanHas && (
              <g data-layer="mean">
                {ref && line(ref, mxs, { stroke: UNIFORM_COLOR, width: 1.2, r: 0, dash: '3 3', dots: false })}
                {line(meanOver, mxs, { stroke: '#000', width: 2.5, r: 5, dots: true })}
                {meanOver.map((v, i) =>
                  v === null ? null : (
                    <text
                      key={i}
                      x={mxs[i]}
                      y={y(v) - 9}
                      textAnchor="middle"
                      fill={THIRD_COLORS[i]}
                      stroke={MEAN_BAND}
                      strokeWidth={3}
                      paintOrder="stroke"
                      style={{ fontWeight: 600 }}
                    >
                      {v.toPrecision(2)}
                    </text>
                  ),
                )}
                {mxs.map((x, i) => (
                  <text key={i} x={x} y={bottom + 13} textAnchor="middle" fill={THIRD_COLORS[i]}>
                    {t(shortNames[i]!)}
                  </text>
                ))}
                <text x={mx0 + meanW / 2} y={bottom + 26} textAnchor="middle" fill="#333" style={{ fontWeight: 600 }}>
                  {t('bias.meanGroup')}
                </text>
              </g>
            )}
            {hovers}
            {meanHas && (
              <rect x={mx0} y={m.t} width={meanW} height={ph} fill="transparent">
                <title>{t('bias.tipMean', { layers: measured.length, ...values3(meanOver) }) + uniformTip}</title>
              </rect>
            )}
            <line x1={m.l} x2={m.l} y1={m.t} y2={bottom} stroke="#888" />
            <line x1={m.l} x2={W - m.r} y1={bottom} y2={bottom} stroke="#888" />
            <text x={Math.max(m.l + (n * gw) / 2, 135)} y={H - 6} textAnchor="middle" fill="#333">
              {t('bias.x')}
            </text>
            <text x={12} y={m.t + ph / 2} textAnchor="middle" fill="#333" transform={`rotate(-90 12 ${m.t + ph / 2})`}>
              {t('bias.y')}
            </text>
          </svg>
        </div>
      </div>
    </ExportFrame>
  );
}
