'use client';
// Experiment 2-3 in the browser: the book's kv-cache agent in its six modes. Every call of every mode is
// rendered with the page's chat template (renderPrompt) and priced with lib/cache/accounting; this view
// chooses what to show and lays it out. The prefix tree of the selected mode follows (RadixTreeView).
import { useMemo, useState } from 'react';
import { breakPointAt, patternRun, PATTERN_MODES, type PatternMode } from '../../lib/agent/patterns';
import { accountCalls, BLOCK_SIZES, DEFAULT_ALPHA, DEFAULT_BLOCK_SIZE, type BlockSize } from '../../lib/cache/accounting';
import type { Prompt } from '../../lib/prompt/prompt';
import type { StringKey } from '../../lib/i18n';
import { AlphaInput, BatchStatus, batchSettled, FONT, MONO, useReportSettled } from './econParts';
import { parseAlpha } from '../../lib/view/growthChart';
import { CallStackChart, PatternSummaryChart } from './PatternCharts';
import { RadixTreeView } from './RadixTreeView';
import { TokenView } from '../attention/TokenView';
import { usePromptBatch, type RenderPrompt } from '../hooks/usePromptBatch';
import { useLang, useT } from '../common/i18n';
import { CallTable, type ModeResult } from './PatternCallTable';
import { useBoxWidth } from '../common/useBoxWidth';

const MAX_SEED = 0xffffffff;
const parseSeed = (s: string): number | null => (/^\s*\d+\s*$/.test(s) && Number(s) <= MAX_SEED ? Number(s) : null);

const SHORT: Record<PatternMode, StringKey> = {
  correct: 'econ.mode.correct',
  dynamic_system: 'econ.mode.dynamic_system',
  shuffled_tools: 'econ.mode.shuffled_tools',
  dynamic_profile: 'econ.mode.dynamic_profile',
  sliding_window: 'econ.mode.sliding_window',
  text_format: 'econ.mode.text_format',
};

/** The tokens of a prompt from message `message` on, spans shifted to match (the shared system prompt and tools left out). */
function fromMessage(p: Prompt, message: number): { start: number; tokens: Prompt['tokens']; spans: Prompt['spans'] } {
  const start = p.spans.find((s) => s.message === message)?.start ?? 0;
  return {
    start,
    tokens: p.tokens.slice(start),
    spans: p.spans.filter((s) => s.end > start).map((s) => ({ ...s, start: Math.max(0, s.start - start), end: s.end - start })),
  };
}

/** `onSettled`: told whether the prompts have been rendered (the tab's data-ready). */
export function PatternsPanel({ render, onSettled }: { render: RenderPrompt | null; onSettled?: (settled: boolean) => void }) {
  const t = useT();
  const lang = useLang();
  const [blockSize, setBlockSize] = useState<BlockSize>(DEFAULT_BLOCK_SIZE);
  const [alphaText, setAlphaText] = useState(String(DEFAULT_ALPHA));
  const [seedText, setSeedText] = useState('1');
  const [mode, setMode] = useState<PatternMode>('correct');
  const [alpha, setAlpha] = useState(DEFAULT_ALPHA);
  const [seed, setSeed] = useState(1);
  const alphaBad = parseAlpha(alphaText) === null;
  const seedBad = parseSeed(seedText) === null;

  const key = `seed:${seed}`;
  const requests = useMemo(() => PATTERN_MODES.flatMap((m) => patternRun(m, { seed }).calls.map((c) => c.request)), [seed]);
  const batch = usePromptBatch(render, key, requests);
  useReportSettled(batchSettled(batch), onSettled);

  // The runs the finished batch was rendered for (its seed, which may lag the input while a new one renders).
  const rendered = useMemo(() => {
    if (!batch.ready) return null;
    const s = Number(batch.ready.key.slice('seed:'.length));
    let k = 0;
    return {
      seed: s,
      modes: PATTERN_MODES.map((m) => {
        const run = patternRun(m, { seed: s });
        const prompts = batch.ready!.prompts.slice(k, k + run.calls.length);
        k += run.calls.length;
        return { mode: m, run, prompts };
      }),
    };
  }, [batch.ready]);

  const results: ModeResult[] | null = useMemo(
    () =>
      rendered?.modes.map(({ mode, run, prompts }) => {
        const accounting = accountCalls(
          prompts.map((p) => p.ids),
          { blockSize, alpha },
        );
        const breaks = accounting.calls.map((a, i) => (a.firstDifference === null ? null : breakPointAt(prompts[i]!, a.firstDifference)));
        return { mode, run, prompts, accounting, breaks };
      }) ?? null,
    [rendered, blockSize, alpha],
  );
  const sel = results?.find((r) => r.mode === mode) ?? null;
  const correct = results?.find((r) => r.mode === 'correct') ?? null;
  const [pick, setPick] = useState<{ a: number | null; b: number | null }>({ a: null, b: null });
  // The charts and the tree size themselves to the panel (no horizontal overflow at 1280 px or 1024 px).
  const [boxRef, width] = useBoxWidth<HTMLElement>(1200);
  // What every chart of the selected mode was computed with (their exports carry it too).
  const params = sel && rendered ? t('econ.paramsLine', { calls: sel.run.calls.length, block: blockSize, alpha, seed: rendered.seed }) : '';

  const inputStyle = { width: 90, fontFamily: MONO };
  return (
    <section ref={boxRef} className="panel" data-role="patterns-panel" aria-label={t('econ.patternsTitle')} style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 'var(--sp-3)', font: FONT }}>
      <h3 style={{ margin: 0 }}>{t('econ.patternsTitle')}</h3>
      <p style={{ margin: 0, maxWidth: '80em' }}>{t('econ.patternsIntro')}</p>
      <ul style={{ margin: 0, paddingLeft: 20, maxWidth: '80em' }}>
        <li>{t('econ.scripted')}</li>
        <li>{t('econ.costUnit')}</li>
      </ul>
      <div className="controls">
        <label>
          {t('econ.blockSize')}{' '}
          <select data-control="econ-block" value={blockSize} onChange={(e) => setBlockSize(Number(e.target.value) as BlockSize)}>
            {BLOCK_SIZES.map((b) => (
              <option key={b} value={b}>
                {t('econ.blockOption', { n: b })}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('econ.alpha')}{' '}
          <AlphaInput
            control="econ-alpha"
            text={alphaText}
            onChange={(text, a) => {
              setAlphaText(text);
              if (a !== null) setAlpha(a);
            }}
            style={inputStyle}
          />
        </label>
        <label>
          {t('econ.seed')}{' '}
          <input
            data-control="econ-seed"
            type="number"
            min={0}
            step={1}
            value={seedText}
            aria-invalid={seedBad}
            onChange={(e) => {
              setSeedText(e.target.value);
              const s = parseSeed(e.target.value);
              if (s !== null) setSeed(s);
            }}
            style={inputStyle}
          />
        </label>
        <span className="muted">{t('econ.seedNote')}</span>
        <BatchStatus batch={batch} what={t('econ.whatPatterns')} />
      </div>
      {alphaBad && <div role="alert" style={{ color: 'var(--c-error)' }}>{t('econ.alphaInvalid', { alpha })}</div>}
      {seedBad && <div role="alert" style={{ color: 'var(--c-error)' }}>{t('econ.seedInvalid', { max: MAX_SEED, seed })}</div>}
      {!render && <p className="muted" style={{ margin: 0 }}>{t('econ.waiting')}</p>}
      {results && sel && (
        <>
          <p data-role="pattern-params" className="muted" style={{ margin: 0 }}>
            {params}
          </p>
          <PatternSummaryChart rows={results} selected={mode} onSelect={setMode} context={params} width={width} />
          <div role="group" aria-label={t('econ.modePick')} className="controls" style={{ gap: 'var(--sp-1) var(--sp-2)' }}>
            <span>{t('econ.modePick')}</span>
            {PATTERN_MODES.map((m) => (
              <button key={m} type="button" aria-pressed={m === mode} data-control="econ-mode" data-mode={m} onClick={() => setMode(m)}>
                <code>{m}</code> <span style={{ opacity: 0.8 }}>· {t(SHORT[m])}</span>
              </button>
            ))}
          </div>
          <p data-role="pattern-description" style={{ margin: 0, maxWidth: '80em' }}>
            <code style={{ fontWeight: 700 }}>{sel.mode}</code>: {sel.run.description[lang]}
          </p>
          <div style={{ display: 'flex', flexWrap: 'wrap', gap: 'var(--sp-4)', alignItems: 'flex-start' }}>
            <CallStackChart accounting={sel.accounting} mode={sel.mode} context={params} />
            {/* The table wraps its text columns and, failing that, scrolls in its own box. */}
            <div style={{ flex: '1 1 520px', minWidth: 0, overflowX: 'auto' }}>
              <CallTable r={sel} lang={lang} />
            </div>
          </div>
          {sel.mode === 'text_format' && correct && (
            <div data-role="text-format-compare" style={{ display: 'grid', gap: 6 }}>
              <h4 style={{ margin: 'var(--sp-1) 0 0', fontSize: 'var(--fs-md)' }}>{t('econ.compareTitle')}</h4>
              <p style={{ margin: 0, maxWidth: '80em' }}>{t('econ.compareIntro')}</p>
              <div style={{ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: 'var(--sp-4)' }}>
                {[
                  { r: correct, side: 'a' as const, key: 'econ.compareCorrect' as const },
                  { r: sel, side: 'b' as const, key: 'econ.compareText' as const },
                ].map(({ r, side, key }) => {
                  const last = r.prompts.at(-1)!;
                  const part = fromMessage(last, 1);
                  return (
                    <div key={side} data-side={r.mode} style={{ minWidth: 0 }}>
                      <div style={{ fontWeight: 600, marginBottom: 4 }}>{t(key, { call: r.prompts.length, tokens: last.ids.length, start: part.start })}</div>
                      <TokenView tokens={part.tokens} spans={part.spans} selected={pick[side]} onSelect={(i) => setPick((p) => ({ ...p, [side]: i }))} height={340} />
                    </div>
                  );
                })}
              </div>
            </div>
          )}
          <RadixTreeView mode={sel.mode} prompts={sel.prompts} accounting={sel.accounting} context={params} width={width} />
        </>
      )}
    </section>
  );
}
