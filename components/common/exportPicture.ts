// Reads the picture of an export frame off the page, as laid out: canvases, SVGs (serialised standalone)
// and the page's own text, backgrounds, borders and outlines around them, as lib/io/export parts.
import type { ExportPart, Measure, TextFont } from '../../lib/io/export';

const SVG_NS = 'http://www.w3.org/2000/svg';
/** Elements whose content is not part of the picture. */
const SKIP_TAGS = new Set(['BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'OPTION', 'PROGRESS', 'METER', 'SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'DIALOG', 'IFRAME']);

/**
 * Marks an interface hint: how to use the view (wheel to zoom, hover for values, click to select), or a
 * readout of the view's interactive state (the zoom factor). An exported figure is read away from the
 * page, so hints are left out of PNG and SVG files. `data-export-skip` does the same for controls.
 */
export const UI_HINT_ATTR = 'data-ui-hint';
/** Hints of views that do not carry UI_HINT_ATTR, by their data-role: the heatmap's window and zoom readout, its help line. */
const HINT_ROLES = new Set(['heatmap-window', 'view-secondary']);

/** The part of an element the export decision reads (a DOM Element, or a stand-in in tests). */
export interface ElementLike {
  tagName: string;
  hasAttribute(name: string): boolean;
  getAttribute(name: string): string | null;
}

/** True for what an export leaves out with everything inside it: controls, tooltips and interface hints. */
export function leftOutOfExport(el: ElementLike): boolean {
  if (el.hasAttribute('data-export-skip') || el.hasAttribute(UI_HINT_ATTR)) return true;
  if (SKIP_TAGS.has(el.tagName.toUpperCase())) return true;
  const role = el.getAttribute('data-role') ?? '';
  return el.getAttribute('role') === 'tooltip' || /tooltip$/.test(role) || HINT_ROLES.has(role);
}

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

export const measure: Measure = (text, font) => {
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
  resolveCssVariables(svg, clone);
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

const PAINT_ATTRS = ['fill', 'stroke', 'stop-color', 'color'];

/**
 * A standalone SVG has no page stylesheet: every attribute or inline style that reads a CSS variable
 * (`fill="var(--seg-system)"`, `style="font: var(--fs-xs) …"`) is replaced by the value the page computed.
 * `clone` must be an unmodified deep clone of `orig` (elements pair up in document order).
 */
function resolveCssVariables(orig: Element, clone: Element): void {
  const a = [orig, ...orig.querySelectorAll('*')];
  const b = [clone, ...clone.querySelectorAll('*')];
  a.forEach((el, i) => {
    const out = b[i] as SVGElement | undefined;
    if (!out) return;
    const style = el.getAttribute('style') ?? '';
    const attrs = PAINT_ATTRS.filter((n) => el.getAttribute(n)?.includes('var('));
    if (!attrs.length && !style.includes('var(')) return;
    const cs = getComputedStyle(el);
    for (const n of attrs) out.setAttribute(n, cs.getPropertyValue(n));
    if (style.includes('var(')) {
      const own = (el as SVGElement).style;
      const props = Array.from({ length: own.length }, (_, k) => own[k]!);
      out.removeAttribute('style');
      for (const p of props) out.style.setProperty(p, cs.getPropertyValue(p));
    }
  });
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
    if (leftOutOfExport(el)) return;
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
