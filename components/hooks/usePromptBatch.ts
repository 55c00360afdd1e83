'use client';
// Renders a list of requests with the page's chat template (one at a time, through the caller's
// renderPrompt, e.g. the engine worker) and reports progress. The last finished batch stays available
// (with its key) while the next one renders, so views do not flash.
import { useEffect, useRef, useState } from 'react';
import type { Prompt } from '../../lib/prompt/prompt';
import type { ChatRequest } from '../../lib/scenarios/types';

export type RenderPrompt = (request: ChatRequest) => Promise<Prompt>;

export interface Batch {
  /** The last finished batch: the key it was rendered for and one prompt per request. */
  ready: { key: string; prompts: Prompt[] } | null;
  /** Set while a batch renders. */
  progress: { done: number; total: number } | null;
  error: string | null;
}

/**
 * `requests` must be the same for the same `key`. `render` null means there is no tokenizer (no model
 * loaded): everything is dropped. A new `render` renders again only when the key has no finished batch
 * yet (e.g. after an error), so the caller can pass a new function whenever a retry may help.
 */
export function usePromptBatch(render: RenderPrompt | null, key: string, requests: readonly ChatRequest[]): Batch {
  const [batch, setBatch] = useState<Batch>({ ready: null, progress: null, error: null });
  const done = useRef<string | null>(null);
  useEffect(() => {
    if (!render) {
      done.current = null;
      setBatch({ ready: null, progress: null, error: null });
      return;
    }
    if (done.current === key) return;
    let stale = false;
    setBatch((b) => ({ ...b, progress: { done: 0, total: requests.length }, error: null }));
    (async () => {
      const prompts: Prompt[] = [];
      for (const r of requests) {
        prompts.push(await render(r));
        if (stale) return;
        setBatch((b) => ({ ...b, progress: { done: prompts.length, total: requests.length } }));
      }
      done.current = key;
      setBatch({ ready: { key, prompts }, progress: null, error: null });
    })().catch((e: Error) => !stale && setBatch((b) => ({ ...b, progress: null, error: e.message })));
    return () => {
      stale = true;
    };
  }, [render, key]); // eslint-disable-line react-hooks/exhaustive-deps
  return batch;
}
