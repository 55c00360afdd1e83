// `kvscope loop`: the live agent loop (docs/CONCEPTS.md#live-agent-loop) on a model — the model generates
// each turn, its <tool_call>s run on the simulated tools (lib/agent/tools.ts), the results are appended and
// the model is called again, on one K/V cache carried from call to call. Prints per call the messages
// sent, the prompt tokens, how many the engine reused from its cache and how many it recomputed, and what
// the turn decided. Reports what the model does; nothing is tuned.

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { callSeed, LoopError, loopRunLog, runLoop, type LoopCall, type LoopRun } from '../agent/liveLoop';
import { STATUS_POLICIES, type ReplaceAt, type StatusPolicy } from '../agent/statusBar';
import { EngineSession } from '../engine/session';
import type { SamplingSettings } from '../generate/sampling';
import { serializeRunLog } from '../io/runlog';
import { decodeIds } from '../prompt/assistantOutput';
import { buildPrompt, type Prompt } from '../prompt/prompt';
import { createTokenizer } from '../prompt/tokenizer';
import { runOf } from '../agent/run';
import { getScenario, parseScenarioRef, scenarioRequest, ScenarioError } from '../scenarios/index';
import type { ChatMessage, ChatRequest } from '../scenarios/types';
import { briefOutput } from './ab';
import { intFlag, onlyFlags, str, type Args } from './args';
import { CliError, modelSampling, openModelArg } from './modelDir';
import { nodeOrt } from './ort';

export const DEFAULT_LOOP_MODEL = fileURLToPath(new URL('../../public/models/kvscope-tiny', import.meta.url));
export const MAX_LOOP_CALLS = 100;

const clip = (s: string, n: number) => (s.length > n ? s.slice(0, n - 1) + '…' : s);
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

function describeMessage(m: ChatMessage, i: number): string {
  const body = m.role === 'assistant' ? [m.content ?? '', ...(m.tool_calls ?? []).map((c) => `${c.function.name} ${c.function.arguments}`)].filter(Boolean).join(' | ') : m.content;
  return `[${i}] ${m.role}: ${JSON.stringify(clip(oneLine(body), 90))}`;
}

/** Where the cache stopped matching this call's prompt: the message and segment of the first differing token, and whether the previous turn's generated tokens were kept. */
export function whereReuseStops(x: LoopCall<Prompt>, prev: LoopCall<Prompt>): string {
  const kept = x.reused;
  const generatedKept = Math.max(0, Math.min(x.commonPrefix, prev.promptTokens + prev.generatedIds.length) - prev.promptTokens);
  const head = `kept ${kept} of ${x.cachedBefore} cached tokens (previous prompt ${prev.promptTokens} + generated ${prev.generatedIds.length}; ${generatedKept} of the generated kept)`;
  if (x.commonPrefix >= x.promptTokens) return `${head}; the whole prompt was cached (its last token recomputed for the logits)`;
  const span = x.prompt.spans.find((s) => s.start <= x.commonPrefix && x.commonPrefix < s.end);
  const where = !span ? '' : span.message === x.request.messages.length ? ' (generation prompt)' : span.message < 0 ? ' (tools block)' : ` (message ${span.message}, ${span.role}, ${span.segment})`;
  return `${head}; first difference at token ${x.commonPrefix}${where}`;
}

function fmtSampling(s: SamplingSettings): string {
  return s.doSample ? `sampling (temperature ${s.temperature}, top-k ${s.topK || 'off'}, top-p ${s.topP})` : 'greedy';
}

function callJson(c: LoopCall<Prompt>) {
  return {
    call: c.index + 1,
    messages: c.request.messages,
    messageCount: c.request.messages.length,
    changedFrom: c.changedFrom,
    statusIndex: c.statusIndex,
    promptTokens: c.promptTokens,
    cachedBefore: c.cachedBefore,
    commonPrefix: c.commonPrefix,
    prefixWithPrevious: c.prefixWithPrevious,
    reused: c.reused,
    recomputed: c.recomputed,
    generatedTokens: c.generatedIds.length,
    stopped: c.stopped,
    seed: c.seed,
    text: c.text,
    parsed: c.parsed,
    decision: c.decision,
    callLimit: c.callLimit,
    toolResults: c.toolResults,
    ms: c.ms,
  };
}

export async function loop(args: Args): Promise<{ text: string; json: unknown; code: number }> {
  onlyFlags(args, ['model', 'scenario', 'max-calls', 'seed', 'status', 'replace-at', 'sampling', 'max-new-tokens', 'phone-limit', 'runlog', 'json', 'threads']);
  if (args.positional.length) throw new CliError(`unexpected argument "${args.positional[0]}" (loop takes flags only)`);
  const t0 = performance.now();
  const ref = parseScenarioRef(str(args, 'scenario') ?? 'vancouver');
  let first: ChatRequest | undefined;
  try {
    getScenario(ref.id);
    first = runOf(scenarioRequest(ref.id, ref.variant)).calls[0]?.request;
  } catch (e) {
    if (e instanceof ScenarioError) throw new CliError(e.message);
    throw e;
  }
  if (!first) throw new CliError(`scenario "${ref.id}" has no first request (it opens with an assistant turn)`);
  const maxCalls = intFlag(args, 'max-calls', 4, 1);
  if (maxCalls > MAX_LOOP_CALLS) throw new CliError(`--max-calls must be at most ${MAX_LOOP_CALLS} (got ${maxCalls})`);
  const seed = intFlag(args, 'seed', 1, 0);
  const maxNewTokens = intFlag(args, 'max-new-tokens', 160, 1);
  const phoneLimit = intFlag(args, 'phone-limit', 3, 0);
  const status = (str(args, 'status') ?? 'off') as StatusPolicy;
  if (!STATUS_POLICIES.includes(status)) throw new CliError(`--status must be one of ${STATUS_POLICIES.join(', ')} (got ${status})`);
  const replaceAt = (str(args, 'replace-at') ?? 'fixed') as ReplaceAt;
  if (replaceAt !== 'fixed' && replaceAt !== 'end') throw new CliError(`--replace-at must be fixed or end (got ${replaceAt})`);
  const samplingMode = str(args, 'sampling') ?? 'config';
  if (samplingMode !== 'config' && samplingMode !== 'greedy') throw new CliError(`--sampling must be config or greedy (got ${samplingMode})`);
  const runlogPath = str(args, 'runlog');

  const model = await openModelArg(str(args, 'model') ?? DEFAULT_LOOP_MODEL);
  if (!model.tokenizerJson || !model.tokenizerConfig) throw new CliError(`${model.dir}: needs tokenizer.json and tokenizer_config.json`);
  let sampling = modelSampling(model);
  if (samplingMode === 'greedy') sampling = { ...sampling, doSample: false };
  const c = model.checkpoint.config;
  const tok = createTokenizer(model.tokenizerJson, model.tokenizerConfig);
  const ort = nodeOrt(args.flags.has('threads') ? intFlag(args, 'threads', 1, 1) : undefined);
  const engine = await EngineSession.create(ort, model.checkpoint, { graph: { logits: 'last', attention: 'none', presentKv: true } });
  let run: LoopRun<Prompt>;
  try {
    run = await runLoop(engine, {
      request: first,
      render: (r) => buildPrompt(tok, r, { addGenerationPrompt: true }),
      decode: (ids) => decodeIds(tok, ids),
      maxCalls,
      maxNewTokens,
      sampling,
      seed,
      status,
      replaceAt,
      tools: { phoneLimit },
      contextLimit: c.maxPositions,
    });
  } catch (e) {
    if (e instanceof LoopError) throw new CliError(e.message);
    throw e;
  } finally {
    await engine.dispose();
  }
  const totalMs = performance.now() - t0;
  const sum = (f: (x: LoopCall<Prompt>) => number) => run.calls.reduce((s, x) => s + f(x), 0);
  const totals = { promptTokens: sum((x) => x.promptTokens), reused: sum((x) => x.reused), recomputed: sum((x) => x.recomputed), generated: sum((x) => x.generatedIds.length) };

  let runlog: { path: string; calls: number } | null = null;
  if (runlogPath !== undefined) {
    if (run.calls.length === 0) throw new CliError('no call was made, so there is no run log to write');
    try {
      writeFileSync(runlogPath, serializeRunLog(loopRunLog(run, { model: model.dir })) + '\n');
    } catch (e) {
      throw new CliError(`--runlog ${runlogPath}: ${(e as Error).message}`);
    }
    runlog = { path: runlogPath, calls: run.calls.length };
  }

  const json = {
    model: model.dir,
    provider: engine.provider,
    scenario: ref.variant ? `${ref.id}:${ref.variant}` : ref.id,
    status,
    replaceAt: status === 'replace' ? replaceAt : undefined,
    maxCalls,
    maxNewTokens,
    seed,
    callSeeds: run.calls.map((x) => callSeed(seed, x.index)),
    sampling,
    samplingSource: samplingMode === 'greedy' ? 'greedy (--sampling greedy)' : model.generationConfig === undefined ? 'no generation_config.json: Hugging Face defaults (greedy)' : 'generation_config.json',
    phoneLimit,
    tools: run.tools.map((t) => t.function.name),
    calls: run.calls.map(callJson),
    messages: run.messages,
    stop: run.stop,
    stopReason: run.stopReason,
    phoneCalls: run.phoneCalls,
    totals,
    runlog,
    timing: { buildMs: engine.buildMs, totalMs },
  };

  const lines: string[] = [];
  lines.push(`loop on scenario ${json.scenario}: status ${status}${status === 'replace' ? ` (${replaceAt === 'fixed' ? 'in place, after the task' : 'removed and re-appended at the end'})` : ''}, at most ${maxCalls} calls, ≤ ${maxNewTokens} new tokens per call`);
  lines.push(`model ${model.dir}: ${c.numLayers} layers, context ${c.maxPositions}, ${engine.provider}; ${json.samplingSource}: ${fmtSampling(sampling)}, seed ${seed} (call k samples with seed ${seed}·1000 + k)`);
  lines.push(`tools: ${json.tools.join(', ') || 'none'}${json.tools.includes('phone_call') ? ` (phone_call: at most ${phoneLimit} calls per company)` : ''}`);
  for (const x of run.calls) {
    const msgs = x.request.messages;
    lines.push('');
    lines.push(
      `call ${x.index + 1}: ${msgs.length} messages (${x.index === 0 ? 'all new' : x.changedFrom === msgs.length ? 'none changed' : `changed or appended from message ${x.changedFrom}`}${x.statusIndex !== null ? `; status at ${x.statusIndex}` : ''}), ` +
        `prompt ${x.promptTokens} tokens: reused ${x.reused} from the cache, recomputed ${x.recomputed}` +
        (x.index > 0 ? ` (cache held ${x.cachedBefore}; common prefix with it ${x.commonPrefix}, with the previous prompt ${x.prefixWithPrevious})` : ''),
    );
    if (x.index > 0) lines.push(`  cache: ${whereReuseStops(x, run.calls[x.index - 1]!)}`);
    for (let i = x.index === 0 ? 0 : x.changedFrom; i < msgs.length; i++) lines.push(`  + ${describeMessage(msgs[i]!, i)}`);
    lines.push(`  generated ${x.generatedIds.length} tokens (${x.stopped}): ${briefOutput(x.parsed, 200)}`);
    for (const r of x.toolResults) lines.push(`  tool ${r.name} → ${r.error ? 'ERROR ' : ''}${JSON.stringify(clip(oneLine(r.content), 110))}`);
    lines.push(`  decision: ${x.decision === 'final' ? 'final answer' : `${x.toolResults.length} tool call${x.toolResults.length === 1 ? '' : 's'}`}; call-limit reading: ${x.callLimit}`);
  }
  lines.push('');
  lines.push(`stopped: ${run.stop} — ${run.stopReason}`);
  lines.push(
    `totals over ${run.calls.length} call${run.calls.length === 1 ? '' : 's'}: ${totals.promptTokens} prompt tokens sent, ${totals.reused} reused from the cache (${totals.promptTokens ? ((100 * totals.reused) / totals.promptTokens).toFixed(1) : '0.0'} %), ${totals.recomputed} recomputed, ${totals.generated} generated`,
  );
  if (run.phoneCalls.length) lines.push(`phone calls: ${run.phoneCalls.map((p) => `${p.company} ${p.placed} placed${p.refused ? `, ${p.refused} refused by the limit` : ''}`).join('; ')}`);
  if (runlog) lines.push(`run log written to ${runlog.path} (${runlog.calls} calls; the Data tab and \`kvscope log\` read it)`);
  lines.push(`timing: graph ${engine.buildMs.toFixed(0)} ms, total ${totalMs.toFixed(0)} ms`);
  return { text: lines.join('\n'), json, code: 0 };
}
