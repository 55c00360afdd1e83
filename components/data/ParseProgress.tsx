'use client';
// The progress of reading an import in the parse worker, with a Cancel button: shown only for a job that
// has run longer than SHOW_PROGRESS_AFTER_MS (a short read just finishes). Decoding a file's bytes has a
// percentage; the reader itself is one step, shown with the time it has taken so far.
import { useEffect, useState } from 'react';
import { formatBytes } from '../../lib/analysis/kvBytes';
import { SHOW_PROGRESS_AFTER_MS, useParseJobs, type ParseJob } from '../hooks/useParseWorker';
import { useT, type T } from '../common/i18n';

function line(t: T, job: ParseJob, now: number): string {
  const name = job.name || t('runlog.parseUnnamed');
  const size = formatBytes(job.size);
  const p = job.progress;
  if (!p) return t('runlog.parseStarting', { name });
  if (p.stage === 'decode') return t('runlog.parseDecode', { name, size, percent: `${Math.floor((100 * p.done) / Math.max(1, p.total))}%` });
  return t('runlog.parseParse', { name, size, seconds: ((now - job.startedAt) / 1000).toFixed(1) });
}

/** The oldest running parse job that is past the threshold, or nothing. */
export function ParseProgress() {
  const t = useT();
  const jobs = useParseJobs();
  const [now, setNow] = useState(0);
  const running = jobs.length > 0;
  // While a job runs, the clock moves a few times a second: the line appears after the threshold and its seconds count.
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(performance.now()), 250);
    return () => clearInterval(timer);
  }, [running]);
  const job = jobs.find((j) => now - j.startedAt >= SHOW_PROGRESS_AFTER_MS);
  if (!job) return null;
  const p = job.progress;
  const fraction = p?.stage === 'decode' && p.total > 0 ? p.done / p.total : undefined;
  return (
    <div data-role="parse-progress" data-stage={p?.stage ?? 'starting'} aria-live="polite" style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap', marginTop: 4 }}>
      <progress aria-label={t('runlog.parseBar')} value={fraction} max={fraction === undefined ? undefined : 1} style={{ width: 120 }} />
      <span style={{ fontSize: 'var(--fs-sm)' }}>{line(t, job, now)}</span>
      <button data-role="parse-cancel" onClick={job.cancel}>
        {t('runlog.parseCancel')}
      </button>
    </div>
  );
}
