// Runs in headless Chromium (bundled by test/runlogViewBrowser.test.ts): <RunLogView> with React 19
// createRoot in a 1,100 px column. The test hands it a run log's text (the fixture page capture, or a
// generated log) through window.__show(text, name, lang), which parses it here with parseRunLog, as the
// page's import does, and renders the view afresh (new control state). Returns the parse error, or null.
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { LangProvider } from '../../components/common/i18n';
import { RunLogView } from '../../components/data/RunLogView';
import { isLang } from '../../lib/i18n';
import { parseRunLog } from '../../lib/io/runlog';

const host = document.createElement('div');
host.id = 'root';
host.style.width = '1100px';
document.body.append(host);
const root = createRoot(host);
let shown = 0;

const w = window as unknown as { __show: (text: string, name: string, lang: string) => string | null; __ready: boolean };
w.__show = (text, name, lang) => {
  const r = parseRunLog(text);
  if (!r.ok) return r.error;
  shown++;
  root.render(createElement(LangProvider, { lang: isLang(lang) ? lang : 'en', children: createElement(RunLogView, { key: shown, log: r.log, name, notes: r.notes }) }));
  return null;
};
w.__ready = true;
