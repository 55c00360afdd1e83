// Shared by the browser harnesses that drive a tab on a real prefill (stepLabHarness, copySourceHarness): the
// real engine worker behind EngineClient loads an embedded model, renders a scenario's whole conversation with
// the generation prompt and prefills it, as the page's Lab does; `analysedOf` packs that as the Lab's Analysed;
// `styledHost` is a mount point under the app's stylesheet variables.
import { EngineClient } from '../../lib/engine/client';
import type { LoadParams, RunResult } from '../../lib/engine/protocol';
import type { PromptResult } from '../../lib/engine/promptHook';
import { runOf } from '../../lib/agent/run';
import { layersWithHeads } from '../../lib/analysis/headLayers';
import { displayToken } from '../../lib/prompt/label';
import type { Prompt } from '../../lib/prompt/prompt';
import { parseScenarioRef, scenarioRequest } from '../../lib/scenarios';
import type { ChatRequest } from '../../lib/scenarios/types';
import { fetchModel } from '../../lib/model/fetchModel';
import { paletteCss } from '../../lib/view/palette';
import type { Analysed } from '../../lib/state/analysed';

type Fetched = Awaited<ReturnType<typeof fetchModel>>;

export interface ScenarioPrefill {
  client: EngineClient;
  request: ChatRequest;
  prompt: Prompt;
  run: RunResult;
  tokenizer: Fetched['tokenizer'];
  generationConfig: Fetched['generationConfig'];
}

export async function scenarioPrefill(model: string, scenario: string): Promise<ScenarioPrefill> {
  const { id, variant } = parseScenarioRef(scenario);
  const client = new EngineClient(() => new Worker('/engine.worker.js', { type: 'module' }));
  const { config, shards, tokenizer, tokenizerConfig, generationConfig } = await fetchModel(`/models/${model}/`, (u) => fetch(u));
  await client.load({ config, shards, tokenizer, tokenizerConfig, provider: 'wasm', numThreads: 2 } as LoadParams);
  const request = scenarioRequest(id, variant);
  const r = (await client.prompt(request, { addGenerationPrompt: true })) as PromptResult;
  if (!r.ok) throw new Error('prompt failed');
  const run = await client.prefill(r.prompt.ids);
  return { client, request, prompt: r.prompt, run, tokenizer, generationConfig };
}

/** The prefill as the Lab's Analysed: the whole conversation shown, every layer per head. */
export function analysedOf({ request, prompt, run }: ScenarioPrefill): Analysed {
  const agentRun = runOf(request);
  return {
    run: agentRun,
    callPrompts: [prompt],
    context: { kind: 'conversation', calls: agentRun.calls.length },
    conversationTokens: prompt.ids.length,
    conversationDiffers: true,
    prompt,
    labels: prompt.tokens.map(displayToken),
    attention: run.attention,
    headLayers: layersWithHeads(run.attention),
    tokens: prompt.ids.length,
  };
}

/** A div appended to the body, with the app's palette variables on the page. */
export function styledHost(): HTMLDivElement {
  const style = document.createElement('style');
  style.textContent = paletteCss();
  document.head.append(style);
  const host = document.createElement('div');
  document.body.append(host);
  return host;
}
