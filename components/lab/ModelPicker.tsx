'use client';
// The model picker: the embedded models (each with the one-line description from its card and an
// "engineered" badge where the card says something was engineered), then Hub models the user loaded, then
// the open folder; a button opening the "Open a model…" dialog; which runtime the loaded model runs on, and
// the switch between auto, WebGPU and WASM.
import { useEffect, useState } from 'react';
import type { LoadResult } from '../../lib/engine/protocol';
import { EMBEDDED_MODELS, type ModelCard } from '../../lib/model/embedded';
import { formatModelChoice, modelDisplayName, parseModelChoice, PROVIDER_CHOICES, type ProviderChoice } from '../../lib/state/modelChoice';
import { currentFolder } from '../models/folderRegistry';
import { useDescribe, useLang, useT } from '../common/i18n';
import type { LoadedModel } from './useEngine';

export interface ModelPickerProps {
  models: { id: string; card: ModelCard | null }[];
  value: string;
  onChange: (id: string) => void;
  disabled?: boolean;
  provider: LoadResult | null;
}

export interface ModelPickerRowProps extends Omit<ModelPickerProps, 'provider'> {
  /** Hub choices the user loaded, newest first. */
  recent: readonly string[];
  onOpen: () => void;
}

export function ModelPicker({ models, value, onChange, disabled, recent, onOpen }: ModelPickerRowProps) {
  const t = useT();
  const card = models.find((m) => m.id === value)?.card ?? null;
  const chosen = parseModelChoice(value);
  // The chosen Hub model is listed even when it left the recent list.
  const hub = chosen?.kind === 'hub' && !recent.includes(value) ? [value, ...recent] : recent;
  // The open folder stays listed after switching away from it (its files live until the page closes).
  const folder = chosen?.kind === 'folder' ? chosen.label : (currentFolder()?.label ?? null);
  return (
    <div data-role="model-picker" style={{ display: 'flex', gap: 'var(--sp-2)', alignItems: 'center' }}>
      <label>
        {t('model.label')}{' '}
        <select value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled} style={{ maxWidth: 280 }}>
          <optgroup label={t('models.groupEmbedded')}>
            {models.map((m) => (
              <option key={m.id} value={m.id}>
                {m.id}
                {m.card?.engineered ? ` (${t('model.engineered')})` : ''}
              </option>
            ))}
          </optgroup>
          {hub.length > 0 && (
            <optgroup label={t('models.groupRecent')}>
              {hub.map((id) => (
                <option key={id} value={id}>
                  {modelDisplayName(id)}
                </option>
              ))}
            </optgroup>
          )}
          {folder !== null && (
            <optgroup label={t('models.groupFolder')}>
              <option value={formatModelChoice({ kind: 'folder', label: folder })}>{folder}</option>
            </optgroup>
          )}
        </select>
      </label>
      <button type="button" data-role="model-open" onClick={onOpen} title={t('models.openTitle')}>
        {t('models.open')}
      </button>
      {card?.engineered && (
        <span title={t('model.engineeredTitle')} style={{ background: 'var(--seg-tool-call)', color: '#000', borderRadius: 3, padding: '0 6px', fontSize: 'var(--fs-xs)' }}>
          {t('model.engineered')}
        </span>
      )}
    </div>
  );
}

/** The chosen model's one-line description: its card's for embedded models, where it comes from otherwise. */
export function ModelDescription({ models, value, hubEndpoint }: Pick<ModelPickerProps, 'models' | 'value'> & { hubEndpoint: string }) {
  const lang = useLang();
  const t = useT();
  const card = models.find((m) => m.id === value)?.card ?? null;
  const c = parseModelChoice(value);
  const text =
    c?.kind === 'hub'
      ? t('models.hubDescription', { repo: c.repo, revision: c.revision, endpoint: hubEndpoint })
      : c?.kind === 'folder'
        ? t('models.folderDescription', { label: c.label })
        : card
          ? lang === 'zh'
            ? card.descriptionZh
            : card.description
          : '';
  return (
    <span data-role="model-description" className="muted small" title={text} style={{ flex: '1 1 200px', minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
      {text}
    </span>
  );
}

/** Which runtime the loaded model runs on and, when it is not WebGPU, why (the worker's note, or no adapter). */
export function RuntimeNote({ loaded }: { loaded: LoadedModel | null }) {
  const t = useT();
  const describe = useDescribe();
  if (!loaded) return null;
  const { info } = loaded;
  const note = info.providerNote === undefined ? undefined : describe({ message: info.providerNote, coded: info.providerMessage });
  const why = info.provider === 'webgpu' ? null : (note ?? (loaded.softwareAdapter ? t('provider.softwareAdapter') : loaded.noAdapter ? t('provider.noAdapter') : null));
  const text = t('model.provider', { provider: info.provider, threads: info.numThreads || 1 });
  return (
    <span data-role="model-runtime" data-provider={info.provider} className="muted small" title={why ?? undefined} style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', maxWidth: 320 }}>
      {text}
      {/* The reason in a tooltip: a long sentence here squeezed the header into extra lines at 1280 px. */}
      {why && (
        <>
          {' · '}
          <abbr title={t('provider.why', { reason: why })} aria-label={t('provider.why', { reason: why })}>
            {t('provider.whyShort')}
          </abbr>
        </>
      )}
    </span>
  );
}

const SWITCH_TITLE = { auto: 'provider.autoTitle', webgpu: 'provider.webgpuTitle', wasm: 'provider.wasmTitle' } as const;

/** Auto / WebGPU / WASM: choosing one reloads the model on it. */
export function ProviderSwitch({ value, onChange, disabled }: { value: ProviderChoice; onChange: (p: ProviderChoice) => void; disabled?: boolean }) {
  const t = useT();
  return (
    <span role="group" aria-label={t('provider.label')} data-role="provider-switch" style={{ display: 'inline-flex', gap: 2, alignItems: 'center', fontSize: 'var(--fs-sm)' }}>
      <span className="muted" style={{ marginRight: 'var(--sp-1)' }}>
        {t('provider.label')}
      </span>
      {PROVIDER_CHOICES.map((p) => (
        <button key={p} type="button" data-provider={p} aria-pressed={value === p} disabled={disabled} title={t(SWITCH_TITLE[p])} onClick={() => value !== p && onChange(p)}>
          {t(`provider.${p}`)}
        </button>
      ))}
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
