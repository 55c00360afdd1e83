'use client';
// The axis-label size the page's CSS sets (--label-px: 12 px, 16 in presentation mode), followed when the
// <html> element's attributes change (presentation mode is an attribute there).
import { useEffect, useState } from 'react';

const DEFAULT_LABEL_PX = 12;

function read(): number {
  if (typeof document === 'undefined') return DEFAULT_LABEL_PX;
  const v = parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--label-px'));
  return Number.isFinite(v) && v > 0 ? v : DEFAULT_LABEL_PX;
}

export function useLabelPx(): number {
  const [px, setPx] = useState(DEFAULT_LABEL_PX);
  useEffect(() => {
    const update = () => setPx(read());
    update();
    const mo = new MutationObserver(update);
    mo.observe(document.documentElement, { attributes: true });
    return () => mo.disconnect();
  }, []);
  return px;
}
