// ESLint (flat config) for kvscope. Run: `npm run lint` (part of `npm test`).
//
// What it enforces, beyond typescript-eslint's `recommended` set (syntax-only, no type information —
// `tsc` already type-checks, and the type-aware rules would cost a full program build per run):
//   - lib/ and workers/ are framework-free: no react, react-dom, next, zustand/react or components/
//     (no-restricted-imports), and lib/ names no browser-only global (no-restricted-globals) — the
//     type-level half is lib/tsconfig.json (lib/ checked without the DOM lib) and workers/tsconfig.json
//     (the worker checked with the WebWorker lib only).
//   - components/ and app/ follow the rules of hooks (react-hooks/rules-of-hooks: error) and list
//     their effect dependencies (react-hooks/exhaustive-deps: warn; a deliberate omission carries an
//     `eslint-disable-line react-hooks/exhaustive-deps`, best with `-- reason`).
//
// Warnings policy: `npm run lint` uses --max-warnings 0, so a warning fails `npm test` like an error;
// "warn" only changes how an editor shows it. A deliberate exception is written down at the line with
// an eslint-disable comment, and a disable comment that no longer suppresses anything is an error
// (reportUnusedDisableDirectives), so none goes stale. `--cache` keeps a re-run to a few seconds.

import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { defineConfig } from 'eslint/config';

// Imports lib/ and workers/ may not make: a UI framework, or a path into components/.
const frameworkFree = {
  paths: [
    { name: 'react', message: 'lib/ and workers/ are framework-free: no React (move the hook to components/hooks).' },
    { name: 'react-dom', message: 'lib/ and workers/ are framework-free: no React DOM.' },
    { name: 'next', message: 'lib/ and workers/ are framework-free: no Next.js.' },
    { name: 'zustand', message: "The root 'zustand' entry is the React binding; use 'zustand/vanilla'." },
  ],
  patterns: [
    { group: ['react/*', 'react-dom/*'], message: 'lib/ and workers/ are framework-free: no React.' },
    { group: ['next/*'], message: 'lib/ and workers/ are framework-free: no Next.js.' },
    { group: ['zustand/react', 'zustand/react/*', 'zustand/traditional'], message: "Use 'zustand/vanilla': the React bindings live in components/." },
    { group: ['**/components', '**/components/*', '@/components', '@/components/*'], message: 'lib/ and workers/ must not depend on components/ (the dependency runs the other way).' },
  ],
};

// Browser-only globals lib/ must not touch. lib/ runs in Node (tests, CLI), in Web Workers and on the
// page; the web APIs common to all three (fetch, TextEncoder/TextDecoder, CompressionStream,
// performance, URL, structuredClone) stay allowed.
const browserOnly = [
  'window', 'document', 'localStorage', 'sessionStorage', 'navigator', 'location', 'history', 'self',
  'alert', 'confirm', 'prompt', 'getComputedStyle', 'matchMedia', 'requestAnimationFrame',
  'cancelAnimationFrame', 'ResizeObserver', 'IntersectionObserver', 'MutationObserver',
  'HTMLElement', 'HTMLCanvasElement', 'Element', 'Image', 'indexedDB', 'caches', 'Worker',
].map((name) => ({ name, message: `lib/ runs in Node and Web Workers too: no '${name}' (pass it in from components/ or workers/).` }));

export default defineConfig(
  {
    ignores: [
      'node_modules/', 'out/', '.next/', '.scratch/', 'public/', 'training/data/', 'training/runs/', 'test-results/',
      'next-env.d.ts', '**/*.tmp.*',
    ],
  },
  {
    files: ['**/*.{ts,tsx,mts,js,mjs}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_`-prefixed names are deliberately unused (a required parameter, a destructured-away field).
      '@typescript-eslint/no-unused-vars': ['error', {
        argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true,
      }],
    },
  },
  // Plain JS run by Node (scripts/, bin/, next.config.*): Node's globals.
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
  // lib/ and workers/: no framework, no path into components/.
  {
    files: ['lib/**/*.ts', 'workers/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', frameworkFree] },
  },
  {
    files: ['lib/**/*.ts'],
    rules: { 'no-restricted-globals': ['error', ...browserOnly] },
  },
  // Tests build hostile inputs by mutating parsed JSON; training/ scripts read loosely typed corpus and
  // checkpoint JSON. `any` there is the honest type, not a shortcut.
  {
    files: ['test/**/*.ts', 'training/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // React code: the rules of hooks. Only these two of eslint-plugin-react-hooks 7's `recommended` preset:
  // the rest (set-state-in-effect, refs, preserve-manual-memoization, immutability, …) are React Compiler
  // readiness checks — the app does not use the compiler, and they flag ~30 working patterns today.
  {
    files: ['components/**/*.{ts,tsx}', 'app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
);
