'use client';
// Wraps one chart or heatmap and offers PNG, SVG and JSON downloads of what it shows (docs/EXPORT.md).
//
// The picture is read off the page, as laid out: every <canvas> (drawn as it is, already painted at
// devicePixelRatio) and <svg> (serialised with its font set on the root, since page CSS does not travel)
// in the frame, plus the page's own text, backgrounds, borders and outlines around them (legends, axis
// ticks, table cells), in document order. Skipped: hidden and zero-size elements, anything marked
// data-export-skip (the toolbar itself), form controls and tooltips. The PNG composes all that on one
// canvas at 2× with a white background; the SVG is one standalone document (lib/io/export assembleSvg) with
// canvases embedded as PNG data URLs. The JSON is the envelope of json() (lib/io/export envelopeText).
// Errors (a tainted canvas, a picture too large) show as a short message by the toolbar; nothing throws.
import { useCallback, useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import {
  assembleSvg,
  envelopeText,
  exportFilename,
  layoutExport,
  sanitizeFilename,
  type ExportExt,
  type ExportLayout,
  type ExportPart,
  type Measure,
  type TextFont,
} from '../../lib/io/export';
import { useT } from './i18n';

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

/** Resolution of the PNG relative to CSS pixels (lowered for pictures too large for a canvas). */
export const PNG_SCALE = 2;
const MAX_PNG_PIXELS = 120_000_000;
const MAX_PNG_SIDE = 16_000;

const SVG_NS = 'http://www.w3.org/2000/svg';
/** Elements whose content is not part of the picture. */
const SKIP_TAGS = new Set(['BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'OPTION', 'PROGRESS', 'METER', 'SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'DIALOG', 'IFRAME']);

class ExportError extends Error {
  constructor(readonly kind: 'empty' | 'tooLarge' | 'image') {
    super(kind);
  }
}

// ---- reading the page ----------------------------------------------------------------------------------------

interface Rgba {
  color: string;
  alpha: number;
}

/** A computed colour as #rrggbb and alpha; null when fully transparent. Other syntaxes pass through. */
function parseColor(c: string): Rgba | null {
  const s = c.trim();
  if (!s || s === 'transparent' || s === 'none') return null;
  const m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:\s*[,/]\s*([\d.]+)(%?))?\s*\)$/.exec(s);
  if (!m) return { color: s, alpha: 1 };
  const alpha = m[4] === undefined ? 1 : Number(m[4]) / (m[5] ? 100 : 1);
  if (!(alpha > 0.001)) return null;
  const hex = '#' + [m[1], m[2], m[3]].map((v) => Math.min(255, Math.round(Number(v))).toString(16).padStart(2, '0')).join('');
  return { color: hex, alpha: Math.min(1, alpha) };
}

/** The first colour of a CSS gradient (a swatch drawn with a gradient still shows its colour). */
function gradientColor(image: string): Rgba | null {
  if (!image.includes('gradient(')) return null;
  const m = /(rgba?\([^)]*\)|#[0-9a-fA-F]{3,8})/.exec(image);
  return m ? parseColor(m[1]!) : null;
}

const px = (v: string) => {
  const n = parseFloat(v);
  return Number.isFinite(n) ? n : 0;
};

function fontOf(cs: CSSStyleDeclaration): TextFont {
  return { family: cs.fontFamily || 'sans-serif', size: px(cs.fontSize) || 12, weight: cs.fontWeight || undefined, style: cs.fontStyle || undefined };
}

export function cssFont(f: TextFont): string {
  return `${f.style && f.style !== 'normal' ? f.style + ' ' : ''}${f.weight ?? 'normal'} ${f.size}px ${f.family}`;
}

let scratch: CanvasRenderingContext2D | null = null;
function measureCtx(): CanvasRenderingContext2D | null {
  if (!scratch) scratch = document.createElement('canvas').getContext('2d');
  return scratch;
}

const measure: Measure = (text, font) => {
  const ctx = measureCtx();
  if (!ctx) return text.length * font.size * 0.6;
  ctx.font = cssFont(font);
  return ctx.measureText(text).width;
};

/** The content box of `el` (inside border and padding) in page coordinates. */
function contentBox(el: Element, cs: CSSStyleDeclaration): { x: number; y: number; w: number; h: number } {
  const r = el.getBoundingClientRect();
  const l = px(cs.borderLeftWidth) + px(cs.paddingLeft);
  const t = px(cs.borderTopWidth) + px(cs.paddingTop);
  const w = r.width - l - px(cs.borderRightWidth) - px(cs.paddingRight);
  const h = r.height - t - px(cs.borderBottomWidth) - px(cs.paddingBottom);
  return { x: r.left + l, y: r.top + t, w, h };
}

/**
 * An <svg> as a standalone document of `w` × `h` CSS pixels drawn at `scale`: a viewBox (the page's
 * coordinates when it had none), width/height set, sizing styles dropped, and the inherited font and
 * colour written on the root. Scripts and foreignObject are removed.
 */
export function serializeSvg(svg: SVGSVGElement, w: number, h: number, scale = 1): string {
  const cs = getComputedStyle(svg);
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.querySelectorAll('script, foreignObject').forEach((n) => n.remove());
  clone.setAttribute('xmlns', SVG_NS);
  if (!clone.getAttribute('viewBox')) clone.setAttribute('viewBox', `0 0 ${w} ${h}`);
  clone.setAttribute('width', String(w * scale));
  clone.setAttribute('height', String(h * scale));
  for (const p of ['width', 'height', 'max-width', 'max-height', 'min-width', 'min-height', 'margin', 'padding', 'border', 'outline', 'display', 'position', 'left', 'top', 'right', 'bottom', 'transform', 'cursor'])
    clone.style.removeProperty(p);
  clone.style.fontFamily = cs.fontFamily;
  clone.style.fontSize = cs.fontSize;
  clone.style.fontWeight = cs.fontWeight;
  clone.style.fontStyle = cs.fontStyle;
  clone.style.color = cs.color;
  return new XMLSerializer().serializeToString(clone);
}

/** The parts of the picture inside `root` (its own box not included), in page coordinates. */
export function capturePage(root: HTMLElement): ExportPart[] {
  const parts: ExportPart[] = [];
  const o = root.getBoundingClientRect();
  const ox = o.left;
  const oy = o.top;
  const ctx = measureCtx();

  const paintBox = (el: Element, cs: CSSStyleDeclaration, opacity: number) => {
    const rects = cs.display === 'inline' ? Array.from(el.getClientRects()) : [el.getBoundingClientRect()];
    const bg = parseColor(cs.backgroundColor) ?? gradientColor(cs.backgroundImage);
    for (const r of rects) {
      if (r.width <= 0 || r.height <= 0) continue;
      if (bg) parts.push({ kind: 'rect', x: r.left - ox, y: r.top - oy, width: r.width, height: r.height, fill: bg.color, fillOpacity: bg.alpha * opacity });
      const sides = [
        ['Top', r.left, r.top, r.right, r.top, 1],
        ['Right', r.right, r.top, r.right, r.bottom, -1],
        ['Bottom', r.left, r.bottom, r.right, r.bottom, -1],
        ['Left', r.left, r.top, r.left, r.bottom, 1],
      ] as const;
      for (const [side, x1, y1, x2, y2, inward] of sides) {
        const w = px(cs.getPropertyValue(`border-${side.toLowerCase()}-width`));
        const style = cs.getPropertyValue(`border-${side.toLowerCase()}-style`);
        const c = parseColor(cs.getPropertyValue(`border-${side.toLowerCase()}-color`));
        if (!(w > 0) || !c || style === 'none' || style === 'hidden') continue;
        const vertical = side === 'Left' || side === 'Right';
        const d = (inward * w) / 2;
        parts.push({
          kind: 'line',
          x1: x1 - ox + (vertical ? d : 0),
          y1: y1 - oy + (vertical ? 0 : d),
          x2: x2 - ox + (vertical ? d : 0),
          y2: y2 - oy + (vertical ? 0 : d),
          stroke: c.color,
          strokeWidth: w,
          strokeOpacity: c.alpha * opacity,
          dash: style === 'dashed' ? [3 * w, 2 * w] : style === 'dotted' ? [w, w] : undefined,
        });
      }
      const ow = px(cs.outlineWidth);
      const oc = parseColor(cs.outlineColor);
      if (ow > 0 && oc && cs.outlineStyle !== 'none' && cs.outlineStyle !== 'auto') {
        const off = px(cs.outlineOffset) + ow / 2;
        parts.push({ kind: 'rect', x: r.left - ox - off, y: r.top - oy - off, width: r.width + 2 * off, height: r.height + 2 * off, stroke: oc.color, strokeWidth: ow, strokeOpacity: oc.alpha * opacity, dash: cs.outlineStyle === 'dashed' ? [3 * ow, 2 * ow] : undefined });
      }
    }
  };

  const paintText = (node: Text, cs: CSSStyleDeclaration, opacity: number) => {
    const data = node.data;
    if (!/\S/.test(data)) return;
    const fill = parseColor(cs.color);
    if (!fill) return;
    const font = fontOf(cs);
    const pre = /^(pre|pre-wrap|break-spaces)$/.test(cs.whiteSpace);
    let descent = font.size * 0.22;
    if (ctx) {
      ctx.font = cssFont(font);
      const d = ctx.measureText('Hg').fontBoundingBoxDescent;
      if (Number.isFinite(d)) descent = d;
    }
    const range = document.createRange();
    let line: { start: number; end: number; left: number; right: number; top: number; bottom: number } | null = null;
    const flush = () => {
      if (!line) return;
      const raw = data.slice(line.start, line.end);
      const text = pre ? raw.replace(/\t/g, '    ') : raw.replace(/\s+/g, ' ');
      parts.push({ kind: 'text', x: line.left - ox, y: line.bottom - descent - oy, text, font, fill: fill.color, fillOpacity: fill.alpha * opacity, width: line.right - line.left });
      line = null;
    };
    const add = (start: number, end: number, r: DOMRect) => {
      if (r.width <= 0 && r.height <= 0) return;
      if (line && Math.abs(r.top - line.top) < Math.max(2, r.height / 2) && r.left >= line.right - 1) {
        line.end = end;
        line.right = r.right;
        line.bottom = Math.max(line.bottom, r.bottom);
      } else {
        flush();
        line = { start, end, left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      }
    };
    for (const m of data.matchAll(/\S+/g)) {
      const start = m.index!;
      const end = start + m[0].length;
      range.setStart(node, start);
      range.setEnd(node, end);
      const rs = range.getClientRects();
      if (rs.length === 0) continue;
      if (rs.length === 1) {
        add(start, end, rs[0]!);
        continue;
      }
      // A word broken across lines (CJK text has no spaces): character by character.
      for (let i = start; i < end; ) {
        const cp = data.codePointAt(i)!;
        const n = cp > 0xffff ? 2 : 1;
        range.setStart(node, i);
        range.setEnd(node, i + n);
        const r = range.getClientRects()[0];
        if (r) add(i, i + n, r);
        i += n;
      }
    }
    flush();
  };

  const visit = (el: Element, opacity: number) => {
    if (el.hasAttribute('data-export-skip')) return;
    if (SKIP_TAGS.has(el.tagName.toUpperCase()) || el.getAttribute('role') === 'tooltip' || /tooltip$/.test(el.getAttribute('data-role') ?? '')) return;
    if (el.tagName === 'LABEL' && el.querySelector('input, select, textarea, button')) return;
    const cs = getComputedStyle(el);
    if (cs.display === 'none') return;
    const op = opacity * (cs.opacity === '' ? 1 : px(cs.opacity));
    if (op <= 0.001) return;
    const visible = cs.visibility === 'visible';
    if (el instanceof SVGSVGElement) {
      if (!visible) return;
      const b = contentBox(el, cs);
      if (b.w < 0.5 || b.h < 0.5) return;
      paintBox(el, cs, op);
      parts.push({ kind: 'svg', markup: serializeSvg(el, b.w, b.h), source: el, width: b.w, height: b.h, x: b.x - ox, y: b.y - oy });
      return;
    }
    if (el instanceof HTMLCanvasElement) {
      if (!visible || el.width === 0 || el.height === 0) return;
      const b = contentBox(el, cs);
      if (b.w < 0.5 || b.h < 0.5) return;
      paintBox(el, cs, op);
      const pixelated = /pixelated|crisp-edges/.test(cs.imageRendering) || el.width <= b.w;
      parts.push({ kind: 'image', source: el, width: b.w, height: b.h, x: b.x - ox, y: b.y - oy, pixelated });
      return;
    }
    if (el instanceof SVGElement) return;
    if (visible) paintBox(el, cs, op);
    for (const n of Array.from(el.childNodes)) {
      if (n.nodeType === Node.TEXT_NODE) {
        if (visible) paintText(n as Text, cs, op);
      } else if (n.nodeType === Node.ELEMENT_NODE) visit(n as Element, op);
    }
  };
  for (const c of Array.from(root.children)) visit(c, 1);
  return parts;
}

// ---- drawing the PNG -----------------------------------------------------------------------------------------

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new ExportError('image'));
    img.src = url;
  });
}

/** The picture of `layout` as PNG bytes, at PNG_SCALE (less when that would exceed what a canvas can hold). */
export async function renderPng(layout: ExportLayout): Promise<Blob> {
  const scale = Math.min(PNG_SCALE, Math.sqrt(MAX_PNG_PIXELS / (layout.width * layout.height)), MAX_PNG_SIDE / layout.width, MAX_PNG_SIDE / layout.height);
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(layout.width * scale));
  canvas.height = Math.max(1, Math.round(layout.height * scale));
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new ExportError('tooLarge');
  const urls: string[] = [];
  try {
    // SVG charts are loaded first (in parallel), re-serialised at the PNG's scale so they stay sharp.
    const images = await Promise.all(
      layout.parts.map((p) => {
        if (p.kind === 'svg') {
          const markup = p.source instanceof SVGSVGElement ? serializeSvg(p.source, p.width, p.height, scale) : p.markup;
          const url = URL.createObjectURL(new Blob([markup], { type: 'image/svg+xml;charset=utf-8' }));
          urls.push(url);
          return loadImage(url);
        }
        if (p.kind === 'image' && !(p.source instanceof HTMLCanvasElement) && p.dataUrl) return loadImage(p.dataUrl);
        return null;
      }),
    );
    ctx.scale(scale, scale);
    ctx.fillStyle = layout.background;
    ctx.fillRect(0, 0, layout.width, layout.height);
    ctx.textBaseline = 'alphabetic';
    layout.parts.forEach((p, i) => {
      ctx.save();
      switch (p.kind) {
        case 'rect':
          if (p.fill && p.fill !== 'none') {
            ctx.globalAlpha = p.fillOpacity ?? 1;
            ctx.fillStyle = p.fill;
            ctx.fillRect(p.x, p.y, p.width, p.height);
          }
          if (p.stroke) {
            ctx.globalAlpha = p.strokeOpacity ?? 1;
            ctx.strokeStyle = p.stroke;
            ctx.lineWidth = p.strokeWidth ?? 1;
            ctx.setLineDash(p.dash ?? []);
            ctx.strokeRect(p.x, p.y, p.width, p.height);
          }
          break;
        case 'line':
          ctx.globalAlpha = p.strokeOpacity ?? 1;
          ctx.strokeStyle = p.stroke;
          ctx.lineWidth = p.strokeWidth;
          ctx.setLineDash(p.dash ?? []);
          ctx.beginPath();
          ctx.moveTo(p.x1, p.y1);
          ctx.lineTo(p.x2, p.y2);
          ctx.stroke();
          break;
        case 'text':
          ctx.globalAlpha = p.fillOpacity ?? 1;
          ctx.fillStyle = p.fill;
          ctx.font = cssFont(p.font);
          ctx.fillText(p.text, p.x, p.y);
          break;
        case 'image': {
          const src = p.source instanceof HTMLCanvasElement ? p.source : images[i];
          if (!src) break;
          ctx.imageSmoothingEnabled = !p.pixelated;
          ctx.drawImage(src, p.x, p.y, p.width, p.height);
          break;
        }
        case 'svg': {
          const img = images[i];
          if (img) ctx.drawImage(img, p.x, p.y, p.width, p.height);
          break;
        }
      }
      ctx.restore();
    });
    if (layout.caption) {
      ctx.fillStyle = layout.caption.fill;
      ctx.font = cssFont(layout.caption.font);
      for (const l of layout.caption.lines) ctx.fillText(l.text, l.x, l.y);
    }
    // toBlob throws SecurityError on a tainted canvas.
    return await new Promise<Blob>((resolve, reject) => {
      canvas.toBlob((b) => (b ? resolve(b) : reject(new ExportError('tooLarge'))), 'image/png');
    });
  } finally {
    for (const u of urls) URL.revokeObjectURL(u);
  }
}

/** The standalone SVG document of the parts (canvases embedded as PNG data URLs). */
export function renderSvg(parts: ExportPart[], caption: string | undefined): string {
  const withData = parts.map((p) => (p.kind === 'image' && p.source instanceof HTMLCanvasElement ? { ...p, dataUrl: p.source.toDataURL('image/png') } : p));
  return assembleSvg(withData, { caption, measure });
}

function download(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked once the browser has taken the file (revoking at once can cancel the download in some browsers).
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// ---- the component -------------------------------------------------------------------------------------------

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
