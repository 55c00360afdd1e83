// The `kvscope` command: parses flags and dispatches to one file per subcommand. A user error prints one
// clear line on stderr and exits 2; a failed check exits 1; stack traces only with KVSCOPE_DEBUG=1.

import { SCENARIOS } from '../scenarios/index';
import { parseArgs } from './args';
import { CliError } from './modelDir';

const USAGE = `kvscope — what a language model sees and keeps

usage:
  kvscope check   --model <dir> [--golden training/golden] [--tokens 48] [--json]
  kvscope analyze --model <dir> (--messages <openai-request.json> | --scenario <id>[:<variant>])
                  [--min-query 16] [--top 10] [--json]
  kvscope patterns [--model <dir>] [--block 256] [--alpha 0.1] [--seed 1] [--calls 7] [--json]
                  the kv-cache experiment's six context modes: tokens sent, cached and recomputed per call
                  (--block 1|16|64|256; only the model's tokenizer is read; default public/models/kvscope-tiny)
  kvscope kv-diff --model <dir> (--a <req.json> | --a-scenario <id>[:<variant>])
                  (--b <req.json> | --b-scenario <id>[:<variant>] | --edit <position>:<tokenId>)
                  [--mode shared|separate] [--tol 1e-6] [--json]
  kvscope ab      [--model <dir>] [--scenario xfinity] [--seeds 5] [--max-new-tokens 48] [--json]
                  the status-bar A/B: shared prefix and its attention rows (identical by causality), attention
                  mass per region at each arm's decision position, call/refuse decisions over seeds 1…N
                  (sampled with the model's generation_config.json; default public/models/kvscope-tiny)
  kvscope log     <file> [--alpha 0.1] [--window <tokens>] [--output-price <ratio>] [--json]
                  an agent run log (result JSON with tracker_calls, a page capture of it, or a list of calls):
                  context growth per call and what an append-only prefix cache would save
  kvscope streaming --model <dir> [--text <file>] [--window 128] [--sink 4] [--tokens N] [--json]
                  the StreamingLLM experiment: per-token NLL and perplexity of a text decoded token by token
                  with the last W keys, the first k plus the last W − k, and full attention
                  (default text examples/streaming/calllimit-heldout.txt)
  kvscope loop    [--model <dir>] [--scenario vancouver] [--max-calls 4] [--seed 1] [--status off|replace|append]
                  [--replace-at fixed|end] [--sampling config|greedy] [--max-new-tokens 160] [--phone-limit 3]
                  [--runlog <file>] [--json]
                  the live agent loop: the model calls the simulated tools, results are appended, it is called
                  again on the same K/V cache; per call the messages, prompt tokens, tokens reused from the
                  cache and recomputed, and the decision (sampled with generation_config.json, seeded)

scenarios: ${SCENARIOS.map((s) => (s.variants ? `${s.id} (variants: ${s.variants.map((v) => v.id).join(', ')})` : s.id)).join(', ')}

<dir> is a Hugging Face model folder (config.json, *.safetensors, tokenizer.json, tokenizer_config.json);
the embedded models are public/models/kvscope-tiny and public/models/kvscope-tiny-sink. It may also be a Hub
repo id (org/name or org/name@revision, e.g. Qwen/Qwen3-0.6B): read from the Hugging Face cache
($HF_HUB_CACHE, or $HF_HOME/hub, default ~/.cache/huggingface/hub) where huggingface_hub put it, and
downloaded into that cache from $HF_ENDPOINT (default https://huggingface.co) unless HF_HUB_OFFLINE=1.`;

type Command = (args: ReturnType<typeof parseArgs>) => Promise<{ text: string; json: unknown; code: number }>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  check: async () => (await import('./check')).check,
  analyze: async () => (await import('./analyze')).analyze,
  patterns: async () => (await import('./patterns')).patterns,
  'kv-diff': async () => (await import('./kvDiff')).kvDiff,
  ab: async () => (await import('./ab')).ab,
  log: async () => (await import('./log')).log,
  streaming: async () => (await import('./streaming')).streaming,
  loop: async () => (await import('./loop')).loop,
};

/** Known user-facing error classes: their message is the whole story. */
const USER_ERRORS = new Set(['CliError', 'ConfigError', 'SafetensorsError', 'EngineError', 'RequestError', 'PromptError', 'ModelSourceError']);

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    console.log(USAGE);
    return name ? 0 : 2;
  }
  const load = COMMANDS[name];
  if (!load) {
    console.error(`kvscope: unknown command "${name}" (commands: ${Object.keys(COMMANDS).join(', ')})`);
    return 2;
  }
  try {
    const args = parseArgs(rest, ['json']);
    const out = await (await load())(args);
    console.log(args.flags.has('json') ? JSON.stringify(out.json, null, 2) : out.text);
    return out.code;
  } catch (e) {
    const err = e as Error;
    if (process.env.KVSCOPE_DEBUG) console.error(err.stack);
    const known = USER_ERRORS.has(err.name) || err instanceof CliError;
    console.error(`kvscope ${name}: ${known ? err.message : `internal error: ${err.message}`}`);
    return known ? 2 : 3;
  }
}
