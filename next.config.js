// Next.js: a static export (out/) that any web server can host. COOP/COEP headers (for multi-threaded
// WASM) come from `npm start`'s server (scripts/serve.mjs) or `next dev` (headers below).
//
// onnxruntime-web: the worker sets ort.env.wasm.wasmPaths = '/ort/', so the runtime (.mjs glue + .wasm)
// always comes from public/ort (scripts/copy-ort.mjs). The package's default "/wasm" and "/webgpu" entries
// are the *.bundle.min.mjs builds, which embed the glue and name their .wasm with `new URL(…, import.meta.url)`;
// Turbopack then emits ~40 MB of .wasm into _next/static/media that no page fetches. The aliases below pick
// the builds the package offers under its "onnxruntime-web-use-extern-wasm" condition instead: the same API,
// with the runtime loaded only from wasmPaths. scripts/copy-ort.mjs reads these aliases to know what to copy.
const isolation = [
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
  { key: 'Cross-Origin-Embedder-Policy', value: 'require-corp' },
];
/** @type {import('next').NextConfig} */
const config = {
  output: 'export',
  // /lessons/<slug>/ as a folder with index.html: any static server (scripts/serve.mjs too) serves it.
  trailingSlash: true,
  reactStrictMode: true,
  images: { unoptimized: true },
  // Types are checked by `npm run typecheck` (tsc over app/, components/, lib/, workers/, bench/ and test/, run first
  // by `npm test`); `next build` checking the same files again took ~40 s and let a test file's types block a build.
  typescript: { ignoreBuildErrors: true },
  turbopack: {
    resolveAlias: {
      'onnxruntime-web/wasm': './node_modules/onnxruntime-web/dist/ort.wasm.min.mjs',
      'onnxruntime-web/webgpu': './node_modules/onnxruntime-web/dist/ort.webgpu.min.mjs',
    },
  },
  ...(process.env.NODE_ENV === 'development' ? { headers: async () => [{ source: '/:path*', headers: isolation }] } : {}),
};
export default config;
