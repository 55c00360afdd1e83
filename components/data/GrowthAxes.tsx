'use client';
// The context-growth chart's axes: prompt tokens per call on the left (with gridlines), cumulative tokens on
// the right, call numbers along the bottom, and the three axis titles. Tick values come from lib/view/scale
// (niceAxis, via growthGeometry), their labels from tickFormatter / callTickLabels.
import type { GrowthGeometry } from '../../lib/view/growthChart';
import { useT } from '../common/i18n';
import { GROWTH_CHART } from './useGrowthChart';

const { width: W, height: H, box: BOX } = GROWTH_CHART;

export interface GrowthAxesProps {
  geo: GrowthGeometry;
  fmt: { token: (v: number) => string; cumulative: (v: number) => string; call: string[] };
}

export function GrowthAxes({ geo, fmt }: GrowthAxesProps) {
  const t = useT();
  const bottom = BOX.y0 + BOX.h;
  return (
    <g fontSize={11} fill="#333">
      {geo.tokenAxis.ticks.map((v) => (
        <g key={v}>
          <line x1={BOX.x0} x2={BOX.x0 + BOX.w} y1={geo.y(v)} y2={geo.y(v)} stroke="#e6e6e6" />
          <text x={BOX.x0 - 7} y={geo.y(v) + 4} textAnchor="end">
            {fmt.token(v)}
          </text>
        </g>
      ))}
      {geo.cumulativeAxis.ticks.map((v) => (
        <g key={`c${v}`}>
          <line x1={BOX.x0 + BOX.w} x2={BOX.x0 + BOX.w + 4} y1={geo.yCum(v)} y2={geo.yCum(v)} stroke="#888" />
          <text x={BOX.x0 + BOX.w + 7} y={geo.yCum(v) + 4} textAnchor="start">
            {fmt.cumulative(v)}
          </text>
        </g>
      ))}
      {geo.xTicks.map(({ call, x }, i) => (
        <g key={`x${call}`}>
          <line x1={x} x2={x} y1={bottom} y2={bottom + 4} stroke="#888" />
          <text x={x} y={bottom + 16} textAnchor="middle">
            {fmt.call[i]}
          </text>
        </g>
      ))}
      <text x={16} y={BOX.y0 + BOX.h / 2} textAnchor="middle" transform={`rotate(-90 16 ${BOX.y0 + BOX.h / 2})`} fontSize={12}>
        {t('runlog.axisTokens')}
      </text>
      <text x={W - 12} y={BOX.y0 + BOX.h / 2} textAnchor="middle" transform={`rotate(90 ${W - 12} ${BOX.y0 + BOX.h / 2})`} fontSize={12}>
        {t('runlog.axisCumulative')}
      </text>
      <text x={BOX.x0 + BOX.w / 2} y={H - 10} textAnchor="middle" fontSize={12}>
        {t('runlog.axisCall')}
      </text>
    </g>
  );
}
