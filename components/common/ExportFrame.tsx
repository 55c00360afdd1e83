'use client';
// Wraps one chart or heatmap and offers PNG, SVG and JSON downloads of what it shows (docs/EXPORT.md).
//
// The picture is read off the page, as laid out: every <canvas> (drawn as it is, already painted at
// devicePixelRatio) and <svg> (serialised with its font set on the root, since page CSS does not travel)
// in the frame, plus the page's own text, backgrounds, borders and outlines around them (legends, axis
// ticks, table cells), in document order. Skipped: hidden and zero-size elements, anything marked
// data-export-skip (the toolbar itself), form controls, tooltips and interface hints (data-ui-hint: "wheel
// to zoom", the zoom readout; exportPicture's leftOutOfExport). The PNG composes all that on one
// canvas at 2× with a white background; the SVG is one standalone document (lib/io/export assembleSvg) with
// canvases embedded as PNG data URLs. The JSON is the envelope of json() (lib/io/export envelopeText).
// Errors (a tainted canvas, a picture too large) show as a short message by the toolbar; nothing throws.
// The reading is common/exportPicture, the drawing and downloading common/exportRender.
import { useCallback, useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { envelopeText, exportFilename, layoutExport, sanitizeFilename, type ExportExt } from '../../lib/io/export';
import { useT } from './i18n';
import { capturePage, measure } from './exportPicture';
import { download, ExportError, renderPng, renderSvg } from './exportRender';

export interface ExportFrameProps {
  /** File-name stem, e.g. "attention-vancouver-L3-mean" (sanitised before use). */
  name: string;
  /** The numbers the view shows (tokens, spans, the matrix or reduced tensor, series…), JSON-ready; called on click only. */
  json: () => unknown;
  /** Optional caption drawn into the exported PNG/SVG (what the picture is: model, scenario, layer, scale…). */
  title?: string;
  children: ReactNode;
  /** Style of the frame (default: as wide as its content, at most the container's width). */
  style?: CSSProperties;
  /** Style of the element holding the children (e.g. a grid with a gap, as the parent had). */
  bodyStyle?: CSSProperties;
}

const FORMATS: { ext: ExportExt; label: string; title: 'export.pngTitle' | 'export.svgTitle' | 'export.jsonTitle' }[] = [
  { ext: 'png', label: 'PNG', title: 'export.pngTitle' },
  { ext: 'svg', label: 'SVG', title: 'export.svgTitle' },
  { ext: 'json', label: 'JSON', title: 'export.jsonTitle' },
];

const buttonStyle: CSSProperties = {
  font: '10px/1 system-ui, sans-serif',
  letterSpacing: 0.2,
  padding: '2px 5px',
  height: 17,
  border: '1px solid #d4d4d4',
  borderRadius: 3,
  background: '#fff',
  color: '#666',
  cursor: 'pointer',
};

export function ExportFrame({ name, json, title, children, style, bodyStyle }: ExportFrameProps) {
  const t = useT();
  const bodyRef = useRef<HTMLDivElement>(null);
  const [busy, setBusy] = useState<ExportExt | null>(null);
  const [error, setError] = useState<string | null>(null);
  const busyRef = useRef(false);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const run = useCallback(
    async (ext: ExportExt) => {
      if (busyRef.current) return;
      busyRef.current = true;
      setBusy(ext);
      setError(null);
      try {
        const filename = exportFilename(name, ext);
        if (ext === 'json') {
          download(new Blob([envelopeText(name, title, json())], { type: 'application/json' }), filename);
          return;
        }
        const body = bodyRef.current;
        const parts = body ? capturePage(body) : [];
        if (parts.length === 0) throw new ExportError('empty');
        if (ext === 'svg') {
          download(new Blob([renderSvg(parts, title)], { type: 'image/svg+xml' }), filename);
          return;
        }
        const png = await renderPng(layoutExport(parts, { caption: title, measure }));
        download(png, filename);
      } catch (e) {
        const err = e as Error;
        const msg =
          err instanceof ExportError
            ? t(err.kind === 'empty' ? 'export.empty' : err.kind === 'tooLarge' ? 'export.tooLarge' : 'export.imageFailed')
            : err?.name === 'SecurityError'
              ? t('export.tainted')
              : t('export.failed', { message: err?.message ?? String(e) });
        if (alive.current) setError(msg);
      } finally {
        busyRef.current = false;
        if (alive.current) setBusy(null);
      }
    },
    [name, title, json, t],
  );

  return (
    <div data-role="export-frame" data-export-name={sanitizeFilename(name)} style={{ width: 'fit-content', maxWidth: '100%', minWidth: 0, ...style }}>
      <div
        data-export-skip=""
        data-role="export-toolbar"
        role="group"
        aria-label={t('export.toolbar')}
        aria-busy={busy !== null ? true : undefined}
        style={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: 3, minHeight: 17, marginBottom: 2 }}
      >
        {error && (
          <span data-role="export-error" role="status" style={{ font: '11px system-ui, sans-serif', color: '#a00', marginRight: 4 }}>
            {error}{' '}
            <button type="button" onClick={() => setError(null)} aria-label={t('export.dismiss')} title={t('export.dismiss')} style={{ ...buttonStyle, padding: '0 4px', border: 'none', color: '#a00' }}>
              ×
            </button>
          </span>
        )}
        {busy && (
          <span aria-live="polite" style={{ font: '10px system-ui, sans-serif', color: '#777' }}>
            {t('export.busy')}
          </span>
        )}
        {FORMATS.map((f) => (
          <button
            key={f.ext}
            type="button"
            data-export={f.ext}
            title={t(f.title)}
            aria-label={t(f.title)}
            aria-disabled={busy !== null ? true : undefined}
            onClick={() => void run(f.ext)}
            style={{ ...buttonStyle, opacity: busy !== null && busy !== f.ext ? 0.5 : 1 }}
          >
            {t('export.button', { format: f.label })}
          </button>
        ))}
      </div>
      <div ref={bodyRef} data-role="export-body" style={bodyStyle}>
        {children}
      </div>
    </div>
  );
}
