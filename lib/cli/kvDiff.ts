// `kvscope kv-diff`: render two requests (or one request and a one-token edit of it) with the chat template,
// run both through the engine, and show where their token streams part and what that does to the K/V
// cache: how many entries a prefix cache can reuse, and per layer the first position whose K or V really
// differs, position by position and (when lengths differ) token by token across the shift.

import { existsSync, readFileSync } from 'node:fs';
import { commonPrefixLength, firstDifferingToken, kvDelta, prefixDelta, suffixAlignment, tokenEdit, type Alignment, type KvDelta, type LayerDelta } from '../analysis/kvDiff';
import { COMPARE_MODES, compareCaches, type CompareMode } from '../engine/kvCompare';
import { EngineSession } from '../engine/session';
import { tokenBytes } from '../prompt/byteLevel';
import { displayToken, visibleWhitespace } from '../prompt/label';
import { buildPrompt, type Prompt } from '../prompt/prompt';
import { checkContext, formatError, validateRequest } from '../prompt/request';
import { createTokenizer, type Tokenizer } from '../prompt/tokenizer';
import { parseScenarioRef, ScenarioError, scenarioRequest } from '../scenarios/index';
import { intFlag, onlyFlags, required, str, type Args } from './args';
import { CliError, openModelArg } from './modelDir';
import { nodeOrt } from './ort';

export const DEFAULT_TOL = 1e-6;

const MODE_NOTES: Record<CompareMode, (prefix: number, rest: number) => string> = {
  shared: (p, rest) =>
    `shared cache: prefilled A, rewound the cache to its first ${p} positions, extended with B's ${rest} remaining tokens; ` +
    `B's positions < ${p} are A's cache entries, reused as they are (bit-identical by construction)`,
  separate: (p) => `separate prefills: A and B each computed from an empty cache; positions < ${p} were recomputed for B and agree with A only as closely as the arithmetic does`,
};

/** A request from a file or a built-in scenario; `source` names it in output. */
function requestInput(args: Args, side: 'a' | 'b'): { source: string; input: unknown } | null {
  const file = str(args, side);
  const ref = str(args, `${side}-scenario`);
  if (file !== undefined && ref !== undefined) throw new CliError(`give either --${side} or --${side}-scenario, not both`);
  if (ref !== undefined) {
    const { id, variant } = parseScenarioRef(ref);
    try {
      return { source: `scenario ${ref}`, input: scenarioRequest(id, variant) };
    } catch (e) {
      if (e instanceof ScenarioError) throw new CliError(e.message);
      throw e;
    }
  }
  if (file === undefined) return null;
  if (!existsSync(file)) throw new CliError(`request file not found: ${file}`);
  return { source: file, input: readFileSync(file, 'utf8') };
}

function render(tok: Tokenizer, source: string, input: unknown, maxPositions: number): Prompt {
  const v = validateRequest(input);
  if (!v.ok) {
    const more = v.errors.length > 1 ? ` (and ${v.errors.length - 1} more)` : '';
    throw new CliError(`${source}: ${formatError(v.errors[0]!)}${more}`);
  }
  const prompt = buildPrompt(tok, v.request, { addGenerationPrompt: true });
  const overflow = checkContext(prompt.ids.length, maxPositions);
  if (overflow) throw new CliError(`${source}: ${overflow.message}`);
  return prompt;
}

/** `<position>:<tokenId>` */
function parseEdit(v: string, length: number, vocab: number): { position: number; id: number } {
  const m = /^(\d+):(\d+)$/.exec(v);
  if (!m) throw new CliError(`--edit must be <position>:<tokenId> (got ${v})`);
  const position = Number(m[1]);
  const id = Number(m[2]);
  if (position >= length) throw new CliError(`--edit position ${position} is outside A's ${length} tokens (0…${length - 1})`);
  if (id >= vocab) throw new CliError(`--edit token id ${id} is outside the vocabulary (0…${vocab - 1})`);
  return { position, id };
}

function tolFlag(args: Args): number {
  const v = str(args, 'tol');
  if (v === undefined) return DEFAULT_TOL;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n < 0) throw new CliError(`--tol must be a number ≥ 0 (got ${v}); 0 compares bit-exactly`);
  return n;
}

/** A vocabulary entry as a label, for a token that is in no rendered prompt (an --edit replacement). */
function idLabel(tok: Tokenizer, id: number): string {
  const s = tok.decode([id], { skip_special_tokens: false });
  if (!s.includes('\uFFFD')) return visibleWhitespace(s);
  const sym = tok._tokenizer.id_to_token(id);
  return sym === undefined ? `<id ${id}>` : Array.from(tokenBytes(sym), (b) => `<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`).join('');
}

interface AlignmentReport {
  name: 'position' | 'token';
  description: string;
  alignment: Alignment;
  positions: number;
  perLayer: (LayerDelta & { invalidated: number; changedInvalidated: number })[];
  /** Per layer, max |ΔK| and |ΔV| per compared pair (pairs as in `pairs`). */
  maxK: number[][];
  maxV: number[][];
  pairs: { a: number[]; b: number[] };
}

function report(name: AlignmentReport['name'], description: string, d: KvDelta, prefix: number): AlignmentReport {
  const rows = (x: Float32Array) => Array.from({ length: d.layers }, (_, l) => Array.from(x.subarray(l * d.positions, (l + 1) * d.positions)));
  const perLayer = d.perLayer.map((pl, l) => {
    // Pairs whose B position lies at or after the point where A and B part: the entries a prefix cache recomputes.
    let invalidated = 0;
    let changedInvalidated = 0;
    for (let i = 0; i < d.positions; i++) {
      if (d.b[i]! < prefix) continue;
      invalidated++;
      const at = l * d.positions + i;
      if (!d.bitEqual[at] && Math.max(d.maxK[at]!, d.maxV[at]!) > d.tol) changedInvalidated++;
    }
    return { ...pl, invalidated, changedInvalidated };
  });
  return { name, description, alignment: d.alignment, positions: d.positions, perLayer, maxK: rows(d.maxK), maxV: rows(d.maxV), pairs: { a: Array.from(d.a), b: Array.from(d.b) } };
}

const e = (x: number) => (x === 0 ? '0' : x.toExponential(2));
const tolText = (tol: number) => (tol === 0 ? '0 (bit-exact)' : tol.toExponential());

function table(r: AlignmentReport): string[] {
  const lines = [`  layer  first >tol  |ΔK| there  |ΔV| there   max |ΔK|   max |ΔV|  identical  within tol  changed  changed of invalidated`];
  for (const pl of r.perLayer) {
    const first = pl.first ? (pl.first.a === pl.first.b ? String(pl.first.a) : `${pl.first.a}→${pl.first.b}`) : 'none';
    lines.push(
      `  ${String(pl.layer).padStart(5)}  ${first.padStart(10)}  ${(pl.first ? e(pl.first.maxK) : '-').padStart(10)}  ${(pl.first ? e(pl.first.maxV) : '-').padStart(10)}  ` +
        `${e(pl.maxK).padStart(9)}  ${e(pl.maxV).padStart(9)}  ${String(pl.identical).padStart(9)}  ${String(pl.withinTol).padStart(10)}  ${String(pl.changed).padStart(7)}  ${`${pl.changedInvalidated} of ${pl.invalidated}`.padStart(22)}`,
    );
  }
  return lines;
}

export async function kvDiff(args: Args): Promise<{ text: string; json: unknown; code: number }> {
  onlyFlags(args, ['model', 'a', 'b', 'a-scenario', 'b-scenario', 'edit', 'mode', 'tol', 'json', 'threads']);
  const t0 = performance.now();
  const aIn = requestInput(args, 'a');
  if (!aIn) throw new CliError('missing --a <request.json> or --a-scenario <id>[:<variant>]');
  const bIn = requestInput(args, 'b');
  const editFlag = str(args, 'edit');
  if (bIn && editFlag !== undefined) throw new CliError('give either B (--b or --b-scenario) or --edit, not both');
  if (!bIn && editFlag === undefined) throw new CliError('missing B: --b <request.json>, --b-scenario <id>[:<variant>] or --edit <position>:<tokenId>');
  const modeFlag = str(args, 'mode') ?? 'shared';
  if (!(COMPARE_MODES as readonly string[]).includes(modeFlag)) throw new CliError(`--mode must be ${COMPARE_MODES.join(' or ')} (got ${modeFlag})`);
  const mode = modeFlag as CompareMode;
  const tol = tolFlag(args);

  const model = await openModelArg(required(args, 'model'));
  if (!model.tokenizerJson || !model.tokenizerConfig) throw new CliError(`${model.dir}: needs tokenizer.json and tokenizer_config.json`);
  const c = model.checkpoint.config;
  const tok = createTokenizer(model.tokenizerJson, model.tokenizerConfig);
  const a = render(tok, aIn.source, aIn.input, c.maxPositions);
  let bIds: number[];
  let bSource: string;
  let bLabel: (i: number) => string;
  const aLabel = (i: number) => displayToken(a.tokens[i]!);
  if (bIn) {
    const b = render(tok, bIn.source, bIn.input, c.maxPositions);
    bIds = b.ids;
    bSource = bIn.source;
    bLabel = (i) => displayToken(b.tokens[i]!);
  } else {
    const ed = parseEdit(editFlag!, a.ids.length, c.vocabSize);
    bIds = tokenEdit(a.ids, ed.position, ed.id);
    bSource = `A with token ${ed.position} replaced by id ${ed.id} (in place, no re-tokenization)`;
    bLabel = (i) => (i === ed.position ? idLabel(tok, ed.id) : aLabel(i));
  }
  const t1 = performance.now();

  const ort = nodeOrt(args.flags.has('threads') ? intFlag(args, 'threads', 1, 1) : undefined);
  const engine = await EngineSession.create(ort, model.checkpoint, { graph: { logits: 'none', attention: 'none', presentKv: true } });
  let caches: Awaited<ReturnType<typeof compareCaches>>;
  try {
    caches = await compareCaches(engine, a.ids, bIds, { mode });
  } finally {
    await engine.dispose();
  }

  const first = firstDifferingToken(a.ids, bIds);
  const prefix = commonPrefixLength(a.ids, bIds);
  const layers = c.numLayers;
  const pos = kvDelta(caches.a, caches.b, { tol });
  const alignments = [report('position', 'A position j ↔ B position j', pos, prefix)];
  const shift = suffixAlignment(a.ids, bIds);
  if (shift) {
    const al = { shiftAfter: shift.shiftAfter, by: shift.by };
    const sign = shift.by > 0 ? `+ ${shift.by}` : `− ${-shift.by}`;
    alignments.push(report('token', `the common suffix of ${shift.suffix} tokens paired token to token: A position j ≥ ${shift.shiftAfter} ↔ B position j ${sign}; j < ${shift.shiftAfter} ↔ j`, kvDelta(caches.a, caches.b, { tol, alignment: al }), prefix));
  }
  const pre = prefixDelta(pos, prefix);
  const reuse = {
    layers,
    reusablePositions: prefix,
    invalidatedPositions: bIds.length - prefix,
    reusableEntries: prefix * layers,
    invalidatedEntries: (bIds.length - prefix) * layers,
  };
  const tokenAt = (ids: readonly number[], label: (i: number) => string, i: number) => (i < ids.length ? { id: ids[i]!, text: label(i) } : null);
  const json = {
    model: model.dir,
    provider: engine.provider,
    a: { source: aIn.source, tokens: a.ids.length },
    b: { source: bSource, tokens: bIds.length },
    firstDifferingToken: first,
    partAt: prefix,
    tokensAtPart: { a: tokenAt(a.ids, aLabel, prefix), b: tokenAt(bIds, bLabel, prefix) },
    mode,
    modeNote: MODE_NOTES[mode](prefix, bIds.length - prefix),
    computedB: caches.computedB,
    tol,
    reuse,
    prefix: pre,
    alignments,
    timing: { promptMs: t1 - t0, engineMs: caches.ms, totalMs: performance.now() - t0 },
  };

  const lines: string[] = [];
  lines.push(`A: ${aIn.source} — ${a.ids.length} tokens`, `B: ${bSource} — ${bIds.length} tokens`);
  if (first !== null) lines.push(`first differing token: ${first}   A ${JSON.stringify(aLabel(first))} (id ${a.ids[first]})   B ${JSON.stringify(bLabel(first))} (id ${bIds[first]})`);
  else if (a.ids.length === bIds.length) lines.push(`A and B are the same ${a.ids.length} tokens: nothing differs`);
  else lines.push(`no differing token: ${a.ids.length < bIds.length ? 'B continues A' : 'A continues B'}; they part at ${prefix}, the length of ${a.ids.length < bIds.length ? 'A' : 'B'}`);
  lines.push(`mode: ${json.modeNote}`);
  lines.push(
    `reuse: ${prefix} of B's ${bIds.length} positions reusable (${reuse.reusableEntries} K/V entries over ${layers} layers), ` +
      `${reuse.invalidatedPositions} invalidated (${reuse.invalidatedEntries} entries) — a prefix cache recomputes everything from the first differing token on`,
  );
  if (prefix > 0)
    lines.push(`prefix (positions < ${prefix}, all layers): max |ΔK| ${e(pre.maxK)}, max |ΔV| ${e(pre.maxV)}${pre.bitIdentical ? ', bit-identical' : `, not bit-identical (${pre.maxK <= tol && pre.maxV <= tol ? 'within' : 'above'} tol ${tolText(tol)})`}`);
  for (const r of alignments) {
    const unpaired = bIds.length - r.positions;
    lines.push('', `${r.name}-aligned (${r.description}): ${r.positions} pairs compared${unpaired ? `, ${unpaired} of B's positions without a partner in A` : ''}; tol ${tolText(tol)}`);
    lines.push(`  "changed of invalidated": of the compared B positions ≥ ${prefix}, which the cache rule recomputes, those whose K or V really differ`);
    lines.push(...table(r));
  }
  lines.push('', `timing: template+tokenize ${json.timing.promptMs.toFixed(0)} ms, engine ${caches.ms.toFixed(0)} ms (${engine.provider}, build ${engine.buildMs.toFixed(0)} ms)`);
  return { text: lines.join('\n'), json, code: 0 };
}
