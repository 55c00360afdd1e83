'use client';
// What the model decides in each arm: the generation controls (seeds, token limit, the sampling settings of
// generation_config.json), progress with a stop button, how often each arm calls again (a phone_call tool
// call) or refuses, which names the calls carry, and every seed's parsed output (SeedOutputs). Shows what
// lib/generate returned; nothing is tuned here.
import { memo } from 'react';
import type { SamplingSettings } from '../../lib/generate/sampling';
import type { SeedRun } from '../../lib/generate/abSeeds';
import { tallyDecisions } from '../../lib/analysis/abArms';
import { useDescribe, useT, type T } from '../common/i18n';
import type { TaskFailure } from '../../lib/util/latestTask';
import { CallNames, DECISION_COLORS, SeedTable } from './SeedOutputs';

export interface GenSettings {
  seeds: number;
  firstSeed: number;
  maxNewTokens: number;
}

/** The sampling settings of generation_config.json (or the defaults without one), or why they cannot be read. */
export type Sampling = { ok: true; settings: SamplingSettings; fromFile: boolean } | { ok: false; error: TaskFailure };

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
  sampling: Sampling;
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

export const SEED_LIMITS = { seeds: 50, maxNewTokens: 256 } as const;

export function samplingText(t: T, s: SamplingSettings): string {
  const how = s.doSample ? t('ab.gen.sampling', { temperature: s.temperature, topK: s.topK || t('ab.gen.off'), topP: s.topP }) : t('ab.gen.greedy');
  return `${how}; ${s.eosIds.length ? t('ab.gen.eos', { ids: s.eosIds.join(', ') }) : t('ab.gen.noEos')}`;
}

/** Calls again vs refusals over the seeds, as one bar. */
export function TallyBar({ call, refuse, width = 260 }: { call: number; refuse: number; width?: number }) {
  const n = call + refuse;
  if (!n) return <span style={{ display: 'inline-block', width, height: 14, background: 'var(--c-bg)', verticalAlign: 'middle' }} />;
  return (
    <span style={{ display: 'inline-flex', width, height: 14, verticalAlign: 'middle', border: '1px solid #999' }}>
      <span style={{ width: (call / n) * width, background: DECISION_COLORS.call }} />
      <span style={{ width: (refuse / n) * width, background: DECISION_COLORS.refuse }} />
    </span>
  );
}

/** The legend of TallyBar's two colours. */
export function DecisionLegend() {
  const t = useT();
  const swatch = (colour: string) => <span style={{ display: 'inline-block', width: 14, height: 10, background: colour, marginRight: 4 }} />;
  return (
    <div style={{ display: 'flex', gap: 14, fontSize: 'var(--fs-xs)', color: 'var(--c-text)' }}>
      <span>
        {swatch(DECISION_COLORS.call)}
        {t('ab.gen.legendCall')}
      </span>
      <span>
        {swatch(DECISION_COLORS.refuse)}
        {t('ab.gen.legendRefuse')}
      </span>
    </div>
  );
}

export const DecisionOutcomes = memo(function DecisionOutcomes(p: DecisionOutcomesProps) {
  const t = useT();
  const describe = useDescribe();
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
      <div style={{ display: 'flex', gap: 14, flexWrap: 'wrap', alignItems: 'center', fontSize: 'var(--fs-sm)' }}>
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
      <div style={{ fontSize: 'var(--fs-sm)', color: 'var(--c-text)' }} data-role="ab-sampling">
        {p.sampling.ok
          ? t(p.sampling.fromFile ? 'ab.gen.fromFile' : 'ab.gen.fromDefaults', { how: samplingText(t, p.sampling.settings), first: settings.firstSeed, last: settings.firstSeed + settings.seeds - 1 })
          : t('error.prefix', { message: describe(p.sampling.error) })}
        {p.sampling.ok && !p.sampling.settings.doSample && <div style={{ color: 'var(--c-warn)' }}>{t('ab.gen.greedyNote')}</div>}
      </div>
      {p.whyNot && <div style={{ color: 'var(--c-warn)', fontSize: 'var(--fs-sm)' }}>{p.whyNot}</div>}
      {p.running && p.progress && (
        <div aria-live="polite" data-role="ab-gen-progress" style={{ fontSize: 'var(--fs-sm)' }}>
          <progress value={progressDone} max={progressTotal} style={{ width: 260, verticalAlign: 'middle' }} />{' '}
          {t('ab.gen.progress', { arm: p.progress.arm, i: p.progress.index + 1, n: p.progress.seeds, seed: p.progress.seed, tokens: p.progress.tokens, max: p.progress.maxNewTokens })}
        </div>
      )}
      {result && (
        <>
          {result.aborted && (
            <div role="status" data-role="ab-gen-stopped" style={{ color: 'var(--c-warn)', fontSize: 'var(--fs-sm)' }}>
              {t('ab.gen.stopped', { done: seedsDone, total: 2 * result.seeds.length })}
            </div>
          )}
          <table data-role="ab-tally" style={{ borderCollapse: 'collapse', fontSize: 'var(--fs-sm)' }}>
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
          <DecisionLegend />
          <CallNames result={result} targets={p.targets} />
          <SeedTable result={result} />
        </>
      )}
    </div>
  );
});
