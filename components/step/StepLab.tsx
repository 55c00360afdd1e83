'use client';
// "Step & generate": walk the scenario's prompt token by token on the real K/V cache of the engine worker
// (lib/generate/stepSession: each step forward is ONE one-token extend, a jump ONE chunked extend, a step
// back ONE fork), and watch at each position what the current query attends to, how the cache grows and
// what the model predicts next; then generate from the cursor with the same views, the output read as
// reasoning / answer / tool calls. Views compute nothing themselves: lib/generate and lib/analysis do.
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { EngineClient } from '../../lib/engine/client';
import type { Vocab } from '../../lib/prompt/vocab';
import type { Span, TokenInfo } from '../../lib/prompt/prompt';
import { displayToken } from '../../lib/prompt/label';
import { hideSinkColumn, type HeadReduction } from '../../lib/analysis/attentionView';
import type { KvShape } from '../../lib/analysis/kvBytes';
import { assistantSegments, decodeTokens, segmentSpans, specialTokenIds, tokenStrings } from '../../lib/generate/decodeTokens';
import { formFromSettings, readGenForm, type GenForm } from '../../lib/generate/genForm';
import { parseAssistantText } from '../../lib/prompt/assistantOutput';
import { greedySettings, parseGenerationConfig, type SamplingSettings } from '../../lib/generate/sampling';
import { messageStarts, nextBoundary, nextTokenStats, prevBoundary, reduceRow } from '../../lib/generate/stepper';
import { StepSession, type Op } from '../../lib/generate/stepSession';
import { DEFAULT_GAMMA, makeScale, type ColormapName, type ScaleKind } from '../../lib/view/colormap';
import type { Analysed } from '../../lib/state/analysed';
import { AttentionStrip } from './AttentionStrip';
import { ExportFrame } from '../common/ExportFrame';
import { GenerationPanel, type GenRun } from './GenerationPanel';
import { KvGrowth } from './KvGrowth';
import { Legend } from '../charts/Legend';
import { StepTokens } from './StepTokens';
import { TopPredictions } from './TopPredictions';
import { useT, type T } from '../common/i18n';
import { ColormapSelect, HeadSelect, HideSinkToggle, LayerSelect, ScaleSelect } from '../common/ViewSelects';

export interface StepLabProps {
  client: EngineClient;
  analysed: Analysed | null;
  vocab: Vocab | null;
  generationConfig: unknown | null;
}

const SPEEDS = [1, 2, 5, 10, 20, 50];
/** Operations that run longer than this show a progress indicator. */
const BUSY_AFTER_MS = 500;
const DEFAULT_MAX_NEW = 64;

function readConfig(cfg: unknown): { settings: SamplingSettings; error: string | null } {
  try {
    return { settings: parseGenerationConfig(cfg ?? undefined), error: null };
  } catch (e) {
    return { settings: greedySettings(), error: (e as Error).message };
  }
}

function opText(t: T, op: Op): string {
  const n = Math.abs(op.to - op.from);
  if (op.kind === 'prefill') return t(op.resync ? 'step.opResync' : 'step.opPrefill', { n: op.to, ms: Math.round(op.ms) });
  if (op.kind === 'fork') return t(op.via === 'redo' ? 'step.opForkRedo' : 'step.opFork', { from: op.from, to: op.to, ms: Math.round(op.ms) });
  if (n === 1) return t(op.via === 'generate' ? 'step.opGenerate' : op.via === 'redo' ? 'step.opRedo' : 'step.opStep', { position: op.from, to: op.to, ms: Math.round(op.ms) });
  return t('step.opJump', { n, from: op.from, to: op.to, ms: Math.round(op.ms) });
}

export function StepLab({ client, analysed, vocab, generationConfig }: StepLabProps) {
  const t = useT();
  const [, bump] = useReducer((x: number) => x + 1, 0);
  const sessionRef = useRef<StepSession | null>(null);
  const [session, setSession] = useState<StepSession | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const inFlight = useRef(0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(10);
  const layers = analysed?.attention.length ?? 0;
  const [layer, setLayer] = useState(() => Math.max(0, layers - 1));
  const layerChosen = useRef(false); // until the user picks a layer, show the last one (brief §4 reports the last layer)
  const [head, setHead] = useState<HeadReduction>('mean');
  const [scaleKind, setScaleKind] = useState<ScaleKind>('power');
  const [colormap, setColormap] = useState<ColormapName>('viridis');
  const [hideSink, setHideSink] = useState(false);
  const [picked, setPicked] = useState<number | null>(null);
  const [kvShape, setKvShape] = useState<KvShape | null>(null);
  const [measured, setMeasured] = useState<number[] | null>(null);
  const config = useMemo(() => readConfig(generationConfig), [generationConfig]);
  const [form, setForm] = useState<GenForm>(() => formFromSettings(config.settings, 1234, DEFAULT_MAX_NEW));
  const [genRun, setGenRun] = useState<GenRun | null>(null);
  const genAbort = useRef<AbortController | null>(null);
  const [width, setWidth] = useState(1300);
  // The strip's width follows this box, which its content cannot widen (min-width 0, overflow hidden).
  const stripBoxRef = useRef<HTMLDivElement>(null);

  useEffect(() => setForm(formFromSettings(config.settings, 1234, DEFAULT_MAX_NEW)), [config]);
  useEffect(() => {
    const el = stripBoxRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => setWidth(Math.max(300, Math.floor(el.clientWidth) - 2)));
    ro.observe(el);
    return () => ro.disconnect();
  }, [analysed === null]); // eslint-disable-line react-hooks/exhaustive-deps

  /** Runs one session operation: errors are shown, a progress line appears if it takes > 0.5 s. */
  const track = useCallback(
    async (label: string, fn: () => Promise<unknown>): Promise<boolean> => {
      inFlight.current++;
      const timer = setTimeout(() => setBusy(label), BUSY_AFTER_MS);
      try {
        await fn();
        setError(null);
        return true;
      } catch (e) {
        setError((e as Error).message);
        setPlaying(false);
        return false;
      } finally {
        clearTimeout(timer);
        inFlight.current--;
        if (inFlight.current === 0) setBusy(null);
        bump();
      }
    },
    [],
  );

  // A session per analysed prompt; opening the tab (re)establishes the cache as the whole prompt with ONE
  // prefill (other views share this worker's cache), so the first view is the decision position.
  useEffect(() => {
    if (!analysed) return;
    const s = new StepSession(client, analysed.prompt.ids);
    sessionRef.current = s;
    setSession(s);
    setPicked(null);
    setGenRun(null);
    const last = Math.max(0, analysed.attention.length - 1);
    setLayer((l) => (layerChosen.current ? Math.min(l, last) : last));
    void track(t('step.busyPrefill', { n: analysed.prompt.ids.length }), () => s.establish(analysed.prompt.ids.length));
    return () => {
      genAbort.current?.abort();
      setPlaying(false);
      sessionRef.current = null;
    };
  }, [client, analysed]); // eslint-disable-line react-hooks/exhaustive-deps

  const s = session;
  const cursor = s?.cursor ?? 0;
  const N = s?.seq.length ?? 0;
  const genStart = s?.genStart ?? null;
  const idle = !busy && !genRun?.running;

  // K/V shape from the worker's real cache: layer 0's K is [kvHeads, length, headDim]. Read when idle.
  useEffect(() => {
    if (!s || cursor === 0 || playing || genRun?.running || layers === 0) return;
    let stale = false;
    const timer = setTimeout(() => {
      client
        .readKv(0)
        .then((r) => {
          if (stale) return;
          const [kvHeads, , headDim] = r.k.dims as [number, number, number];
          setMeasured([...r.k.dims]);
          setKvShape((old) => (old && old.kvHeads === kvHeads && old.headDim === headDim && old.layers === layers ? old : { layers, kvHeads, headDim, bytesPerValue: 4 }));
        })
        .catch(() => undefined);
    }, 150);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [s, cursor, playing, genRun?.running, layers, client]);

  const move = useCallback(
    (target: number) => {
      const cur = sessionRef.current;
      if (!cur || inFlight.current > 0) return; // key repeats while a move runs are dropped, not queued
      const to = Math.max(1, Math.min(target, cur.seq.length));
      if (to === cur.cursor) return;
      const label = to > cur.cursor ? t('step.busyExtend', { n: to - cur.cursor }) : t('step.busyFork');
      void track(label, () => cur.moveTo(to));
    },
    [t, track],
  );

  // Play: one step (one one-token extend) per tick until the end of the timeline.
  useEffect(() => {
    if (!playing) return;
    let stop = false;
    (async () => {
      while (!stop) {
        const cur = sessionRef.current;
        if (!cur || cur.cursor >= cur.seq.length) break;
        const ok = await track(t('step.busyExtend', { n: 1 }), () => cur.moveTo(cur.cursor + 1));
        if (!ok) break;
        await new Promise((r) => setTimeout(r, 1000 / speed));
      }
      if (!stop) setPlaying(false);
    })();
    return () => {
      stop = true;
    };
  }, [playing, speed, track, t]);

  // The timeline as tokens and spans: the prompt up to the generated part, then the generated tokens decoded from the vocabulary.
  const strings = useMemo(() => (vocab ? tokenStrings(vocab) : null), [vocab]);
  const specials = useMemo(() => (vocab ? specialTokenIds(vocab) : new Set<number>()), [vocab]);
  const revision = s?.revision ?? 0;
  const timeline = useMemo(() => {
    if (!analysed || !s) return null;
    const p = analysed.prompt;
    if (genStart === null) return { tokens: p.tokens, spans: p.spans, genText: '' };
    const head = p.tokens.slice(0, genStart);
    const spans: Span[] = [];
    for (const sp of p.spans) if (sp.start < genStart) spans.push({ ...sp, end: Math.min(sp.end, genStart) });
    const ids = s.seq.slice(genStart);
    if (!strings) {
      const bare: TokenInfo[] = ids.map((id) => ({ id, text: `#${id}`, bytes: new Uint8Array(), start: 0, end: 0, partial: false, special: false }));
      return { tokens: [...head, ...bare], spans: [...spans, ...segmentSpans(bare.map(() => 'answer'), genStart, p.messageCount, 'assistant')], genText: '' };
    }
    const d = decodeTokens(strings, ids, specials);
    const segs = assistantSegments(d.text, d.tokens);
    return { tokens: [...head, ...d.tokens], spans: [...spans, ...segmentSpans(segs, genStart, p.messageCount, 'assistant')], genText: d.text };
    // `revision` stands for s.seq (mutated in place by the session).
  }, [analysed, s, genStart, revision, strings, specials]); // eslint-disable-line react-hooks/exhaustive-deps
  const labels = useMemo(() => timeline?.tokens.map(displayToken) ?? [], [timeline]);
  const starts = useMemo(() => (timeline ? messageStarts(timeline.spans) : []), [timeline]);
  const parsed = useMemo(() => (timeline && genStart !== null ? parseAssistantText(timeline.genText) : null), [timeline, genStart]);

  const labelOf = useCallback(
    (id: number) => {
      if (!strings || !strings[id]) return `#${id}`;
      try {
        return displayToken(decodeTokens(strings, [id], specials).tokens[0]!);
      } catch {
        return `#${id}`;
      }
    },
    [strings, specials],
  );

  // The current query: the row of position cursor − 1, reduced over heads as chosen.
  const row = s && cursor > 0 ? s.rows[cursor - 1] : undefined;
  const heads = row?.heads ?? analysed?.attention[0]?.dims[0] ?? 0;
  const headNow: HeadReduction = typeof head === 'number' && head >= heads ? 'mean' : head;
  const layerNow = Math.min(layer, Math.max(0, layers - 1));
  const weights = useMemo(() => {
    if (!row || !row.attention[layerNow]) return null;
    const w = reduceRow(row.attention[layerNow]!, row.heads, headNow);
    return hideSink && w.length > 1 ? hideSinkColumn(w, 1, w.length, 0) : w;
  }, [row, layerNow, headNow, hideSink]);
  const scale = useMemo(() => {
    let max = 0;
    if (weights) for (const v of weights) if (v > max) max = v;
    return makeScale({ kind: scaleKind, gamma: DEFAULT_GAMMA, min: 0, max: max || 1 });
  }, [weights, scaleKind]);
  const next = useMemo(() => {
    if (!row?.logits || !s) return null;
    return nextTokenStats(row.logits, cursor < s.seq.length ? s.seq[cursor]! : null, 5);
  }, [row, s, cursor]);
  const topKeys = useMemo(() => {
    if (!weights) return [];
    return Array.from(weights, (w, k) => ({ k, w }))
      .sort((a, b) => b.w - a.w || a.k - b.k)
      .slice(0, 5);
  }, [weights]);

  // The strip's export: the current query's weights over the keys in the cache (null where hidden or not
  // finite), the timeline's tokens and spans, the view's settings and colour range, the top keys.
  const headLabel = headNow === 'mean' ? t('head.mean') : headNow === 'max' ? t('head.max') : t('head.one', { head: headNow });
  const stripCaption = t('export.caption.strip', {
    q: cursor - 1,
    layer: layerNow,
    head: headLabel,
    scale: t(scaleKind === 'linear' ? 'control.scaleLinear' : scaleKind === 'log' ? 'control.scaleLog' : 'control.scalePower'),
  });
  const stripJson = () => ({
    kind: 'attention-strip',
    query: cursor - 1,
    cursor,
    timeline: N,
    cached: weights?.length ?? 0,
    layer: layerNow,
    head: headNow,
    scale: scaleKind,
    gamma: scale.gamma,
    colormap,
    hideSink,
    range: { min: scale.min, max: scale.max },
    tokens: labels,
    spans: timeline?.spans ?? [],
    weights,
    topKeys: topKeys.map((x) => ({ key: x.k, weight: x.w })),
    picked,
  });

  const formRead = useMemo(() => readGenForm(form, config.settings.eosIds), [form, config]);
  const generateNow = async () => {
    const cur = sessionRef.current;
    if (!cur || !formRead.ok) return;
    setPlaying(false);
    const ac = new AbortController();
    genAbort.current = ac;
    let made = 0;
    const max = formRead.maxNewTokens;
    setGenRun({ running: true, made: 0, max });
    inFlight.current++;
    try {
      const r = await cur.generate({
        maxNewTokens: max,
        sampling: formRead.sampling,
        seed: formRead.seed,
        signal: ac.signal,
        onToken: () => {
          made++;
          setGenRun({ running: true, made, max });
          bump();
        },
      });
      setGenRun({ running: false, made: r.ids.length, max, stopped: r.stopped });
      setError(null);
    } catch (e) {
      setGenRun({ running: false, made, max, error: (e as Error).message });
    } finally {
      inFlight.current--;
      genAbort.current = null;
      bump();
    }
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLElement>) => {
    const tag = (e.target as HTMLElement).tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return;
    if (!s || genRun?.running) return;
    let to: number | null = null;
    switch (e.key) {
      case 'ArrowRight':
        to = cursor + 1;
        break;
      case 'ArrowLeft':
        to = cursor - 1;
        break;
      case 'PageDown':
      case 'ArrowDown':
        to = nextBoundary(starts, cursor, N);
        break;
      case 'PageUp':
      case 'ArrowUp':
        to = prevBoundary(starts, cursor);
        break;
      case 'Home':
        to = 1;
        break;
      case 'End':
        to = N;
        break;
      case ' ':
        if (e.target !== e.currentTarget) return; // a focused button handles its own Space
        e.preventDefault();
        setPlaying((p) => !p);
        return;
      default:
        return;
    }
    e.preventDefault();
    setPlaying(false);
    move(to);
  };

  if (!analysed) return <div style={{ color: '#555' }}>{t('step.waiting')}</div>;

  const lastOp = s?.ops.at(-1);
  const counts = s?.counts;
  const btn = (label: string, aria: string, onClick: () => void, disabled: boolean, role: string) => (
    <button type="button" data-step={role} aria-label={aria} title={aria} onClick={onClick} disabled={disabled} style={{ minWidth: 38, padding: '3px 8px' }}>
      {label}
    </button>
  );
  const lock = !s || !!genRun?.running || cursor === 0;
  const nextIsGenerated = genStart !== null && cursor >= genStart;

  return (
    <section
      data-role="step-lab"
      data-cursor={cursor}
      data-length={N}
      data-gen-start={genStart ?? ''}
      data-idle={idle && cursor > 0 ? 'true' : 'false'}
      aria-label={t('step.title')}
      style={{ display: 'grid', gap: 10, minWidth: 0 }}
    >
      <h2 style={{ fontSize: 16, margin: '4px 0 0' }}>{t('step.title')}</h2>
      <p style={{ margin: 0, color: '#333', fontSize: 13, maxWidth: 1100 }}>{t('step.intro')}</p>

      <div
        data-role="stepper"
        tabIndex={0}
        onKeyDown={onKeyDown}
        aria-label={t('step.regionAria')}
        style={{ display: 'grid', gap: 10, padding: 8, border: '1px solid #ddd', borderRadius: 4, outlineOffset: 2, minWidth: 0 }}
      >
        <div style={{ display: 'flex', gap: 6, alignItems: 'center', flexWrap: 'wrap' }}>
          {btn('|◀', t('step.btnStart'), () => move(1), lock || cursor <= 1, 'start')}
          {btn('⇤', t('step.btnPrevMessage'), () => move(prevBoundary(starts, cursor)), lock || cursor <= 1, 'prev-message')}
          {btn('◀', t('step.btnBack'), () => move(cursor - 1), lock || cursor <= 1, 'back')}
          {btn('▶', t('step.btnForward'), () => move(cursor + 1), lock || cursor >= N, 'forward')}
          {btn('⇥', t('step.btnNextMessage'), () => move(nextBoundary(starts, cursor, N)), lock || cursor >= N, 'next-message')}
          {btn('▶|', t('step.btnEnd'), () => move(N), lock || cursor >= N, 'end')}
          <button type="button" data-step="play" onClick={() => setPlaying((p) => !p)} disabled={lock || (!playing && cursor >= N)} style={{ padding: '3px 10px', marginLeft: 8 }}>
            {playing ? t('step.pause') : t('step.play')}
          </button>
          <label style={{ fontSize: 13 }}>
            {t('step.speed')}{' '}
            <select data-control="speed" value={speed} onChange={(e) => setSpeed(Number(e.target.value))}>
              {SPEEDS.map((v) => (
                <option key={v} value={v}>
                  {t('step.speedValue', { n: v })}
                </option>
              ))}
            </select>
          </label>
          <input
            type="range"
            aria-label={t('step.slider')}
            data-control="cursor"
            min={1}
            max={Math.max(1, N)}
            value={Math.max(1, cursor)}
            disabled={lock}
            onChange={(e) => move(Number(e.target.value))}
            style={{ flex: '1 1 200px', minWidth: 160 }}
          />
          <span style={{ fontSize: 12, color: '#555' }}>{t('step.keysHelp')}</span>
        </div>

        <div data-role="step-status" aria-live="polite" style={{ fontSize: 14, fontVariantNumeric: 'tabular-nums' }}>
          {cursor > 0 ? (
            <>
              <b>{t('step.cursor', { c: cursor, n: N })}</b> · {t('step.query', { q: cursor - 1, label: labels[cursor - 1] ?? '' })}
              {cursor < N && <> · {t('step.nextToken', { position: cursor, label: labels[cursor] ?? '' })}</>}
            </>
          ) : (
            t('step.establishing')
          )}
          {busy && (
            <span data-role="step-busy" style={{ marginLeft: 12 }}>
              <progress style={{ width: 100, verticalAlign: 'middle' }} /> {busy}
            </span>
          )}
        </div>
        <div data-role="step-op" style={{ fontSize: 12, color: '#333', fontFamily: 'ui-monospace, monospace' }}>
          {lastOp ? t('step.lastOp', { op: opText(t, lastOp) }) : ''}
          {counts && (
            <span style={{ color: '#666', marginLeft: 10 }}>
              {t('step.counts', { prefill: counts.prefill + counts.resync, step: counts.step, jump: counts.jump, fork: counts.fork, generate: counts.generate })}
            </span>
          )}
        </div>
        <div style={{ fontSize: 12, color: '#555' }}>{t('step.jumpNote')}</div>
        {row && row.via !== 'step' && (
          <div data-role="row-source" style={{ fontSize: 12, color: '#555' }}>
            {t(`step.rowVia.${row.via}`, { n: row.runTokens })}
          </div>
        )}
        {error && (
          <div role="alert" style={{ color: '#a00', background: '#fde2e1', padding: '4px 8px', borderRadius: 3 }}>
            {t('error.prefix', { message: error })}
          </div>
        )}

        <div data-role="step-view-controls" style={{ display: 'flex', gap: 14, flexWrap: 'wrap', alignItems: 'center', fontSize: 13 }}>
          <LayerSelect
            value={layerNow}
            layers={layers}
            onChange={(l) => {
              layerChosen.current = true;
              setLayer(l);
            }}
          />
          <HeadSelect value={headNow} heads={heads} onChange={setHead} />
          <ScaleSelect value={scaleKind} onChange={setScaleKind} />
          <ColormapSelect value={colormap} onChange={setColormap} />
          <HideSinkToggle value={hideSink} onChange={setHideSink} />
        </div>

        <div ref={stripBoxRef} style={{ display: 'grid', gap: 4, minWidth: 0, overflow: 'hidden', paddingTop: 1 }}>
          <ExportFrame name={`step-attention-q${cursor - 1}-L${layerNow}-${headNow}`} title={stripCaption} json={stripJson} bodyStyle={{ display: 'grid', gap: 4 }}>
            <div style={{ fontSize: 13, fontWeight: 600 }}>{t('step.stripTitle', { q: cursor - 1, layer: layerNow, head: headNow === 'mean' ? t('head.mean') : headNow === 'max' ? t('head.max') : t('head.one', { head: headNow }) })}</div>
            {timeline && (
              <AttentionStrip weights={weights} total={N} spans={timeline.spans} labels={labels} scale={scale} map={colormap} width={width} onPick={(k) => setPicked((p) => (p === k ? null : k))} />
            )}
            <div style={{ display: 'flex', gap: 24, flexWrap: 'wrap', alignItems: 'flex-start' }}>
              <div style={{ paddingLeft: 8 }}>
                <Legend scale={scale} map={colormap} />
              </div>
              <div style={{ fontSize: 12, color: '#333', maxWidth: 640 }}>
                <div style={{ color: '#555' }}>{t('step.stripNote')}</div>
                {hideSink && <div style={{ color: '#555' }}>{t('legend.hiddenSink')}</div>}
                <div data-role="top-keys" style={{ fontFamily: 'ui-monospace, monospace', marginTop: 4 }}>
                  {t('step.topKeys')}{' '}
                  {topKeys.map((x) => `${x.k} ${labels[x.k] ?? ''} ${x.w.toFixed(3)}`).join(' · ')}
                </div>
                {picked !== null && picked < N && (
                  <div data-role="picked-key" style={{ fontFamily: 'ui-monospace, monospace' }}>
                    {t('step.stripTipKey', { key: picked, label: labels[picked] ?? '' })} ·{' '}
                    {weights && picked < weights.length ? t('step.stripTipWeight', { w: weights[picked]!.toPrecision(4) }) : t('step.stripTipFuture')}
                  </div>
                )}
              </div>
            </div>
          </ExportFrame>
        </div>

        <div style={{ display: 'flex', gap: 20, flexWrap: 'wrap', alignItems: 'flex-start' }}>
          <div style={{ flex: '1 1 560px', minWidth: 420, display: 'grid', gap: 4 }}>
            <div style={{ fontSize: 13, fontWeight: 600 }}>{t('step.tokensTitle')}</div>
            {timeline && (
              <StepTokens
                tokens={timeline.tokens}
                spans={timeline.spans}
                cursor={cursor}
                weights={weights}
                scale={scale}
                map={colormap}
                picked={picked}
                genStart={genStart}
                height={360}
                onPick={(i) => setPicked((p) => (p === i ? null : i))}
              />
            )}
          </div>
          <div style={{ flex: '0 1 420px', minWidth: 360, display: 'grid', gap: 14 }}>
            <div style={{ display: 'grid', gap: 4 }}>
              <div style={{ fontSize: 13, fontWeight: 600 }}>{t('step.topTitle')}</div>
              <TopPredictions next={next} labelOf={labelOf} position={cursor} atEnd={cursor >= N} nextGenerated={nextIsGenerated} />
            </div>
            <div style={{ display: 'grid', gap: 4 }}>
              <div style={{ fontSize: 13, fontWeight: 600 }}>{t('step.kvTitle')}</div>
              <KvGrowth cursor={cursor} total={N} shape={kvShape} measured={measured} />
            </div>
          </div>
        </div>
      </div>

      <GenerationPanel
        form={form}
        onForm={setForm}
        errors={formRead.ok ? [] : formRead.errors}
        cursor={cursor}
        promptLength={analysed.prompt.ids.length}
        configNote={
          config.error
            ? t('step.genConfigError', { error: config.error })
            : generationConfig
              ? t('step.genConfigRead', { summary: summary(config.settings) })
              : t('step.genConfigNone')
        }
        run={genRun}
        genStart={genStart}
        parsed={parsed}
        rawText={timeline?.genText ?? ''}
        disabled={!s || cursor === 0 || !!busy || !strings}
        onGenerate={() => void generateNow()}
        onStop={() => genAbort.current?.abort()}
        onBackToPrompt={() => {
          const cur = sessionRef.current;
          if (!cur) return;
          setPicked(null);
          void track(t('step.busyFork'), () => cur.backToPrompt()).then(() => setGenRun(null));
        }}
      />
    </section>
  );
}

function summary(s: SamplingSettings): string {
  return `do_sample ${s.doSample}, temperature ${s.temperature}, top_k ${s.topK}, top_p ${s.topP}, eos ${JSON.stringify(s.eosIds)}`;
}
