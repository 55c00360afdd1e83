// Runs in headless Chromium (bundled by test/importedViewBrowser.test.ts): renders <ImportedAttentionView> with
// React 19 createRoot in a 1,300 px column for a fixture chosen by the query string: ?case=kvscope|trajectory|react&lang=en.
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { ImportedAttentionView } from '../../components/data/ImportedAttentionView';
import { LangProvider } from '../../components/common/i18n';
import { isLang } from '../../lib/i18n';
import { fixture, fixtureName, FIXTURE_CASES, type FixtureCase } from './importedFixtures';

const params = new URLSearchParams(location.search);
const c = params.get('case') as FixtureCase;
const lang = params.get('lang');
if (!FIXTURE_CASES.includes(c)) throw new Error(`unknown case ${c}`);

const host = document.createElement('div');
host.id = 'root';
host.style.width = '1300px';
document.body.append(host);
createRoot(host).render(
  createElement(LangProvider, {
    lang: isLang(lang) ? lang : 'en',
    children: createElement(ImportedAttentionView, { attention: fixture(c), name: fixtureName(c) }),
  }),
);
