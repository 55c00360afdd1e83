// Browser tests serve files with the app's own server (scripts/serve.mjs), with or without COOP/COEP.
import type { Server } from 'node:http';
// @ts-expect-error: plain ES module without type declarations
import { serveStatic as serve } from '../../scripts/serve.mjs';

export const serveStatic = serve as (mounts: Record<string, string>, opts: { isolated: boolean; port?: number }) => Promise<{ url: string; server: Server; close: () => Promise<void> }>;
