// Runs in headless Chromium (bundled by test/stepLabBrowser.test.ts): the real engine worker behind
// EngineClient loads the embedded model, renders a scenario's prompt and prefills it (as the page's Lab
// does), records a few expected figures from that prefill, then mounts <StepLab>.
// Query string: ?scenario=vancouver&lang=en|zh&model=kvscope-tiny
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { StepLab } from '../../components/step/StepLab';
import { LangProvider } from '../../components/common/i18n';
import { EngineClient } from '../../lib/engine/client';
import type { LoadParams } from '../../lib/engine/protocol';
import type { PromptResult } from '../../lib/engine/promptHook';
import { isLang } from '../../lib/i18n';
import { runOf } from '../../lib/agent/run';
import { displayToken } from '../../lib/prompt/label';
import { readVocab } from '../../lib/prompt/vocab';
import { parseScenarioRef, scenarioRequest } from '../../lib/scenarios';
import { generate, lastRow } from '../../lib/generate/generate';
import { greedySettings, parseGenerationConfig, topTokensFromLogits } from '../../lib/generate/sampling';
import { attentionRow, messageStarts, reduceRow } from '../../lib/generate/stepper';
import { fetchModel } from '../../lib/model/fetchModel';

const params = new URLSearchParams(location.search);
const lang = params.get('lang');
const model = params.get('model') ?? 'kvscope-tiny';
const { id, variant } = parseScenarioRef(params.get('scenario') ?? 'vancouver');

async function main() {
  const client = new EngineClient(() => new Worker('/engine.worker.js', { type: 'module' }));
  const { config, shards, tokenizer, tokenizerConfig, generationConfig } = await fetchModel(`/models/${model}/`, (u) => fetch(u));
  await client.load({ config, shards, tokenizer, tokenizerConfig, provider: 'wasm', numThreads: 2 } as LoadParams);
  const request = scenarioRequest(id, variant);
  const r = (await client.prompt(request, { addGenerationPrompt: true })) as PromptResult;
  if (!r.ok) throw new Error('prompt failed');
  const run = await client.prefill(r.prompt.ids);
  const T = r.prompt.ids.length;
  const L = run.attention.length;
  // What the tab must show at the end of the prompt, from this independent full prefill.
  const last = lastRow(run.logits!);
  const meanRow = Array.from(reduceRow(attentionRow(run.attention[L - 1]!, T - 1, T), run.attention[0]!.dims[0]!, 'mean'));
  // Greedy generation from the end of the prompt on this same worker (the tab re-establishes its cache after).
  const eos = parseGenerationConfig(generationConfig).eosIds;
  const greedy = await generate(client, last, T, { maxNewTokens: 100, sampling: greedySettings(eos), seed: 0 });
  (self as unknown as Record<string, unknown>).__expect = { T, layers: L, top: topTokensFromLogits(last, 5), meanRow, ids: r.prompt.ids, starts: messageStarts(r.prompt.spans), greedy: greedy.ids, greedyStopped: greedy.stopped };
  (self as unknown as Record<string, unknown>).__client = client;
  const host = document.createElement('div');
  document.body.append(host);
  createRoot(host).render(
    createElement(LangProvider, {
      lang: isLang(lang) ? lang : 'en',
      children: createElement(StepLab, {
        client,
        analysed: { run: runOf(request), callPrompts: [r.prompt], prompt: r.prompt, labels: r.prompt.tokens.map(displayToken), attention: run.attention, tokens: T },
        vocab: readVocab(tokenizer),
        generationConfig,
      }),
    }),
  );
}

main().catch((e) => {
  (self as unknown as Record<string, unknown>).__harnessError = String(e);
  throw e;
});
