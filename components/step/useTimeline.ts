'use client';
// The Step tab's timeline as tokens and spans: the prompt up to the generated part, then the generated
// tokens decoded from the vocabulary and read as reasoning / answer / tool calls (lib/generate, lib/prompt).
import { useCallback, useMemo } from 'react';
import type { Span, TokenInfo } from '../../lib/prompt/prompt';
import { displayToken } from '../../lib/prompt/label';
import type { Vocab } from '../../lib/prompt/vocab';
import { assistantSegments, decodeTokens, segmentSpans, specialTokenIds, tokenStrings } from '../../lib/generate/decodeTokens';
import { parseAssistantText, type ParsedAssistant } from '../../lib/prompt/assistantOutput';
import { messageStarts } from '../../lib/generate/stepper';
import type { Analysed } from '../../lib/state/analysed';
import type { StepOps } from './useStepSession';

export interface Timeline {
  tokens: TokenInfo[];
  spans: Span[];
  /** The generated part's text ('' without one). */
  genText: string;
}

export interface TimelineView {
  timeline: Timeline | null;
  /** Display text per position. */
  labels: string[];
  /** Where each message starts (for the ⇤ / ⇥ moves). */
  starts: number[];
  /** The generated part read as reasoning, answer and tool calls; null without one. */
  parsed: ParsedAssistant | null;
  /** Display text of a token id. */
  labelOf: (id: number) => string;
  /** False without a vocabulary: generated ids cannot be read, so nothing is generated. */
  canDecode: boolean;
}

export function useTimeline(analysed: Analysed | null, ops: StepOps, vocab: Vocab | null): TimelineView {
  const { session: s, genStart } = ops;
  const strings = useMemo(() => (vocab ? tokenStrings(vocab) : null), [vocab]);
  const specials = useMemo(() => (vocab ? specialTokenIds(vocab) : new Set<number>()), [vocab]);
  const revision = s?.revision ?? 0;
  const timeline = useMemo((): Timeline | null => {
    if (!analysed || !s) return null;
    const p = analysed.prompt;
    if (genStart === null) return { tokens: p.tokens, spans: p.spans, genText: '' };
    const head = p.tokens.slice(0, genStart);
    const spans: Span[] = [];
    for (const sp of p.spans) if (sp.start < genStart) spans.push({ ...sp, end: Math.min(sp.end, genStart) });
    const ids = s.seq.slice(genStart);
    if (!strings) {
      const bare: TokenInfo[] = ids.map((id) => ({ id, text: `#${id}`, bytes: new Uint8Array(), start: 0, end: 0, partial: false, special: false }));
      return { tokens: [...head, ...bare], spans: [...spans, ...segmentSpans(bare.map(() => 'answer'), genStart, p.messageCount, 'assistant')], genText: '' };
    }
    const d = decodeTokens(strings, ids, specials);
    const segs = assistantSegments(d.text, d.tokens);
    return { tokens: [...head, ...d.tokens], spans: [...spans, ...segmentSpans(segs, genStart, p.messageCount, 'assistant')], genText: d.text };
    // `revision` stands for s.seq (mutated in place by the session).
  }, [analysed, s, genStart, revision, strings, specials]); // eslint-disable-line react-hooks/exhaustive-deps
  const labels = useMemo(() => timeline?.tokens.map(displayToken) ?? [], [timeline]);
  const starts = useMemo(() => (timeline ? messageStarts(timeline.spans) : []), [timeline]);
  const parsed = useMemo(() => (timeline && genStart !== null ? parseAssistantText(timeline.genText) : null), [timeline, genStart]);

  const labelOf = useCallback(
    (id: number) => {
      if (!strings || !strings[id]) return `#${id}`;
      try {
        return displayToken(decodeTokens(strings, [id], specials).tokens[0]!);
      } catch {
        return `#${id}`;
      }
    },
    [strings, specials],
  );

  return { timeline, labels, starts, parsed, labelOf, canDecode: strings !== null };
}
