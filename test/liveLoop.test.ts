// The live agent loop (lib/agent/liveLoop.ts). Scripted runs on a fake engine that only keeps token ids
// (so every count is exact and the test is fast): parsed tool calls → tool results → the next request
// equals the message list written out by hand; the reused count equals the common prefix of the cache's ids
// (previous prompt + generated) and the new prompt's ids, computed here independently; replace vs append
// move reuse where the economics say; abort stops between calls; the max-calls and context stops; the run
// log round-trips through parseRunLog. Then one real run of kvscope-tiny (fp32, onnxruntime-web WASM): the
// engine's reuse is the independent common prefix, and every call's last logits after fork + extend equal
// a fresh full prefill of the same prompt within 1e-4 (measured: ≤ 3.9e-6 on 4 calls of 299–647 tokens;
// chunked vs one-shot fp32 accumulation order is the only difference).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { commonPrefixLength, loopRunLog, modelGenerator, runLoop, scriptedGenerator, type LoopCall, type LoopEngine, type LoopGenerator, type LoopStep } from '../lib/agent/liveLoop';
import { readModelDir } from '../lib/cli/modelDir';
import { nodeOrt } from '../lib/cli/ort';
import { EngineSession } from '../lib/engine/session';
import { lastRow } from '../lib/generate/generate';
import { greedySettings, parseGenerationConfig } from '../lib/generate/sampling';
import { parseRunLog, serializeRunLog } from '../lib/io/runlog';
import { decodeIds } from '../lib/prompt/assistantOutput';
import { buildPrompt, type Prompt } from '../lib/prompt/prompt';
import { createTokenizer, encodeText } from '../lib/prompt/tokenizer';
import { runOf } from '../lib/agent/run';
import { scenarioRequest } from '../lib/scenarios/index';
import type { ChatMessage, ChatRequest } from '../lib/scenarios/types';
import { VANCOUVER_MESSAGES } from '../lib/scenarios/vancouver';
import { pyJson } from '../lib/scenarios/json';

const model = readModelDir('public/models/kvscope-tiny');
const tok = createTokenizer(model.tokenizerJson, model.tokenizerConfig);
const V = model.checkpoint.config.vocabSize;
const [IM_END] = encodeText(tok, '<|im_end|>');
assert.equal(typeof IM_END, 'number');

/** Keeps ids only; counts the tokens it is asked to compute. */
class FakeEngine implements LoopEngine {
  ids: number[] = [];
  computed = 0;
  runs = 0;
  private step(past: number, ids: number[]): LoopStep {
    this.computed += ids.length;
    this.runs++;
    return { logits: { data: new Float32Array(V), dims: [1, V] }, pastLength: past, length: this.ids.length };
  }
  async prefill(ids: number[]) {
    this.ids = [...ids];
    return this.step(0, ids);
  }
  async extend(ids: number[]) {
    const past = this.ids.length;
    this.ids.push(...ids);
    return this.step(past, ids);
  }
  fork(n: number) {
    if (n > this.ids.length) throw new Error('fork past the end');
    this.ids = this.ids.slice(0, n);
  }
}

const render = (r: ChatRequest) => buildPrompt(tok, r, { addGenerationPrompt: true });
const decode = (ids: number[]) => decodeIds(tok, ids);
const encode = (t: string) => encodeText(tok, t);
const script = (...texts: string[]) => scriptedGenerator(texts, encode, IM_END);
/** A tool call as Qwen3 writes one (Python-style JSON, as the template re-renders it). */
const call = (name: string, args: Record<string, unknown>) => `<tool_call>\n${pyJson({ name, arguments: args })}\n</tool_call>`;
const base = { render, decode, maxNewTokens: 400, sampling: greedySettings(), seed: 1 };
const first = (id: string, variant?: string) => runOf(scenarioRequest(id, variant)).calls[0]!.request;

/** The independent reuse: the common prefix of what the cache holds (previous prompt + generated) and the new prompt, less one if it is all of the prompt. */
function expectedReuse(prev: LoopCall<Prompt>, cur: LoopCall<Prompt>): number {
  const cache = [...prev.prompt.ids, ...prev.generatedIds];
  let p = 0;
  while (p < cache.length && p < cur.prompt.ids.length && cache[p] === cur.prompt.ids[p]) p++;
  return Math.min(p, cur.prompt.ids.length - 1);
}

/** Token range of message `m` in a prompt. */
function messageRange(p: Prompt, m: number): { start: number; end: number } {
  const spans = p.spans.filter((s) => s.message === m);
  return { start: spans[0]!.start, end: spans[spans.length - 1]!.end };
}

test('tool calls → tool results → the next request is exactly the expected message list', async () => {
  const engine = new FakeEngine();
  const run = await runLoop(engine, {
    ...base,
    request: first('vancouver'),
    maxCalls: 5,
    generator: script(
      call('get_current_time', { timezone: 'America/Vancouver' }) + '\n' + call('get_weather', { city: 'Vancouver', unit: 'celsius' }),
      'It is 5:18 AM in Vancouver, 13.2°C and clear.',
    ),
  });
  assert.equal(run.stop, 'final');
  assert.equal(run.calls.length, 2);
  const [system, user, , timeResult, weatherResult] = VANCOUVER_MESSAGES;
  const expected: ChatMessage[] = [
    system!,
    user!,
    {
      role: 'assistant',
      content: '',
      tool_calls: [
        { id: 'call_1_1', type: 'function', function: { name: 'get_current_time', arguments: '{"timezone": "America/Vancouver"}' } },
        { id: 'call_1_2', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Vancouver", "unit": "celsius"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1_1', content: (timeResult as { content: string }).content },
    { role: 'tool', tool_call_id: 'call_1_2', content: (weatherResult as { content: string }).content },
  ];
  assert.deepEqual(run.calls[0]!.request.messages, expected.slice(0, 2));
  assert.deepEqual(run.calls[1]!.request, { messages: expected, tools: first('vancouver').tools });
  assert.deepEqual(run.messages, [...expected, { role: 'assistant', content: 'It is 5:18 AM in Vancouver, 13.2°C and clear.' }]);
  assert.equal(run.calls[1]!.changedFrom, 2);
  assert.deepEqual(run.calls.map((c) => c.decision), ['tool_calls', 'final']);
  assert.deepEqual(run.calls[0]!.toolResults.map((r) => [r.id, r.name, r.error]), [['call_1_1', 'get_current_time', undefined], ['call_1_2', 'get_weather', undefined]]);
  // The template re-renders the generated turn token for token here, so the whole cache is kept: prompt 1 and its generated tokens.
  const [c1, c2] = run.calls as [LoopCall<Prompt>, LoopCall<Prompt>];
  assert.equal(c2.cachedBefore, c1.promptTokens + c1.generatedIds.length);
  assert.equal(c2.reused, expectedReuse(c1, c2));
  assert.equal(c2.reused, c1.promptTokens + c1.generatedIds.length);
  assert.ok(c2.reused > commonPrefixLength(c1.prompt.ids, c2.prompt.ids));
  assert.equal(c2.recomputed, c2.promptTokens - c2.reused);
  // the engine computed exactly the recomputed prompt tokens and the generated ones, nothing else
  assert.equal(engine.computed, run.calls.reduce((s, c) => s + c.recomputed + c.generatedIds.length, 0));
});

test('malformed and unknown calls get error results and the loop goes on; max-calls stops after running the last tools', async () => {
  const run = await runLoop(new FakeEngine(), {
    ...base,
    request: first('file-tools'),
    maxCalls: 3,
    generator: script('<tool_call>\n{"name": "read_file", "arguments": {"file_path": \n</tool_call>', call('web_search', { query: 'x' }), call('read_file', { file_path: 'config/default.toml', size: 3 })),
  });
  assert.equal(run.stop, 'max-calls');
  assert.equal(run.calls.length, 3);
  const [a, b, c] = run.calls;
  assert.match(a!.toolResults[0]!.error!, /could not read the tool call: not valid JSON/);
  assert.equal(a!.toolResults[0]!.name, 'read_file');
  assert.match(b!.toolResults[0]!.error!, /unknown tool "web_search" \(tools: read_file, find, grep\)/);
  assert.deepEqual(run.messages.at(-1), { role: 'tool', tool_call_id: 'call_3_1', content: '   0  [server]\n   1  host = "127.0.0.1"\n   2  port = 8080' });
  assert.equal(run.messages.length, 2 + 3 * 2);
  for (const x of [a, b, c]) assert.equal(x!.decision, 'tool_calls');
});

/** Xfinity: three phone calls, then an answer, under each status policy. */
async function xfinity(status: 'off' | 'replace' | 'append', replaceAt: 'fixed' | 'end' = 'fixed') {
  const engine = new FakeEngine();
  const phone = call('phone_call', { company: 'Xfinity' });
  const run = await runLoop(engine, { ...base, request: first('xfinity'), maxCalls: 6, status, replaceAt, generator: script(phone, phone, phone, phone, 'The limit of 3 calls is reached; I will not call again.') });
  return { run, engine };
}

test('reused tokens equal the common prefix of the cache and the next prompt, under every policy', async () => {
  for (const [status, at] of [['off', 'fixed'], ['replace', 'fixed'], ['replace', 'end'], ['append', 'fixed']] as const) {
    const { run, engine } = await xfinity(status, at);
    assert.equal(run.stop, 'final', status);
    assert.equal(run.calls.length, 5);
    assert.equal(run.calls[0]!.reused, 0);
    for (let k = 1; k < run.calls.length; k++) {
      const [prev, cur] = [run.calls[k - 1]!, run.calls[k]!] as [LoopCall<Prompt>, LoopCall<Prompt>];
      assert.equal(cur.reused, expectedReuse(prev, cur), `${status}/${at} call ${k + 1}`);
      assert.equal(cur.prefixWithPrevious, commonPrefixLength(prev.prompt.ids, cur.prompt.ids));
      assert.equal(cur.recomputed, cur.promptTokens - cur.reused);
    }
    assert.equal(engine.computed, run.calls.reduce((s, c) => s + c.recomputed + c.generatedIds.length, 0));
    // the fourth call is refused by the phone tool
    assert.match(run.calls[3]!.toolResults[0]!.error!, /call limit reached/);
    assert.deepEqual(run.phoneCalls, [{ company: 'Xfinity', placed: 3, refused: 1 }]);
  }
});

test('replace vs append: append reuses the whole previous prompt, replace stops at the status message', async () => {
  const { run: app } = await xfinity('append');
  const { run: rep } = await xfinity('replace');
  const { run: repEnd } = await xfinity('replace', 'end');
  const { run: off } = await xfinity('off');
  for (let k = 1; k < app.calls.length; k++) {
    const [prev, cur] = [app.calls[k - 1]!, app.calls[k]!] as [LoopCall<Prompt>, LoopCall<Prompt>];
    // append: every earlier status stays, so the cache (the whole previous prompt and what was generated after it) is kept
    assert.ok(cur.reused >= prev.promptTokens, `append call ${k + 1}: ${cur.reused} < ${prev.promptTokens}`);
    assert.equal(cur.reused, cur.cachedBefore);
    assert.equal(cur.statusIndex, cur.request.messages.length - 1);
    assert.equal(cur.request.messages.filter((m) => m.role === 'user' && m.content.startsWith('<agent_status>')).length, k + 1);
  }
  for (let k = 1; k < rep.calls.length; k++) {
    const [prev, cur] = [rep.calls[k - 1]!, rep.calls[k]!] as [LoopCall<Prompt>, LoopCall<Prompt>];
    assert.equal(cur.statusIndex, 2);
    assert.equal(cur.changedFrom, 2);
    const s = messageRange(cur.prompt, 2);
    // the rewritten status is where the prompts part: reuse ends inside it, everything after it is recomputed
    assert.ok(cur.reused >= s.start && cur.reused < s.end, `replace call ${k + 1}: reused ${cur.reused}, status ${s.start}–${s.end}`);
    assert.equal(cur.reused, commonPrefixLength(prev.prompt.ids, cur.prompt.ids));
    assert.ok(cur.recomputed >= cur.promptTokens - s.end);
  }
  for (let k = 1; k < repEnd.calls.length; k++) {
    const [prev, cur] = [repEnd.calls[k - 1]!, repEnd.calls[k]!] as [LoopCall<Prompt>, LoopCall<Prompt>];
    const old = messageRange(prev.prompt, prev.statusIndex!);
    // the old status (last in the previous call) is removed: reuse stops at its position
    assert.ok(cur.reused >= old.start && cur.reused < old.end, `replace-at-end call ${k + 1}: reused ${cur.reused}, old status ${old.start}–${old.end}`);
  }
  const total = (r: typeof app, f: (c: LoopCall<Prompt>) => number) => r.calls.reduce((s, c) => s + f(c as LoopCall<Prompt>), 0);
  // with ~60 appended tokens per call and a ~45-token status, recomputing is dearer under replace in place; off recomputes least
  assert.ok(total(rep, (c) => c.recomputed) > total(app, (c) => c.recomputed));
  assert.ok(total(app, (c) => c.recomputed) > total(off, (c) => c.recomputed));
  // append pays in prompt length instead: every stale status is sent again
  assert.ok(total(app, (c) => c.promptTokens) > total(rep, (c) => c.promptTokens));
});

test('abort stops between calls (and before the first); the context limit stops a call that would not fit', async () => {
  const ctl = new AbortController();
  const engine = new FakeEngine();
  const seen: number[] = [];
  let runsAtAbort = -1;
  const run = await runLoop(engine, {
    ...base,
    request: first('xfinity'),
    maxCalls: 5,
    signal: ctl.signal,
    generator: script(call('phone_call', { company: 'Xfinity' })),
    onCall: (c) => {
      seen.push(c.index);
      if (c.index === 1) {
        ctl.abort();
        runsAtAbort = engine.runs;
      }
    },
  });
  assert.deepEqual(seen, [0, 1]);
  assert.equal(run.stop, 'aborted');
  assert.match(run.stopReason, /before call 3/);
  assert.equal(run.calls.length, 2);
  assert.equal(engine.runs, runsAtAbort, 'the engine ran nothing after the abort');
  assert.equal(engine.ids.length, run.calls[1]!.promptTokens + run.calls[1]!.generatedIds.length, 'nothing ran after the abort');

  const pre = new AbortController();
  pre.abort();
  const none = await runLoop(new FakeEngine(), { ...base, request: first('vancouver'), maxCalls: 3, signal: pre.signal, generator: script('x') });
  assert.deepEqual([none.calls.length, none.stop], [0, 'aborted']);

  // an abort while generating: the call is reported, its tools are not run
  const mid = new AbortController();
  const slow: LoopGenerator = async (ctx) => {
    await ctx.engine.extend([encode('<tool_call>')[0]!]);
    mid.abort();
    return { ids: [encode('<tool_call>')[0]!], stopped: 'aborted' };
  };
  const cut = await runLoop(new FakeEngine(), { ...base, request: first('vancouver'), maxCalls: 3, signal: mid.signal, generator: slow });
  assert.deepEqual([cut.calls.length, cut.stop, cut.calls[0]!.toolResults.length, cut.calls[0]!.assistant], [1, 'aborted', 0, null]);

  const small = await runLoop(new FakeEngine(), { ...base, maxNewTokens: 64, request: first('xfinity'), maxCalls: 9, contextLimit: 500, generator: script(call('web_search', { query: 'refund' })) });
  assert.equal(small.stop, 'context');
  assert.ok(small.calls.length >= 2);
  assert.ok(small.calls.every((c) => c.promptTokens + 64 <= 500));
  assert.match(small.stopReason, new RegExp(`^call ${small.calls.length + 1} would need \\d+ prompt \\+ 64 new tokens, more than the model's context of 500$`));
});

test('a finished run exports as a run log that parseRunLog reads back equal', async () => {
  const { run } = await xfinity('replace');
  const log = loopRunLog(run, { model: 'kvscope-tiny' });
  assert.equal(log.calls.length, 5);
  assert.deepEqual(log.calls.map((c) => c.promptTokens), run.calls.map((c) => c.promptTokens));
  assert.deepEqual(log.calls.map((c) => c.completionTokens), run.calls.map((c) => c.generatedIds.length));
  assert.equal(log.mainContextPeak, Math.max(...run.calls.map((c) => c.promptTokens)));
  assert.match(log.calls[1]!.note!, /^call 2: 5 messages, reused \d+, recomputed \d+; tool calls: phone_call$/);
  assert.match(log.calls[3]!.note!, /phone_call \(error\)/);
  const back = parseRunLog(serializeRunLog(log));
  assert.ok(back.ok, back.ok ? '' : back.error);
  assert.deepEqual(back.log, log);
  assert.deepEqual(back.notes, []);
});

// ---- the real model ----

const engine = await EngineSession.create(nodeOrt(), model.checkpoint, { graph: { logits: 'last', attention: 'none', presentKv: true } });
const fresh = await EngineSession.create(nodeOrt(), model.checkpoint, { graph: { logits: 'last', attention: 'none', presentKv: true } });
after(async () => {
  await engine.dispose();
  await fresh.dispose();
});

test('kvscope-tiny runs the loop (greedy, append): measured reuse is the common prefix, and the reused cache gives a full prefill’s logits', async (t) => {
  // Greedy: sampled with seed 1 the model answers (wrongly) after one call here; greedy makes four calls.
  const sampling = { ...parseGenerationConfig(model.generationConfig), doSample: false };
  const inner = modelGenerator(sampling);
  const logits: Float32Array[] = [];
  const generator: LoopGenerator = (ctx) => {
    logits.push(ctx.lastLogits.slice());
    return inner(ctx);
  };
  const opts = { ...base, sampling, request: first('xfinity'), maxCalls: 4, maxNewTokens: 96, status: 'append' as const, contextLimit: model.checkpoint.config.maxPositions };
  const run = await runLoop(engine, { ...opts, generator });
  assert.ok(run.calls.length >= 2, `the model ended after ${run.calls.length} call(s): ${run.calls[0]?.text}`);
  for (let k = 0; k < run.calls.length; k++) {
    const cur = run.calls[k]! as LoopCall<Prompt>;
    if (k > 0) {
      const prev = run.calls[k - 1]! as LoopCall<Prompt>;
      assert.equal(cur.reused, expectedReuse(prev, cur), `call ${k + 1}`);
      assert.ok(cur.reused > 0);
      assert.ok(cur.reused >= prev.promptTokens, 'append keeps the previous prompt');
    }
    const r = await fresh.prefill([...cur.prompt.ids]);
    const full = lastRow(r.logits!);
    let max = 0;
    for (let i = 0; i < full.length; i++) max = Math.max(max, Math.abs(full[i]! - logits[k]![i]!));
    assert.ok(max <= 1e-4, `call ${k + 1}: max |Δlogit| ${max}`);
    t.diagnostic(`call ${k + 1}: ${cur.promptTokens} tokens, reused ${cur.reused}, max |Δlogit| vs a full prefill ${max.toExponential(2)}`);
  }
  const last = run.calls.at(-1)!;
  if (run.stop !== 'aborted') assert.deepEqual(engine.ids, [...last.prompt.ids, ...last.generatedIds]);
  // the same settings give the same run (call 1 now starts from this run's cache: the static prefix is reused)
  const again = await runLoop(engine, opts);
  assert.deepEqual(again.calls.map((c) => c.text), run.calls.map((c) => c.text));
  assert.deepEqual(again.messages, run.messages);
  assert.ok(again.calls[0]!.reused > 0 && again.calls[0]!.reused === expectedReuse(last as LoopCall<Prompt>, again.calls[0]! as LoopCall<Prompt>));
});
