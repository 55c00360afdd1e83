'use client';
// The live view of a lesson step, one column per model (two side by side on the same prompt): the
// attention heatmap (components/attention HeatmapSection, its layer/head/hide-sink set by the step and
// still changeable), the sink score per layer (SinkParts LayerBars), the agent loop (MessageInspector) or
// the token stream (TokenView). Computes nothing the lib does not.
import { useState } from 'react';
import type { StepView as StepViewConfig } from '../../lib/lessons';
import { sinkScores } from '../../lib/lessons/attentionSink';
import type { Analysed } from '../../lib/state/analysed';
import { DEFAULT_VIEW, type ViewSettings } from '../../lib/state/store';
import { useBoxWidth } from '../common/useBoxWidth';
import { useT } from '../common/i18n';
import { HeatmapSection } from '../attention/HeatmapSection';
import { LayerBars } from '../attention/SinkParts';
import { TokenView } from '../attention/TokenView';
import { useAttentionView } from '../attention/useAttentionView';
import { MessageInspector } from '../loop/MessageInspector';

export function StepView({ view, runs, models }: { view: StepViewConfig; runs: (Analysed | null)[]; models: string[] }) {
  const [ref, width] = useBoxWidth(860);
  const cols = models.length;
  const colWidth = Math.floor((width - (cols - 1) * 16) / cols);
  return (
    <div ref={ref} data-role="step-view" data-kind={view.kind} style={{ display: 'grid', gridTemplateColumns: `repeat(${cols}, minmax(0, 1fr))`, gap: 16, minWidth: 0 }}>
      {models.map((model, i) => (
        <div key={model} data-model={model} style={{ display: 'grid', gap: 'var(--sp-1)', alignContent: 'start', minWidth: 0 }}>
          <h4 style={{ margin: 0 }} data-role="step-model">
            {model}
          </h4>
          {runs[i] ? <One view={view} data={runs[i]!} model={model} width={colWidth} /> : null}
        </div>
      ))}
    </div>
  );
}

function One({ view, data, model, width }: { view: StepViewConfig; data: Analysed; model: string; width: number }) {
  if (view.kind === 'attention') return <AttentionColumn view={view} data={data} model={model} width={width} />;
  if (view.kind === 'sink') return <SinkColumn data={data} model={model} width={width} />;
  if (view.kind === 'inspector') return <MessageInspector run={data.run} prompts={data.callPrompts} />;
  return <TokensColumn data={data} focus={view.focus} />;
}

/** What the heatmap draws around the square (as AttentionTab's FIGURE). */
const CHROME_H = 190;
const CHROME_V = 172;

function AttentionColumn({ view, data, model, width }: { view: Extract<StepViewConfig, { kind: 'attention' }>; data: Analysed; model: string; width: number }) {
  const [settings, setSettings] = useState<ViewSettings>(() => ({ ...DEFAULT_VIEW, layer: view.layer, head: view.head, hideSink: view.hideSink }));
  const [selected, setSelected] = useState<number | null>(view.selected ?? null);
  const shown = useAttentionView(data, settings);
  const byHeight = typeof window === 'undefined' ? 400 : window.innerHeight - 220 - CHROME_V;
  const px = Math.round(Math.max(200, Math.min(640, width - CHROME_H, byHeight)));
  if (!shown.matrix) return null;
  return (
    <HeatmapSection
      data={data}
      shown={shown}
      matrix={shown.matrix}
      view={settings}
      onView={(p) => setSettings((s) => ({ ...s, ...p }))}
      model={model}
      scenario={view.scenario}
      selected={selected}
      onSelect={setSelected}
      px={px}
    />
  );
}

function SinkColumn({ data, model, width }: { data: Analysed; model: string; width: number }) {
  const t = useT();
  const scores = sinkScores(data);
  const f = (v: number | null) => (v === null ? t('panels.na') : v.toFixed(3));
  const bars = scores.map((s, l) => ({ label: l, value: s.headMean, uniform: s.uniformBaseline, tooltip: t('lessons.sinkTip', { layer: l, score: f(s.headMean), uniform: f(s.uniformBaseline) }) }));
  return (
    <div className="panel">
      <LayerBars bars={bars} role="lesson-sink-bars" aria={t('lessons.sinkAria', { model })} xLabel={t('lessons.sinkX')} yLabel={t('lessons.sinkY')} maxWidth={width - 24} />
    </div>
  );
}

function TokensColumn({ data, focus }: { data: Analysed; focus?: string }) {
  const t = useT();
  const first = focus ? data.prompt.spans.find((s) => s.segment === focus) : undefined;
  const [selected, setSelected] = useState<number | null>(first ? first.start : null);
  const height = typeof window === 'undefined' ? 460 : Math.max(300, window.innerHeight - 260);
  return (
    <div className="panel" style={{ display: 'grid', gap: 'var(--sp-1)' }}>
      <span data-role="tokens-title" style={{ fontSize: 'var(--fs-sm)' }}>
        {t('lessons.tokensTitle', { n: data.tokens })}
        {first && <span className="muted"> · {t('lessons.focus', { segment: focus! })}</span>}
      </span>
      <TokenView tokens={data.prompt.tokens} spans={data.prompt.spans} selected={selected} onSelect={setSelected} height={height} />
    </div>
  );
}
