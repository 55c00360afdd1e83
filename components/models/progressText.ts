// The numbers of a file's transfer as the load line shows them: bytes of total, rate, time left (as a clock,
// which reads the same in every language), percent. Pure, so it is unit-tested.
import { formatBytes } from '../../lib/analysis/kvBytes';
import type { FileProgress } from '../../lib/model/source/types';
import { formatPercent0 } from '../../lib/view/scale';

/** Seconds as m:ss, or h:mm:ss from an hour (rounded up: "0:01" until the end, never "0:00" too early). */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

export function formatRate(bytesPerSecond: number): string {
  return `${formatBytes(Math.round(bytesPerSecond))}/s`;
}

export interface ProgressParts {
  file: string;
  loaded: string;
  total: string | null;
  rate: string | null;
  eta: string | null;
  percent: string | null;
}

/** Each number of a FileProgress formatted; null where it is unknown (no total, no rate yet, read from cache). */
export function progressParts(p: FileProgress): ProgressParts {
  const known = p.total !== null && p.total > 0;
  return {
    file: p.file,
    loaded: formatBytes(p.loaded),
    total: p.total !== null ? formatBytes(p.total) : null,
    rate: p.bytesPerSecond > 0 ? formatRate(p.bytesPerSecond) : null,
    eta: p.etaSeconds !== null && !p.cached && p.bytesPerSecond > 0 ? formatDuration(p.etaSeconds) : null,
    percent: known ? formatPercent0(Math.min(1, p.loaded / p.total!)) : null,
  };
}
