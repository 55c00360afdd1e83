'use client';
// "Run the loop live": the model runs the agent loop of the study note from the scenario's first request
// (lib/agent/liveLoop runLoop on the page's engine worker), call by call. Each call's card shows the
// messages it sent that the previous call did not, its prompt tokens, the tokens the engine reused from its
// cache and recomputed (the engine's pastLength and length, drawn as a bar), the turn as it streams, the
// parsed tool calls with the simulated tools' results, and the decision. A finished run exports as a run log
// (lib/io/runlog) that the Data tab imports. Strings: lib/i18n/loop.ts.
import { useMemo, useState } from 'react';
import { runOf } from '../../lib/agent/run';
import { loopRunLog, type LoopCall, type LoopRun } from '../../lib/agent/liveLoop';
import { STATUS_POLICIES, type StatusPolicy } from '../../lib/agent/statusBar';
import type { EngineClient } from '../../lib/engine/client';
import { greedySettings, parseGenerationConfig, type SamplingSettings } from '../../lib/generate/sampling';
import { parseAssistantText } from '../../lib/prompt/assistantOutput';
import type { Prompt } from '../../lib/prompt/prompt';
import type { Vocab } from '../../lib/prompt/vocab';
import { serializeRunLog } from '../../lib/io/runlog';
import type { ChatMessage, ChatRequest } from '../../lib/scenarios/types';
import { STRINGS } from '../../lib/i18n';
import { ROLE_COLORS } from '../../lib/view/palette';
import { download } from '../common/exportRender';
import { useDescribe, useT, type T } from '../common/i18n';
import { useLiveLoop } from './useLiveLoop';

const REUSED = '#2b8a3e';
const RECOMPUTED = '#e8590c';
const MAX_CALLS = 20;
const MAX_NEW = 512;

export interface LiveLoopPanelProps {
  /** The page's engine client with a model loaded (null while none is). */
  client: EngineClient | null;
  /** The scenario's request; the loop starts from its first call's request (lib/agent/run runOf). */
  request: ChatRequest | null;
  /** The loaded model's id (the run log names it). */
  model: string;
  vocab: Vocab | null;
  generationConfig: unknown | null;
  /** The model's context (max_position_embeddings); the loop makes no call that would pass it. */
  contextLimit?: number | null;
  /** After each finished run (tests read it). */
  onRun?: (run: LoopRun<Prompt>) => void;
}

function readConfig(cfg: unknown): SamplingSettings {
  try {
    return parseGenerationConfig(cfg ?? undefined);
  } catch {
    return greedySettings();
  }
}

function describeSampling(s: SamplingSettings): string {
  return s.doSample ? `temperature ${s.temperature}, top-k ${s.topK || 'off'}, top-p ${s.topP}` : 'greedy';
}

const STATUS_LABEL: Record<StatusPolicy, 'loop.statusOff' | 'loop.statusReplace' | 'loop.statusAppend'> = { off: 'loop.statusOff', replace: 'loop.statusReplace', append: 'loop.statusAppend' };

export function LiveLoopPanel({ client, request, model, vocab, generationConfig, contextLimit = null, onRun }: LiveLoopPanelProps) {
  const t = useT();
  const describe = useDescribe();
  const first = useMemo(() => (request ? (runOf(request).calls[0]?.request ?? null) : null), [request]);
  const config = useMemo(() => readConfig(generationConfig), [generationConfig]);
  const [maxCalls, setMaxCalls] = useState('4');
  const [maxNew, setMaxNew] = useState('160');
  const [status, setStatus] = useState<StatusPolicy>('off');
  const [greedy, setGreedy] = useState(true);
  const [seed, setSeed] = useState('1');
  const loop = useLiveLoop(client, vocab, contextLimit, onRun);

  const calls = Number(maxCalls);
  const news = Number(maxNew);
  const seedN = Number(seed);
  const bad = [
    !(Number.isInteger(calls) && calls >= 1 && calls <= MAX_CALLS) && `${t('loop.maxCalls')} 1–${MAX_CALLS}`,
    !(Number.isInteger(news) && news >= 1 && news <= MAX_NEW) && `${t('loop.maxNew')} 1–${MAX_NEW}`,
    !greedy && !(Number.isInteger(seedN) && seedN >= 0) && `${t('loop.seed')} ≥ 0`,
  ].filter((x): x is string => Boolean(x));
  const sampling: SamplingSettings = greedy ? { ...config, doSample: false } : config;
  const canRun = Boolean(client && vocab && first) && !loop.running && bad.length === 0;

  const run = () => {
    if (!first || !canRun) return;
    void loop.start(first, { maxCalls: calls, maxNewTokens: news, status, sampling, seed: greedy ? 0 : seedN });
  };
  const exportLog = () => {
    if (!loop.run) return;
    const text = serializeRunLog(loopRunLog(loop.run, { model })) + '\n';
    download(new Blob([text], { type: 'application/json' }), `kvscope-loop-${model}-${loop.run.status}.json`);
  };

  const finished = loop.run;
  const totals = loop.calls.reduce((a, c) => ({ prompt: a.prompt + c.promptTokens, reused: a.reused + c.reused, recomputed: a.recomputed + c.recomputed, generated: a.generated + c.generatedIds.length }), { prompt: 0, reused: 0, recomputed: 0, generated: 0 });
  const widest = Math.max(1, ...loop.calls.map((c) => c.promptTokens));

  return (
    <section data-role="live-loop" data-running={loop.running ? 'true' : 'false'} data-calls={loop.calls.length} data-stop={finished?.stop ?? ''} aria-label={t('loop.aria')} style={{ display: 'grid', gap: 'var(--sp-2)' }}>
      <h2>{t('loop.title')}</h2>
      <p className="small" style={{ margin: 0 }}>{t('loop.intro')}</p>
      <p className="small muted" data-role="loop-shared-note" style={{ margin: 0 }}>{t('loop.sharedWorker')}</p>
      <div className="small muted">{first ? t('loop.first', { messages: first.messages.length, tools: first.tools?.length ?? 0 }) : t('loop.noFirst')}</div>
      <div className="controls" style={{ display: 'flex', gap: 'var(--sp-2) var(--sp-4)', flexWrap: 'wrap', alignItems: 'center' }}>
        <label>
          {t('loop.maxCalls')}{' '}
          <input data-role="loop-max-calls" type="number" min={1} max={MAX_CALLS} value={maxCalls} onChange={(e) => setMaxCalls(e.target.value)} style={{ width: 56 }} disabled={loop.running} />
        </label>
        <label>
          {t('loop.maxNew')}{' '}
          <input data-role="loop-max-new" type="number" min={1} max={MAX_NEW} value={maxNew} onChange={(e) => setMaxNew(e.target.value)} style={{ width: 64 }} disabled={loop.running} />
        </label>
        <label title={t('loop.statusHelp')}>
          {t('loop.status')}{' '}
          <select data-role="loop-status" value={status} onChange={(e) => setStatus(e.target.value as StatusPolicy)} disabled={loop.running}>
            {STATUS_POLICIES.map((p) => (
              <option key={p} value={p}>
                {t(STATUS_LABEL[p])}
              </option>
            ))}
          </select>
        </label>
        <label>
          <input data-role="loop-greedy" type="checkbox" checked={greedy} onChange={(e) => setGreedy(e.target.checked)} disabled={loop.running} /> {t('loop.greedy')}
        </label>
        <label>
          {t('loop.seed')} <input data-role="loop-seed" type="number" min={0} value={seed} onChange={(e) => setSeed(e.target.value)} style={{ width: 72 }} disabled={loop.running || greedy} />
        </label>
        <button type="button" className="primary" data-role="loop-run" onClick={run} disabled={!canRun}>
          {t('loop.run')}
        </button>
        <button type="button" data-role="loop-stop" onClick={loop.stop} disabled={!loop.running}>
          {t('loop.stop')}
        </button>
        <button type="button" data-role="loop-export" onClick={exportLog} disabled={loop.running || !finished || finished.calls.length === 0} title={t('loop.exportTitle')}>
          {t('loop.export')}
        </button>
      </div>
      <div className="small muted">
        {t('loop.samplingNote', { summary: describeSampling(sampling) })} · {t('loop.statusHelp')}
      </div>
      {!client || !vocab ? <div className="small muted">{t('loop.noEngine')}</div> : null}
      {bad.length > 0 && <div role="status" className="small" style={{ color: 'var(--c-warn)' }}>{t('loop.badInput', { what: bad.join('; ') })}</div>}
      <div role="status" data-role="loop-state" className="small">
        {loop.error ? <span style={{ color: 'var(--c-error)' }}>{t('loop.error', { message: describe(loop.error) })}</span> : loop.running ? t('loop.running', { n: (loop.streaming?.index ?? loop.calls.length) + 1 }) : finished ? stopLine(t, describe, finished) : null}
      </div>
      {loop.calls.length > 0 && (
        <div className="small" data-role="loop-totals">
          {t('loop.totals', { calls: loop.calls.length, prompt: totals.prompt, reused: totals.reused, share: totals.prompt ? ((100 * totals.reused) / totals.prompt).toFixed(1) : '0.0', recomputed: totals.recomputed, generated: totals.generated })}{' '}
          <Legend t={t} />
        </div>
      )}
      <div style={{ display: 'flex', gap: 'var(--sp-3)', overflowX: 'auto', alignItems: 'flex-start', paddingBottom: 4 }}>
        {loop.calls.map((c) => (
          <CallCard key={c.index} call={c} previous={loop.calls[c.index - 1] ?? null} widest={widest} t={t} />
        ))}
        {loop.running && loop.streaming && loop.decode && loop.streaming.index >= loop.calls.length && (
          <StreamingCard index={loop.streaming.index} text={loop.decode(loop.streaming.ids)} count={loop.streaming.ids.length} t={t} />
        )}
      </div>
    </section>
  );
}

function stopLine(t: T, describe: (v: unknown) => string, run: LoopRun<Prompt>): string {
  const n = run.calls.length;
  if (run.stop === 'final') return t('loop.stopFinal', { n });
  if (run.stop === 'max-calls') return t('loop.stopMax', { n });
  if (run.stop === 'aborted') return t('loop.stopAborted');
  return t('loop.stopContext', { reason: describe(run.stopMessage) });
}

function Legend({ t }: { t: T }) {
  const sw = (c: string) => <span style={{ display: 'inline-block', width: 10, height: 10, background: c, borderRadius: 2, marginRight: 3, verticalAlign: -1 }} />;
  return (
    <span className="muted">
      {sw(REUSED)}
      {t('loop.legendReused')} {sw(RECOMPUTED)}
      {t('loop.legendRecomputed')}
    </span>
  );
}

const card = { flex: '0 0 360px', width: 360, gridTemplateColumns: 'minmax(0, 1fr)', overflow: 'hidden', border: '1px solid var(--c-border)', borderRadius: 'var(--radius)', background: 'var(--c-panel)', padding: 'var(--sp-2)', fontSize: 'var(--fs-xs)', display: 'grid', gap: 4 } as const;

function CallCard({ call: c, previous, widest, t }: { call: LoopCall<Prompt>; previous: LoopCall<Prompt> | null; widest: number; t: T }) {
  const msgs = c.request.messages;
  const from = c.index === 0 ? 0 : c.changedFrom;
  const pct = (n: number) => `${(100 * n) / widest}%`;
  return (
    <div
      data-role="loop-call"
      data-call={c.index + 1}
      data-prompt-tokens={c.promptTokens}
      data-reused={c.reused}
      data-recomputed={c.recomputed}
      data-generated={c.generatedIds.length}
      data-decision={c.stopped === 'aborted' ? 'aborted' : c.decision}
      style={card}
    >
      <strong style={{ fontSize: 'var(--fs-sm)' }}>
        {t('loop.call', { n: c.index + 1 })} · {t('loop.callPrompt', { messages: msgs.length, tokens: c.promptTokens })}
      </strong>
      <div
        data-role="loop-bar"
        title={t('loop.barTitle', { held: c.cachedBefore, common: c.commonPrefix, prev: previous ? c.prefixWithPrevious : 0 })}
        style={{ display: 'flex', height: 12, background: 'var(--c-bg)', borderRadius: 2, overflow: 'hidden' }}
      >
        <div style={{ width: pct(c.reused), background: REUSED }} />
        <div style={{ width: pct(c.recomputed), background: RECOMPUTED }} />
      </div>
      <div style={{ fontVariantNumeric: 'tabular-nums' }}>
        <span style={{ color: REUSED, fontWeight: 600 }}>{t('loop.reused', { n: c.reused })}</span> · <span style={{ color: RECOMPUTED, fontWeight: 600 }}>{t('loop.recomputed', { n: c.recomputed })}</span>
      </div>
      <div className="muted">{c.index === 0 ? t('loop.allNew') : from >= msgs.length ? t('loop.noneChanged') : t('loop.newMessages', { from })}</div>
      <div>
        {msgs.slice(from).map((m, k) => (
          <MessageRow key={from + k} m={m} j={from + k} status={c.statusIndex === from + k} t={t} />
        ))}
      </div>
      <div className="muted">
        {t('loop.generated', { n: c.generatedIds.length })} ({t(c.stopped === 'eos' ? 'loop.stoppedEos' : c.stopped === 'aborted' ? 'loop.stoppedAborted' : 'loop.stoppedLimit')})
      </div>
      <pre data-role="loop-text" style={{ margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxHeight: 160, overflowY: 'auto', background: 'var(--c-bg)', padding: 4, borderRadius: 3 }}>
        {c.text}
      </pre>
      {c.toolResults.length > 0 && (
        <div data-role="loop-tools">
          <div className="muted">{t('loop.toolCalls')}</div>
          {c.toolResults.map((r) => (
            <div key={r.id} data-tool={r.name} style={{ borderLeft: `3px solid ${r.error ? 'var(--c-error)' : ROLE_COLORS.tool}`, paddingLeft: 4, margin: '2px 0' }}>
              <code>
                {r.name}({typeof r.arguments === 'string' ? r.arguments : JSON.stringify(r.arguments ?? {})})
              </code>
              {r.error && <strong style={{ color: 'var(--c-error)' }}> {t('loop.toolError')}</strong>}
              <div style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={r.content}>
                → {r.content}
              </div>
            </div>
          ))}
        </div>
      )}
      <strong data-role="loop-decision">
        {c.stopped === 'aborted' ? t('loop.decisionAborted') : c.decision === 'final' ? t('loop.decisionFinal') : t('loop.decisionTools', { n: c.toolResults.length })}
      </strong>
    </div>
  );
}

function StreamingCard({ index, text, count, t }: { index: number; text: string; count: number; t: T }) {
  const parsed = parseAssistantText(text);
  return (
    <div data-role="loop-streaming" data-call={index + 1} style={{ ...card, borderStyle: 'dashed' }}>
      <strong style={{ fontSize: 'var(--fs-sm)' }}>{t('loop.call', { n: index + 1 })}</strong>
      <div className="muted">{t('loop.generating', { n: count })}</div>
      <pre data-role="loop-text" style={{ margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxHeight: 160, overflowY: 'auto', background: 'var(--c-bg)', padding: 4, borderRadius: 3 }}>
        {text}
      </pre>
      {parsed.toolCalls.length > 0 && <div className="muted">{t('loop.toolCalls')}: {parsed.toolCalls.map((x) => x.name || '?').join(', ')}</div>}
    </div>
  );
}

function MessageRow({ m, j, status, t }: { m: ChatMessage; j: number; status: boolean; t: T }) {
  const calls = m.role === 'assistant' && m.tool_calls ? m.tool_calls.map((c) => `${c.function.name}(${c.function.arguments})`).join(' ') : '';
  const text = [typeof m.content === 'string' ? m.content : '', calls].filter(Boolean).join(' ');
  return (
    <div data-message-role={m.role} data-status={status ? 'true' : 'false'} style={{ display: 'flex', gap: 6, padding: '2px 4px', margin: '2px 0', background: 'var(--c-new)', borderRadius: 3 }}>
      <span style={{ background: ROLE_COLORS[m.role] ?? '#ddd', borderRadius: 3, padding: '0 4px', minWidth: 58, textAlign: 'center' }}>{`role.${m.role}` in STRINGS ? t(`role.${m.role}` as keyof typeof STRINGS) : m.role}</span>
      <span style={{ flex: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={text}>
        [{j}] {text}
      </span>
    </div>
  );
}
