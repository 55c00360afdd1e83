'use client';
// A preflight report (lib/model/preflight.ts) as the dialog shows it: the checkpoint's shape, parameters,
// dtypes, download size and memory, then per runtime whether this browser can run it and why, then notes;
// refusals first and prominent. Below it, Load, or why Load is off.
import { formatBytes } from '../../lib/analysis/kvBytes';
import type { PreflightReason, PreflightReport, ProviderVerdict } from '../../lib/model/preflight';
import type { LoadPlan } from '../../lib/state/modelChoice';
import { formatInt } from '../../lib/view/scale';
import { useLang, useT } from '../common/i18n';
import { reasonSentence } from './reasonText';

const LEVEL_COLOUR = { fail: 'var(--c-error)', warn: 'var(--c-warn)', info: 'var(--c-muted)' } as const;

function Reasons({ reasons }: { reasons: readonly PreflightReason[] }) {
  const lang = useLang();
  return (
    <ul style={{ margin: '2px 0 0', paddingLeft: 18 }}>
      {reasons.map((r, i) => (
        <li key={i} data-code={r.code} data-level={r.level} style={{ color: LEVEL_COLOUR[r.level] }}>
          {reasonSentence(lang, r)}
        </li>
      ))}
    </ul>
  );
}

function Verdict({ name, verdict }: { name: string; verdict: ProviderVerdict }) {
  const t = useT();
  const head = verdict.ok ? (verdict.maxTokens !== null ? t('report.okUpTo', { tokens: formatInt(verdict.maxTokens) }) : t('report.ok')) : t('report.no');
  return (
    <div data-role="preflight-verdict" data-provider={name} data-ok={verdict.ok ? 'true' : 'false'} style={{ minWidth: 0 }}>
      <strong>{name}</strong>: <span style={{ color: verdict.ok ? 'inherit' : 'var(--c-error)' }}>{head}</span>
      <Reasons reasons={verdict.reasons} />
    </div>
  );
}

/** Parameters as "596,049,920 (0.60 B)": exact, and the size people name models by. */
function paramsText(n: number): string {
  return `${formatInt(n)} (${n >= 1e9 ? (n / 1e9).toFixed(2) + ' B' : (n / 1e6).toFixed(n >= 1e8 ? 0 : 1) + ' M'})`;
}

/** `label`: what the user picked, as the page names it (the report's own label is the source's English one). */
export function PreflightView({ report, label = report.label }: { report: PreflightReport; label?: string }) {
  const t = useT();
  const m = report.model;
  const rows: [string, string][] = [];
  if (m) rows.push([t('report.architecture'), `${m.architecture || m.modelType} · ${t('report.shape', { layers: m.layers, heads: m.heads, kvHeads: m.kvHeads, headDim: m.headDim, hidden: formatInt(m.hidden), vocab: formatInt(m.vocab) })}`]);
  if (report.parameters !== null) rows.push([t('report.parameters'), paramsText(report.parameters)]);
  if (report.dtypes.length > 0) rows.push([t('report.dtype'), report.dtypes.join(', ')]);
  rows.push([
    t('report.download'),
    t(report.downloadSizeKnown ? 'report.downloadValue' : 'report.downloadUnknown', { bytes: formatBytes(report.downloadBytes), count: report.files.length }),
  ]);
  if (report.weights) rows.push([t('report.weights'), t('report.weightsValue', { bytes: formatBytes(report.weights.engineBytes), type: report.weights.engineType })]);
  if (report.kvBytesPer1kTokens !== null) rows.push([t('report.kv'), formatBytes(report.kvBytesPer1kTokens)]);
  for (const a of report.attention ?? []) {
    rows.push([t('report.attention', { tokens: formatInt(a.tokens) }), t('report.attentionValue', { reduced: formatBytes(a.allLayersReduced), perHead: formatBytes(a.oneLayerPerHead) })]);
  }
  for (const e of report.estimates) {
    rows.push([t('report.memory', { tokens: formatInt(e.tokens) }), t('report.memoryValue', { wasm: formatBytes(e.wasmHeap), tab: formatBytes(e.tab), gpu: formatBytes(e.gpu) })]);
  }
  return (
    <section data-role="preflight-report" data-supported={report.supported ? 'true' : 'false'} aria-label={t('report.title', { label })} style={{ display: 'grid', gap: 'var(--sp-2)', fontSize: 'var(--fs-sm)' }}>
      <strong>{t('report.title', { label })}</strong>
      {!report.supported && (
        <div role="alert" data-role="preflight-refused" style={{ background: 'var(--c-error-soft)', padding: '6px 10px', borderRadius: 'var(--radius)' }}>
          <strong style={{ color: 'var(--c-error)' }}>{t('report.refused')}</strong>
          <Reasons reasons={report.refusals} />
        </div>
      )}
      <dl style={{ display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', gap: '2px var(--sp-3)', margin: 0 }}>
        {rows.map(([k, v]) => (
          <div key={k} style={{ display: 'contents' }}>
            <dt className="muted">{k}</dt>
            <dd style={{ margin: 0, fontVariantNumeric: 'tabular-nums', overflowWrap: 'anywhere' }}>{v}</dd>
          </div>
        ))}
      </dl>
      {report.supported && (
        <div>
          <span className="muted">{t('report.verdicts')}</span>
          <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(280px, 1fr))', gap: 'var(--sp-2) var(--sp-4)' }}>
            <Verdict name="WebGPU" verdict={report.verdicts.webgpu} />
            <Verdict name="WASM" verdict={report.verdicts.wasm} />
          </div>
        </div>
      )}
      {report.notes.length > 0 && (
        <details>
          <summary className="muted">{t('report.notes')}</summary>
          <Reasons reasons={report.notes} />
        </details>
      )}
    </section>
  );
}

/** Load (on the runtime the plan names), or why it is off (the plan's reasons, or `blocked`: files the load needs are missing). */
export function LoadButton({ plan, blocked, onLoad }: { plan: LoadPlan; blocked?: string | null; onLoad: (provider: 'webgpu' | 'wasm' | null) => void }) {
  const t = useT();
  const lang = useLang();
  if (!plan.ok || blocked) {
    const why = blocked ?? (plan.ok ? '' : plan.reasons.map((r) => reasonSentence(lang, r)).join(' '));
    return (
      <div style={{ display: 'flex', gap: 'var(--sp-2)', alignItems: 'baseline', flexWrap: 'wrap' }}>
        <button type="button" className="primary" data-role="model-load" disabled title={why}>
          {t('models.load')}
        </button>
        <span data-role="model-load-reason" className="small" style={{ color: 'var(--c-error)' }}>
          {t('models.loadDisabled', { reason: why })}
        </span>
      </div>
    );
  }
  const name = plan.provider === 'webgpu' ? 'WebGPU' : 'WASM';
  return (
    <div>
      <button
        type="button"
        className="primary"
        data-role="model-load"
        data-provider={plan.provider}
        title={plan.switchTo ? t('models.loadOnTitle', { provider: name }) : undefined}
        onClick={() => onLoad(plan.switchTo)}
      >
        {plan.switchTo ? t('models.loadOn', { provider: name }) : t('models.load')}
      </button>
    </div>
  );
}
