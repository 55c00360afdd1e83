'use client';
// The Step tab's session on the worker's real K/V cache (lib/generate/stepSession), one per analysed prompt:
// operations on it with their busy line and errors, and moves of the cursor. Views read what it returns.
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { EngineClient } from '../../lib/engine/client';
import { StepSession } from '../../lib/generate/stepSession';
import type { Analysed } from '../../lib/state/analysed';
import { useT } from '../common/i18n';
import { errorData } from '../../lib/i18n/message';
import type { TaskFailure } from '../../lib/util/latestTask';

/** Operations that run longer than this show a progress indicator. */
const BUSY_AFTER_MS = 500;

/**
 * Tokens in the cache when the tab opens: 1, the smallest cache with something to show. The query is the
 * row of the last cached token, so an empty cache has no attention row and no logits; with one token the
 * query attends to itself (weight 1) and its logits predict token 1. Stepping, playing or End go on from there.
 */
export const OPEN_AT = 1;

/**
 * Query rows the session keeps before the cursor (lib/generate/stepSession keepRows): the tab draws only
 * the current one, so memory stays linear in the prompt's length; these few make ← instant, and a step back
 * further re-decodes one token.
 */
export const KEEP_ROWS = 16;

export interface StepOps {
  /** The session of the analysed prompt (null before the first one). */
  session: StepSession | null;
  /** Same session across renders; read it in callbacks that outlive one. */
  sessionRef: React.RefObject<StepSession | null>;
  /** Counts sessions, to tell a new session from an old one at the same cursor. */
  sessionNo: number;
  /** Aborted when the current session is replaced or the tab unmounts: work on it (a generation) stops. */
  lifetime: () => AbortSignal;
  cursor: number;
  /** Tokens on the timeline (prompt plus generated). */
  length: number;
  /** First generated token, or null. */
  genStart: number | null;
  /** The running operation's label, once it took longer than BUSY_AFTER_MS. */
  busy: string | null;
  /** An operation runs now (however briefly): moves asked for meanwhile are dropped, so the tab is not idle. */
  pending: boolean;
  /** The last operation's failure (show it with useDescribe). */
  error: TaskFailure | null;
  setError: (e: TaskFailure | null) => void;
  /** Operations in flight (moves asked for meanwhile are dropped, not queued). */
  inFlight: React.RefObject<number>;
  /** Re-renders after the session changed in place. */
  refresh: () => void;
  /** Runs one session operation: errors are shown, a progress line appears if it takes > 0.5 s. False on failure. */
  run: (label: string, fn: () => Promise<unknown>) => Promise<boolean>;
  /** Moves the cursor to `target` (clamped to 1…length) with one extend or one fork. */
  move: (target: number) => void;
}

export function useStepSession(client: EngineClient, analysed: Analysed | null): StepOps {
  const t = useT();
  const [, refresh] = useReducer((x: number) => x + 1, 0);
  const sessionRef = useRef<StepSession | null>(null);
  const [session, setSession] = useState<StepSession | null>(null);
  const [sessionNo, setSessionNo] = useState(0);
  const [error, setError] = useState<TaskFailure | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const inFlight = useRef(0);
  const life = useRef(new AbortController());

  const run = useCallback(async (label: string, fn: () => Promise<unknown>): Promise<boolean> => {
    inFlight.current++;
    setPending(true);
    const timer = setTimeout(() => setBusy(label), BUSY_AFTER_MS);
    try {
      await fn();
      setError(null);
      return true;
    } catch (e) {
      setError(errorData(e));
      return false;
    } finally {
      clearTimeout(timer);
      inFlight.current--;
      if (inFlight.current === 0) {
        setBusy(null);
        setPending(false);
      }
      refresh();
    }
  }, []);

  // A session per analysed prompt (a new call, scenario or model re-opens here): the tab opens at the START,
  // the cache (re)established by ONE prefill (other views share this worker's cache) of OPEN_AT tokens.
  useEffect(() => {
    if (!analysed) return;
    const s = new StepSession(client, analysed.prompt.ids, { keepRows: KEEP_ROWS });
    const ac = new AbortController();
    life.current = ac;
    sessionRef.current = s;
    setSession(s);
    setSessionNo((n) => n + 1);
    const n = Math.min(OPEN_AT, analysed.prompt.ids.length);
    void run(t('step.busyPrefill', { n }), () => s.establish(n));
    return () => {
      ac.abort();
      sessionRef.current = null;
    };
  }, [client, analysed]); // eslint-disable-line react-hooks/exhaustive-deps

  const move = useCallback(
    (target: number) => {
      const cur = sessionRef.current;
      if (!cur || inFlight.current > 0) return; // key repeats while a move runs are dropped, not queued
      const to = Math.max(1, Math.min(target, cur.seq.length));
      if (to === cur.cursor) return;
      const label = to > cur.cursor ? t('step.busyExtend', { n: to - cur.cursor }) : t('step.busyFork');
      void run(label, () => cur.moveTo(to));
    },
    [t, run],
  );

  return {
    session,
    sessionRef,
    sessionNo,
    lifetime: () => life.current.signal,
    cursor: session?.cursor ?? 0,
    length: session?.seq.length ?? 0,
    genStart: session?.genStart ?? null,
    busy,
    pending,
    error,
    setError,
    inFlight,
    refresh,
    run,
    move,
  };
}
