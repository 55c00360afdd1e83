'use client';
// Built-in scenarios (and their variants) and the user's own, with copy / new / rename / delete.
// New scenarios are always added, never written over an existing one. At MAX_CUSTOM the user is asked
// whether the oldest may go (named in the question); cancelling keeps everything and adds nothing.
import { CATALOG } from '../../lib/scenarios/catalog';
import { customOf, MAX_CUSTOM, type CustomScenario } from '../../lib/state/store';
import { useLang, useT } from '../common/i18n';
import { ScenarioOptions } from './ScenarioOptions';

export interface ScenarioPickerProps {
  value: string;
  custom: CustomScenario[];
  onChange: (ref: string) => void;
  onCopy: (name: string) => void;
  onNew: (name: string) => void;
  onRename: (id: string, name: string) => void;
  onDelete: (id: string) => void;
}

export function ScenarioPicker({ value, custom, onChange, onCopy, onNew, onRename, onDelete }: ScenarioPickerProps) {
  const t = useT();
  const lang = useLang();
  const current = customOf({ custom }, value);
  const builtin = CATALOG.find((e) => e.ref === value);
  const currentName = current ? current.name : builtin ? builtin.title[lang] : value;
  /** Runs `add` when there is room, or when the user agreed to remove the oldest scenario first. */
  const withRoom = (add: () => void) => {
    if (custom.length < MAX_CUSTOM) return add();
    const oldest = custom.reduce((a, c) => (c.createdAt < a.createdAt ? c : a), custom[0]!);
    if (!window.confirm(t('scenario.capConfirm', { max: MAX_CUSTOM, oldest: oldest.name }))) return;
    onDelete(oldest.id);
    add();
  };
  return (
    <div data-role="scenario-picker" style={{ display: 'flex', gap: 10, alignItems: 'center', flexWrap: 'wrap' }}>
      <label>
        {t('scenario.label')}{' '}
        <select value={value} onChange={(e) => onChange(e.target.value)} style={{ maxWidth: 340 }}>
          <ScenarioOptions custom={custom} />
        </select>
      </label>
      <button data-role="scenario-copy" title={t('scenario.copyTitle')} onClick={() => withRoom(() => onCopy(t('scenario.copyName', { name: currentName })))}>
        {t('scenario.copy')}
      </button>
      <button data-role="scenario-new" onClick={() => withRoom(() => onNew(t('scenario.blankName')))}>
        {t('scenario.newBlank')}
      </button>
      {current && (
        <>
          <label>
            {t('scenario.name')}{' '}
            <input data-role="scenario-name" value={current.name} onChange={(e) => onRename(current.id, e.target.value)} style={{ width: 220 }} />
          </label>
          <button
            data-role="scenario-delete"
            onClick={() => {
              if (window.confirm(t('scenario.deleteConfirm', { name: current.name }))) onDelete(current.id);
            }}
          >
            {t('scenario.delete')}
          </button>
        </>
      )}
    </div>
  );
}
