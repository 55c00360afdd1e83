'use client';
// CONTRACT STUB — to be implemented (run-log helper): context growth of an imported run log.
import type { RunLog } from '../lib/runlog/parse';

export interface RunLogViewProps {
  log: RunLog;
  /** The import's name (file name or the user's), shown as the title. */
  name: string;
  /** Notes from parsing (form detected, cut fields, …). */
  notes: string[];
}

export function RunLogView({ name }: RunLogViewProps) {
  return <section data-role="runlog-view">{name}</section>;
}
