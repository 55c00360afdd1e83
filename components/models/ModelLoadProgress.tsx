'use client';
// The load line under the chrome: the stage and overall bar and, while a file is read, which file, its bytes
// of the total, the rate and the time left (or that it came from the browser's cache).
import type { FileProgress } from '../../lib/model/source/types';
import { modelDisplayName } from '../../lib/state/modelChoice';
import { useT, type T } from '../common/i18n';
import { progressParts } from './progressText';

const STAGES = ['downloading', 'loading runtime', 'reading checkpoint', 'building graph', 'compiling graph', 'ready'];

/** A load stage in the page's language; stages the strings do not know are shown as the worker named them. */
function stageLabel(t: T, stage: string): string {
  return STAGES.includes(stage) ? t(`stage.${stage}` as 'stage.ready') : stage;
}

export function fileProgressText(t: T, p: FileProgress): string {
  const q = progressParts(p);
  const parts = [q.total !== null ? t('models.fileBytes', { loaded: q.loaded, total: q.total }) : q.loaded];
  if (p.cached) parts.push(t('models.fileCached'));
  else {
    if (q.rate) parts.push(q.rate);
    if (q.eta) parts.push(t('models.fileEta', { eta: q.eta }));
  }
  return `${q.file}: ${parts.join(' · ')}`;
}

export function ModelLoadProgress({ model, stage, fraction, file }: { model: string; stage: string; fraction: number; file?: FileProgress }) {
  const t = useT();
  return (
    <div data-role="load-progress" data-stage={stage} style={{ display: 'flex', flexWrap: 'wrap', gap: 'var(--sp-1) var(--sp-3)', alignItems: 'center' }}>
      <progress value={fraction} max={1} style={{ width: 320 }} />
      <span aria-live="polite">{t('model.loading', { model: modelDisplayName(model), stage: stageLabel(t, stage) })}</span>
      {file && (
        <span data-role="load-file" className="small muted" style={{ fontVariantNumeric: 'tabular-nums' }}>
          {fileProgressText(t, file)}
        </span>
      )}
    </div>
  );
}
