'use client';
// The StreamingLLM chart: running (or moving) perplexity along a text for the three K/V cache strategies —
// a sliding window, the window plus sink tokens, full attention — one line each, with a legend, axes with
// units and the position where the window first fills. Draws a given result only (lib/analysis/streaming
// computes it, lib/view/streamingChart lays it out); the lesson or panel that places it runs the experiment.
import { useRef } from 'react';
import { STRATEGIES, type Strategy } from '../../lib/analysis/streaming';
import { curve, DEFAULT_SPAN, streamingChartGeometry, STRATEGY_COLORS, STRATEGY_DASH, type CurveMode, type StreamingChartData } from '../../lib/view/streamingChart';
import { useContentWidth } from '../charts/PositionBiasChart';
import { ExportFrame } from '../common/ExportFrame';
import { useT } from '../common/i18n';

export interface StreamingChartProps {
  result: StreamingChartData;
  /** 'running': exp of the mean NLL so far; 'moving' (default): over the last `span` tokens, which shows local effects. */
  mode?: CurveMode;
  span?: number;
  /** File-name stem of the exports (default "streaming"). */
  exportName?: string;
  /** Caption of the exported picture (e.g. the model's name); default: W, k and the token count. */
  exportTitle?: string;
  /** CSS px to fit into; default: the container's width, followed as it changes. */
  width?: number;
}

const mono = 'ui-monospace, monospace';
const f3 = (x: number | null) => (x === null ? '–' : x.toFixed(3));

export function StreamingChart({ result, mode = 'moving', span = DEFAULT_SPAN, exportName = 'streaming', exportTitle, width }: StreamingChartProps) {
  const t = useT();
  const boxRef = useRef<HTMLDivElement>(null);
  const boxWidth = useContentWidth(boxRef, 640);
  const n = result.runs.full.nll.length;
  if (n === 0)
    return (
      <div data-role="streaming-chart" ref={boxRef}>
        <p style={{ margin: 0, color: '#888' }}>{t('streaming.none')}</p>
      </div>
    );

  const W = Math.max(320, width ?? boxWidth);
  const H = 260;
  const box = { left: 56, right: W - 16, top: 12, bottom: H - 44 };
  const g = streamingChartGeometry(result, box, mode, span);
  const names: Record<Strategy, string> = {
    window: t('streaming.window', { w: result.window }),
    sink: t('streaming.sink', { k: result.sink, rest: result.window - result.sink }),
    full: t('streaming.full'),
  };
  const yTitle = mode === 'running' ? t('streaming.yRunning') : t('streaming.yMoving', { span });
  const filled = g.fillX !== null;

  const exportJson = () => ({
    kind: 'streaming',
    window: result.window,
    sink: result.sink,
    firstEvictedQuery: result.firstEvictedQuery,
    mode,
    span: mode === 'moving' ? span : null,
    positions: 'element i is token position i + 1',
    strategies: Object.fromEntries(
      STRATEGIES.map((s) => [s, { perplexity: result.runs[s].perplexity, perplexityAfterFill: result.runs[s].perplexityAfterFill, nll: result.runs[s].nll, curve: curve(result.runs[s].nll, mode, span) }]),
    ),
  });

  return (
    <ExportFrame name={exportName} title={exportTitle ?? t('streaming.caption', { w: result.window, k: result.sink, n: n + 1 })} json={exportJson}>
      <div data-role="streaming-chart" ref={boxRef} style={{ display: 'flex', flexDirection: 'column', gap: 4, minWidth: 0 }}>
        <ul data-role="streaming-legend" style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 2, font: '12px system-ui, sans-serif', color: '#333' }}>
          {STRATEGIES.map((s) => (
            <li key={s} data-strategy={s} style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
              <svg width={26} height={10} aria-hidden="true">
                <line x1={1} x2={25} y1={5} y2={5} stroke={STRATEGY_COLORS[s]} strokeWidth={2} strokeDasharray={STRATEGY_DASH[s]} />
              </svg>
              <span style={{ fontWeight: 600 }}>{names[s]}</span>
              <span style={{ color: '#666' }}>
                {filled
                  ? t('streaming.legendPpl', { ppl: f3(result.runs[s].perplexity), after: f3(result.runs[s].perplexityAfterFill) })
                  : t('streaming.legendPplOnly', { ppl: f3(result.runs[s].perplexity) })}
              </span>
            </li>
          ))}
        </ul>
        {!filled && <p style={{ margin: 0, color: '#666', font: '12px system-ui, sans-serif' }}>{t('streaming.noFill')}</p>}
        <svg width={W} height={H} role="img" aria-label={t('streaming.aria')} style={{ font: `10px ${mono}`, display: 'block' }}>
          {g.yTicks.map((tk) => (
            <g key={tk.value}>
              <line x1={box.left} x2={box.right} y1={tk.at} y2={tk.at} stroke="#e4e4e4" strokeWidth={0.8} />
              <text x={box.left - 6} y={tk.at + 3} textAnchor="end" fill="#555">
                {tk.label}
              </text>
            </g>
          ))}
          {g.xTicks.map((tk) => (
            <g key={tk.value}>
              <line x1={tk.at} x2={tk.at} y1={box.bottom} y2={box.bottom + 4} stroke="#888" />
              <text x={tk.at} y={box.bottom + 15} textAnchor="middle" fill="#555">
                {tk.label}
              </text>
            </g>
          ))}
          {filled && (
            <g data-role="streaming-fill">
              <line x1={g.fillX!} x2={g.fillX!} y1={box.top} y2={box.bottom} stroke="#999" strokeDasharray="3 3" />
              <text x={g.fillX! + 4} y={box.top + 10} fill="#666" style={{ font: '11px system-ui, sans-serif' }}>
                {t('streaming.fill', { pos: result.firstEvictedQuery + 1 })}
              </text>
            </g>
          )}
          {/* Full attention first, so the evicting strategies are drawn over it where they coincide. */}
          {[...g.lines].reverse().map((l) => (
            <path key={l.strategy} data-strategy={l.strategy} d={l.path} fill="none" stroke={l.color} strokeWidth={1.6} strokeDasharray={l.dash} strokeLinejoin="round" />
          ))}
          <line x1={box.left} x2={box.left} y1={box.top} y2={box.bottom} stroke="#888" />
          <line x1={box.left} x2={box.right} y1={box.bottom} y2={box.bottom} stroke="#888" />
          <text x={(box.left + box.right) / 2} y={H - 8} textAnchor="middle" fill="#333" style={{ font: '11px system-ui, sans-serif' }}>
            {t('streaming.x')}
          </text>
          <text x={12} y={(box.top + box.bottom) / 2} textAnchor="middle" fill="#333" transform={`rotate(-90 12 ${(box.top + box.bottom) / 2})`} style={{ font: '11px system-ui, sans-serif' }}>
            {yTitle}
          </text>
        </svg>
      </div>
    </ExportFrame>
  );
}
