'use client';
// Generation from the stepper's cursor: greedy or sampling with the model's generation_config.json
// settings (editable: temperature, top-k, top-p, seed, token limit), start / stop, progress, and the output
// read by parseAssistantText as reasoning, answer text and tool calls (parse errors shown). The running
// itself is StepLab's; this is the form and the reading.
import type { GenField, GenForm } from '../../lib/generate/genForm';
import type { ParsedAssistant } from '../../lib/prompt/assistantOutput';
import { SEGMENT_COLORS } from '../../lib/view/palette';
import { useDescribe, useT } from '../common/i18n';
import type { TaskFailure } from '../../lib/util/latestTask';

export interface GenRun {
  running: boolean;
  made: number;
  max: number;
  stopped?: 'eos' | 'limit' | 'aborted' | 'callback';
  /** Why the run failed (show it with useDescribe). */
  error?: TaskFailure;
}

export interface GenerationPanelProps {
  form: GenForm;
  onForm: (f: GenForm) => void;
  errors: GenField[];
  /** Where generation would start (the cursor). */
  cursor: number;
  promptLength: number;
  /** generation_config.json status: read, absent, or its error. */
  configNote: string;
  run: GenRun | null;
  /** Start of the generated part of the timeline, or null. */
  genStart: number | null;
  parsed: ParsedAssistant | null;
  rawText: string;
  disabled: boolean;
  onGenerate: () => void;
  onStop: () => void;
  onBackToPrompt: () => void;
}

const FIELD: React.CSSProperties = { width: 70, marginLeft: 4 };

export function GenerationPanel(p: GenerationPanelProps) {
  const t = useT();
  const describe = useDescribe();
  const { form, onForm, errors, run } = p;
  const field = (key: GenField, label: string, extra: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <label style={{ whiteSpace: 'nowrap' }}>
      {label}
      <input
        data-gen-field={key}
        type="number"
        value={form[key]}
        aria-invalid={errors.includes(key)}
        onChange={(e) => onForm({ ...form, [key]: e.target.value })}
        disabled={run?.running}
        style={{ ...FIELD, outline: errors.includes(key) ? '2px solid var(--c-error)' : undefined }}
        {...extra}
      />
    </label>
  );
  const sampling = form.mode === 'sample';
  const stoppedText = run?.stopped ? t(`step.genStopped.${run.stopped}`) : '';
  return (
    <section data-role="generation" className="panel" aria-label={t('step.genTitle')} style={{ display: 'grid', gap: 'var(--sp-2)' }}>
      <h3 style={{ margin: 0, fontSize: 'var(--fs-md)' }}>{t('step.genTitle')}</h3>
      <div style={{ background: 'var(--c-warn-soft)', padding: '4px 8px', borderRadius: 'var(--radius)', fontSize: 'var(--fs-sm)' }} data-role="gen-real-note">
        {t('step.genRealNote')}
      </div>
      <div className="controls">
        <span role="radiogroup" aria-label={t('step.genMode')} style={{ display: 'inline-flex', gap: 10 }}>
          <label>
            <input type="radio" name="gen-mode" data-gen-mode="greedy" checked={!sampling} disabled={run?.running} onChange={() => onForm({ ...form, mode: 'greedy' })} /> {t('step.genGreedy')}
          </label>
          <label>
            <input type="radio" name="gen-mode" data-gen-mode="sample" checked={sampling} disabled={run?.running} onChange={() => onForm({ ...form, mode: 'sample' })} /> {t('step.genSample')}
          </label>
        </span>
        <span style={{ opacity: sampling ? 1 : 0.45, display: 'inline-flex', gap: 12 }} title={sampling ? undefined : t('step.genIgnored')}>
          {field('temperature', t('step.genTemperature'), { step: 0.05, min: 0.05 })}
          {field('topK', t('step.genTopK'), { step: 1, min: 0 })}
          {field('topP', t('step.genTopP'), { step: 0.01, min: 0.01, max: 1 })}
        </span>
        {field('seed', t('step.genSeed'), { step: 1, min: 0 })}
        <button type="button" disabled={run?.running} onClick={() => onForm({ ...form, seed: String(Math.floor(Math.random() * 1e6)) })} title={t('step.genNewSeed')}>
          {t('step.genNewSeedShort')}
        </button>
        {field('maxNewTokens', t('step.genMax'), { step: 1, min: 1 })}
      </div>
      <div className="muted small">{p.configNote}</div>
      {errors.length > 0 && (
        <div role="alert" style={{ color: 'var(--c-error)', fontSize: 'var(--fs-sm)' }}>
          {errors.map((e) => t(`step.genErr.${e}`)).join(' · ')}
        </div>
      )}
      <div className="controls">
        {!run?.running ? (
          <button type="button" data-role="gen-start" className="primary" disabled={p.disabled || errors.length > 0} onClick={p.onGenerate} style={{ fontWeight: 600 }}>
            {t('step.genStart', { position: p.cursor })}
          </button>
        ) : (
          <button type="button" data-role="gen-stop" onClick={p.onStop} style={{ fontWeight: 600, color: 'var(--c-error)' }}>
            ■ {t('step.genStop')}
          </button>
        )}
        {p.genStart !== null && !run?.running && (
          <button type="button" data-role="gen-back" disabled={p.disabled} onClick={p.onBackToPrompt}>
            {t('step.genBack', { n: p.promptLength })}
          </button>
        )}
        {run?.running && (
          <span aria-live="polite">
            <progress value={run.made} max={run.max} style={{ width: 160, verticalAlign: 'middle' }} /> {t('step.genProgress', { made: run.made, max: run.max })}
          </span>
        )}
        {run && !run.running && (
          <span data-role="gen-status" data-stopped={run.stopped ?? 'error'}>
            {run.error ? t('error.prefix', { message: describe(run.error) }) : t('step.genDone', { made: run.made, why: stoppedText })}
          </span>
        )}
      </div>
      {p.cursor < p.promptLength && p.genStart === null && <div style={{ fontSize: 'var(--fs-xs)', color: 'var(--c-warn)' }}>{t('step.genMidPrompt', { position: p.cursor, total: p.promptLength })}</div>}
      {p.parsed && p.genStart !== null && <Output parsed={p.parsed} raw={p.rawText} genStart={p.genStart} />}
    </section>
  );
}

/** parseAssistantText's error texts (lib/prompt/assistantOutput.ts) in the interface language; unknown ones as they are. */
function callError(t: ReturnType<typeof useT>, error: string): string {
  if (error.startsWith('no </tool_call>')) return t('step.genErrUnclosed');
  if (error.startsWith('not valid JSON: ')) return t('step.genErrJson', { detail: error.slice('not valid JSON: '.length) });
  if (error === 'not a JSON object') return t('step.genErrObject');
  if (error === 'no "name" string') return t('step.genErrName');
  return error;
}

function Block({ title, colour, children, role }: { title: string; colour: string; children: React.ReactNode; role: string }) {
  return (
    <div data-role={role} style={{ borderLeft: `5px solid ${colour}`, padding: '2px 8px', background: '#fafafa' }}>
      <div style={{ fontSize: 12, color: '#555', fontWeight: 600 }}>{title}</div>
      <div style={{ whiteSpace: 'pre-wrap', font: '13px ui-monospace, monospace' }}>{children}</div>
    </div>
  );
}

function Output({ parsed, raw, genStart }: { parsed: ParsedAssistant; raw: string; genStart: number }) {
  const t = useT();
  return (
    <div data-role="gen-output" style={{ display: 'grid', gap: 6 }}>
      <div style={{ fontSize: 13, color: '#333' }}>
        {t('step.genOutputIntro', { start: genStart })} {parsed.complete ? t('step.genComplete') : t('step.genIncomplete')}
      </div>
      {parsed.think !== null && (
        <Block role="gen-think" title={t('step.genThink')} colour={SEGMENT_COLORS.think}>
          {parsed.think || t('step.genEmpty')}
        </Block>
      )}
      <Block role="gen-answer" title={t('step.genAnswer')} colour={SEGMENT_COLORS.answer}>
        {parsed.answer || t('step.genEmpty')}
      </Block>
      {parsed.toolCalls.map((c, i) => (
        <Block key={i} role="gen-tool-call" title={t('step.genToolCall', { n: i + 1 })} colour={SEGMENT_COLORS.tool_call}>
          <div>
            {t('step.genToolName')} <b data-role="tool-name">{c.name || '—'}</b>
          </div>
          {c.arguments !== undefined && (
            <div>
              {t('step.genToolArgs')} <span data-role="tool-args">{JSON.stringify(c.arguments, null, 2)}</span>
            </div>
          )}
          {c.error && (
            <div data-role="tool-error" style={{ color: '#a00' }}>
              {t('step.genToolError', { error: callError(t, c.error) })}
            </div>
          )}
          {c.error && <div style={{ color: '#555' }}>{c.raw}</div>}
        </Block>
      ))}
      <details>
        <summary style={{ fontSize: 12, cursor: 'pointer' }}>{t('step.genRaw')}</summary>
        <pre data-role="gen-raw" style={{ whiteSpace: 'pre-wrap', font: '12px ui-monospace, monospace', background: '#f4f4f4', padding: 6, margin: 0 }}>
          {raw}
        </pre>
      </details>
    </div>
  );
}
