// Runs in headless Chromium (bundled by test/abLabBrowser.test.ts): the A/B tab on the real engine worker
// with the embedded model, as the page wires it (client, vocabulary, generation_config.json), plus one
// custom scenario for the "your own pair" mode. ?lang=en|zh; ?chrome=<px> puts a block that tall above the
// tab, standing in for the page's header, pickers and tab bar (layout checks at 1280×800).
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { AbLab } from '../../components/ab/AbLab';
import { LangProvider } from '../../components/common/i18n';
import { EngineClient } from '../../lib/engine/client';
import type { LoadParams } from '../../lib/engine/protocol';
import { isLang } from '../../lib/i18n';
import { readVocab } from '../../lib/prompt/vocab';
import { CUSTOM } from './abCustom';
import { fetchModel } from '../../lib/model/fetchModel';

async function main() {
  const params = new URLSearchParams(location.search);
  const lang = params.get('lang');
  const client = new EngineClient(() => new Worker('/engine.worker.js', { type: 'module' }));
  const { config, shards, tokenizer, tokenizerConfig, generationConfig } = await fetchModel('/models/kvscope-tiny/', (u) => fetch(u));
  await client.load({ config, shards, tokenizer, tokenizerConfig, provider: 'wasm', numThreads: 1 } as LoadParams);
  const chrome = Number(params.get('chrome') ?? 0);
  if (chrome > 0) {
    const stand = document.createElement('div');
    stand.dataset.role = 'page-chrome';
    stand.style.height = `${chrome}px`;
    document.body.append(stand);
  }
  const host = document.createElement('div');
  host.id = 'root';
  document.body.append(host);
  createRoot(host).render(
    createElement(LangProvider, {
      lang: isLang(lang) ? lang : 'en',
      children: createElement(AbLab, { client, analysed: null, scenario: 'vancouver', custom: [CUSTOM], generationConfig, vocab: readVocab(tokenizer), model: 'kvscope-tiny' }),
    }),
  );
}

main().catch((e: Error) => {
  document.body.append(`harness failed: ${e.message}`);
  throw e;
});
