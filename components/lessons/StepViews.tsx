'use client';
// The live view of a lesson step, one column per model (two side by side on the same prompt): the
// attention heatmap (components/attention HeatmapSection, its layer/head/hide-sink set by the step and
// still changeable), the sink score per layer (SinkParts LayerBars), the agent loop (MessageInspector) or
// the token stream (TokenView), the status-bar A/B's region bars (RegionBars), its decisions over seeds (a tally
// per arm and the A/B tab's SeedTable) or a run log's growth chart
// (GrowthChart, no model columns). Computes nothing the lib does not.
import { useMemo, useState } from 'react';
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
import { StreamingPanel } from './StreamingPanel';
import type { StreamingRun } from './useStreamingRun';
import { KvDiffSection } from '../kv/KvDiffSection';
import type { Compared } from '../kv/useKvComparison';
import type { LessonExtra } from '../../lib/lessons';
import type { KvLessonRun } from '../../lib/lessons/kvPrefix';
import { rankByCacheRatio, type PatternLessonRun } from '../../lib/lessons/harmfulPatterns';
import type { PatternMode } from '../../lib/agent/patterns';
import { CallStackChart, PatternSummaryChart } from '../kv/PatternCharts';
import { displayToken } from '../../lib/prompt/label';
import { barRows } from '../../lib/analysis/abArms';
import { statusDecision, type StatusArmRun, type StatusSeedsRun } from '../../lib/lessons/statusBar';
import { tallyDecisions } from '../../lib/analysis/abArms';
import { DecisionLegend, samplingText, TallyBar, type GenResult } from '../ab/DecisionOutcomes';
import { SeedTable } from '../ab/SeedOutputs';
import { seedGrowth } from '../../lib/lessons/contextGrowth';
import { axisMax, RegionBars } from '../ab/RegionBars';
import { GrowthChart } from '../data/GrowthChart';

export function StepView({ view, runs, models, extra, streaming }: { view: StepViewConfig; runs: (Analysed | null)[]; models: string[]; extra?: LessonExtra | null; streaming?: StreamingRun[] }) {
  const [ref, width] = useBoxWidth(860);
  const cols = models.length;
  const colWidth = Math.floor((width - (cols - 1) * 16) / cols);
  if (view.kind === 'growth')
    return (
      <div ref={ref} data-role="step-view" data-kind={view.kind} style={{ minWidth: 0 }}>
        <GrowthColumn />
      </div>
    );
  return (
    <div ref={ref} data-role="step-view" data-kind={view.kind} style={{ display: 'grid', gridTemplateColumns: `repeat(${cols}, minmax(0, 1fr))`, gap: 16, minWidth: 0 }}>
      {models.map((model, i) => (
        <div key={model} data-model={model} style={{ display: 'grid', gap: 'var(--sp-1)', alignContent: 'start', minWidth: 0 }}>
          <h4 style={{ margin: 0 }} data-role="step-model">
            {model}
          </h4>
          {view.kind === 'streaming' ? <StreamingPanel model={model} run={streaming?.[i]} width={colWidth} /> : runs[i] ? <One view={view} data={runs[i]!} model={model} width={colWidth} extra={extra ?? null} /> : null}
        </div>
      ))}
    </div>
  );
}

function One({ view, data, model, width, extra }: { view: StepViewConfig; data: Analysed; model: string; width: number; extra: LessonExtra | null }) {
  if (view.kind === 'attention') return <AttentionColumn view={view} data={data} model={model} width={width} />;
  if (view.kind === 'sink') return <SinkColumn data={data} model={model} width={width} />;
  if (view.kind === 'inspector') return <MessageInspector run={data.run} prompts={data.callPrompts} />;
  if (view.kind === 'kv') return <KvColumn data={data} kv={extra?.kv ?? null} width={width} />;
  if (view.kind === 'streaming') return null; // drawn by StreamingPanel in StepView
  if (view.kind === 'patterns') return <PatternsColumn patterns={extra?.patterns ?? null} width={width} />;
  if (view.kind === 'ab') return <AbColumn data={data} arm={extra?.statusArm ?? null} width={width} />;
  if (view.kind === 'seeds') return <SeedsColumn seeds={extra?.seeds ?? null} />;
  if (view.kind === 'growth') return null; // drawn without model columns in StepView
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
      initialView={view.zoom}
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

/** A 'kv' step: the KV tab's ΔK/ΔV maps and recompute sweep for the step's one-token edit. */
function KvColumn({ data, kv, width }: { data: Analysed; kv: KvLessonRun | null; width: number }) {
  const t = useT();
  const result = useMemo((): Compared | null => {
    if (!kv) return null;
    const aLabels = data.prompt.tokens.map(displayToken);
    const bLabels = aLabels.map((x, i) => (i === kv.edit.position ? kv.edit.to : x));
    return { source: { kind: 'edit', edit: 'replace', position: kv.edit.position, text: kv.edit.text }, aIds: kv.aIds, bIds: kv.bIds, aLabels, bLabels, prefix: kv.prefix, mode: 'shared', computedB: kv.computedB, delta: kv.delta, shifted: null, ms: kv.ms };
  }, [kv, data]);
  if (!kv || !result)
    return (
      <p role="status" className="muted">
        {t('lessons.kvComputing')}
      </p>
    );
  return (
    <div className="panel">
      <KvDiffSection result={result} shown={kv.delta} facts={kv.facts} alignment="position" width={width - 24} />
    </div>
  );
}

/** A 'patterns' step: the Economics tab's summary bars of the six patterns and the calls of the one picked (the lowest cached share first). */
function PatternsColumn({ patterns, width }: { patterns: PatternLessonRun | null; width: number }) {
  const t = useT();
  const [picked, setPicked] = useState<PatternMode | null>(null);
  if (!patterns)
    return (
      <p role="status" className="muted">
        {t('lessons.patternsComputing')}
      </p>
    );
  const mode = picked ?? rankByCacheRatio(patterns).at(-1)!.mode;
  const sel = patterns.modes.find((m) => m.mode === mode)!;
  return (
    <div className="panel" data-role="lesson-patterns" style={{ display: 'grid', gap: 'var(--sp-2)' }}>
      <PatternSummaryChart rows={patterns.modes} selected={mode} onSelect={setPicked} width={width - 24} />
      <CallStackChart accounting={sel.accounting} mode={mode} />
    </div>
  );
}

/** An 'ab' step: the A/B tab's region bars at each arm's decision position (arm B is the step's run, arm A the view's extra). */
function AbColumn({ data, arm, width }: { data: Analysed; arm: StatusArmRun | null; width: number }) {
  const t = useT();
  const d = useMemo(() => (arm ? statusDecision(arm, data) : null), [arm, data]);
  if (!d)
    return (
      <p role="status" className="muted">
        {t('lessonsAb.computing')}
      </p>
    );
  const rows = barRows(d.a, d.b);
  return (
    <div className="panel" data-role="lesson-ab">
      <RegionBars
        role="lesson-ab-bars"
        title={t('lessonsAb.barsTitle')}
        subtitle={t('lessonsAb.barsSub', { pa: d.a.positions[0]!, ta: d.tokensA, pb: d.b.positions[0]!, tb: d.tokensB })}
        rows={rows}
        layer="mean"
        max={axisMax([rows], 'mean')}
        masses={d}
        armTitles={{ a: t('ab.arms.builtinA'), b: t('ab.arms.builtinB') }}
        width={Math.max(420, width - 24)}
      />
    </div>
  );
}

/** A 'seeds' step: how often each status-bar arm calls again over the step's seeds, and every seed's output (the A/B tab's SeedTable). */
function SeedsColumn({ seeds }: { seeds: StatusSeedsRun | null }) {
  const t = useT();
  const result = useMemo((): GenResult | null => (seeds ? { seeds: seeds.seeds, maxNewTokens: seeds.maxNewTokens, sampling: seeds.sampling, runs: { A: seeds.a, B: seeds.b }, aborted: false, finished: true } : null), [seeds]);
  if (!seeds || !result)
    return (
      <p role="status" className="muted">
        {t('lessonsSeeds.computing')}
      </p>
    );
  const arms = [
    { arm: 'A', title: t('ab.arms.builtinA'), runs: seeds.a },
    { arm: 'B', title: t('ab.arms.builtinB'), runs: seeds.b },
  ] as const;
  const W = 180;
  return (
    <div className="panel" data-role="lesson-seeds" style={{ display: 'grid', gap: 'var(--sp-1)', fontSize: 'var(--fs-sm)' }}>
      <span>{t('lessonsSeeds.sampling', { how: samplingText(t, seeds.sampling), first: seeds.seeds[0]!, last: seeds.seeds.at(-1)!, max: seeds.maxNewTokens })}</span>
      <table data-role="lesson-seeds-tally" style={{ borderCollapse: 'collapse' }}>
        <tbody>
          {arms.map(({ arm, title, runs }) => {
            const tl = tallyDecisions(runs);
            return (
              <tr key={arm} data-arm={arm} data-call={tl.call} data-refuse={tl.refuse}>
                <td style={{ padding: '3px 10px 3px 0', fontWeight: 600 }}>
                  {arm}: {title}
                </td>
                <td style={{ padding: '3px 10px' }}>
                  <TallyBar call={tl.call} refuse={tl.refuse} width={W} />
                </td>
                <td style={{ padding: '3px 10px' }}>{t('ab.gen.tally', { call: tl.call, refuse: tl.refuse, n: runs.length })}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <DecisionLegend />
      <SeedTable result={result} />
    </div>
  );
}

/** A 'growth' step: the Data tab's growth chart of the seed run log at the lesson's α. */
function GrowthColumn() {
  const t = useT();
  const { log, growth } = seedGrowth();
  return (
    <div className="panel" data-role="lesson-growth" style={{ display: 'grid', gap: 'var(--sp-1)' }}>
      <span style={{ fontSize: 'var(--fs-sm)' }}>{t('lessonsAb.growthTitle', { calls: growth.summary.calls, agent: log.agents.join(', '), alpha: growth.alpha })}</span>
      <GrowthChart growth={growth} log={log} />
    </div>
  );
}
