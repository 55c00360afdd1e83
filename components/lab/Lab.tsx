'use client';
// The lab page: owns the persisted store and the engine worker, and wires data one way —
// scenario request → chat template (in the worker) → forward pass → tensors → lib/analysis → views.
// It derives nothing itself beyond choosing which lib/ result each view gets.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { EngineClient } from '../../lib/engine/client';
import type { LoadParams, LoadResult } from '../../lib/engine/protocol';
import type { Tensor } from '../../lib/tensor';
import type { PromptResult } from '../../lib/engine/promptHook';
import { colourDomainMax, hideSinkColumn, reduceHeads } from '../../lib/analysis/attentionView';
import { DEFAULT_MIN_QUERY, topReceivers } from '../../lib/analysis/sink';
import type { Prompt } from '../../lib/prompt/prompt';
import { displayToken } from '../../lib/prompt/label';
import { parseScenarioRef, scenarioRequest } from '../../lib/scenarios';
import type { ChatRequest } from '../../lib/scenarios/types';
import { makeScale } from '../../lib/view/colormap';
import { runOf, type Run } from '../../lib/agent/run';
import { createKvscopeStore, customOf, type KvscopeStore } from '../../lib/state/store';
import { EMBEDDED_MODELS, type ModelCard } from '../../lib/model/embedded';
import { fetchModel } from '../../lib/model/fetchModel';
import { readVocab, type Vocab } from '../../lib/prompt/vocab';
import { applyShare, decodeShare, encodeShare, shareFromState } from '../../lib/io/share';
import { LangProvider, useT } from '../common/i18n';
import { Heatmap } from '../attention/Heatmap';
import { Legend } from '../charts/Legend';
import { SinkPanel } from '../attention/SinkPanel';
import { MessageInspector } from '../loop/MessageInspector';
import { TokenView } from '../attention/TokenView';
import { ModelPicker } from './ModelPicker';
import { ScenarioPicker } from '../scenario/ScenarioPicker';
import { RequestEditor } from '../scenario/RequestEditor';
import { AttentionControls } from '../attention/AttentionControls';
import { KvLab } from '../kv/KvLab';
import { StepLab } from '../step/StepLab';
import { AbLab } from '../ab/AbLab';
import type { Tab } from '../../lib/state/store';
import { DataLab, ImportNoteView } from '../data/DataLab';
import { ExportFrame } from '../common/ExportFrame';
import { heatmapViewJson } from '../../lib/io/export/heatmapView';
import { useImports } from '../hooks/useImports';

import type { Analysed } from '../../lib/state/analysed';
export type { Analysed };
type Phase = { kind: 'loading'; stage: string; fraction: number } | { kind: 'ready'; info: LoadResult } | { kind: 'failed'; message: string };

function browserStorage() {
  // Private modes may refuse localStorage: the store then reports persistError and keeps working in memory.
  try {
    return window.localStorage;
  } catch {
    const m = new Map<string, string>();
    return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k) };
  }
}

export function Lab() {
  const [store] = useState<KvscopeStore>(() =>
    createKvscopeStore({
      storage: typeof window === 'undefined' ? { getItem: () => null, setItem: () => {}, removeItem: () => {} } : browserStorage(),
    }),
  );
  // Settings from storage first, then a share link in the fragment (if any) applied on top: a shared custom
  // scenario becomes a new scenario of the user's, never written over one. Only then does the model load.
  const [booted, setBooted] = useState(false);
  const [shareNote, setShareNote] = useState<ShareNote | null>(null);
  useEffect(() => {
    let live = true;
    (async () => {
      await store.persist.rehydrate();
      if (/(^#|&)s=/.test(window.location.hash)) {
        const d = await decodeShare(window.location.hash);
        const r = d.ok ? applyShare(store.getState(), d.payload, Date.now()) : d;
        if (r.ok) store.setState(r.state);
        if (live) setShareNote(r.ok ? { kind: 'opened', lines: [...(d.ok ? d.notes : []), ...r.notes] } : { kind: 'error', lines: [r.error] });
        window.history.replaceState(null, '', window.location.pathname + window.location.search);
      }
      if (live) setBooted(true);
    })();
    return () => {
      live = false;
    };
  }, [store]);
  const lang = useStore(store, (s) => s.lang);
  useEffect(() => {
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  }, [lang]);
  return (
    <LangProvider lang={lang}>
      <LabBody store={store} booted={booted} shareNote={shareNote} setShareNote={setShareNote} />
    </LangProvider>
  );
}

type ShareNote = { kind: 'opened' | 'copied' | 'error'; lines: string[] };

function LabBody({ store, booted, shareNote, setShareNote }: { store: KvscopeStore; booted: boolean; shareNote: ShareNote | null; setShareNote: (n: ShareNote | null) => void }) {
  const t = useT();
  const s = useStore(store);
  const client = useRef<EngineClient | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'loading', stage: 'downloading', fraction: 0 });
  const [loadedModel, setLoadedModel] = useState<string | null>(null);
  const [vocab, setVocab] = useState<Vocab | null>(null);
  const [generationConfig, setGenerationConfig] = useState<unknown | null>(null);
  const [cards, setCards] = useState<Record<string, ModelCard | null>>({});
  const [data, setData] = useState<Analysed | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [runError, setRunError] = useState<string | null>(null);
  const [workerNote, setWorkerNote] = useState<{ kind: 'restarted' | 'failed'; reason: string } | null>(null);
  const [epoch, setEpoch] = useState(0);
  const imports = useImports(store);
  const [dragging, setDragging] = useState(false);

  // ?url=<file> imports that file once on opening (then leaves the address bar, so a reload does not repeat it).
  useEffect(() => {
    if (!booted) return;
    const params = new URLSearchParams(window.location.search);
    const url = params.get('url');
    if (!url) return;
    params.delete('url');
    const rest = params.toString();
    window.history.replaceState(null, '', window.location.pathname + (rest ? `?${rest}` : '') + window.location.hash);
    void imports.importUrl(url);
  }, [booted]); // eslint-disable-line react-hooks/exhaustive-deps

  // One worker for the page's lifetime; a crash restarts it (the client replays the cache) and we re-run.
  useEffect(() => {
    const c = new EngineClient(() => new Worker(new URL('../../workers/engine.worker.ts', import.meta.url), { type: 'module' }));
    client.current = c;
    const offs = [
      c.on('restarted', (e) => {
        setWorkerNote({ kind: 'restarted', reason: e.reason });
        setEpoch((n) => n + 1);
      }),
      c.on('failed', (e) => setWorkerNote({ kind: 'failed', reason: e.reason })),
    ];
    return () => {
      offs.forEach((off) => off());
      c.terminate();
      client.current = null;
    };
  }, []);

  // Model cards for the picker (small files, fetched once).
  useEffect(() => {
    for (const m of EMBEDDED_MODELS) {
      fetch(m.path + 'README.md')
        .then((r) => (r.ok ? r.text() : Promise.reject(new Error(String(r.status)))))
        .then((text) => import('../../lib/model/embedded').then(({ parseModelCard }) => parseModelCard(text)))
        .then((card) => setCards((c) => ({ ...c, [m.id]: card })))
        .catch(() => setCards((c) => ({ ...c, [m.id]: null })));
    }
  }, []);

  // Load the chosen model once settings are read from storage (so a reload does not load the default first).
  useEffect(() => {
    const c = client.current;
    if (!booted || !c) return;
    const model = EMBEDDED_MODELS.find((m) => m.id === s.model)!;
    let stale = false;
    setPhase({ kind: 'loading', stage: 'downloading', fraction: 0 });
    setData(null);
    (async () => {
      const files = await fetchModel(model.path, (u) => fetch(u), (f) => !stale && setPhase({ kind: 'loading', stage: 'downloading', fraction: 0.5 * f }));
      const threads = Math.min(4, navigator.hardwareConcurrency || 1);
      const params: LoadParams = { config: files.config, shards: files.shards, tokenizer: files.tokenizer, tokenizerConfig: files.tokenizerConfig, provider: 'wasm', numThreads: threads } as LoadParams;
      const info = await c.load(params, { onProgress: (stage, fraction) => !stale && setPhase({ kind: 'loading', stage, fraction: 0.5 + 0.5 * fraction }) });
      if (stale) return;
      setVocab(readVocab(files.tokenizer));
      setGenerationConfig(files.generationConfig);
      setLoadedModel(model.id);
      setPhase({ kind: 'ready', info });
    })().catch((e: Error) => !stale && setPhase({ kind: 'failed', message: e.message }));
    return () => {
      stale = true;
    };
  }, [booted, s.model]);

  const custom = customOf(s, s.scenario);
  // The request the views show: a built-in scenario's, or the custom scenario's last valid version.
  const request: ChatRequest | null = useMemo(() => {
    if (custom) return custom.lastGood;
    const { id, variant } = parseScenarioRef(s.scenario);
    return scenarioRequest(id, variant);
  }, [custom?.lastGood, s.scenario]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    const c = client.current;
    if (phase.kind !== 'ready' || !c || !request || loadedModel !== s.model) return;
    let stale = false;
    setBusy(t('run.rendering'));
    setRunError(null);
    (async () => {
      const r = (await c.prompt(request, { addGenerationPrompt: true })) as PromptResult;
      if (!r.ok) throw new Error(r.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
      // Each call of the agent loop, rendered by the same template (for the inspector's token counts).
      const agentRun = runOf(request);
      const callPrompts: Prompt[] = [];
      for (const call of agentRun.calls) {
        const cr = (await c.prompt(call.request, { addGenerationPrompt: true })) as PromptResult;
        if (!cr.ok) throw new Error(cr.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
        callPrompts.push(cr.prompt);
      }
      if (stale) return;
      setBusy(t('run.running'));
      const run = (await c.prefill(r.prompt.ids)) as { attention: Tensor[] };
      if (stale) return;
      setData({ run: agentRun, callPrompts, prompt: r.prompt, labels: r.prompt.tokens.map(displayToken), attention: run.attention, tokens: r.prompt.ids.length });
      setBusy(null);
    })().catch((e: Error) => {
      if (stale) return;
      setBusy(null);
      setRunError(e.message);
    });
    return () => {
      stale = true;
    };
    // `t` is left out on purpose: switching language must not re-run the model.
  }, [phase.kind, loadedModel, s.model, request, epoch]); // eslint-disable-line react-hooks/exhaustive-deps

  const view = s.view;
  const layers = data?.attention.length ?? 0;
  const layer = Math.min(view.layer, Math.max(0, layers - 1));
  const heads = data?.attention[0]?.dims[0] ?? 0;
  const head = typeof view.head === 'number' && view.head >= heads ? 'mean' : view.head;
  // The matrix shown: lib/analysis reductions of the engine's tensor, nothing recomputed here.
  const matrix = useMemo(() => {
    const a = data?.attention[layer];
    if (!a) return null;
    const m = reduceHeads(a, head);
    const T = m.dims[0]!;
    return view.hideSink ? hideSinkColumn(m.data, T, T, 0) : m.data;
  }, [data, layer, head, view.hideSink]);
  // Colour range from rows q ≥ minQuery: early rows see few keys and would push the rest into the dark end.
  const scale = useMemo(() => {
    const T = data?.tokens ?? 0;
    const max = matrix ? colourDomainMax(matrix, T, T, DEFAULT_MIN_QUERY) : 1;
    return makeScale({ kind: view.scale, gamma: view.gamma, min: 0, max: max || 1 });
  }, [matrix, view.scale, view.gamma, data]);
  const selected = data && s.selectedToken !== null && s.selectedToken < data.tokens ? s.selectedToken : null;
  const headLabel = head === 'mean' ? t('head.mean') : head === 'max' ? t('head.max') : t('head.one', { head });

  return (
    <main
      style={{ padding: '12px 20px 40px', display: 'grid', gap: 14, maxWidth: 1400, position: 'relative' }}
      // Files dropped anywhere on the page are imported (request bodies, run logs, attention files).
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes('Files')) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(e) => e.currentTarget === e.target && setDragging(false)}
      onDrop={(e) => {
        if (!e.dataTransfer.files.length) return;
        e.preventDefault();
        setDragging(false);
        void imports.importFiles(e.dataTransfer.files);
      }}
    >
      {dragging && (
        <div data-role="drop-overlay" style={{ position: 'fixed', inset: 0, background: 'rgba(68,119,170,0.15)', border: '4px dashed #4477AA', display: 'grid', placeItems: 'center', fontSize: 20, zIndex: 50, pointerEvents: 'none' }}>
          <span style={{ background: '#fff', padding: '10px 18px', borderRadius: 6 }}>{t('data.dropOverlay')}</span>
        </div>
      )}
      <header style={{ display: 'flex', gap: 16, alignItems: 'baseline', flexWrap: 'wrap' }}>
        <h1 style={{ margin: 0, fontSize: 22 }}>kvscope</h1>
        <span style={{ color: '#555', flex: 1 }}>{t('app.tagline')}</span>
        <LanguageSwitch lang={s.lang} onChange={s.setLang} />
      </header>

      <ModelPicker
        models={EMBEDDED_MODELS.map((m) => ({ id: m.id, card: cards[m.id] ?? null }))}
        value={s.model}
        onChange={s.setModel}
        disabled={phase.kind === 'loading'}
        provider={phase.kind === 'ready' ? phase.info : null}
      />
      {phase.kind === 'loading' && (
        <div aria-live="polite" data-role="load-progress">
          <progress value={phase.fraction} max={1} style={{ width: 320 }} />{' '}
          <span>{t('model.loading', { model: s.model, stage: stageLabel(t, phase.stage) })}</span>
        </div>
      )}
      {phase.kind === 'failed' && <Alert>{t('error.prefix', { message: phase.message })}</Alert>}
      {workerNote && (
        <div role="status" data-role="worker-note" style={{ background: workerNote.kind === 'failed' ? '#fde2e1' : '#fff3cd', padding: '6px 10px', borderRadius: 4 }}>
          {workerNote.kind === 'restarted' ? t('error.workerRestarted', { reason: workerNote.reason }) : t('error.workerFailed', { reason: workerNote.reason })}{' '}
          {workerNote.kind === 'failed' && (
            <button onClick={() => { client.current?.restart(); setWorkerNote(null); setEpoch((n) => n + 1); }}>{t('error.restart')}</button>
          )}
        </div>
      )}
      {s.persistError && <div role="status" style={{ color: '#a15c00' }}>{t('error.persist', { message: s.persistError })}</div>}

      <ScenarioPicker
        value={s.scenario}
        custom={s.custom}
        onChange={s.setScenario}
        onCopy={(name) => {
          const req = request ?? { messages: [] };
          s.createCustom(name, JSON.stringify(req, null, 2), request);
        }}
        onNew={(name) => s.createCustom(name, JSON.stringify({ messages: [{ role: 'user', content: '' }] }, null, 2), null)}
        onRename={s.renameCustom}
        onDelete={s.deleteCustom}
      />

      <div style={{ display: 'flex', gap: 10, alignItems: 'baseline', flexWrap: 'wrap' }}>
        <button
          data-role="share-link"
          title={t('share.title')}
          onClick={async () => {
            const p = shareFromState(store.getState());
            const e = p.ok ? await encodeShare(p.payload) : p;
            if (!e.ok) return setShareNote({ kind: 'error', lines: [e.error] });
            const url = window.location.origin + window.location.pathname + e.fragment;
            try {
              await navigator.clipboard.writeText(url);
              setShareNote({ kind: 'copied', lines: [url, ...(p.ok ? p.notes : [])] });
            } catch {
              setShareNote({ kind: 'copied', lines: [t('share.copyByHand'), url] });
            }
          }}
        >
          {t('share.button')}
        </button>
        {shareNote && (
          <div role="status" data-role="share-note" data-kind={shareNote.kind} style={{ fontSize: 13, color: shareNote.kind === 'error' ? '#a00' : '#333', maxWidth: 1100, overflowWrap: 'anywhere' }}>
            <strong>{t(shareNote.kind === 'opened' ? 'share.opened' : shareNote.kind === 'copied' ? 'share.copied' : 'share.error')}</strong>{' '}
            {shareNote.lines.join(' · ')}{' '}
            <button onClick={() => setShareNote(null)} aria-label={t('share.dismiss')} style={{ border: 'none', background: 'none', cursor: 'pointer' }}>✕</button>
          </div>
        )}
      </div>

      {imports.note && <ImportNoteView note={imports.note} onDismiss={() => imports.setNote(null)} onOpenAnyway={imports.openAnyway} />}

      {custom && (
        <section aria-label={t('section.editor')} style={{ display: 'grid', gap: 6 }}>
          <h2 style={{ fontSize: 16, margin: 0 }}>{t('section.editor')}</h2>
          <RequestEditor
            key={custom.id}
            text={custom.text}
            onTextChange={(text) => s.editCustomText(custom.id, text)}
            onValidRequest={(req) => {
              // Only a change of content replaces the last good state (re-validation of the same text is a no-op).
              if (JSON.stringify(req) !== JSON.stringify(custom.lastGood)) s.acceptCustom(custom.id, req);
            }}
            rows={18}
          />
          {!custom.lastGood && <div data-role="no-valid-note" style={{ color: '#a15c00' }}>{t('scenario.noValidYet')}</div>}
        </section>
      )}

      {runError && <Alert>{t('error.prefix', { message: runError })}</Alert>}
      <div id="status" data-ready={data && matrix && !busy ? 'true' : 'false'} data-tokens={data?.tokens ?? 0} data-layer={layer} style={{ color: '#333', minHeight: 20 }} aria-live="polite">
        {busy ? (
          <span>
            <progress style={{ width: 120, verticalAlign: 'middle' }} /> {busy}
          </span>
        ) : data ? (
          t('run.summary', { tokens: data.tokens, layer, head: headLabel })
        ) : (
          ''
        )}
      </div>

      <Tabs value={s.tab} onChange={s.setTab} />
      {s.tab === 'attention' && (
        <>
          {data && <MessageInspector run={data.run} prompts={data.callPrompts} />}
          {data && (
            <section aria-label={t('section.tokens')}>
              <h2 style={{ fontSize: 16, margin: '4px 0' }}>{t('section.tokens')}</h2>
              <TokenView tokens={data.prompt.tokens} spans={data.prompt.spans} selected={selected} onSelect={s.setSelectedToken} height={220} />
              <div id="selection" style={{ fontSize: 13, color: '#333', marginTop: 4, fontFamily: 'ui-monospace, monospace' }}>
                {selected === null || !matrix
                  ? t('selection.hint')
                  : `${t('selection.row', { index: selected, label: data.labels[selected] ?? '' })} ${topReceivers(
                      Float64Array.from(matrix.subarray(selected * data.tokens, selected * data.tokens + selected + 1)),
                      5,
                    )
                      .map((k) => `${k.key} ${data.labels[k.key]} ${k.weight.toFixed(3)}`)
                      .join(' · ')}`}
              </div>
            </section>
          )}
          {data && matrix && (
            <section aria-label={t('section.attention')} style={{ display: 'grid', gap: 8 }}>
              <h2 style={{ fontSize: 16, margin: '4px 0' }}>{t('section.attention')}</h2>
              <AttentionControls view={view} layers={layers} heads={heads} onChange={s.setView} />
              {/* Heatmap on the left, the sink panel beside it on wide screens (below it on narrow ones). */}
              <div style={{ display: 'flex', gap: 28, flexWrap: 'wrap', alignItems: 'flex-start' }}>
                <div style={{ display: 'grid', gap: 8, flex: '0 0 auto' }}>
                  <ExportFrame
                    name={`attention-${s.scenario}-L${layer}-${head}`}
                    title={`${s.model} · ${s.scenario} · ${t('export.heatmapCaption', { layer, head: headLabel, scale: view.scale })}`}
                    json={() =>
                      heatmapViewJson({
                        model: s.model,
                        scenario: s.scenario,
                        layer,
                        head,
                        scale: view.scale,
                        gamma: view.gamma,
                        colormap: view.colormap,
                        hideSink: view.hideSink,
                        tokens: data.labels,
                        spans: data.prompt.spans,
                        matrix,
                        size: data.tokens,
                        range: { min: scale.min, max: scale.max },
                      })
                    }
                  >
                    <Heatmap matrix={matrix} size={data.tokens} labels={data.labels} scale={scale} map={view.colormap} spans={data.prompt.spans} />
                    <Legend scale={scale} map={view.colormap} />
                  </ExportFrame>
                  <div style={{ color: '#555', fontSize: 12, maxWidth: 700 }}>
                    {t('legend.range', { max: scale.max.toPrecision(3), minQuery: DEFAULT_MIN_QUERY })}
                    {view.hideSink && <div>{t('legend.hiddenSink')}</div>}
                  </div>
                </div>
                <div style={{ flex: '1 1 420px', minWidth: 360 }}>
                  <SinkPanel attention={data.attention} labels={data.labels} />
                </div>
              </div>
            </section>
          )}
        </>
      )}
      {s.tab === 'step' && client.current && phase.kind === 'ready' && (
        <StepLab client={client.current} analysed={data} vocab={vocab} generationConfig={generationConfig} />
      )}
      {s.tab === 'ab' && client.current && phase.kind === 'ready' && (
        <AbLab client={client.current} analysed={data} scenario={s.scenario} custom={s.custom} generationConfig={generationConfig} vocab={vocab} />
      )}
      {s.tab === 'data' && <DataLab imports={imports} />}
      {s.tab === 'kv' && client.current && phase.kind === 'ready' && (
        <KvLab client={client.current} analysed={data} vocab={vocab} layers={data?.attention.length ?? 0} custom={s.custom} />
      )}
    </main>
  );
}

function stageLabel(t: ReturnType<typeof useT>, stage: string): string {
  const key = `stage.${stage}`;
  const known = ['downloading', 'loading runtime', 'reading checkpoint', 'building graph', 'compiling graph', 'ready'];
  return known.includes(stage) ? t(key as 'stage.ready') : stage;
}

function Alert({ children }: { children: React.ReactNode }) {
  return (
    <div role="alert" style={{ color: '#a00', background: '#fde2e1', padding: '6px 10px', borderRadius: 4, whiteSpace: 'pre-wrap' }}>
      {children}
    </div>
  );
}

function Tabs({ value, onChange }: { value: Tab; onChange: (t: Tab) => void }) {
  const t = useT();
  const tab = (id: Tab, label: string) => (
    <button
      key={id}
      role="tab"
      aria-selected={value === id}
      data-tab={id}
      onClick={() => onChange(id)}
      style={{
        padding: '6px 16px',
        border: 'none',
        borderBottom: value === id ? '3px solid #333' : '3px solid transparent',
        background: 'none',
        fontWeight: value === id ? 600 : 400,
        fontSize: 15,
        cursor: 'pointer',
      }}
    >
      {label}
    </button>
  );
  return (
    <div role="tablist" style={{ display: 'flex', gap: 4, borderBottom: '1px solid #ccc' }}>
      {tab('attention', t('tab.attention'))}
      {tab('step', t('tab.step'))}
      {tab('ab', t('tab.ab'))}
      {tab('kv', t('tab.kv'))}
      {tab('data', t('tab.data'))}
    </div>
  );
}

function LanguageSwitch({ lang, onChange }: { lang: 'en' | 'zh'; onChange: (l: 'en' | 'zh') => void }) {
  const t = useT();
  const btn = (l: 'en' | 'zh', label: string) => (
    <button
      key={l}
      lang={l === 'zh' ? 'zh-CN' : 'en'}
      aria-pressed={lang === l}
      data-lang={l}
      onClick={() => onChange(l)}
      style={{ padding: '2px 10px', border: '1px solid #888', background: lang === l ? '#333' : '#fff', color: lang === l ? '#fff' : '#333', cursor: 'pointer' }}
    >
      {label}
    </button>
  );
  return (
    <div role="group" aria-label={t('app.language')} style={{ display: 'flex', gap: 0 }}>
      {btn('en', 'English')}
      {btn('zh', '简体中文')}
    </div>
  );
}
