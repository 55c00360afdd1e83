'use client';
// Replace or append a status bar? (docs/CONCEPTS.md#status-bar-economics, book section "状态更新的两种实现与缓存代价"). S
// and R default to the real token counts of the Xfinity with-status scenario rendered with the page's chat
// template; the book's formulas, the token-level simulation (lib/cache/statusEconomics) and where they part.
import { useDeferredValue, useMemo, useState } from 'react';
import { exactStatusDifference, simulateStatus, statusCountsFromPrompt, statusEconomics, type StatusSimulation } from '../../lib/cache/statusEconomics';
import { messageTokenCounts } from '../../lib/prompt/prompt';
import { scenarioRegions, scenarioRequest } from '../../lib/scenarios';
import { BatchStatus, batchSettled, ECON_COLORS, fmtCost, FONT, MONO, useReportSettled } from './econParts';
import { StatusChart } from './StatusChart';
import { usePromptBatch, type RenderPrompt } from '../hooks/usePromptBatch';
import { useDescribe, useT } from '../common/i18n';
import { errorData } from '../../lib/i18n/message';
import type { TaskFailure } from '../../lib/util/latestTask';

const REQUEST = scenarioRequest('xfinity', 'with-status');
const REQUESTS = [REQUEST];
const REGIONS = scenarioRegions('xfinity', 'with-status');
const regionOf = (id: string) => REGIONS.find((r) => r.id === id)?.messages ?? [];
/** The status bar message (its own region); one interval = the first phone call + result and the first search + result. */
const STATUS_MESSAGE = regionOf('status_bar')[0] ?? REQUEST.messages.length - 1;
const INTERVAL = [...regionOf('phone_history').slice(0, 2), ...regionOf('search_distractors').slice(0, 2)].sort((a, b) => a - b);
/** The scenario's status counts three phone calls: three updates. */
const DEFAULT_N = 3;
const DEFAULT_M = 1;
const DEFAULT_ALPHA = 0.1;
const MAX_N = 1000;
const MAX_M = 5;
const EPS = 1e-6;

type Field = 'S' | 'R' | 'N' | 'alpha' | 'm';

function parseField(f: Field, s: string): number | null {
  const v = s.trim() === '' ? NaN : Number(s);
  if (f === 'alpha') return v >= 0 && v <= 1 ? v : null;
  if (!Number.isInteger(v) || v < 0) return null;
  if (f === 'N') return v >= 1 && v <= MAX_N ? v : null;
  if (f === 'm') return v <= MAX_M ? v : null;
  return v <= 100_000 ? v : null;
}

/** `onSettled`: told whether the prompt has been rendered (the tab's data-ready). */
export function StatusEconomicsPanel({ render, onSettled }: { render: RenderPrompt | null; onSettled?: (settled: boolean) => void }) {
  const t = useT();
  const batch = usePromptBatch(render, 'xfinity', REQUESTS);
  useReportSettled(batchSettled(batch), onSettled);
  const prompt = batch.ready?.prompts[0] ?? null;
  const measured = useMemo(() => {
    if (!prompt) return null;
    const { S, R } = statusCountsFromPrompt(prompt, STATUS_MESSAGE, INTERVAL);
    const c = messageTokenCounts(prompt);
    // Static prefix: tools block, system prompt and the task (cached before the first update).
    const P = c.tools + (c.messages[0] ?? 0) + (c.messages[1] ?? 0);
    return { S, R, P };
  }, [prompt]);
  const [edits, setEdits] = useState<Partial<Record<Field, string>>>({});
  const defaults: Record<Field, string> = { S: String(measured?.S ?? ''), R: String(measured?.R ?? ''), N: String(DEFAULT_N), alpha: String(DEFAULT_ALPHA), m: String(DEFAULT_M) };
  const text = (f: Field) => edits[f] ?? defaults[f];
  const values = Object.fromEntries((['S', 'R', 'N', 'alpha', 'm'] as Field[]).map((f) => [f, parseField(f, text(f))])) as Record<Field, number | null>;
  const ok = measured !== null && Object.values(values).every((v) => v !== null);
  const p = useMemo(
    () => (ok ? { S: values.S!, R: values.R!, N: values.N!, alpha: values.alpha!, m: values.m! } : null),
    [ok, values.S, values.R, values.N, values.alpha, values.m],
  );

  const econ = useMemo(() => (p ? statusEconomics({ S: p.S, R: p.R, N: p.N, alpha: p.alpha }) : null), [p]);
  const sim = useMemo((): { sim: StatusSimulation | null; error: TaskFailure | null } => {
    if (!p || !measured) return { sim: null, error: null };
    try {
      return { sim: simulateStatus({ S: p.S, R: p.R, N: p.N, alpha: p.alpha, prefix: measured.P, callsBetween: p.m }), error: null };
    } catch (e) {
      return { sim: null, error: errorData(e) };
    }
  }, [p, measured]);
  const chartParams = useDeferredValue(p);

  const field = (f: Field, label: string, hint: string, step = 1) => (
    <label style={{ display: 'grid', gap: 2 }}>
      <span>
        {label} <span className="muted">{hint}</span>
      </span>
      <input
        data-control={`status-${f}`}
        type="number"
        step={step}
        min={f === 'N' ? 1 : 0}
        max={f === 'alpha' ? 1 : undefined}
        value={text(f)}
        disabled={!measured}
        aria-invalid={values[f] === null}
        onChange={(e) => setEdits((x) => ({ ...x, [f]: e.target.value }))}
        style={{ width: 110, fontFamily: MONO, borderColor: values[f] === null && measured ? 'var(--c-error)' : undefined }}
      />
    </label>
  );

  return (
    <section className="panel" data-role="status-econ-panel" aria-label={t('econ.statusTitle')} style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 'var(--sp-2)', font: FONT }}>
      <h3 style={{ margin: 0 }}>{t('econ.statusTitle')}</h3>
      <p style={{ margin: 0, maxWidth: '80em' }}>{t('econ.statusIntro')}</p>
      <BatchStatus batch={batch} what={t('econ.whatStatus')} />
      {!render && <p className="muted" style={{ margin: 0 }}>{t('econ.waiting')}</p>}
      {measured && (
        <>
          <p data-role="status-measured" data-s={measured.S} data-r={measured.R} style={{ margin: 0, maxWidth: '80em' }}>
            {t('econ.statusMeasured', { S: measured.S, status: STATUS_MESSAGE, R: measured.R, interval: INTERVAL.join(', '), P: measured.P })}
          </p>
          <div className="controls" style={{ alignItems: 'end' }}>
            {field('S', 'S', t('econ.hintS'))}
            {field('R', 'R', t('econ.hintR'))}
            {field('N', 'N', t('econ.hintN'))}
            {field('alpha', 'α', t('econ.hintAlpha'), 0.05)}
            {field('m', 'm', t('econ.hintM', { max: MAX_M }))}
            <button data-control="status-reset" onClick={() => setEdits({})} disabled={Object.keys(edits).length === 0}>
              {t('econ.statusReset')}
            </button>
          </div>
          {!ok && <div role="alert" style={{ color: 'var(--c-error)' }}>{t('econ.statusInvalid', { maxN: MAX_N, maxM: MAX_M })}</div>}
        </>
      )}
      {p && econ && <StatusResults p={p} econ={econ} sim={sim.sim} simError={sim.error} />}
      {chartParams && <StatusChart S={chartParams.S} R={chartParams.R} N={chartParams.N} alpha={chartParams.alpha} m={chartParams.m} />}
    </section>
  );
}

function StatusResults({
  p,
  econ,
  sim,
  simError,
}: {
  p: { S: number; R: number; N: number; alpha: number; m: number };
  econ: ReturnType<typeof statusEconomics>;
  sim: StatusSimulation | null;
  simError: TaskFailure | null;
}) {
  const t = useT();
  const describe = useDescribe();
  const f = econ.formula;
  const th = { textAlign: 'right' as const, padding: '4px 10px', borderBottom: '1px solid var(--c-border-strong)', fontWeight: 600 };
  const td = { textAlign: 'right' as const, padding: '4px 10px', borderBottom: '1px solid var(--c-border)', fontVariantNumeric: 'tabular-nums' as const };
  const prefer = (r: number, a: number) => (a < r - EPS ? t('econ.preferAppend') : r < a - EPS ? t('econ.preferReplace') : t('econ.preferEither'));
  const updatesAgree = sim ? Math.abs(sim.replace.extra - f.replace) < EPS && Math.abs(sim.append.extra - f.append) < EPS : false;
  const simDiff = sim ? sim.append.totals.cost - sim.replace.totals.cost : 0;
  const exact = exactStatusDifference({ S: p.S, R: p.R, N: p.N, alpha: p.alpha }, p.m);
  const bookDiff = f.append - f.replace;
  const extraStale = p.alpha * p.S * ((p.m * (p.N - 1) * (p.N - 2)) / 2);
  return (
    <div style={{ display: 'grid', gap: 8 }}>
      <div style={{ overflowX: 'auto' }}>
      <table data-role="status-table" style={{ borderCollapse: 'collapse', fontSize: 'var(--fs-sm)', width: '100%', maxWidth: 1000 }}>
        <thead>
          <tr>
            <th style={{ ...th, textAlign: 'left' }}>{t('econ.statusColHow')}</th>
            <th style={{ ...th, color: ECON_COLORS.replace }}>{t('econ.replace')}</th>
            <th style={{ ...th, color: ECON_COLORS.append }}>{t('econ.append')}</th>
            <th style={th}>{t('econ.statusColCheaper')}</th>
          </tr>
        </thead>
        <tbody>
          <tr data-row="formula" data-replace={f.replace} data-append={f.append}>
            <td style={{ ...td, textAlign: 'left' }}>{t('econ.rowFormula')}</td>
            <td style={td}>
              {fmtCost(f.replace)} <span className="muted" style={{ fontFamily: MONO }}>= (N−1)(1−α)R</span>
            </td>
            <td style={td}>
              {fmtCost(f.append)} <span className="muted" style={{ fontFamily: MONO }}>= αSN(N−1)/2</span>
            </td>
            <td style={td}>{prefer(f.replace, f.append)}</td>
          </tr>
          {sim && (
            <tr data-row="sim-updates" data-replace={sim.replace.extra} data-append={sim.append.extra} data-agree={updatesAgree}>
              <td style={{ ...td, textAlign: 'left' }}>{t('econ.rowSimUpdates', { N: p.N })}</td>
              <td style={td}>{fmtCost(sim.replace.extra)}</td>
              <td style={td}>{fmtCost(sim.append.extra)}</td>
              <td style={td}>{prefer(sim.replace.extra, sim.append.extra)}</td>
            </tr>
          )}
          {sim && (
            <tr data-row="sim-all" data-replace={sim.replace.totals.cost} data-append={sim.append.totals.cost}>
              <td style={{ ...td, textAlign: 'left' }}>{t('econ.rowSimAll', { calls: sim.append.calls.length, m: p.m })}</td>
              <td style={td}>{fmtCost(sim.replace.totals.cost)}</td>
              <td style={td}>{fmtCost(sim.append.totals.cost)}</td>
              <td style={td}>{prefer(sim.replace.totals.cost, sim.append.totals.cost)}</td>
            </tr>
          )}
        </tbody>
        <caption className="muted small" style={{ captionSide: 'bottom', textAlign: 'left', paddingTop: 4 }}>{t('econ.statusTableNote')}</caption>
      </table>
      </div>
      <ul data-role="status-notes" style={{ margin: 0, paddingLeft: 20, display: 'grid', gap: 3, maxWidth: '80em' }}>
        <li>
          {t('econ.rule', {
            lhs: fmtCost((p.alpha * p.S * p.N) / 2),
            rhs: fmtCost((1 - p.alpha) * p.R),
            verdict: econ.appendIsCheaper ? t('econ.preferAppend') : t('econ.preferReplace'),
            nstar: Number.isFinite(econ.crossoverUpdates) ? econ.crossoverUpdates.toFixed(1) : '∞',
          })}
        </li>
        {simError && <li style={{ color: 'var(--c-error)' }}>{t('econ.simSkipped', { message: describe(simError) })}</li>}
        {sim && (
          <li data-role="status-agree" style={{ color: updatesAgree ? '#2a6a2a' : '#8a4b00' }}>
            {updatesAgree ? t('econ.agreeUpdates') : p.m === 0 ? t('econ.differNoBetween') : t('econ.differOther')}
          </li>
        )}
        {sim && (
          <li data-role="status-all-calls">
            {t('econ.allCalls', { sim: fmtCost(simDiff), exact: fmtCost(exact), book: fmtCost(bookDiff) })}{' '}
            {Math.abs(simDiff - bookDiff) < EPS
              ? t('econ.allCallsAgree')
              : p.m === 0
                ? t('econ.allCallsNoBetween')
                : t('econ.allCallsStale', { extra: fmtCost(extraStale), m: p.m })}
          </li>
        )}
      </ul>
    </div>
  );
}
