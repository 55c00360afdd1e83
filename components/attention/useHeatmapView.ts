'use client';
// The heatmap's window and its input: zoom (wheel at the pointer, + / − keys), pan (drag, arrow keys),
// reset (0 key), the hovered point. The window maths is lib/view/viewport's; this hook only keeps state and
// turns events into viewport updates.
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';
import { clampViewport, fitAll, MIN_SPAN, pan, pointAt, zoomAt, zoomCentre, type Viewport } from '../../lib/view/viewport';

/** Zoom per + / − key or button press, and per 100 px of wheel delta (exponential in between). */
export const STEP = 1.5;
const WHEEL_PER_PX = Math.log(1.25) / 100;

export interface HeatmapView {
  vp: Viewport;
  update: (f: (v: Viewport) => Viewport) => void;
  /** The pointer over the matrix in CSS px of the drawing, null when away or dragging. */
  hover: { x: number; y: number } | null;
  dragging: boolean;
  /** Pointer position in CSS px of the drawing (px wide) of the element the event is on. */
  local: (e: PointerEvent<HTMLElement>) => { x: number; y: number };
  canvasHandlers: {
    onPointerDown: (e: PointerEvent<HTMLCanvasElement>) => void;
    onPointerMove: (e: PointerEvent<HTMLCanvasElement>) => void;
    onPointerUp: (e: PointerEvent<HTMLCanvasElement>) => void;
    onPointerCancel: (e: PointerEvent<HTMLCanvasElement>) => void;
    onPointerLeave: () => void;
  };
  onKeyDown: (e: KeyboardEvent<HTMLDivElement>) => void;
}

/**
 * Window state for a `size` × `size` matrix drawn `px` CSS px wide on `canvasRef` (which gets the wheel
 * listener). `onTap` gets the point (CSS px of the drawing) of a click that did not drag.
 */
export function useHeatmapView(
  size: number,
  px: number,
  canvasRef: RefObject<HTMLCanvasElement | null>,
  onTap?: (p: { x: number; y: number }, vp: Viewport) => void,
  initial?: Viewport,
): HeatmapView {
  // The window belongs to the matrix size it was made for; a new size starts from `initial` (a lesson step's
  // zoom, clamped to the matrix) or the full view.
  const start = (T: number) => (initial ? clampViewport(initial, T) : fitAll(T));
  const [view, setView] = useState<{ T: number; vp: Viewport }>(() => ({ T: size, vp: start(size) }));
  const vp = view.T === size ? view.vp : start(size);
  const vpRef = useRef(vp);
  vpRef.current = vp;
  const update = useCallback((f: (v: Viewport) => Viewport) => setView((s) => ({ T: size, vp: f(s.T === size ? s.vp : fitAll(size)) })), [size]);
  const drag = useRef<{ id: number; x: number; y: number; vp: Viewport; moved: boolean } | null>(null);
  const [hover, setHover] = useState<{ x: number; y: number } | null>(null);
  const [dragging, setDragging] = useState(false);

  // Wheel zoom around the pointer: a native listener, because React's wheel listener is passive.
  useEffect(() => {
    const c = canvasRef.current;
    if (!c) return;
    const onWheel = (e: WheelEvent) => {
      const dy = e.deltaY * (e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? px : 1);
      const cur = vpRef.current;
      // Nothing to zoom (out at the full view, in at the smallest window): let the page scroll.
      if (!dy || (dy > 0 && cur.span >= size) || (dy < 0 && cur.span <= Math.min(MIN_SPAN, size))) return;
      e.preventDefault();
      const r = c.getBoundingClientRect();
      const x = ((e.clientX - r.left) / r.width) * px;
      const y = ((e.clientY - r.top) / r.height) * px;
      const factor = Math.exp(-dy * WHEEL_PER_PX);
      update((v) => zoomAt(v, size, factor, pointAt(v, px, x, y)));
    };
    c.addEventListener('wheel', onWheel, { passive: false });
    return () => c.removeEventListener('wheel', onWheel);
  }, [canvasRef, px, size, update]);

  const local = (e: PointerEvent<HTMLElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return { x: ((e.clientX - r.left) / r.width) * px, y: ((e.clientY - r.top) / r.height) * px };
  };
  const onPointerDown = (e: PointerEvent<HTMLCanvasElement>) => {
    if (e.button !== 0) return;
    drag.current = { id: e.pointerId, x: e.clientX, y: e.clientY, vp, moved: false };
    e.currentTarget.setPointerCapture?.(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLCanvasElement>) => {
    const d = drag.current;
    if (d && d.id === e.pointerId) {
      const r = e.currentTarget.getBoundingClientRect();
      const dx = e.clientX - d.x;
      const dy = e.clientY - d.y;
      if (!d.moved && Math.abs(dx) + Math.abs(dy) < 3) return setHover(local(e));
      d.moved = true;
      if (!dragging) setDragging(true);
      setHover(null);
      const s = d.vp.span;
      update(() => pan(d.vp, size, -(dy / r.height) * s, -(dx / r.width) * s));
      return;
    }
    setHover(local(e));
  };
  const endDrag = (e: PointerEvent<HTMLCanvasElement>) => {
    const d = drag.current;
    if (d?.id !== e.pointerId) return;
    drag.current = null;
    if (!d.moved && e.type === 'pointerup') onTap?.(local(e), vp);
    setDragging(false);
    e.currentTarget.releasePointerCapture?.(e.pointerId);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const stepPan = (e.shiftKey ? 0.5 : 0.1) * vp.span;
    const keys: Record<string, (v: Viewport) => Viewport> = {
      '+': (v) => zoomCentre(v, size, STEP),
      '=': (v) => zoomCentre(v, size, STEP),
      '-': (v) => zoomCentre(v, size, 1 / STEP),
      _: (v) => zoomCentre(v, size, 1 / STEP),
      '0': () => fitAll(size),
      ArrowUp: (v) => pan(v, size, -stepPan, 0),
      ArrowDown: (v) => pan(v, size, stepPan, 0),
      ArrowLeft: (v) => pan(v, size, 0, -stepPan),
      ArrowRight: (v) => pan(v, size, 0, stepPan),
    };
    const f = Object.hasOwn(keys, e.key) ? keys[e.key] : undefined;
    if (!f || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    update(f);
  };

  return {
    vp,
    update,
    hover: dragging ? null : hover,
    dragging,
    local,
    canvasHandlers: { onPointerDown, onPointerMove, onPointerUp: endDrag, onPointerCancel: endDrag, onPointerLeave: () => setHover(null) },
    onKeyDown,
  };
}
