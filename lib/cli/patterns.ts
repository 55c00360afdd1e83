// `kvscope patterns`: the book's kv-cache agent (experiment 2-3) in its six modes, each call tokenized with
// the model's chat template, and what a provider's prefix cache would serve and charge. Needs only the
// tokenizer files of the model folder (no weights, no engine).

import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { accountPattern, PATTERN_CALLS, PATTERN_MODES, type BreakPoint, type PatternAccounting } from '../agent/patterns';
import { BLOCK_SIZES, DEFAULT_ALPHA, DEFAULT_BLOCK_SIZE, isBlockSize, type AccountTotals } from '../cache/accounting';
import { TOOLS_MESSAGE } from '../prompt/prompt';
import { createTokenizer } from '../prompt/tokenizer';
import { intFlag, onlyFlags, str, type Args } from './args';
import { CliError } from './modelDir';
import { readTokenizerFiles } from './tokenizerDir';

/** The embedded model, found from this file so that the default works from any working directory. */
export const DEFAULT_PATTERNS_MODEL = fileURLToPath(new URL('../../public/models/kvscope-tiny', import.meta.url));

function blockFlag(args: Args) {
  const v = str(args, 'block');
  if (v === undefined) return DEFAULT_BLOCK_SIZE;
  const n = Number(v);
  if (!isBlockSize(n)) throw new CliError(`--block must be one of ${BLOCK_SIZES.join(', ')} (got ${v})`);
  return n;
}

function alphaFlag(args: Args): number {
  const v = str(args, 'alpha');
  if (v === undefined) return DEFAULT_ALPHA;
  const n = v.trim() === '' ? NaN : Number(v);
  if (!(n >= 0 && n <= 1)) throw new CliError(`--alpha must be a number from 0 to 1 (got ${v})`);
  return n;
}

function tokenizerOf(dir: string) {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new CliError(`model folder not found: ${dir}`);
  for (const f of ['tokenizer.json', 'tokenizer_config.json']) if (!existsSync(join(dir, f))) throw new CliError(`${dir}: no ${f} (the patterns command needs the tokenizer files)`);
  let files: ReturnType<typeof readTokenizerFiles>;
  try {
    files = readTokenizerFiles(dir);
  } catch (e) {
    throw new CliError(`${dir}: cannot read the tokenizer files (${(e as Error).message})`);
  }
  return createTokenizer(files.tokenizerJson, files.tokenizerConfig);
}

/**
 * Where the first differing token sits: "tools[0]", "msg 1 user", "msg 1 assistant/tool_call". A call
 * that contains all of its best earlier call "appends at" the first new token instead of breaking.
 */
function where(b: BreakPoint | null, extendsEarlier: boolean): string {
  if (!b) return '—';
  let at: string;
  if (b.message === TOOLS_MESSAGE) at = b.part === undefined ? 'tools block' : `tools[${b.part}]`;
  else {
    const seg = b.segment === 'template' || b.segment === b.role ? '' : `/${b.segment}`;
    at = `msg ${b.message} ${b.role}${seg}`;
  }
  return extendsEarlier ? `appends at ${at}` : at;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const cost = (x: number) => x.toFixed(1);

function modeJson(r: PatternAccounting) {
  return {
    mode: r.run.mode,
    description: r.run.description,
    totals: r.accounting.totals,
    calls: r.run.calls.map((c, i) => {
      const a = r.accounting.calls[i]!;
      return {
        index: c.index,
        clock: c.clock,
        sent: a.sent,
        prefixMatch: a.prefixMatch,
        cached: a.cached,
        recomputed: a.recomputed,
        firstDifference: a.firstDifference,
        bestEarlier: a.bestEarlier,
        cost: a.cost,
        breakAt: r.breaks[i],
        extendsEarlier: extendsBest(r, i),
        toolOrder: c.toolOrder,
        ...(c.credits === undefined ? {} : { credits: c.credits }),
        history: c.history,
        dropped: c.dropped,
        roleStructureLost: c.roleStructureLost,
        damage: c.damage,
        request: c.request,
      };
    }),
  };
}

/** Call i holds all of its best earlier call (nothing cached was lost, the rest is new). */
function extendsBest(r: PatternAccounting, i: number): boolean {
  const a = r.accounting.calls[i]!;
  return a.bestEarlier !== null && a.prefixMatch === r.accounting.calls[a.bestEarlier]!.sent;
}

function modeText(r: PatternAccounting): string[] {
  const lines = [`${r.run.mode}: ${r.run.description.en}`, `  call   sent  cached  recomputed  first diff  breaks in                      cost`];
  r.accounting.calls.forEach((a, i) => {
    const fd = a.firstDifference === null ? '—' : String(a.firstDifference);
    lines.push(
      `  ${String(i + 1).padStart(4)}  ${String(a.sent).padStart(5)}  ${String(a.cached).padStart(6)}  ${String(a.recomputed).padStart(10)}  ${fd.padStart(10)}  ${where(r.breaks[i]!, extendsBest(r, i)).padEnd(28)} ${cost(a.cost).padStart(7)}`,
    );
  });
  const t = r.accounting.totals;
  lines.push(`  total ${String(t.sent).padStart(5)}  ${String(t.cached).padStart(6)}  ${String(t.recomputed).padStart(10)}  ${''.padStart(10)}  ${`cache ratio ${pct(t.cacheRatio)}`.padEnd(28)} ${cost(t.cost).padStart(7)}`);
  return lines;
}

function summaryText(rows: { mode: string; t: AccountTotals }[]): string[] {
  const base = rows[0]!.t.cost;
  const lines = ['summary', '  mode              sent  cached  recomputed     cost  cache ratio  cost vs correct'];
  for (const { mode, t } of rows) {
    lines.push(
      `  ${mode.padEnd(15)} ${String(t.sent).padStart(6)}  ${String(t.cached).padStart(6)}  ${String(t.recomputed).padStart(10)}  ${cost(t.cost).padStart(7)}  ${pct(t.cacheRatio).padStart(11)}  ${(t.cost / base).toFixed(2).padStart(14)}×`,
    );
  }
  return lines;
}

export async function patterns(args: Args): Promise<{ text: string; json: unknown; code: number }> {
  onlyFlags(args, ['model', 'block', 'alpha', 'seed', 'calls', 'json']);
  if (args.positional.length) throw new CliError(`unexpected argument "${args.positional[0]}"`);
  const blockSize = blockFlag(args);
  const alpha = alphaFlag(args);
  const seed = intFlag(args, 'seed', 1, 0);
  if (seed > 0xffffffff) throw new CliError(`--seed must be an integer from 0 to ${0xffffffff} (got ${seed})`);
  const calls = intFlag(args, 'calls', PATTERN_CALLS, 1);
  if (calls > PATTERN_CALLS) throw new CliError(`--calls must be an integer from 1 to ${PATTERN_CALLS} (got ${calls})`);
  const given = str(args, 'model');
  const dir = given ?? DEFAULT_PATTERNS_MODEL;
  const shown = given ?? 'public/models/kvscope-tiny';
  const tok = tokenizerOf(dir);

  const results = PATTERN_MODES.map((mode) => accountPattern(tok, mode, { seed, calls, blockSize, alpha }));
  const json = { model: shown, blockSize, alpha, seed, calls, costUnit: 'one uncached input token', modes: results.map(modeJson) };
  const lines = [
    `the book's kv-cache agent (file-tools run, ${calls} calls) in six modes; each call tokenized with ${shown}`,
    `prefix cache: longest token prefix shared with any earlier call, rounded down to blocks of ${blockSize}; cached tokens cost ${alpha} × uncached; seed ${seed}`,
  ];
  for (const r of results) lines.push('', ...modeText(r));
  lines.push('', ...summaryText(results.map((r) => ({ mode: r.run.mode, t: r.accounting.totals }))));
  return { text: lines.join('\n'), json, code: 0 };
}
