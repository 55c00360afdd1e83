'use client';
// Play in the Step tab: one step (one one-token extend) per tick at the chosen speed until the end of the
// timeline. The loop is an engine task keyed by play/speed, so pausing or a new speed cancels it.
import { useEffect, useState } from 'react';
import { useEngineTask } from '../hooks/useEngineTask';
import { useT } from '../common/i18n';
import type { StepOps } from './useStepSession';

export const SPEEDS = [1, 2, 5, 10, 20, 50];

export interface Playback {
  playing: boolean;
  setPlaying: (p: boolean | ((p: boolean) => boolean)) => void;
  /** Steps per second. */
  speed: number;
  setSpeed: (s: number) => void;
}

export function usePlayback(ops: StepOps): Playback {
  const t = useT();
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(10);
  const { sessionRef, run } = ops;

  useEngineTask(playing ? `play:${speed}` : null, async ({ stale }) => {
    while (!stale()) {
      const cur = sessionRef.current;
      if (!cur || cur.cursor >= cur.seq.length) break;
      const ok = await run(t('step.busyExtend', { n: 1 }), () => cur.moveTo(cur.cursor + 1));
      if (!ok) break;
      await new Promise((r) => setTimeout(r, 1000 / speed));
    }
    if (!stale()) setPlaying(false);
  });

  // A new session, or an error of any operation, stops playing.
  useEffect(() => setPlaying(false), [ops.session]);
  useEffect(() => {
    if (ops.error) setPlaying(false);
  }, [ops.error]);

  return { playing, setPlaying, speed, setSpeed };
}
