// Runs in headless Chromium (bundled by test/exportBrowser.test.ts): an <ExportFrame> around <Heatmap> with
// a small known matrix and its <Legend> (caption EVIL_CAPTION unless ?caption=…), and the position-bias
// chart with made-up numbers (it carries its own frame). ?lang=zh for Chinese labels.
import { createElement as h } from 'react';
import { createRoot } from 'react-dom/client';
import { ExportFrame } from '../../components/common/ExportFrame';
import { Heatmap } from '../../components/attention/Heatmap';
import { Legend } from '../../components/charts/Legend';
import { PositionBiasChart } from '../../components/charts/PositionBiasChart';
import { LangProvider } from '../../components/common/i18n';
import { heatmapViewJson } from '../../lib/io/export';
import { isLang } from '../../lib/i18n';
import { makeScale } from '../../lib/view/colormap';
import { makeSpans } from './heatmapMatrices';
import { EVIL_CAPTION, EXPORT_PX, EXPORT_T, exportBias, exportMatrix } from './exportFixtures';

const params = new URLSearchParams(location.search);
const lang = params.get('lang');
const caption = params.get('caption') ?? EVIL_CAPTION;
const T = EXPORT_T;
const matrix = exportMatrix();
const labels = Array.from({ length: T }, (_, i) => (i === 3 ? '<script>alert(2)</script>' : `t${i}`));
const spans = makeSpans(T);
const scale = makeScale({ kind: 'linear', min: 0, max: 1 });
const { bias, uniform } = exportBias();

const host = document.createElement('div');
host.id = 'root';
document.body.append(host);
createRoot(host).render(
  h(LangProvider, {
    lang: isLang(lang) ? lang : 'en',
    children: h(
      'div',
      { style: { display: 'grid', gap: 24, justifyItems: 'start' } },
      h(
        ExportFrame,
        {
          name: 'heat test/L1: mean',
          title: caption,
          json: () => heatmapViewJson({ model: 'synthetic', scenario: 'export-harness', layer: 1, head: 'mean', scale: 'linear', gamma: 1, colormap: 'viridis', hideSink: false, tokens: labels, spans, matrix, range: { min: scale.min, max: scale.max } }),
          children: [h(Heatmap, { key: 'heat', matrix, size: T, labels, scale, map: 'viridis', px: EXPORT_PX, spans }), h(Legend, { key: 'legend', scale, map: 'viridis' })],
        },
      ),
      h('div', { style: { width: 900 } }, h(PositionBiasChart, { bias, uniform, minQuery: 4, exportName: 'bias-test' })),
    ),
  }),
);
