// Runs in headless Chromium (bundled by test/economicsBrowser.test.ts): <CacheEconomics> with React 19
// createRoot, a renderPrompt built on lib/prompt (buildPrompt + createTokenizer from the embedded model's
// tokenizer files fetched over HTTP, as the page's worker does). Query: ?lang=en|zh; &delay=ms keeps
// `analysed` null that long (no model yet); &slow=ms delays each render; &fail=1 makes renderPrompt reject until window.__heal().
// window.__renders counts renderPrompt calls; window.__rerender() re-renders the parent with a new
// renderPrompt identity; window.__newAnalysed() hands it a new analysed object (as a scenario change does);
// window.__unload() sets analysed to null (as a model load does).
import { createElement, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { CacheEconomics } from '../../components/kv/CacheEconomics';
import type { Analysed } from '../../lib/state/analysed';
import { LangProvider } from '../../components/common/i18n';
import { runOf } from '../../lib/agent/run';
import { isLang } from '../../lib/i18n';
import { buildPrompt, type Prompt } from '../../lib/prompt/prompt';
import { createTokenizer, type Tokenizer } from '../../lib/prompt/tokenizer';
import { scenarioRequest } from '../../lib/scenarios';
import type { ChatRequest } from '../../lib/scenarios/types';

const params = new URLSearchParams(location.search);
const lang = params.get('lang');
const delay = Number(params.get('delay') ?? 0);
/** Milliseconds each renderPrompt call waits (a slow worker). */
const slow = Number(params.get('slow') ?? 0);
let fail = params.get('fail') === '1';
const w = window as unknown as { __renders: number; __rerender?: () => void; __newAnalysed?: () => void; __unload?: () => void; __heal: () => void };
w.__renders = 0;
w.__heal = () => {
  fail = false;
};

async function loadTokenizer(): Promise<Tokenizer> {
  const get = async (f: string) => {
    const r = await fetch(`/models/kvscope-tiny/${f}`);
    if (!r.ok) throw new Error(`${f}: HTTP ${r.status}`);
    return (await r.json()) as unknown;
  };
  return createTokenizer(await get('tokenizer.json'), await get('tokenizer_config.json'));
}

function Harness({ tok }: { tok: Tokenizer }) {
  const [analysed, setAnalysed] = useState<Analysed | null>(null);
  const [, setTick] = useState(0);
  w.__rerender = () => setTick((n) => n + 1);
  useEffect(() => {
    const request = scenarioRequest('vancouver');
    const prompt = buildPrompt(tok, request, { addGenerationPrompt: true });
    const run = runOf(request);
    const set = () =>
      setAnalysed({
        run,
        callPrompts: [],
        context: { kind: 'call', index: run.calls.length - 1, calls: run.calls.length },
        conversationTokens: prompt.ids.length,
        conversationDiffers: false,
        prompt,
        labels: [],
        attention: [],
        tokens: prompt.ids.length,
      });
    w.__newAnalysed = set;
    w.__unload = () => setAnalysed(null);
    const id = setTimeout(set, delay);
    return () => clearTimeout(id);
  }, [tok]);
  // A new function on every render, as an inline arrow in KvLab would be.
  const renderPrompt = async (request: ChatRequest): Promise<Prompt> => {
    w.__renders++;
    await new Promise((r) => setTimeout(r, slow));
    if (fail) throw new Error('renderer unavailable');
    return buildPrompt(tok, request, { addGenerationPrompt: true });
  };
  return createElement(CacheEconomics, { analysed, renderPrompt });
}

const host = document.createElement('div');
host.id = 'root';
host.style.width = '1360px';
document.body.append(host);
void loadTokenizer().then((tok) => {
  createRoot(host).render(createElement(LangProvider, { lang: isLang(lang) ? lang : 'en', children: createElement(Harness, { tok }) }));
});
