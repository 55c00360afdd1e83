// Browser tests serve files with the app's own server (scripts/serve.mjs), with or without COOP/COEP. A '/'
// mount with a _headers file (out/, after `npm run build`) is served with the site's headers, the
// Content-Security-Policy included, so every e2e test runs the app under the policy a static host sends.
import type { Server } from 'node:http';
// @ts-expect-error: plain ES module without type declarations
import { serveStatic as serve } from '../../scripts/serve.mjs';

export interface StaticServeOptions {
  isolated: boolean;
  port?: number;
  /** false: leave out the '/' mount's _headers (default: send them when the folder has that file). */
  site?: boolean;
}

export const serveStatic = serve as (
  mounts: Record<string, string>,
  opts: StaticServeOptions,
) => Promise<{ url: string; server: Server; headers: Record<string, string>; close: () => Promise<void> }>;
