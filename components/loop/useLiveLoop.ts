'use client';
// The live agent loop in the page: runs lib/agent/liveLoop runLoop on the page's engine worker (through
// lib/engine/clientLoopEngine), with requests rendered by the worker's chat template and generated ids
// decoded from the vocabulary. Keeps the calls made so far, the call being generated (its ids stream in),
// and the finished run; Stop aborts through an AbortController (checked before each call and each token).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { runLoop, type LoopCall, type LoopRun } from '../../lib/agent/liveLoop';
import type { StatusPolicy } from '../../lib/agent/statusBar';
import type { EngineClient } from '../../lib/engine/client';
import { clientLoopEngine } from '../../lib/engine/clientLoopEngine';
import { renderPrompt } from '../../lib/engine/renderPrompt';
import { decodeTokens, specialTokenIds, tokenStrings } from '../../lib/generate/decodeTokens';
import type { SamplingSettings } from '../../lib/generate/sampling';
import type { Prompt } from '../../lib/prompt/prompt';
import type { Vocab } from '../../lib/prompt/vocab';
import type { ChatRequest } from '../../lib/scenarios/types';
import { errorData } from '../../lib/i18n/message';
import type { TaskFailure } from '../../lib/util/latestTask';

export interface LiveLoopSettings {
  maxCalls: number;
  maxNewTokens: number;
  status: StatusPolicy;
  sampling: SamplingSettings;
  seed: number;
}

export interface LiveLoopState {
  running: boolean;
  calls: LoopCall<Prompt>[];
  /** The call being generated: its index and the ids so far. */
  streaming: { index: number; ids: number[] } | null;
  run: LoopRun<Prompt> | null;
  /** Why the loop failed (show it with useDescribe). */
  error: TaskFailure | null;
}

const IDLE: LiveLoopState = { running: false, calls: [], streaming: null, run: null, error: null };

export interface LiveLoop extends LiveLoopState {
  start: (first: ChatRequest, settings: LiveLoopSettings) => Promise<void>;
  stop: () => void;
  /** Text of ids (special tokens kept), or null without a vocabulary. */
  decode: ((ids: number[]) => string) | null;
}

export function useLiveLoop(client: EngineClient | null, vocab: Vocab | null, contextLimit: number | null, onRun?: (run: LoopRun<Prompt>) => void): LiveLoop {
  const [state, setState] = useState<LiveLoopState>(IDLE);
  const abort = useRef<AbortController | null>(null);
  const decode = useMemo(() => {
    if (!vocab) return null;
    const strings = tokenStrings(vocab);
    const specials = specialTokenIds(vocab);
    return (ids: number[]) => decodeTokens(strings, ids, specials).text;
  }, [vocab]);

  // A new worker or model: what ran on the old one is over.
  useEffect(() => {
    abort.current?.abort();
    abort.current = null;
    setState(IDLE);
  }, [client, vocab]);
  useEffect(() => () => abort.current?.abort(), []);

  const start = useCallback(
    async (first: ChatRequest, s: LiveLoopSettings) => {
      if (!client || !decode || abort.current) return;
      const ac = new AbortController();
      abort.current = ac;
      setState({ running: true, calls: [], streaming: { index: 0, ids: [] }, run: null, error: null });
      try {
        const run = await runLoop(clientLoopEngine(client), {
          request: first,
          render: (r) => renderPrompt(client, r),
          decode,
          maxCalls: s.maxCalls,
          maxNewTokens: s.maxNewTokens,
          sampling: s.sampling,
          seed: s.seed,
          status: s.status,
          contextLimit: contextLimit ?? undefined,
          signal: ac.signal,
          onToken: (index, step) =>
            setState((p) => ({ ...p, streaming: p.streaming && p.streaming.index === index ? { index, ids: [...p.streaming.ids, step.id] } : { index, ids: [step.id] } })),
          onCall: (call) => setState((p) => ({ ...p, calls: [...p.calls, call], streaming: { index: call.index + 1, ids: [] } })),
        });
        if (abort.current === ac) setState((p) => ({ ...p, running: false, streaming: null, run, calls: run.calls }));
        onRun?.(run);
      } catch (e) {
        if (abort.current === ac) setState((p) => ({ ...p, running: false, streaming: null, error: errorData(e) }));
      } finally {
        if (abort.current === ac) abort.current = null;
      }
    },
    [client, decode, contextLimit, onRun],
  );

  const stop = useCallback(() => abort.current?.abort(), []);
  return { ...state, start, stop, decode };
}
