// Runs in headless Chromium (bundled by test/kvLabBrowser.test.ts): the real engine worker behind
// EngineClient loads the embedded model, renders a scenario's calls and the chosen context (as the page's
// Lab does: by default the last call as it is sent), prefills it, then mounts <KvLab> inside a <main> laid
// out like the page's, under a 150 px block standing in for the page's header and tab bar, with the app's
// globals.css and palette variables. window.__expect holds what the tab should show by default.
// Query string: ?scenario=vancouver&lang=en|zh&model=kvscope-tiny&context=last|all|<call index>
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { KvLab } from '../../components/kv/KvLab';
import { LangProvider } from '../../components/common/i18n';
import { EngineClient } from '../../lib/engine/client';
import type { LoadParams } from '../../lib/engine/protocol';
import { renderPrompt } from '../../lib/engine/renderPrompt';
import { isLang } from '../../lib/i18n';
import { runOf } from '../../lib/agent/run';
import { defaultEdit } from '../../lib/analysis/invalidation';
import { displayToken } from '../../lib/prompt/label';
import { readVocab, singleToken } from '../../lib/prompt/vocab';
import type { Prompt } from '../../lib/prompt/prompt';
import { parseScenarioRef, scenarioRequest } from '../../lib/scenarios';
import { conversationDiffers, resolveContext } from '../../lib/state/context';
import type { Tensor } from '../../lib/tensor';
import { fetchModel } from '../../lib/model/fetchModel';
import { paletteCss } from '../../lib/view/palette';

const params = new URLSearchParams(location.search);
const lang = params.get('lang');
const model = params.get('model') ?? 'kvscope-tiny';
const scenario = params.get('scenario') ?? 'vancouver';
const { id, variant } = parseScenarioRef(scenario);
const ctxParam = params.get('context') ?? 'last';
const choice = ctxParam === 'all' || ctxParam === 'last' ? ctxParam : Number(ctxParam);

async function main() {
  const style = document.createElement('style');
  style.textContent = paletteCss();
  document.head.append(style);
  const client = new EngineClient(() => new Worker('/engine.worker.js', { type: 'module' }));
  const { config, shards, tokenizer, tokenizerConfig } = await fetchModel(`/models/${model}/`, (u) => fetch(u));
  await client.load({ config, shards, tokenizer, tokenizerConfig, provider: 'wasm', numThreads: 2 } as LoadParams);
  const request = scenarioRequest(id, variant);
  const run = runOf(request);
  const conversation = await renderPrompt(client, request);
  const callPrompts: Prompt[] = [];
  for (const call of run.calls) callPrompts.push(await renderPrompt(client, call.request));
  const context = resolveContext(run, choice);
  const prompt = context.kind === 'conversation' ? conversation : callPrompts[context.index]!;
  const pre = (await client.prefill(prompt.ids)) as { attention: Tensor[] };
  const vocab = readVocab(tokenizer);
  const edit = defaultEdit(prompt, (s) => singleToken(vocab, s).ok)!;
  (self as unknown as Record<string, unknown>).__expect = {
    T: prompt.ids.length,
    layers: pre.attention.length,
    calls: callPrompts.map((p) => p.ids.length),
    edit,
    editLabel: displayToken(prompt.tokens[edit.position]!),
  };
  const host = document.createElement('main');
  // As the page's <main>: at most 1400 px wide, 24 px side padding.
  host.style.cssText = 'max-width:1400px;padding:12px 24px 40px;display:grid;gap:12px';
  const chrome = document.createElement('div');
  chrome.dataset.role = 'fake-chrome';
  chrome.style.cssText = 'height:138px;background:#e9ecf1';
  host.append(chrome);
  const root = document.createElement('div');
  host.append(root);
  document.body.append(host);
  createRoot(root).render(
    createElement(LangProvider, {
      lang: isLang(lang) ? lang : 'en',
      children: createElement(KvLab, {
        client,
        analysed: {
          run,
          callPrompts,
          context,
          conversationTokens: conversation.ids.length,
          conversationDiffers: conversationDiffers(run),
          prompt,
          labels: prompt.tokens.map(displayToken),
          attention: pre.attention,
          tokens: prompt.ids.length,
        },
        vocab,
        layers: pre.attention.length,
        custom: [],
        model,
        scenarioName: scenario,
      }),
    }),
  );
}

main().catch((e) => {
  (self as unknown as Record<string, unknown>).__harnessError = String(e);
  throw e;
});
