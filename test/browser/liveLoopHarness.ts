// Runs in headless Chromium (bundled by test/liveLoopBrowser.test.ts): the real engine worker behind
// EngineClient loads the embedded model, and <LiveLoopPanel> is mounted on it with the scenario's request,
// the model's vocabulary and generation_config, under the app's stylesheet variables. Each finished run is
// left in `__runs` (the loop's own record: requests, prompt ids, engine counts) for the test to check.
// Query string: ?scenario=vancouver&lang=en|zh&model=kvscope-tiny
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { LiveLoopPanel } from '../../components/loop/LiveLoopPanel';
import { LangProvider } from '../../components/common/i18n';
import { EngineClient } from '../../lib/engine/client';
import type { LoadParams } from '../../lib/engine/protocol';
import { isLang } from '../../lib/i18n';
import { readVocab } from '../../lib/prompt/vocab';
import { parseScenarioRef, scenarioRequest } from '../../lib/scenarios';
import { fetchModel } from '../../lib/model/fetchModel';
import { paletteCss } from '../../lib/view/palette';

const params = new URLSearchParams(location.search);
const lang = params.get('lang');
const model = params.get('model') ?? 'kvscope-tiny';
const { id, variant } = parseScenarioRef(params.get('scenario') ?? 'vancouver');
const w = self as unknown as Record<string, unknown>;

async function main() {
  const client = new EngineClient(() => new Worker('/engine.worker.js', { type: 'module' }));
  const { config, shards, tokenizer, tokenizerConfig, generationConfig } = await fetchModel(`/models/${model}/`, (u) => fetch(u));
  const info = await client.load({ config, shards, tokenizer, tokenizerConfig, provider: 'wasm', numThreads: 2 } as LoadParams);
  const runs: unknown[] = [];
  w.__runs = runs;
  w.__client = client;
  const style = document.createElement('style');
  style.textContent = paletteCss();
  document.head.append(style);
  const host = document.createElement('div');
  host.className = 'panel';
  document.body.append(host);
  createRoot(host).render(
    createElement(LangProvider, {
      lang: isLang(lang) ? lang : 'en',
      children: createElement(LiveLoopPanel, {
        client,
        request: scenarioRequest(id, variant),
        model,
        vocab: readVocab(tokenizer),
        generationConfig,
        contextLimit: info.config.maxPositions,
        onRun: (run) =>
          runs.push({
            stop: run.stop,
            calls: run.calls.map((c) => ({ request: c.request, ids: c.prompt.ids, generated: c.generatedIds, reused: c.reused, recomputed: c.recomputed, promptTokens: c.promptTokens, cachedBefore: c.cachedBefore })),
          }),
      }),
    }),
  );
  w.__ready = true;
}

main().catch((e) => {
  w.__harnessError = String(e);
  throw e;
});
