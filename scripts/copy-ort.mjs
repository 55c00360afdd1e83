// Copies onnxruntime-web's runtime files (.wasm / .mjs) from node_modules to public/ort so the app serves
// them itself (ort.env.wasm.wasmPaths = '/ort/'). Local copy only: nothing is downloaded.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
const src = 'node_modules/onnxruntime-web/dist';
mkdirSync('public/ort', { recursive: true });
for (const f of readdirSync(src)) if (/^ort-wasm-simd-threaded(\.jsep)?\.(wasm|mjs)$/.test(f)) copyFileSync(`${src}/${f}`, `public/ort/${f}`);
