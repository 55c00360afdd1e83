// Where a thinking model's cache breaks although the agent only appends
// (docs/CONCEPTS.md#think-block-drop): Qwen3's chat template renders an assistant turn's
// reasoning_content as <think>…</think> only while no newer real user query follows it. When the next
// question arrives the earlier <think> blocks vanish from the render, so the new prompt leaves the old
// one at the first dropped block and everything after it is recomputed.
//
// Works on rendered prompts (their spans, segment 'think'), so it reports what the real template does,
// not what this module expects. Assumes an append-only run (lib/agent/run.ts runOf): message k is the
// same message in every call that holds it, so message indices can be compared across calls.
import { accountCalls } from './accounting';
import type { Prompt } from '../prompt/prompt';
import { spanIndexAt } from '../prompt/prompt';

export interface ThinkDropCall {
  index: number;
  /** The earlier call sharing the longest token prefix; null for the first call. */
  earlier: number | null;
  /** First token where this call differs from `earlier`; null for the first call. */
  breakAt: number | null;
  /** This call contains all of `earlier`: nothing cached is lost. */
  extendsEarlier: boolean;
  /** Tokens of `earlier`'s prompt from breakAt on: the cache this call cannot reuse. */
  lostTokens: number;
  /** Message (of `earlier`'s labelling) holding the first differing token; null when nothing is lost. */
  breakMessage: number | null;
  breakSegment: string | null;
  /** Messages whose <think> block was in `earlier`'s prompt but is not in this one. */
  dropped: number[];
  /** Messages of this call that carry reasoning_content in the request but are rendered without <think>. */
  withoutThink: number[];
  /** The break lies in the render of the first dropped message: the template, not the agent, broke the cache. */
  causedByThinkDrop: boolean;
}

/** Message indices with a rendered <think> segment. */
export function thinkMessages(prompt: Prompt): Set<number> {
  const out = new Set<number>();
  for (const s of prompt.spans) if (s.segment === 'think' && s.message >= 0 && s.message < prompt.messageCount) out.add(s.message);
  return out;
}

/**
 * Per call: where the cache breaks against the best earlier call and which think blocks the template
 * dropped. `reasoning[i]` lists the message indices of call i that carry reasoning_content (pass it to get
 * `withoutThink`; an empty think is not rendered, so spans alone cannot tell).
 */
export function thinkDrops(prompts: readonly Prompt[], reasoning: readonly (readonly number[])[] = []): ThinkDropCall[] {
  const acc = accountCalls(
    prompts.map((p) => p.ids),
    { blockSize: 1 },
  );
  const thinks = prompts.map(thinkMessages);
  return prompts.map((prompt, i) => {
    const a = acc.calls[i]!;
    const withoutThink = (reasoning[i] ?? []).filter((m) => !thinks[i]!.has(m));
    if (a.bestEarlier === null) {
      return { index: i, earlier: null, breakAt: null, extendsEarlier: false, lostTokens: 0, breakMessage: null, breakSegment: null, dropped: [], withoutThink, causedByThinkDrop: false };
    }
    const earlier = prompts[a.bestEarlier]!;
    const breakAt = a.prefixMatch;
    const extendsEarlier = breakAt === earlier.ids.length;
    const dropped = [...thinks[a.bestEarlier]!].filter((m) => m < prompt.messageCount && !thinks[i]!.has(m)).sort((x, y) => x - y);
    const span = extendsEarlier ? undefined : earlier.spans[spanIndexAt(earlier, breakAt)];
    const breakMessage = span ? span.message : null;
    return {
      index: i,
      earlier: a.bestEarlier,
      breakAt,
      extendsEarlier,
      lostTokens: earlier.ids.length - breakAt,
      breakMessage,
      breakSegment: span ? span.segment : null,
      dropped,
      withoutThink,
      causedByThinkDrop: breakMessage !== null && dropped.length > 0 && breakMessage === dropped[0],
    };
  });
}

/** Indices of the messages of a request that carry reasoning_content (for thinkDrops' second argument). */
export function reasoningMessages(messages: readonly { role: string; reasoning_content?: string | null }[]): number[] {
  return messages.flatMap((m, i) => (m.role === 'assistant' && typeof m.reasoning_content === 'string' ? [i] : []));
}
