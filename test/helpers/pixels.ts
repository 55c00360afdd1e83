// Pixel checks in the browser: PNG screenshots decoded by the page itself (no image library in Node).
import type { Page } from 'playwright-core';

/** Counts pixels within ±tol per channel of `hex` in a PNG, decoded by the page itself. */
export async function countColour(page: Page, png: Buffer, hex: string, tol = 24): Promise<number> {
  const rgb = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return page.evaluate(
    async ({ b64, rgb, tol }) => {
      const img = new Image();
      img.src = 'data:image/png;base64,' + b64;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const ctx = c.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      const d = ctx.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i]! - rgb[0]!) <= tol && Math.abs(d[i + 1]! - rgb[1]!) <= tol && Math.abs(d[i + 2]! - rgb[2]!) <= tol) n++;
      return n;
    },
    { b64: png.toString('base64'), rgb, tol },
  );
}
