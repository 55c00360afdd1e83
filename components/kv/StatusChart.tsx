'use client';
// Both status strategies' extra cost over N = 1 … Nmax: the book's formulas as lines, the token-level
// simulation (update calls priced) as dots at a few N, the crossover N* and the chosen N marked.
import { useEffect, useMemo, useState } from 'react';
import { crossoverUpdates, simulateStatus, statusFormula } from '../../lib/cache/statusEconomics';
import { linearMap, niceAxis } from '../../lib/view/scale';
import { Axis, ECON_COLORS, fmtInt, LegendRow, Swatch } from './econParts';
import { ExportFrame } from '../common/ExportFrame';
import { useT } from '../common/i18n';

const SAMPLES = 7;
/** Keep each dot's simulation small: they run on the page's thread (one per task, useSimulatedDots). */
const MAX_DOT_TOKENS = 1_500_000;

export function statusChartRange(N: number, nStar: number): number {
  const far = Number.isFinite(nStar) ? Math.max(N, nStar) * 1.5 : 2 * N;
  return Math.min(1000, Math.max(10, Math.ceil(far)));
}

interface Dot {
  n: number;
  replace: number;
  append: number;
}

/**
 * The simulated dots at SAMPLES values of N (and N itself), one simulation per main-thread task: each is up to
 * MAX_DOT_TOKENS of prefix-tree inserts, and all of them in one render made opening the KV tab the longest task
 * of the page (~90 ms of CPU; issue 17, docs/BENCHMARKS.md). Dots appear as they are computed; the chart's
 * `data-dots` says how many of how many are in.
 */
function useSimulatedDots(S: number, R: number, N: number, alpha: number, between: number, nMax: number): { list: Dot[]; planned: number } {
  const ns = useMemo(() => {
    const set = new Set<number>([N]);
    for (let k = 0; k < SAMPLES; k++) set.add(Math.max(1, Math.round(1 + ((nMax - 1) * k) / (SAMPLES - 1))));
    return [...set].sort((a, b) => a - b).filter((n) => n * n * (S + R) * (between + 1) <= MAX_DOT_TOKENS);
  }, [S, R, N, between, nMax]);
  const [done, setDone] = useState<{ ns: number[]; alpha: number; list: Dot[] }>({ ns: [], alpha, list: [] });
  useEffect(() => {
    const list: Dot[] = [];
    let i = 0;
    let id: ReturnType<typeof setTimeout>;
    const next = () => {
      const n = ns[i++]!;
      try {
        const s = simulateStatus({ S, R, N: n, alpha, callsBetween: between });
        list.push({ n, replace: s.replace.extra, append: s.append.extra });
      } catch {
        /* too large for the page: no dot */
      }
      setDone({ ns, alpha, list: [...list] });
      if (i < ns.length) id = setTimeout(next, 0);
    };
    if (ns.length) id = setTimeout(next, 0);
    return () => clearTimeout(id);
  }, [ns, S, R, alpha, between]);
  // Dots of earlier inputs are never drawn against the new lines.
  const current = done.ns === ns && done.alpha === alpha;
  return { list: current ? done.list : [], planned: ns.length };
}

export function StatusChart({ S, R, N, alpha, m: between }: { S: number; R: number; N: number; alpha: number; m: number }) {
  const t = useT();
  const nStar = crossoverUpdates(S, R, alpha);
  const nMax = statusChartRange(N, nStar);
  const lines = useMemo(() => Array.from({ length: nMax }, (_, i) => ({ n: i + 1, ...statusFormula({ S, R, N: i + 1, alpha }) })), [S, R, alpha, nMax]);
  const { list: dots, planned } = useSimulatedDots(S, R, N, alpha, between, nMax);

  const m = { l: 78, r: 150, t: 16, b: 48 };
  const pw = 820;
  const ph = 300;
  const W = m.l + pw + m.r;
  const H = m.t + ph + m.b;
  const yMax = Math.max(1, ...lines.map((l) => Math.max(l.replace, l.append)), ...dots.map((d) => Math.max(d.replace, d.append)));
  const yAxis = niceAxis(0, yMax, 6);
  const xAxis = niceAxis(1, nMax, 10, true);
  const x = linearMap(xAxis.lo, xAxis.hi, m.l, m.l + pw);
  const y = linearMap(0, yAxis.hi, m.t + ph, m.t);
  const path = (k: 'replace' | 'append') => lines.map((l, i) => `${i ? 'L' : 'M'} ${x(l.n).toFixed(1)} ${y(l[k]).toFixed(1)}`).join(' ');
  const showStar = Number.isFinite(nStar) && nStar <= xAxis.hi;
  const last = lines[lines.length - 1]!;
  // The lines (the book's formulas per N), the simulated dots, the crossover N* (null: never) and the inputs.
  const exportJson = () => ({
    kind: 'status-economics',
    S,
    R,
    N,
    alpha,
    callsBetween: between,
    crossover: Number.isFinite(nStar) ? nStar : null,
    formula: lines,
    simulated: dots,
  });

  return (
    <ExportFrame name={`status-replace-vs-append-N${N}`} title={t('export.caption.status', { S, R, alpha })} json={exportJson}>
      <div style={{ display: 'grid', gap: 6 }}>
        <div style={{ fontWeight: 600 }}>{t('econ.chartTitle')}</div>
        <svg data-role="status-chart" data-dots={`${dots.length}/${planned}`} data-nmax={nMax} data-nstar={nStar} width={W} height={H} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={t('econ.chartTitle')} style={{ font: '12px system-ui, sans-serif', maxWidth: '100%', height: 'auto' }}>
          <Axis ticks={yAxis.ticks.map((v) => ({ at: y(v), value: v }))} orient="left" pos={m.l} gridTo={m.l + pw} label={t('econ.chartY')} labelAt={{ x: 16, y: m.t + ph / 2 }} format={fmtInt} />
          <Axis ticks={xAxis.ticks.map((v) => ({ at: x(v), value: v }))} orient="bottom" pos={m.t + ph} label={t('econ.chartX')} labelAt={{ x: m.l + pw / 2, y: H - 8 }} />
          <line x1={m.l} x2={m.l + pw} y1={m.t + ph} y2={m.t + ph} stroke="#888" />
          <line x1={m.l} x2={m.l} y1={m.t} y2={m.t + ph} stroke="#888" />
          {showStar && (
            <g data-role="crossover">
              <line x1={x(nStar)} x2={x(nStar)} y1={m.t} y2={m.t + ph} stroke={ECON_COLORS.crossover} strokeDasharray="5 4" />
              <text x={x(nStar) + 5} y={m.t + 12} fill={ECON_COLORS.crossover}>
                {t('econ.chartCrossover', { n: nStar.toFixed(1) })}
              </text>
            </g>
          )}
          <line x1={x(N)} x2={x(N)} y1={m.t} y2={m.t + ph} stroke="#f0b400" strokeWidth={2} opacity={0.8} />
          <text x={x(N) + 5} y={m.t + 28} fill="#8a6a00">
            {t('econ.chartChosen', { n: N })}
          </text>
          <path d={path('replace')} fill="none" stroke={ECON_COLORS.replace} strokeWidth={2.5} />
          <path d={path('append')} fill="none" stroke={ECON_COLORS.append} strokeWidth={2.5} />
          <text x={m.l + pw + 6} y={y(last.replace) + 4} fill={ECON_COLORS.replace} fontWeight={600}>
            {t('econ.replace')}
          </text>
          <text x={m.l + pw + 6} y={y(last.append) + 4 + (Math.abs(y(last.append) - y(last.replace)) < 14 ? 14 : 0)} fill={ECON_COLORS.append} fontWeight={600}>
            {t('econ.append')}
          </text>
          {dots.map((d) => (
            <g key={d.n} data-n={d.n}>
              <circle cx={x(d.n)} cy={y(d.replace)} r={4.5} fill="#fff" stroke={ECON_COLORS.replace} strokeWidth={2} />
              <circle cx={x(d.n)} cy={y(d.append)} r={4.5} fill="#fff" stroke={ECON_COLORS.append} strokeWidth={2} />
            </g>
          ))}
        </svg>
        <LegendRow role="status-chart-legend">
          <Swatch color={ECON_COLORS.replace} label={t('econ.legendReplace')} />
          <Swatch color={ECON_COLORS.append} label={t('econ.legendAppend')} />
          <span style={{ display: 'inline-flex', alignItems: 'center', gap: 5 }}>
            <svg width={14} height={14}>
              <circle cx={7} cy={7} r={4.5} fill="#fff" stroke="#555" strokeWidth={2} />
            </svg>
            {t('econ.legendSimDots', { m: between })}
          </span>
          <span style={{ display: 'inline-flex', alignItems: 'center', gap: 5 }}>
            <span style={{ width: 0, height: 14, borderLeft: `2px dashed ${ECON_COLORS.crossover}` }} />
            {t('econ.legendCrossover')}
          </span>
          <span style={{ display: 'inline-flex', alignItems: 'center', gap: 5 }}>
            <span style={{ width: 0, height: 14, borderLeft: '2px solid #f0b400' }} />
            {t('econ.legendChosen')}
          </span>
        </LegendRow>
      </div>
    </ExportFrame>
  );
}
