'use client';
// The head of the A/B tab: the built-in pair or two scenarios of the user's, each arm's size and prefill
// time once prepared, why a pair cannot be compared, errors, and the preparation's progress.
import type { CustomScenario } from '../../lib/state/store';
import { ScenarioOptions } from '../scenario/ScenarioOptions';
import { useT } from '../common/i18n';
import { ARM_COLORS } from './RegionBars';
import { STAGES, type AbArms, type ArmChoice } from './useAbArms';
import { abStyle } from './abStyle';

export function AbArmPicker({ choice, arms, custom }: { choice: ArmChoice; arms: AbArms; custom: CustomScenario[] }) {
  const t = useT();
  const { mode, own, setOwn } = choice;
  const { prepared, stage, error } = arms;
  const options = <ScenarioOptions custom={custom} validOnly />;
  return (
    <section style={{ display: 'grid', gap: 8 }} aria-label={t('ab.title')}>
      <h2 style={{ fontSize: 17, margin: 0 }}>{t('ab.title')}</h2>
      <p style={abStyle.intro}>{t('ab.intro')}</p>
      <div style={{ display: 'flex', gap: 16, flexWrap: 'wrap', alignItems: 'center', fontSize: 14 }} data-role="ab-arms">
        <label>
          <input type="radio" name="ab-mode" data-control="ab-mode-builtin" checked={mode === 'builtin'} onChange={() => choice.setMode('builtin')} /> {t('ab.arms.builtin')}
        </label>
        <label>
          <input type="radio" name="ab-mode" data-control="ab-mode-own" checked={mode === 'own'} onChange={() => choice.setMode('own')} /> {t('ab.arms.own')}
        </label>
        {mode === 'own' &&
          (['a', 'b'] as const).map((k) => (
            <label key={k}>
              {k.toUpperCase()} ={' '}
              <select data-control={`ab-arm-${k}`} value={own[k]} onChange={(e) => setOwn((o) => ({ ...o, [k]: e.target.value }))}>
                {options}
              </select>
            </label>
          ))}
      </div>
      <div style={{ fontSize: 14 }}>
        {(['A', 'B'] as const).map((n) => {
          const arm = prepared && (n === 'A' ? prepared.a : prepared.b);
          return (
            <div key={n}>
              <span style={{ display: 'inline-block', width: 12, height: 12, background: ARM_COLORS[n], marginRight: 6, verticalAlign: 'middle' }} />
              <b>{n}</b>: {choice.titles[n]}
              {arm && ` — ${t('ab.tokens', { n: arm.prompt.ids.length })}, ${t('ab.arms.prefillMs', { ms: Math.round(arm.ms) })}`}
            </div>
          );
        })}
      </div>
      {choice.pairError && <div role="alert" style={{ color: '#a15c00' }}>{choice.pairError}</div>}
      {error && (
        <div role="alert" style={abStyle.error}>
          {t('error.prefix', { message: error })}
        </div>
      )}
      {stage && (
        <div aria-live="polite" data-role="ab-progress">
          <progress value={STAGES.indexOf(stage) + 0.5} max={4} style={{ width: 200, verticalAlign: 'middle' }} /> {t(`ab.stage.${stage}`)}
        </div>
      )}
    </section>
  );
}
