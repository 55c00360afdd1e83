'use client';
// The A/B attention rows that can differ: for each arm the query rows from the shared prefix on, over one
// key axis common to both arms (same colour scale, one legend), and the difference view: the decision row
// of B minus that of A, per layer, over the keys of the shared prefix (the same tokens at the same
// positions in both arms), on a diverging scale. Canvas only; the numbers come from lib/analysis.
import { memo, useEffect, useMemo, useRef, useState, type PointerEvent } from 'react';
import type { Tensor } from '../../lib/tensor';
import type { Prompt, Segment } from '../../lib/prompt/prompt';
import type { ArmAlignment } from '../../lib/analysis/abCompare';
import { reduceHeads, type HeadReduction } from '../../lib/analysis/attentionView';
import { decisionRowDiff } from '../../lib/analysis/abArms';
import { makeScale, paintRgba, type ScaleKind } from '../../lib/view/colormap';
import { finiteMax, poolMax, rowBlock } from '../../lib/view/abRaster';
import { divergingRgb, divergingTicks, makeDivergingScale, paintDiverging, poolSignedColumns, type DivergingScale } from '../../lib/view/diverging';
import { matrixJson } from '../../lib/io/export';
import { ExportFrame } from '../common/ExportFrame';
import { Legend, RampLegend } from '../charts/Legend';
import { SEGMENT_COLORS } from '../attention/TokenView';
import { useT } from '../common/i18n';
import { HeadSelect, LayerSelect, ScaleSelect } from '../common/ViewSelects';

export interface AbArmView {
  name: 'A' | 'B';
  title: string;
  prompt: Prompt;
  labels: string[];
  attention: Tensor[];
}

export interface AbHeatmapsProps {
  a: AbArmView;
  b: AbArmView;
  alignment: ArmAlignment;
  /** CSS width of the matrix area. */
  width?: number;
}

const GUTTER = 150;
const MAP = 'viridis' as const;
/** Most canvas rows drawn per arm; more query rows are max-pooled. */
const MAX_ROWS = 360;

function fmt(v: number): string {
  return Number.isFinite(v) ? v.toPrecision(3) : '—';
}

/** Key-axis ticks every "nice" step. */
function keyTicks(keys: number): number[] {
  const raw = keys / 8;
  const mag = Math.pow(10, Math.floor(Math.log10(Math.max(1, raw))));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let k = 0; k < keys; k += step) out.push(k);
  return out;
}

/** Segment colour band along the key axis: each pixel column takes the segment of its first key. */
function SegmentBand({ prompt, keys, width }: { prompt: Prompt; keys: number; width: number }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const c = ref.current;
    if (!c) return;
    const cols = Math.min(keys, width);
    c.width = cols;
    c.height = 1;
    const ctx = c.getContext('2d')!;
    ctx.clearRect(0, 0, cols, 1);
    let si = 0;
    const T = prompt.ids.length;
    for (let x = 0; x < cols; x++) {
      const k = Math.floor((x * keys) / cols);
      if (k >= T) break;
      while (si < prompt.spans.length - 1 && prompt.spans[si]!.end <= k) si++;
      const s = prompt.spans[si];
      ctx.fillStyle = s ? SEGMENT_COLORS[s.segment] : '#fff';
      ctx.fillRect(x, 0, 1, 1);
    }
  }, [prompt, keys, width]);
  return <canvas ref={ref} data-role="ab-band" style={{ display: 'block', width, height: 8, imageRendering: 'pixelated' }} />;
}

interface Hover {
  text: string;
  x: number;
  y: number;
}

/** One arm's rows [fromRow, T) × keys [0, keys), painted with `scale`; hover reads the exact weight. */
function ArmRows({
  arm,
  block,
  fromRow,
  keys,
  rowPx,
  width,
  paint,
  onHover,
}: {
  arm: AbArmView;
  block: Float32Array;
  fromRow: number;
  keys: number;
  rowPx: number;
  width: number;
  paint: (values: Float32Array, out: Uint8ClampedArray, rows: number, cols: number) => void;
  onHover: (h: Hover | null) => void;
}) {
  const t = useT();
  const ref = useRef<HTMLCanvasElement>(null);
  const T = arm.prompt.ids.length;
  const rows = Math.max(0, T - fromRow);
  const height = Math.max(rowPx, rows * rowPx > MAX_ROWS * 2 ? MAX_ROWS * 2 : rows * rowPx);
  useEffect(() => {
    const c = ref.current;
    if (!c || rows === 0) return;
    const pooled = poolMax(block, rows, keys, MAX_ROWS, width);
    c.width = pooled.cols;
    c.height = pooled.rows;
    const ctx = c.getContext('2d')!;
    const img = ctx.createImageData(pooled.cols, pooled.rows);
    paint(pooled.data, img.data, pooled.rows, pooled.cols);
    ctx.putImageData(img, 0, 0);
    c.dataset.painted = String(Number(c.dataset.painted ?? 0) + 1);
  }, [block, rows, keys, width, paint]);
  const onMove = (e: PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    const k = Math.min(keys - 1, Math.max(0, Math.floor(((e.clientX - r.left) / r.width) * keys)));
    const row = Math.min(rows - 1, Math.max(0, Math.floor(((e.clientY - r.top) / r.height) * rows)));
    const q = fromRow + row;
    const v = block[row * keys + k]!;
    const weight = Number.isNaN(v) ? (k >= T ? t('ab.heat.pastEnd', { arm: arm.name }) : t('ab.heat.future')) : v.toFixed(5);
    onHover({
      text: t('ab.heat.tip', { arm: arm.name, q, qLabel: arm.labels[q] ?? '', k, kLabel: k < T ? (arm.labels[k] ?? '') : '—', weight }),
      x: e.clientX - r.left + GUTTER,
      y: e.clientY - r.top,
    });
  };
  if (rows === 0) return <div style={{ marginLeft: GUTTER, color: '#555' }}>{t('ab.heat.noRows', { arm: arm.name })}</div>;
  return (
    <div style={{ display: 'flex', alignItems: 'flex-start' }}>
      <div style={{ width: GUTTER, flex: '0 0 auto', fontSize: 12, color: '#333', paddingRight: 6, boxSizing: 'border-box' }}>
        <div style={{ fontWeight: 600 }}>{arm.name}: {arm.title}</div>
        <div>{t('ab.heat.rows', { from: fromRow, to: T - 1, n: rows })}</div>
      </div>
      <div>
        <SegmentBand prompt={arm.prompt} keys={keys} width={width} />
        <canvas
          ref={ref}
          data-role={`ab-rows-${arm.name}`}
          data-rows={rows}
          data-keys={keys}
          data-from={fromRow}
          onPointerMove={onMove}
          onPointerLeave={() => onHover(null)}
          style={{ display: 'block', width, height, imageRendering: 'pixelated', marginTop: 2, cursor: 'crosshair' }}
        />
      </div>
    </div>
  );
}

export function DivergingLegend({ scale, width = 320, caption }: { scale: DivergingScale; width?: number; caption: string }) {
  return <RampLegend role="diverging-legend" caption={caption} width={width} colour={(f) => divergingRgb(f * 2 - 1)} colourKey="diverging" ticks={divergingTicks(scale)} />;
}

function SegmentKey({ prompts }: { prompts: Prompt[] }) {
  const t = useT();
  const present = new Set<Segment>();
  for (const p of prompts) for (const s of p.spans) present.add(s.segment);
  return (
    <div style={{ display: 'flex', gap: 10, flexWrap: 'wrap', fontSize: 11, color: '#333', alignItems: 'center' }}>
      <span>{t('ab.heat.bands')}</span>
      {[...present].map((s) => (
        <span key={s} style={{ display: 'inline-flex', alignItems: 'center', gap: 3 }}>
          <span style={{ width: 12, height: 10, background: SEGMENT_COLORS[s], display: 'inline-block', border: '1px solid #999' }} />
          {t(`segment.${s}`)}
        </span>
      ))}
    </div>
  );
}

export const AbHeatmaps = memo(function AbHeatmaps({ a, b, alignment, width = 1080 }: AbHeatmapsProps) {
  const t = useT();
  const L = a.attention.length;
  const H = a.attention[0]?.dims[0] ?? 1;
  const [layer, setLayer] = useState(L - 1);
  const [head, setHead] = useState<HeadReduction>('mean');
  const [kind, setKind] = useState<ScaleKind>('power');
  const [diffGamma, setDiffGamma] = useState(1);
  const [hover, setHover] = useState<Hover | null>(null);
  const [diffHover, setDiffHover] = useState<Hover | null>(null);
  const P = alignment.sharedPrefix;
  const Ta = a.prompt.ids.length;
  const Tb = b.prompt.ids.length;
  const keys = Math.max(Ta, Tb);
  const l = Math.min(layer, L - 1);

  const blocks = useMemo(() => {
    const one = (arm: AbArmView, T: number) => rowBlock(reduceHeads(arm.attention[l]!, head).data, T, Math.min(P, T), keys);
    return { a: one(a, Ta), b: one(b, Tb) };
  }, [a, b, l, head, P, keys, Ta, Tb]);
  const scale = useMemo(() => {
    const max = Math.max(finiteMax(blocks.a), finiteMax(blocks.b));
    return makeScale({ kind, min: 0, max: max || 1, gamma: 0.5 });
  }, [blocks, kind]);
  const paint = useMemo(() => (values: Float32Array, out: Uint8ClampedArray, rows: number, cols: number) => void paintRgba(values, rows, cols, scale, MAP, out), [scale]);
  const rowsA = Math.max(0, Ta - P);
  const rowsB = Math.max(0, Tb - P);
  const rowPx = Math.max(6, Math.min(18, Math.floor(360 / Math.max(1, rowsA, rowsB))));

  // The difference view: decision rows over the shared keys, every layer.
  const diff = useMemo(() => (P > 0 ? decisionRowDiff(a.attention, b.attention, Ta - 1, Tb - 1, P, head) : null), [a, b, Ta, Tb, P, head]);
  const dScale = useMemo(() => makeDivergingScale(diff?.maxAbs ?? 0, diffGamma), [diff, diffGamma]);
  const diffWidth = Math.round((P / keys) * width);
  const diffRef = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const c = diffRef.current;
    if (!c || !diff || diffWidth < 1) return;
    const cols = Math.min(diff.keys, diffWidth);
    const pooled = poolSignedColumns(diff.diff, diff.layers, diff.keys, cols);
    c.width = cols;
    c.height = diff.layers;
    const ctx = c.getContext('2d')!;
    const img = ctx.createImageData(cols, diff.layers);
    paintDiverging(pooled, diff.layers, cols, dScale, img.data);
    ctx.putImageData(img, 0, 0);
    c.dataset.painted = String(Number(c.dataset.painted ?? 0) + 1);
  }, [diff, dScale, diffWidth]);
  const onDiffMove = (e: PointerEvent<HTMLCanvasElement>) => {
    if (!diff) return;
    const r = e.currentTarget.getBoundingClientRect();
    const k = Math.min(diff.keys - 1, Math.max(0, Math.floor(((e.clientX - r.left) / r.width) * diff.keys)));
    const ly = Math.min(diff.layers - 1, Math.max(0, Math.floor(((e.clientY - r.top) / r.height) * diff.layers)));
    const i = ly * diff.keys + k;
    setDiffHover({
      text: t('ab.diff.tip', { layer: ly, k, kLabel: a.labels[k] ?? '', a: fmt(diff.a[i]!), b: fmt(diff.b[i]!), d: (diff.diff[i]! >= 0 ? '+' : '') + fmt(diff.diff[i]!) }),
      x: e.clientX - r.left + GUTTER,
      y: e.clientY - r.top,
    });
  };
  const headLabel = head === 'mean' ? t('head.mean') : head === 'max' ? t('head.max') : t('head.one', { head });
  const tip = (h: Hover | null) =>
    h && (
      <div
        role="tooltip"
        style={{ position: 'absolute', left: Math.min(h.x + 14, GUTTER + width - 320), top: h.y + 14, background: '#222', color: '#fff', padding: '4px 8px', borderRadius: 4, font: '12px ui-monospace, monospace', whiteSpace: 'pre', pointerEvents: 'none', zIndex: 2 }}
      >
        {h.text}
      </div>
    );
  const markerLeft = GUTTER + (P / keys) * width;
  // The rows drawn, per arm (query rows from the shared prefix on × the common key axis; null where a key is
  // in the row's future or past the arm's end), with the view's settings and one colour range.
  const rowsJson = () => ({
    kind: 'ab-attention-rows',
    layer: l,
    head,
    scale: kind,
    gamma: kind === 'power' ? scale.gamma : 1,
    colormap: MAP,
    range: { min: scale.min, max: scale.max },
    sharedPrefix: P,
    keys,
    arms: [
      { arm: a, block: blocks.a, T: Ta },
      { arm: b, block: blocks.b, T: Tb },
    ].map(({ arm, block, T }) => {
      const fromRow = Math.min(P, T);
      return { name: arm.name, title: arm.title, fromRow, rows: T - fromRow, tokens: arm.labels, spans: arm.prompt.spans, matrix: matrixJson(block, T - fromRow, keys) };
    }),
  });
  // The difference view: A's and B's decision rows and B − A per layer over the shared keys.
  const diffJson = () =>
    diff && {
      kind: 'ab-decision-diff',
      head,
      sharedPrefix: P,
      queries: { A: Ta - 1, B: Tb - 1 },
      layers: diff.layers,
      keys: diff.keys,
      gamma: diffGamma,
      maxAbs: diff.maxAbs,
      at: diff.at,
      tokens: a.labels.slice(0, diff.keys),
      sumA: diff.sumA,
      sumB: diff.sumB,
      diff: matrixJson(diff.diff, diff.layers, diff.keys),
      a: matrixJson(diff.a, diff.layers, diff.keys),
      b: matrixJson(diff.b, diff.layers, diff.keys),
    };

  return (
    <div style={{ display: 'grid', gap: 10 }} data-role="ab-heatmaps">
      <div style={{ display: 'flex', gap: 14, flexWrap: 'wrap', alignItems: 'center', fontSize: 14 }}>
        <LayerSelect value={l} layers={L} onChange={setLayer} control="ab-layer" />
        <HeadSelect value={head} heads={H} onChange={setHead} control="ab-head" />
        <ScaleSelect value={kind} onChange={setKind} control="ab-scale" gammaNote={0.5} />
      </div>
      <p style={{ margin: 0, color: '#444', fontSize: 13, maxWidth: 1100 }}>{t('ab.heat.intro', { p: P, ta: Ta, tb: Tb, rowsA, rowsB, layer: l, head: headLabel })}</p>
      <ExportFrame name={`ab-rows-L${l}-${head}`} title={t('export.caption.abRows', { layer: l, head: headLabel })} json={rowsJson} bodyStyle={{ display: 'grid', gap: 10 }}>
        <div style={{ position: 'relative', display: 'grid', gap: 12 }} onPointerLeave={() => setHover(null)}>
          <ArmRows arm={a} block={blocks.a} fromRow={Math.min(P, Ta)} keys={keys} rowPx={rowPx} width={width} paint={paint} onHover={setHover} />
          <ArmRows arm={b} block={blocks.b} fromRow={Math.min(P, Tb)} keys={keys} rowPx={rowPx} width={width} paint={paint} onHover={setHover} />
          <div aria-hidden style={{ position: 'absolute', left: markerLeft, top: 0, bottom: 18, width: 0, borderLeft: '2px dashed #d00', pointerEvents: 'none' }} />
          <div style={{ position: 'relative', height: 16, marginLeft: GUTTER, width, fontSize: 11, color: '#333' }}>
            {keyTicks(keys).map((k) => (
              <span key={k} style={{ position: 'absolute', left: (k / keys) * width, transform: 'translateX(-50%)' }}>{k}</span>
            ))}
            <span style={{ position: 'absolute', right: 0, top: 14 }}>{t('ab.heat.keyAxis')}</span>
          </div>
          {tip(hover)}
        </div>
        <div style={{ display: 'flex', gap: 24, flexWrap: 'wrap', alignItems: 'flex-end', marginLeft: GUTTER, marginTop: 8 }}>
          <Legend scale={scale} map={MAP} />
          <div style={{ fontSize: 12, color: '#333', maxWidth: 520 }}>
            <div>
              <span style={{ display: 'inline-block', width: 18, borderTop: '2px dashed #d00', verticalAlign: 'middle', marginRight: 6 }} />
              {t('ab.heat.marker', { p: P })}
            </div>
            <div>
              <span style={{ display: 'inline-block', width: 12, height: 10, background: 'rgb(224,224,224)', border: '1px solid #999', marginRight: 6 }} />
              {t('ab.heat.masked')}
            </div>
            <div>{t('ab.heat.sameScale', { max: scale.max.toPrecision(3) })}</div>
          </div>
        </div>
        <div style={{ marginLeft: GUTTER }}>
          <SegmentKey prompts={[a.prompt, b.prompt]} />
        </div>
      </ExportFrame>

      <h4 style={{ margin: '12px 0 0', fontSize: 14 }}>{t('ab.diff.title')}</h4>
      <p style={{ margin: 0, color: '#444', fontSize: 13, maxWidth: 1100 }}>{t('ab.diff.intro', { p: P, qa: Ta - 1, qb: Tb - 1, head: headLabel })}</p>
      {diff && diffWidth >= 1 ? (
        <ExportFrame name={`ab-decision-diff-${head}`} title={t('export.caption.abDiff', { head: headLabel })} json={diffJson}>
          <div style={{ position: 'relative' }} onPointerLeave={() => setDiffHover(null)}>
            <div style={{ display: 'flex', alignItems: 'flex-start' }}>
              <div style={{ width: GUTTER, flex: '0 0 auto', fontSize: 12, color: '#333' }}>
                {Array.from({ length: diff.layers }, (_, i) => (
                  <div key={i} style={{ height: 16, lineHeight: '16px', fontWeight: i === l ? 600 : 400 }}>{t('ab.diff.layerRow', { layer: i })}</div>
                ))}
              </div>
              <div>
                <SegmentBand prompt={a.prompt} keys={P} width={diffWidth} />
                <canvas
                  ref={diffRef}
                  data-role="ab-diff"
                  data-layers={diff.layers}
                  data-keys={diff.keys}
                  data-max={diff.maxAbs}
                  onPointerMove={onDiffMove}
                  style={{ display: 'block', width: diffWidth, height: diff.layers * 16, imageRendering: 'pixelated', marginTop: 2, cursor: 'crosshair' }}
                />
              </div>
            </div>
            {tip(diffHover)}
            <div style={{ display: 'flex', gap: 24, flexWrap: 'wrap', alignItems: 'flex-end', marginLeft: GUTTER, marginTop: 8 }}>
              <DivergingLegend scale={dScale} width={360} caption={t('ab.diff.legend')} />
              <label style={{ fontSize: 12 }}>
                <input type="checkbox" checked={diffGamma !== 1} onChange={(e) => setDiffGamma(e.target.checked ? 0.5 : 1)} /> {t('ab.diff.lift')}
              </label>
              <div style={{ fontSize: 12, color: '#333', maxWidth: 560 }}>
                {t('ab.diff.max', {
                  max: diff.maxAbs.toPrecision(3),
                  layer: diff.at?.layer ?? 0,
                  k: diff.at?.key ?? 0,
                  label: a.labels[diff.at?.key ?? 0] ?? '',
                })}
                {diff.sumA.map((sa, i) => (
                  <div key={i}>{t('ab.diff.sums', { layer: i, a: (100 * sa).toFixed(1), b: (100 * diff.sumB[i]!).toFixed(1) })}</div>
                ))}
              </div>
            </div>
          </div>
        </ExportFrame>
      ) : (
        <div style={{ color: '#555' }}>{t('ab.diff.none')}</div>
      )}
    </div>
  );
});
