// Runs in headless Chromium (bundled by test/parseProgressBrowser.test.ts): components/hooks/useParseWorker's
// parseImport with a real Worker (the test's bundle of workers/parse.worker.ts) and <ParseProgress> with its
// Cancel button. window.__load(url) fetches a file's bytes (kept apart from the measured reads: the test's
// browser instrumentation makes a fetch cost the page time); window.__parse(name) reads them in the worker,
// window.__parseHere() on the main thread instead (for comparison); window.__result is what came back.
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { LangProvider } from '../../components/common/i18n';
import { ParseProgress } from '../../components/data/ParseProgress';
import { parseImport, setParseWorkerFactory, wasCancelled } from '../../components/hooks/useParseWorker';
import { importData, type ImportOutcome } from '../../lib/io/importData';
import type { ParseWorkerLike } from '../../lib/io/parseClient';

const realWorker = () => new Worker('/parse.worker.js', { type: 'module' }) as unknown as ParseWorkerLike;
setParseWorkerFactory(realWorker);
const lang = new URLSearchParams(location.search).get('lang') === 'zh' ? 'zh' : 'en';
const host = document.createElement('div');
document.body.append(host);
createRoot(host).render(createElement(LangProvider, { lang, children: createElement(ParseProgress) }));

type Result = { ok: boolean; kind: string | null; calls?: number; error?: string; cancelled: boolean };
const w = window as unknown as {
  __load: (url: string) => Promise<void>;
  __parse: (name: string) => Promise<void>;
  __parseHere: () => Promise<void>;
  __holdNextWorker: () => void;
  __result: Result | null;
  __took: number;
  __resultAt: number;
  __lines: string[];
  __cancelOnShow: boolean;
  __cancelledAt: number;
  __ready: boolean;
};
let bytes = new Uint8Array(0);
const summary = (r: ImportOutcome): Result =>
  r.ok ? { ok: true, kind: r.kind, calls: r.kind === 'runlog' ? r.log.calls.length : undefined, cancelled: false } : { ok: false, kind: r.kind, error: r.error, cancelled: wasCancelled(r) };

w.__result = null;
w.__took = 0;
w.__resultAt = 0;
// What the progress line showed, read by a MutationObserver (not by polling the page from the test, which can
// miss a line that shows for a moment, or stall when the page draws no frames); with __cancelOnShow set, Cancel
// is clicked the moment the button is in the DOM, and __cancelledAt records when.
w.__lines = [];
w.__cancelOnShow = false;
w.__cancelledAt = 0;
new MutationObserver(() => {
  const line = host.querySelector('[data-role="parse-progress"]');
  if (!line) return;
  const text = line.textContent ?? '';
  if (w.__lines[w.__lines.length - 1] !== text) w.__lines.push(text);
  const button = line.querySelector<HTMLButtonElement>('[data-role="parse-cancel"]');
  if (w.__cancelOnShow && button) {
    w.__cancelOnShow = false;
    w.__cancelledAt = performance.now();
    button.click();
  }
}).observe(host, { childList: true, subtree: true, characterData: true });
w.__load = async (url) => {
  bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
};
w.__parse = async (name) => {
  w.__result = null;
  w.__lines = [];
  const t0 = performance.now();
  const r = summary(await parseImport(bytes, null, name));
  w.__resultAt = performance.now();
  w.__took = w.__resultAt - t0;
  w.__result = r;
};
w.__parseHere = async () => {
  w.__result = null;
  await new Promise((r) => setTimeout(r, 0));
  w.__result = summary(importData(bytes, null));
};
// The next worker stalls 30 s after a read's first progress message (test/browser/slowParse.worker.ts), so a read is
// still running when its Cancel button shows; the worker that replaces it after Cancel is the real one.
w.__holdNextWorker = () => {
  let first = true;
  setParseWorkerFactory(() => {
    if (!first) return realWorker();
    first = false;
    return new Worker('/slowParse.worker.js', { type: 'module' }) as unknown as ParseWorkerLike;
  });
};
w.__ready = true;
