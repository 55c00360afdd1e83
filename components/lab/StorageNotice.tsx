'use client';
// The notice for a storage failure (the store's persistProblem): what could not be saved, how full the
// browser's storage for this site is, that what was saved before is kept, and what to do. In the user's
// language; the browser's own words only as a detail.
import { formatBytes } from '../../lib/analysis/kvBytes';
import type { PersistProblem } from '../../lib/state/store';
import { useT, type T } from '../common/i18n';

/** "the scenario “x”", "your settings", … */
export function whatText(t: T, what: PersistProblem['what']): string {
  if (!what) return t('storage.what.changes');
  if (what.kind === 'scenario') return t('storage.what.scenario', { name: what.name });
  if (what.kind === 'scenarios') return t('storage.what.scenarios', { count: what.count });
  if (what.kind === 'deletion') return t('storage.what.deletion');
  return t('storage.what.settings');
}

/** " (4.7 MiB of 5 MiB used)" when the browser said, else "". */
export function usageText(t: T, usage: number | null, quota: number | null): string {
  return usage !== null && quota !== null && quota > 0 ? t('storage.usage', { used: formatBytes(usage), quota: formatBytes(quota) }) : '';
}

/** The detail in the user's language when kvscope coded it (a key and plain parameters), else the browser's words. */
export function detailText(t: T, p: Pick<PersistProblem, 'detail' | 'detailCoded'>): string {
  const c = p.detailCoded;
  return c && !c.parts && !c.where ? t(c.key, c.params) : p.detail;
}

/** The sentence for a problem; `what` names what failed when it is not one of the store's own saves. */
export function problemText(t: T, p: PersistProblem, what = whatText(t, p.what)): string {
  switch (p.code) {
    case 'quota':
      return t('storage.quota', { what, usage: usageText(t, p.usage, p.quota) });
    case 'unavailable':
      return t('storage.unavailable', { detail: detailText(t, p) });
    case 'blocked':
      return t('storage.blocked');
    case 'read':
      return t('storage.read', { detail: detailText(t, p) });
    default:
      return t('storage.failed', { what, detail: detailText(t, p) });
  }
}


export function StorageNotice({ problem }: { problem: PersistProblem | null }) {
  const t = useT();
  if (!problem) return null;
  return (
    <div role="alert" data-role="storage-notice" data-code={problem.code} style={{ background: 'var(--c-warn-soft)', color: 'var(--c-text, inherit)', padding: '6px 10px', borderRadius: 'var(--radius)' }}>
      {problemText(t, problem)}
    </div>
  );
}
