'use client';
// The width of a box, for figures that size themselves from their container (ResizeObserver): the box must
// not be widened by its content (min-width 0, overflow hidden), or the figure would feed its own width back.
import { useEffect, useRef, useState } from 'react';

export function useBoxWidth(initial: number, min = 240): [React.RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => setWidth(Math.max(min, Math.floor(el.clientWidth) - 2)));
    ro.observe(el);
    return () => ro.disconnect();
  }, [min]);
  return [ref, width];
}
