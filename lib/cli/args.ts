// Flag parsing for the kvscope command: `--name value`, `--flag`, positional words. No defaults live
// here; each command states its own.

import { CliError } from './modelDir';

export interface Args {
  positional: string[];
  flags: Map<string, string | true>;
}

export function parseArgs(argv: string[], booleans: readonly string[] = []): Args {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
    if (eq > 0) flags.set(name, a.slice(eq + 1));
    else if (booleans.includes(name)) flags.set(name, true);
    else {
      const v = argv[i + 1];
      if (v === undefined || v.startsWith('--')) throw new CliError(`--${name} needs a value`);
      flags.set(name, v);
      i++;
    }
  }
  return { positional, flags };
}

export function str(args: Args, name: string): string | undefined {
  const v = args.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}

export function required(args: Args, name: string): string {
  const v = str(args, name);
  if (v === undefined) throw new CliError(`missing --${name}`);
  return v;
}

export function intFlag(args: Args, name: string, fallback: number, min = 0): number {
  const v = str(args, name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new CliError(`--${name} must be an integer ≥ ${min} (got ${v})`);
  return n;
}

/** Rejects flags a command does not know, so a typo is an error rather than silently ignored. */
export function onlyFlags(args: Args, known: readonly string[]): void {
  for (const k of args.flags.keys()) if (!known.includes(k)) throw new CliError(`unknown flag --${k} (known: ${known.map((x) => '--' + x).join(' ')})`);
}
