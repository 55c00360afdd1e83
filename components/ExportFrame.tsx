'use client';
// CONTRACT STUB — to be implemented (export helper). Wraps one chart or heatmap and offers PNG, SVG and
// JSON downloads of what it shows. Props are fixed; the implementation may add optional ones.
import type { ReactNode } from 'react';

export interface ExportFrameProps {
  /** File-name stem, e.g. "attention-vancouver-L3-mean" (sanitised before use). */
  name: string;
  /** The numbers the view shows (tokens, spans, the matrix or reduced tensor, series…), JSON-ready; called on click only. */
  json: () => unknown;
  /** Optional caption drawn into the exported PNG/SVG (what the picture is: model, scenario, layer, scale…). */
  title?: string;
  children: ReactNode;
}

export function ExportFrame({ children }: ExportFrameProps) {
  return <div data-role="export-frame">{children}</div>;
}
