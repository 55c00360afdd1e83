'use client';
// The embedded models, each with the one-line description from its card, an "engineered" badge where the
// card says something was engineered, and which runtime the loaded one runs on.
import { useEffect, useState } from 'react';
import type { LoadResult } from '../../lib/engine/protocol';
import { EMBEDDED_MODELS, type ModelCard } from '../../lib/model/embedded';
import { useLang, useT } from '../common/i18n';

export interface ModelPickerProps {
  models: { id: string; card: ModelCard | null }[];
  value: string;
  onChange: (id: string) => void;
  disabled?: boolean;
  provider: LoadResult | null;
}

export function ModelPicker({ models, value, onChange, disabled }: Omit<ModelPickerProps, 'provider'>) {
  const t = useT();
  const card = models.find((m) => m.id === value)?.card ?? null;
  return (
    <div data-role="model-picker" style={{ display: 'flex', gap: 'var(--sp-2)', alignItems: 'center' }}>
      <label>
        {t('model.label')}{' '}
        <select value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled}>
          {models.map((m) => (
            <option key={m.id} value={m.id}>
              {m.id}
              {m.card?.engineered ? ` (${t('model.engineered')})` : ''}
            </option>
          ))}
        </select>
      </label>
      {card?.engineered && (
        <span title={t('model.engineeredTitle')} style={{ background: 'var(--seg-tool-call)', color: '#000', borderRadius: 3, padding: '0 6px', fontSize: 'var(--fs-xs)' }}>
          {t('model.engineered')}
        </span>
      )}
    </div>
  );
}

/** The chosen model's one-line description from its card (the whole of it in the title). */
export function ModelDescription({ models, value }: Pick<ModelPickerProps, 'models' | 'value'>) {
  const lang = useLang();
  const card = models.find((m) => m.id === value)?.card ?? null;
  const text = card ? (lang === 'zh' ? card.descriptionZh : card.description) : '';
  return (
    <span data-role="model-description" className="muted small" title={text} style={{ flex: '1 1 200px', minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
      {text}
    </span>
  );
}

/** Which runtime the loaded model runs on. */
export function RuntimeNote({ provider }: { provider: LoadResult | null }) {
  const t = useT();
  if (!provider) return null;
  return (
    <span data-role="model-runtime" className="muted small" style={{ whiteSpace: 'nowrap' }}>
      {t('model.provider', { provider: provider.provider, threads: provider.numThreads || 1 })}
    </span>
  );
}

/** The embedded models with their cards (small files, fetched once; null until read or when missing). */
export function useModelCards(): ModelPickerProps['models'] {
  const [cards, setCards] = useState<Record<string, ModelCard | null>>({});
  useEffect(() => {
    for (const m of EMBEDDED_MODELS) {
      fetch(m.path + 'README.md')
        .then((r) => (r.ok ? r.text() : Promise.reject(new Error(String(r.status)))))
        .then((text) => import('../../lib/model/embedded').then(({ parseModelCard }) => parseModelCard(text)))
        .then((card) => setCards((c) => ({ ...c, [m.id]: card })))
        .catch(() => setCards((c) => ({ ...c, [m.id]: null })));
    }
  }, []);
  return EMBEDDED_MODELS.map((m) => ({ id: m.id, card: cards[m.id] ?? null }));
}
