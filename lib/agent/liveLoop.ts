// The live agent loop (docs/CONCEPTS.md#live-agent-loop): the model itself runs the loop of the study
// note — render the request with the chat template, generate, parse <tool_call>s, run the (simulated)
// tools, append the assistant turn and the tool results, call again — on one engine whose K/V cache is
// carried from call to call. Each call keeps the cache up to the first token where the new prompt differs
// from what the cache holds (fork) and computes the rest (extend); the reused and recomputed counts are
// the engine's own (RunResult.pastLength and length), not estimates. Works over EngineSession in Node and
// over the page's EngineClient (both fit LoopEngine). No DOM, no Node APIs.

import { generate, lastRow, type GenStep } from '../generate/generate';
import type { SamplingSettings } from '../generate/sampling';
import { classifyDecision, parseAssistantText, type Decision, type ParsedAssistant } from '../prompt/assistantOutput';
import { pyJson } from '../scenarios/json';
import type { ChatMessage, ChatRequest, ToolCall, ToolDef } from '../scenarios/types';
import type { RunCall, RunLog } from '../io/runlog';
import { placeStatus, statusText, type ReplaceAt, type StatusPolicy } from './statusBar';
import { ToolBox, type ToolBoxOptions } from './tools';
import type { Params, StringKey } from '../i18n';
import { CodedError, message as codedMessage, messageText, type Message } from '../i18n/message';

type Logits = { data: Float32Array; dims: number[] };

/** What the engine reports of one prefill or extend (EngineSession's and EngineClient's RunResult fit). */
export interface LoopStep {
  logits?: Logits;
  /** Tokens in the cache before this call (the reused part) and after it. */
  pastLength: number;
  length: number;
}

/** What the loop needs of an engine: EngineSession and EngineClient both fit. */
export interface LoopEngine {
  prefill(ids: number[]): Promise<LoopStep>;
  extend(ids: number[]): Promise<LoopStep>;
  /** Rewinds the cache to its first `length` tokens (may return a promise). */
  fork(length: number): unknown;
  /** The ids in the cache now. */
  readonly ids: readonly number[];
}

/** Generated ids after a prompt that is in the engine's cache; they must be in the cache at return, as generate() leaves them. */
export type LoopGenerator = (ctx: {
  engine: LoopEngine;
  lastLogits: Float32Array;
  /** The prompt's length: the position of the first new token. */
  position: number;
  callIndex: number;
  seed: number;
  maxNewTokens: number;
  signal?: AbortSignal;
  onToken?: (step: GenStep) => void;
}) => Promise<{ ids: number[]; stopped: 'eos' | 'limit' | 'aborted' | 'callback' }>;

export interface LoopOptions<P extends { ids: readonly number[] } = { ids: readonly number[] }> {
  /** The first request (system, tools, user …): what call 1 sends before any status message. */
  request: ChatRequest;
  /** Renders a request with the model's chat template, generation prompt included (lib/prompt buildPrompt). */
  render: (request: ChatRequest) => P | Promise<P>;
  /** Text of generated ids with special tokens kept (lib/prompt/assistantOutput decodeIds). */
  decode: (ids: number[]) => string;
  /** Most calls (≥ 1). */
  maxCalls: number;
  maxNewTokens: number;
  /** Settings for the default generator (greedy when doSample is false). */
  sampling: SamplingSettings;
  /** Call k (0-based) samples with seed `callSeed(seed, k)`. */
  seed: number;
  status?: StatusPolicy;
  replaceAt?: ReplaceAt;
  tools?: ToolBoxOptions;
  /** The model's context (max_position_embeddings): a call whose prompt plus maxNewTokens would pass it is not made. */
  contextLimit?: number;
  /** Checked before each call and between generated tokens. */
  signal?: AbortSignal;
  /** Replaces the model's generation (tests: scripted output). Default: lib/generate generate(). */
  generator?: LoopGenerator;
  /** After each call, with everything about it. */
  onCall?: (call: LoopCall<P>) => void;
  /** After each generated token of call `callIndex` (default generator only). */
  onToken?: (callIndex: number, step: GenStep) => void;
}

export interface LoopToolResult {
  /** The tool call's id (`call_<call>_<k>`, 1-based), also the tool message's tool_call_id. */
  id: string;
  name: string;
  arguments: unknown;
  content: string;
  error?: string;
}

/** 'tool_calls': the turn asked for tools (the loop goes on); 'final': no tool call (the loop ends). */
export type LoopDecision = 'tool_calls' | 'final';

export interface LoopCall<P extends { ids: readonly number[] } = { ids: readonly number[] }> {
  /** 0-based; the UI says index + 1. */
  index: number;
  /** Exactly what this call sent. */
  request: ChatRequest;
  /** First message index where this request differs from the previous call's (0 for call 1); appended or changed from there on. */
  changedFrom: number;
  /** Index of the status message in request.messages (null without one). */
  statusIndex: number | null;
  prompt: P;
  promptTokens: number;
  /** Tokens in the engine's cache before the call (the previous prompt plus its generated tokens). */
  cachedBefore: number;
  /** Common prefix of the cache's ids and this prompt's ids. */
  commonPrefix: number;
  /** Common prefix of the previous call's prompt ids and this one's (0 for call 1). */
  prefixWithPrevious: number;
  /** Prompt tokens the engine kept from its cache (its pastLength): commonPrefix, or one less when the whole prompt was cached (the last token is recomputed for its logits). */
  reused: number;
  /** Prompt tokens the engine computed for this call (its length − pastLength). */
  recomputed: number;
  /** The generated ids (an eos token included) and their text, special tokens kept. */
  generatedIds: number[];
  text: string;
  stopped: 'eos' | 'limit' | 'aborted' | 'callback';
  parsed: ParsedAssistant;
  /** The assistant message appended for this turn (null when the call was aborted while generating). */
  assistant: ChatMessage | null;
  toolResults: LoopToolResult[];
  decision: LoopDecision;
  /** The book's call-limit reading of the turn: a phone_call tool call is 'call', anything else 'refuse'. */
  callLimit: Decision;
  seed: number;
  ms: { forward: number; generate: number };
}

export type LoopStop = 'final' | 'max-calls' | 'aborted' | 'context';

export interface LoopRun<P extends { ids: readonly number[] } = { ids: readonly number[] }> {
  calls: LoopCall<P>[];
  /** The message list after the last call: the next request the loop would send, status excluded ('append': earlier statuses included). */
  messages: ChatMessage[];
  tools: ToolDef[];
  stop: LoopStop;
  /** Why it stopped, in one line (English). */
  stopReason: string;
  /** The same, coded (lib/i18n/message), for the page's language. */
  stopMessage: Message;
  status: StatusPolicy;
  replaceAt: ReplaceAt;
  /** Phone calls per company (placed, refused by the limit). */
  phoneCalls: { company: string; placed: number; refused: number }[];
}

export class LoopError extends CodedError {
  constructor(key: StringKey, params?: Params) {
    super(key, params);
    this.name = 'LoopError';
  }
}

/** The seed of call k (0-based) of a run seeded with `seed`. */
export const callSeed = (seed: number, k: number) => seed * 1000 + k;

export function commonPrefixLength(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

const sameMessage = (a: ChatMessage, b: ChatMessage) => JSON.stringify(a) === JSON.stringify(b);

/** The default generator: lib/generate generate() with the loop's sampling settings. */
export function modelGenerator(sampling: SamplingSettings): LoopGenerator {
  return async ({ engine, lastLogits, position, seed, maxNewTokens, signal, onToken }) =>
    generate(engine, lastLogits, position, { maxNewTokens, sampling, seed, signal, onStep: (s) => void onToken?.(s) });
}

/**
 * A generator that "generates" fixed texts, call k taking texts[k] (the last text repeats): each is
 * encoded and extended into the cache one token at a time, as generation would, then `eos` (if given)
 * appended. For tests and scripted demonstrations; the model's logits are ignored.
 */
export function scriptedGenerator(texts: readonly string[], encode: (text: string) => number[], eos?: number): LoopGenerator {
  if (texts.length === 0) throw new LoopError('msg.engine.loop.noTexts');
  return async ({ engine, callIndex, maxNewTokens, signal }) => {
    const ids = [...encode(texts[Math.min(callIndex, texts.length - 1)]!), ...(eos === undefined ? [] : [eos])].slice(0, maxNewTokens);
    const out: number[] = [];
    for (const id of ids) {
      if (signal?.aborted) return { ids: out, stopped: 'aborted' };
      await engine.extend([id]);
      out.push(id);
    }
    return { ids: out, stopped: eos !== undefined && out[out.length - 1] === eos ? 'eos' : 'limit' };
  };
}

/** The assistant message of a parsed turn: its answer as content, its tool calls (arguments re-serialised as the book's agents write them), its reasoning. */
export function assistantMessage(parsed: ParsedAssistant, callIndex: number): { message: ChatMessage; calls: { id: string; name: string; arguments: unknown; error?: string }[] } {
  const calls = parsed.toolCalls.map((c, k) => ({ id: `call_${callIndex + 1}_${k + 1}`, name: c.name || '(unparsed)', arguments: c.arguments, error: c.error }));
  const message: ChatMessage = { role: 'assistant', content: parsed.answer };
  if (calls.length) {
    message.tool_calls = calls.map(
      (c): ToolCall => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments === undefined ? '{}' : typeof c.arguments === 'string' ? c.arguments : pyJson(c.arguments) } }),
    );
  }
  if (parsed.think !== null) message.reasoning_content = parsed.think;
  return { message, calls };
}

/**
 * Runs the loop from `opts.request` until the model answers without a tool call ('final'), `maxCalls`
 * calls were made ('max-calls'), the signal fires ('aborted': checked before each call and between
 * tokens; a call cut short is reported with stopped 'aborted', its tools not run), or the next prompt
 * would not fit the context ('context'). Every call, including the last, has its tools run and its
 * results appended, so `messages` is the request a next call would send. Engine errors propagate.
 */
export async function runLoop<P extends { ids: readonly number[] }>(engine: LoopEngine, opts: LoopOptions<P>): Promise<LoopRun<P>> {
  if (!(Number.isInteger(opts.maxCalls) && opts.maxCalls >= 1)) throw new LoopError('msg.engine.loop.maxCalls', { got: opts.maxCalls });
  if (!(Number.isInteger(opts.maxNewTokens) && opts.maxNewTokens >= 1)) throw new LoopError('msg.engine.loop.maxNewTokens', { got: opts.maxNewTokens });
  if (opts.request.messages.length === 0) throw new LoopError('msg.engine.loop.noMessages');
  const policy = opts.status ?? 'off';
  const replaceAt = opts.replaceAt ?? 'fixed';
  const tools = opts.request.tools ?? [];
  const offered = tools.map((t) => t.function.name);
  const box = new ToolBox(opts.tools);
  const gen = opts.generator ?? modelGenerator(opts.sampling);
  const taskLength = opts.request.messages.length;
  const trajectory: ChatMessage[] = [...opts.request.messages];
  const calls: LoopCall<P>[] = [];
  let previous: { messages: ChatMessage[]; ids: readonly number[] } | null = null;
  let stop: LoopStop = 'max-calls';
  let stopMessage = codedMessage('msg.engine.loop.stopMax', { max: opts.maxCalls });

  for (let k = 0; k < opts.maxCalls; k++) {
    if (opts.signal?.aborted) {
      stop = 'aborted';
      stopMessage = codedMessage('msg.engine.loop.stopBefore', { call: k + 1 });
      break;
    }
    const placed = placeStatus(policy, trajectory, taskLength, policy === 'off' ? '' : statusText(box, offered), replaceAt);
    const request: ChatRequest = { messages: placed.messages };
    if (opts.request.tools) request.tools = opts.request.tools;
    const prompt = await opts.render(request);
    const ids = [...prompt.ids];
    const T = ids.length;
    if (T === 0) throw new LoopError('msg.engine.loop.emptyPrompt', { call: k + 1 });
    if (opts.contextLimit !== undefined && T + opts.maxNewTokens > opts.contextLimit) {
      stop = 'context';
      stopMessage = codedMessage('msg.engine.loop.stopContext', { call: k + 1, prompt: T, generate: opts.maxNewTokens, context: opts.contextLimit });
      break;
    }
    const changedFrom = previous ? (() => {
      const a = previous.messages;
      let i = 0;
      while (i < a.length && i < request.messages.length && sameMessage(a[i]!, request.messages[i]!)) i++;
      return i;
    })() : 0;
    const prefixWithPrevious = previous ? commonPrefixLength(previous.ids, ids) : 0;

    // Keep the cache up to the first differing token; at least the last prompt token is computed (its logits start generation).
    const cached = [...engine.ids];
    const common = commonPrefixLength(cached, ids);
    const keep = Math.min(common, T - 1);
    const t0 = performance.now();
    let step: LoopStep;
    if (keep === 0) step = await engine.prefill(ids);
    else {
      await engine.fork(keep);
      step = await engine.extend(ids.slice(keep));
    }
    const forwardMs = performance.now() - t0;
    if (step.length !== T) throw new LoopError('msg.engine.loop.promptLength', { call: k + 1, held: step.length, expected: T });
    if (!step.logits) throw new LoopError('msg.engine.noLogitsBuild');
    const seed = callSeed(opts.seed, k);
    const t1 = performance.now();
    const g = await gen({
      engine,
      lastLogits: lastRow(step.logits).slice(),
      position: T,
      callIndex: k,
      seed,
      maxNewTokens: opts.maxNewTokens,
      signal: opts.signal,
      onToken: opts.onToken ? (s) => opts.onToken!(k, s) : undefined,
    });
    const generateMs = performance.now() - t1;
    const text = opts.decode(g.ids);
    const parsed = parseAssistantText(text);
    const call: LoopCall<P> = {
      index: k,
      request,
      changedFrom,
      statusIndex: placed.statusIndex,
      prompt,
      promptTokens: T,
      cachedBefore: cached.length,
      commonPrefix: common,
      prefixWithPrevious,
      reused: step.pastLength,
      recomputed: step.length - step.pastLength,
      generatedIds: g.ids,
      text,
      stopped: g.stopped,
      parsed,
      assistant: null,
      toolResults: [],
      decision: parsed.toolCalls.length ? 'tool_calls' : 'final',
      callLimit: classifyDecision(parsed),
      seed,
      ms: { forward: forwardMs, generate: generateMs },
    };
    calls.push(call);
    previous = { messages: request.messages, ids };
    if (g.stopped === 'aborted') {
      opts.onCall?.(call);
      stop = 'aborted';
      stopMessage = codedMessage('msg.engine.loop.stopGenerating', { call: k + 1 });
      break;
    }

    // The turn and its tool results join the trajectory (under 'append' the status message stays in it too).
    const { message, calls: toolCalls } = assistantMessage(parsed, k);
    call.assistant = message;
    if (policy === 'append' && placed.statusIndex !== null) trajectory.push(request.messages[placed.statusIndex]!);
    trajectory.push(message);
    for (const c of toolCalls) {
      const out = c.error ? { content: pyJson({ error: `could not read the tool call: ${c.error}` }), error: `could not read the tool call: ${c.error}` } : box.run(c.name, c.arguments, offered);
      const r: LoopToolResult = { id: c.id, name: c.name, arguments: c.arguments, content: out.content };
      if (out.error) r.error = out.error;
      call.toolResults.push(r);
      trajectory.push({ role: 'tool', tool_call_id: c.id, content: out.content });
    }
    opts.onCall?.(call);
    if (call.decision === 'final') {
      stop = 'final';
      stopMessage = codedMessage('msg.engine.loop.stopFinal', { call: k + 1 });
      break;
    }
  }

  return {
    calls,
    messages: trajectory,
    tools,
    stop,
    stopReason: messageText('en', stopMessage),
    stopMessage,
    status: policy,
    replaceAt,
    phoneCalls: [...box.phoneCalls.entries()].map(([company, n]) => ({ company, ...n })),
  };
}

/**
 * A finished run as a run log (lib/io/runlog.ts; the Data tab imports it): one entry per call with its
 * prompt and generated token counts, and a note saying what the cache did and what the turn asked for.
 */
export function loopRunLog(run: LoopRun, opts: { agent?: string; model?: string } = {}): RunLog {
  const agent = opts.agent ?? 'agent';
  const calls = run.calls.map((c) => {
    const asked = c.toolResults.map((r) => `${r.name}${r.error ? ' (error)' : ''}`).join(', ');
    const note = `call ${c.index + 1}: ${c.request.messages.length} messages, reused ${c.reused}, recomputed ${c.recomputed}; ${c.decision === 'final' ? 'final answer' : `tool calls: ${asked}`}`;
    const entry: RunCall = { agent, promptTokens: c.promptTokens, completionTokens: c.generatedIds.length, note, outcome: c.stopped === 'aborted' ? 'aborted' : c.decision };
    if (opts.model !== undefined) entry.model = opts.model;
    return entry;
  });
  const log: RunLog = { mode: `live_loop_status_${run.status}`, calls, agents: calls.length ? [agent] : [] };
  if (calls.length) log.mainContextPeak = Math.max(...calls.map((c) => c.promptTokens));
  return log;
}
