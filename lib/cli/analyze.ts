// `kvscope analyze`: validate an OpenAI request file (or a built-in scenario), render it with the model's chat template, run the
// engine, and print token counts, spans per segment, the sink score per layer and where attention rests.

import { existsSync, readFileSync } from 'node:fs';
import { DEFAULT_MIN_QUERY, layerAttention, ReceivedAccumulator, SinkAccumulator, topReceivers, type SinkScore } from '../analysis/sink';
import { EngineSession } from '../engine/session';
import { displayToken } from '../prompt/label';
import { buildPrompt, messageTokenCounts, type Prompt } from '../prompt/prompt';
import { checkContext, formatError, validateRequest } from '../prompt/request';
import { createTokenizer } from '../prompt/tokenizer';
import { parseScenarioRef, SCENARIO_IDS, ScenarioError, scenarioRequest } from '../scenarios/index';
import { intFlag, onlyFlags, required, str, type Args } from './args';
import { CliError, openModelArg } from './modelDir';
import { nodeOrt } from './ort';

/** Query rows per engine call: long prompts run as chunked extensions so attention memory stays bounded. */
const CHUNK = 256;
/** At most this many bytes of per-head attention per call (all layers); large models get smaller chunks. */
const ATTENTION_BYTES_PER_CALL = 128 * 2 ** 20;

/** Rows per call so that layers × heads × rows × tokens float32 values stay within ATTENTION_BYTES_PER_CALL. */
export function chunkRows(layers: number, heads: number, tokens: number): number {
  return Math.max(16, Math.min(CHUNK, Math.floor(ATTENTION_BYTES_PER_CALL / (4 * layers * heads * Math.max(1, tokens)))));
}

function bool(args: Args, name: string, fallback: boolean): boolean {
  const v = str(args, name);
  if (v === undefined) return fallback;
  if (v !== 'true' && v !== 'false') throw new CliError(`--${name} must be true or false (got ${v})`);
  return v === 'true';
}

export function segmentSummary(prompt: Prompt): Record<string, { spans: number; tokens: number }> {
  const out: Record<string, { spans: number; tokens: number }> = {};
  for (const s of prompt.spans) {
    const e = (out[s.segment] ??= { spans: 0, tokens: 0 });
    e.spans++;
    e.tokens += s.end - s.start;
  }
  return out;
}

/** The request to analyze: a file (--messages) or a built-in scenario (--scenario id[:variant]); `path` names it in output. */
function requestInput(args: Args): { path: string; input: unknown } {
  const file = str(args, 'messages');
  const ref = str(args, 'scenario');
  if (file !== undefined && ref !== undefined) throw new CliError('give either --messages or --scenario, not both');
  if (ref !== undefined) {
    const { id, variant } = parseScenarioRef(ref);
    try {
      return { path: `scenario ${ref}`, input: scenarioRequest(id, variant) };
    } catch (e) {
      if (e instanceof ScenarioError) throw new CliError(e.message);
      throw e;
    }
  }
  if (file === undefined) throw new CliError(`missing --messages <file> or --scenario <id> (scenarios: ${SCENARIO_IDS.join(', ')})`);
  if (!existsSync(file)) throw new CliError(`request file not found: ${file}`);
  return { path: file, input: readFileSync(file, 'utf8') };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const fmt = (x: number | null, digits = 4) => (x === null ? 'n/a' : x.toFixed(digits));

export async function analyze(args: Args): Promise<{ text: string; json: unknown; code: number }> {
  onlyFlags(args, ['model', 'messages', 'scenario', 'min-query', 'top', 'json', 'threads', 'generation-prompt', 'enable-thinking']);
  const t0 = performance.now();
  const { path, input } = requestInput(args);
  const validated = validateRequest(input);
  if (!validated.ok) {
    const more = validated.errors.length > 1 ? ` (and ${validated.errors.length - 1} more)` : '';
    throw new CliError(`${path}: ${formatError(validated.errors[0]!)}${more}`);
  }
  const model = await openModelArg(required(args, 'model'));
  if (!model.tokenizerJson || !model.tokenizerConfig) throw new CliError(`${model.dir}: needs tokenizer.json and tokenizer_config.json`);
  const c = model.checkpoint.config;
  const tok = createTokenizer(model.tokenizerJson, model.tokenizerConfig);
  const t1 = performance.now();
  const prompt = buildPrompt(tok, validated.request, { addGenerationPrompt: bool(args, 'generation-prompt', true), enableThinking: bool(args, 'enable-thinking', true) });
  const t2 = performance.now();
  const overflow = checkContext(prompt.ids.length, c.maxPositions);
  if (overflow) throw new CliError(`${path}: ${overflow.message}`);
  const minQuery = intFlag(args, 'min-query', DEFAULT_MIN_QUERY, 0);
  const topN = intFlag(args, 'top', 10, 1);

  const ort = nodeOrt(args.flags.has('threads') ? intFlag(args, 'threads', 1, 1) : undefined);
  // Per-head attention of every layer (the sink table names the strongest head); each layer's output is taken
  // inside that layer so that the probabilities of all layers are never alive at once.
  const engine = await EngineSession.create(ort, model.checkpoint, { graph: { logits: 'last', attention: 'full', presentKv: true, attentionInLayer: true } });
  const rowsPerCall = chunkRows(c.numLayers, c.numHeads, prompt.ids.length);
  const sinks = Array.from({ length: c.numLayers }, () => new SinkAccumulator(0, minQuery));
  const received = Array.from({ length: c.numLayers }, () => new ReceivedAccumulator(minQuery));
  let runMs = 0;
  for (let start = 0; start < prompt.ids.length; start += rowsPerCall) {
    const r = start === 0 ? await engine.prefill(prompt.ids.slice(0, rowsPerCall)) : await engine.extend(prompt.ids.slice(start, start + rowsPerCall));
    runMs += r.ms;
    r.attention.forEach((a, l) => {
      const la = layerAttention(a, r.rows);
      sinks[l]!.add(la);
      received[l]!.add(la);
    });
  }
  await engine.dispose();

  const sinkRows: SinkScore[] = sinks.map((s) => s.result());
  const perLayerReceived = received.map((r) => r.result());
  const meanReceived = perLayerReceived.every((r) => r) ? perLayerReceived[0]!.map((_, k) => perLayerReceived.reduce((a, r) => a + r![k]!, 0) / c.numLayers) : null;
  const labelled = (r: Float64Array) => topReceivers(r, topN).map((x) => ({ position: x.key, token: displayToken(prompt.tokens[x.key]!), weight: x.weight }));
  const top = meanReceived ? labelled(meanReceived) : [];
  const topPerLayer = perLayerReceived.map((r) => (r ? labelled(r) : []));
  const counts = messageTokenCounts(prompt);
  const segments = segmentSummary(prompt);
  const timing = { validateMs: t1 - t0, promptMs: t2 - t1, buildMs: engine.buildMs, runMs, totalMs: performance.now() - t0 };

  const json = {
    model: model.dir,
    provider: engine.provider,
    tokens: prompt.ids.length,
    contextLimit: c.maxPositions,
    notes: [...validated.notes, ...prompt.notes],
    segments,
    messages: counts,
    spans: prompt.spans,
    sink: { key: 0, minQuery, threshold: 0.3, perLayer: sinkRows.map((s, l) => ({ layer: l, ...s })) },
    topReceivers: { meanOverLayers: top, perLayer: topPerLayer },
    timing,
  };
  const lines: string[] = [];
  lines.push(`${path}: ${prompt.ids.length} tokens (context ${c.maxPositions}), ${plural(validated.request.messages.length, 'message')}, ${plural(validated.request.tools?.length ?? 0, 'tool')}`);
  for (const n of json.notes) lines.push(`note: ${n}`);
  lines.push('', 'segments');
  for (const [seg, v] of Object.entries(segments)) lines.push(`  ${seg.padEnd(12)} ${String(v.tokens).padStart(6)} tokens in ${v.spans} span${v.spans === 1 ? '' : 's'}`);
  lines.push('', `sink score of the first token (mean over queries q ≥ ${minQuery}; sink head > 0.3)`);
  lines.push(`  layer  head-mean  max head      uniform  sink heads`);
  sinkRows.forEach((s, l) =>
    lines.push(`  ${String(l).padStart(5)}  ${fmt(s.headMean).padStart(9)}  ${(fmt(s.maxHead) + (s.maxHeadIndex === null ? '' : ` (h${s.maxHeadIndex})`)).padEnd(12)} ${fmt(s.uniformBaseline).padStart(7)}  ${s.qualifyingQueries ? s.sinkHeads : 'n/a'}`),
  );
  if (sinkRows[0]!.qualifyingQueries === 0) lines.push(`  n/a: the prompt has no query at position ≥ ${minQuery}; try --min-query with a smaller value`);
  lines.push('', `where attention rests (mean over layers, heads and queries q ≥ ${minQuery})`);
  for (const x of top) lines.push(`  ${String(x.position).padStart(6)}  ${x.weight.toFixed(4)}  ${x.token}`);
  lines.push('', `timing: validate ${timing.validateMs.toFixed(0)} ms, template+tokenize ${timing.promptMs.toFixed(0)} ms, graph ${timing.buildMs.toFixed(0)} ms, forward ${timing.runMs.toFixed(0)} ms (${engine.provider})`);
  return { text: lines.join('\n'), json, code: 0 };
}
