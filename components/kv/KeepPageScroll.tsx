'use client';
// Keeps the page where it is while its children mount or update. TokenView scrolls its selected chip into
// view with scrollIntoView, which scrolls every ancestor, the page included: a token list far below the
// KV maps (the edited token, the think-drop break) would pull the page down on first open and hide the maps.
// Passive effects run child first, so this restores the page's scroll after TokenView's effect; the token
// box's own scroll is kept. Not needed once TokenView scrolls only its own box.
import { useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';

export function KeepPageScroll({ children }: { children: ReactNode }) {
  const at = useRef<[number, number] | null>(null);
  useLayoutEffect(() => {
    at.current = [window.scrollX, window.scrollY];
  });
  useEffect(() => {
    const p = at.current;
    if (p && (window.scrollX !== p[0] || window.scrollY !== p[1])) window.scrollTo(p[0], p[1]);
  });
  return children;
}
