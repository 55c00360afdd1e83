// `kvscope ab`: the status-bar A/B (docs/CONCEPTS.md#status-bar-ab) on a model. Renders both arms of a
// scenario, prefills them side by side in the same chunks, checks that the shared-prefix attention rows
// are identical (causality), measures attention mass per region at each arm's decision position, then
// samples N continuations per arm with the model's generation_config.json and counts the call-limit
// decisions. Reports what the model does; nothing is tuned to match the book.

import { fileURLToPath } from 'node:url';
import {
  alignArms,
  regionMasses,
  regionMassesOverRows,
  SharedRowsAccumulator,
  type ArmAlignment,
  type PartAlignment,
  type QueryRow,
  type Region,
  type RegionMasses,
} from '../analysis/abCompare';
import { EngineSession } from '../engine/session';
import type { Tensor } from '../tensor';
import { generate, lastRow } from '../generate/generate';
import { classifyDecision, decodeIds, parseAssistantText, type Decision, type ParsedAssistant } from '../prompt/assistantOutput';
import { topTokensFromLogits, type SamplingSettings } from '../generate/sampling';
import { displayToken, visibleWhitespace } from '../prompt/label';
import { buildPrompt, TOOLS_MESSAGE, type Prompt } from '../prompt/prompt';
import { checkContext } from '../prompt/request';
import { createTokenizer, type Tokenizer } from '../prompt/tokenizer';
import { getScenario, SCENARIOS, ScenarioError, type Scenario } from '../scenarios/index';
import { intFlag, onlyFlags, str, type Args } from './args';
import { CliError, modelSampling, openModelArg } from './modelDir';
import { nodeOrt } from './ort';

/** The embedded model, found from this file so that the default works from any working directory. */
export const DEFAULT_AB_MODEL = fileURLToPath(new URL('../../public/models/kvscope-tiny', import.meta.url));

/** Query rows per engine call; both arms use the same chunk boundaries. */
const CHUNK = 256;
const TOP_DECISION_TOKENS = 5;

import { armRegions } from '../analysis/abArms';
export { armRegions };

interface Arm {
  name: 'A' | 'B';
  variant: string;
  title: string;
  prompt: Prompt;
  regions: Region[];
  engine: EngineSession;
  lastLogits: Float32Array;
  decisionAttention: Tensor[];
  decisionRows: number[];
}

interface SeedRun {
  seed: number;
  decision: Decision;
  stopped: string;
  newTokens: number;
  text: string;
  parsed: ParsedAssistant;
  /** Generated-token rows used for the generated-token masses (every new token's row except an eos token's). */
  rows: QueryRow[];
}

function fmtSampling(s: SamplingSettings): string {
  return s.doSample ? `sampling, temperature ${s.temperature}, top-k ${s.topK || 'off'}, top-p ${s.topP}` : 'greedy';
}

const clip = (s: string, n: number) => (s.length > n ? s.slice(0, n - 1) + '…' : s);
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** One line of a seed's parsed output: think, answer and tool calls, shortened. */
export function briefOutput(p: ParsedAssistant, width = 150): string {
  const parts: string[] = [];
  if (p.think !== null) parts.push(`think: ${p.think ? JSON.stringify(clip(oneLine(p.think), 40)) : '(empty)'}`);
  for (const c of p.toolCalls) parts.push(`call ${c.name || '?'}${c.arguments !== undefined ? ' ' + JSON.stringify(c.arguments) : ''}${c.error ? ` [${clip(c.error, 40)}]` : ''}`);
  if (p.answer) parts.push(`answer: ${JSON.stringify(clip(oneLine(p.answer), 100))}`);
  if (!p.complete) parts.push('(no end of turn)');
  return clip(parts.join('; ') || '(nothing)', width);
}

function describePart(p: PartAlignment): string {
  const where = p.part === 'tools' ? 'tools block' : p.part === 'generation' ? 'generation prompt' : `message ${p.message.a ?? p.message.b} (${p.role})`;
  const range = (r: { start: number; end: number } | null) => (r ? `${r.start}–${r.end - 1}` : '—');
  return `${where.padEnd(24)} ${p.status.padEnd(11)} A ${range(p.a).padEnd(10)} B ${range(p.b)}`;
}

function massTable(lines: string[], a: RegionMasses, b: RegionMasses): void {
  // Rows: union of region ids, in A's order then B's extras; then other and generated.
  const ids: string[] = [];
  for (const e of [...a.regions, ...b.regions]) if (!ids.includes(e.id)) ids.push(e.id);
  const find = (m: RegionMasses, id: string) => m.regions.find((e) => e.id === id);
  const L = a.layers;
  const label = (id: string) => (find(a, id) ?? find(b, id))!.label.en;
  const cell = (x: number | undefined) => (x === undefined ? '—' : x.toFixed(4)).padStart(7);
  const tok = (x: number | undefined) => (x === undefined ? '—' : String(x)).padStart(5);
  const head = `  ${'region'.padEnd(34)} ${'tok A'.padStart(5)} ${'tok B'.padStart(5)}  ${'mean A'.padStart(7)} ${'mean B'.padStart(7)} ${'B − A'.padStart(7)}   ` +
    Array.from({ length: L }, (_, l) => `${`A L${l}`.padStart(7)} ${`B L${l}`.padStart(7)}`).join('  ');
  lines.push(head);
  const row = (name: string, ea: { tokens: number; mean: number; perLayer: number[] } | undefined, eb: typeof ea) => {
    const d = ea && eb ? eb.mean - ea.mean : eb ? eb.mean : ea ? -ea.mean : 0;
    lines.push(
      `  ${clip(name, 34).padEnd(34)} ${tok(ea?.tokens)} ${tok(eb?.tokens)}  ${cell(ea?.mean)} ${cell(eb?.mean)} ${(d >= 0 ? '+' : '') + d.toFixed(4)}   ` +
        Array.from({ length: L }, (_, l) => `${cell(ea?.perLayer[l])} ${cell(eb?.perLayer[l])}`).join('  '),
    );
  };
  for (const id of ids) row(label(id), find(a, id), find(b, id));
  row('other (in no region)', a.other, b.other);
  if (a.generated.mean > 0 || b.generated.mean > 0) row('generated tokens', a.generated, b.generated);
  const sums = (m: RegionMasses) => m.sums.map((s) => s.toFixed(6)).join(' ');
  lines.push(`  check: per-layer sums A [${sums(a)}], B [${sums(b)}]; max |Σ − 1| over layers and heads A ${a.maxSumError.toExponential(2)}, B ${b.maxSumError.toExponential(2)}`);
}

export async function ab(args: Args): Promise<{ text: string; json: unknown; code: number }> {
  onlyFlags(args, ['model', 'scenario', 'seeds', 'max-new-tokens', 'json', 'threads']);
  const t0 = performance.now();
  const scenarioId = str(args, 'scenario') ?? 'xfinity';
  let scenario: Scenario;
  try {
    scenario = getScenario(scenarioId);
  } catch (e) {
    if (e instanceof ScenarioError) throw new CliError(e.message);
    throw e;
  }
  const variants = scenario.variants ?? [];
  if (variants.length < 2) {
    const withTwo = SCENARIOS.filter((s) => (s.variants?.length ?? 0) >= 2).map((s) => s.id);
    throw new CliError(`scenario "${scenarioId}" has no A/B variants (scenarios with two: ${withTwo.join(', ') || 'none'})`);
  }
  const seeds = intFlag(args, 'seeds', 5, 0);
  const maxNewTokens = intFlag(args, 'max-new-tokens', 48, 1);
  const model = await openModelArg(str(args, 'model') ?? DEFAULT_AB_MODEL);
  if (!model.tokenizerJson || !model.tokenizerConfig) throw new CliError(`${model.dir}: needs tokenizer.json and tokenizer_config.json`);
  const sampling = modelSampling(model);
  const c = model.checkpoint.config;
  const tok: Tokenizer = createTokenizer(model.tokenizerJson, model.tokenizerConfig);

  const ort = nodeOrt(args.flags.has('threads') ? intFlag(args, 'threads', 1, 1) : undefined);
  const graph = { logits: 'last' as const, attention: 'full' as const, presentKv: true };
  const arms: Arm[] = [];
  try {
    for (const [name, v] of [['A', variants[0]!], ['B', variants[1]!]] as const) {
      const prompt = buildPrompt(tok, v.request, { addGenerationPrompt: true });
      const overflow = checkContext(prompt.ids.length + maxNewTokens, c.maxPositions);
      if (overflow) throw new CliError(`arm ${name} (${v.id}) plus ${maxNewTokens} new tokens: ${overflow.message}`);
      const engine = await EngineSession.create(ort, model.checkpoint, { graph });
      arms.push({ name, variant: v.id, title: v.title.en, prompt, regions: armRegions(scenario, v.id, prompt), engine, lastLogits: new Float32Array(0), decisionAttention: [], decisionRows: [] });
    }
    const [A, B] = arms as [Arm, Arm];
    const t1 = performance.now();
    const alignment: ArmAlignment = alignArms(A.prompt, B.prompt);

    // Prefill both arms in the same chunks; compare the shared-prefix rows piece by piece.
    const shared = new SharedRowsAccumulator(alignment.sharedPrefix);
    const maxT = Math.max(A.prompt.ids.length, B.prompt.ids.length);
    let forwardMs = 0;
    for (let start = 0; start < maxT; start += CHUNK) {
      const got: ({ attention: Tensor[]; rows: number[] } | null)[] = [];
      for (const arm of arms) {
        const ids = arm.prompt.ids;
        if (start >= ids.length) {
          got.push(null);
          continue;
        }
        const chunk = ids.slice(start, start + CHUNK);
        const r = start === 0 ? await arm.engine.prefill(chunk) : await arm.engine.extend(chunk);
        forwardMs += r.ms;
        got.push({ attention: r.attention, rows: r.rows });
        if (start + CHUNK >= ids.length) {
          arm.lastLogits = lastRow(r.logits!).slice();
          arm.decisionAttention = r.attention;
          arm.decisionRows = r.rows;
        }
      }
      const [ga, gb] = got;
      if (ga && gb) shared.add(ga.attention, gb.attention, ga.rows, gb.rows);
    }
    const sharedRows = shared.result();
    const masses = arms.map((arm) => regionMasses(arm.decisionAttention, arm.prompt, arm.regions, arm.prompt.ids.length - 1, arm.decisionRows));
    const decisionTop = arms.map((arm) =>
      topTokensFromLogits(arm.lastLogits, TOP_DECISION_TOKENS).map((t) => ({ id: t.id, token: visibleWhitespace(decodeIds(tok, [t.id])), p: t.p })),
    );
    const t2 = performance.now();

    // Sample `seeds` continuations per arm (the same seeds in both arms).
    const runs: SeedRun[][] = [];
    for (const arm of arms) {
      const T = arm.prompt.ids.length;
      const out: SeedRun[] = [];
      for (let seed = 1; seed <= seeds; seed++) {
        arm.engine.fork(T);
        const g = await generate(arm.engine, arm.lastLogits, T, { maxNewTokens, sampling, seed, keepAttention: true });
        const text = decodeIds(tok, g.ids);
        const parsed = parseAssistantText(text);
        const eos = new Set(sampling.eosIds);
        const rows = g.steps.filter((s) => !eos.has(s.id)).map((s) => ({ position: s.position, attention: s.attention }));
        out.push({ seed, decision: classifyDecision(parsed), stopped: g.stopped, newTokens: g.ids.length, text, parsed, rows });
      }
      runs.push(out);
    }
    const generatedMasses = arms.map((arm, i) => {
      const rows = runs[i]!.flatMap((r) => r.rows);
      return rows.length ? regionMassesOverRows(rows, arm.prompt, arm.regions) : null;
    });
    const t3 = performance.now();
    const tally = (rs: SeedRun[]) => ({ call: rs.filter((r) => r.decision === 'call').length, refuse: rs.filter((r) => r.decision === 'refuse').length });
    const timing = { buildMs: arms.reduce((s, a) => s + a.engine.buildMs, 0), setupMs: t1 - t0, forwardMs, prefillAndMassesMs: t2 - t1, generateMs: t3 - t2, totalMs: t3 - t0 };

    const json = {
      model: model.dir,
      provider: A.engine.provider,
      layers: c.numLayers,
      heads: c.numHeads,
      scenario: scenario.id,
      arms: arms.map((arm, i) => ({
        arm: arm.name,
        variant: arm.variant,
        title: arm.title,
        tokens: arm.prompt.ids.length,
        decisionPosition: arm.prompt.ids.length - 1,
        regions: arm.regions,
        decisionTop: decisionTop[i],
        masses: masses[i]!,
        generatedMasses: generatedMasses[i] ? generatedMasses[i]! : null,
        decisions: tally(runs[i]!),
        seeds: runs[i]!.map((r) => ({ seed: r.seed, decision: r.decision, stopped: r.stopped, newTokens: r.newTokens, text: r.text, parsed: r.parsed })),
      })),
      alignment,
      sharedRows,
      generation: { sampling, seeds: Array.from({ length: seeds }, (_, i) => i + 1), maxNewTokens, source: model.generationConfig === undefined ? 'no generation_config.json: Hugging Face defaults (greedy)' : 'generation_config.json' },
      timing,
    };

    const lines: string[] = [];
    const dec = alignment.decision;
    lines.push(`scenario ${scenario.id}: A = ${A.variant} (${A.title}), B = ${B.variant} (${B.title})`);
    lines.push(`model ${model.dir}: ${c.numLayers} layers × ${c.numHeads} heads, ${A.engine.provider}`);
    lines.push('');
    lines.push(`tokens: A ${alignment.tokens.a}, B ${alignment.tokens.b}; shared prefix ${alignment.sharedPrefix} tokens (0–${alignment.sharedPrefix - 1})`);
    if (alignment.firstDifference !== null) {
      const p = alignment.firstDifference;
      lines.push(`first differing token at ${p}: A ${JSON.stringify(displayToken(A.prompt.tokens[p]!))}, B ${JSON.stringify(displayToken(B.prompt.tokens[p]!))}`);
    }
    lines.push('parts (status, token range in A and B):');
    for (const p of alignment.parts) lines.push(`  ${describePart(p)}`);
    const P = alignment.sharedPrefix;
    if (P > 0) {
      // The last shared token can belong to different parts in the two arms (A's generation prompt and B's
      // appended message both open with <|im_start|>): same id, same attention row, different owner.
      const partAt = (pr: Prompt) => {
        const m = pr.spans.find((s) => s.start <= P - 1 && P - 1 < s.end)!.message;
        return m === TOOLS_MESSAGE ? 'tools block' : m === pr.messageCount ? 'generation prompt' : `message ${m}`;
      };
      const [pa, pb] = [partAt(A.prompt), partAt(B.prompt)];
      if (pa !== pb) lines.push(`note: token ${P - 1} ${JSON.stringify(displayToken(A.prompt.tokens[P - 1]!))} is shared (same id, same attention row) but belongs to A's ${pa} and to B's ${pb}`);
    }
    lines.push(
      `decision position: A ${dec.a.position}, B ${dec.b.position}; token ${JSON.stringify(visibleWhitespace(dec.a.text))} (id ${dec.a.id}) vs ${JSON.stringify(visibleWhitespace(dec.b.text))} (id ${dec.b.id}): ` +
        (dec.comparable ? 'the same token, both after the generation prompt — comparable' : `NOT comparable: ${dec.notes.join('; ')}`),
    );
    lines.push('');
    lines.push(`shared-prefix rows (${sharedRows.rows} rows q < ${alignment.sharedPrefix}, keys k ≤ q, all heads; separate prefills in the same ${CHUNK}-token chunks): max |A − B|`);
    for (const l of sharedRows.perLayer) lines.push(`  layer ${String(l.layer).padStart(2)}  ${l.maxAbs.toExponential(3)}${l.bitIdentical ? '  bit-identical' : `  at head ${l.at!.head}, q ${l.at!.query}, k ${l.at!.key}`}  (${l.compared} values)`);
    lines.push(`  overall ${sharedRows.max.toExponential(3)}${sharedRows.bitIdentical ? ' — bit-identical' : ''}`);
    lines.push('');
    lines.push('attention mass at the decision position (head mean; mean over layers, then per layer)');
    massTable(lines, masses[0]!, masses[1]!);
    lines.push('');
    lines.push(`next-token probabilities at the decision position (plain softmax, top ${TOP_DECISION_TOKENS})`);
    arms.forEach((arm, i) => lines.push(`  ${arm.name}: ${decisionTop[i]!.map((t) => `${JSON.stringify(t.token)} ${t.p.toFixed(3)}`).join(', ')}`));
    lines.push('');
    lines.push(`decisions over seeds 1–${seeds} (${json.generation.source}: ${fmtSampling(sampling)}; ≤ ${maxNewTokens} new tokens, stop at eos [${sampling.eosIds.join(', ')}])`);
    lines.push('  call = a phone_call tool call (breaks the limit of 3); refuse = anything else');
    arms.forEach((arm, i) => {
      const t = tally(runs[i]!);
      lines.push(`  ${arm.name} ${arm.variant.padEnd(16)} ${t.call} call${t.call === 1 ? '' : 's'}, ${t.refuse} refusal${t.refuse === 1 ? '' : 's'}`);
    });
    if (seeds > 0) {
      lines.push(`  seed  arm  decision  stop    new  output`);
      for (let s = 0; s < seeds; s++)
        arms.forEach((arm, i) => {
          const r = runs[i]![s]!;
          lines.push(`  ${String(r.seed).padStart(4)}  ${arm.name.padEnd(3)}  ${r.decision.padEnd(8)}  ${r.stopped.padEnd(6)} ${String(r.newTokens).padStart(4)}  ${briefOutput(r.parsed)}`);
        });
    }
    if (generatedMasses[0] && generatedMasses[1]) {
      const [ga, gb] = generatedMasses as [RegionMasses, RegionMasses];
      lines.push('');
      lines.push(`attention mass of the generated tokens (in addition to the decision position): mean over A ${ga.positions.length} and B ${gb.positions.length} rows from all seeds, eos rows left out`);
      massTable(lines, ga, gb);
    }
    lines.push('');
    lines.push(`timing: graphs ${timing.buildMs.toFixed(0)} ms, prefill ${forwardMs.toFixed(0)} ms, generation ${timing.generateMs.toFixed(0)} ms, total ${timing.totalMs.toFixed(0)} ms`);
    return { text: lines.join('\n'), json, code: 0 };
  } finally {
    for (const arm of arms) await arm.engine.dispose();
  }
}
