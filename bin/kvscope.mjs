#!/usr/bin/env node
// Entry of the `kvscope` command: registers tsx so the TypeScript in lib/ runs as-is, then hands over.
import { register } from 'tsx/esm/api';
register();
const { main } = await import('../lib/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
