'use client';
// The lab page: loads the embedded model in the engine worker (with progress), renders a built-in
// scenario through the chat template in the worker, and draws one layer's attention as a heatmap.
import { useEffect, useMemo, useRef, useState } from 'react';
import { EngineClient } from '../lib/engine/client';
import type { LoadParams } from '../lib/engine/protocol';
import type { Tensor } from '../lib/engine/session';
import type { PromptResult } from '../lib/engine/promptHook';
import { colourDomainMax, hideSinkColumn, reduceHeads } from '../lib/analysis/attentionView';
import { DEFAULT_MIN_QUERY, topReceivers } from '../lib/analysis/sink';
import type { Prompt } from '../lib/prompt/prompt';
import { displayToken } from '../lib/prompt/label';
import { SCENARIOS, scenarioRequest } from '../lib/scenarios';
import { COLORMAP_NAMES, makeScale, type ColormapName, type ScaleKind } from '../lib/view/colormap';
import { Heatmap } from './Heatmap';
import { Legend } from './Legend';
import { SinkPanel } from './SinkPanel';
import { MessageInspector } from './MessageInspector';
import { runOf, type Run } from '../lib/agent/run';
import { TokenView } from './TokenView';

const MODEL = '/models/kvscope-tiny/';


interface Loaded {
  run: Run;
  callPrompts: Prompt[];
  prompt: Prompt;
  labels: string[];
  attention: Tensor[];
  tokens: number;
}

export function Lab() {
  const client = useRef<EngineClient | null>(null);
  const [progress, setProgress] = useState<{ stage: string; fraction: number }>({ stage: 'downloading model', fraction: 0 });
  const [ready, setReady] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [scenario, setScenario] = useState('vancouver');
  const [data, setData] = useState<Loaded | null>(null);
  const [layer, setLayer] = useState(0);
  const [head, setHead] = useState<'mean' | 'max' | number>('mean');
  const [kind, setKind] = useState<ScaleKind>('power');
  const [map, setMap] = useState<ColormapName>('viridis');
  const [hideSink, setHideSink] = useState(false);

  useEffect(() => {
    const c = new EngineClient(() => new Worker(new URL('../workers/engine.worker.ts', import.meta.url), { type: 'module' }));
    client.current = c;
    (async () => {
      const get = (f: string) => fetch(MODEL + f);
      const [config, weights, tokenizer, tokenizerConfig] = await Promise.all([
        get('config.json').then((r) => r.text()),
        get('model.safetensors').then((r) => r.arrayBuffer()),
        get('tokenizer.json').then((r) => r.json()),
        get('tokenizer_config.json').then((r) => r.json()),
      ]);
      await c.load({ config, shards: [new Uint8Array(weights)], tokenizer, tokenizerConfig, provider: 'wasm', numThreads: Math.min(4, navigator.hardwareConcurrency || 1) } as LoadParams, {
        onProgress: (stage, fraction) => setProgress({ stage, fraction }),
      });
      setReady(true);
    })().catch((e: Error) => setError(e.message));
    return () => c.terminate();
  }, []);

  useEffect(() => {
    const c = client.current;
    if (!ready || !c) return;
    let stale = false;
    (async () => {
      const r = (await c.prompt(scenarioRequest(scenario), { addGenerationPrompt: true })) as PromptResult;
      if (!r.ok) throw new Error(r.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
      // Each call of the agent loop, rendered by the same template (for the inspector's token counts).
      const agentRun = runOf(scenarioRequest(scenario));
      const callPrompts: Prompt[] = [];
      for (const call of agentRun.calls) {
        const cr = (await c.prompt(call.request, { addGenerationPrompt: true })) as PromptResult;
        if (!cr.ok) throw new Error(cr.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
        callPrompts.push(cr.prompt);
      }
      const run = (await c.prefill(r.prompt.ids)) as { attention: Tensor[] };
      if (!stale) setData({ run: agentRun, callPrompts, prompt: r.prompt, labels: r.prompt.tokens.map(displayToken), attention: run.attention, tokens: r.prompt.ids.length });
    })().catch((e: Error) => setError(e.message));
    return () => {
      stale = true;
    };
  }, [ready, scenario]);

  // The matrix shown: lib/analysis reductions of the engine's tensor, nothing recomputed here.
  const matrix = useMemo(() => {
    const t = data?.attention[layer];
    if (!t) return null;
    const m = reduceHeads(t, head);
    const T = m.dims[0]!;
    return hideSink ? hideSinkColumn(m.data, T, T, 0) : m.data;
  }, [data, layer, head, hideSink]);
  // Colour range from rows q ≥ minQuery: early rows see few keys and would push the rest into the dark end.
  const scale = useMemo(() => {
    const T = data?.tokens ?? 0;
    const max = matrix ? colourDomainMax(matrix, T, T, DEFAULT_MIN_QUERY) : 1;
    return makeScale({ kind, min: 0, max: max || 1 });
  }, [matrix, kind, data]);
  const [selected, setSelected] = useState<number | null>(null);
  const heads = data?.attention[0]?.dims[0] ?? 0;

  return (
    <main style={{ padding: 16, display: 'grid', gap: 12 }}>
      <header style={{ display: 'flex', gap: 16, alignItems: 'baseline' }}>
        <h1 style={{ margin: 0, fontSize: 22 }}>kvscope</h1>
        <span style={{ color: '#555' }}>what a language model sees and keeps while it runs an agent loop</span>
      </header>
      {!ready && !error && (
        <div aria-live="polite">
          <progress value={progress.fraction} max={1} style={{ width: 320 }} /> <span>loading kvscope-tiny: {progress.stage}</span>
        </div>
      )}
      {error && <div role="alert" style={{ color: '#a00' }}>error: {error}</div>}
      <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap', alignItems: 'center' }}>
        <label>
          scenario{' '}
          <select value={scenario} onChange={(e) => setScenario(e.target.value)}>
            {SCENARIOS.map((s) => (
              <option key={s.id} value={s.id}>{s.title.en}</option>
            ))}
          </select>
        </label>
        <label>
          layer{' '}
          <select value={layer} onChange={(e) => setLayer(Number(e.target.value))}>
            {(data?.attention ?? []).map((_, l) => (
              <option key={l} value={l}>{l}</option>
            ))}
          </select>
        </label>
        <label>
          head{' '}
          <select value={String(head)} onChange={(e) => setHead(e.target.value === 'mean' || e.target.value === 'max' ? e.target.value : Number(e.target.value))}>
            <option value="mean">mean</option>
            <option value="max">max</option>
            {Array.from({ length: heads }, (_, h) => (
              <option key={h} value={h}>{h}</option>
            ))}
          </select>
        </label>
        <label>
          scale{' '}
          <select value={kind} onChange={(e) => setKind(e.target.value as ScaleKind)}>
            <option value="linear">linear</option>
            <option value="log">log</option>
            <option value="power">power (γ 0.5)</option>
          </select>
        </label>
        <label>
          colours{' '}
          <select value={map} onChange={(e) => setMap(e.target.value as ColormapName)}>
            {COLORMAP_NAMES.map((m) => (
              <option key={m} value={m}>{m}</option>
            ))}
          </select>
        </label>
        <label>
          <input type="checkbox" checked={hideSink} onChange={(e) => setHideSink(e.target.checked)} /> hide first-token column and renormalise
        </label>
      </div>
      <div id="status" data-ready={data && matrix ? 'true' : 'false'} style={{ color: '#333' }}>
        {data ? `${data.tokens} tokens · layer ${layer} · ${head === 'mean' ? 'mean of heads' : head === 'max' ? 'max over heads' : `head ${head}`} · rows: query tokens, columns: key tokens` : ready ? 'running the model…' : ''}
      </div>
      {data && <MessageInspector run={data.run} prompts={data.callPrompts} />}
      {data && (
        <section aria-label="tokens">
          <h2 style={{ fontSize: 16, margin: '4px 0' }}>Tokens, as the chat template renders them</h2>
          <TokenView tokens={data.prompt.tokens} spans={data.prompt.spans} selected={selected} onSelect={setSelected} height={220} />
          <div id="selection" style={{ fontSize: 13, color: '#333', marginTop: 4 }}>
            {selected === null || !matrix
              ? 'click a token (or focus the box and use ← →) to read its attention row'
              : `query ${selected} ${data.labels[selected]}: largest weights → ${topReceivers(Float64Array.from(matrix.subarray(selected * data.tokens, selected * data.tokens + selected + 1)), 5)
                  .map((k) => `${k.key} ${data.labels[k.key]} ${k.weight.toFixed(3)}`)
                  .join(' · ')}`}
          </div>
        </section>
      )}
      {data && matrix && (
        <>
          <Heatmap matrix={matrix} size={data.tokens} labels={data.labels} scale={scale} map={map} />
          <Legend scale={scale} map={map} />
          <div style={{ color: '#555', fontSize: 12 }}>
            colour range 0 – {scale.max.toPrecision(3)}: the largest weight in query rows ≥ {DEFAULT_MIN_QUERY}; earlier rows see few keys and may exceed it (drawn at the top colour)
          </div>
          <SinkPanel attention={data.attention} labels={data.labels} />
        </>
      )}
    </main>
  );
}
