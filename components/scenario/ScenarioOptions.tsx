'use client';
// The <option>s of every scenario chooser: built-in scenarios (and variants), then the user's own. With
// `validOnly`, a user scenario without a valid version is shown disabled (it has nothing to run yet).
import { CATALOG } from '../../lib/scenarios/catalog';
import { customRef, type CustomScenario } from '../../lib/state/store';
import { useLang, useT } from '../common/i18n';

export function ScenarioOptions({ custom, validOnly = false }: { custom: readonly CustomScenario[]; validOnly?: boolean }) {
  const t = useT();
  const lang = useLang();
  return (
    <>
      <optgroup label={t('scenario.builtin')}>
        {CATALOG.map((e) => (
          <option key={e.ref} value={e.ref}>
            {e.title[lang]}
          </option>
        ))}
      </optgroup>
      {custom.length > 0 && (
        <optgroup label={t('scenario.custom')}>
          {custom.map((c) => {
            const unusable = validOnly && !c.lastGood;
            return (
              <option key={c.id} value={customRef(c.id)} disabled={unusable}>
                {c.name}
                {unusable ? ` (${t('scenario.noValidShort')})` : ''}
              </option>
            );
          })}
        </optgroup>
      )}
    </>
  );
}
