'use client';
// Placeholder: the stepper and generation views (issue 6) are being built.
import type { EngineClient } from '../lib/engine/client';
import type { Vocab } from '../lib/prompt/vocab';
import type { Analysed } from './Lab';

export interface StepLabProps {
  client: EngineClient;
  analysed: Analysed | null;
  vocab: Vocab | null;
  generationConfig: unknown | null;
}

export function StepLab(_: StepLabProps) {
  return null;
}
