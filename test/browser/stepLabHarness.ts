// Runs in headless Chromium (bundled by test/stepLabBrowser.test.ts): the real engine worker behind
// EngineClient loads the embedded model, renders a scenario's prompt (the whole conversation) and prefills
// it (as the page's Lab does), records expected figures from that prefill at a few query positions (the
// first, the 21st, the last), then mounts <StepLab> under the app's stylesheet variables.
// Query string: ?scenario=vancouver&lang=en|zh&model=kvscope-tiny
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { StepLab } from '../../components/step/StepLab';
import { LangProvider } from '../../components/common/i18n';
import { isLang } from '../../lib/i18n';
import { readVocab } from '../../lib/prompt/vocab';
import { generate, lastRow } from '../../lib/generate/generate';
import { greedySettings, parseGenerationConfig, topTokensFromLogits } from '../../lib/generate/sampling';
import { attentionRow, messageStarts, reduceRow } from '../../lib/generate/stepper';
import { analysedOf, scenarioPrefill, styledHost } from './scenarioPrefill';

const params = new URLSearchParams(location.search);
const lang = params.get('lang');
const model = params.get('model') ?? 'kvscope-tiny';
const scenario = params.get('scenario') ?? 'vancouver';

async function main() {
  const prefill = await scenarioPrefill(model, scenario);
  const { client, run, prompt, tokenizer, generationConfig } = prefill;
  const T = prompt.ids.length;
  const L = run.attention.length;
  // What the tab must show with the query at position q, from this independent full prefill (logits of every row).
  const last = lastRow(run.logits!);
  const V = run.logits!.dims[run.logits!.dims.length - 1]!;
  const at = (q: number) => ({
    q,
    top: topTokensFromLogits(run.logits!.data.subarray(q * V, (q + 1) * V), 5),
    meanRow: Array.from(reduceRow(attentionRow(run.attention[L - 1]!, q, q + 1), run.attention[0]!.dims[0]!, 'mean')),
  });
  const rows = [0, 20, T - 1].filter((q) => q < T).map(at);
  // Greedy generation from the end of the prompt on this same worker (the tab re-establishes its cache after).
  const eos = parseGenerationConfig(generationConfig).eosIds;
  const greedy = await generate(client, last, T, { maxNewTokens: 100, sampling: greedySettings(eos), seed: 0 });
  (self as unknown as Record<string, unknown>).__expect = { T, layers: L, top: topTokensFromLogits(last, 5), meanRow: rows.at(-1)!.meanRow, rows, ids: prompt.ids, starts: messageStarts(prompt.spans), greedy: greedy.ids, greedyStopped: greedy.stopped };
  (self as unknown as Record<string, unknown>).__client = client;
  const host = styledHost();
  createRoot(host).render(
    createElement(LangProvider, {
      lang: isLang(lang) ? lang : 'en',
      children: createElement(StepLab, {
        client,
        analysed: analysedOf(prefill),
        model,
        scenario,
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
