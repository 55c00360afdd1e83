'use client';
// The content width of an element (padding excluded), followed with a ResizeObserver: figures size themselves
// from their panel instead of fixed pixel constants (no horizontal overflow at 1280 px, usable at 1024 px). The
// box must not be widened by its own content (min-width 0), or the figure would feed its width back.
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';

/**
 * A ref to attach and its element's content width in CSS px (`fallback` until measured). The element may
 * mount after the hook (a panel shown once data arrives) or be replaced: each commit checks which element the
 * ref holds and observes that one, so the width is never left at the fallback.
 */
export function useBoxWidth<E extends HTMLElement = HTMLDivElement>(fallback = 900): [RefObject<E | null>, number] {
  const ref = useRef<E>(null);
  const [width, setWidth] = useState(fallback);
  const observed = useRef<E | null>(null);
  const observer = useRef<ResizeObserver | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el === observed.current) return;
    observer.current?.disconnect();
    observer.current = null;
    observed.current = el;
    if (!el) return;
    const measure = () => {
      const cs = getComputedStyle(el);
      const w = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
      if (w > 0) setWidth(Math.floor(w));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    observer.current = new ResizeObserver(measure);
    observer.current.observe(el);
  });
  useEffect(() => () => observer.current?.disconnect(), []);
  return [ref, width];
}
