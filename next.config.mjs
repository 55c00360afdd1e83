// Next.js: a static export (out/) that any web server can host. COOP/COEP headers (for multi-threaded
// WASM) come from `npm start`'s server (scripts/serve.mjs) or `next dev` (headers below).
/** @type {import('next').NextConfig} */
const isolation = [
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
  { key: 'Cross-Origin-Embedder-Policy', value: 'require-corp' },
];
export default {
  output: 'export',
  reactStrictMode: true,
  images: { unoptimized: true },
  ...(process.env.NODE_ENV === 'development' ? { headers: async () => [{ source: '/:path*', headers: isolation }] } : {}),
};
