// Runs in headless Chromium (bundled by test/copySourceBrowser.test.ts): the real engine worker behind
// EngineClient loads the embedded model, renders a scenario's prompt (the whole conversation, with the
// generation prompt) and prefills it, as the page's Lab does. Then, by ?mode=:
//   step     <StepLab> (the Step tab) on that prompt;
//   heatmap  the Attention tab's <HeatmapSection copySource> on that prefill's attention, the selected row in a
//            wrapper's state; window.__select(q) selects a row.
// window.__ids holds the prompt's ids, window.__client the engine client.
// Query string: ?mode=step|heatmap&scenario=vancouver&lang=en|zh&model=kvscope-tiny
import { createElement as h, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { StepLab } from '../../components/step/StepLab';
import { HeatmapSection } from '../../components/attention/HeatmapSection';
import { useAttentionView } from '../../components/attention/useAttentionView';
import { LangProvider } from '../../components/common/i18n';
import { isLang } from '../../lib/i18n';
import { readVocab } from '../../lib/prompt/vocab';
import type { Analysed } from '../../lib/state/analysed';
import type { ViewSettings } from '../../lib/state/store';
import type { EngineClient } from '../../lib/engine/client';
import { analysedOf, scenarioPrefill, styledHost } from './scenarioPrefill';

declare global {
  interface Window {
    __ids: number[];
    __client: EngineClient;
    __select: (q: number | null) => void;
    __harnessError?: string;
  }
}

const params = new URLSearchParams(location.search);
const lang = params.get('lang');
const mode = params.get('mode') ?? 'step';
const model = params.get('model') ?? 'kvscope-tiny';
const scenario = params.get('scenario') ?? 'vancouver';

function Heatmap({ data }: { data: Analysed }) {
  const [selected, setSelected] = useState<number | null>(null);
  window.__select = setSelected;
  const view: ViewSettings = { layer: data.attention.length - 1, head: 'mean', scale: 'power', gamma: 0.5, colormap: 'viridis', hideSink: false, pinned: [0] };
  const shown = useAttentionView(data, view);
  return h(HeatmapSection, { data, shown, matrix: shown.matrix!, view, onView: () => {}, model, scenario, selected, onSelect: setSelected, px: 560, copySource: true });
}

async function main() {
  const prefill = await scenarioPrefill(model, scenario);
  const { client, tokenizer, generationConfig } = prefill;
  window.__ids = prefill.prompt.ids;
  window.__client = client;
  const host = styledHost();
  const analysed = analysedOf(prefill);
  const child =
    mode === 'heatmap'
      ? h(Heatmap, { data: analysed })
      : h(StepLab, { client, analysed, model, scenario, vocab: readVocab(tokenizer), generationConfig });
  createRoot(host).render(h(LangProvider, { lang: isLang(lang) ? lang : 'en', children: child }));
}

main().catch((e) => {
  window.__harnessError = String(e);
  throw e;
});
