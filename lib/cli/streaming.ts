// `kvscope streaming`: the StreamingLLM experiment on real tensors (lib/analysis/streaming.ts). A text is
// tokenized as it is (special tokens such as <|im_start|> are read as such; no chat template is applied) and
// decoded token by token under a sliding window of W keys per query, the window plus k sink tokens, and full
// attention; per strategy the perplexity over the whole text and over the predictions made after the window
// first filled, and with --json the per-token NLL arrays.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { DEFAULT_SINK, DEFAULT_WINDOW, STRATEGIES, streamingExperiment, type Strategy } from '../analysis/streaming';
import { EngineSession } from '../engine/session';
import { createTokenizer, encodeText } from '../prompt/tokenizer';
import { intFlag, onlyFlags, required, str, type Args } from './args';
import { CliError, openModelArg } from './modelDir';
import { nodeOrt } from './ort';

/** A held-out call-limit trajectory (2,349 tokens) rendered with the chat template; see docs/CONCEPTS.md. */
export const DEFAULT_TEXT = 'examples/streaming/calllimit-heldout.txt';

const f3 = (x: number | null) => (x === null ? '-' : x.toFixed(3));

export async function streaming(args: Args): Promise<{ text: string; json: unknown; code: number }> {
  onlyFlags(args, ['model', 'text', 'window', 'sink', 'tokens', 'json', 'threads']);
  const window = intFlag(args, 'window', DEFAULT_WINDOW, 1);
  const sink = intFlag(args, 'sink', DEFAULT_SINK, 0);
  if (sink > window - 1) throw new CliError(`--sink must be at most --window − 1 = ${window - 1} (got ${sink}): the query itself is one of the window's keys`);
  const tokensFlag = str(args, 'tokens') === undefined ? undefined : intFlag(args, 'tokens', 0, 2);
  const textPath = str(args, 'text') ?? DEFAULT_TEXT;
  if (!existsSync(textPath) || !statSync(textPath).isFile()) throw new CliError(`text file not found: ${textPath}`);

  const model = await openModelArg(required(args, 'model'));
  if (!model.tokenizerJson || !model.tokenizerConfig) throw new CliError(`${model.dir}: needs tokenizer.json and tokenizer_config.json`);
  const c = model.checkpoint.config;
  const tok = createTokenizer(model.tokenizerJson, model.tokenizerConfig);
  const all = encodeText(tok, readFileSync(textPath, 'utf8'));
  if (all.length < 2) throw new CliError(`${textPath}: ${all.length} token${all.length === 1 ? '' : 's'}; the experiment needs at least 2`);
  const n = Math.min(all.length, tokensFlag ?? all.length);
  if (n > c.maxPositions) throw new CliError(`${textPath}: ${n} tokens exceed the model's context of ${c.maxPositions}; pass --tokens ${c.maxPositions} or fewer`);
  const ids = all.slice(0, n);

  const ort = nodeOrt(args.flags.has('threads') ? intFlag(args, 'threads', 1, 1) : undefined);
  const engine = await EngineSession.create(ort, model.checkpoint, { graph: { logits: 'all', attention: 'none', presentKv: true } });
  let result: Awaited<ReturnType<typeof streamingExperiment>>;
  try {
    result = await streamingExperiment(engine, ids, { window, sink });
  } finally {
    await engine.dispose();
  }

  const predictions = n - 1;
  const afterFill = Math.max(0, predictions - result.firstEvictedQuery);
  const keys: Record<Strategy, string> = {
    window: `the last ${window}`,
    sink: sink === 0 ? `the last ${window} (k = 0: same as window)` : `the first ${sink} + the last ${window - sink}`,
    full: 'every earlier token and itself',
  };
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const strategies = Object.fromEntries(
    STRATEGIES.map((s) => {
      const r = result.runs[s];
      return [s, { keysPerQuery: keys[s], maxKeys: r.maxKeys, perplexity: r.perplexity, perplexityAfterFill: r.perplexityAfterFill, meanNll: mean(r.nll), nll: r.nll, ms: r.ms }];
    }),
  );
  const json = {
    model: model.dir,
    provider: engine.provider,
    text: textPath,
    textTokens: all.length,
    tokens: n,
    predictions,
    window,
    sink,
    firstEvictedQuery: result.firstEvictedQuery,
    predictionsAfterFill: afterFill,
    positions: 'true positions: kept keys keep the RoPE rotation of their position in the text (no re-assignment inside the cache)',
    nllUnit: 'nats (natural log); nll[i] is the NLL of token i + 1 predicted by the query at position i',
    strategies,
  };

  const lines: string[] = [];
  lines.push(`model: ${model.dir} (${c.numLayers} layers, ${engine.provider})`);
  lines.push(`text: ${textPath} — ${n}${n < all.length ? ` of ${all.length}` : ''} tokens, ${predictions} predictions`);
  lines.push(`window W = ${window} keys per query (the query included), sink k = ${sink}; kept keys keep their true positions`);
  if (afterFill === 0) lines.push(`the window never fills (${predictions} predictions ≤ W = ${window}): nothing is evicted, all three are full attention`);
  lines.push('');
  lines.push(`  strategy  perplexity  after fill  mean NLL (nats)  keys per query`);
  for (const s of STRATEGIES) {
    const r = strategies[s]!;
    lines.push(`  ${s.padEnd(8)}  ${f3(r.perplexity).padStart(10)}  ${f3(r.perplexityAfterFill).padStart(10)}  ${r.meanNll.toFixed(4).padStart(15)}  ${r.keysPerQuery}`);
  }
  lines.push('');
  lines.push(`"after fill": the ${afterFill} predictions of queries at positions ≥ ${result.firstEvictedQuery}, made after the cache was first thinned`);
  lines.push(`timing: window ${result.runs.window.ms.toFixed(0)} ms, sink ${result.runs.sink.ms.toFixed(0)} ms, full ${result.runs.full.ms.toFixed(0)} ms (${engine.provider}, build ${engine.buildMs.toFixed(0)} ms)`);
  return { text: lines.join('\n'), json, code: 0 };
}
