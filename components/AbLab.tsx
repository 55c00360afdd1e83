'use client';
// Placeholder: the A/B comparison views (issue 6) are being built.
import type { EngineClient } from '../lib/engine/client';
import type { CustomScenario } from '../lib/state/store';
import type { Analysed } from './Lab';

export interface AbLabProps {
  client: EngineClient;
  analysed: Analysed | null;
  /** The page's current scenario ref (built-in `id[:variant]` or `custom:<id>`). */
  scenario: string;
  custom: CustomScenario[];
  generationConfig: unknown | null;
}

export function AbLab(_: AbLabProps) {
  return null;
}
