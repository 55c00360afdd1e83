// Turns the parts read off the page into files: the PNG (composed on one canvas) and the standalone SVG,
// and hands a file to the browser as a download. Failures are ExportErrors the frame shows as a message.
import { assembleSvg, type ExportLayout, type ExportPart } from '../../lib/io/export';
import { cssFont, measure, serializeSvg } from './exportPicture';

/** Resolution of the PNG relative to CSS pixels (lowered for pictures too large for a canvas). */
export const PNG_SCALE = 2;
const MAX_PNG_PIXELS = 120_000_000;
const MAX_PNG_SIDE = 16_000;

export class ExportError extends Error {
  constructor(readonly kind: 'empty' | 'tooLarge' | 'image') {
    super(kind);
  }
}

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

export function download(blob: Blob, filename: string): void {
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
