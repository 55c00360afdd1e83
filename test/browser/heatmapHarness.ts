// Runs in headless Chromium (bundled by test/heatmapBrowser.test.ts): renders <Heatmap> with React 19
// createRoot and a known matrix chosen by the query string: ?kind=ramp|sink&T=64&px=256&spans=1&lang=en.
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { Heatmap } from '../../components/attention/Heatmap';
import { LangProvider } from '../../components/common/i18n';
import { makeScale } from '../../lib/view/colormap';
import { isLang } from '../../lib/i18n';
import { makeMatrix, makeSpans, type MatrixKind } from './heatmapMatrices';

const params = new URLSearchParams(location.search);
const kind = (params.get('kind') ?? 'ramp') as MatrixKind;
const T = Number(params.get('T') ?? 64);
const px = Number(params.get('px') ?? 256);
const lang = params.get('lang');
const labels = Array.from({ length: T }, (_, i) => `t${i}`);
const scale = makeScale({ kind: 'linear', min: 0, max: 1 });

const host = document.createElement('div');
host.id = 'root';
document.body.append(host);
createRoot(host).render(
  createElement(LangProvider, {
    lang: isLang(lang) ? lang : 'en',
    children: createElement(Heatmap, { matrix: makeMatrix(kind, T), size: T, labels, scale, map: 'viridis', px, spans: params.get('spans') === '1' ? makeSpans(T) : undefined }),
  }),
);
