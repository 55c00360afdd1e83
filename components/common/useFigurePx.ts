'use client';
// The size of a tab's main square figure so that it fits above the fold: the space below the element's top
// within the window's height, and the element's width less what sits beside the figure. Recomputed on resize
// and when presentation mode changes the page's chrome.
import { useLayoutEffect, useState, type RefObject } from 'react';

export interface FigureFit {
  /** CSS px the figure's frame adds above and below the square (toolbars, axis labels, legend). */
  chromeV: number;
  /** CSS px the frame adds beside the square (axis labels, bands, pinned strips). */
  chromeH: number;
  /** CSS px kept free beside the figure (a side column), subtracted from the container's width. */
  aside: number;
  min: number;
  max: number;
  /** Figures side by side in the width (default 1), `gap` CSS px apart. */
  columns?: number;
  gap?: number;
}

export function fitFigurePx(top: number, width: number, windowH: number, f: FigureFit): number {
  const byHeight = windowH - top - f.chromeV;
  const n = f.columns ?? 1;
  const byWidth = (width - f.aside - (n - 1) * (f.gap ?? 0)) / n - f.chromeH;
  return Math.round(Math.max(f.min, Math.min(f.max, byHeight, byWidth)));
}

/** Fits the figure inside `ref`'s element (its top and width), rechecked when `deps` change. */
export function useFigurePx(ref: RefObject<HTMLElement | null>, fit: FigureFit, dep: unknown): number {
  const [px, setPx] = useState(fit.min);
  const { chromeV, chromeH, aside, min, max, columns = 1, gap = 0 } = fit;
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const r = el.getBoundingClientRect();
      setPx(fitFigurePx(r.top + window.scrollY, r.width, window.innerHeight, { chromeV, chromeH, aside, min, max, columns, gap }));
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    window.addEventListener('resize', measure);
    return () => {
      ro.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [ref, chromeV, chromeH, aside, min, max, columns, gap, dep]);
  return px;
}
