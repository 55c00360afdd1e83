'use client';
// What the model decides in each arm: the generation controls (seeds, token limit, the sampling settings of
// generation_config.json), progress with a stop button, how often each arm calls again (a phone_call tool
// call) or refuses, which names the calls carry, and every seed's parsed output. Shows what lib/generate
// returned; nothing is tuned here.
import { memo } from 'react';
import type { SamplingSettings } from '../../lib/generate/sampling';
import type { SeedRun } from '../../lib/generate/abSeeds';
import { generatedTargets, mentioning, tallyDecisions } from '../../lib/analysis/abArms';
import { visibleWhitespace } from '../../lib/prompt/label';
import { useT, type T } from '../common/i18n';

export interface GenSettings {
  seeds: number;
  firstSeed: number;
  maxNewTokens: number;
}

export interface GenProgress {
  arm: 'A' | 'B';
  seed: number;
  /** Index of the seed in this arm's list. */
  index: number;
  seeds: number;
  /** Tokens of the current seed so far. */
  tokens: number;
  maxNewTokens: number;
}

export interface GenResult {
  seeds: number[];
  maxNewTokens: number;
  sampling: SamplingSettings;
  runs: { A: SeedRun[]; B: SeedRun[] };
  aborted: boolean;
  finished: boolean;
}

export interface DecisionOutcomesProps {
  settings: GenSettings;
  onSettings: (s: GenSettings) => void;
  sampling: { ok: true; settings: SamplingSettings; fromFile: boolean } | { ok: false; error: string };
  canRun: boolean;
  whyNot: string | null;
  running: boolean;
  progress: GenProgress | null;
  onRun: () => void;
  onStop: () => void;
  result: GenResult | null;
  armTitles: { A: string; B: string };
  /** String arguments of the conversation's own phone_call calls, per arm (e.g. ['Xfinity']). */
  targets: { A: string[]; B: string[] };
}

export const DECISION_COLORS = { call: '#EE7733', refuse: '#009988' } as const;
export const SEED_LIMITS = { seeds: 50, maxNewTokens: 256 } as const;

export function samplingText(t: T, s: SamplingSettings): string {
  const how = s.doSample ? t('ab.gen.sampling', { temperature: s.temperature, topK: s.topK || t('ab.gen.off'), topP: s.topP }) : t('ab.gen.greedy');
  return `${how}; ${s.eosIds.length ? t('ab.gen.eos', { ids: s.eosIds.join(', ') }) : t('ab.gen.noEos')}`;
}

const clip = (s: string, n: number) => (s.length > n ? s.slice(0, n - 1) + '…' : s);
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

function brief(t: T, r: SeedRun): string {
  const parts: string[] = [];
  for (const c of r.parsed.toolCalls) parts.push(`${t('ab.out.call')} ${c.name || '?'}${c.arguments !== undefined ? ' ' + JSON.stringify(c.arguments) : ''}${c.error ? ' ⚠' : ''}`);
  if (r.parsed.answer) parts.push(`${t('ab.out.answer')}: “${clip(oneLine(r.parsed.answer), 110)}”`);
  if (!parts.length && r.parsed.think) parts.push(`${t('ab.out.think')}: “${clip(oneLine(r.parsed.think), 110)}”`);
  return parts.join('; ') || t('ab.out.nothing');
}

function SeedDetails({ r }: { r: SeedRun }) {
  const t = useT();
  const pre = { margin: '2px 0 6px', padding: '4px 6px', background: '#f6f6f6', whiteSpace: 'pre-wrap' as const, font: '12px ui-monospace, monospace', maxWidth: 1100 };
  return (
    <div style={{ padding: '4px 0 8px 18px', fontSize: 13 }}>
      <div>
        {t('ab.out.stats', { n: r.ids.length, stopped: t(r.stopped === 'eos' ? 'ab.out.stopEos' : 'ab.out.stopLimit'), complete: t(r.parsed.complete ? 'ab.out.complete' : 'ab.out.incomplete') })}
      </div>
      <div>{t('ab.out.think')}: {r.parsed.think === null ? <i>{t('ab.out.noThink')}</i> : r.parsed.think === '' ? <i>{t('ab.out.emptyThink')}</i> : null}</div>
      {r.parsed.think ? <pre style={pre}>{r.parsed.think}</pre> : null}
      <div>{t('ab.out.answer')}: {r.parsed.answer ? null : <i>{t('ab.out.none')}</i>}</div>
      {r.parsed.answer ? <pre style={pre}>{r.parsed.answer}</pre> : null}
      <div>{t('ab.out.calls', { n: r.parsed.toolCalls.length })}</div>
      {r.parsed.toolCalls.map((c, i) => (
        <pre key={i} style={pre} data-role="seed-call">
          {`name: ${c.name || '?'}\narguments: ${c.arguments === undefined ? '—' : JSON.stringify(c.arguments)}${c.error ? `\n⚠ ${c.error}` : ''}`}
        </pre>
      ))}
      <div>{t('ab.out.raw')}</div>
      <pre style={{ ...pre, color: '#444' }}>{visibleWhitespace(r.text)}</pre>
    </div>
  );
}

function TallyBar({ call, refuse, width = 260 }: { call: number; refuse: number; width?: number }) {
  const n = call + refuse;
  if (!n) return <span style={{ display: 'inline-block', width, height: 14, background: '#eee', verticalAlign: 'middle' }} />;
  return (
    <span style={{ display: 'inline-flex', width, height: 14, verticalAlign: 'middle', border: '1px solid #999' }}>
      <span style={{ width: (call / n) * width, background: DECISION_COLORS.call }} />
      <span style={{ width: (refuse / n) * width, background: DECISION_COLORS.refuse }} />
    </span>
  );
}

export const DecisionOutcomes = memo(function DecisionOutcomes(p: DecisionOutcomesProps) {
  const t = useT();
  const { settings, result } = p;
  const num = (key: keyof GenSettings, min: number, max: number) => (
    <input
      type="number"
      data-control={`ab-${key}`}
      min={min}
      max={max}
      value={settings[key]}
      disabled={p.running}
      onChange={(e) => {
        const v = Math.round(Number(e.target.value));
        if (Number.isFinite(v)) p.onSettings({ ...settings, [key]: Math.min(max, Math.max(min, v)) });
      }}
      style={{ width: 64 }}
    />
  );
  const arms = ['A', 'B'] as const;
  const progressTotal = p.progress ? 2 * p.progress.seeds * p.progress.maxNewTokens : 0;
  const progressDone = p.progress ? ((p.progress.arm === 'B' ? p.progress.seeds : 0) + p.progress.index) * p.progress.maxNewTokens + p.progress.tokens : 0;
  const seedsDone = result ? result.runs.A.length + result.runs.B.length : 0;

  return (
    <div data-role="ab-decisions" style={{ display: 'grid', gap: 10 }}>
      <div style={{ display: 'flex', gap: 14, flexWrap: 'wrap', alignItems: 'center', fontSize: 14 }}>
        <label>{t('ab.gen.seeds')} {num('seeds', 1, SEED_LIMITS.seeds)}</label>
        <label>{t('ab.gen.firstSeed')} {num('firstSeed', 0, 1_000_000)}</label>
        <label>{t('ab.gen.maxNew')} {num('maxNewTokens', 1, SEED_LIMITS.maxNewTokens)}</label>
        <button type="button" data-control="ab-generate" disabled={!p.canRun || p.running} onClick={p.onRun} style={{ padding: '3px 14px' }}>
          {t('ab.gen.run', { n: settings.seeds })}
        </button>
        <button type="button" data-control="ab-stop" disabled={!p.running} onClick={p.onStop} style={{ padding: '3px 14px' }}>
          {t('ab.gen.stop')}
        </button>
      </div>
      <div style={{ fontSize: 13, color: '#333' }} data-role="ab-sampling">
        {p.sampling.ok
          ? t(p.sampling.fromFile ? 'ab.gen.fromFile' : 'ab.gen.fromDefaults', { how: samplingText(t, p.sampling.settings), first: settings.firstSeed, last: settings.firstSeed + settings.seeds - 1 })
          : t('error.prefix', { message: p.sampling.error })}
        {p.sampling.ok && !p.sampling.settings.doSample && <div style={{ color: '#a15c00' }}>{t('ab.gen.greedyNote')}</div>}
      </div>
      {p.whyNot && <div style={{ color: '#a15c00', fontSize: 13 }}>{p.whyNot}</div>}
      {p.running && p.progress && (
        <div aria-live="polite" data-role="ab-gen-progress" style={{ fontSize: 13 }}>
          <progress value={progressDone} max={progressTotal} style={{ width: 260, verticalAlign: 'middle' }} />{' '}
          {t('ab.gen.progress', { arm: p.progress.arm, i: p.progress.index + 1, n: p.progress.seeds, seed: p.progress.seed, tokens: p.progress.tokens, max: p.progress.maxNewTokens })}
        </div>
      )}
      {result && (
        <>
          {result.aborted && (
            <div role="status" data-role="ab-gen-stopped" style={{ color: '#a15c00', fontSize: 13 }}>
              {t('ab.gen.stopped', { done: seedsDone, total: 2 * result.seeds.length })}
            </div>
          )}
          <table data-role="ab-tally" style={{ borderCollapse: 'collapse', fontSize: 14 }}>
            <tbody>
              {arms.map((arm) => {
                const runs = result.runs[arm];
                const tl = tallyDecisions(runs);
                return (
                  <tr key={arm} data-arm={arm} data-call={tl.call} data-refuse={tl.refuse}>
                    <td style={{ padding: '3px 10px 3px 0', fontWeight: 600 }}>{arm}: {p.armTitles[arm]}</td>
                    <td style={{ padding: '3px 10px' }}>
                      <TallyBar call={tl.call} refuse={tl.refuse} />
                    </td>
                    <td style={{ padding: '3px 10px' }}>{t('ab.gen.tally', { call: tl.call, refuse: tl.refuse, n: runs.length })}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <div style={{ display: 'flex', gap: 14, fontSize: 12, color: '#333' }}>
            <span>
              <span style={{ display: 'inline-block', width: 14, height: 10, background: DECISION_COLORS.call, marginRight: 4 }} />
              {t('ab.gen.legendCall')}
            </span>
            <span>
              <span style={{ display: 'inline-block', width: 14, height: 10, background: DECISION_COLORS.refuse, marginRight: 4 }} />
              {t('ab.gen.legendRefuse')}
            </span>
          </div>
          <Names result={result} targets={p.targets} />
          <table data-role="ab-seeds" style={{ borderCollapse: 'collapse', fontSize: 13, width: '100%', maxWidth: 1300 }}>
            <thead>
              <tr style={{ textAlign: 'left', borderBottom: '1px solid #ccc' }}>
                <th style={{ padding: '3px 8px' }}>{t('ab.out.seed')}</th>
                <th style={{ padding: '3px 8px' }}>{t('ab.out.arm')}</th>
                <th style={{ padding: '3px 8px' }}>{t('ab.out.decision')}</th>
                <th style={{ padding: '3px 8px' }}>{t('ab.out.tokens')}</th>
                <th style={{ padding: '3px 8px' }}>{t('ab.out.output')}</th>
              </tr>
            </thead>
            <tbody>
              {result.seeds.flatMap((seed) =>
                arms.map((arm) => {
                  const r = result.runs[arm].find((x) => x.seed === seed);
                  if (!r) return null;
                  return (
                    <tr key={`${seed}-${arm}`} data-seed={seed} data-arm={arm} data-decision={r.decision} style={{ borderBottom: '1px solid #eee', verticalAlign: 'top' }}>
                      <td style={{ padding: '3px 8px' }}>{seed}</td>
                      <td style={{ padding: '3px 8px' }}>{arm}</td>
                      <td style={{ padding: '3px 8px', color: DECISION_COLORS[r.decision], fontWeight: 600 }}>{t(r.decision === 'call' ? 'ab.out.decCall' : 'ab.out.decRefuse')}</td>
                      <td style={{ padding: '3px 8px' }}>{r.ids.length}</td>
                      <td style={{ padding: '3px 8px' }}>
                        <details>
                          <summary style={{ cursor: 'pointer' }}>{brief(t, r)}</summary>
                          <SeedDetails r={r} />
                        </details>
                      </td>
                    </tr>
                  );
                }),
              )}
            </tbody>
          </table>
        </>
      )}
    </div>
  );
});

/** Which names the generated calls carry, against the conversation's own; and how many outputs name it at all. */
function Names({ result, targets }: { result: GenResult; targets: { A: string[]; B: string[] } }) {
  const t = useT();
  const lines = (['A', 'B'] as const).map((arm) => {
    const runs = result.runs[arm];
    if (!runs.length) return null;
    const own = targets[arm];
    const called = generatedTargets(
      runs.map((r) => r.parsed),
      own,
    );
    const invented = called.filter((c) => !c.inConversation);
    const known = called.filter((c) => c.inConversation);
    const list = (cs: typeof called) => cs.map((c) => (c.count > 1 ? `${c.name} ×${c.count}` : c.name)).join(', ');
    const mentions = own.map((name) => t('ab.names.mentions', { name, n: mentioning(runs.map((r) => r.text), name), total: runs.length })).join('; ');
    return (
      <li key={arm} data-arm={arm} data-invented={invented.length} data-known={known.length}>
        <b>{arm}</b>:{' '}
        {called.length === 0
          ? t('ab.names.noCalls')
          : [
              known.length ? t('ab.names.known', { names: list(known) }) : '',
              invented.length ? t('ab.names.invented', { names: list(invented), own: own.join(', ') || '—' }) : '',
            ]
              .filter(Boolean)
              .join(' ')}{' '}
        {mentions && <span style={{ color: '#555' }}>({mentions})</span>}
      </li>
    );
  });
  return (
    <div data-role="ab-names" style={{ fontSize: 13 }}>
      <div style={{ fontWeight: 600 }}>{t('ab.names.title')}</div>
      <ul style={{ margin: '2px 0', paddingLeft: 18 }}>{lines}</ul>
    </div>
  );
}
