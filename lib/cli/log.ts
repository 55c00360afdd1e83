// `kvscope log <file>`: imports an agent run log (raw result JSON, a page capture of it, or a plain list of
// calls) and prints its context growth and what an append-only prefix cache would have saved.

import { readFileSync, statSync } from 'node:fs';
import { DEFAULT_ALPHA } from '../cache/accounting';
import { contextGrowth, type ContextGrowth } from '../analysis/contextGrowth';
import { MAX_INPUT_CHARS, parseRunLog } from '../io/runlog';
import { onlyFlags, str, type Args } from './args';
import { CliError } from './modelDir';

function numberFlag(args: Args, name: string, ok: (n: number) => boolean, rule: string): number | undefined {
  const v = str(args, name);
  if (v === undefined) return undefined;
  const n = v.trim() === '' ? NaN : Number(v);
  if (!ok(n)) throw new CliError(`--${name} must be ${rule} (got ${v})`);
  return n;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

function table(g: ContextGrowth, notes: string[], file: string): string {
  const s = g.summary;
  const multi = g.agents.length > 1;
  const out: string[] = [`${file}: ${s.calls} calls${multi ? `, ${g.agents.length} agents` : ''}; cached tokens cost ${g.alpha} × uncached (append-only prefix cache: each call reuses its agent's previous prompt + completion)`];
  for (const n of notes) out.push(`note: ${n}`);
  out.push('');
  const head = ['call', ...(multi ? ['agent'] : []), 'prompt', 'completion', 'cumulative', 'cached', 'cost (cached)'];
  const rows = g.rows.map((r) => [String(r.index), ...(multi ? [r.agent] : []), fmt(r.promptTokens), fmt(r.completionTokens), fmt(r.cumulativeTokens), fmt(r.cachedTokens), (r.costCached).toFixed(1) + (r.overWindow ? '  over window' : '')]);
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 1 && multi ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ').trimEnd();
  out.push(line(head), ...rows.map(line), '', 'summary');
  out.push(`  calls                ${s.calls}`);
  out.push(`  peak prompt tokens   ${fmt(s.peakPromptTokens)} (call ${s.peakIndex})` + (s.fileContextPeak === undefined ? '' : s.fileContextPeakMatches ? `; file's main_context_peak ${fmt(s.fileContextPeak)} agrees` : `; file's main_context_peak ${fmt(s.fileContextPeak)} differs`));
  out.push(`  prompt tokens        ${fmt(s.promptTokens)}`);
  out.push(`  completion tokens    ${fmt(s.completionTokens)} (output; ${s.outputCost === undefined ? 'not priced, see --output-price' : `priced at ${s.outputCost.toFixed(1)}`})`);
  out.push(`  input cost uncached  ${s.costUncached.toFixed(1)}`);
  out.push(`  input cost cached    ${s.costCached.toFixed(1)} (${fmt(s.cachedTokens)} tokens cached; saves ${s.saved.toFixed(1)}, ${(100 * s.savedFraction).toFixed(1)}%)`);
  if (s.contextWindow !== undefined) out.push(`  window ${fmt(s.contextWindow)}       ${s.windowCrossedAt === null ? 'never exceeded' : `first exceeded at call ${s.windowCrossedAt}`}`);
  if (multi) {
    out.push('', 'per agent');
    for (const a of g.agents) out.push(`  ${a.agent}: ${a.calls} calls, peak prompt ${fmt(a.peakPromptTokens)}, prompt ${fmt(a.promptTokens)}, completion ${fmt(a.completionTokens)}, cost ${a.costUncached.toFixed(1)} → ${a.costCached.toFixed(1)} cached`);
  }
  out.push('', 'costs in units of one uncached input token');
  return out.join('\n');
}

export async function log(args: Args): Promise<{ text: string; json: unknown; code: number }> {
  onlyFlags(args, ['alpha', 'window', 'output-price', 'json']);
  const file = args.positional[0];
  if (file === undefined) throw new CliError('missing <file> (usage: kvscope log <file> [--alpha 0.1] [--window N] [--json])');
  if (args.positional.length > 1) throw new CliError(`one file only (got ${args.positional.length}: ${args.positional.join(' ')})`);
  const alpha = numberFlag(args, 'alpha', (n) => n >= 0 && n <= 1, 'a number from 0 to 1') ?? DEFAULT_ALPHA;
  const contextWindow = numberFlag(args, 'window', (n) => Number.isInteger(n) && n > 0, 'a positive integer');
  const outputPrice = numberFlag(args, 'output-price', (n) => n >= 0 && Number.isFinite(n), 'a number ≥ 0');
  let text: string;
  try {
    if (statSync(file).size > 4 * MAX_INPUT_CHARS) throw new CliError(`${file}: larger than the ${MAX_INPUT_CHARS / 1024 / 1024} MB limit`);
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if (e instanceof CliError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(code === 'ENOENT' ? `file not found: ${file}` : `${file}: cannot read (${(e as Error).message})`);
  }
  const r = parseRunLog(text);
  if (!r.ok) throw new CliError(`${file}: ${r.error}`);
  const g = contextGrowth(r.log, { alpha, contextWindow, outputPrice });
  return { text: table(g, r.notes, file), json: { file, form: r.form, notes: r.notes, mode: r.log.mode ?? null, agentNames: r.log.agents, ...g }, code: 0 };
}
