'use client';
// Hub models kept in this browser's Cache Storage (lib/model/source/browserCache.ts), with their size: load
// one (from disk, no download), or delete it after a confirming second click.
import { useCallback, useEffect, useState } from 'react';
import { formatBytes } from '../../lib/analysis/kvBytes';
import { defaultCacheStorage, deleteCachedModel, listCachedModels, type CachedModel } from '../../lib/model/source/browserCache';
import { DEFAULT_ENDPOINT } from '../../lib/model/source/hub';
import { useDescribe, useT } from '../common/i18n';

const keyOf = (m: CachedModel) => JSON.stringify([m.endpoint, m.repo, m.revision]);

export function CachedModels({ onLoad }: { onLoad: (m: CachedModel) => void }) {
  const t = useT();
  const describe = useDescribe();
  const [models, setModels] = useState<CachedModel[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [available] = useState(() => defaultCacheStorage() !== null);

  const refresh = useCallback(() => {
    listCachedModels()
      .then((m) => {
        setModels(m);
        setError(null);
      })
      .catch((e: unknown) => setError(e));
  }, []);
  useEffect(refresh, [refresh]);

  const remove = async (m: CachedModel) => {
    setConfirming(null);
    try {
      await deleteCachedModel(m.endpoint, m.repo, m.revision);
    } catch (e) {
      setError(e);
    }
    refresh();
  };

  return (
    <section aria-labelledby="model-cached-title" style={{ display: 'grid', gap: 'var(--sp-2)' }}>
      <div style={{ display: 'flex', gap: 'var(--sp-3)', alignItems: 'baseline' }}>
        <h3 id="model-cached-title" style={{ margin: 0, fontSize: 'var(--fs-md)' }}>
          {t('models.cachedTitle')}
        </h3>
        {available && (
          <button type="button" className="small" onClick={refresh}>
            {t('models.refresh')}
          </button>
        )}
      </div>
      {!available ? (
        <p className="muted small" style={{ margin: 0 }}>
          {t('models.cachedUnavailable')}
        </p>
      ) : error !== null ? (
        <div role="alert" style={{ color: 'var(--c-error)', fontSize: 'var(--fs-sm)' }}>
          {describe(error)}
        </div>
      ) : (
        <ul data-role="cached-list" style={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 'var(--sp-1)', fontSize: 'var(--fs-sm)' }}>
          {(models ?? []).map((m) => {
            const k = keyOf(m);
            return (
              <li key={k} data-role="cached-model" data-repo={m.repo} data-revision={m.revision} style={{ display: 'flex', gap: 'var(--sp-2) var(--sp-3)', alignItems: 'center', flexWrap: 'wrap' }}>
                <strong style={{ fontWeight: 600 }}>
                  {m.repo}
                  {m.revision !== 'main' ? `@${m.revision}` : ''}
                </strong>
                <span className="muted" style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {t('models.cachedFiles', { count: m.files.length, bytes: formatBytes(m.bytes) })}
                  {m.endpoint !== DEFAULT_ENDPOINT ? ` · ${t('models.cachedFrom', { endpoint: m.endpoint })}` : ''}
                </span>
                <span style={{ flex: 1 }} />
                <button type="button" data-role="cached-load" onClick={() => onLoad(m)}>
                  {t('models.cachedLoad')}
                </button>
                {confirming === k ? (
                  <>
                    <button type="button" data-role="cached-delete-confirm" style={{ color: 'var(--c-error)' }} onClick={() => void remove(m)}>
                      {t('models.deleteConfirm', { bytes: formatBytes(m.bytes) })}
                    </button>
                    <button type="button" onClick={() => setConfirming(null)}>
                      {t('models.cancel')}
                    </button>
                  </>
                ) : (
                  <button type="button" data-role="cached-delete" onClick={() => setConfirming(k)}>
                    {t('models.delete')}
                  </button>
                )}
              </li>
            );
          })}
          {models !== null && models.length === 0 && (
            <li className="muted small" data-role="cached-empty">
              {t('models.cachedEmpty')}
            </li>
          )}
        </ul>
      )}
    </section>
  );
}
