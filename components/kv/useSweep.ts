'use client';
// The KV-cache tab's recompute sweep, animated: the fraction of the entries after the first difference
// recomputed so far, played at a chosen speed (a full sweep takes 6 s at 1×) or set by hand. A new
// comparison shows the sweep done.
import { useEffect, useRef, useState } from 'react';

export const SWEEP_SPEEDS = [0.5, 1, 2, 4];
const FULL_SWEEP_S = 6;

export interface Sweep {
  /** 0…1; 1 is done. */
  fraction: number;
  playing: boolean;
  speed: number;
  setSpeed: (s: number) => void;
  /** Plays from the start when done, else pauses or resumes. */
  toggle: () => void;
  /** Sets the fraction by hand (pausing). */
  seek: (f: number) => void;
}

export function useSweep(reset: unknown): Sweep {
  const [fraction, setFraction] = useState(1);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(1);
  const raf = useRef(0);
  useEffect(() => {
    if (!playing) return;
    let last = performance.now();
    const step = (now: number) => {
      const dt = (now - last) / 1000;
      last = now;
      setFraction((f) => {
        const next = f + (dt * speed) / FULL_SWEEP_S;
        if (next >= 1) {
          setPlaying(false);
          return 1;
        }
        return next;
      });
      raf.current = requestAnimationFrame(step);
    };
    raf.current = requestAnimationFrame(step);
    return () => cancelAnimationFrame(raf.current);
  }, [playing, speed]);
  useEffect(() => {
    setFraction(1);
    setPlaying(false);
  }, [reset]);
  return {
    fraction,
    playing,
    speed,
    setSpeed,
    toggle: () => {
      if (fraction >= 1) setFraction(0);
      setPlaying((p) => !p);
    },
    seek: (f) => {
      setPlaying(false);
      setFraction(f);
    },
  };
}
