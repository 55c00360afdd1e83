'use client';
// The A/B tab's choice of arms, under its header: the built-in pair or two scenarios of the user's, why a
// pair cannot be compared, errors, and the preparation's progress. The header names the arms and sizes.
import type { CustomScenario } from '../../lib/state/store';
import { ScenarioOptions } from '../scenario/ScenarioOptions';
import { useDescribe, useT } from '../common/i18n';
import { STAGES, type AbArms, type ArmChoice } from './useAbArms';
import { abStyle } from './abStyle';

export function AbArmPicker({ choice, arms, custom }: { choice: ArmChoice; arms: AbArms; custom: CustomScenario[] }) {
  const t = useT();
  const describe = useDescribe();
  const { mode, own, setOwn } = choice;
  const { stage, error } = arms;
  const options = <ScenarioOptions custom={custom} validOnly />;
  return (
    <section style={{ display: 'grid', gap: 'var(--sp-2)' }} aria-label={t('ab.arms.label')} data-chrome>
      <div className="controls" data-role="ab-arms">
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
        {stage && (
          <span aria-live="polite" data-role="ab-progress">
            <progress value={STAGES.indexOf(stage) + 0.5} max={4} style={{ width: 160, verticalAlign: 'middle' }} /> {t(`ab.stage.${stage}`)}
          </span>
        )}
      </div>
      {choice.pairError && (
        <div role="alert" style={{ color: 'var(--c-warn)' }}>
          {choice.pairError}
        </div>
      )}
      {error && (
        <div role="alert" style={abStyle.error}>
          {t('error.prefix', { message: describe(error) })}
        </div>
      )}
    </section>
  );
}
