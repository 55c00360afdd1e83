// The lessons the /lessons/ pages list, in teaching order (docs/CONCEPTS.md#lessons). A lesson not
// written yet is not listed.
import { agentLoop } from './agentLoop';
import { attentionSink } from './attentionSink';
import { chatTemplate } from './chatTemplate';
import { contextGrowthLesson } from './contextGrowth';
import { harmfulPatterns } from './harmfulPatterns';
import { kvPrefix } from './kvPrefix';
import { statusBar } from './statusBar';
import { statusBarCost } from './statusBarCost';
import type { Lesson } from './types';

export type { Callout, CalloutValue, Lesson, LessonExtra, LessonStep, StepView, Text } from './types';
export { calloutParts, calloutText } from './types';

export const LESSONS: readonly Lesson[] = [agentLoop, chatTemplate, attentionSink, kvPrefix, harmfulPatterns, statusBar, statusBarCost, contextGrowthLesson];

export function lessonBySlug(slug: string): Lesson | null {
  return LESSONS.find((l) => l.slug === slug) ?? null;
}

/** The step a URL asks for (?step=N, 1-based), clamped to the lesson; 0 when absent or invalid. */
export function stepFromQuery(search: string, steps: number): number {
  const v = new URLSearchParams(search).get('step');
  const n = v === null ? NaN : Number(v);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, steps) - 1 : 0;
}
