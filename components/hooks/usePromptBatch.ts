'use client';
// Renders a list of requests with the page's chat template (one at a time, through the caller's
// renderPrompt, e.g. the engine worker) and reports progress. The last finished batch stays available
// (with its key) while the next one renders, so views do not flash. Built on useEngineTask.
import { useEffect, useRef } from 'react';
import type { Prompt } from '../../lib/prompt/prompt';
import type { ChatRequest } from '../../lib/scenarios/types';
import { useEngineTask } from './useEngineTask';

export type RenderPrompt = (request: ChatRequest) => Promise<Prompt>;

type Progress = { done: number; total: number };

export interface Batch {
  /** The last finished batch: the key it was rendered for and one prompt per request. */
  ready: { key: string; prompts: Prompt[] } | null;
  /** Set while a batch renders. */
  progress: Progress | null;
  error: string | null;
  /** The error as plain data, with its coded message when lib/ gave one (show it with useDescribe). */
  failure?: unknown;
}

/**
 * `requests` must be the same for the same `key`. `render` null means there is no tokenizer (no model
 * loaded): everything is dropped. A new `render` renders again only when the key has no finished batch
 * yet (e.g. after an error), so the caller can pass a new function whenever a retry may help.
 */
export function usePromptBatch(render: RenderPrompt | null, key: string, requests: readonly ChatRequest[]): Batch {
  // The renderer the latest task started with: a new one retries only what it did not finish.
  const startedWith = useRef<RenderPrompt | null>(null);
  const task = useEngineTask<{ key: string; prompts: Prompt[] }, Progress>(render ? key : null, async ({ progress, stale }) => {
    const r = render!;
    startedWith.current = r;
    const prompts: Prompt[] = [];
    progress({ done: 0, total: requests.length });
    for (const q of requests) {
      prompts.push(await r(q));
      if (stale()) break;
      progress({ done: prompts.length, total: requests.length });
    }
    return { key, prompts };
  });
  const finished = task.value?.key === key;
  const { rerun } = task;
  useEffect(() => {
    if (render && startedWith.current !== render && !finished) rerun();
  }, [render]); // eslint-disable-line react-hooks/exhaustive-deps -- a new renderer is the only trigger
  return { ready: task.value, progress: task.progress, error: task.error, failure: task.failure };
}
