'use client';
// The CSS width of an element, kept current with a ResizeObserver: the A/B figures size themselves from
// their panel instead of fixed pixel constants, so the tab fits 1024 px and fills 1920 px.
import { useLayoutEffect, useRef, useState } from 'react';

export function useContainerWidth<T extends HTMLElement>(initial: number): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(initial);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidth(Math.floor(el.clientWidth));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, width];
}
