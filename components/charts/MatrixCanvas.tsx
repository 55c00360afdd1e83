'use client';
// One canvas showing a raster: rows × cols backing-store pixels filled by a painter from lib/view (paintRgba,
// paintDiverging, paintCells over a value matrix, usually pooled by lib/view/raster poolMatrix), put with one
// putImageData, then optional strokes on top. Every matrix-like view paints through it (the heatmap, the A/B
// rows and difference, the K/V difference map, the attention strip, the legend ramps). The caller sizes the
// raster (CSS size × useDevicePixelRatio() for device-sharp pixels) and sets the CSS size in `style`.
import { useEffect, useLayoutEffect, useRef, useState, type CanvasHTMLAttributes, type RefObject } from 'react';

/** window.devicePixelRatio, updated on resize (zooming the page changes it); 1 on the server. */
export function useDevicePixelRatio(): number {
  const [dpr, setDpr] = useState(() => (typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1));
  useEffect(() => {
    const onResize = () => setDpr(window.devicePixelRatio || 1);
    onResize();
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return dpr;
}

export interface MatrixCanvasProps extends Omit<CanvasHTMLAttributes<HTMLCanvasElement>, 'width' | 'height'> {
  /** Backing-store size: pixel rows and columns of the raster. Nothing is painted while either is 0. */
  rows: number;
  cols: number;
  /**
   * Writes rows × cols RGBA pixels (row-major) into `out`. Painting runs again whenever this function, the
   * overlay or the size changes, so memoise it on what it draws.
   */
  paint: (out: Uint8ClampedArray, rows: number, cols: number) => void;
  /** Drawn over the pixels once they are put (lines, marks), in backing-store pixels. */
  overlay?: (ctx: CanvasRenderingContext2D, rows: number, cols: number) => void;
  /** A performance.mark written after each paint. */
  mark?: string;
  /** The canvas element, for callers that measure it or listen on it. */
  canvasRef?: RefObject<HTMLCanvasElement | null>;
}

/**
 * The canvas. Painting runs as a layout effect, in the commit itself, so the picture never lags the text
 * around it — except a newly mounted canvas's first paint, which runs in a task of its own right after the
 * commit: opening a tab then costs two shorter main-thread tasks instead of one long one (issue 17, a tab
 * switch under 200 ms; docs/BENCHMARKS.md). Each paint increments the canvas's data-painted (tests and
 * benchmarks wait on it).
 */
export function MatrixCanvas({ rows, cols, paint, overlay, mark, canvasRef, ...rest }: MatrixCanvasProps) {
  const own = useRef<HTMLCanvasElement>(null);
  const ref = canvasRef ?? own;
  const image = useRef<ImageData | null>(null);
  const painted = useRef(false);
  useLayoutEffect(() => {
    const c = ref.current;
    if (!c || rows < 1 || cols < 1) return;
    const draw = () => {
      if (c.width !== cols) c.width = cols;
      if (c.height !== rows) c.height = rows;
      const ctx = c.getContext('2d');
      if (!ctx) return;
      ctx.imageSmoothingEnabled = false;
      const img = image.current && image.current.width === cols && image.current.height === rows ? image.current : ctx.createImageData(cols, rows);
      image.current = img;
      paint(img.data, rows, cols);
      ctx.putImageData(img, 0, 0);
      overlay?.(ctx, rows, cols);
      painted.current = true;
      c.dataset.painted = String(Number(c.dataset.painted ?? 0) + 1);
      if (mark) performance.mark(mark);
    };
    if (painted.current) {
      draw();
      return;
    }
    // Size the backing store now (the layout does not jump), paint in the next task.
    if (c.width !== cols) c.width = cols;
    if (c.height !== rows) c.height = rows;
    const id = setTimeout(draw, 0);
    return () => clearTimeout(id);
  }, [ref, rows, cols, paint, overlay, mark]);
  return <canvas ref={ref} {...rest} />;
}
