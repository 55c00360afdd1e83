// Runs in headless Chromium (bundled by test/requestEditorBrowser.test.ts): <RequestEditor> with React 19
// createRoot, its text held in state here as a parent would. The initial text comes from
// window.__initialText (set by the test before the page loads), the language from ?lang=en|zh; every
// onValidRequest and onValidity call is recorded in window.__editorLog.
import { createElement, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { RequestEditor } from '../../components/scenario/RequestEditor';
import { LangProvider } from '../../components/common/i18n';
import { isLang } from '../../lib/i18n';
import type { ChatRequest } from '../../lib/scenarios/types';

export interface EditorLog {
  valid: { request: ChatRequest; notes: string[] }[];
  validity: boolean[];
  textChanges: number;
}

const w = window as unknown as { __initialText?: string; __editorLog: EditorLog; setEditorText?: (text: string) => void };
const log: EditorLog = { valid: [], validity: [], textChanges: 0 };
w.__editorLog = log;
const lang = new URLSearchParams(location.search).get('lang');

function Harness() {
  const [text, setText] = useState(w.__initialText ?? '');
  w.setEditorText = setText;
  return createElement(RequestEditor, {
    text,
    onTextChange: (next: string) => {
      log.textChanges++;
      setText(next);
    },
    onValidRequest: (request: ChatRequest, notes: string[]) => void log.valid.push({ request, notes }),
    onValidity: (ok: boolean) => void log.validity.push(ok),
    rows: 12,
  });
}

const host = document.createElement('div');
host.id = 'root';
host.style.width = '700px';
document.body.append(host);
createRoot(host).render(createElement(LangProvider, { lang: isLang(lang) ? lang : 'en', children: createElement(Harness) }));
