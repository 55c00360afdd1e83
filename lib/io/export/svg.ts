// Pictures of a view for export (docs/EXPORT.md): the parts components/common/ExportFrame reads off the page
// (SVG charts as markup, canvases as PNG data URLs, and the page's own boxes and text as rects, lines and
// text), laid out under an optional caption, and assembled into one standalone SVG document. Pure: the
// DOM side (serialising, measuring, drawing the PNG) lives in the component; the layout here is shared by
// the PNG and the SVG export so both show the same picture.
//
// Every string that ends up in the document is XML-escaped (text and attribute values alike), so a
// caption, token or label holding `<script>` or `&` is inert text. SVG markup parts are expected to come
// from XMLSerializer (well-formed); script, foreignObject and event-handler attributes are still removed.

export interface TextFont {
  family: string;
  /** CSS pixels. */
  size: number;
  weight?: string | number;
  style?: string;
}

interface Positioned {
  /** Where the part sits in the frame (CSS px, any origin); parts without x/y are stacked below the rest. */
  x?: number;
  y?: number;
}

export interface SvgPart extends Positioned {
  kind: 'svg';
  /** A serialised <svg> element (XMLSerializer). */
  markup: string;
  /** Opaque handle for the PNG renderer (e.g. the element, to serialise again at the PNG's scale); never written. */
  source?: unknown;
  width: number;
  height: number;
}

export interface ImagePart extends Positioned {
  kind: 'image';
  /** data:image/png;base64,… (required for the SVG document; the PNG export may draw `source` instead). */
  dataUrl?: string;
  /** Opaque handle for the PNG renderer (e.g. the canvas element); never written to the SVG. */
  source?: unknown;
  width: number;
  height: number;
  /** Scale up without smoothing (pixel-art canvases: heatmap cells, bands). */
  pixelated?: boolean;
}

export interface RectPart {
  kind: 'rect';
  x: number;
  y: number;
  width: number;
  height: number;
  fill?: string;
  fillOpacity?: number;
  stroke?: string;
  strokeWidth?: number;
  strokeOpacity?: number;
  dash?: number[];
}

export interface LinePart {
  kind: 'line';
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  stroke: string;
  strokeWidth: number;
  strokeOpacity?: number;
  dash?: number[];
}

export interface TextPart {
  kind: 'text';
  /** Left end of the text. */
  x: number;
  /** Alphabetic baseline. */
  y: number;
  text: string;
  font: TextFont;
  fill: string;
  fillOpacity?: number;
  /** Measured advance width (for the picture's bounds); estimated when absent. */
  width?: number;
}

export type ExportPart = SvgPart | ImagePart | RectPart | LinePart | TextPart;

/** A part with its position resolved, in the coordinates of the output picture. */
export type PlacedPart = (SvgPart & { x: number; y: number }) | (ImagePart & { x: number; y: number }) | RectPart | LinePart | TextPart;

export interface CaptionLine {
  text: string;
  x: number;
  /** Baseline. */
  y: number;
}

export interface ExportLayout {
  width: number;
  height: number;
  parts: PlacedPart[];
  caption: { lines: CaptionLine[]; font: TextFont; fill: string } | null;
  background: string;
}

export type Measure = (text: string, font: TextFont) => number;

export interface LayoutOptions {
  caption?: string | null;
  /** Margin around everything (default 12). */
  padding?: number;
  /** Between stacked parts and below the caption (default 10). */
  gap?: number;
  captionFont?: TextFont;
  /** Text width; defaults to estimateTextWidth. */
  measure?: Measure;
  background?: string;
}

export const CAPTION_FONT: TextFont = { family: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Liberation Sans", Arial, sans-serif', size: 14, weight: 600 };
export const CAPTION_FILL = '#111111';
/** Above this many pixels of width a caption wraps (or at the content's width if that is wider). */
export const CAPTION_WRAP = 420;

const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

/** A rough text width for when nothing can measure: CJK and full-width characters 1 em, others 0.56 em. */
export function estimateTextWidth(text: string, font: TextFont): number {
  let w = 0;
  for (const ch of text) w += WIDE.test(ch) ? 1 : ch === ' ' ? 0.3 : 0.56;
  return w * font.size;
}

/** Greedy word wrap of `text` into lines at most `max` wide (a word wider than that gets its own line; CJK breaks anywhere). */
export function wrapText(text: string, max: number, font: TextFont, measure: Measure = estimateTextWidth): string[] {
  const out: string[] = [];
  for (const para of text.split(/\r?\n/)) {
    // Words, with every CJK character a word of its own (no space needed between them).
    const tokens = para.match(/[\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]|[^\s\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]+|\s+/gu) ?? [];
    let line = '';
    for (const tok of tokens) {
      const next = line + tok;
      if (line.trim() && /\S/.test(tok) && measure(next.trimEnd(), font) > max) {
        out.push(line.trimEnd());
        line = tok;
      } else line = next;
      if (!line.trim()) line = '';
    }
    out.push(line.trimEnd());
  }
  while (out.length > 1 && out[out.length - 1] === '') out.pop();
  return out;
}

interface Bounds {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

function boundsOf(p: ExportPart, measure: Measure): Bounds | null {
  switch (p.kind) {
    case 'svg':
    case 'image':
      if (p.x === undefined || p.y === undefined) return null;
      return { x0: p.x, y0: p.y, x1: p.x + p.width, y1: p.y + p.height };
    case 'rect': {
      const s = p.stroke ? (p.strokeWidth ?? 1) / 2 : 0;
      return { x0: p.x - s, y0: p.y - s, x1: p.x + p.width + s, y1: p.y + p.height + s };
    }
    case 'line': {
      const s = p.strokeWidth / 2;
      return { x0: Math.min(p.x1, p.x2) - s, y0: Math.min(p.y1, p.y2) - s, x1: Math.max(p.x1, p.x2) + s, y1: Math.max(p.y1, p.y2) + s };
    }
    case 'text': {
      const w = p.width ?? measure(p.text, p.font);
      return { x0: p.x, y0: p.y - p.font.size * 0.9, x1: p.x + w, y1: p.y + p.font.size * 0.3 };
    }
  }
}

const finite = (n: number) => (Number.isFinite(n) ? n : 0);

/**
 * Where everything goes: positioned parts keep their relative places, unpositioned svg/image parts are
 * stacked below them (left-aligned, `gap` apart), the whole is moved to start at (padding, padding +
 * caption block), and the picture is as large as the content and the (wrapped) caption need.
 */
export function layoutExport(parts: readonly ExportPart[], opts: LayoutOptions = {}): ExportLayout {
  const padding = opts.padding ?? 12;
  const gap = opts.gap ?? 10;
  const measure = opts.measure ?? estimateTextWidth;
  const captionFont = opts.captionFont ?? CAPTION_FONT;
  const box: { b: Bounds | null } = { b: null };
  const grow = (x: Bounds) => {
    const b = box.b;
    box.b = b ? { x0: Math.min(b.x0, x.x0), y0: Math.min(b.y0, x.y0), x1: Math.max(b.x1, x.x1), y1: Math.max(b.y1, x.y1) } : { ...x };
  };
  for (const p of parts) {
    const pb = boundsOf(p, measure);
    if (pb && [pb.x0, pb.y0, pb.x1, pb.y1].every(Number.isFinite)) grow(pb);
  }
  // Stack the unpositioned parts under the positioned ones.
  const stackX = box.b?.x0 ?? 0;
  let stackY = box.b ? box.b.y1 + gap : 0;
  const resolved: ExportPart[] = parts.map((p) => {
    if ((p.kind === 'svg' || p.kind === 'image') && (p.x === undefined || p.y === undefined)) {
      const q = { ...p, x: stackX, y: stackY };
      stackY += p.height + gap;
      grow({ x0: q.x, y0: q.y, x1: q.x + p.width, y1: q.y + p.height });
      return q;
    }
    return p;
  });
  const content: Bounds = box.b ?? { x0: 0, y0: 0, x1: 0, y1: 0 };
  const contentW = Math.max(0, content.x1 - content.x0);
  const contentH = Math.max(0, content.y1 - content.y0);

  const text = (opts.caption ?? '').trim();
  let caption: ExportLayout['caption'] = null;
  let captionH = 0;
  let captionW = 0;
  if (text) {
    const lines = wrapText(text, Math.max(CAPTION_WRAP, contentW), captionFont, measure);
    const lh = Math.round(captionFont.size * 1.35);
    caption = {
      font: captionFont,
      fill: CAPTION_FILL,
      lines: lines.map((l, i) => ({ text: l, x: padding, y: padding + Math.round(captionFont.size * 1.0) + i * lh })),
    };
    captionW = Math.max(...lines.map((l) => measure(l, captionFont)));
    captionH = lines.length * lh + gap;
  }
  const dx = padding - content.x0;
  const dy = padding + captionH - content.y0;
  const placed: PlacedPart[] = resolved.map((p) => {
    switch (p.kind) {
      case 'svg':
      case 'image':
        return { ...p, x: finite(p.x! + dx), y: finite(p.y! + dy) };
      case 'rect':
      case 'text':
        return { ...p, x: finite(p.x + dx), y: finite(p.y + dy) };
      case 'line':
        return { ...p, x1: finite(p.x1 + dx), y1: finite(p.y1 + dy), x2: finite(p.x2 + dx), y2: finite(p.y2 + dy) };
    }
  });
  return {
    width: Math.max(1, Math.ceil(Math.max(contentW, captionW) + 2 * padding)),
    height: Math.max(1, Math.ceil(contentH + captionH + 2 * padding)),
    parts: placed,
    caption,
    background: opts.background ?? '#ffffff',
  };
}

// ---- XML -------------------------------------------------------------------------------------------------

/** Characters XML 1.0 does not allow at all (not even as references): replaced by U+FFFD. */
// eslint-disable-next-line no-control-regex -- matching the control characters is the point
const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text content: & < > escaped, characters XML cannot hold replaced. */
export function xmlEscape(s: string): string {
  return String(s).replace(INVALID_XML, '\ufffd').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An attribute value (for double quotes): also " ' and the white space attribute normalisation would eat. */
export function xmlAttr(s: string | number): string {
  return xmlEscape(String(s)).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

/** A number for an attribute: at most 3 decimals, no exponent, 0 for non-finite. */
export function num(n: number): string {
  if (!Number.isFinite(n)) return '0';
  const r = Math.round(n * 1000) / 1000;
  return Object.is(r, -0) ? '0' : String(r).includes('e') ? r.toFixed(3).replace(/\.?0+$/, '') : String(r);
}

const attrs = (a: Record<string, string | number | undefined | null>) =>
  Object.entries(a)
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => ` ${k}="${typeof v === 'number' ? num(v) : xmlAttr(v!)}"`)
    .join('');

/**
 * Removes what has no place in a picture from serialised SVG markup: an XML declaration or doctype,
 * script and foreignObject elements, event-handler attributes and javascript: links. Defensive: the
 * markup is expected to come from XMLSerializer over the page's own charts.
 */
export function stripUnsafeSvg(markup: string): string {
  return markup
    .replace(/<\?xml[\s\S]*?\?>/gi, '')
    .replace(/<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/gi, '')
    .replace(/<script\b[^>]*\/>|<script\b[\s\S]*?<\/script\s*>/gi, '')
    .replace(/<foreignObject\b[^>]*\/>|<foreignObject\b[\s\S]*?<\/foreignObject\s*>/gi, '')
    .replace(/\s+on[a-z]+\s*=\s*("[^"]*"|'[^']*')/gi, '')
    .replace(/(\s(?:xlink:)?href\s*=\s*)("\s*javascript:[^"]*"|'\s*javascript:[^']*')/gi, '$1"#"')
    .trim();
}

const DATA_URL = /^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/=]*$/;

function fontAttrs(f: TextFont) {
  return {
    'font-family': f.family,
    'font-size': f.size,
    'font-weight': f.weight === undefined || f.weight === 'normal' || f.weight === 400 || f.weight === '400' ? undefined : String(f.weight),
    'font-style': f.style && f.style !== 'normal' ? f.style : undefined,
  };
}

const dashAttr = (d?: number[]) => (d && d.length > 0 ? d.map(num).join(' ') : undefined);

function partSvg(p: PlacedPart): string {
  switch (p.kind) {
    case 'rect':
      return `<rect${attrs({
        x: p.x,
        y: p.y,
        width: Math.max(0, p.width),
        height: Math.max(0, p.height),
        fill: p.fill ?? 'none',
        'fill-opacity': p.fillOpacity !== undefined && p.fillOpacity < 1 ? p.fillOpacity : undefined,
        stroke: p.stroke,
        'stroke-width': p.stroke ? (p.strokeWidth ?? 1) : undefined,
        'stroke-opacity': p.stroke && p.strokeOpacity !== undefined && p.strokeOpacity < 1 ? p.strokeOpacity : undefined,
        'stroke-dasharray': p.stroke ? dashAttr(p.dash) : undefined,
      })}/>`;
    case 'line':
      return `<line${attrs({
        x1: p.x1,
        y1: p.y1,
        x2: p.x2,
        y2: p.y2,
        stroke: p.stroke,
        'stroke-width': p.strokeWidth,
        'stroke-opacity': p.strokeOpacity !== undefined && p.strokeOpacity < 1 ? p.strokeOpacity : undefined,
        'stroke-dasharray': dashAttr(p.dash),
      })}/>`;
    case 'text':
      return `<text${attrs({ x: p.x, y: p.y, ...fontAttrs(p.font), fill: p.fill, 'fill-opacity': p.fillOpacity !== undefined && p.fillOpacity < 1 ? p.fillOpacity : undefined, 'xml:space': 'preserve', style: 'white-space:pre' })}>${xmlEscape(p.text)}</text>`;
    case 'image': {
      if (!p.dataUrl || !DATA_URL.test(p.dataUrl)) return '';
      return `<image${attrs({
        x: p.x,
        y: p.y,
        width: p.width,
        height: p.height,
        preserveAspectRatio: 'none',
        'image-rendering': p.pixelated ? 'optimizeSpeed' : undefined,
        style: p.pixelated ? 'image-rendering:pixelated' : undefined,
        href: p.dataUrl,
        'xlink:href': p.dataUrl,
      })}/>`;
    }
    case 'svg':
      return `<svg${attrs({ x: p.x, y: p.y, width: p.width, height: p.height, viewBox: `0 0 ${num(p.width)} ${num(p.height)}`, overflow: 'hidden' })}>${stripUnsafeSvg(p.markup)}</svg>`;
  }
}

/**
 * One standalone SVG document of `parts` under `caption`: a white background, the caption as <text>,
 * SVG parts as nested <svg x y width height>, images as <image href="data:…">, page boxes and text as
 * <rect>, <line> and <text>. Image parts without a PNG/JPEG/WebP/GIF data URL are left out.
 */
export function assembleSvg(parts: readonly ExportPart[], opts: LayoutOptions = {}): string {
  const L = layoutExport(parts, opts);
  const out: string[] = [];
  out.push('<?xml version="1.0" encoding="UTF-8"?>');
  out.push(
    `<svg${attrs({ xmlns: 'http://www.w3.org/2000/svg', 'xmlns:xlink': 'http://www.w3.org/1999/xlink', version: '1.1', width: L.width, height: L.height, viewBox: `0 0 ${L.width} ${L.height}` })}>`,
  );
  if (L.caption) out.push(`<title>${xmlEscape(L.caption.lines.map((l) => l.text).join(' '))}</title>`);
  out.push(`<rect${attrs({ x: 0, y: 0, width: L.width, height: L.height, fill: L.background })}/>`);
  if (L.caption)
    for (const line of L.caption.lines)
      out.push(`<text${attrs({ x: line.x, y: line.y, ...fontAttrs(L.caption.font), fill: L.caption.fill, 'data-role': 'caption' })}>${xmlEscape(line.text)}</text>`);
  for (const p of L.parts) {
    const s = partSvg(p);
    if (s) out.push(s);
  }
  out.push('</svg>');
  return out.join('\n') + '\n';
}
