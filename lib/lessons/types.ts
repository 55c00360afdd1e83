// Lessons (docs/CONCEPTS.md#lessons): a guided path through the chapter, one step at a time. A step is a
// few sentences in both languages, the live view it configures (model(s), scenario, which call, layer,
// head, hide-sink …) and "what to notice" callouts computed from the tensors of the run the page just did.
// Pure data and pure functions: no DOM, no React, no engine. The page runs the step's request on the
// step's model(s) and hands the results (one Analysed per model, in `view.models` order) to `callouts`.
import type { HeadReduction } from '../analysis/attentionView';
import type { StreamingResult } from '../analysis/streaming';
import type { Lang } from '../i18n/types';
import type { Analysed } from '../state/analysed';
import type { KvLessonRun } from './kvPrefix';
import type { PatternLessonRun } from './harmfulPatterns';
import type { StatusArmRun, StatusSeedsRun } from './statusBar';
import type { ContextChoice } from '../state/store';

/** Prose in both languages. `{name}` in a callout template marks a value filled in from the run. */
export interface Text {
  en: string;
  zh: string;
}

/** What the live view of a step shows. Every kind runs `scenario`'s `context` on each of `models`. */
export interface ViewBase {
  /** One model, or two shown side by side on the same prompt. */
  models: string[];
  /** A built-in scenario ref (lib/scenarios/catalog). */
  scenario: string;
  context: ContextChoice;
}

export type StepView =
  /** The attention heatmap of one layer and head (or reduction), per model; `zoom` is the window it opens at (cells). */
  | (ViewBase & { kind: 'attention'; layer: number; head: HeadReduction; hideSink: boolean; selected?: number; zoom?: { q0: number; k0: number; span: number } })
  /** The sink score of token 0 per layer (bars), per model. */
  | (ViewBase & { kind: 'sink' })
  /** The agent loop call by call: the message list each call sends, with token counts. */
  | (ViewBase & { kind: 'inspector' })
  /** The prompt as the model reads it: one token stream coloured by segment; `segment` is outlined. */
  | (ViewBase & { kind: 'tokens'; focus?: string })
  /** A one-token edit of the prompt (lib/lessons/kvPrefix kvEditOf) against the prompt, K/V diffed per layer (shared cache). */
  | (ViewBase & { kind: 'kv' })
  /** The six context patterns' prefix-cache accounting (lib/lessons/harmfulPatterns), as the Economics tab shows it. */
  | (ViewBase & { kind: 'patterns' })
  /** The StreamingLLM experiment per model on the first `tokens` tokens of lib/lessons/streamingText: W keys per query, k sinks. */
  | (ViewBase & { kind: 'streaming'; window: number; sink: number; tokens: number })
  /** The status-bar A/B (lib/lessons/statusBar): `scenario` is arm B; arm A is computed besides; region masses at each decision position. */
  | (ViewBase & { kind: 'ab' })
  /** The status-bar A/B's decisions (lib/lessons/statusBar statusSeeds): both arms sampled over a few seeds and tallied; `scenario` is arm B. */
  | (ViewBase & { kind: 'seeds' })
  /** The seed run log's growth chart (lib/lessons/contextGrowth); no model runs (`models` is empty). */
  | (ViewBase & { kind: 'growth' });

/** One value shown in a callout: the number (for tests) and how the page writes it. */
export interface CalloutValue {
  value: number;
  text: string;
}

/**
 * A "what to notice" line: a template with `{name}` slots, numbers computed from the run (`values`) and
 * words taken from it (`words`: token labels, model names). `missing` marks a callout saying that the
 * embedded model does not show what the chapter describes (and what it shows instead).
 */
export interface Callout {
  id: string;
  template: Text;
  values: Record<string, CalloutValue>;
  words?: Record<string, string>;
  missing?: boolean;
}

/**
 * What a step's view computes besides the Analysed runs, handed to its callouts: one optional key per view
 * kind that needs it (a step's callouts read only their own key).
 */
export interface LessonExtra {
  /** 'kv' steps: the one-token edit's K/V comparison on the first model. */
  kv?: KvLessonRun;
  /** 'patterns' steps: every pattern's calls rendered on the first model and accounted. */
  patterns?: PatternLessonRun;
  /** 'streaming' steps: the experiment's result per model, in `view.models` order. */
  streaming?: StreamingResult[];
  /** 'ab' steps: arm A (without the status bar) rendered and prefilled on the first model. */
  statusArm?: StatusArmRun;
  /** 'seeds' steps: both status-bar arms sampled over a few seeds on the first model. */
  seeds?: StatusSeedsRun;
}

export interface LessonStep {
  id: string;
  title: Text;
  /** A few sentences in our own words (the chapter is the source). */
  body: Text;
  view: StepView;
  /** Computed from the step's runs: one Analysed per model of `view.models`, in that order, and the view's own computation (LessonExtra). */
  callouts: (runs: readonly Analysed[], extra?: LessonExtra) => Callout[];
}

export interface Lesson {
  slug: string;
  title: Text;
  summary: Text;
  steps: LessonStep[];
}

export const text = (t: Text, lang: Lang): string => t[lang];

/** A share in [0, 1] as the callouts write it: a percentage with one decimal ("21.8 %"). */
export function pct(x: number): CalloutValue {
  return { value: x, text: `${(100 * x).toFixed(1)} %` };
}

/** A count ("411"). */
export function count(n: number): CalloutValue {
  return { value: n, text: String(n) };
}

/** A ratio with one decimal ("3.2×"). */
export function times(x: number): CalloutValue {
  return { value: x, text: `${x.toFixed(1)}×` };
}

/** Fills a callout's template: slots become their text; the parts are returned so a view can mark the numbers. */
export function calloutParts(c: Callout, lang: Lang): ({ kind: 'text'; text: string } | { kind: 'value'; key: string; text: string } | { kind: 'word'; key: string; text: string })[] {
  const out: ({ kind: 'text'; text: string } | { kind: 'value'; key: string; text: string } | { kind: 'word'; key: string; text: string })[] = [];
  const re = /\{(\w+)\}/g;
  const tpl = c.template[lang];
  let at = 0;
  for (let m = re.exec(tpl); m; m = re.exec(tpl)) {
    if (m.index > at) out.push({ kind: 'text', text: tpl.slice(at, m.index) });
    const key = m[1]!;
    const v = c.values[key];
    const w = c.words?.[key];
    if (v) out.push({ kind: 'value', key, text: v.text });
    else if (w !== undefined) out.push({ kind: 'word', key, text: w });
    else out.push({ kind: 'text', text: m[0] });
    at = m.index + m[0].length;
  }
  if (at < tpl.length) out.push({ kind: 'text', text: tpl.slice(at) });
  return out;
}

/** The callout as plain text. */
export function calloutText(c: Callout, lang: Lang): string {
  return calloutParts(c, lang)
    .map((p) => p.text)
    .join('');
}
