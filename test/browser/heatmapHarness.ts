// Runs in headless Chromium (bundled by test/heatmapBrowser.test.ts): renders <Heatmap> with React 19
// createRoot and a known matrix chosen by the query string:
//   ?kind=ramp|sink&T=64&px=256&spans=1|agent&lang=en&pinned=0,5&selected=3&labels=words&legend=1&own=1
// The selection and the pinned columns live in a wrapper's state (as the app's store holds them) and are
// mirrored on window.__heatmap for the test; own=1 leaves both to the heatmap itself (as the imported view).
// mode=section renders the Attention tab's controls and figure row instead: AttentionControls above
// HeatmapSection (figure, legend) beside the tokens and the sink panel, on a made-up sink-model run of T tokens (&hide=1 hides key 0).
import { createElement as h, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { AttentionControls } from '../../components/attention/AttentionControls';
import { Heatmap } from '../../components/attention/Heatmap';
import { Legend } from '../../components/charts/Legend';
import { LangProvider } from '../../components/common/i18n';
import { makeScale } from '../../lib/view/colormap';
import { isLang } from '../../lib/i18n';
import { HeatmapSection } from '../../components/attention/HeatmapSection';
import { SinkPanel } from '../../components/attention/SinkPanel';
import { TokensSection } from '../../components/attention/TokensSection';
import { useAttentionView } from '../../components/attention/useAttentionView';
import type { TokenInfo } from '../../lib/prompt/prompt';
import type { Analysed } from '../../lib/state/analysed';
import type { ViewSettings } from '../../lib/state/store';
import { makeAgentSpans, makeMatrix, makeSpans, sinkAttention, wordLabels, type MatrixKind } from './heatmapMatrices';

declare global {
  interface Window {
    __heatmap: { selected: number | null; pinned: number[] };
  }
}

const params = new URLSearchParams(location.search);
const kind = (params.get('kind') ?? 'ramp') as MatrixKind;
const T = Number(params.get('T') ?? 64);
const px = Number(params.get('px') ?? 256);
const lang = params.get('lang');
const labels = params.get('labels') === 'words' ? wordLabels(T) : Array.from({ length: T }, (_, i) => `t${i}`);
const scale = makeScale({ kind: 'linear', min: 0, max: 1 });
const matrix = makeMatrix(kind, T);
const spanKind = params.get('spans');
const spans = spanKind === '1' ? makeSpans(T) : spanKind === 'agent' ? makeAgentSpans(T) : undefined;
const initialPinned = params.has('pinned') ? (params.get('pinned') ?? '').split(',').filter(Boolean).map(Number) : [0];
const initialSelected = params.has('selected') ? Number(params.get('selected')) : null;
window.__heatmap = { selected: initialSelected, pinned: initialPinned };

function App() {
  const [selected, setSelected] = useState<number | null>(initialSelected);
  const [pinned, setPinned] = useState<number[]>(initialPinned);
  window.__heatmap = { selected, pinned };
  const footer = params.get('legend') === '1' ? h(Legend, { scale, map: 'viridis', width: 220 }) : undefined;
  const common = { matrix, size: T, labels, scale, map: 'viridis' as const, px, spans, messageCount: spanKind === 'agent' ? 2 : spans ? 3 : undefined, footer };
  if (params.get('own') === '1') return h(Heatmap, common);
  return h(Heatmap, { ...common, selected, onSelect: setSelected, pinned, onPinned: setPinned });
}

/** A made-up run: word tokens (whitespace as typed), three messages, two layers of four sink heads. */
function fakeRun(): Analysed {
  const labels = wordLabels(T);
  const enc = new TextEncoder();
  let at = 0;
  const tokens: TokenInfo[] = labels.map((l, id) => {
    const text = l.replace(/␣/g, ' ').replace(/↵/g, '\n');
    const tok = { id, text, bytes: enc.encode(text), start: at, end: at + text.length, partial: false, special: /^<\|.*\|>$/.test(text) };
    at += text.length;
    return tok;
  });
  const tensor = (sink: number) => ({ data: sinkAttention(T, 4, sink), dims: [4, T, T] });
  const prompt = { text: tokens.map((t) => t.text).join(''), ids: tokens.map((t) => t.id), tokens, spans: makeSpans(T), messageCount: 3, notes: [] };
  return { labels, tokens: T, prompt, attention: [tensor(0.85), tensor(0.6)], callPrompts: [], run: {} } as unknown as Analysed;
}

function Section() {
  const data = useState(fakeRun)[0];
  const [view, setView] = useState<ViewSettings>({ layer: 0, head: 'mean', scale: 'power', gamma: 0.5, colormap: 'viridis', hideSink: params.get('hide') === '1', pinned: initialPinned });
  const [selected, setSelected] = useState<number | null>(initialSelected);
  window.__heatmap = { selected, pinned: view.pinned };
  const shown = useAttentionView(data, view);
  const onView = (p: Partial<ViewSettings>) => setView((v) => ({ ...v, ...p }));
  return h(
    'div',
    { style: { display: 'flex', gap: 16, alignItems: 'flex-start', flexWrap: 'wrap', width: Number(params.get('width') ?? 1240) } },
    h('div', { className: 'controls', style: { flex: '1 0 100%' } }, h(AttentionControls, { view, layers: shown.layers, heads: shown.heads, onChange: onView })),
    h('div', { style: { flex: '0 0 auto' } }, h(HeatmapSection, { data, shown, matrix: shown.matrix!, view, onView, model: 'kvscope-tiny-sink', scenario: 'made-up', selected, onSelect: setSelected, px })),
    h(
      'div',
      { style: { flex: '1 1 420px', minWidth: 0, display: 'grid', gap: 12 } },
      h('div', { className: 'panel' }, h(TokensSection, { data, matrix: shown.matrix, selected, onSelect: setSelected })),
      h('div', { className: 'panel' }, h(SinkPanel, { attention: data.attention, labels: data.labels })),
    ),
  );
}

const host = document.createElement('div');
host.id = 'root';
document.body.append(host);
createRoot(host).render(h(LangProvider, { lang: isLang(lang) ? lang : 'en', children: h(params.get('mode') === 'section' ? Section : App) }));
